#!/bin/bash
# tests/cli-inputs.sh BINARY - trace-analysis on inputs made at test time
# from the recorded bundles in tests/fixtures/bundles: sets of boots
# (make_set.py) and their statistics, trace.dat's records against the
# kernel's counts, malformed input of every kind, bundle formats 1 and 2,
# clocks that do not count time.  The SVG rendered by Chromium is kept in
# build/artifacts/.  Last line: "N passed, N failed".
set -euo pipefail

# shellcheck source=cli-lib.sh
. "$(dirname "$0")/cli-lib.sh"

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

cli_done
