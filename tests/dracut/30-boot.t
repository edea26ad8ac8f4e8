#!/bin/bash
# QEMU boots (TCG) of the boottrace kernel with
#  1. an image built by `dracut --force` with the bootconfig module in trailer
#     mode (systemd flavour + the collector), and
#  2. the boot loop's module-less base image after the Debian postinst.d hook
#     added the config,
# checking that the kernel applied the config: /proc/bootconfig in the bundle
# equals `bootconfig -l` of the concatenated files.  Early-cpio mode needs the
# kernel series (issue 6) and is checked for layout only (10-dracut.t).
set -uo pipefail
. "$(dirname "$0")/tap.sh"
# shellcheck source=../../dracut-module/95bootconfig/bootconfig-lib.sh
. "$T_MOD/bootconfig-lib.sh"

command -v dracut >/dev/null || t_skip_all "dracut is not installed"
tool=$(t_tool) || { echo "Bail out! cannot build bootconfig"; exit 1; }
t_kernel
krel=$T_KREL
t_plan 10
cd "$T_TMP" || exit 1

cat >one.bconf <<'BCONF'
kernel.trace_clock = global
ftrace.event.task.task_newtask {
	enable
	filter = "pid < 128"
}
BCONF
printf 'ftrace.event.task.task_newtask.filter := "pid < 64"\nftrace.options = sym-addr\n' >two.bconf
bcm_build_text "$tool" want.bconf "$T_TMP/one.bconf" "$T_TMP/two.bconf" ||
	{ echo "Bail out! fixture config invalid"; exit 1; }
want=$("$tool" -l want.bconf)
mkdir -p c.ok
printf 'bootconfig_tool=%s\nbootconfig_files+=" %s %s "\n' "$tool" \
	"$T_TMP/one.bconf" "$T_TMP/two.bconf" >c.ok/90-bootconfig.conf

# applied: the bundle's /proc/bootconfig and the kernel's own verdict
applied()
{
	local b=$1 what=$2
	t_is "$(sed -n 's/^bootconfig_status=//p' "$b/metadata" 2>/dev/null)" loaded \
		"$what: the kernel loaded the bootconfig"
	t_is "$(grep -v '^#' "$b/proc/bootconfig" 2>&1)" "$want" \
		"$what: /proc/bootconfig equals bootconfig -l of the files"
	t_is "$(cat "$b/tracefs/events/task/task_newtask/filter" 2>&1)" "pid < 64" \
		"$what: the second file's := took effect in the kernel"
}

# --- 1. dracut --force with the module --------------------------------
rc=0
T_KVER=$krel t_dracut dracut.img c.ok --zstd \
	--modules "systemd systemd-initrd dracut-systemd boottrace-collect bootconfig" || rc=$?
t_is "$rc" 0 "dracut --force with the collector and bootconfig modules (kver $krel)"
rc=0; "$BT_TOP/bin/boottrace" boot --kernel "$T_KIMG" --initrd dracut.img -o b1 want.bconf 2>boot1.err || rc=$?
t_is "$rc" 0 "boottrace boot of the dracut image"
[ "$rc" = 0 ] || tail -n 5 boot1.err | sed 's/^/# /'
applied b1 "dracut image"

# --- 2. module-less base image + postinst.d hook ----------------------
base=$("$BT_TOP/bin/boottrace" initrd --print-base --kver "$krel" 2>base.err | tail -n1)
mkdir -p boot
cp "$base" "boot/initrd.img-$krel"
rc=0
DRACUT_CONF=/dev/null DRACUT_CONFDIR=$T_TMP/c.ok DRACUT_LIBCONFDIR=$T_TMP/none \
	BOOTCONFIG_BOOT_DIR=$T_TMP/boot \
	"$BT_TOP/dracut-module/hooks/zz-boottrace-bootconfig" "$krel" >hook.out 2>&1 || rc=$?
t_is "$rc" 0 "the postinst.d hook adds the config to the base image"
rc=0; "$BT_TOP/bin/boottrace" boot --kernel "$T_KIMG" --initrd "boot/initrd.img-$krel" -o b2 want.bconf 2>boot2.err || rc=$?
t_is "$rc" 0 "boottrace boot of the hook's initrd"
[ "$rc" = 0 ] || tail -n 5 boot2.err | sed 's/^/# /'
applied b2 "hook initrd"
t_done
