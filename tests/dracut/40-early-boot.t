#!/bin/bash
# Why early-cpio mode exists, in QEMU (TCG):
#  1. any kernel: a trailer-mode initrd with another cpio archive appended
#     after it (what bootloaders that concatenate initrds do) loses its
#     bootconfig: the kernel finds no trailer at the end;
#  2. a kernel with the series' early-cpio loader (kernel/patches, issue 6;
#     detected by its get_boot_config_from_cpio symbol, skipped otherwise):
#     an early-mode image from `dracut --force` with the module gets its
#     config applied, also with the same archive appended.  Detected by the
#     kernel build's metadata (a series patch named *early-cpio*) or the
#     loader's symbol in System.map (the __init function is usually inlined).
set -uo pipefail
. "$(dirname "$0")/tap.sh"
# shellcheck source=../../dracut-module/95bootconfig/bootconfig-lib.sh
. "$T_MOD/bootconfig-lib.sh"

command -v dracut >/dev/null || t_skip_all "dracut is not installed"
tool=$(t_tool) || { echo "Bail out! cannot build bootconfig"; exit 1; }
t_kernel
kdir=$(dirname "$T_KIMG")
krel=$T_KREL
series=
if grep -q '^series=.*early-cpio' "$kdir/metadata" 2>/dev/null ||
	grep -q ' get_boot_config_from_cpio$' "$kdir/System.map" 2>/dev/null; then
	series=1
fi
t_plan 8
cd "$T_TMP" || exit 1

printf 'kernel.trace_clock = global\nftrace.event.task.task_newtask.enable\n' >one.bconf
printf 'ftrace.options = sym-addr\n' >two.bconf
bcm_build_text "$tool" want.bconf "$T_TMP/one.bconf" "$T_TMP/two.bconf" ||
	{ echo "Bail out! fixture config invalid"; exit 1; }
want=$("$tool" -l want.bconf)
mkdir -p c x/etc boot none
printf 'bootconfig_tool=%s\nbootconfig_files+=" %s %s "\n' "$tool" \
	"$T_TMP/one.bconf" "$T_TMP/two.bconf" >c/90-bootconfig.conf
echo appended >x/etc/boottrace-appended
(cd x && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0 | gzip -n) >extra.cpio.gz

boot()
{
	local img=$1 b=$2 rc=0
	"$BT_TOP/bin/boottrace" boot --kernel "$T_KIMG" --initrd "$img" -o "$b" want.bconf 2>"$b.err" || rc=$?
	[ "$rc" = 0 ] || tail -n 5 "$b.err" | sed 's/^/# /'
	return $rc
}

status()
{
	sed -n 's/^bootconfig_status=//p' "$1/metadata" 2>/dev/null
}

# --- 1. trailer + appended archive ------------------------------------
base=$("$BT_TOP/bin/boottrace" initrd --print-base --kver "$krel" 2>base.err | tail -n1)
cp "$base" "boot/initrd.img-$krel"
DRACUT_CONF=/dev/null DRACUT_CONFDIR=$T_TMP/c DRACUT_LIBCONFDIR=$T_TMP/none \
	BOOTCONFIG_BOOT_DIR=$T_TMP/boot \
	"$BT_TOP/dracut-module/hooks/zz-boottrace-bootconfig" "$krel" 2>/dev/null
cat "boot/initrd.img-$krel" extra.cpio.gz >trailer-appended.img
t_ok "a trailer-mode initrd with an archive appended still boots" boot trailer-appended.img b1
t_ok "but the kernel finds no bootconfig (status: $(status b1))" test "$(status b1)" != loaded
t_is "$(grep -v '^#' b1/proc/bootconfig 2>&1)" "" "/proc/bootconfig is empty"

# --- 2. early mode, kernel with the series ----------------------------
if [ -z "$series" ]; then
	# only a kernel given by BT_TEST_KERNEL may lack the series
	[ -n "${BT_TEST_KERNEL:-}" ] ||
		{ echo "Bail out! boottrace kernel's $krel has no early-cpio bootconfig loader (series patch 0008)"; exit 1; }
	for i in 4 5 6 7 8; do
		echo "ok $i # SKIP kernel $krel has no early-cpio bootconfig loader (series patch 0008)"
	done
	exit 0
fi
echo 'bootconfig_mode=early' >>c/90-bootconfig.conf
rc=0
T_KVER=$krel t_dracut early.img c --zstd \
	--modules "systemd systemd-initrd dracut-systemd boottrace-collect bootconfig" || rc=$?
t_is "$rc" 0 "dracut --force in early mode (kver $krel)"
t_ok "the early-mode image boots with the config applied" boot early.img b2
t_is "$(grep -v '^#' b2/proc/bootconfig 2>&1)" "$want" "/proc/bootconfig equals bootconfig -l of the files"
cat early.img extra.cpio.gz >early-appended.img
t_ok "with an archive appended it boots" boot early-appended.img b3
t_is "$(grep -v '^#' b3/proc/bootconfig 2>&1)" "$want" "and the config is still applied"
t_done
