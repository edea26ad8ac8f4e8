#!/bin/bash
# Unloading a module whose events have triggers (series patch 0007
# "tracing: Remove the triggers of a module's events when it is
# unloaded"; without it the kernel warns in
# tp_module_going_check_quiescent, the probe stays registered and the
# triggers leak).  Device-less boots (k_qemu_bare): the initrd is the
# sample module, tests/kernel/unload-guest.sh run as rdinit, dracut's
# base image and examples/module-events.bconf as trailer.  The guest
# loads the module (0013 applies the bootconfig's stacktrace and hist
# triggers), adds triggers by hand (stacktrace; enable_event on
# sched_switch; two hist triggers with timestamps, foo_bar_with_cond's
# using the variable of foo_bar's, which the unload meets first and must
# come back to), unloads it and loads it again.  Checked from its
# "BT65:" lines: everything added, the module unloaded, sched_switch out
# of soft mode, the reloaded events carrying the bootconfig's
# triggers and nothing of the hand-made ones, and no warning, oops or
# sanitizer report.  2 boots: the main kernel, and the KASAN+UBSAN
# kernel of 15-sanitize.t/70-kunit.t (it runs no collector, so this
# needs no disk).  K_KERNEL / K_KASAN_KERNEL=BZIMAGE boot other images.
# alone: boots the sanitizer kernel (tests/run.sh, suite_series)
set -uo pipefail
. "$(dirname "$0")/lib.sh"

per_boot=15
t_plan $((2 * per_boot))
tree=${K_TREE:-6.1}
k_kernel "$tree"
# the guest script needs bash, insmod and rmmod: the systemd image has them
K_FLAVOUR=systemd k_base_initrd
conf=$BT_TOP/examples/module-events.bconf
guest=$BT_TOP/tests/kernel/unload-guest.sh

k_kasan_kernel "$tree" "${K_KASAN_KERNEL:-}"

# lines KEY: the values of the guest's "BT65: KEY VALUE" lines
lines()
{
	sed -n "s/^.*BT65: $1 //p" "$out"
}

# unload_boot NAME BZIMAGE SECONDS
unload_boot()
{
	local name=$1 bz=$2 secs=$3 log=$T_TMP/$1.log

	k_mod_initrd "$bz" "$T_TMP/$name.img" "$conf" "$guest"
	k_qemu_bare "$secs" "$bz" "$log" "bootconfig rdinit=/boottrace/unload-guest.sh" "$T_TMP/$name.img"
	out=$T_TMP/$name.out
	tr -d '\r' <"$log" | grep -a 'BT65: ' >"$out"
	sed 's/^/# /' "$out"

	# the guest's lines are kernel log records (tests/kernel/guest-lib.sh),
	# whole lines however the kernel's messages fall around them
	t_grep "$out" 'BT65: done$' "$name: the guest ran to its end"
	t_is "$(lines pending)" 6 "$name: the bootconfig's 6 settings pending before the load"
	t_grep "$out" 'BT65: trigger1\.foo_bar stacktrace:count=1' "$name: the bootconfig's stacktrace applied on load"
	t_grep "$out" 'BT65: trigger1\.foo_bar hist:keys=bar:vals=hitcount,common_pid' "$name: and its hist trigger"
	t_is "$(lines added | wc -l)" 4 "$name: the 4 triggers added by hand"
	lines add-failed | sed 's/^/# add failed: /'
	t_grep "$out" 'BT65: hand\.foo_bar_with_cond hist:keys=bar:vals=hitcount:lat=common_timestamp\.usecs-.ts0' \
		"$name: foo_bar_with_cond's hist trigger uses foo_bar's variable"
	# "0*" or "1*": soft mode (1 once the trigger fired); the enable_event
	# trigger's reference must go with the module, the state stays
	t_is "$(lines sched_switch | sed 's/^[01]//')" "*" \
		"$name: sched_switch in soft mode for the enable_event trigger"
	t_grep "$out" 'BT65: unloaded 1$' "$name: rmmod with the triggers attached succeeds"
	t_is "$(lines sched_switch-after | sed 's/^[01]//')" "" \
		"$name: sched_switch out of soft mode after the unload"
	t_ok "$name: the module's event files are gone after the unload" \
		sh -c "! grep -q 'BT65: events-left' '$out'"
	t_is "$(lines trigger2.foo_bar | sed 's/:[^:]*\[active\]$//; s/:size=.*//' | sort | tr '\n' ' ')" \
		"hist:keys=bar:vals=hitcount,common_pid:sort=hitcount stacktrace:count=1 " \
		"$name: reloaded foo_bar has the bootconfig's triggers and nothing else"
	t_is "$(lines trigger2.foo_bar_with_cond; lines trigger2.foo_with_template_simple)" "" \
		"$name: the other reloaded events have no trigger"
	t_is "$(lines applied)" 6 "$name: the 6 settings applied, one line each counting the 2 loads"
	t_grep "$out" 'BT65: unloaded 2$' "$name: unloaded again"
	t_ok "$name: no warning, oops or sanitizer report" k_no_oops "$log"
}

unload_boot main "$K_BZ" 180
unload_boot kasan "$K_KASAN_BZ" 600
t_done
