#!/bin/bash
# More trace_boot failures than a trace array's error_log keeps (8), in the
# top level and in an instance (tests/analysis/overflow.bconf), on the
# kernel with the series (patch 0012: tracefs/boot_status).  Checked: the
# collector copies boot_status into the bundle; every failure of the config
# is in it with its key; trace-analysis reports each one from it, by key,
# in the text report, --json and `check`; each error_log holds only the
# last 8.  1 boot.  BOOTTRACE_TEST_KERNEL=BZIMAGE boots that image.
set -uo pipefail
. "$(dirname "$0")/../boot/tap.sh"

ta=$BT_TOP/trace-analysis/build/trace-analysis
make -s -C "$BT_TOP/trace-analysis" >&2 || { echo "Bail out! build failed"; exit 1; }
command -v jq >/dev/null || { echo "Bail out! jq missing (apt-get install jq)"; exit 1; }
t_kernel
if ! grep -q '^series=.*-tracing-boot-Add-a-boot_status-file' \
	"$(dirname "${T_KOPTS[1]}")/metadata" 2>/dev/null; then
	# only a kernel given by BOOTTRACE_TEST_KERNEL may lack the series
	[ -n "${BOOTTRACE_TEST_KERNEL:-}" ] ||
		{ echo "Bail out! kernel/build.sh's kernel has no boot_status (series patch 0012; its metadata's series=)"; exit 1; }
	t_skip_all "the kernel has no boot_status (series patch 0012)"
fi

# The settings of overflow.bconf that must fail, as boot_status names them
# (an event that does not exist is reported on the event's key).
top_failed=(ftrace.options ftrace.tracing_on ftrace.trace_clock
	ftrace.buffer_size ftrace.cpumask ftrace.event.sched.nosuchevent
	ftrace.event.task.task_rename.filter ftrace.event.task.task_newtask.actions
	ftrace.event.initcall.initcall_finish.hist
	ftrace.event.kprobes.badprobe.probes ftrace.events ftrace.tracer)
bad_failed=(options trace_clock buffer_size cpumask event.sched.nosuchevent
	event.task.task_newtask.filter events ftrace.filters tracer)
nfail=$((${#top_failed[@]} + ${#bad_failed[@]}))
t_plan $((nfail + 16))

# deliberate failures: lint would refuse the config
t_boot overflow --no-lint "$BT_TOP/tests/analysis/overflow.bconf"
b=$T_TMP/overflow
[ -f "$b/metadata" ] || { echo "Bail out! no bundle: $T_ERR"; exit 1; }
st=$b/tracefs/boot_status
t_ok "the collector copied tracefs/boot_status" test -s "$st"

for k in "${top_failed[@]}" "${bad_failed[@]/#/ftrace.instance.bad.}"; do
	t_grep "$st" "^failed ${k//./\\.}( = \".*\")? # [A-Z]" "boot_status: $k failed, with its reason"
done
t_is "$(grep -c '^failed ' "$st")" "$nfail" "boot_status: no other failure"
t_grep "$st" '^applied ftrace\.options = "sym-addr"$' "boot_status: the array's valid value applied"
t_grep "$st" '^applied ftrace\.instance\.bad\.event\.task\.task_newtask\.enable$' \
	"boot_status: the instance's valid enable applied"

# error_log: 8 entries per trace array, trace_boot's being the last ones
# of boot_status for that array, in order.
# last_failed PREFIX N: the last N failed lines of PREFIX as error_log commands
last_failed()
{
	grep "^failed $1" "$st" | sed -e 's/^failed //' -e 's/ # [^#]*$//' | tail -n "$2"
}
# log_cmds FILE: trace_boot's commands in an error_log
log_cmds()
{
	grep -A1 'trace_boot: error:' "$1" | sed -n 's/^  Command: //p'
}
top_log=$b/tracefs/error_log bad_log=$b/tracefs/instances/bad/error_log
t_is "$(grep -c '^\[' "$top_log")" 8 "top error_log holds 8 entries"
t_is "$(grep -c '^\[' "$bad_log")" 8 "instance error_log holds 8 entries"
n=$(log_cmds "$top_log" | wc -l)
t_is "$(log_cmds "$top_log")" "$(last_failed 'ftrace\.[^i]' "$n")" \
	"top error_log: the last $n trace_boot failures of boot_status"
n=$(log_cmds "$bad_log" | wc -l)
t_is "$(log_cmds "$bad_log")" "$(last_failed 'ftrace\.instance\.bad\.' "$n")" \
	"instance error_log: the last $n trace_boot failures of boot_status"
t_ok "the first failures are only in boot_status" \
	sh -c "! grep -q 'ftrace.options\\|bad.options' '$top_log' '$bad_log'"

# the report: every failed boot_status line, with its key, from boot_status
R=0
"$ta" report "$b" >"$T_TMP/report.out" 2>"$T_TMP/report.err" || R=$?
o=$T_TMP/report.out
t_is "$R" 1 "report exits 1"
t_grep "$o" "^Was it applied \(proc/bootconfig vs the kernel's boot_status" "report reads boot_status"
unseen=$(grep '^failed ' "$st" | while IFS= read -r line; do
	grep -qF -- "boot_status: $line" "$o" || echo "$line"; done)
t_is "$unseen" "" "report: every failed boot_status line, on a FAILED setting"
t_grep "$o" '^  21 of 26 settings FAILED, 0 pending \(for a module not loaded yet\), 1 not reported by the kernel, 0 other errors$' \
	"report: 21 failed, the kprobe's enable not reported, nothing unexplained"
t_grep "$o" '^  UNREPORTED ftrace\.event\.kprobes\.badprobe\.enable' "report: the enable after the failed probe"
"$ta" report "$b" --json >"$T_TMP/report.json" 2>/dev/null
t_ok "--json: 21 failed from boot_status" jq -e '.settings_summary.source == "boot_status"
	and .settings_summary.failed == 21
	and ([.settings[] | select(.status == "failed" and .boot_status == "failed")] | length) == 21' \
	"$T_TMP/report.json"
printf 'failed ftrace.options\nfailed ftrace.instance.bad.tracer\napplied ftrace.instance.bad.event.task.task_newtask.enable\n' \
	>"$T_TMP/o.expect"
t_ok "check: failed and applied by key" "$ta" check "$b" "$T_TMP/o.expect"
t_done
