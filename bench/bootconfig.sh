#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bench/bootconfig.sh - `bootconfig -l` on a full-size config: our command
# against the packaged tree's tools/bootconfig, as an instruction-count ratio.
set -euo pipefail

BT_TOP=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
# shellcheck source=scripts/lib.sh disable=SC1091
. "$BT_TOP/scripts/lib.sh"

usage()
{
	cat <<'USAGE'
usage: bench/bootconfig.sh [--tree 6.1|6.12] [--conf FILE] [--help]

Generates a config at the parser's limits (8192 nodes, ~32 KiB: 512 keys of
15-value arrays, padded with a comment to 32760 bytes), checks that both
tools print the same `bootconfig -l` output for it, then counts the
instructions each executes for `bootconfig -l CONF` under
`valgrind --tool=callgrind` (deterministic, unlike wall time on a shared
machine) and prints both counts and the ratio ours/tree (below 1: ours is
cheaper).  Ours: bootconfig/build/bootconfig (built with make -C
bootconfig); the tree's: scripts/ref-bootconfig.sh.

options:
  --conf FILE       measure this config instead of the generated one
  --tree 6.1|6.12   reference tree (default 6.1)
  -h, --help        this help
USAGE
}

tree=6.1
conf=
while [ $# -gt 0 ]; do
	case "$1" in
	-h | --help) usage; exit 0 ;;
	--tree) [ $# -ge 2 ] || bt_die "--tree needs 6.1 or 6.12"; tree=$2; shift 2 ;;
	--conf) [ $# -ge 2 ] || bt_die "--conf needs a file"; conf=$2; shift 2 ;;
	*) usage >&2; bt_die "unknown argument '$1'" ;;
	esac
done

bt_need_pkgs valgrind make gcc
make -s -C "$BT_TOP/bootconfig" >&2 || bt_die "make -C bootconfig failed"
ours="$BT_TOP/bootconfig/build/bootconfig"
ref=$("$BT_TOP/scripts/ref-bootconfig.sh" --tree "$tree")

work=$(mktemp -d "${TMPDIR:-/tmp}/bt-bench-bconf.XXXXXX")
trap 'rm -rf "$work"' EXIT

if [ -z "$conf" ]; then
	conf="$work/full.bconf"
	# 512 keys x (1 key + 15 values) = 8192 nodes
	awk 'BEGIN {
		for (i = 0; i < 512; i++) {
			printf("k%03x=", i);
			for (j = 0; j < 15; j++)
				printf("%c%c%s", 97 + (i + j) % 26, 97 + j, j < 14 ? "," : "\n");
		}
	}' >"$conf"
	size=$(stat -c %s "$conf")
	pad=$((32760 - size - 3))
	[ "$pad" -ge 0 ] || bt_die "generated config too big ($size bytes)"
	{ printf '# '; head -c "$pad" /dev/zero | tr '\0' 'x'; printf '\n'; } >>"$conf"
fi
[ -r "$conf" ] || bt_die "cannot read $conf"

# Node count as the tree's tool reports it when applying.
printf 'INITRD' >"$work/initrd"
nodes=$("$ref" -a "$conf" "$work/initrd" 2>&1 | sed -n 's/^\tNumber of nodes: //p')
[ -n "$nodes" ] || bt_die "the tree's tool refuses $conf"

"$ours" -l "$conf" >"$work/ours.out" || bt_die "ours failed on $conf"
"$ref" -l "$conf" >"$work/ref.out" 2>/dev/null
cmp -s "$work/ours.out" "$work/ref.out" ||
	bt_die "-l outputs differ between ours and the tree's tool on $conf"

# $1: binary -> instructions executed for "-l CONF"
count()
{
	local out

	out=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null \
		"$1" -l "$conf" 2>&1 >/dev/null) || bt_die "valgrind $1 failed"
	printf '%s\n' "$out" | sed -n 's/^==[0-9]*== Collected : //p'
}

n_ours=$(count "$ours")
n_ref=$(count "$ref")
{ [ -n "$n_ours" ] && [ -n "$n_ref" ]; } || bt_die "could not read callgrind's instruction counts"
echo "bootconfig -l on $(stat -c %s "$conf") bytes, $nodes nodes (tree $tree):"
echo "  ours:        $n_ours instructions"
echo "  tree's tool: $n_ref instructions"
awk -v a="$n_ours" -v b="$n_ref" 'BEGIN { printf("ratio ours/tree: %.3f\n", a / b) }'
