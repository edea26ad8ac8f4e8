# shellcheck shell=bash
# tests/kernel/lib.sh - shared setup for the kernel series tests.
#
# Uses the TAP helpers of tests/boot/tap.sh (t_plan, t_ok, t_is, t_grep,
# t_boot, t_done) and adds:
#
#   k_kernel [TREE]          build (or reuse) the patched kernel of TREE
#                            (the test files pass $K_TREE, default 6.1)
#                            (kernel/series, or kernel/series-TREE when it
#                            exists; K_SERIES_DIR=DIR uses DIR instead of
#                            kernel/; K_CONFIG=FRAGMENT adds a Kconfig
#                            fragment, e.g. configs/kasan.config;
#                            K_KERNEL=BZIMAGE boots that image
#                            instead, e.g. one built with other fragments);
#                            sets K_BZ and K_KVER
#   k_base_initrd            dracut base image (no bootconfig) for K_KVER;
#                            sets K_BASE
#   k_trailer TEXT OUT [pad] [size] [csum] [post]
#                            append TEXT + NUL + pad NULs + footer to OUT;
#                            size/csum override the footer fields ("" =
#                            computed), post = NULs after the magic
#   k_boot NAME INITRD [boot options]
#                            boot K_BZ with INITRD into $T_TMP/NAME
#   k_no_oops BUNDLE_OR_LOG  ok when the console shows no oops/BUG/KASAN
#   k_sized_conf NAME SIZE OUT  a SIZE-byte config setting boottrace_kt=NAME
#   k_qemu_bare SECONDS BZIMAGE LOG CMDLINE [INITRD]
#                            device-less TCG boot to the kernel's panic
#   k_kasan_kernel TREE [IMAGE]
#                            the KASAN+UBSAN+KUnit kernel of TREE (or IMAGE
#                            when not empty); sets K_KASAN_BZ
#   k_mod_initrd BZIMAGE OUT CONF [FILE...]
#                            initrd with BZIMAGE's sample module (and
#                            FILEs) in /boottrace/, the base image, and
#                            CONF as trailer (needs K_BASE)
# shellcheck disable=SC2034 # K_* are read by the test files

# shellcheck source=../boot/tap.sh
. "$(dirname "${BASH_SOURCE[0]}")/../boot/tap.sh"
# the boot loop's machine and the host's TSC rate (k_qemu_bare)
# shellcheck source=../../scripts/lib.sh
. "$BT_TOP/scripts/lib.sh"
# shellcheck source=../../qemu/lib-boot.sh
. "$BT_TOP/qemu/lib-boot.sh"

# The series of TREE: DIR/series-TREE when it exists, else DIR/series,
# with DIR = $K_SERIES_DIR (a staging copy with its own patches/, to test
# patches before they go into kernel/) or kernel/.
k_series_file()
{
	local tree=${1:-6.1} dir=${K_SERIES_DIR:-$BT_TOP/kernel}

	if [ -f "$dir/series-$tree" ]; then
		printf '%s\n' "$dir/series-$tree"
	else
		printf '%s\n' "$dir/series"
	fi
}

k_kernel()
{
	local tree=${1:-6.1} series

	series=$(k_series_file "$tree")
	if [ -n "${K_KERNEL:-}" ]; then
		K_BZ=$K_KERNEL
	else
		K_BZ=$("$BT_TOP/kernel/build.sh" --tree "$tree" --series "$series" \
			${K_CONFIG:+--config "$K_CONFIG"} 2>"$T_TMP/kernel.err") ||
			{ echo "Bail out! kernel build failed: $(tail -n1 "$T_TMP/kernel.err")"; exit 1; }
	fi
	K_KVER=$(cat "$(dirname "$K_BZ")/kernelrelease")
	K_TREE=$tree
}

# k_base_initrd: K_BASE = the collector image of flavour K_FLAVOUR (shell,
# the default, or systemd: the one with bash and kmod's insmod/rmmod for
# guest scripts)
k_base_initrd()
{
	K_BASE=$("$BT_TOP/bin/boottrace" initrd --print-base --kver "$K_KVER" \
		--tree "$K_TREE" ${K_FLAVOUR:+--flavour "$K_FLAVOUR"} 2>"$T_TMP/initrd.err") ||
		{ echo "Bail out! base initrd failed: $(tail -n1 "$T_TMP/initrd.err")"; exit 1; }
}

# Little-endian u32 as raw bytes on stdout.
k_le32()
{
	local v=$1

	printf '%b' "\\x$(printf %02x $((v & 255)))" \
		"\\x$(printf %02x $(((v >> 8) & 255)))" \
		"\\x$(printf %02x $(((v >> 16) & 255)))" \
		"\\x$(printf %02x $(((v >> 24) & 255)))"
}

# 32-bit sum of the bytes of a file (the bootconfig checksum).
k_csum()
{
	od -An -v -tu1 "$1" | awk '{ for (i = 1; i <= NF; i++) s += $i }
		END { printf "%d\n", s % 4294967296 }'
}

k_trailer()
{
	local text=$1 out=$2 pad=${3:-0} size=${4:-} csum=${5:-} post=${6:-0}
	local data

	data=$(mktemp "$T_TMP/data.XXXXXX")
	cat "$text" >"$data"
	head -c $((1 + pad)) /dev/zero >>"$data"
	[ -n "$size" ] || size=$(stat -c %s "$data")
	[ -n "$csum" ] || csum=$(k_csum "$data")
	{
		cat "$data"
		k_le32 "$size"
		k_le32 "$csum"
		printf '#BOOTCONFIG\n'
		head -c "$post" /dev/zero
	} >>"$out"
	rm -f "$data"
}

# k_qemu_bare SECONDS BZIMAGE LOG CMDLINE [INITRD]: boot BZIMAGE under
# TCG with no devices but the serial console (into LOG) until the
# kernel's panic ends QEMU (-no-reboot, panic=-1), or SECONDS pass.  For
# kernels that cannot run the collector (the KASAN kernel hangs in
# virtio_blk's probe) and for checks made before /init.  The loop's
# machine, microvm (no PCI bus or full ACPI tables to probe: a sanitizer
# kernel reaches its no-root panic in 3.2-4.0 s instead of pc's 5.5-7.5
# s), with the host's TSC rate as `boottrace qemu` gives it (see
# qemu/qemu.sh).  4-level paging: with 5-level paging 6.1's KASAN
# sometimes reports a wild access in __common_interrupt.  reboot=t: the
# panic's reboot is a triple fault, which QEMU takes as a reset (and
# -no-reboot as the end).  The default order starts with ACPI's reset
# register: a kernel without ACPI (configs/bare.config) went on to the
# keyboard controller microvm does not have and then hung.
k_qemu_bare()
{
	local secs=$1 bz=$2 log=$3 cmdline=$4 initrd=${5:-} khz args

	khz=$(btb_host_tsc_khz) || khz=
	[ -n "$khz" ] || { echo "Bail out! no host TSC rate (qemu/lib-boot.sh)"; exit 1; }
	args="console=ttyS0 panic=-1 reboot=t no_timer_check printk.devkmsg=on tsc_early_khz=$khz"
	timeout -k 5 "$secs" qemu-system-x86_64 -accel tcg -cpu max,la57=off \
		-machine "$BTB_MICROVM" -smp 2 -m 512 \
		-nodefaults -display none -no-reboot \
		-serial "file:$log" -kernel "$bz" ${initrd:+-initrd "$initrd"} \
		-append "$args $cmdline" >/dev/null 2>&1
}

# k_kasan_kernel TREE [IMAGE]: K_KASAN_BZ = IMAGE when given and not empty,
# else the sanitizer test kernel of TREE built (or reused) by
# kernel/build.sh with configs/kasan.config, configs/kunit.config,
# configs/early-module.config (the uevent helper of 62-early-module.t)
# and configs/bare.config (only booted by k_qemu_bare: no drivers for
# devices it never has).
k_kasan_kernel()
{
	K_KASAN_BZ=${2:-}
	[ -n "$K_KASAN_BZ" ] && return
	K_KASAN_BZ=$("$BT_TOP/kernel/build.sh" --tree "$1" \
		--series "$(k_series_file "$1")" \
		--config "$BT_TOP/kernel/configs/kasan.config" \
		--config "$BT_TOP/kernel/configs/kunit.config" \
		--config "$BT_TOP/kernel/configs/early-module.config" \
		--config "$BT_TOP/kernel/configs/bare.config" 2>"$T_TMP/kasan.err") ||
		{ echo "Bail out! sanitizer kernel build failed: $(tail -n1 "$T_TMP/kasan.err")"; exit 1; }
}

# k_mod_initrd BZIMAGE OUT CONF [FILE...]: an uncompressed cpio with the
# trace-events sample module of BZIMAGE's build, tests/kernel/guest-lib.sh
# (and FILEs, files or directories) in /boottrace/, dracut's base image
# $K_BASE uncompressed, then CONF as bootconfig trailer.  Its own top
# directory: a cpio `lib` directory would shadow the image's /lib ->
# usr/lib symlink.  Uncompressed: the sanitizer kernel's instrumented zstd
# took 8.2 s under TCG to unpack the systemd image (11 MB, 29 MB
# unpacked).
k_mod_initrd()
{
	local ko=${1%/*}/modules/trace-events-sample.ko out=$2 conf=$3 rd size
	shift 3

	[ -f "$ko" ] || { echo "Bail out! no $ko (kernel/build.sh builds it with CONFIG_SAMPLE_TRACE_EVENTS=m)"; exit 1; }
	if [ ! -f "$T_TMP/base.cpio" ]; then
		if [ "$(head -c4 "$K_BASE" | od -An -tx1 | tr -d ' \n')" = 28b52ffd ]; then
			zstd -q -d -c "$K_BASE" >"$T_TMP/base.cpio"
		else
			cp "$K_BASE" "$T_TMP/base.cpio"
		fi || { echo "Bail out! cannot unpack $K_BASE"; exit 1; }
	fi
	rd=$(mktemp -d "$T_TMP/modroot.XXXXXX")
	mkdir -p "$rd/boottrace"
	cp -r "$ko" "$BT_TOP/tests/kernel/guest-lib.sh" "$@" "$rd/boottrace/"
	(cd "$rd" && find boottrace | cpio --quiet -o -H newc) >"$rd.cpio"
	cat "$rd.cpio" "$T_TMP/base.cpio" >"$out"
	size=$(($(stat -c %s "$out") + $(stat -c %s "$conf") + 1 + 20))
	k_trailer "$conf" "$out" $(((4 - size % 4) % 4))
}

# k_sized_conf NAME SIZE OUT: a config of exactly SIZE bytes that sets
# kernel.boottrace_kt = NAME and pads with a long value of key k.
k_sized_conf()
{
	local head="kernel.boottrace_kt = \"$1\""$'\n'

	{
		printf '%s' "$head"
		printf 'k = "'
		head -c $(($2 - ${#head} - 7)) /dev/zero | tr '\0' x
		printf '"\n'
	} >"$3"
}

# k_skip DESC REASON: a TAP test skipped for REASON.
k_skip()
{
	T_N=$((T_N + 1))
	echo "ok $T_N - $1 # SKIP $2"
}

k_boot()
{
	local name=$1 initrd=$2
	shift 2
	t_boot "$name" --kernel "$K_BZ" --kver "$K_KVER" --initrd "$initrd" "$@"
}

# Fails when the console of a boot shows a kernel warning, oops or a
# sanitizer report before any "Kernel panic - not syncing" line (a panic
# prints its own Call Trace).
k_no_oops()
{
	local log=$1

	[ -d "$log" ] && log=$log/console.log
	[ -f "$log" ] || { echo "no console log $log"; return 1; }
	! sed '/Kernel panic - not syncing/,$d' "$log" |
		grep -a -E 'BUG:|Oops|WARNING: CPU|KASAN|UBSAN|general protection|Call Trace'
}

# The console log of a boot, whether it produced a bundle or not.
k_console()
{
	local b=$T_TMP/$1

	if [ -f "$b/console.log" ]; then
		printf '%s\n' "$b/console.log"
	else
		printf '%s\n' "$b.failed/console.log"
	fi
}
