#!/bin/bash
# trace-analysis on fresh boots (one bundle per config, reused by every
# check): the default example, a config with deliberate failures and a tiny
# buffer, a config with initcall events in trace.dat, a second boot of it
# and a boot that slows initcalls down (slow.bconf) for the diff gate.
# BOOTTRACE_TEST_KERNEL=BZIMAGE boots that image (see tests/boot/tap.sh).
set -uo pipefail
. "$(dirname "$0")/../boot/tap.sh"
# shellcheck source=../../scripts/lib.sh
. "$BT_TOP/scripts/lib.sh"

ta=$BT_TOP/trace-analysis/build/trace-analysis
make -s -C "$BT_TOP/trace-analysis" >&2 || { echo "Bail out! build failed"; exit 1; }
need_cmd() { command -v "$1" >/dev/null || { echo "Bail out! $1 missing (apt-get install $2)"; exit 1; }; }
need_cmd jq jq
need_cmd xmllint libxml2-utils
t_kernel
t_plan 37

# report NAME ARGS...: trace-analysis report; output in $T_TMP/NAME.out, rc in R
report()
{
	local name=$1
	shift
	R=0
	"$ta" report "$@" >"$T_TMP/$name.out" 2>"$T_TMP/$name.rerr" || R=$?
}

# --- the default example
t_boot default "$BT_TOP/examples/default.bconf"
[ -f "$T_TMP/default/metadata" ] || { echo "Bail out! no bundle: $T_ERR"; exit 1; }
report default "$T_TMP/default"
o=$T_TMP/default.out
t_is "$R" 0 "default: report exits 0"
t_grep "$o" '^Initcall latency from histogram top:synthetic:initcall_latency: [0-9]{2,} functions' \
	"default: initcall table from the synthetic histogram"
# (rank, function, calls, latency: no trace.dat initcalls place the rows)
t_grep "$o" '^  1 +[a-z_0-9]+ +1 +[0-9]+$' "default: the table has a longest initcall"
t_grep "$o" '^  vfs_read +hits [1-9][0-9]* ' "default: kprobe hit count"
t_grep "$o" '^  top synthetic:initcall_latency  hist:keys=func.sym,lat' "default: synthetic histogram shown"
t_grep "$o" '^  all settings applied \(' "default: all settings applied"
t_ok "default: examples/default.expect is met" \
	"$ta" check "$T_TMP/default" "$BT_TOP/examples/default.expect"
# the same as KTAP, read by the packaged tree's kunit.py with no failure
"$ta" check "$T_TMP/default" "$BT_TOP/examples/default.expect" --ktap >"$T_TMP/d.ktap" 2>&1
t_ok "default: check --ktap passes kunit.py parse" \
	python3 "$(bt_tree_dir 6.1)/tools/testing/kunit/kunit.py" parse "$T_TMP/d.ktap"
# the default example's SVG: an axis, a legend, rendered by Chromium (the
# PNG is kept in trace-analysis/build/artifacts)
art=$BT_TOP/trace-analysis/build/artifacts
mkdir -p "$art"
report default-svg "$T_TMP/default" --svg "$art/default-boot.svg"
t_grep "$art/default-boot.svg" '<g class="axis"><line ' "default: SVG has a time axis"
t_grep "$art/default-boot.svg" '<g class="legend">' "default: SVG has a legend"
rm -f "$art/default-boot.png"
timeout 120 chromium --headless --no-sandbox --disable-gpu --window-size=1600,1200 \
	--screenshot="$art/default-boot.png" "file://$art/default-boot.svg" >/dev/null 2>&1 || true
t_ok "default: Chromium renders the SVG" test -s "$art/default-boot.png"

# --- deliberate failures and a tiny buffer
# deliberate failures: lint would refuse the config
t_boot failures --no-lint "$BT_TOP/tests/analysis/failures.bconf"
report failures "$T_TMP/failures"
o=$T_TMP/failures.out
t_is "$R" 1 "failures: report exits 1"
t_grep "$o" '^  FAILED +ftrace.event.sched.nosuchevent.enable' "failures: unknown event by key"
t_grep "$o" '^  FAILED +ftrace.event.task.task_rename.filter' "failures: bad filter by key"
t_grep "$o" 'filter rejected: ' "failures: bad filter reason"
t_grep "$o" '^  FAILED +ftrace.instance.badtracer.tracer' "failures: unknown tracer by key"
t_grep "$o" 'Failed to set given tracer: nosuchtracer' "failures: unknown tracer reason"
if grep -q '^series=.*Remove-the-256-byte-limit' "$(dirname "${T_KOPTS[1]}")/metadata" 2>/dev/null; then
	# Our kernel series lifts trace_boot's 256-byte limit: the action applies.
	t_grep "$o" '^  applied +ftrace.event.task.task_newtask.actions' \
		"failures: long action applied (kernel with the series)"
	t_grep "$T_TMP/failures/tracefs/events/task/task_newtask/trigger" 'name=x{240,}' \
		"failures: the long hist trigger is set"
	t_grep "$o" '^  3 of 10 settings FAILED' "failures: nothing else failed"
else
	t_grep "$o" '^  FAILED +ftrace.event.task.task_newtask.actions' "failures: too-long action by key"
	t_grep "$o" 'action string is too long' "failures: too-long action reason"
	t_grep "$o" '^  4 of 10 settings FAILED' "failures: nothing else failed"
fi
t_grep "$o" '^  overrun +tiny +cpu[01] +[1-9]' "tiny buffer_size: overrun reported"
"$ta" report "$T_TMP/failures" --json >"$T_TMP/f.json" 2>&1
t_ok "tiny buffer_size: data_loss in the JSON" \
	jq -e '[.data_loss[] | select(.instance == "tiny")] | length > 0' "$T_TMP/f.json"

# --- initcall events in trace.dat: SVG and Perfetto
# These boots and the gate's below run on the pc machine: the single-boot
# gate needs a slowdown beyond TCG's noise (tcg.thresholds: 1 s), and
# slow.bconf's acpi_* function tracer gives one only with pc's full ACPI
# tables (acpi_init ~1 s slower); on microvm's hardware-reduced ACPI it
# adds ~80 ms, which only the N-boot gate (30-diff-sets.t) can see.
t_boot initcalls --machine pc "$BT_TOP/tests/analysis/initcalls.bconf"
report initcalls "$T_TMP/initcalls" --svg "$T_TMP/ic.svg" --perfetto "$T_TMP/ic.json"
o=$T_TMP/initcalls.out
t_is "$R" 0 "initcalls: report exits 0"
t_grep "$o" 'initcall_start/finish\): [0-9]{3}, ' "initcalls: initcall table from trace.dat"
t_grep "$o" '^  1 +[a-z_0-9]+ +[a-z]+ +[0-9.]+ +[0-9.]+ +0$' "initcalls: level, start, duration, ret"
t_ok "SVG is well-formed" xmllint --noout "$T_TMP/ic.svg"
t_grep "$T_TMP/ic.svg" 'fill="#d62728"' "SVG highlights the longest initcalls"
t_ok "Perfetto JSON parses" jq -e '.traceEvents | length > 0' "$T_TMP/ic.json"
n=$(jq '[.traceEvents[] | select(.ph == "X" and .cat == "initcall")] | length' "$T_TMP/ic.json" 2>/dev/null)
want=$("$ta" report "$T_TMP/initcalls" --json | jq '.initcalls | length')
# (both counts come from trace-analysis: empty, or 0, would agree)
t_ok "the JSON report holds the initcalls ($want)" test "${want:-0}" -ge 100
t_is "$n" "$want" "Perfetto JSON holds every initcall ($want)"
t_ok "Perfetto JSON has kprobe instants" \
	jq -e '[.traceEvents[] | select(.ph == "i" and .cat == "kprobe")] | length > 0' "$T_TMP/ic.json"
t_ok "a bundle diffed with itself passes the gate" \
	"$ta" diff "$T_TMP/initcalls" "$T_TMP/initcalls"

# --- the regression gate: same kernel and config twice, then slowed down
th=$BT_TOP/tests/analysis/tcg.thresholds
t_boot initcalls2 --machine pc "$BT_TOP/tests/analysis/initcalls.bconf"
R=0
"$ta" diff "$T_TMP/initcalls" "$T_TMP/initcalls2" --thresholds "$th" \
	>"$T_TMP/gate1.out" 2>&1 || R=$?
t_is "$R" 0 "two boots of the same kernel and config pass the gate"
[ "$R" = 0 ] || sed 's/^/# /' "$T_TMP/gate1.out" | head -n 12
t_boot slow --machine pc "$BT_TOP/tests/analysis/slow.bconf"
R=0
"$ta" diff "$T_TMP/initcalls" "$T_TMP/slow" --thresholds "$th" \
	>"$T_TMP/gate2.out" 2>&1 || R=$?
t_is "$R" 1 "a boot with slowed-down initcalls fails the gate"
t_grep "$T_TMP/gate2.out" '^  REGRESSION initcall:' "the gate names the slow initcall"
"$ta" diff "$T_TMP/initcalls" "$T_TMP/slow" --thresholds "$th" --json >"$T_TMP/gate.json"
t_ok "diff --json reports the regression" \
	jq -e '.regressions > 0 and ([.metrics[] | select(.status == "regression")] | length) == .regressions' \
	"$T_TMP/gate.json"
R=0
"$ta" diff "$T_TMP/initcalls" "$T_TMP/nope" >/dev/null 2>&1 || R=$?
t_is "$R" 2 "diff of a missing bundle exits 2"

# keep the bundles for the gate test when asked
if [ -n "${BOOTTRACE_KEEP_BUNDLES:-}" ]; then
	mkdir -p "$BOOTTRACE_KEEP_BUNDLES"
	cp -r "$T_TMP/default" "$T_TMP/failures" "$T_TMP/initcalls" \
		"$T_TMP/initcalls2" "$T_TMP/slow" "$BOOTTRACE_KEEP_BUNDLES/"
fi
t_done
