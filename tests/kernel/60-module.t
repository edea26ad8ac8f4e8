#!/bin/bash
# Boot-time settings of module events (series patch 0013 "tracing/boot:
# Apply the settings of module events when the module is loaded", and
# 0007 "tracing: Remove the triggers of a module's events when it is
# unloaded").  examples/module-events.bconf configures the events of the
# kernel's trace-events sample module (built by kernel/build.sh into
# out/modules/trace-events-sample.ko), which is not loaded at boot.  The
# initrd carries the module; the collector loads it, unloads it and loads
# it again (boottrace.insmod=, boottrace.reload=1).  1 boot:
# boot_status says "pending" before the first load and "applied" after,
# one line per setting counting the 2 loads; the event files of the
# reloaded module carry enable, filter and triggers, trace.dat has the
# events, the example's expectations
# (boottrace check) hold, and unloading with the triggers attached gave
# no warning.  (HIST_TRIGGERS=n is 50-nohist.t's; the triggers set by
# hand and the KASAN kernel are 65-unload.t's.)
# K_KERNEL=BZIMAGE boots another image (modules/ beside it).
set -uo pipefail
. "$(dirname "$0")/lib.sh"

t_plan 22
tree=${K_TREE:-6.1}
k_kernel "$tree"
k_base_initrd
conf=$BT_TOP/examples/module-events.bconf
expect=$BT_TOP/examples/module-events.expect
mod=trace_events_sample
ko_path=/boottrace/trace-events-sample.ko

t_grep "$(dirname "$K_BZ")/.config" '^CONFIG_MODULE_UNLOAD=y$' "the kernel can unload modules"
k_mod_initrd "$K_BZ" "$T_TMP/mod.img" "$conf"
k_boot mod "$T_TMP/mod.img" \
	--append "boottrace.insmod=$ko_path boottrace.reload=1" "$conf"
b=$T_TMP/mod
t_is "$T_RC" 0 "boots to the collector"
[ -f "$b/metadata" ] || { echo "Bail out! no bundle: $T_ERR"; exit 1; }
t_is "$(grep -c "loaded $ko_path" "$b/collect.log")" 2 "the collector loaded the module twice"
t_grep "$b/collect.log" "unloaded trace-events-sample \(1 of 1\)" "and unloaded it in between"
t_is "$(cat "$b/collect.status")" "errors=0" "the collector met no problem"

# Before the load: every setting of the module's events is pending, and
# the events are not reported missing.
before=$b/modules/boot_status.before
t_grep "$before" '^pending ftrace\.event\.sample-trace\.foo_bar\.filter = "bar > 0" # module not loaded \(no sample-trace events\)$' \
	"boot_status before the load: the filter is pending"
t_grep "$before" '^pending ftrace\.event\.sample-trace\.foo_bar\.hist = "hist:keys=bar:values=common_pid" # module not loaded \(no sample-trace events\)$' \
	"boot_status before the load: the composed hist command is pending"
t_is "$(grep -c '^pending ' "$before")" 6 "boot_status before the load: 6 settings pending"
t_ok "boot_status before the load: nothing applied to sample-trace" \
	sh -c "! grep -q '^applied.*sample-trace' '$before'"
t_ok "no 'Failed to find event' for the module's events" \
	sh -c "! grep -q 'Failed to find event: sample-trace' '$b/dmesg'"

st=$b/tracefs/boot_status
t_is "$(grep -c "^applied .*sample-trace.* # module $mod, loads  *2\$" "$st")" 6 \
	"boot_status: the 6 settings applied, one line each, 2 loads counted"
t_is "$(wc -l <"$st")" "$(wc -l <"$before")" \
	"boot_status: the pending lines were updated in place, none added"
t_is "$(grep -c '^failed .*(module ' "$st")" 0 "boot_status: nothing failed on load"
# the order of the boot path on each load: filter, actions, hist, enable
order=$(grep "^applied ftrace\.event\.sample-trace\.foo_bar\." "$st" |
	sed 's/^applied ftrace\.event\.sample-trace\.foo_bar\.\([a-z]*\).*/\1/' | tr '\n' ' ')
t_is "$order" "filter actions hist enable " \
	"listed in the boot path's order"

ev=$b/tracefs/events/sample-trace/foo_bar
# the reloaded module's event: "1*": enabled, and soft mode for the triggers
t_grep "$ev/enable" '^1' "the module's event is enabled"
t_is "$(cat "$ev/filter" 2>/dev/null)" "bar > 0" "its filter is set"
t_grep "$ev/trigger" '^stacktrace:count=' "its stacktrace action is attached"
t_grep "$ev/trigger" '^hist:keys=bar:vals=hitcount,common_pid' "its hist trigger is attached"
t_is "$(cat "$b/tracefs/instances/mod/events/sample-trace/foo_rel_loc/enable" 2>/dev/null)" 1 \
	"the instance's setting is applied in the instance"
# trace.dat: the module's events, read by trace-cmd's library
"$BT_TOP/bin/boottrace" report --json "$b" >"$T_TMP/report.json" 2>"$T_TMP/report.err"
t_grep "$T_TMP/report.json" '"sample-trace:foo_bar"' "trace.dat has sample-trace:foo_bar records"
t_ok "examples/module-events.expect is met (boottrace check)" \
	"$BT_TOP/bin/boottrace" check "$b" "$expect"
"$BT_TOP/bin/boottrace" check "$b" "$expect" | grep -v '^ok' | sed 's/^/# /'
t_ok "no warning (unloading with triggers attached) or oops" k_no_oops "$b"

t_done
