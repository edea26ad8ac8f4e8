#!/bin/bash
# A trailer whose checksum fails: the kernel refuses it but boots; the
# harness warns and records it in the metadata.
set -uo pipefail
. "$(dirname "$0")/tap.sh"

t_kernel
t_plan 7
conf=$BT_TOP/examples/default.bconf
img=$T_TMP/corrupt.img
"$BT_TOP/bin/boottrace" initrd "$conf" -o "$img" --kver "$T_KVER" 2>"$T_TMP/initrd.err"
t_is "$?" 0 "boottrace initrd builds the image"
# flip one byte of the config text: 'task_newtask' -> 'tasK_newtask'
off=$(grep -a -b -o 'task_newtask' "$img" | tail -n1 | cut -d: -f1)
printf 'K' | dd of="$img" bs=1 seek=$((off + 3)) conv=notrunc status=none
t_ok "our bootconfig tool now rejects the trailer" \
	sh -c "! '$BT_TOP/bin/boottrace' bootconfig '$img'"
t_boot corrupt --initrd "$img" "$conf"
b=$T_TMP/corrupt
t_is "$T_RC" 0 "the kernel boots anyway (bundle written)"
[ -f "$b/metadata" ] || { echo "Bail out! no bundle: $T_ERR"; exit 1; }
t_grep "$b/dmesg" 'bootconfig checksum failed' "dmesg: the kernel says the checksum failed"
t_is "$(t_meta "$b" bootconfig_status)" rejected "metadata: bootconfig_status=rejected"
t_grep "$T_TMP/corrupt.err" '^boottrace: warning: bootconfig rejected: .*checksum' \
	"the harness printed a warning line"
t_ok "nothing was traced (no dynamic events)" \
	sh -c "[ -f '$b/tracefs/dynamic_events' ] && ! grep -q . '$b/tracefs/dynamic_events'"
t_done
