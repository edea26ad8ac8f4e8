#!/bin/bash
# The systemd flavour of the collector image (`boottrace initrd --flavour
# systemd`, BT_INITRD_FLAVOUR=systemd for the harness): what real initramfs
# images are.  The default is dracut's shell init; this flavour must keep
# booting the default example, the dracut delivery (95bootconfig in trailer
# mode) and the module events (tests/kernel/60-module.t in this flavour).
# 3 boots plus 60-module.t's one.
set -uo pipefail
# shellcheck source=../boot/tap.sh
. "$(dirname "$0")/../boot/tap.sh"

export BT_INITRD_FLAVOUR=systemd
conf=$BT_TOP/examples/default.bconf
t_kernel
t_plan 10

# the image: systemd as init, the C collector at the cmdline hook
base=$("$BT_TOP/bin/boottrace" initrd --print-base --kver "$T_KVER" 2>"$T_TMP/base.err" | tail -n1)
t_ok "the systemd-flavour image has systemd and the collector" \
	bash -c "lsinitrd '$base' | grep -q ' usr/lib/systemd/systemd\$' &&
		lsinitrd '$base' | grep -q 'hooks/cmdline/00-boottrace-collect-hook.sh\$'"

t_boot default "$conf"
b=$T_TMP/default
t_is "$T_RC" 0 "the default example boots (systemd flavour)"
t_grep "$b/console.log" '(Welcome to .*[Ii]nitramfs|systemd\[1\])' "systemd ran the initramfs"
t_is "$(t_meta "$b" bootconfig_status)" loaded "the kernel loaded the bootconfig"
t_is "$(t_meta "$b" complete)" yes "the collector wrote a complete bundle"
t_ok "boottrace check against the example's expectations" \
	"$BT_TOP/bin/boottrace" check "$b" "$BT_TOP/examples/default.expect"

t_boot trailer --delivery trailer "$conf"
b=$T_TMP/trailer
t_is "$T_RC" 0 "dracut's delivery module (trailer) in the systemd flavour boots"
t_is "$(t_meta "$b" bootconfig_status)" loaded "and the kernel loaded its bootconfig"
t_is "$(grep -v '^#' "$b/proc/bootconfig")" "$("$BT_TOP/bin/boottrace" bootconfig -l "$conf")" \
	"/proc/bootconfig equals bootconfig -l of the input"

t_ok "the module events (tests/kernel/60-module.t) in the systemd flavour" \
	"$BT_TOP/tests/kernel/60-module.t"
t_done
