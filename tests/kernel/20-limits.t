#!/bin/bash
# Parser and size limits at their edges against the patched kernel:
# 32767 bytes of text (one over the limit), 8192 and 8193 nodes, 16- and
# 17-word keys.  Accepted configs must apply their kernel.* parameter and
# show up in /proc/bootconfig; rejected ones must be named in dmesg and
# apply nothing, and /proc/bootconfig says why it is empty.  Each boot
# reaches the collector.  5 boots.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

t_plan 30
k_kernel "${K_TREE:-6.1}"
k_base_initrd

# boot_conf NAME CONF [PAD]: CONF as a trailer with the tool's padding
# (or PAD bytes of it).
boot_conf()
{
	local name=$1 conf=$2 img=$T_TMP/$1.img size pad=${3:-}

	cp "$K_BASE" "$img"
	size=$(($(stat -c %s "$img") + $(stat -c %s "$conf") + 1 + 20))
	[ -n "$pad" ] || pad=$(((4 - size % 4) % 4))
	k_trailer "$conf" "$img" "$pad"
	k_boot "$name" "$img"
	t_is "$T_RC" 0 "$name: boots to the collector"
}

not_applied()
{
	local name=$1 b=$T_TMP/$1

	t_ok "$name: kernel.* parameter not applied" \
		sh -c "! grep -q boottrace_kt '$b/proc/cmdline'"
	t_ok "$name: nothing in /proc/bootconfig" \
		sh -c "! grep -q boottrace_kt '$b/proc/bootconfig' 2>/dev/null"
}

applied()
{
	local name=$1 b=$T_TMP/$1

	t_grep "$b/proc/cmdline" "boottrace_kt=$name( |\$)" "$name: kernel.* parameter applied"
	t_grep "$b/proc/bootconfig" "^kernel.boottrace_kt = \"$name\"" "$name: /proc/bootconfig lists it"
}

# 32767 bytes of text: with its NUL one byte over XBC_DATA_MAX
c=$T_TMP/toobig.bconf
k_sized_conf toobig 32767 "$c"
t_is "$(stat -c %s "$c")" 32767 "toobig config is 32767 bytes"
# no padding: size 32768 passes the footer's bound (32767 + 3 bytes of
# padding) and the text is rejected by the parser's own limit
boot_conf toobig "$c" 0
t_grep "$T_TMP/toobig/dmesg" 'Failed to init bootconfig: Config data is too big' "toobig: rejected as too big"
t_grep "$T_TMP/toobig/proc/bootconfig" '^# Failed to load bootconfig: Config data is too big$' \
	"toobig: /proc/bootconfig says why it is empty"
not_applied toobig

# 8192 nodes (kernel, boottrace_kt, its value, a, 8188 values) and 8193
gen_nodes()
{
	local name=$1 values=$2 i

	printf 'kernel.boottrace_kt = "%s"\na = 1' "$name"
	for ((i = 1; i < values; i++)); do printf ',1'; done
	printf '\n'
}
gen_nodes nodes8192 8188 >"$T_TMP/n8192.bconf"
gen_nodes nodes8193 8189 >"$T_TMP/n8193.bconf"
boot_conf nodes8192 "$T_TMP/n8192.bconf"
t_grep "$T_TMP/nodes8192/dmesg" 'Load bootconfig: [0-9]+ bytes 8192 nodes' "nodes8192: loaded with 8192 nodes"
applied nodes8192
boot_conf nodes8193 "$T_TMP/n8193.bconf"
t_grep "$T_TMP/nodes8193/dmesg" 'Failed to parse bootconfig: Too many nodes' "nodes8193: rejected, too many nodes"
t_grep "$T_TMP/nodes8193/proc/bootconfig" '^# Failed to parse bootconfig: Too many nodes at byte [0-9]+$' \
	"nodes8193: /proc/bootconfig gives the error and its position"
not_applied nodes8193

# 16 words: parses; before the series composing it failed, which dropped
# /proc/bootconfig and every kernel.* parameter.  17 words: rejected.
w16=a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p
printf 'kernel.boottrace_kt = "words16"\n%s = 16\n' "$w16" >"$T_TMP/w16.bconf"
printf 'kernel.boottrace_kt = "words17"\n%s.q = 17\n' "$w16" >"$T_TMP/w17.bconf"
boot_conf words16 "$T_TMP/w16.bconf"
t_grep "$T_TMP/words16/dmesg" 'Load bootconfig: [0-9]+ bytes [0-9]+ nodes' "words16: loaded"
applied words16
t_grep "$T_TMP/words16/proc/bootconfig" "^$w16 = \"16\"" "words16: the 16-word key is listed"
boot_conf words17 "$T_TMP/w17.bconf"
t_grep "$T_TMP/words17/dmesg" 'Failed to parse bootconfig: Too many key words' "words17: rejected, too many key words"
t_grep "$T_TMP/words17/proc/bootconfig" '^# Failed to parse bootconfig: Too many key words at byte 64$' \
	"words17: /proc/bootconfig gives the error and its position"
not_applied words17
for n in toobig nodes8192 nodes8193 words16 words17; do
	t_ok "$n: no oops" k_no_oops "$T_TMP/$n"
done
t_done
