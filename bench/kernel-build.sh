#!/bin/bash
# bench/kernel-build.sh - time the kernel build stage (kernel/build.sh).
#
# Measures: the cached rerun (median of 3), and with --rebuild a rebuild of
# the same kernel into a fresh build directory with the ccache warm
# (kernel/build.sh --force).  Builds the kernel first if it is not cached
# (that cold time is reported too).  Prints `name seconds` lines.
set -euo pipefail

top=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)

usage()
{
	cat <<'USAGE'
usage: bench/kernel-build.sh [--tree 6.1|6.12] [--rebuild]

Times kernel/build.sh: cached rerun (median of 3) and, with --rebuild, a
warm-ccache rebuild into a fresh build directory (~2-6 min on 2 cores).
Output: one "name seconds" line per measurement, on stdout.
USAGE
}

tree=6.1
rebuild=0
while [ $# -gt 0 ]; do
	case "$1" in
	-h | --help) usage; exit 0 ;;
	--tree) [ $# -ge 2 ] || { usage >&2; exit 2; }; tree=$2; shift ;;
	--rebuild) rebuild=1 ;;
	*) usage >&2; exit 2 ;;
	esac
	shift
done

build=("$top/kernel/build.sh" --tree "$tree")

# Wall-clock seconds (2 decimals) of one run of the command; output dropped.
timed()
{
	local t0 t1

	t0=$(date +%s.%N)
	"$@" >/dev/null 2>&1 || { echo "failed: $*" >&2; return 1; }
	t1=$(date +%s.%N)
	echo "$t0 $t1" | awk '{ printf "%.2f\n", $2 - $1 }'
}

if ! dir=$("${build[@]}" --print-dir 2>/dev/null); then
	t=$(timed "${build[@]}")
	echo "cold_build_$tree $t"
	dir=$("${build[@]}" --print-dir)
fi
runs=()
for _ in 1 2 3; do
	t=$(timed "${build[@]}")
	runs+=("$t")
done
echo "cached_rerun_$tree $(printf '%s\n' "${runs[@]}" | sort -n | sed -n 2p)"
if [ "$rebuild" = 1 ]; then
	t=$(timed "${build[@]}" --force)
	echo "warm_ccache_rebuild_$tree $t"
	sed -n 's/^\(build_seconds\|ccache_hits\|ccache_misses\)=/warm_ccache_rebuild_\1 /p' \
		"$dir/metadata"
fi
