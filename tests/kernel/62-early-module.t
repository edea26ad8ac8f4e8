#!/bin/bash
# Module events configured at boot for a module loaded before
# late_initcall (series patch "tracing/boot: Apply the settings of module
# events when the module is loaded": its module notifier is registered by
# trace_boot_init() itself), and the series' boot-time tracing behaviour
# as ftrace selftest-style cases run in the guest (tests/kernel/tc/*.tc,
# run by tests/kernel/tc-guest.sh as rdinit).  One device-less boot of
# the sanitizer test kernel, whose uevent helper
# (kernel/configs/early-module.config, tests/kernel/uevent-helper.c)
# loads the trace-events sample module during the device initcalls;
# initramfs_async=0 unpacks the initramfs before them, initcall_debug
# (with loglevel=8: its lines are KERN_DEBUG)
# shows the order.  Checked: the module was loaded before the first
# late initcall ran (in one of up to three boots: the load races the
# initcalls), each case passed (settings applied on that early
# load; a misspelt group pending with its name; a failed setting in
# boot_status and error_log; 20 unload/load cycles with boot_status the
# same size after cycle 1 and 20; triggers gone on unload), no warning,
# oops or sanitizer report.  K_KASAN_KERNEL=BZIMAGE boots another image.
# alone: boots the sanitizer kernel (tests/run.sh, suite_series)
set -uo pipefail
. "$(dirname "$0")/lib.sh"

dir=$BT_TOP/tests/kernel
cases=("$dir"/tc/*.tc)
t_plan $((${#cases[@]} + 5))
tree=${K_TREE:-6.1}
k_kernel "$tree"
# the guest scripts need bash and kmod's insmod/rmmod: the systemd image
# has them (and the libraries of grep, wc and sort, added below)
K_FLAVOUR=systemd k_base_initrd
k_kasan_kernel "$tree" "${K_KASAN_KERNEL:-}"

t_grep "$(dirname "$K_KASAN_BZ")/.config" '^CONFIG_UEVENT_HELPER_PATH="/boottrace/uevent-helper"$' \
	"the test kernel runs /boottrace/uevent-helper for uevents"

# the helper under its configured name, the cases in tc/, and in bin/
# the tools the cases use that the image lacks (tc-guest.sh puts bin/
# last in PATH)
stage=$T_TMP/stage
mkdir -p "$stage/tc" "$stage/bin"
gcc -std=gnu11 -O2 -Wall -Wextra -Werror -static -s -o "$stage/uevent-helper" \
	"$dir/uevent-helper.c" || { echo "Bail out! cannot build uevent-helper.c (gcc, libc6-dev)"; exit 1; }
cp "$dir"/tc/functions "${cases[@]}" "$stage/tc/"
for tool in grep wc sort; do
	cp "$(command -v "$tool")" "$stage/bin/" ||
		{ echo "Bail out! no $tool on the host"; exit 1; }
done
k_mod_initrd "$K_KASAN_BZ" "$T_TMP/early.img" "$dir/tc/early.bconf" \
	"$dir/tc-guest.sh" "$stage/uevent-helper" "$stage/tc" "$stage/bin"
# The kernel does not wait for a uevent helper: the module load races the
# rest of the device initcalls, and it lost once by three console lines
# (stop 30, on a quiet host).  A boot where the module came after the first
# late initcall proves nothing about the early load, so a guest that ran
# its cases is booted again, up to three boots; the cases below are read
# from the last one.
log=$T_TMP/early.log
boots=3
# module_early: the module's init came before the first late initcall
module_early() { [ "${mod_at:-999999}" -lt "${late_at:-0}" ]; }
for boot in $(seq "$boots"); do
	k_qemu_bare 900 "$K_KASAN_BZ" "$log" \
		"bootconfig rdinit=/boottrace/tc-guest.sh initramfs_async=0 initcall_debug loglevel=8" \
		"$T_TMP/early.img"
	tr -d '\r' <"$log" >"$T_TMP/console"
	# initcall_debug: "calling  FN+0x0/0x.. [trace_events_sample] @ PID"
	# for the module's init, before the first late initcall of the series
	mod_at=$(grep -a -n -m1 'calling .*\[trace_events_sample\]' "$T_TMP/console" | cut -d: -f1)
	late_at=$(grep -a -n -m1 'calling  trace_boot_status_init' "$T_TMP/console" | cut -d: -f1)
	echo "# boot $boot: module init at console line ${mod_at:-none}, trace_boot_status_init (late_initcall) at ${late_at:-none}"
	module_early && break
	# a guest that did not finish its cases (a hang, a panic) is reported
	# below as it is, not booted again
	grep -aq 'BTTC: done' "$T_TMP/console" || break
done
grep -a 'BTTC: ' "$T_TMP/console" | sed 's/^.*BTTC: /# /'

t_grep "$T_TMP/console" 'BTTC: early-load 0$' "the uevent helper loaded the module"
t_ok "the module was loaded before late_initcall (boot $boot of at most $boots)" \
	module_early
for c in "${cases[@]}"; do
	name=$(basename "$c" .tc)
	t_grep "$T_TMP/console" "BTTC: ok $name\$" "$name: $(sed -n 's/^# description: //p' "$c")"
done
t_grep "$T_TMP/console" 'BTTC: done$' "the guest ran every case"
t_ok "no warning, oops or sanitizer report" k_no_oops "$log"
t_done
