#!/bin/bash
# Without CONFIG_HIST_TRIGGERS (kernel/configs/nohist.config), plain event
# triggers given as `actions` are applied (before the series they were
# refused: "Failed to apply event actions because CONFIG_HIST_TRIGGERS is
# not set"), and a `hist` setting is reported instead of being ignored.
# Builds a second kernel (cached).  1 boot.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

t_plan 8
series=$(k_series_file 6.1)
K_BZ=$("$BT_TOP/kernel/build.sh" --series "$series" \
	--config "$BT_TOP/kernel/configs/nohist.config" 2>"$T_TMP/kernel.err") ||
	{ echo "Bail out! kernel build failed: $(tail -n1 "$T_TMP/kernel.err")"; exit 1; }
K_KVER=$(cat "$(dirname "$K_BZ")/kernelrelease")
K_TREE=6.1
t_ok "the kernel has no HIST_TRIGGERS" grep -qx '# CONFIG_HIST_TRIGGERS is not set' "$(dirname "$K_BZ")/.config"
k_base_initrd

conf=$T_TMP/nohist.bconf
cat >"$conf" <<'BCONF'
ftrace.event.sched.sched_process_exit.actions = "traceoff", "enable_event:sched:sched_process_fork"
ftrace.event.sched.sched_process_exec.hist.keys = pid
BCONF
img=$T_TMP/nohist.img
cp "$K_BASE" "$img"
size=$(($(stat -c %s "$img") + $(stat -c %s "$conf") + 1 + 20))
k_trailer "$conf" "$img" $(((4 - size % 4) % 4))
k_boot nohist "$img"
b=$T_TMP/nohist
t_is "$T_RC" 0 "boots to the collector"
tr=$b/tracefs/events/sched/sched_process_exit/trigger
t_grep "$tr" '^traceoff' "the traceoff action is applied"
t_grep "$tr" '^enable_event:sched:sched_process_fork' "the enable_event action is applied"
t_ok "no 'actions need HIST_TRIGGERS' refusal" sh -c "! grep -q 'Failed to apply event actions' '$b/dmesg'"
t_grep "$b/dmesg" 'Failed to apply histograms because CONFIG_HIST_TRIGGERS is not set' "the hist setting is reported"
# shellcheck disable=SC2016 # an awk program
t_ok "error_log names the hist key" awk '
	index($0, "trace_boot: error: Histograms need CONFIG_HIST_TRIGGERS") { want = 1; next }
	want && $0 == "  Command: ftrace.event.sched.sched_process_exec.hist" { found = 1 }
	{ want = 0 }
	END { exit !found }' "$b/tracefs/error_log"
t_ok "no oops" k_no_oops "$b"
t_done
