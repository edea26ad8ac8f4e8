#!/bin/bash
# 90boottrace-collect - dracut module: collect a boot-time tracing bundle.
#
# For test boots only.  At the first hook (cmdline) it runs
# boottrace-collect --initramfs (collect/), which does nothing unless the
# kernel command line has boottrace.collect=DEV (DEV a raw virtio disk
# prepared by `boottrace boot`).  See docs/bundle.md.
#
# The collector binary: dracut.conf's boottrace_collect=PATH, else the
# checkout's collect/build/boottrace-collect, else boottrace-collect in PATH.
# It is static and runs no program but trace-cmd, so the image needs no
# udev, no kmod and no tar.
#
# With dracut.conf's boottrace_collect_init=yes (the harness's shell-flavour
# image, dracut-module/lib-dracut.sh) the collector is also the image's
# /init: PID 1 collects at once when boottrace.collect= is given and
# otherwise execs dracut's init, installed as /init.dracut.  The hook
# stays for the images without it (the systemd flavour, tests/dracut).
# shellcheck disable=SC2154 # $moddir, $boottrace_collect* are set by dracut

# The collector to install, or nothing.
collector()
{
	local c

	for c in "${boottrace_collect:-}" \
		"$(readlink -f "$moddir")/../../collect/build/boottrace-collect" \
		"$(command -v boottrace-collect)"; do
		[ -n "$c" ] && [ -x "$c" ] && { echo "$c"; return 0; }
	done
	return 1
}

# called by dracut
check()
{
	require_binaries trace-cmd || return 1
	if ! collector >/dev/null; then
		derror "boottrace-collect: no collector binary (build it: make -C collect)"
		return 1
	fi
	# only when asked for with --modules / add_dracutmodules
	return 255
}

# called by dracut
depends()
{
	echo base
	return 0
}

# called by dracut
install()
{
	inst_binary "$(collector)" /usr/bin/boottrace-collect
	inst_multiple trace-cmd
	inst_hook cmdline 00 "$moddir/boottrace-collect-hook.sh"
	[ "${boottrace_collect_init:-}" = yes ] || return 0
	# before 99base (modules install in the order of their numbers): base
	# finds /init taken and leaves it; its init.sh goes to /init.dracut
	if [ -e "$initdir/init" ] || ! dracut_module_included base; then
		dfatal "boottrace-collect: boottrace_collect_init=yes needs dracut's shell init (module base, no systemd)"
		exit 1
	fi
	inst_binary "$(collector)" /init
	inst_script "$dracutbasedir/modules.d/99base/init.sh" /init.dracut
}
