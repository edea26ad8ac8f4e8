# shellcheck shell=bash
# tests/kernel/guest-lib.sh - sourced by the guest halves of the kernel
# tests (tc-guest.sh, unload-guest.sh), which run as rdinit of an initrd
# k_mod_initrd made; it is in /boottrace/ beside them.
#
# The guests report on the console, which also carries the kernel's own
# messages (initcall_debug's, a module's, the panic that ends the boot).
# A line written to the tty is sent by the serial driver afterwards, so a
# kernel message printed meanwhile can land inside it ("BT65: unloaded
# 2[    3.36] Kernel panic - ...").  Lines written to /dev/kmsg are
# records of the kernel's log instead, printed whole and in order with
# the rest.  Each say opens /dev/kmsg anew (its rate limit counts per
# open file) and k_qemu_bare passes printk.devkmsg=on besides.

# guest_mounts TRACEFS: proc, sysfs, devtmpfs (for /dev/kmsg; the image
# has an empty /dev) and tracefs at TRACEFS.
guest_mounts()
{
	mount -t proc proc /proc
	mount -t sysfs sysfs /sys
	mount -t devtmpfs devtmpfs /dev
	mount -t tracefs nodev "$1"
}

# say TEXT...: the console line "$GUEST_TAG: TEXT"
say()
{
	printf '<6>%s: %s\n' "$GUEST_TAG" "$*" >/dev/kmsg
}

# say_lines PREFIX FILE: say "PREFIX LINE" for each line of FILE
say_lines()
{
	local line

	while IFS= read -r line || [ -n "$line" ]; do
		say "$1 $line"
	done <"$2"
}
