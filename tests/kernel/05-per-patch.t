#!/bin/bash
# Each patch builds and boots on its own, and changes nothing for a boot
# without a config: kernel/per-patch.sh builds the tree with every prefix
# of the series (0 = the packaged tree), and each image is booted with
# `bootconfig` on the command line but no config in the initrd (so the
# trailer and early-cpio lookups run and find nothing).  What such a boot
# shows (below: "behaviour") must be the same as the packaged tree's.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

tree=${K_TREE:-6.1}
series=$(k_series_file "$tree")
"$BT_TOP/kernel/per-patch.sh" --tree "$tree" --series "$series" \
	${K_CONFIG:+--config "$K_CONFIG"} >"$T_TMP/prefixes" 2>"$T_TMP/per-patch.err" ||
	{ echo "Bail out! per-patch build failed: $(tail -n1 "$T_TMP/per-patch.err")"; exit 1; }
n=$(wc -l <"$T_TMP/prefixes")
t_plan $((3 * n))

# The last prefix is the whole series: the kernel build.sh built from the
# same source and .config (per-patch.sh copies it), symbol for symbol.
full_dir=$("$BT_TOP/kernel/build.sh" --tree "$tree" --series "$series" \
	${K_CONFIG:+--config "$K_CONFIG"} --print-dir 2>/dev/null)
last_dir=$(tail -n1 "$T_TMP/prefixes" | cut -d' ' -f3)
t_ok "the last prefix has the whole-series kernel's System.map" \
	cmp "$full_dir/System.map" "$last_dir/System.map"

# What a boot without a config shows of bootconfig and tracing: the
# kernel's bootconfig view, the tracing state of the top buffer, the
# dynamic events, which tracefs files exist, and the console lines about
# the initrd, bootconfig and tracing (without timestamps).
behaviour()
{
	local b=$1 f

	echo "== proc/bootconfig"
	cat "$b/proc/bootconfig"
	echo "== proc/cmdline"
	cat "$b/proc/cmdline"
	for f in current_tracer trace_clock buffer_size_kb tracing_cpumask \
		trace_options set_event set_ftrace_filter set_ftrace_notrace \
		error_log dynamic_events available_tracers; do
		echo "== tracefs/$f"
		cat "$b/tracefs/$f" 2>/dev/null || echo "(absent)"
	done
	echo "== tracefs files"
	(cd "$b/tracefs" && find . -maxdepth 1 | LC_ALL=C sort)
	echo "== console"
	sed -n 's/^\[ *[0-9.]*\] //p' "$b/console.log" |
		grep -a -i -E 'bootconfig|initrd|initramfs|trac(e|ing)|kprobe|ftrace' |
		grep -a -v -E '^Linux version|Command line:|Kernel command line:'
}

# boot_prefix I DIR: boots prefix I's kernel (DIR), its exit status in
# pI.rc and what k_boot noted in pI.notes
boot_prefix()
{
	K_BZ=$2/bzImage
	K_KVER=$(cat "$2/kernelrelease")
	k_boot "p$1" "$K_BASE" >"$T_TMP/p$1.notes"
	echo "$T_RC" >"$T_TMP/p$1.rc"
}

k_kernel "$tree"
k_base_initrd
# The prefixes' plain kernels boot $at_once at a time (the boot suite's load,
# under which every boot's timeout holds); the results are read in order.
at_once=${BOOTTRACE_TEST_JOBS:-$(nproc)}
while read -r i name dir; do
	while [ "$(jobs -pr | wc -l)" -ge "$at_once" ]; do
		wait -n
	done
	boot_prefix "$i" "$dir" &
done <"$T_TMP/prefixes"
wait
while read -r i name dir; do
	cat "$T_TMP/p$i.notes"
	T_RC=$(cat "$T_TMP/p$i.rc")
	t_ok "prefix $i ($name): boots to the collector" test "$T_RC" = 0
	t_ok "prefix $i ($name): no warning, oops or sanitizer report" \
		k_no_oops "$(k_console "p$i")"
	if [ "$T_RC" = 0 ]; then
		behaviour "$T_TMP/p$i" >"$T_TMP/p$i.behaviour"
	else
		echo "(no bundle)" >"$T_TMP/p$i.behaviour"
	fi
	[ "$i" = 0 ] && continue
	t_ok "prefix $i ($name): a boot without a config behaves as the packaged tree" \
		diff -u "$T_TMP/p0.behaviour" "$T_TMP/p$i.behaviour"
done <"$T_TMP/prefixes"
t_done
