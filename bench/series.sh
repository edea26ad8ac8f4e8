#!/bin/bash
# bench/series.sh - what the kernel series costs at boot.
set -euo pipefail

BT_TOP=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
export BT_TOP
# shellcheck source=../scripts/lib.sh
. "$BT_TOP/scripts/lib.sh"

usage()
{
	cat <<'USAGE'
usage: bench/series.sh [CONF.bconf] [--runs N] [--tree 6.1|6.12]

Boots the same config to the collector with the kernel built without the
series (an empty series) and with kernel/series (kernel/series-TREE when it
exists), alternating, N runs each, and prints per kernel the median of the
guest's uptime when the collector ran (guest_uptime_at_collect: the time
the kernel and the initramfs took, without QEMU start-up and unpacking)
of the kernel's own part (the dmesg timestamp of "Run /init as init
process": where bootconfig and boot-time tracing are set up) and of the
wall time of the whole boot, then the ratio series/plain.
Both kernels are built (or reused) with kernel/build.sh first.

options:
  --runs N          runs of each kernel (default 3)
  --tree 6.1|6.12   kernel tree (default 6.1)
  -h, --help        this help
USAGE
}

conf="$BT_TOP/examples/default.bconf" runs=3 tree=6.1
while [ $# -gt 0 ]; do
	case "$1" in
	-h | --help) usage; exit 0 ;;
	--runs) [ $# -ge 2 ] || bt_die "--runs needs a number"; runs=$2; shift ;;
	--tree) [ $# -ge 2 ] || bt_die "--tree needs 6.1 or 6.12"; tree=$2; shift ;;
	-*) usage >&2; bt_die "unknown option '$1'" ;;
	*) conf=$1 ;;
	esac
	shift
done
[[ $runs =~ ^[1-9][0-9]*$ ]] || bt_die "--runs: '$runs' is not a positive number"
[ -f "$conf" ] || bt_die "config $conf not found"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bt-bench-series.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

series=$BT_TOP/kernel/series
[ ! -f "$BT_TOP/kernel/series-$tree" ] || series=$BT_TOP/kernel/series-$tree
mkdir -p "$tmp/plain/patches"
: >"$tmp/plain/series"

bt_log "building (or reusing) the kernel without the series"
plain=$("$BT_TOP/kernel/build.sh" --tree "$tree" --series "$tmp/plain/series")
bt_log "building (or reusing) the kernel with $series"
patched=$("$BT_TOP/kernel/build.sh" --tree "$tree" --series "$series")

# meta BUNDLE KEY
meta()
{
	sed -n "s/^$2=//p" "$1/metadata" | head -n1
}

median()
{
	sort -g | awk '{ v[NR] = $1 } END {
		if (NR % 2) print v[(NR + 1) / 2]
		else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

: >"$tmp/plain.up" ; : >"$tmp/plain.wall" ; : >"$tmp/plain.init"
: >"$tmp/patched.up" ; : >"$tmp/patched.wall" ; : >"$tmp/patched.init"
for ((i = 1; i <= runs; i++)); do
	for k in plain patched; do
		img=$plain
		[ "$k" = plain ] || img=$patched
		b=$tmp/$k-$i
		"$BT_TOP/bin/boottrace" boot "$conf" --tree "$tree" --kernel "$img" \
			-o "$b" 2>"$b.err" ||
			bt_die "boot $i with the $k kernel failed: $(tail -n1 "$b.err")"
		meta "$b" guest_uptime_at_collect >>"$tmp/$k.up"
		meta "$b" boot_wall_seconds >>"$tmp/$k.wall"
		sed -n 's/^\[ *\([0-9.]*\)\] Run .* as init process.*/\1/p' "$b/dmesg" |
			head -n1 >>"$tmp/$k.init"
		bt_log "run $i $k: kernel to init $(tail -n1 "$tmp/$k.init") s, uptime $(tail -n1 "$tmp/$k.up") s, wall $(tail -n1 "$tmp/$k.wall") s"
	done
done

up_p=$(median <"$tmp/plain.up")
up_s=$(median <"$tmp/patched.up")
init_p=$(median <"$tmp/plain.init")
init_s=$(median <"$tmp/patched.init")
wall_p=$(median <"$tmp/plain.wall")
wall_s=$(median <"$tmp/patched.wall")
printf 'config: %s, tree %s, %d runs each (alternating)\n' "$conf" "$tree" "$runs"
printf '%-22s %12s %12s %8s\n' "median seconds" "no series" "series" "ratio"
printf '%-22s %12s %12s %8s\n' "kernel to /init" "$init_p" "$init_s" \
	"$(awk -v a="$init_s" -v b="$init_p" 'BEGIN { printf "%.3f", a / b }')"
printf '%-22s %12s %12s %8s\n' "uptime at collector" "$up_p" "$up_s" \
	"$(awk -v a="$up_s" -v b="$up_p" 'BEGIN { printf "%.3f", a / b }')"
printf '%-22s %12s %12s %8s\n' "wall (whole boot)" "$wall_p" "$wall_s" \
	"$(awk -v a="$wall_s" -v b="$wall_p" 'BEGIN { printf "%.3f", a / b }')"
