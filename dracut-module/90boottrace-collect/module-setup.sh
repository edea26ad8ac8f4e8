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
# With dracut.conf's boottrace_collect_init=yes (the harness's lean image,
# dracut-module/lib-dracut.sh) the collector is the image's /init and the
# module needs no other: PID 1 collects at once when boottrace.collect= is
# given and otherwise execs dracut's init (/init.dracut, only when base is
# in the image too) or powers off.  Without the setting (the systemd
# flavour, tests/dracut) it runs from the first hook.
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
	[ "${boottrace_collect_init:-}" = yes ] || echo base
	return 0
}

# called by dracut
install()
{
	inst_binary "$(collector)" /usr/bin/boottrace-collect
	inst_multiple trace-cmd
	if [ "${boottrace_collect_init:-}" != yes ]; then
		inst_hook cmdline 00 "$moddir/boottrace-collect-hook.sh"
		return 0
	fi
	# PID 1.  With dracut's base (installed later: modules go in the order
	# of their numbers), whose /init then finds ours there, its init.sh
	# goes to /init.dracut for the boots without boottrace.collect=.
	if [ -e "$initdir/init" ]; then
		dfatal "boottrace-collect: boottrace_collect_init=yes: /init is taken (systemd?); it needs an image without another init"
		exit 1
	fi
	inst_binary "$(collector)" /init
	if dracut_module_included base; then
		inst_hook cmdline 00 "$moddir/boottrace-collect-hook.sh"
		inst_script "$dracutbasedir/modules.d/99base/init.sh" /init.dracut
	fi
}
