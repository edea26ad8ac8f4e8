#!/bin/bash
# The hostile-input boots again, on the series built with KASAN and UBSAN
# (kernel/configs/kasan.config) and the KUnit suite (configs/kunit.config,
# one sanitizer kernel for this test and 70-kunit.t).  The bootconfig
# loader runs long before /init, so these boots need no initramfs: each
# initrd is a tiny cpio (or no cpio at all) plus the hostile trailer or
# early-cpio file, the kernel says what it did with it, prints its final
# command line ("Kernel command line:", where accepted kernel.* keys show
# up) and ends in the "no root" panic.  Nothing may be reported by KASAN,
# UBSAN, lockdep or WARN before that panic.  No virtio devices: the KASAN
# kernel hung in virtio_blk's partition scan under TCG (it has no virtio
# drivers now: kernel/configs/bare.config).  4-level paging
# (la57=off): with QEMU's 5-level paging, 6.1's KASAN reports a
# wild-memory-access in __common_interrupt during arch_cpu_finalize_init
# in about 1 of 8 boots, with or without any bootconfig (reproduced with an
# empty cpio); it never did in 10 boots with 4-level paging.  7 boots.
# alone: boots the sanitizer kernel (tests/run.sh, suite_series)
set -uo pipefail
. "$(dirname "$0")/lib.sh"

t_plan 27
tree=${K_TREE:-6.1}
# K_KERNEL=BZIMAGE boots that image instead (as in lib.sh's k_kernel)
k_kasan_kernel "$tree" "${K_KERNEL:-}"
K_BZ=$K_KASAN_BZ

# san_boot NAME INITRD [CMDLINE]: boot into $T_TMP/NAME.log; ok when the
# boot ended in the no-root panic (QEMU exits on the panic's reboot).
san_boot()
{
	local name=$1 initrd=$2 cmdline=${3:-bootconfig} log=$T_TMP/$1.log

	k_qemu_bare 900 "$K_BZ" "$log" "$cmdline" "$initrd"
	t_grep "$log" 'Kernel panic - not syncing: VFS: Unable to mount root' \
		"$name: boots past the loader to the no-root panic"
	t_ok "$name: no KASAN/UBSAN report, warning or oops" k_no_oops "$log"
}

applied()
{
	t_grep "$T_TMP/$1.log" "Kernel command line: .*boottrace_kt=$2" "$1: kernel.* parameter applied"
}

not_applied()
{
	t_ok "$1: kernel.* parameter not applied" \
		sh -c "! grep -a -q 'Kernel command line: .*boottrace_kt' '$T_TMP/$1.log'"
}

conf=$T_TMP/kt.bconf
printf 'kernel.boottrace_kt = "trailer"\n' >"$conf"
tiny=$T_TMP/tiny.cpio
mkdir -p "$T_TMP/root/dev"
(cd "$T_TMP/root" && printf '%s\n' . dev | cpio --quiet -o -H newc) >"$tiny"

# 1. a valid trailer, as the baseline
img=$T_TMP/good.img
cp "$tiny" "$img"
k_trailer "$conf" "$img"
san_boot good "$img"
t_grep "$T_TMP/good.log" 'Load bootconfig: [0-9]+ bytes 3 nodes' "good: loaded"
applied good trailer

# 2. bad checksum
img=$T_TMP/csum.img
cp "$tiny" "$img"
k_trailer "$conf" "$img" 0 "" 12345
san_boot csum "$img"
t_grep "$T_TMP/csum.log" 'bootconfig checksum failed' "csum: rejected"
not_applied csum

# 3. size field overflowing
img=$T_TMP/overflow.img
cp "$tiny" "$img"
k_trailer "$conf" "$img" 0 $((0xfffffff0))
san_boot overflow "$img"
t_grep "$T_TMP/overflow.log" 'bootconfig size 4294967280 is greater than max size' "overflow: rejected"
not_applied overflow

# 4. size larger than the initrd
img=$T_TMP/small.img
head -c 64 /dev/urandom >"$img"
k_trailer "$conf" "$img" 0 30000
san_boot small "$img"
t_grep "$T_TMP/small.log" 'bootconfig size 30000 is greater than initrd size' "small: rejected"

# 5. initrd shorter than the footer
img=$T_TMP/short.img
{ printf '\x10\x00\x00\x00'; printf '#BOOTCONFIG\n'; } >"$img"
san_boot short "$img"
t_grep "$T_TMP/short.log" "'bootconfig' found on command line, but no bootconfig found" "short: no config found"

# 6. 32766 bytes + 3 padding + 2 NULs after the magic, at an odd offset
big=$T_TMP/big.bconf
k_sized_conf big 32766 "$big"
img=$T_TMP/big.img
{ cat "$tiny"; printf 'x'; } >"$img"
k_trailer "$big" "$img" 3 "" "" 2
san_boot big "$img"
t_grep "$T_TMP/big.log" 'Load bootconfig: 32767 bytes 5 nodes' "big: loaded"
applied big big

# 7. early cpio file (with a decoy of a longer name first), no trailer
early=$T_TMP/early path=kernel/bootconfig/bootconfig.bconf
mkdir -p "$early/kernel/bootconfig"
printf 'kernel.boottrace_kt = "decoy"\n' >"$early/$path.old"
printf 'kernel.boottrace_kt = "cpio"\n' >"$early/$path"
(cd "$early" && printf '%s\n' kernel kernel/bootconfig "$path.old" "$path" |
	cpio --quiet -o -H newc) >"$T_TMP/cpio.img"
san_boot cpio "$T_TMP/cpio.img"
t_grep "$T_TMP/cpio.log" "bootconfig: found $path \\([0-9]+ bytes\\) in the early cpio" "cpio: found"
applied cpio cpio

# The KUnit suite ran in every boot; 70-kunit.t checks its results.
t_grep "$T_TMP/good.log" 'KTAP version|TAP version' "the sanitizer kernel runs the KUnit suite at boot"
t_done
