#!/bin/bash
# shellcheck disable=SC2016 # bash -c scripts expand their own $1..
# The Debian postinst.d hook and the systemd kernel-install plugin against a
# temporary /boot, BOOT_ROOT, staging area and dracut configuration; the
# plugin is run by the real kernel-install (with 90-loaderentry.install).
# The initrd is a real dracut-format image stand-in made here (a gzip'ed
# cpio, as an initramfs generator without the module leaves it); booting a
# hook-fixed dracut image is tests/dracut/30-boot.t.
set -uo pipefail
. "$(dirname "$0")/tap.sh"
# shellcheck source=../../dracut-module/95bootconfig/bootconfig-lib.sh
. "$T_MOD/bootconfig-lib.sh"

tool=$(t_tool) || { echo "Bail out! cannot build bootconfig"; exit 1; }
ref=$("$BT_TOP/scripts/ref-bootconfig.sh" 2>/dev/null | tail -n1)
[ -x "$ref" ] || { echo "Bail out! no reference tools/bootconfig"; exit 1; }
command -v kernel-install >/dev/null || bt_need_pkgs systemd
t_plan 26
cd "$T_TMP" || exit 1
POSTINST=$BT_TOP/dracut-module/hooks/zz-boottrace-bootconfig
PLUGIN=$BT_TOP/dracut-module/hooks/86-boottrace-bootconfig.install
KVER=9.9.9-boottrace-test

printf 'kernel.trace_clock = global\nftrace.options = sym-addr\n' >one.bconf
printf 'ftrace.options += stacktrace\n' >two.bconf
bcm_build_text "$tool" want.bconf "$T_TMP/one.bconf" "$T_TMP/two.bconf" ||
	{ echo "Bail out! fixture config invalid"; exit 1; }
want=$("$tool" -l want.bconf)

mkdir -p m/etc boot etc none
echo hello >m/etc/motd
(cd m && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0 | gzip -n) >fresh.img
printf 'bootconfig_tool=%s\n' "$tool" >etc/50-tool.conf
export DRACUT_CONF=/dev/null DRACUT_CONFDIR=$T_TMP/etc DRACUT_LIBCONFDIR=$T_TMP/none
export BOOTCONFIG_BOOT_DIR=$T_TMP/boot
initrd=boot/initrd.img-$KVER
cp fresh.img "$initrd"

configure()
{
	printf '%s\n' "$@" >etc/90-bootconfig.conf
}

# --- postinst.d -------------------------------------------------------
configure "# nothing"
rc=0; out=$("$POSTINST" "$KVER" /boot/vmlinuz-$KVER 2>&1) || rc=$?
t_is "$rc:$out:$(t_sha "$initrd")" "0::$(t_sha fresh.img)" \
	"postinst, no bootconfig_files: exit 0, silent, initrd unchanged"

configure "bootconfig_files+=\" $T_TMP/one.bconf $T_TMP/two.bconf \""
rc=0; "$POSTINST" "$KVER" /boot/vmlinuz-$KVER >out 2>&1 || rc=$?
t_is "$rc" 0 "postinst with a config: exit 0"
t_is "$("$tool" -l "$initrd" 2>&1)" "$want" "the initrd carries the concatenated config (our bootconfig)"
t_is "$("$ref" -l "$initrd" 2>&1)" "$want" "the tree's tools/bootconfig reads the same"
cp "$initrd" del.img
"$tool" -d del.img >/dev/null 2>&1
t_is "$(t_sha del.img)" "$(t_sha fresh.img)" "the archive before the trailer is unchanged"
sha=$(t_sha "$initrd")
rc=0; out=$("$POSTINST" "$KVER" 2>&1) || rc=$?
t_is "$rc:$(t_sha "$initrd")" "0:$sha" "a second run does not rewrite it"
t_is "$out" "" "and prints nothing (it already carries the config)"

printf 'kernel.trace_clock = local\n' >bad.bconf
configure "bootconfig_files+=\" $T_TMP/one.bconf $T_TMP/bad.bconf \""
rc=0; out=$("$POSTINST" "$KVER" 2>&1) || rc=$?
t_ok "an invalid config fails the hook (exit $rc)" test "$rc" -ne 0
t_ok "with file:line:col" grep -q "^$T_TMP/bad.bconf:1:22: error: Value is redefined" <<<"$out"
t_is "$(t_sha "$initrd")" "$sha" "and leaves the initrd byte-identical"

configure "bootconfig_files+=\" $T_TMP/one.bconf $T_TMP/two.bconf \""
cp fresh.img "$initrd"
rc=0; INITRD=No "$POSTINST" "$KVER" >/dev/null 2>&1 || rc=$?
t_is "$rc:$(t_sha "$initrd")" "0:$(t_sha fresh.img)" "INITRD=No: nothing done"
rc=0; out=$("$POSTINST" 1.2.3-none 2>&1) || rc=$?
t_ok "no initrd for that version: exit 0 with a message ($rc)" \
	bash -c '[ "$1" = 0 ] && grep -q "does not exist" <<<"$2"' _ "$rc" "$out"

configure "bootconfig_files+=\" $T_TMP/one.bconf $T_TMP/two.bconf \"" "bootconfig_mode=early"
rc=0; "$POSTINST" "$KVER" >/dev/null 2>&1 || rc=$?
t_is "$rc:$(cpio -i --quiet --to-stdout kernel/bootconfig/bootconfig.bconf <"$initrd" | t_sha /dev/stdin)" \
	"0:$(t_sha want.bconf)" "early mode: the member is in a new early cpio"
t_is "$(/usr/lib/dracut/skipcpio "$initrd" | t_sha /dev/stdin)" "$(t_sha fresh.img)" \
	"the original image follows it unchanged"
t_ok "no trailer in early mode" \
	sh -c "[ -s '$initrd' ] && ! tail -c 12 '$initrd' | grep -qx '#BOOTCONFIG'"

# --- kernel-install ---------------------------------------------------
configure "bootconfig_files+=\" $T_TMP/one.bconf $T_TMP/two.bconf \""
cp fresh.img "$initrd"
mkdir -p kconf esp
echo layout=bls >kconf/install.conf
echo boottrace-test >kconf/entry-token
echo "console=ttyS0 bootconfig" >kconf/cmdline
echo "not a kernel" >vmlinuz
# 85-initrd.install with a temporary /boot: link the initrd into the staging area
cat >85-test-initrd.install <<EOS
#!/bin/sh
[ "\$1" = add ] || exit 0
ln -fs "$T_TMP/$initrd" "\$KERNEL_INSTALL_STAGING_AREA/initrd"
EOS
cat >87-record.install <<EOS
#!/bin/sh
[ "\$1" = add ] || exit 0
ls -l "\$KERNEL_INSTALL_STAGING_AREA/" >"$T_TMP/staging.ls"
EOS
chmod +x 85-test-initrd.install 87-record.install
kinstall()
{
	KERNEL_INSTALL_PLUGINS="$T_TMP/85-test-initrd.install $PLUGIN $T_TMP/87-record.install /usr/lib/kernel/install.d/90-loaderentry.install" \
		KERNEL_INSTALL_CONF_ROOT=$T_TMP/kconf BOOT_ROOT=$T_TMP/esp \
		MACHINE_ID=0123456789abcdef0123456789abcdef kernel-install "$@"
}
entry=esp/boottrace-test/$KVER
rc=0; kinstall add "$KVER" "$T_TMP/vmlinuz" >out 2>&1 || rc=$?
t_is "$rc" 0 "kernel-install add with the plugin succeeds"
[ "$rc" = 0 ] || sed 's/^/# /' out
t_is "$("$tool" -l "$entry/initrd" 2>&1)" "$want" "the installed initrd carries the config"
t_is "$("$ref" -l "$entry/initrd" 2>&1)" "$want" "the tree's tools/bootconfig agrees"
t_is "$(t_sha "$initrd")" "$(t_sha fresh.img)" "/boot's initrd behind the staging symlink is untouched"
t_ok "the staged symlink was replaced by a file" bash -c '[ -s "$1" ] && ! grep -q "^l.* initrd ->" "$1"' _ staging.ls
t_ok "the loader entry names the initrd" grep -q "^initrd .*/$KVER/initrd$" esp/loader/entries/boottrace-test-$KVER.conf

configure "# nothing"
rm -rf esp/boottrace-test esp/loader
rc=0; kinstall add "$KVER" "$T_TMP/vmlinuz" >out 2>&1 || rc=$?
t_is "$rc:$(t_sha "$entry/initrd")" "0:$(t_sha fresh.img)" \
	"no bootconfig_files: the installed initrd is the original, unchanged"
t_ok "and the staged symlink was left alone" grep -q "^l.* initrd ->" staging.ls

configure "bootconfig_files+=\" $T_TMP/one.bconf \""
echo layout=uki >kconf/install.conf
rc=0; kinstall add "$KVER" "$T_TMP/vmlinuz" >out 2>&1 || rc=$?
t_ok "uki layout: skipped with a clear message (exit $rc)" \
	grep -q 'UKI install: the initrd is built into the UKI' out
echo layout=bls >kconf/install.conf
cp fresh.img own.img
rc=0; kinstall add "$KVER" "$T_TMP/vmlinuz" "$T_TMP/own.img" >out 2>&1 || rc=$?
t_ok "an initrd given on the command line is left as it is, with a message" \
	bash -c 'grep -q "own.img was given on the command line" "$1" && [ "$(sha256sum <"$2")" = "$(sha256sum <"$3")" ]' _ out own.img fresh.img
t_ok "--help works for both hooks" bash -c '"$1" --help && "$2" --help' _ "$POSTINST" "$PLUGIN"
t_done
