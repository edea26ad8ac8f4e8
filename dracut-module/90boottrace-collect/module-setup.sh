#!/bin/bash
# 90boottrace-collect - dracut module: collect a boot-time tracing bundle.
#
# For test boots only.  The pre-trigger hook runs the collector, which does
# nothing unless the kernel command line has boottrace.collect=DEV (DEV a
# raw virtio disk prepared by `boottrace boot`).  See docs/bundle.md.
# shellcheck disable=SC2154 # $moddir is set by dracut

# called by dracut
check()
{
	require_binaries trace-cmd tar || return 1
	# only when asked for with --modules / add_dracutmodules
	return 255
}

# called by dracut
depends()
{
	echo base bash systemd
	return 0
}

# called by dracut
install()
{
	inst_multiple trace-cmd tar grep dmesg uname date sync mount head \
		cat mkdir rm ls sleep tr wc cut sort stat
	inst_multiple -o systemctl poweroff
	# boottrace.insmod=: modules with trace events (the .ko files are
	# added to the initramfs by whoever boots it)
	inst_multiple -o insmod rmmod
	inst_script "$moddir/boottrace-collect.sh" /usr/bin/boottrace-collect
	inst_hook pre-trigger 50 "$moddir/boottrace-collect-hook.sh"
}
