#!/bin/bash
# Without `bootconfig` on the command line the kernel cuts the trailer off
# the initrd, ignores it and traces nothing.
set -uo pipefail
. "$(dirname "$0")/tap.sh"

t_kernel
t_plan 7
t_boot nobc "$BT_TOP/examples/default.bconf" --no-bootconfig
b=$T_TMP/nobc
t_is "$T_RC" 0 "boottrace boot --no-bootconfig exits 0"
[ -f "$b/metadata" ] || { echo "Bail out! no bundle: $T_ERR"; exit 1; }
t_is "$(t_meta "$b" bootconfig_status)" not-requested "metadata: bootconfig not requested"
t_ok "bootconfig is not on /proc/cmdline" sh -c "! grep -qw bootconfig '$b/proc/cmdline'"
t_ok "/proc/bootconfig is empty (nothing loaded)" test -f "$b/proc/bootconfig" -a ! -s "$b/proc/bootconfig"
t_ok "the initrd still unpacked (no 'Initramfs unpacking failed')" \
	sh -c "! grep -q 'Initramfs unpacking failed' '$b/dmesg'"
t_ok "no kprobe or synthetic event was defined" \
	sh -c "[ -f '$b/tracefs/dynamic_events' ] && ! grep -q . '$b/tracefs/dynamic_events'"
t_ok "no instance was created" test ! -e "$b/tracefs/instances"
t_done
