#!/bin/bash
# Boot examples/default.bconf and check that the kernel applied all of it:
# the bundle's /proc/bootconfig, the kprobe, the filters, the synthetic event
# and its histogram, the instances, and that host trace-cmd reads trace.dat.
set -uo pipefail
. "$(dirname "$0")/tap.sh"

conf=$BT_TOP/examples/default.bconf
t_kernel
t_plan 34
t_boot default "$conf"
b=$T_TMP/default
t_is "$T_RC" 0 "boottrace boot exits 0"
[ -f "$b/metadata" ] || { echo "Bail out! no bundle: $T_ERR"; exit 1; }
t_is "$(t_meta "$b" machine)" microvm "it booted on the default machine, microvm"
t_ok "microvm: no PCI device was probed" sh -c "! grep -aq '\] pci 0000:' '$b/dmesg'"

for f in trace.dat console.log dmesg uname proc/cmdline proc/bootconfig \
	tracefs/per_cpu/cpu0/stats; do
	[ -s "$b/$f" ] || missing+=" $f"
done
[ -f "$b/tracefs/error_log" ] || missing+=" tracefs/error_log"
t_is "${missing:-}" "" "the bundle has trace.dat, console, dmesg, uname, proc/*, error_log, per-CPU stats"
t_is "$(t_meta "$b" bootconfig_status)" loaded "metadata: bootconfig loaded"
for k in kernel_release tree_version series_hash fragment_hash bconf_hash accelerator boot_wall_seconds; do
	[ -n "$(t_meta "$b" "$k")" ] || nokey+=" $k"
done
t_is "${nokey:-}" "" "metadata has release, tree version, hashes, accelerator, wall time"
t_is "$(grep -v '^#' "$b/proc/bootconfig")" \
	"$("$BT_TOP/bin/boottrace" bootconfig -l "$conf")" \
	"/proc/bootconfig equals bootconfig -l of the input"

tf=$b/tracefs
# shellcheck disable=SC2016 # literal $arg1
t_grep "$tf/kprobe_events" '^p:kprobes/vfs_read vfs_read arg1=\$arg1 arg2=\$arg2$' \
	"the vfs_read kprobe event is defined"
hits=$(awk '$1 == "vfs_read" { print $2 }' "$tf/kprobe_profile" 2>/dev/null)
t_ok "the kprobe fired (kprobe_profile hits: ${hits:-none})" test "${hits:-0}" -gt 0
t_is "$(cat "$tf/events/kprobes/vfs_read/filter" 2>&1)" "common_pid < 200" "the kprobe filter is set"
t_is "$(cat "$tf/events/task/task_newtask/filter" 2>&1)" "pid < 128" "the task_newtask filter is set"
t_is "$(cat "$tf/events/task/task_newtask/enable" 2>&1)" 1 "task_newtask is enabled"
kb=$(cat "$tf/buffer_size_kb" 2>&1)
t_ok "the top buffer has the configured size (1MB, got $kb KB)" test "$kb" -ge 1024 -a "$kb" -lt 1100
t_grep "$tf/synthetic_events" '^initcall_latency[[:space:]]+unsigned long func; u64 lat$' \
	"the synthetic event is defined"
t_grep "$tf/events/synthetic/initcall_latency/trigger" '^hist:keys=func.sym,lat:vals=hitcount,lat:sort=lat' \
	"the synthetic event has its hist trigger"
t_grep "$tf/events/initcall/initcall_finish/trigger" 'onmatch\(initcall\.initcall_start\)\.trace\(initcall_latency|onmatch\(initcall\.initcall_start\)\.initcall_latency' \
	"initcall_finish feeds the synthetic event"
entries=$(sed -n 's/^ *Entries: *//p' "$tf/events/synthetic/initcall_latency/hist" 2>/dev/null)
t_ok "the initcall_latency histogram has entries (${entries:-none})" test "${entries:-0}" -gt 0
t_grep "$tf/events/synthetic/initcall_latency/hist" '^\{ func: \[[0-9a-f]+\] [a-z_0-9]+' \
	"histogram keys are symbolised initcalls"
for i in foo bar; do
	t_is "$(cat "$tf/instances/$i/current_tracer" 2>&1)" function "instance $i runs the function tracer"
done
t_ok "instance foo filters user_* only" \
	awk 'BEGIN { n = 0 } /^#/ { next } !/^user_/ { bad = 1 } { n++ } END { exit bad || n == 0 }' \
	"$tf/instances/foo/set_ftrace_filter"
t_ok "instance bar filters kernel_* only" \
	awk 'BEGIN { n = 0 } /^#/ { next } !/^kernel_/ { bad = 1 } { n++ } END { exit bad || n == 0 }' \
	"$tf/instances/bar/set_ftrace_filter"

rep=$T_TMP/report.txt
trace-cmd report -i "$b/trace.dat" >"$rep" 2>"$T_TMP/report.err"
t_is "$?" 0 "host trace-cmd report reads trace.dat"
t_grep "$rep" ' vfs_read: +\([0-9a-f]+\) arg1=0x[0-9a-f]+ arg2=0x' "trace.dat has vfs_read kprobe events"
t_grep "$rep" '^bar: .* function: +kernel_' "trace.dat has the instance bar's function events"
t_grep "$rep" '^foo: .* function: +user_' "trace.dat has the instance foo's function events"

"$BT_TOP/bin/boottrace" report "$b" >"$T_TMP/summary.txt" 2>&1
t_grep "$T_TMP/summary.txt" '^Initcall latency from histogram top:synthetic:initcall_latency: [0-9]+ functions' \
	"boottrace report shows the initcall latency histogram"
t_grep "$T_TMP/summary.txt" '^  top +kprobes:vfs_read +[1-9][0-9]* ' "boottrace report counts the vfs_read events"

# The same kernel and image on -machine pc (PCI, SeaBIOS, the disk on
# virtio-pci): the machine real x86 systems resemble, kept booting.
t_boot pc "$conf" --machine pc
p=$T_TMP/pc
t_is "$T_RC" 0 "--machine pc: boottrace boot exits 0"
t_is "$(t_meta "$p" machine)" pc "--machine pc: the bundle says so"
t_is "$(t_meta "$p" bootconfig_status)" loaded "--machine pc: bootconfig loaded"
t_is "$(grep -v '^#' "$p/proc/bootconfig")" "$(grep -v '^#' "$b/proc/bootconfig")" \
	"--machine pc: the same /proc/bootconfig"
hits=$(awk '$1 == "vfs_read" { print $2 }' "$p/tracefs/kprobe_profile" 2>/dev/null)
t_ok "--machine pc: the kprobe fired (hits: ${hits:-none})" test "${hits:-0}" -gt 0
t_grep "$p/dmesg" '^\[ *[0-9.]+\] pci 0000:00:[0-9a-f.]+: \[1af4:1001\]' \
	"--machine pc: the disk is a virtio-blk PCI device"
t_done
