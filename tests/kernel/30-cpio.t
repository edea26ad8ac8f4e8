#!/bin/bash
# Bootconfig from the early cpio (kernel/bootconfig/bootconfig.bconf):
# an initrd made of an uncompressed early cpio (a decoy with a longer
# name first, then the file), the compressed dracut image, and another
# appended compressed archive.  The config is applied; with a trailer
# as well, the trailer wins; without `bootconfig` on the command line
# nothing is applied.  3 boots.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

t_plan 18
k_kernel "${K_TREE:-6.1}"
k_base_initrd

path=kernel/bootconfig/bootconfig.bconf
early=$T_TMP/early
mkdir -p "$early/kernel/bootconfig"
printf 'kernel.boottrace_kt = "decoy"\n' >"$early/$path.old"
printf 'kernel.boottrace_kt = "cpio"\nboottrace.source = "early cpio"\n' >"$early/$path"
# decoy first: find_cpio_data() matches a prefix
(cd "$early" && printf '%s\n' kernel kernel/bootconfig "$path.old" "$path" |
	cpio --quiet -o -H newc) >"$T_TMP/early.cpio"
t_ok "early cpio lists the decoy before the file" \
	sh -c "cpio --quiet -t <'$T_TMP/early.cpio' | tr '\n' ' ' | grep -q '$path.old $path'"
appended=$T_TMP/appended
mkdir -p "$appended/etc"
echo appended >"$appended/etc/boottrace-appended"
(cd "$appended" && printf '%s\n' etc etc/boottrace-appended |
	cpio --quiet -o -H newc | gzip -9n) >"$T_TMP/appended.cpio.gz"

img=$T_TMP/cpio.img
cat "$T_TMP/early.cpio" "$K_BASE" "$T_TMP/appended.cpio.gz" >"$img"

k_boot cpio "$img"
b=$T_TMP/cpio
t_is "$T_RC" 0 "early cpio + dracut image + appended archive: boots to the collector"
t_grep "$b/dmesg" "bootconfig: found $path \\([0-9]+ bytes\\) in the early cpio" "the kernel says where the config came from"
t_grep "$b/dmesg" 'Load bootconfig: [0-9]+ bytes 6 nodes' "the config is loaded"
t_grep "$b/proc/cmdline" 'boottrace_kt=cpio( |$)' "its kernel.* parameter is applied"
t_ok "the decoy with the longer name is not used" sh -c "! grep -q decoy '$b/proc/cmdline'"
t_grep "$b/proc/bootconfig" '^boottrace.source = "early cpio"' "/proc/bootconfig lists it"
t_ok "no oops" k_no_oops "$b"

# with a trailer too: the trailer wins
img2=$T_TMP/both.img
cp "$img" "$img2"
printf 'kernel.boottrace_kt = "trailer"\n' >"$T_TMP/trailer.bconf"
size=$(($(stat -c %s "$img2") + $(stat -c %s "$T_TMP/trailer.bconf") + 1 + 20))
k_trailer "$T_TMP/trailer.bconf" "$img2" $(((4 - size % 4) % 4))
k_boot both "$img2"
b=$T_TMP/both
t_is "$T_RC" 0 "trailer and early cpio file: boots to the collector"
t_grep "$b/proc/cmdline" 'boottrace_kt=trailer( |$)' "the trailer's parameter is applied"
t_ok "the early cpio's is not" sh -c "! grep -q 'boottrace_kt=cpio' '$b/proc/cmdline'"
t_ok "the kernel did not look at the early cpio" sh -c "! grep -q 'in the early cpio' '$b/dmesg'"
t_ok "no oops" k_no_oops "$b"

# without `bootconfig` on the command line: nothing is applied
k_boot nobc "$img" --no-bootconfig
b=$T_TMP/nobc
t_is "$T_RC" 0 "no bootconfig option: boots to the collector"
t_ok "no bootconfig option: not loaded" sh -c "! grep -q 'Load bootconfig' '$b/dmesg'"
t_ok "no bootconfig option: kernel.* parameter not applied" sh -c "! grep -q boottrace_kt '$b/proc/cmdline'"
t_ok "no bootconfig option: nothing in /proc/bootconfig" sh -c "! grep -q boottrace '$b/proc/bootconfig' 2>/dev/null"
t_ok "no oops" k_no_oops "$b"
t_done
