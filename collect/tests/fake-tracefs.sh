#!/bin/bash
# fake-tracefs.sh COLLECTOR - boottrace-collect against a directory laid out
# like tracefs (built here): what goes into the bundle, what stays out, and
# the faults (no tracefs, a directory that is not one, an unreadable file, a
# full disk, a tracefs trace-cmd would not read, a disk without the marker).
# TAP, then "N passed, N failed".
set -uo pipefail
BIN=$(readlink -f "${1:?usage: fake-tracefs.sh COLLECTOR}")
# shellcheck source=../../tests/lib/tap.sh
. "$(dirname "$0")/../../tests/lib/tap.sh"
cd "$T_TMP" || exit 1

t_plan 57

# fake_tracefs DIR: a top array with two CPUs and five events, one instance
fake_array()
{
	local d=$1

	mkdir -p "$d/per_cpu/cpu0" "$d/per_cpu/cpu1" "$d/events/sched/sched_switch" \
		"$d/events/sched/sched_wakeup" "$d/events/task/task_newtask" \
		"$d/events/kprobes/myprobe" "$d/events/synthetic/wake_lat"
	echo 1 >"$d/tracing_on"
	echo '[local] global counter' >"$d/trace_clock"
	echo nop >"$d/current_tracer"
	echo 1408 >"$d/buffer_size_kb"
	echo 2816 >"$d/buffer_total_size_kb"
	echo 3 >"$d/tracing_cpumask"
	echo 'print-parent' >"$d/trace_options"
	: >"$d/set_event"
	: >"$d/error_log"
	: >"$d/trace"
	for c in 0 1; do printf 'entries: %s\noverrun: 0\n' "$c" >"$d/per_cpu/cpu$c/stats"; done
	for e in "$d"/events/*/*; do
		echo 0 >"$e/enable"
		echo none >"$e/filter"
		printf '# Available triggers:\n# traceon traceoff hist\n' >"$e/trigger"
		echo "name: ${e##*/}" >"$e/format"
		echo 42 >"$e/id"
		echo '# event histogram' >"$e/hist"
	done
}
fake_tracefs()
{
	local t=$1

	fake_array "$t"
	echo 1 >"$t/events/sched/sched_switch/enable"
	echo 'prev_pid == 1' >"$t/events/sched/sched_switch/filter"
	echo '0*' >"$t/events/task/task_newtask/enable"
	echo 'hist:keys=pid:vals=hitcount:sort=hitcount:size=2048 [active]' \
		>"$t/events/task/task_newtask/trigger"
	echo '{ pid: 1 } hitcount: 3' >"$t/events/task/task_newtask/hist"
	echo 'traceoff:unlimited' >>"$t/events/kprobes/myprobe/trigger"
	echo 'p:kprobes/myprobe vfs_read' >"$t/kprobe_events"
	echo 'p:kprobes/myprobe vfs_read' >"$t/dynamic_events"
	echo 'wake_lat u64 lat' >"$t/synthetic_events"
	echo 'applied ftrace.event.sched.sched_switch.enable' >"$t/boot_status"
	echo 'nop function' >"$t/available_tracers"
	fake_array "$t/instances/foo"
	echo 0 >"$t/instances/foo/tracing_on"
	echo 1 >"$t/instances/foo/events/synthetic/wake_lat/enable"
	echo '  trace_boot: error: bad' >"$t/instances/foo/error_log"
}

fake_tracefs fs
out=$("$BIN" -o b --tracefs fs --no-extract 2>&1)
t_is "$?" 0 "a complete bundle: exit 0"
t_is "$out" "" "and nothing on stderr"
t_is "$(cat fs/tracing_on fs/instances/foo/tracing_on)" "$(printf '0\n0')" \
	"tracing stopped in the top array and the instance"
t_is "$(cat b/tracefs/tracing_on b/tracefs/instances/foo/tracing_on)" "$(printf '1\n0')" \
	"the bundle keeps tracing_on as the boot left it"
t_is "$(cat b/tracefs/trace_clock)" '[local] global counter' "trace_clock copied byte for byte"
t_is "$(cat b/tracefs/per_cpu/cpu1/stats)" "$(cat fs/per_cpu/cpu1/stats)" "per-CPU stats"
t_is "$(cd b/tracefs/events && echo */*)" \
	"kprobes/myprobe sched/sched_switch task/task_newtask" \
	"only the events with enable, filter or trigger set (soft mode too)"
t_is "$(cat b/tracefs/events/sched/sched_switch/filter)" 'prev_pid == 1' "the filter"
t_is "$(cat b/tracefs/events/task/task_newtask/hist)" '{ pid: 1 } hitcount: 3' \
	"hist of the event with a hist trigger"
t_ok "no hist without a hist trigger" test ! -e b/tracefs/events/kprobes/myprobe/hist
t_is "$(cd b/tracefs/events/sched/sched_switch && echo *) " \
	"enable filter format id trigger " "enable, filter, format, id, trigger of an event"
for f in kprobe_events dynamic_events synthetic_events boot_status available_tracers; do
	t_is "$(cat "b/tracefs/$f" 2>&1)" "$(cat "fs/$f")" "global $f"
done
t_ok "a file the kernel lacks stays absent" test ! -e b/tracefs/snapshot_status
t_is "$(cd b/tracefs/instances/foo/events && echo */*)" "synthetic/wake_lat" \
	"the instance's own changed event"
t_is "$(cat b/tracefs/instances/foo/error_log)" '  trace_boot: error: bad' "its error_log"
t_is "$(cat b/proc/cmdline)" "$(cat /proc/cmdline)" "proc/cmdline"
t_ok "proc/bootconfig is always there" test -f b/proc/bootconfig
t_ok "dmesg without syslog prefixes" bash -c '[ -s b/dmesg ] && ! grep -q "^<[0-9]*>" b/dmesg'
t_is "$(cut -d' ' -f3 b/uname)" "$(uname -r)" "uname"
t_is "$(sed -n 's/^format=//p;s/^complete=//p;s/^collect_errors=//p' b/metadata | tr '\n' ' ')" \
	"boottrace-bundle-2 0 yes " "metadata: format, no errors, complete"
t_is "$(sed -n 's/^kernel_release_guest=//p' b/metadata)" "$(uname -r)" "metadata: the release"
t_grep b/metadata '^guest_uptime_at_collect=[0-9]+\.[0-9]+$' "metadata: uptime at collection"
t_is "$(cat b/collect.status)" errors=0 "collect.status"
t_grep b/collect.log 'tracefs state dumped' "collect.log has the progress"

# the host's additions: one function, no key twice
t_ok "--add-metadata appends the host's keys" bash -c "printf 'dracut=059\nsmp=2\n' | '$BIN' --add-metadata b"
t_is "$(tail -n2 b/metadata | tr '\n' ' ')" "dracut=059 smp=2 " "they are at the end"
cp b/metadata meta.before
t_ok "a key the collector wrote is refused" bash -c "! echo complete=yes | '$BIN' --add-metadata b"
t_is "$(cmp meta.before b/metadata && echo same)" same "and the metadata is unchanged"

# faults
"$BIN" -o nofs --tracefs "$T_TMP/none" >err 2>&1
t_is "$?" 2 "no tracefs: exit 2"
t_grep err "none: No such file or directory; nothing was written" "with a message naming it"
t_ok "and no bundle directory" test ! -e nofs
mkdir full
echo x >full/file
"$BIN" -o full --tracefs fs --no-extract 2>/dev/null
t_is "$?" 2 "a non-empty output directory is refused"

fake_tracefs bad
rm bad/trace_clock
mkdir bad/trace_clock
"$BIN" -o b2 --tracefs bad --no-extract >err 2>&1
t_is "$?" 1 "an unreadable file: exit 1"
t_grep err "cannot read bad/trace_clock: Is a directory" "the message names the file"
t_grep b2/metadata '^complete=no$' "the bundle is marked incomplete"
t_grep b2/metadata '^collect_errors=1$' "with the count"

fake_tracefs big
head -c 200000 /dev/zero | tr '\0' x >big/events/task/task_newtask/hist
(ulimit -f 64; exec "$BIN" -o b3 --tracefs big --no-extract) >err 2>&1
t_is "$?" 1 "a full disk: exit 1"
t_grep err "cannot write b3/tracefs/events/task/task_newtask/hist: File too large" \
	"the message names the file"
t_grep b3/metadata '^complete=no$' "the bundle is marked incomplete"

# not a tracefs: neither trace nor tracing_on
mkdir empty
for d in empty /etc; do
	"$BIN" -o "notfs${d//\//_}" --tracefs "$d" --no-extract >err 2>&1
	t_is "$?" 2 "--tracefs $d: exit 2"
	t_grep err "^boottrace-collect: error: $d is not a tracefs: it has no file 'trace' .*nothing was written" \
		"with a message naming $d"
	t_ok "and no bundle directory" test ! -e "notfs${d//\//_}"
done
fake_tracefs notrace
rm notrace/tracing_on
"$BIN" -o b4 --tracefs notrace --no-extract >err 2>&1
t_is "$?" 2 "a directory without tracing_on: exit 2"
t_grep err "notrace is not a tracefs: it has no file 'tracing_on'" "the message names the file"

# trace-cmd extract reads only the mounted tracefs: a fake tree with
# extraction is refused before tracing is stopped (the extraction itself is
# tested in test_collect, whose fake tree stands in for the mounted one)
fake_tracefs ext
"$BIN" -o b7 --tracefs ext --trace-cmd "$T_TMP/no-trace-cmd" >err 2>&1
t_is "$?" 2 "--tracefs other than the mounted tracefs, with extraction: exit 2"
t_grep err "^boottrace-collect: error: ext is not the mounted tracefs .*add --no-extract" \
	"the message names it and what to do"
t_ok "no bundle directory" test ! -e b7
t_is "$(cat ext/tracing_on ext/instances/foo/tracing_on)" "$(printf '1\n0')" \
	"and tracing left as it was"

# the raw disk: only one carrying the marker gets the archive
{ printf 'BOOTTRACE-COLLECT-DISK-1'; head -c 100000 /dev/zero; } >disk.img
rm -rf b5 b6
"$BIN" -o b5 --tracefs fs --no-extract --disk disk.img 2>/dev/null
t_is "$(tar -tf disk.img 2>&1 | grep -c -x -e metadata -e tracefs/instances/foo/trace_clock)" 2 \
	"--disk writes the bundle as a tar archive"
head -c 1000 /dev/zero >plain.img
"$BIN" -o b6 --tracefs fs --no-extract --disk plain.img 2>/dev/null
t_is "$?:$(tr -d '\0' <plain.img | wc -c)" "1:0" "a disk without the marker is not written"

t_done
rc=$?
echo "$((T_N - T_FAILED)) passed, $T_FAILED failed"
exit $rc
