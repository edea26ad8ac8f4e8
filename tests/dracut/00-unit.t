#!/bin/bash
# The module's helpers without dracut: concatenation and validation with
# errors mapped to the original file:line:col, the size limit, dracut config
# reading, the compress wrapper's trailer (read back by our bootconfig and
# the tree's tools/bootconfig), and early-cpio merging by bootconfig-initrd.
set -uo pipefail
. "$(dirname "$0")/tap.sh"
# shellcheck source=../../dracut-module/95bootconfig/bootconfig-lib.sh
. "$T_MOD/bootconfig-lib.sh"

tool=$(t_tool) || { echo "Bail out! cannot build bootconfig"; exit 1; }
ref=$("$BT_TOP/scripts/ref-bootconfig.sh" 2>/dev/null | tail -n1)
[ -x "$ref" ] || { echo "Bail out! no reference tools/bootconfig"; exit 1; }
t_plan 24
cd "$T_TMP" || exit 1

# --- concatenation ----------------------------------------------------
printf 'kernel.foo = 1\nftrace.options = sym-addr\n# trailing comment, no newline' >a.bconf
printf 'kernel.foo := 2\nftrace.options += stacktrace\n' >b.bconf
t_ok "two valid files concatenate" bcm_build_text "$tool" cat.bconf a.bconf b.bconf
t_is "$("$tool" -l cat.bconf)" 'kernel.foo = "2"
ftrace.options = "sym-addr", "stacktrace"' \
	"a later file's := and += act on the earlier file; a comment without newline does not eat the next file"
t_is "$(cat a.bconf; echo; cat b.bconf)" "$(cat cat.bconf)" "the text is the files in order, a newline added only where missing"

printf 'x = 1\ny {\n z = 2\n' >bad.bconf
rc=0; err=$(bcm_build_text "$tool" out.bconf a.bconf bad.bconf 2>&1) || rc=$?
t_is "$rc" 1 "a syntax error fails"
t_is "$(printf '%s\n' "$err" | head -n1)" "bad.bconf:2:1: error: Brace is not closed" \
	"the error names the broken file, line and column"

printf 'a = 1\nb = 2\n' >one.bconf
printf '# second\nc = 3\na = 4\n' >two.bconf
rc=0; err=$(bcm_build_text "$tool" out.bconf one.bconf two.bconf 2>&1) || rc=$?
t_is "$rc" 1 "a redefinition across files fails"
t_is "$(printf '%s\n' "$err" | head -n1)" "two.bconf:3:5: error: Value is redefined" \
	"the error is mapped from the concatenation back to the second file's line 3"
# shellcheck disable=SC2016 # $1 expands in the inner bash
t_ok "the message does not name the temporary concatenation" \
	bash -c '! grep -q out.bconf <<<"$1"' _ "$err"

rc=0; err=$(bcm_build_text "$tool" out.bconf a.bconf missing.bconf 2>&1) || rc=$?
t_is "$rc:$(grep -c 'missing.bconf: no such readable file' <<<"$err")" "1:1" "a missing file is named"

{ printf 'k = "'; head -c 32760 /dev/zero | tr '\0' x; printf '"\n'; } >big.bconf
rc=0; err=$(bcm_build_text "$tool" out.bconf big.bconf 2>&1) || rc=$?
# shellcheck disable=SC2016 # $1, $2 expand in the inner bash
t_ok "a config over the kernel's 32767-byte limit fails at build time ($rc)" \
	bash -c '[ "$1" -ne 0 ] && grep -q "the kernel takes at most" <<<"$2"' _ "$rc" "$err"
printf '# only a comment\n' >empty.bconf
rc=0; bcm_build_text "$tool" out.bconf empty.bconf 2>/dev/null || rc=$?
t_is "$rc" 1 "a config without keys is refused"

# --- dracut config ----------------------------------------------------
mkdir -p lib etc
echo 'bootconfig_files+=" /lib-a.bconf "' >lib/10-a.conf
echo 'bootconfig_files+=" /etc-a.bconf "' >etc/10-a.conf
echo 'bootconfig_files+=" /lib-b.bconf "; bootconfig_mode=early' >lib/20-b.conf
echo 'bootconfig_files+=" /etc-c.bconf "' >etc/30-c.conf
echo 'bootconfig_tool=/x/bootconfig' >main.conf
got=$(DRACUT_CONF=main.conf DRACUT_CONFDIR=etc DRACUT_LIBCONFDIR=lib bcm_read_conf)
t_is "$got" 'mode=early
tool=/x/bootconfig
file=/etc-a.bconf
file=/lib-b.bconf
file=/etc-c.bconf' "dracut's config order: main file, then *.conf by name, /etc replacing a same-named library file"

# --- compress wrapper -------------------------------------------------
head -c 123 /dev/urandom >img
cp img img.orig
seq 1 5000 >payload
"$T_MOD/bootconfig-compress" "$tool" cat.bconf -- gzip -n -9 <payload >>img
rc=$?
t_is "$rc" 0 "the wrapper compresses and applies the trailer"
t_is "$(($(stat -c %s img) % 4))" 0 "the image length is a multiple of 4 after the trailer"
t_is "$("$tool" -l img)" "$("$tool" -l cat.bconf)" "our bootconfig reads the config back from the image"
t_is "$("$ref" -l img)" "$("$tool" -l img)" "the tree's tools/bootconfig reads the same config back"
cp img img.del
"$tool" -d img.del >/dev/null 2>&1
t_is "$(tail -c +124 img.del | gzip -dc | t_sha /dev/stdin)" "$(t_sha payload)" \
	"the prefix is kept and the user's compressor output is intact"
cp img.orig img2
rc=0; printf x | "$T_MOD/bootconfig-compress" "$tool" cat.bconf -- false >>img2 2>/dev/null || rc=$?
t_is "$rc:$(t_sha img2)" "1:$(t_sha img.orig)" "a failing compressor fails the wrapper, no trailer added"
rc=0; err=$(printf x | "$T_MOD/bootconfig-compress" "$tool" cat.bconf -- cat 2>&1 | cat) || rc=$?
# shellcheck disable=SC2016 # $1, $2 expand in the inner bash
t_ok "stdout not a regular file: refused with a reason ($rc)" \
	bash -c '[ "$1" -ne 0 ] && grep -q "not a regular file" <<<"$2"' _ "$rc" "$err"

# --- bootconfig-initrd, early mode, merging an existing early cpio -----
mkdir -p e/kernel/x86/microcode m/etc
echo 1 >e/early_cpio
head -c 1000 /dev/urandom >e/kernel/x86/microcode/GenuineIntel.bin
echo hello >m/etc/motd
(cd e && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) >early.img
(cd m && find . | cpio -o -H newc --quiet -R 0:0 | gzip -n) >main.gz
cat early.img main.gz >initrd.img
cp initrd.img initrd.orig
run_bi()
{
	DRACUT_CONF=/dev/null DRACUT_CONFDIR=$T_TMP/none DRACUT_LIBCONFDIR=$T_TMP/none \
		"$T_MOD/bootconfig-initrd" --tool "$tool" "$@"
}
t_ok "bootconfig-initrd --mode early merges into the existing early cpio" \
	run_bi --mode early --files "$T_TMP/a.bconf $T_TMP/b.bconf" initrd.img
t_is "$(cpio -it --quiet <initrd.img | LC_ALL=C sort | tr '\n' ' ')" \
	". early_cpio kernel kernel/bootconfig kernel/bootconfig/bootconfig.bconf kernel/x86 kernel/x86/microcode kernel/x86/microcode/GenuineIntel.bin " \
	"one early cpio: microcode, marker and the bootconfig member"
t_is "$(cpio -i --quiet --to-stdout kernel/bootconfig/bootconfig.bconf <initrd.img | t_sha /dev/stdin):$(cpio -i --quiet --to-stdout kernel/x86/microcode/GenuineIntel.bin <initrd.img | t_sha /dev/stdin)" \
	"$(t_sha cat.bconf):$(t_sha e/kernel/x86/microcode/GenuineIntel.bin)" \
	"the member holds the concatenated text; the microcode is unchanged"
t_is "$(/usr/lib/dracut/skipcpio initrd.img | t_sha /dev/stdin)" "$(t_sha main.gz)" \
	"the compressed main archive follows unchanged"
sha=$(t_sha initrd.img)
rc=0; run_bi --mode early --files "$T_TMP/a.bconf $T_TMP/b.bconf" initrd.img 2>/dev/null || rc=$?
t_is "$rc:$(t_sha initrd.img)" "0:$sha" "a second run succeeds and changes nothing"
t_done
