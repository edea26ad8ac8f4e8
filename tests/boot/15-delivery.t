#!/bin/bash
# `boottrace boot --delivery trailer`: the initrd is made by Debian's dracut
# with our 95bootconfig delivery module carrying the config (what a user's
# `dracut --force` makes), not by appending to a cached base image; the
# kernel loads and applies it the same way.
set -uo pipefail
. "$(dirname "$0")/tap.sh"

t_kernel
t_plan 5
conf=$BT_TOP/examples/default.bconf
t_boot deliv "$conf" --delivery trailer
b=$T_TMP/deliv
t_is "$T_RC" 0 "boottrace boot --delivery trailer exits 0"
[ -f "$b/metadata" ] || { echo "Bail out! no bundle: $T_ERR"; exit 1; }
t_grep "$T_TMP/deliv.err" 'initrd: .*/bconf-[0-9a-f]+\.img' "the image came from the dracut module path"
t_is "$(t_meta "$b" bootconfig_status)" loaded "metadata: bootconfig loaded"
"$BT_TOP/bin/boottrace" bootconfig -l "$conf" >"$T_TMP/want.list"
t_ok "/proc/bootconfig equals bootconfig -l of the config" \
	cmp -s "$T_TMP/want.list" "$b/proc/bootconfig"
t_ok "the kprobe event was defined" grep -q 'vfs_read' "$b/tracefs/dynamic_events"
t_done
