#!/bin/bash
# tests/cli.sh BINARY - trace-analysis on the recorded bundles in
# tests/fixtures/bundles and on broken copies of them.  Last line:
# "N passed, N failed".
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
bin=$(readlink -f "${1:?usage: cli.sh BINARY}")
fx=$here/fixtures/bundles
# shellcheck source=../../scripts/lib.sh
. "$top/scripts/lib.sh"
bt_need_pkgs jq libxml2-utils chromium python3-jsonschema python3-scipy
# rendered pictures are kept here for a person to look at (one directory
# per build of the program: the plain and the ASan runs go side by side)
art=$(cd "$here/.." && pwd)/build/artifacts
case "$bin" in */asan/*) art=$art/asan ;; esac
mkdir -p "$art"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0

ok() { passed=$((passed + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; }

# run NAME EXPECTED_RC CMD... : output in $tmp/out, stderr in $tmp/err
run()
{
	local name=$1 want=$2 rc=0
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
	if [ "$rc" -ge 128 ] || grep -q 'AddressSanitizer\|runtime error' "$tmp/err"; then
		bad "$name: crashed (rc $rc)"; sed 's/^/    /' "$tmp/err" | head -20
		return 1
	fi
	if [ "$rc" != "$want" ]; then
		bad "$name: exit $rc, want $want"; sed 's/^/    /' "$tmp/err" | head -5
		return 1
	fi
	ok "$name"
}

# has NAME PATTERN [FILE]: grep -E in the last output
has()
{
	if grep -qE -- "$2" "${3:-$tmp/out}"; then ok "$1"; else
		bad "$1: no /$2/"; fi
}

# --- the initcalls bundle: everything applied, no loss
run "report initcalls" 0 "$bin" report "$fx/initcalls" --top 5
has "initcall table" '^  1 +virtio_pci_driver_init +device +[0-9.]+ +[0-9.]+'
has "initcall count" 'initcall_start/finish\): 263,'
# PID 1 migrates: starts and finishes on different CPUs are still paired
run "report initcalls, all" 0 "$bin" report "$fx/initcalls" --top 300
has "migrating initcall" '^  4 +kswapd_init +device +1.263900 +102.571 +0$'
has "migrating initcall 2" ' deferred_probe_initcall +late +2.549134 +18.370 +0$'
has "migrating initcall 3" ' oom_init +subsys +0.709268 +7.525 +0$'
if grep -q ' open$' "$tmp/out"; then bad "no open initcall"; else ok "no open initcall"; fi
has "kprobe hits" 'getname +hits 21965'
has "all applied" 'all settings applied \(5 applied'
has "no data loss" '^  none: no overrun'
has "buffer_size checked" 'applied +ftrace.buffer_size = "2M"'

run "report --json" 0 "$bin" report "$fx/initcalls" --json
if jq -e '.schema == "boottrace-report-2" and (.initcalls | length) == 263
	and .settings_summary.all_applied and .metadata.format == "boottrace-bundle-1"
	and (.kprobes[0].hits == 21965) and (.data_loss | length) == 0' \
	"$tmp/out" >/dev/null; then ok "json schema fields"; else bad "json schema fields"; fi

run "report --svg --perfetto" 0 "$bin" report "$fx/initcalls" \
	--svg "$tmp/ic.svg" --perfetto "$tmp/ic.json"
if xmllint --noout "$tmp/ic.svg" 2>"$tmp/xerr"; then ok "svg well-formed"; else
	bad "svg well-formed: $(head -3 "$tmp/xerr")"; fi
has "svg labels the longest" 'fill="#d62728">virtio_pci_driver_init<title>' "$tmp/ic.svg"
has "svg time axis" '<g class="axis"><line ' "$tmp/ic.svg"
has "svg tick labels" '>(1000|1200) ms</text>' "$tmp/ic.svg"
has "svg legend" '<g class="legend">.*the 5 longest' "$tmp/ic.svg"
has "svg tooltip" '<title>kswapd_init \(device\) start 1.263900 s duration 102.571 ms</title>' "$tmp/ic.svg"
if jq -e '[.traceEvents[] | select(.ph == "X" and .cat == "initcall")] | length == 263' \
	"$tmp/ic.json" >/dev/null; then ok "perfetto initcalls"; else bad "perfetto initcalls"; fi
if jq -e '[.traceEvents[] | select(.ph == "X" and .name == "acpi_init" and .dur > 0)] | length == 1' \
	"$tmp/ic.json" >/dev/null; then ok "perfetto acpi_init"; else bad "perfetto acpi_init"; fi
if jq -e '[.traceEvents[] | select(.ph == "i" and .name == "kprobes:getname")] | length == 7480' \
	"$tmp/ic.json" >/dev/null; then ok "perfetto kprobe instants"; else bad "perfetto kprobe instants"; fi
if "$here/perfetto_check.py" "$tmp/ic.json" 263 >"$tmp/pc" 2>&1; then ok "perfetto structure (initcalls)"; else
	bad "perfetto structure (initcalls): $(head -3 "$tmp/pc")"; fi
if jq -e '[.traceEvents[] | select(.name == "kswapd_init")][0] | .dur > 102000 and .args.level == "device"
	and .pid >= 1 and (.args.addr | test("^0xffffffff"))' "$tmp/ic.json" >/dev/null; then
	ok "perfetto migrating initcall"; else bad "perfetto migrating initcall"; fi
if jq -e '[.traceEvents[] | select(.ph == "i")][0].args.__probe_ip | test("^0xffffffff[0-9a-f]+$")' \
	"$tmp/ic.json" >/dev/null; then ok "perfetto address args as hex"; else bad "perfetto address args as hex"; fi
run "perfetto failures" 1 "$bin" report "$fx/failures" --perfetto "$tmp/f.json"
if jq -e '[.traceEvents[] | select(.ph == "i" and .name == "task:task_newtask")][0].args
	| (.pid | type) == "number" and (.comm | type) == "string"' "$tmp/f.json" >/dev/null; then
	ok "perfetto event fields as args"; else bad "perfetto event fields as args"; fi
if "$here/perfetto_check.py" "$tmp/f.json" 0 >"$tmp/pc" 2>&1; then ok "perfetto: no empty tracks (failures)"; else
	bad "perfetto: no empty tracks (failures): $(head -3 "$tmp/pc")"; fi
run "perfetto default" 0 "$bin" report "$fx/default" --perfetto "$tmp/d.json"
if "$here/perfetto_check.py" "$tmp/d.json" 262 >"$tmp/pc" 2>&1; then ok "perfetto: histogram initcalls as slices"; else
	bad "perfetto: histogram initcalls as slices: $(head -3 "$tmp/pc")"; fi

# --- the JSON report is stable: byte for byte the recorded documents
# (fixtures/json, written before src/json.c was factored; regenerate them
# only for a schema addition, and review the diff)
for b in initcalls failures default; do
	rc=0
	(cd "$fx" && "$bin" report "$b" --json) >"$tmp/$b.json" 2>/dev/null || rc=$?
	if [ "$rc" -lt 2 ] && cmp -s "$tmp/$b.json" "$here/fixtures/json/$b.json"; then
		ok "json of $b byte-identical"
	else
		bad "json of $b differs from fixtures/json/$b.json (exit $rc)"
		diff <(jq -S . "$here/fixtures/json/$b.json") <(jq -S . "$tmp/$b.json") | head -10 | sed 's/^/    /' || true
	fi
done

# --- every JSON report validates against report.schema.json, and the
# schema is strict enough to refuse a number written as a string or a
# field it does not document
for b in initcalls failures default overflow; do
	rc=0
	"$bin" report "$fx/$b" --json >"$tmp/s-$b.json" 2>/dev/null || rc=$?
	[ "$rc" -lt 2 ] || bad "json of $b: exit $rc"
done
if "$here/schema_check.py" "$here/../report.schema.json" "$tmp"/s-*.json >"$tmp/sc" 2>&1; then
	ok "json validates against report.schema.json"; else bad "json schema: $(head -5 "$tmp/sc")"; fi
jq '.trace.records = "8013"' "$tmp/s-initcalls.json" >"$tmp/s-bad1.json"
jq '.instances[0].lost = 1' "$tmp/s-initcalls.json" >"$tmp/s-bad2.json"
jq '.initcalls[0].addr = 18446744071592319491' "$tmp/s-initcalls.json" >"$tmp/s-bad3.json"
for n in 1 2 3; do
	if "$here/schema_check.py" "$here/../report.schema.json" "$tmp/s-bad$n.json" >/dev/null 2>&1; then
		bad "schema refuses a wrong document ($n)"; else ok "schema refuses a wrong document ($n)"; fi
done
if jq -e '[.histograms[].rows[]?.keys.func | select(type == "object")][0].addr | test("^0xffffffff")' \
	"$tmp/s-default.json" >/dev/null; then ok "json hist symbol address as hex"; else bad "json hist symbol address as hex"; fi

# --- deliberate failures: each reported by key, exit 1
run "report failures" 1 "$bin" report "$fx/failures"
has "unknown event" 'FAILED +ftrace.event.nosuchgroup.nosuchevent.enable'
has "unknown event reason" 'Failed to find event: nosuchgroup:nosuchevent'
has "bad filter" "FAILED +ftrace.event.task.task_rename.filter"
has "bad filter reason" "filter rejected: Too many '\('"
has "unknown tracer" 'FAILED +ftrace.instance.badtracer.tracer = "nosuchtracer"'
has "too-long action" 'FAILED +ftrace.event.task.task_newtask.actions'
has "too-long action reason" 'action string is too long'
has "failure count" '4 of 10 settings FAILED'
has "tiny buffer overrun" '^  overrun +tiny +cpu0 +[1-9]'
# losses counted once per buffer and CPU: the overruns, not again as
# trace.dat's gaps (the reader's view of the same overwritten events)
has "tiny lost once" '^  tiny +function +\? +local +11 +671 +464290$'
if grep -q '^  missed' "$tmp/out"; then bad "gaps not counted twice"; else ok "gaps not counted twice"; fi
has "function summary" '^Functions traced in tiny \(function tracer, filter of 384 functions\): 671 calls of 59 functions, 464290 more records lost$'
has "function summary top" '^  1 +kmem_cache_alloc +199 +29.7%$'
run "failures --json" 1 "$bin" report "$fx/failures" --json
if jq -e '[.settings[] | select(.status == "failed") | .key] ==
	["ftrace.event.nosuchgroup.nosuchevent.enable", "ftrace.event.task.task_rename.filter",
	 "ftrace.event.task.task_newtask.actions", "ftrace.instance.badtracer.tracer"]
	and ([.data_loss[] | select(.kind == "overrun" and .instance == "tiny")] | length) == 2' \
	"$tmp/out" >/dev/null; then ok "failures json"; else bad "failures json"; fi

# --- tracefs/boot_status (kernel series): more failures than error_log
# keeps; every one reported from boot_status with its key
run "report overflow" 1 "$bin" report "$fx/overflow"
has "boot_status source" "^Was it applied \(proc/bootconfig vs the kernel's boot_status"
has "overflow tally" '^  21 of 26 settings FAILED, 0 pending \(for a module not loaded yet\), 1 not reported by the kernel, 0 other errors$'
has "enable never reached" '^  UNREPORTED ftrace.event.kprobes.badprobe.enable = ""'
has "array value failed" '^  FAILED +ftrace.options = "sym-addr, nosuchoption"'
unseen=0
while IFS= read -r line; do
	grep -qF -- "boot_status: $line" "$tmp/out" || { unseen=$((unseen + 1)); echo "    not in the report: $line"; }
done < <(grep '^failed ' "$fx/overflow/tracefs/boot_status")
if [ "$unseen" = 0 ]; then ok "every failed boot_status line in the report"; else
	bad "$unseen failed boot_status lines not in the report"; fi
run "overflow --json" 1 "$bin" report "$fx/overflow" --json
if jq -e '.settings_summary == {applied: 4, failed: 21, unchecked: 0, other_errors: 0,
	all_applied: false, pending: 0, not_reported: 1, source: "boot_status"}
	and ([.settings[] | select(.boot_status == "failed")] | length) == 21
	and ([.settings[] | select(.key == "kernel.trace_clock")][0].boot_status == null)' \
	"$tmp/out" >/dev/null; then ok "overflow json"; else bad "overflow json"; fi
printf 'applied ftrace.event.kprobes.*\nfailed ftrace.instance.bad.tracer\napplied *.task_newtask.enable\n' >"$tmp/o.expect"
run "check overflow" 1 "$bin" check "$fx/overflow" "$tmp/o.expect"
has "check: not reported is not applied" '^FAIL +applied ftrace.event.kprobes.\* +2 not applied \(1 failed, 0 pending, 1 not reported\)'
has "check: failed by key" '^ok +failed ftrace.instance.bad.tracer'
has "check: applied per boot_status" '^ok +applied \*.task_newtask.enable +1 applied'

# copies: a pending setting (and one applied later, when its module
# loaded), a status word this tool does not know, a line it cannot read,
# a state that disagrees with the kernel's word, and no boot_status at all
rm -rf "$tmp/b"
cp -r "$fx/overflow" "$tmp/b"
st=$tmp/b/tracefs/boot_status
sed -i -e 's/^applied \(ftrace.event.task.task_rename.enable\)$/pending \1 # waiting for a module/' \
	-e 's/^failed \(ftrace.tracer = "nosuchtracer"\) # .*/skipped \1 # not today/' "$st"
printf 'applied ftrace.instance.bad.event.task.task_newtask.enable # module m\ngarbage\n' >>"$st"
sed -i 's/^applied \(ftrace.instance.bad.event.task.task_newtask.enable\)$/pending \1 # waiting for a module/' "$st"
run "report pending" 1 "$bin" report "$tmp/b"
has "pending shown" '^  pending +ftrace.event.task.task_rename.enable = ""'
has "pending reason" 'boot_status: pending ftrace.event.task.task_rename.enable # waiting for a module'
has "applied after its module loaded" '^  applied +ftrace.instance.bad.event.task.task_newtask.enable'
has "module named" 'boot_status: applied \(module m\)'
has "unknown word: unchecked" '^  unchecked ftrace.tracer = "nosuchtracer"'
has "unknown word shown" 'boot_status: skipped ftrace.tracer = "nosuchtracer" # not today; unknown status'
has "unreadable line is an error" '^  ERROR +boot_status line 29 not understood: garbage'
has "pending tally" '^  20 of 26 settings FAILED, 1 pending'
printf 'pending ftrace.event.task.*\napplied ftrace.event.task.task_rename.enable\n' >"$tmp/p.expect"
run "check pending" 1 "$bin" check "$tmp/b" "$tmp/p.expect"
has "check pending" '^ok +pending ftrace.event.task.\*'
has "pending is not applied" '^FAIL +applied ftrace.event.task.task_rename.enable +1 not applied \(0 failed, 1 pending'
echo 0 >"$tmp/b/tracefs/events/task/task_rename/enable"
sed -i '/task:task_rename/d' "$tmp/b/tracefs/set_event"
sed -i 's/^pending \(ftrace.event.task.task_rename.enable\) # .*/applied \1/' "$st"
run "report disagreeing state" 1 "$bin" report "$tmp/b"
has "tracefs disagrees" 'FAILED +ftrace.event.task.task_rename.enable = ""$'
has "tracefs disagrees detail" 'boot_status: applied; but tracefs disagrees: task:task_rename not enabled'
rm "$st"
run "report without boot_status" 1 "$bin" report "$tmp/b"
has "old source" '^Was it applied \(proc/bootconfig vs tracefs, dmesg, error_log\)'
has "without it, dmesg decides" '^            dmesg: trace_boot: Failed to set tracing on: maybe$'
has "without boot_status, trace_boot's error_log by key" 'FAILED +ftrace.tracer = "nosuchtracer"'
if grep -q '^  ERROR' "$tmp/out"; then bad "error_log entries by key attributed"; else
	ok "error_log entries by key attributed"; fi

# the default example's boot_status as the kernel with the series wrote it
# (fixtures/boot_status): a synthetic event (reported on the event's key),
# hist actions, a kprobe with a filter, two instances: all applied
rm -rf "$tmp/b"
cp -r "$fx/default" "$tmp/b"
cp "$here/fixtures/boot_status/default-6.1-series" "$tmp/b/tracefs/boot_status"
run "report default with boot_status" 0 "$bin" report "$tmp/b" --json
if jq -e '.settings_summary.source == "boot_status" and .settings_summary.all_applied
	and ([.settings[] | select(.boot_status == "applied")] | length) == 14
	and ([.settings[] | select(.key == "ftrace.event.synthetic.initcall_latency.fields")][0].detail
	     | startswith("boot_status: applied; tracefs: synthetic event"))' "$tmp/out" >/dev/null; then
	ok "default: every setting applied per boot_status"; else bad "default: every setting applied per boot_status"; fi

# --- the default example's text state (no trace.dat)
run "report default" 0 "$bin" report "$fx/default"
has "synthetic hist table" 'histogram top:synthetic:initcall_latency: 262 functions'
# (no trace.dat initcalls to place the rows: no level and start columns)
has "hist initcall columns" '^  1 +virtio_pci_driver_init +1 +2246248$'
if grep -q 'Initcalls from trace.dat' "$tmp/out"; then bad "no empty trace.dat initcall table"; else
	ok "no empty trace.dat initcall table"; fi
has "hist sorted by value" '^    virtio_pci_driver_init, 2246248 +hitcount 1 +lat 2246248$'
has "hist ranked by" '^    hits 263, entries 263, dropped 0; by lat$'
# (the keys=func hists: func alone in the keys, not the synthetic hist's own
# func.sym,lat; in the report just written, not the recorded one)
has "hist keys named from another hist" '"keys":\{"func":\{"kind":"sym","text":"update_mp_table","addr":"0xffffffff[0-9a-f]+"\}\}' "$tmp/default.json"
has "pairing hist folded" '^    every key hitcount 1$'
has "no trace.dat: losses unknown" '^  unknown: trace.dat: missing'
has "kprobe profile" 'vfs_read +hits 8031'
has "default all applied" 'all settings applied \(15 applied'
has "missing trace.dat" 'trace.dat: missing'
has "buffer_size 1MB applied" 'applied +ftrace.buffer_size = "1MB"'
# with them (the default fixture's histogram in a copy of initcalls)
cp -r "$fx/initcalls" "$tmp/hc"
cp -r "$fx/default/tracefs/events/synthetic" "$tmp/hc/tracefs/events/"
run "report, histogram rows placed" 0 "$bin" report "$tmp/hc"
has "hist initcall columns placed" '^  1 +virtio_pci_driver_init +device +1\.491256 +1 +2246248$'
# without trace.dat the record counts fail, the text-state checks pass
run "check default.expect" 1 "$bin" check "$fx/default" "$top/examples/default.expect"
has "check tally" '^9 passed, 5 failed$'
has "check: losses unknown without trace.dat" '^FAIL +no-data-loss +unknown: trace.dat could not be read'
has "check record count" '^FAIL +event kprobes:vfs_read >= 1 in top +unknown: trace.dat: missing .*; read: 0 records$'
has "check hist" '^ok +hist synthetic:initcall_latency >= 50 +263 entries'

# --- a bundle of `boottrace collect` on a live system: only the
# collector's keys in its metadata; the verdict comes from its dmesg and
# proc/cmdline, the release and boot time from the collector's keys
cp -r "$fx/initcalls" "$tmp/live"
sed -i -E '/^(format|collector|kernel_release_guest|guest_[a-z_]+|collect_errors|complete)=/!d' \
	"$tmp/live/metadata"
run "report, live bundle" 0 "$bin" report "$tmp/live"
has "live: the collector's release" '^kernel      6\.1\.[0-9]+-boottrace \(collected live by '
has "live: boot started" '^boot        started 20[0-9-]+T[0-9:]+Z, collected at '
has "live: bootconfig verdict from dmesg" '^bootconfig  loaded \(Load bootconfig: '
printf 'bootconfig loaded\n' >"$tmp/live.expect"
run "check bootconfig loaded, live bundle" 0 "$bin" check "$tmp/live" "$tmp/live.expect"
sed -i 's/ bootconfig$//; s/ bootconfig / /' "$tmp/live/proc/cmdline"
run "report, live bundle, no bootconfig on the command line" 0 "$bin" report "$tmp/live"
has "live: loaded without being asked is not-requested" '^bootconfig  not-requested \(Load bootconfig: '
run "diff of live bundles" 0 "$bin" diff "$tmp/live" "$tmp/live"
has "diff names the live release and start" '^A  .*/live \(6\.1\.[0-9]+-boottrace, 20[0-9-]+T[0-9:]+Z\)$'

# --- the series' notice for a setting kept for a module is not an error
cp -r "$fx/failures" "$tmp/kept"
echo "[    1.000000] trace_boot: Event foo:bar not found, kept until a module adds it" \
	>>"$tmp/kept/dmesg"
run "report --json, a kept-for-a-module notice" 1 "$bin" report "$tmp/kept" --json
if jq -e '.boot_errors | length == 4' "$tmp/out" >/dev/null; then
	ok "a kept-for-a-module notice is not a trace_boot error"; else
	bad "a kept-for-a-module notice is not a trace_boot error"; fi

# --- KTAP version 1 (check --ktap), parsed by the packaged tree's own
# tools/testing/kunit/kunit.py with the same counts
kunit=$(bt_tree_dir 6.1)/tools/testing/kunit/kunit.py
run "check --ktap" 1 "$bin" check "$fx/default" "$top/examples/default.expect" --ktap
cp "$tmp/out" "$tmp/check.ktap"
has "ktap header" '^KTAP version 1$'
has "ktap case" '^    not ok [0-9]+ no-data-loss$'
if python3 "$kunit" parse "$tmp/check.ktap" >"$tmp/kp" 2>&1; then
	bad "kunit.py parse: the failures should fail it"; else ok "kunit.py parse: exit status says failed"; fi
has "kunit.py counts" 'Ran 14 tests: passed: 9, failed: 5' "$tmp/kp"
if grep -qE '\[ERROR\]|Traceback|CRASHED' "$tmp/kp"; then bad "kunit.py parse: no parser errors"; else
	ok "kunit.py parse: no parser errors"; fi
printf 'bootconfig loaded\n# a comment\ninitcalls >= 50\n' >"$tmp/ok.expect"
run "check --ktap, all met" 0 "$bin" check "$fx/default" "$tmp/ok.expect" --ktap
if python3 "$kunit" parse "$tmp/out" >"$tmp/kp" 2>&1 && grep -q 'Ran 2 tests: passed: 2' "$tmp/kp"; then
	ok "kunit.py parse: all passed"; else bad "kunit.py parse: all passed: $(tail -2 "$tmp/kp")"; fi
printf 'bootconfig loaded\nbogus thing\n' >"$tmp/bad.expect"
run "check --ktap, bad EXPECT" 2 "$bin" check "$fx/default" "$tmp/bad.expect" --ktap
if [ -s "$tmp/out" ]; then bad "bad EXPECT: nothing half-written"; else ok "bad EXPECT: nothing half-written"; fi

# --- check: expectations that fail, and a bad EXPECT file
printf 'applied\nno-data-loss\nfailed ftrace.instance.badtracer.*\nkprobe nosuch\n' >"$tmp/f.expect"
run "check failures" 1 "$bin" check "$fx/failures" "$tmp/f.expect"
has "check reports unmet" '^FAIL +applied'
has "check expected failure" '^ok +failed ftrace.instance.badtracer'
has "check counts" '^1 passed, 3 failed$'
printf 'event\nbogus thing\n' >"$tmp/bad.expect"
run "check bad expect" 2 "$bin" check "$fx/failures" "$tmp/bad.expect"
has "bad expect names line and column" 'bad.expect:1:1: .event. takes 1 to 1 arguments' "$tmp/err"

# --- check: tracefs/file/cmdline/init-arg, function records, not, quotes
cat >"$tmp/k.expect" <<'EOF2'
function "*alloc*" >= 100 in tiny
only-functions "*alloc*" in tiny
not only-functions "kmalloc*" in tiny
function "kmalloc*, kmem_cache_alloc*" >= 10 in tiny
not function "*" in top
tracefs current_tracer function in tiny
tracefs set_ftrace_filter "*alloc*" in tiny
tracefs events/task/task_rename/filter "comm ==== (broken"
not tracefs current_tracer function
file dmesg "*Load bootconfig: *"
cmdline bootconfig
cmdline "trace_clock=*"
not init-arg bootconfig
only-functions "kmalloc*" in tiny
tracefs current_tracer nop in tiny
init-arg bootconfig
file ../metadata "*"
EOF2
run "check new kinds" 1 "$bin" check "$fx/failures" "$tmp/k.expect"
has "check new kinds tally" '^13 passed, 4 failed$'
has "only-functions names another" '^FAIL +only-functions "kmalloc\*" in tiny +[0-9]+ records of other functions, e.g. '
has "tracefs mismatch" '^FAIL +tracefs current_tracer nop in tiny +tracefs/instances/tiny/current_tracer: no line'
has "no path escape" '^FAIL +file ../metadata "\*" +../metadata: missing'
# --- check: cpus, records on the listed CPUs only (the fixture's tiny has
# 351 records on CPU 0 and 320 on CPU 1, the top buffer 61 and 54)
cat >"$tmp/c.expect" <<'EOF2'
cpus 0-1 >= 671 in tiny
cpus 0,1 >= 786
not cpus 0 in tiny
cpus 1 in tiny
cpus 0-1 >= 672 in tiny
cpus 0 in nosuch
EOF2
run "check cpus" 1 "$bin" check "$fx/failures" "$tmp/c.expect"
has "cpus tally" '^3 passed, 3 failed$'
has "cpus met" '^ok +cpus 0-1 >= 671 in tiny +671 records, none on other CPUs than 0-1$'
has "cpus names the other CPU" '^FAIL +cpus 1 in tiny +351 of 671 records on other CPUs, e.g. 351 on CPU 0$'
has "cpus counts against >=" '^FAIL +cpus 0-1 >= 672 in tiny +671 records'
has "cpus of no buffer" '^FAIL +cpus 0 in nosuch +no records$'
for l in 0- 1-0 a ,1 '0,,1' 0-1x; do
	printf '# a comment\n  cpus %s in tiny\n' "$l" >"$tmp/q.expect"
	run "check cpus '$l'" 2 "$bin" check "$fx/failures" "$tmp/q.expect"
	has "cpus '$l' is named with line and column" "q.expect:2:8: '$l' is not a CPU list" "$tmp/err"
done
# --- check: data-loss KIND; an unknown kind is an error, not a line that
# can never fail under "not"
printf 'data-loss overrun in tiny\nnot data-loss never_fired in tiny\nnot data-loss overrun in top\ndata-loss dropped in tiny\n' >"$tmp/c.expect"
run "check data-loss kinds" 1 "$bin" check "$fx/failures" "$tmp/c.expect"
has "data-loss kinds tally" '^3 passed, 1 failed$'
has "data-loss overrun found" '^ok +data-loss overrun in tiny +2 findings, first: overrun tiny cpu0 207060$'
printf 'not data-loss bogus in tiny\n' >"$tmp/q.expect"
run "check data-loss bogus" 2 "$bin" check "$fx/failures" "$tmp/q.expect"
has "unknown kind named with line and column" "q.expect:1:15: 'bogus' is not a kind of data loss \\(overrun, commit_overrun, " "$tmp/err"
printf 'tracefs "current_tracer\n' >"$tmp/q.expect"
run "check unclosed quote" 2 "$bin" check "$fx/failures" "$tmp/q.expect"
has "unclosed quote names line and column" "q.expect:1:9: no closing" "$tmp/err"
printf 'not\n' >"$tmp/q.expect"
run "check bare not" 2 "$bin" check "$fx/failures" "$tmp/q.expect"
# an expectations file without an expectation would pass any bundle
for q in '' $'# only a comment\n\n   \n'; do
	printf '%s' "$q" >"$tmp/q.expect"
	run "check, no expectation in '${q%%$'\n'*}'" 2 "$bin" check "$fx/failures" "$tmp/q.expect"
	has "no expectation: the file named" "^trace-analysis check: $tmp/q.expect: no expectation in it " "$tmp/err"
	if [ -s "$tmp/out" ]; then bad "no expectation: nothing printed"; else ok "no expectation: nothing printed"; fi
done

# --- check: what needs trace.dat is unknown without it, "not" or not (a
# bundle without trace.dat has no records, which met every negation)
rm -rf "$tmp/nt"
cp -r "$fx/initcalls" "$tmp/nt"
rm "$tmp/nt/trace.dat"
printf 'not event kprobes:*\n' >"$tmp/q.expect"
run "not event, with trace.dat" 1 "$bin" check "$fx/initcalls" "$tmp/q.expect"
has "not event, with trace.dat: its records" '^FAIL +not event kprobes:\* +7480 records$'
run "not event, without trace.dat" 1 "$bin" check "$tmp/nt" "$tmp/q.expect"
has "not event, without trace.dat: unknown" '^FAIL +not event kprobes:\* +unknown: trace.dat: missing \(the collector did not extract the buffers\); read: 0 records$'
cat >"$tmp/q.expect" <<'EOF2'
event kprobes:getname
not function "*" in top
not only-functions "*alloc*"
not cpus 0
not initcall no_such_initcall
not initcalls >= 1
not data-loss overrun
not no-data-loss
initcall acpi_init
kprobe getname
not failed *
EOF2
run "trace.dat expectations, without trace.dat" 1 "$bin" check "$tmp/nt" "$tmp/q.expect"
has "without trace.dat: tally" '^2 passed, 9 failed$'
for l in 'event kprobes:getname' 'not function "\*" in top' 'not only-functions "\*alloc\*"' \
	'not cpus 0' 'not initcall no_such_initcall' 'not initcalls >= 1'; do
	has "without trace.dat: $l unknown" "^FAIL +$l +unknown: trace.dat: missing "
done
has "without trace.dat: not data-loss unknown" '^FAIL +not data-loss overrun +unknown: trace.dat could not be read'
has "without trace.dat: kprobe_profile still counts" '^ok +kprobe getname +21965 hits$'
run "trace.dat expectations, with trace.dat" 1 "$bin" check "$fx/initcalls" "$tmp/q.expect"
has "with trace.dat: tally" '^9 passed, 2 failed$'
# a latency histogram's row is proof without trace.dat; its absence is not
printf 'initcall acpi_init\nnot initcall acpi_init\nnot initcall no_such_initcall\n' >"$tmp/q.expect"
run "initcall from the histogram" 1 "$bin" check "$fx/default" "$tmp/q.expect"
has "histogram row: met" '^ok +initcall acpi_init +512846 us$'
has "histogram row: not, unmet" '^FAIL +not initcall acpi_init +512846 us$'
has "not in the histogram: unknown" '^FAIL +not initcall no_such_initcall +unknown: trace.dat: missing'
# proc/cmdline is in every bundle: without it nothing is known; a file
# that is there but unreadable is an error (exit 2) naming it
rm "$tmp/nt/proc/cmdline"
printf 'not cmdline nosuch\nnot init-arg nosuch\n' >"$tmp/q.expect"
run "cmdline without proc/cmdline" 1 "$bin" check "$tmp/nt" "$tmp/q.expect"
has "cmdline without proc/cmdline: unknown" '^0 passed, 2 failed$'
has "cmdline without proc/cmdline: named" '^FAIL +not cmdline nosuch +proc/cmdline: missing$'
mkdir "$tmp/nt/proc/cmdline" "$tmp/nt/console.log"
printf 'not file console.log "*error*"\nnot file nosuch.log "*"\nnot cmdline nosuch\n' >"$tmp/q.expect"
run "file unreadable" 2 "$bin" check "$tmp/nt" "$tmp/q.expect"
has "file unreadable: unmet" '^FAIL +not file console.log "\*error\*" +console.log: cannot read: Is a directory$'
has "file absent: no line, not is met" '^ok +not file nosuch.log "\*" +nosuch.log: missing$'
has "file unreadable: named on stderr" "^trace-analysis: $tmp/nt: console.log: cannot read: Is a directory$" "$tmp/err"
has "proc/cmdline unreadable: named on stderr" "^trace-analysis: $tmp/nt: proc/cmdline: cannot read: Is a directory$" "$tmp/err"
# read once at load: an error for every command, not only for check's cmdline
printf 'not file nosuch.log "*"\n' >"$tmp/q.expect"
run "proc/cmdline unreadable, check without cmdline" 2 "$bin" check "$tmp/nt" "$tmp/q.expect"
has "proc/cmdline unreadable: check names it" "^trace-analysis: $tmp/nt: proc/cmdline: cannot read: Is a directory$" "$tmp/err"
run "proc/cmdline unreadable, report" 2 "$bin" report "$tmp/nt"
has "proc/cmdline unreadable: report names it" "^trace-analysis: $tmp/nt: proc/cmdline: cannot read: Is a directory$" "$tmp/err"

# --- diff: a bundle against itself passes; thresholds can fail it
run "diff same" 0 "$bin" diff "$fx/initcalls" "$fx/initcalls"
has "diff no regression" 'result: no regression'
printf 'total:* ignore\n' >"$tmp/th"
run "diff json" 0 "$bin" diff "$fx/initcalls" "$fx/initcalls" --json --thresholds "$tmp/th"
if jq -e '.schema == "boottrace-diff-1" and .regressions == 0 and .scale == 1' "$tmp/out" >/dev/null; then
	ok "diff json schema"; else bad "diff json schema"; fi
printf 'initcall:* abs=fast\n' >"$tmp/th"
run "diff bad thresholds" 2 "$bin" diff "$fx/initcalls" "$fx/initcalls" --thresholds "$tmp/th"
has "bad thresholds names line and column" 'th:1:12: .abs=fast.' "$tmp/err"
# histogram rows keyed without their measured values; a slower initcall
# and a removed one (as initcall_blacklist= does), named in text and KTAP
rm -rf "$tmp/d2"
cp -r "$fx/default" "$tmp/d2"
h2=$tmp/d2/tracefs/events/synthetic/initcall_latency/hist
sed -i -e '/ kswapd_init /d' -e 's/^    Hits: 263$/    Hits: 262/' -e 's/^    Entries: 263$/    Entries: 262/' \
	-e '/ acpi_init /s/512846/2512846/g' "$h2"
run "diff slower and removed" 1 "$bin" diff "$fx/default" "$tmp/d2"
has "diff names the regression" '^  REGRESSION initcall:acpi_init +512846 -> +2512846 us'
has "diff names the removed initcall" '^initcalls removed \(in A, not in B\): kswapd_init$'
run "diff json, hist keys" 1 "$bin" diff "$fx/default" "$tmp/d2" --json
# (the initcall_start/finish rows are named from the synthetic histogram's
# symbols, which no longer has kswapd_init: left out here)
if jq -e '[.metrics[] | select(.name | test("^(initcall|hist:top:synthetic):"))
		| select(.status == "added" or .status == "removed") | .name] | sort ==
		["hist:top:synthetic:initcall_latency:kswapd_init", "initcall:kswapd_init"]' "$tmp/out" >/dev/null; then
	ok "hist rows keyed without lat"; else bad "hist rows keyed without lat"; fi
run "diff --ktap" 1 "$bin" diff "$fx/default" "$tmp/d2" --ktap
cp "$tmp/out" "$tmp/diff.ktap"
has "diff ktap regression" '^    not ok [0-9]+ initcall:acpi_init$'
has "diff ktap removed" '^    ok [0-9]+ initcall:kswapd_init # SKIP removed: only in A$'
python3 "$kunit" parse "$tmp/diff.ktap" >"$tmp/kp" 2>&1 || true
n=$(grep -c '^    \(not \)\?ok ' "$tmp/diff.ktap")
has "diff ktap counts in kunit.py" "Ran $n tests: passed: [0-9]+, failed: 2, skipped: [0-9]+" "$tmp/kp"
has "kunit.py names the regressions" 'Failures: boottrace diff.initcall:acpi_init, boottrace diff.total:initcalls' "$tmp/kp"
if grep -qE '\[ERROR\]|Traceback|CRASHED' "$tmp/kp"; then bad "diff ktap: no parser errors"; else
	ok "diff ktap: no parser errors"; fi
run "diff missing bundle" 2 "$bin" diff "$fx/initcalls" "$tmp/nope"
# a diff that cannot compare what it seems to is an error naming the
# boot and what it lacks (a regression gate comparing nothing would pass)
rm -rf "$tmp/nt"
cp -r "$fx/initcalls" "$tmp/nt"
rm "$tmp/nt/trace.dat"
run "diff, B without trace.dat" 2 "$bin" diff "$fx/initcalls" "$tmp/nt"
has "B without trace.dat: named" "^  B $tmp/nt: trace.dat: missing \(the collector did not extract the buffers\)$" "$tmp/err"
has "B without trace.dat: why" '^trace-analysis diff: not every boot has trace.dat \(1 of 2 have none\)' "$tmp/err"
if grep -q 'no regression' "$tmp/out"; then bad "B without trace.dat: no result"; else ok "B without trace.dat: no result"; fi
run "diff, A without trace.dat" 2 "$bin" diff "$tmp/nt" "$fx/initcalls" --json
has "A without trace.dat: named" "^  A $tmp/nt: trace.dat: missing" "$tmp/err"
rm -rf "$tmp/sn" "$tmp/sn2"
mkdir "$tmp/sn" "$tmp/sn2"
for i in 1 2 3; do cp -r "$fx/initcalls" "$tmp/sn/$i"; cp -r "$fx/initcalls" "$tmp/sn2/$i"; done
run "set diff, same sets" 0 "$bin" diff "$tmp/sn" "$tmp/sn2"
rm "$tmp/sn2/2/trace.dat"
run "set diff, one boot without trace.dat" 2 "$bin" diff "$tmp/sn" "$tmp/sn2" --ktap
has "the boot without trace.dat named" "^  B $tmp/sn2/2: trace.dat: missing" "$tmp/err"
if [ "$(grep -c '^  [AB] ' "$tmp/err")" = 1 ]; then ok "one boot named"; else bad "one boot named"; fi
# every boot has trace.dat, no initcall source is common: named per boot
run "diff, initcalls on one side only" 2 "$bin" diff "$fx/initcalls" "$fx/failures"
has "no common source: why" '^trace-analysis diff: the initcalls cannot be compared: no source of initcall durations is common to every boot:$' "$tmp/err"
has "no common source: A" "^  A $fx/initcalls: initcall events in trace.dat, no latency histogram$" "$tmp/err"
has "no common source: B" "^  B $fx/failures: no initcall events in trace.dat and no latency histogram$" "$tmp/err"
# trace.dat events on one side, a latency histogram on the other
cp -r "$fx/initcalls" "$tmp/hc2"
cp -r "$fx/default/tracefs/events/synthetic" "$tmp/hc2/tracefs/events/"
run "diff, histogram on one side, trace.dat on the other" 0 "$bin" diff "$fx/initcalls" "$tmp/hc2"
has "trace.dat is common" '^initcalls from trace.dat$'
# no trace.dat anywhere and no histogram: nothing to time initcalls with
run "diff, no trace.dat and no histogram" 2 "$bin" diff "$fx/overflow" "$fx/overflow"
has "nothing to time initcalls with" 'the initcalls cannot be compared: no boot has trace.dat or an initcall latency histogram' "$tmp/err"
# a config that traces no initcalls (trace.dat in every boot): allowed,
# and the result says the initcalls were not compared
run "diff, no initcalls by design" 0 "$bin" diff "$fx/failures" "$fx/failures"
has "no initcalls by design: source" '^initcalls from none \(no boot has initcall events or a latency histogram\)$'
has "no initcalls by design: result" '^result: no regression; initcalls not compared: no boot has initcall durations \(above\)$'

# --- diff over sets of boots (DIR/1 .. DIR/N), made at test time from the
# default bundle by make_set.py: each boot at its own speed (+-30%) with
# +-10% noise per initcall, as boots under TCG differ
mkset() { python3 "$here/make_set.py" "$fx/default" "$@"; }
rm -rf "$tmp/sa" "$tmp/sb" "$tmp/sslow" "$tmp/snoise" "$tmp/sdrop"
mkset "$tmp/sa" 5 --seed 1
mkset "$tmp/sb" 5 --seed 2
mkset "$tmp/sslow" 5 --seed 3 --slow '^acpi_.*:3'
mkset "$tmp/snoise" 5 --seed 4 --slow '^acpi_init$:3' --slow-boots 1,2,3
mkset "$tmp/sdrop" 5 --seed 5 --drop kswapd_init
run "set diff, same config" 0 "$bin" diff "$tmp/sa" "$tmp/sb"
has "set diff: sets named" '^A  .*/sa \(set of 5 boots, '
has "set diff: per-boot factors" "^each boot's initcall values scaled to A's medians by A( [0-9.]+){5}; B( [0-9.]+){5}$"
has "set diff: no regression" '^result: no regression$'
run "set diff, acpi_* 3x slower" 1 "$bin" diff "$tmp/sa" "$tmp/sslow"
has "set diff names acpi_init" '^  REGRESSION initcall:acpi_init .* p=0\.0079 > abs 20000 us and 50% '
run "set diff json" 1 "$bin" diff "$tmp/sa" "$tmp/sslow" --json
cp "$tmp/out" "$tmp/set.json"
if jq -e '.boots_a == 5 and .boots_b == 5 and (.scale_b | length) == 5 and
		([.metrics[] | select(.status == "regression") | .name] | index("initcall:acpi_init"))
		and ([.metrics[] | select(.name == "initcall:acpi_init") | .values_b | length] == [5])' \
		"$tmp/set.json" >/dev/null; then
	ok "set diff json names acpi_init"; else bad "set diff json names acpi_init"; fi
# every p in the JSON recomputed by SciPy from the same per-boot values:
# up to 20 boots a side the exact permutation distribution of U (ties
# kept, as the scaling to A's medians makes them common), else asymptotic
if /usr/bin/python3 - "$tmp/set.json" >"$tmp/sp" 2>&1 <<'PY'
import json, sys
import numpy as np
from scipy.stats import mannwhitneyu, permutation_test
d = json.load(open(sys.argv[1]))
n = bad = ties = 0
u = lambda x, y, axis: mannwhitneyu(x, y, axis=axis).statistic
memo = {}
def exact(b, a):
    # p depends only on how many of each side every group of equal
    # values holds, in order: compute it once per such pattern
    vals = sorted(set(a + b))
    key = tuple((a.count(v), b.count(v)) for v in vals)
    if key not in memo:
        memo[key] = permutation_test(
            (b, a), u, permutation_type="independent",
            alternative="two-sided", n_resamples=np.inf,
            vectorized=True).pvalue
    return memo[key]
for m in d["metrics"]:
    if "p" not in m:
        continue
    a = [v for v in m["values_a"] if v is not None]
    b = [v for v in m["values_b"] if v is not None]
    if max(len(a), len(b)) > 20:
        p = mannwhitneyu(b, a, alternative="two-sided").pvalue
    else:
        p = exact(b, a)
    ties += len(set(a + b)) < len(a + b)
    n += 1
    if abs(p - m["p"]) > 1e-5:
        bad += 1
        print(m["name"], m["p"], p)
print(f"{n} compared, {ties} with ties, {len(memo)} patterns, {bad} differ")
sys.exit(1 if bad or n < 100 or not ties else 0)
PY
then ok "set diff p values match scipy ($(tail -1 "$tmp/sp"))"; else
	bad "set diff p values match scipy"; sed 's/^/    /' "$tmp/sp" | tail -5; fi
run "set diff ktap" 1 "$bin" diff "$tmp/sa" "$tmp/sslow" --ktap
cp "$tmp/out" "$tmp/set.ktap"
has "set ktap names acpi_init" '^    not ok [0-9]+ initcall:acpi_init$'
python3 "$kunit" parse "$tmp/set.ktap" >"$tmp/kp" 2>&1 || true
n=$(grep -c '^    \(not \)\?ok ' "$tmp/set.ktap")
nf=$(grep -c '^    not ok ' "$tmp/set.ktap")
has "set ktap counts in kunit.py" "Ran $n tests: passed: [0-9]+, failed: $nf, skipped: [0-9]+" "$tmp/kp"
if grep -qE '\[ERROR\]|Traceback|CRASHED' "$tmp/kp"; then bad "set ktap: no parser errors"; else
	ok "set ktap: no parser errors"; fi
# a per-pattern override lets acpi_* grow by 500%
printf 'total:* ignore\n' >"$tmp/th"
run "set diff --threshold override" 0 "$bin" diff "$tmp/sa" "$tmp/sslow" --thresholds "$tmp/th" --threshold '^acpi_.*:500'
run "set diff --threshold with abs" 1 "$bin" diff "$tmp/sa" "$tmp/sslow" --thresholds "$tmp/th" --threshold '^acpi_.*:100:1s'
has "override named" 'REGRESSION initcall:acpi_init .* > abs 1000000 us and 100% \(\^acpi_\.\*, --threshold\)'
run "set diff bad override" 2 "$bin" diff "$tmp/sa" "$tmp/sb" --threshold '^acpi_(:50'
has "bad override message" "bad regex '\\^acpi_\\('" "$tmp/err"
# slower in 3 of 5 boots: the median is over the threshold, U is not
run "set diff, not significant" 0 "$bin" diff "$tmp/sa" "$tmp/snoise" --thresholds "$tmp/th"
has "not significant shown" '^  noise +initcall:acpi_init .* p=0\.[0-9]+ > abs .*, but not significant'
run "set diff, significant at alpha 0.5" 1 "$bin" diff "$tmp/sa" "$tmp/snoise" --thresholds "$tmp/th" --alpha 0.5
run "set diff, removed initcall" 0 "$bin" diff "$tmp/sa" "$tmp/sdrop"
has "set diff names removed" '^initcalls removed \(in A, not in B\): kswapd_init$'
# one bundle against a set: thresholds only (no test with one boot)
run "bundle vs set" 1 "$bin" diff "$fx/default" "$tmp/sslow"
if grep -q ' p=' "$tmp/out"; then bad "bundle vs set: untested"; else ok "bundle vs set: untested"; fi
run "--mode start needs trace.dat" 2 "$bin" diff "$tmp/sa" "$tmp/sb" --mode start
has "--mode start message" 'mode start needs initcall start times' "$tmp/err"
run "bad --mode" 2 "$bin" diff "$tmp/sa" "$tmp/sb" --mode middle
mkdir -p "$tmp/sic"
cp -r "$fx/initcalls" "$tmp/sic/1"; cp -r "$fx/initcalls" "$tmp/sic/2"
for m in start end duration; do
	run "set diff --mode $m on trace.dat" 0 "$bin" diff "$tmp/sic" "$tmp/sic" --mode "$m" --json
	if jq -e --arg m "$m" '.mode == $m and .initcall_source == "trace.dat" and
			([.metrics[] | select(.name == "initcall:kswapd_init") | .p] == [1])' "$tmp/out" >/dev/null; then
		ok "mode $m compared"; else bad "mode $m compared"; fi
done
run "start times" 0 "$bin" diff "$tmp/sic" "$tmp/sic" --mode start --no-normalize --json
if jq -e '[.metrics[] | select(.name == "initcall:kswapd_init") | .a] == [1263900]' "$tmp/out" >/dev/null; then
	ok "start time of kswapd_init"; else bad "start time of kswapd_init"; fi
mv "$tmp/sic/2" "$tmp/sic/3"
run "set with a gap" 2 "$bin" diff "$tmp/sic" "$tmp/sa"
has "gap named" 'sic: a set of bundles is numbered 1 \.\. N without gaps, but it has 2 numbered entries up to 3' "$tmp/err"
mkdir "$tmp/empty2"
run "not a bundle nor a set" 2 "$bin" diff "$tmp/empty2" "$tmp/sa"
has "not a set message" "not a set of bundles" "$tmp/err"

# --- trace.dat's records against the kernel's count (stats entries):
# one byte of CPU 0's compressed data, and libtracecmd reads 145 records
# fewer without an error (the report said "lost none")
rm -rf "$tmp/m"
cp -r "$fx/initcalls" "$tmp/m"
printf '\xff' | dd of="$tmp/m/trace.dat" bs=1 seek=340549 conv=notrunc status=none
run "records short of the stats" 0 "$bin" report "$tmp/m"
has "short: header" '^lost        145 events: top 145 \(Data loss\)$'
has "short: mismatch" '^  mismatch +top +cpu0 +145  trace.dat has 2655 records, the kernel counted 2800 \(stats entries\): trace.dat is corrupt or incomplete$'
has "short: buffers" '^  top +nop +\? +global +2051 +7868 +145$'
run "records short of the stats, json" 0 "$bin" report "$tmp/m" --json
if jq -e '[.data_loss[] | {kind, instance, what, count}] == [{kind: "mismatch", instance: "top", what: "cpu0", count: 145}]
	and .data_loss_known' "$tmp/out" >/dev/null; then ok "short: json"; else bad "short: json"; fi
cp "$tmp/out" "$tmp/s-m.json"
if "$here/schema_check.py" "$here/../report.schema.json" "$tmp/s-m.json" >"$tmp/sc" 2>&1; then
	ok "short: json matches the schema"; else bad "short: json matches the schema: $(tail -2 "$tmp/sc")"; fi
printf 'no-data-loss\ndata-loss mismatch in top\nnot data-loss missed\n' >"$tmp/m.expect"
run "check: records short of the stats" 1 "$bin" check "$tmp/m" "$tmp/m.expect"
has "check: no-data-loss fails on a mismatch" '^FAIL +no-data-loss +1 findings, first: mismatch top cpu0 145$'
has "check: mismatch tally" '^2 passed, 1 failed$'
# the counts changed in the stats of intact copies: one more entry than
# records; 10 fewer (records beyond the count are not lost events); 3
# fewer (events committed after the stats were read: not a finding)
st=$tmp/m/tracefs/per_cpu/cpu0/stats
cp "$fx/initcalls/trace.dat" "$tmp/m/trace.dat"
sed -i 's/^entries: 2800$/entries: 2801/' "$st"
run "one record short" 0 "$bin" report "$tmp/m"
has "one short" '^  mismatch +top +cpu0 +1  trace.dat has 2800 records, the kernel counted 2801 '
sed -i 's/^entries: .*/entries: 2790/' "$st"
run "records beyond the stats" 0 "$bin" report "$tmp/m"
has "beyond: a finding" '^lost        1 finding\(s\) \(Data loss\)$'
has "beyond: mismatch" '^  mismatch +top +cpu0 +10  trace.dat has 2800 records, the kernel counted 2790 \(stats entries\): 10 too many, trace.dat is corrupt$'
has "beyond: not lost" '^  top +nop +\? +global +2051 +8013 +0$'
sed -i 's/^entries: .*/entries: 2797/' "$st"
run "records just beyond the stats" 0 "$bin" report "$tmp/m"
has "committed after the stats" '^  none: no overrun'
# no comparison where the buffer may have changed after the stats
sed -i 's/^entries: .*/entries: 2801/' "$st"
tr=$tmp/m/tracefs/events/initcall/initcall_start/trigger
for c in "trigger traceon" "trigger snapshot" "hist snapshot" "function probe" "trace_trigger=" "wakeup tracer"; do
	cp "$fx/initcalls/tracefs/events/initcall/initcall_start/trigger" "$tr"
	cp "$fx/initcalls/tracefs/set_ftrace_filter" "$tmp/m/tracefs/set_ftrace_filter"
	cp "$fx/initcalls/proc/cmdline" "$tmp/m/proc/cmdline"
	cp "$fx/initcalls/tracefs/current_tracer" "$tmp/m/tracefs/current_tracer"
	case $c in
	"trigger traceon") echo 'traceon if func == 0' >>"$tr" ;;
	"trigger snapshot") echo 'snapshot:1' >>"$tr" ;;
	"hist snapshot") echo 'hist:keys=func:vals=hitcount:onchange(func).snapshot() [active]' >>"$tr" ;;
	"function probe") echo 'schedule:traceon:unlimited' >>"$tmp/m/tracefs/set_ftrace_filter" ;;
	"trace_trigger=") sed -i 's/$/ trace_trigger=sched_switch.traceon/' "$tmp/m/proc/cmdline" ;;
	"wakeup tracer") echo wakeup >"$tmp/m/tracefs/current_tracer" ;;
	esac
	run "not compared: $c" 0 "$bin" report "$tmp/m" &&
		if grep -q '^  mismatch' "$tmp/out"; then bad "not compared: $c: a mismatch"; else ok "not compared: $c: no mismatch"; fi
done
# an instance the stats count but trace.dat lacks; an instance's shortfall
# beside its overruns
rm -rf "$tmp/m"
cp -r "$fx/failures" "$tmp/m"
mkdir -p "$tmp/m/tracefs/instances/ghost/per_cpu/cpu1"
printf 'entries: 3\noverrun: 0\n' >"$tmp/m/tracefs/instances/ghost/per_cpu/cpu1/stats"
sed -i 's/^entries: 351$/entries: 352/' "$tmp/m/tracefs/instances/tiny/per_cpu/cpu0/stats"
run "instance not in trace.dat" 1 "$bin" report "$tmp/m"
has "ghost: not in trace.dat" '^  mismatch +ghost +cpu1 +3  buffer not in trace.dat, the kernel counted 3 \(stats entries\): trace.dat is corrupt or incomplete$'
has "tiny: one short beside the overruns" '^  tiny +function +\? +local +11 +671 +464291$'

# --- malformed input: clear errors, never a crash
mkdir "$tmp/empty"
run "not a bundle" 2 "$bin" report "$tmp/empty"
has "not a bundle message" 'not a bundle' "$tmp/err"
run "missing dir" 2 "$bin" report "$tmp/nope"
for size in 0 17 4096 100000 300000; do
	rm -rf "$tmp/b"
	cp -r "$fx/initcalls" "$tmp/b"
	truncate -s "$size" "$tmp/b/trace.dat"
	run "truncated trace.dat ($size bytes)" 2 "$bin" report "$tmp/b" &&
		has "truncated message ($size)" 'trace.dat: libtracecmd cannot read it' "$tmp/err" &&
		has "truncated: loss unknown ($size)" '^  unknown: trace.dat: libtracecmd cannot read it'
done
rm "$tmp/b/trace.dat"
ln -s trace.dat "$tmp/b/trace.dat"
run "trace.dat symlink loop" 2 "$bin" report "$tmp/b"
has "symlink loop message" "b: trace.dat: cannot read it: Too many levels of symbolic links" "$tmp/err"
rm "$tmp/b/trace.dat"
mkdir "$tmp/b/trace.dat"
run "trace.dat a directory" 2 "$bin" report "$tmp/b"
has "directory message" "b: trace.dat: cannot read it: a directory" "$tmp/err"
rm -rf "$tmp/b"
cp -r "$fx/initcalls" "$tmp/b"
# flip bytes in the compressed ring-buffer data at the end
size=$(stat -c %s "$tmp/b/trace.dat")
printf '\xff\xff\xff\xff\xff\xff\xff\xff' |
	dd of="$tmp/b/trace.dat" bs=1 seek=$((size - 4000)) conv=notrunc status=none
rc=0
"$bin" report "$tmp/b" >"$tmp/out" 2>"$tmp/err" || rc=$?
if [ $rc -lt 128 ] && ! grep -q 'AddressSanitizer\|runtime error' "$tmp/err"; then
	ok "corrupted trace.dat: no crash (exit $rc)"; else bad "corrupted trace.dat: crash"; fi
# one byte at the start of CPU 1's compressed data: libtracecmd 3.1.6
# crashes in its own error path (src/guard.c), every verb; an error naming
# trace.dat (tests/corrupt.sh flips many more)
cp "$fx/initcalls/trace.dat" "$tmp/b/trace.dat"
printf '\xff' | dd of="$tmp/b/trace.dat" bs=1 seek=352256 conv=notrunc status=none
crashed="^trace-analysis: $tmp/b: trace.dat: corrupt: libtracecmd crashed reading it \\(SIGSEGV\\); boot or collect the bundle again for a readable one$"
run "trace.dat that crashes libtracecmd" 2 "$bin" report "$tmp/b" --json &&
	has "crash named" "$crashed" "$tmp/err"
run "trace.dat that crashes libtracecmd, check" 2 "$bin" check "$tmp/b" "$top/examples/default.expect" &&
	has "crash named, check" "$crashed" "$tmp/err"
run "trace.dat that crashes libtracecmd, diff" 2 "$bin" diff "$fx/initcalls" "$tmp/b" &&
	has "crash named, diff" "$crashed" "$tmp/err"
# a byte of instance tiny's data: libtracecmd cannot open the instance
# (it was left out, 671 records gone, and Data loss listed the overruns
# as all there was): an error, losses unknown
rm -rf "$tmp/b"
cp -r "$fx/failures" "$tmp/b"
printf '\x77' | dd of="$tmp/b/trace.dat" bs=1 seek=357814 conv=notrunc status=none
# (libtracecmd leaks on that error path: tests/lsan-corrupt.supp)
LSAN_OPTIONS=suppressions=$here/lsan-corrupt.supp \
	run "instance libtracecmd cannot open" 2 "$bin" report "$tmp/b" &&
	has "instance named" "^trace-analysis: $tmp/b: trace.dat: libtracecmd cannot read buffer instance 0 \\(tiny\\): corrupt$" "$tmp/err" &&
	has "instance: losses unknown" '^  unknown: trace.dat: libtracecmd cannot read buffer instance tiny \(corrupt\); the losses below are a floor$'
rm -rf "$tmp/b"
cp -r "$fx/failures" "$tmp/b"
printf '# event histogram\n{ garbage\n' >"$tmp/b/tracefs/events/task/task_newtask/hist"
run "garbage hist" 2 "$bin" report "$tmp/b"
has "garbage hist message" 'task_newtask/hist: line 2: entry not terminated' "$tmp/err"
rm -f "$tmp/b/dmesg" "$tmp/b/proc/bootconfig"
printf '# event histogram\n' >"$tmp/b/tracefs/events/task/task_newtask/hist"
run "missing dmesg and proc/bootconfig" 2 "$bin" report "$tmp/b"
has "missing dmesg message" 'dmesg: missing'
has "missing bootconfig message" 'proc/bootconfig: missing'
# bad metadata: the whole bundle is refused, naming the file (and line)
rm -rf "$tmp/b"
cp -r "$fx/initcalls" "$tmp/b"
head -c 4096 /dev/urandom >"$tmp/b/metadata"
run "random metadata" 2 "$bin" report "$tmp/b"
has "random metadata message" "b/metadata(:1: not a key=value line|: binary data)" "$tmp/err"
printf 'format=boottrace-bundle-99\n' >"$tmp/b/metadata"
run "unknown format" 2 "$bin" report "$tmp/b"
has "unknown format message" 'b/metadata: format=boottrace-bundle-99 is not a bundle format this trace-analysis reads \(it reads boottrace-bundle-1, boottrace-bundle-2\)' "$tmp/err"
run "unknown format, diff" 2 "$bin" diff "$fx/initcalls" "$tmp/b"
run "unknown format, check" 2 "$bin" check "$tmp/b" "$top/examples/default.expect"
printf 'kernel_release=6.1\n' >"$tmp/b/metadata"
run "no format" 2 "$bin" report "$tmp/b"
has "no format message" 'b/metadata: no format= line' "$tmp/err"
sed '3s/.*/this is not metadata/' "$fx/initcalls/metadata" >"$tmp/b/metadata"
run "bad metadata line" 2 "$bin" report "$tmp/b"
has "bad metadata line message" 'b/metadata:3: not a key=value line' "$tmp/err"
rm "$tmp/b/metadata"
ln -s metadata "$tmp/b/metadata"
run "metadata symlink loop" 2 "$bin" report "$tmp/b"
has "metadata loop message" 'b/metadata: cannot read: Too many levels of symbolic links' "$tmp/err"
cp --remove-destination "$fx/initcalls/metadata" "$tmp/b/metadata"
rm "$tmp/b/dmesg"
mkdir "$tmp/b/dmesg"
run "dmesg a directory" 2 "$bin" report "$tmp/b"
has "dmesg directory message" 'b: dmesg: cannot read: Is a directory' "$tmp/err"
rmdir "$tmp/b/dmesg"
rm "$tmp/b/tracefs/per_cpu/cpu0/stats"
ln -s stats "$tmp/b/tracefs/per_cpu/cpu0/stats"
run "stats unreadable" 2 "$bin" report "$tmp/b"
has "stats message" 'b: tracefs/per_cpu/cpu0/stats: cannot read' "$tmp/err"
# metadata: every bundle has one, with the keys its writers always write
# (docs/bundle.md): without it, or cut short at a line boundary (so that
# every line still parses), the bundle is refused, naming what is missing
rm -rf "$tmp/b"
cp -r "$fx/initcalls" "$tmp/b"
rm "$tmp/b/metadata"
run "metadata missing" 2 "$bin" report "$tmp/b"
has "metadata missing message" "^trace-analysis: $tmp/b/metadata: missing: every bundle has one" "$tmp/err"
if [ -s "$tmp/out" ]; then bad "metadata missing: no report"; else ok "metadata missing: no report"; fi
run "metadata missing, check" 2 "$bin" check "$tmp/b" "$top/examples/default.expect"
run "metadata missing, diff" 2 "$bin" diff "$fx/initcalls" "$tmp/b"
n=$(wc -l <"$fx/initcalls/metadata")
cuts=0
for k in $(seq 1 $((n - 1))); do
	head -n "$k" "$fx/initcalls/metadata" >"$tmp/b/metadata"
	rc=0
	"$bin" report "$tmp/b" >"$tmp/out" 2>"$tmp/err" || rc=$?
	if [ "$rc" = 2 ] && grep -q "metadata: no .* line.* the file was cut short" "$tmp/err"; then
		cuts=$((cuts + 1))
	else
		echo "    cut after line $k: exit $rc: $(head -c 200 "$tmp/err")"
	fi
done
if [ "$cuts" = $((n - 1)) ]; then ok "metadata cut after each of its $((n - 1)) lines: refused"; else
	bad "metadata cut short: $cuts of $((n - 1)) cuts refused"; fi
head -n 3 "$fx/initcalls/metadata" >"$tmp/b/metadata"
run "metadata cut after line 3" 2 "$bin" report "$tmp/b"
has "the missing keys named" "^trace-analysis: $tmp/b/metadata: no kernel_release_guest=, .*, bootconfig_status=, .*, warnings= lines" "$tmp/err"
head -n 1 "$fx/initcalls/metadata" >"$tmp/b/metadata"
run "metadata cut after format=" 2 "$bin" diff "$tmp/b" "$fx/initcalls"
has "format= alone: the collector's keys named" "^trace-analysis: $tmp/b/metadata: no kernel_release_guest=, guest_time=, guest_btime=, guest_boot_time=, guest_uptime_at_collect= lines" "$tmp/err"
cp "$fx/initcalls/metadata" "$tmp/b/metadata"
run "metadata whole again" 0 "$bin" report "$tmp/b"
# proc/bootconfig there but unreadable (EACCES, or a directory): an error,
# not "no bootconfig was applied"
chmod 000 "$tmp/b/proc/bootconfig"
# as a user who cannot read it: nobody when run as root
as_user=()
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	as_user=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
	chmod 755 "$tmp"
fi
if [ "$(id -u)" != 0 ] || [ ${#as_user[@]} != 0 ]; then
	run "proc/bootconfig mode 000" 2 "${as_user[@]}" "$bin" report "$tmp/b"
	has "proc/bootconfig EACCES named" "^trace-analysis: $tmp/b: proc/bootconfig: cannot read: Permission denied$" "$tmp/err"
	has "settings unknown, EACCES" '^settings    unknown: proc/bootconfig: cannot read: Permission denied$'
	if grep -q 'no bootconfig was applied\|proc/bootconfig: missing' "$tmp/out" "$tmp/err"; then
		bad "unreadable is not missing (EACCES)"; else ok "unreadable is not missing (EACCES)"; fi
	printf 'applied\n' >"$tmp/q.expect"
	run "check, proc/bootconfig mode 000" 2 "${as_user[@]}" "$bin" check "$tmp/b" "$tmp/q.expect"
	has "check names proc/bootconfig" "^trace-analysis: $tmp/b: proc/bootconfig: cannot read: Permission denied$" "$tmp/err"
	chmod 000 "$tmp/b/tracefs"
	run "tracefs/ mode 000" 2 "${as_user[@]}" "$bin" report "$tmp/b"
	has "tracefs/ EACCES named" "^trace-analysis: $tmp/b: tracefs/[a-z_]*: cannot read: Permission denied$" "$tmp/err"
	chmod 755 "$tmp/b/tracefs"
else
	ok "proc/bootconfig mode 000 # SKIP root without setpriv"
fi
chmod 700 "$tmp"
rm "$tmp/b/proc/bootconfig"
mkdir "$tmp/b/proc/bootconfig"
run "proc/bootconfig a directory" 2 "$bin" report "$tmp/b"
has "settings unknown, a directory" '^settings    unknown: proc/bootconfig: cannot read: Is a directory$'
has "unreadable is not missing (EISDIR)" '^  unknown: proc/bootconfig: cannot read: Is a directory$'
rmdir "$tmp/b/proc/bootconfig"
ln -s nothing "$tmp/b/proc/bootconfig"
run "proc/bootconfig a link to nothing" 2 "$bin" report "$tmp/b"
has "a link to nothing named" "$tmp/b: proc/bootconfig: cannot read: a symbolic link to nothing$" "$tmp/err"
rm "$tmp/b/proc/bootconfig"
run "proc/bootconfig absent" 0 "$bin" report "$tmp/b"
has "absent: no bootconfig applied" '^settings    none: no bootconfig was applied \(proc/bootconfig missing\)$'
rm "$tmp/b/tracefs/instances" 2>/dev/null || true
touch "$tmp/b/tracefs/instances"
run "tracefs/instances a file" 2 "$bin" report "$tmp/b"
has "instances not a directory" "$tmp/b: tracefs/instances/: cannot read: not a directory$" "$tmp/err"
rm "$tmp/b/tracefs/instances"
# verdict: an unreadable dmesg is an error, not a reason to read the console
rm "$tmp/b/dmesg"
mkdir "$tmp/b/dmesg"
printf '[    0.1] Load bootconfig: 1 bytes 1 nodes\n' >"$tmp/b/console.log"
run "verdict, dmesg unreadable" 2 "$bin" verdict "$tmp/b"
has "verdict names dmesg" "^trace-analysis verdict: $tmp/b/dmesg: Is a directory$" "$tmp/err"
rmdir "$tmp/b/dmesg"
run "verdict, no dmesg: the console" 0 "$bin" verdict "$tmp/b"
has "verdict from the console" '^bootconfig_status=loaded$'
rm "$tmp/b/console.log"
run "verdict, neither" 2 "$bin" verdict "$tmp/b"
has "verdict, neither: named" "^trace-analysis verdict: $tmp/b/console.log \(no dmesg either\): missing$" "$tmp/err"

# the default example (histogram latencies only): an axis, a scale, a
# legend, long names shortened with the full name in the tooltip; rendered
# by headless Chromium (PNG kept in build/artifacts)
rm -rf "$tmp/b"
cp -r "$fx/default" "$tmp/b"
long=__initstub__kmod_virtio_pci__312_636_virtio_pci_driver_init6
sed -i "s/\] virtio_pci_driver_init /] $long /" "$tmp/b/tracefs/events/synthetic/initcall_latency/hist"
run "svg of histogram latencies" 0 "$bin" report "$tmp/b" --svg "$art/default.svg"
has "hist svg axis" '<g class="axis"><line ' "$art/default.svg"
has "hist svg scale" '>2 s</text>' "$art/default.svg"
has "hist svg legend" '<g class="legend">' "$art/default.svg"
has "hist svg short name" '>__initstub__kmod_vir\.\.\.rtio_pci_driver_init6<title>'"$long"' duration 2246.248 ms' "$art/default.svg"
if xmllint --noout "$art/default.svg" 2>"$tmp/xerr"; then ok "hist svg well-formed"; else
	bad "hist svg well-formed: $(head -3 "$tmp/xerr")"; fi
rm -f "$art/default.png"
timeout 120 chromium --headless --no-sandbox --disable-gpu --window-size=1600,1200 \
	--screenshot="$art/default.png" "file://$art/default.svg" >/dev/null 2>&1 || true
if [ -s "$art/default.png" ] && [ "$(head -c 8 "$art/default.png" | od -An -tx1 | tr -d ' ')" = 89504e470d0a1a0a ]; then
	ok "chromium renders the svg ($art/default.png)"; else bad "chromium renders the svg"; fi

run "svg without initcalls" 2 "$bin" report "$fx/failures" --svg "$tmp/x.svg"
has "svg error message" 'no initcalls in the bundle to draw' "$tmp/err"
run "svg unwritable" 2 "$bin" report "$fx/initcalls" --svg "$tmp/nodir/x.svg"
run "bad --top" 2 "$bin" report "$fx/initcalls" --top x
run "unknown verb" 2 "$bin" frobnicate
has "unknown verb lists verbs" "unknown verb 'frobnicate' \\(report, diff, check" "$tmp/err"
run "--help" 0 "$bin" --help
has "help lists verbs" '^  diff +compare two bundles'
# each verb has its own options and --help
for v in report diff check; do
	run "$v --help" 0 "$bin" "$v" --help
	has "$v help text" "^usage: trace-analysis $v "
done
run "help diff" 0 "$bin" help diff
has "help VERB" '^usage: trace-analysis diff A B'
run "report --thresholds is not report's" 2 "$bin" report "$fx/initcalls" --thresholds "$tmp/th"
has "foreign option named" "trace-analysis report: unrecognized option '--thresholds'" "$tmp/err"
run "check --top is not check's" 2 "$bin" check "$fx/initcalls" "$top/examples/default.expect" --top 3
run "report needs one bundle" 2 "$bin" report "$fx/initcalls" "$fx/failures"
has "arity message" 'trace-analysis report: needs one BUNDLE \(see trace-analysis report --help\)' "$tmp/err"

# --- tracing_on (bundle format 2 keeps it as the boot left it) and
# never_fired: a copy of failures with sched events enabled in badtracer
# that recorded nothing
cp -r "$fx/failures" "$tmp/on"
for e in sched_switch sched_wakeup sched_waking sched_process_exec; do
	mkdir -p "$tmp/on/tracefs/instances/badtracer/events/sched/$e"
	echo 1 >"$tmp/on/tracefs/instances/badtracer/events/sched/$e/enable"
done
echo 'sched:*' >"$tmp/on/tracefs/instances/badtracer/set_event"
run "format 1: tracing_on unknown" 1 "$bin" report "$tmp/on" --json
if jq -e '[.instances[].tracing_on] == [null, null, null] and
	([.data_loss[] | select(.kind == "never_fired" and .instance == "badtracer")] | length == 4)' \
	"$tmp/out" >/dev/null; then ok "format 1: tracing_on null, the silent events are never_fired"; else
	bad "format 1: tracing_on null, the silent events are never_fired"; fi
run "report --top 3" 1 "$bin" report "$tmp/on" --top 3
has "never_fired past --top is one row" '^  never_fired +badtracer +\.\.\. 1 more \(--top N\)$'
has "tracing column unknown" '^  badtracer +nop +\? +local '
sed -i 's/^format=.*/format=boottrace-bundle-2/' "$tmp/on/metadata"
echo 1 >"$tmp/on/tracefs/tracing_on"
echo 1 >"$tmp/on/tracefs/instances/tiny/tracing_on"
run "format 2: tracing off in badtracer" 1 "$bin" report "$tmp/on" --json
if jq -e '([.instances[] | {(.name): .tracing_on}] | add == {top: true, badtracer: false, tiny: true})
	and ([.data_loss[] | select(.kind == "never_fired")] | length == 0)' "$tmp/out" >/dev/null; then
	ok "format 2: tracing_on read, no never_fired where tracing was off"; else
	bad "format 2: tracing_on read, no never_fired where tracing was off"; fi
if "$here/schema_check.py" "$here/../report.schema.json" "$tmp/out" >"$tmp/sc" 2>&1; then
	ok "format 2 report matches the schema"; else
	bad "format 2 report matches the schema: $(tail -2 "$tmp/sc")"; fi
run "report, format 2" 1 "$bin" report "$tmp/on"
has "tracing column" '^  badtracer +nop +off +local '
has "tracing column on" '^  tiny +function +on +local '
echo 1 >"$tmp/on/tracefs/instances/badtracer/tracing_on"
run "format 2: tracing on in badtracer" 1 "$bin" report "$tmp/on" --json
if jq -e '[.data_loss[] | select(.kind == "never_fired")] | length == 4' "$tmp/out" >/dev/null; then
	ok "format 2: never_fired where tracing was on"; else bad "format 2: never_fired where tracing was on"; fi
# a CPU mask that leaves a CPU out says so (the fixture has CPUs 0 and 1)
for m in 1 00000000,00000002 3; do
	echo "$m" >"$tmp/on/tracefs/instances/badtracer/tracing_cpumask"
	run "never_fired, cpumask $m" 1 "$bin" report "$tmp/on"
	if [ "$m" = 3 ]; then
		has "never_fired, all CPUs traced" '^  never_fired +badtracer +sched:sched_switch +0  enabled, but no record in trace.dat$'
	else
		has "never_fired, cpumask $m named" "^  never_fired +badtracer +sched:sched_switch +0  enabled, but no record in trace.dat \\(tracing_cpumask $m: what runs on other CPUs is not recorded\\)$"
	fi
done

# --- a clock that does not count time: no durations, no time range
cp -r "$fx/initcalls" "$tmp/ctr"
echo 'local global [counter] uptime perf' >"$tmp/ctr/tracefs/trace_clock"
# (exit 1: kernel.trace_clock = global is no longer what the buffer has)
run "counter clock" 1 "$bin" report "$tmp/ctr"
has "counter: no durations" '^Initcalls from trace.dat \(initcall_start/finish\): no durations$'
has "counter: says why" '^  263 in buffer top, whose clock \(counter\) does not count time: '
has "counter: no time range" '^trace.dat   8013 records in 1 buffers$'
has "counter: raw values marked" '^  top +initcall:initcall_start +263 +[0-9]+\* +[0-9]+\*$'
run "counter clock, json" 1 "$bin" report "$tmp/ctr" --json
if jq -e '(.initcalls | length == 0) and (.trace.initcalls_untimed | test("^263 in buffer top"))
	and .instances[0].clock == "counter" and .instances[0].clock_in_ns == false' "$tmp/out" >/dev/null
then ok "counter: json says so"; else bad "counter: json says so"; fi
run "counter clock, perfetto" 1 "$bin" report "$tmp/ctr" --perfetto "$tmp/ctr.json"
if jq -e '.otherData.buffers_left_out == 1 and .otherData.instants == 0 and
	.otherData.initcall_slices == 0' "$tmp/ctr.json" >/dev/null; then
	ok "counter: perfetto leaves the buffer out"; else bad "counter: perfetto leaves the buffer out"; fi
run "svg of counter clock initcalls" 2 "$bin" report "$tmp/ctr" --svg "$tmp/x.svg"
sed -i 's/\[counter\]/counter/; s/perf/[x86-tsc]/' "$tmp/ctr/tracefs/trace_clock"
run "x86-tsc clock" 1 "$bin" report "$tmp/ctr"
has "x86-tsc: no durations" 'whose clock \(x86-tsc\) does not count time'
run "diff of untimed initcalls" 0 "$bin" diff "$tmp/ctr" "$tmp/ctr"
has "diff says why it has no initcalls" "^initcalls from none \\(trace.dat's are on a clock that does not count time"
has "diff of untimed initcalls: result" '^result: no regression; initcalls not compared: '
run "diff of untimed against timed initcalls" 2 "$bin" diff "$fx/initcalls" "$tmp/ctr"
has "untimed boot named" "^  B $tmp/ctr: initcall events on a trace clock that does not count time, no latency histogram$" "$tmp/err"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
