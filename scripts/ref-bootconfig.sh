#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ref-bootconfig.sh - build the packaged tree's own tools/bootconfig (the
# reference our bootconfig is compared against) into the cache and print
# the path of the binary.
set -euo pipefail

BT_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=scripts/lib.sh disable=SC1091
. "$BT_TOP/scripts/lib.sh"

usage()
{
	cat <<EOF
Usage: scripts/ref-bootconfig.sh [--tree 6.1|6.12] [--help]

Extract the packaged linux-source tree (cached), compile its unmodified
tools/bootconfig (main.c + lib/bootconfig.c) into
\$BOOTTRACE_CACHE/ref-bootconfig/<package version>/bootconfig and print
that path.  The build is done once per tree version and compiler; delete
the directory to rebuild.  Default tree: 6.1.
EOF
}

tree=6.1
while [ $# -gt 0 ]; do
	case "$1" in
	--tree) [ $# -ge 2 ] || bt_die "--tree needs an argument (6.1 or 6.12)"
		tree=$2; shift 2 ;;
	--tree=*) tree=${1#--tree=}; shift ;;
	-h | --help) usage; exit 0 ;;
	*) usage >&2; bt_die "unknown argument '$1'" ;;
	esac
done

tree=$(bt_tree_series "$tree")
bt_need_pkgs gcc libc6-dev
src=$(bt_tree_dir "$tree")
ver=$(bt_tree_pkgver "$tree")
cc=${REF_CC:-gcc}
ccver=$($cc --version | head -n1)
key=$(printf '%s\n%s\n' "$ver" "$ccver" | sha256sum | cut -c1-12)
dir="$(bt_cache_dir)/ref-bootconfig/$tree-$ver-$key"
bin="$dir/bootconfig"

if [ ! -x "$bin" ]; then
	mkdir -p "$dir"
	tmp=$(mktemp "$dir/.bootconfig.XXXXXX")
	bt_log "building reference tools/bootconfig of linux-source-$tree $ver"
	# The tree's own Makefile rule, without its test run and kbuild include.
	if ! $cc -Wall -g -O2 -I"$src/tools/bootconfig/include" \
		-o "$tmp" "$src/tools/bootconfig/main.c" "$src/lib/bootconfig.c" >&2; then
		rm -f "$tmp"
		bt_die "building $src/tools/bootconfig failed"
	fi
	mv -f "$tmp" "$bin"
fi
printf '%s\n' "$bin"
