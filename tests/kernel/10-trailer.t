#!/bin/bash
# Hostile bootconfig trailers against the patched kernel: a bad checksum,
# a size field that overflows, a size larger than the initrd, an initrd
# shorter than the footer, and a valid 32 KiB config with the tool's
# padding plus GRUB-style padding after the magic.  The kernel must say
# what it rejected (also in /proc/bootconfig), apply nothing it
# rejected, and keep booting.  The two
# tiny initrds cannot hold the collector: those boots must end in the
# kernel's "no root" panic (i.e. after setup_boot_config() returned)
# without an oops.  5 boots.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

t_plan 26
k_kernel "${K_TREE:-6.1}"
k_base_initrd

conf=$T_TMP/kt.bconf
printf 'kernel.boottrace_kt = "trailer"\n' >"$conf"

# 1. bad checksum
img=$T_TMP/csum.img
cp "$K_BASE" "$img"
k_trailer "$conf" "$img" 0 "" 12345
k_boot csum "$img"
b=$T_TMP/csum
t_is "$T_RC" 0 "bad checksum: boots to the collector"
t_grep "$b/dmesg" 'bootconfig checksum failed' "bad checksum: the kernel says so"
t_ok "bad checksum: kernel.* parameter not applied" sh -c "! grep -q boottrace_kt '$b/proc/cmdline'"
t_ok "bad checksum: no /proc/bootconfig content" sh -c "! grep -q boottrace_kt '$b/proc/bootconfig' 2>/dev/null"
t_is "$(cat "$b/proc/bootconfig" 2>/dev/null)" "# Failed to load bootconfig: Config checksum failed" \
	"bad checksum: /proc/bootconfig says why"
t_ok "bad checksum: no oops" k_no_oops "$b"

# 2. size field overflowing (0xfffffff0): "hdr - size" used to wrap
img=$T_TMP/overflow.img
cp "$K_BASE" "$img"
k_trailer "$conf" "$img" 0 $((0xfffffff0))
k_boot overflow "$img"
b=$T_TMP/overflow
t_is "$T_RC" 0 "size 0xfffffff0: boots to the collector"
t_grep "$b/dmesg" 'bootconfig size 4294967280 is greater than max size' "size 0xfffffff0: rejected as too big"
t_ok "size 0xfffffff0: kernel.* parameter not applied" sh -c "! grep -q boottrace_kt '$b/proc/cmdline'"
t_is "$(cat "$b/proc/bootconfig" 2>/dev/null)" "# Failed to load bootconfig: Config data in the initrd is too big" \
	"size 0xfffffff0: /proc/bootconfig says why"
t_ok "size 0xfffffff0: no oops" k_no_oops "$b"

# 3. size larger than the (tiny) initrd but within the limit
img=$T_TMP/small.img
head -c 64 /dev/urandom >"$img"
k_trailer "$conf" "$img" 0 30000
k_boot small "$img" --timeout 120
log=$(k_console small)
t_is "$T_RC" 1 "size > initrd: no initramfs, so the boot ends in a panic"
t_grep "$log" 'bootconfig size 30000 is greater than initrd size' "size > initrd: rejected, naming both sizes"
t_grep "$log" 'Kernel panic - not syncing: VFS: Unable to mount root' "size > initrd: panics only for the missing root, later"
t_ok "size > initrd: no oops" k_no_oops "$log"

# 4. initrd shorter than the footer (16 bytes ending in the magic)
img=$T_TMP/short.img
{ printf '\x10\x00\x00\x00'; printf '#BOOTCONFIG\n'; } >"$img"
k_boot short "$img" --timeout 120
log=$(k_console short)
t_is "$T_RC" 1 "16-byte initrd: boot ends in the no-root panic"
t_grep "$log" "'bootconfig' found on command line, but no bootconfig found" "16-byte initrd: no config found"
t_grep "$log" 'Kernel panic - not syncing: VFS: Unable to mount root' "16-byte initrd: panics only for the missing root"
t_ok "16-byte initrd: no oops" k_no_oops "$log"

# 5. 32766-byte config: with NUL and 3 bytes of padding, size is 32770
# (over XBC_DATA_MAX: rejected before the series); 2 NULs after the
# magic, as a boot loader aligning the initrd would add.
big=$T_TMP/big.bconf
k_sized_conf big 32766 "$big"
t_is "$(stat -c %s "$big")" 32766 "big config is 32766 bytes"
t_ok "our bootconfig tool accepts it" "$BT_TOP/bin/boottrace" bootconfig "$big"
img=$T_TMP/big.img
cp "$K_BASE" "$img"
k_trailer "$big" "$img" 3 "" "" 2
k_boot big "$img"
b=$T_TMP/big
t_is "$T_RC" 0 "32766 bytes + 3 padding: boots to the collector"
t_grep "$b/dmesg" 'Load bootconfig: 32767 bytes 5 nodes' "32766 bytes + 3 padding: loaded (text and NUL counted)"
t_grep "$b/proc/cmdline" 'boottrace_kt=big' "32766 bytes + 3 padding: kernel.* parameter applied"
t_grep "$b/proc/bootconfig" '^k = "xxxx' "32766 bytes + 3 padding: /proc/bootconfig lists it"
t_ok "32766 bytes + 3 padding: no oops" k_no_oops "$b"
t_done
