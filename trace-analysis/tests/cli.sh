#!/bin/bash
# tests/cli.sh BINARY - trace-analysis on the recorded bundles in
# tests/fixtures/bundles and on broken copies of them: report, check,
# KTAP, diff of two boots.  tests/cli-inputs.sh has the rest (sets,
# record counts, malformed input, bundle formats, clocks); the two run
# side by side (make check).  Last line: "N passed, N failed".
set -euo pipefail

# shellcheck source=cli-lib.sh
. "$(dirname "$0")/cli-lib.sh"

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

cli_done
