#!/bin/bash
# Boot-time tracing reports what it could not apply (series patches
# "tracing/boot: Report failed settings in the error_log", "Fix
# tracing_on, buffer_size and actions handling", "Remove the 256-byte
# limit on settings").  One config with a failure of each kind, split
# between the top level and an instance so that neither error_log
# (8 entries) overflows, plus a filter and a hist trigger longer than
# 256 bytes that must be applied.  1 boot.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

t_plan 34
k_kernel "${K_TREE:-6.1}"
k_base_initrd

long=$(for i in $(seq 100001 100040); do printf 'pid != %s && ' "$i"; done)
long="${long}pid != 1"
conf=$T_TMP/fail.bconf
cat >"$conf" <<BCONF
ftrace {
	tracing_on = maybe
	buffer_size = 1
	trace_clock = nosuchclock
	options = nosuchoption
	event.kprobes.bt_badprobe.probes = "no_such_function_bt"
	event.sched.sched_process_exec {
		filter = "$long"
		hist {
			keys = pid
			filter = "$long"
		}
	}
}
ftrace.instance.bt {
	events = "nosuchgroup:nosuchevent"
	tracer = nosuchtracer
	event.sched.nosuch_event.enable
	event.sched.sched_process_fork.filter = "pid >>> 1"
	event.sched.sched_process_exit.actions = "nosuchtrigger", "enable_event:sched:sched_process_fork"
}
BCONF
t_ok "the config is valid for our bootconfig tool" "$BT_TOP/bin/boottrace" bootconfig "$conf"
t_ok "the filter is longer than 256 bytes" test "${#long}" -gt 256

img=$T_TMP/fail.img
cp "$K_BASE" "$img"
size=$(($(stat -c %s "$img") + $(stat -c %s "$conf") + 1 + 20))
k_trailer "$conf" "$img" $(((4 - size % 4) % 4))
k_boot fail "$img"
b=$T_TMP/fail
t_is "$T_RC" 0 "boots to the collector"
[ -f "$b/metadata" ] || { echo "Bail out! no bundle: $T_ERR"; exit 1; }
top=$b/tracefs/error_log
inst=$b/tracefs/instances/bt/error_log

# err FILE REASON COMMAND DESC: REASON line directly followed by COMMAND
err()
{
	local file=$1 reason=$2 cmd=$3 desc=$4

	# shellcheck disable=SC2016 # an awk program
	t_ok "$desc" awk -v r="trace_boot: error: $reason" -v c="  Command: $cmd" '
		index($0, r) { want = 1; next }
		want && $0 == c { found = 1 }
		{ want = 0 }
		END { exit !found }' "$file"
}
err "$top" 'Invalid tracing_on value' 'ftrace.tracing_on = "maybe"' "error_log: tracing_on"
err "$top" 'Buffer size is too small' 'ftrace.buffer_size = "1"' "error_log: buffer_size"
err "$top" 'Failed to set trace clock' 'ftrace.trace_clock = "nosuchclock"' "error_log: trace_clock"
err "$top" 'Failed to set option' 'ftrace.options = "nosuchoption"' "error_log: options"
err "$top" 'Failed to add kprobe event' \
	'ftrace.event.kprobes.bt_badprobe.probes = "no_such_function_bt"' "error_log: kprobe definition"
err "$inst" 'Failed to enable event' \
	'ftrace.instance.bt.events = "nosuchgroup:nosuchevent"' "instance error_log: events"
err "$inst" 'Failed to set tracer' 'ftrace.instance.bt.tracer = "nosuchtracer"' "instance error_log: tracer"
err "$inst" 'Failed to find event' 'ftrace.instance.bt.event.sched.nosuch_event' "instance error_log: unknown event"
err "$inst" 'Failed to apply filter' \
	'ftrace.instance.bt.event.sched.sched_process_fork.filter = "pid >>> 1"' "instance error_log: bad filter"
err "$inst" 'Failed to apply action' \
	'ftrace.instance.bt.event.sched.sched_process_exit.actions = "nosuchtrigger"' "instance error_log: bad action"
t_ok "the top error_log has no instance errors" sh -c "! grep -q 'instance.bt' '$top'"
t_ok "the instance error_log has no top-level errors" sh -c "! grep -q 'ftrace.tracing_on' '$inst'"
t_grep "$b/dmesg" 'trace_boot: Failed to set tracing on: maybe' "dmesg keeps the pr_err lines"

# what was rejected was not applied, what was valid was
t_ok "buffer_size = 1 was not applied" sh -c "[ \"\$(cat '$b/tracefs/buffer_size_kb')\" != 4 ]"
t_is "$(grep -o '\[[a-z0-9-]*\]' "$b/tracefs/trace_clock")" "[global]" "trace_clock unchanged ([global] from the command line)"
f=$b/tracefs/events/sched/sched_process_exec
t_grep "$f/filter" 'pid != 100040 && pid != 1' "the ${#long}-byte filter is applied"
t_grep "$f/trigger" '^hist:keys=pid' "the hist trigger (> 256 bytes composed) is applied"
t_ok "the hist trigger carries the whole filter" grep -q 'pid != 100040' "$f/trigger"
t_ok "the hist file exists" test -f "$f/hist"
t_grep "$b/tracefs/instances/bt/events/sched/sched_process_exit/trigger" \
	'^enable_event:sched:sched_process_fork' "the valid action next to the bad one is applied"
t_ok "the bad kprobe was not created" sh -c "! grep -q bt_badprobe '$b/tracefs/kprobe_events'"

# boot_status (series patch "Add a boot_status file"): one line per
# setting, copied into the bundle by the collector.
st=$b/tracefs/boot_status
status_lines=(
	'failed ftrace.tracing_on = "maybe" # Invalid tracing_on value'
	'failed ftrace.buffer_size = "1" # Buffer size is too small'
	'failed ftrace.instance.bt.tracer = "nosuchtracer" # Failed to set tracer'
	'failed ftrace.instance.bt.event.sched.nosuch_event # Failed to find event'
	'failed ftrace.instance.bt.event.sched.sched_process_exit.actions = "nosuchtrigger" # Failed to apply action'
	'applied ftrace.instance.bt.event.sched.sched_process_exit.actions = "enable_event:sched:sched_process_fork"'
	"applied ftrace.event.sched.sched_process_exec.filter = \"$long\""
)
for line in "${status_lines[@]}"; do
	t_ok "boot_status: ${line:0:60}..." grep -qxF -- "$line" "$st"
	grep -qxF -- "$line" "$st" 2>/dev/null ||
		grep -F -- "${line:0:50}" "$st" 2>/dev/null | sed 's/^/# got: /'
done
t_grep "$st" '^applied ftrace\.event\.sched\.sched_process_exec\.hist = "hist:keys=pid' "boot_status: the composed hist command"
t_is "$(grep -c '^failed ' "$st" 2>/dev/null)" 10 "boot_status: all 10 failures listed"
t_ok "no oops" k_no_oops "$b"
t_done
