#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bootconfig/fuzz/run.sh - run the libFuzzer harnesses for a short time
# each, with a seed corpus generated at run time (called by `make fuzz`).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
BT_TOP=$(cd "$HERE/../.." && pwd)
# shellcheck source=scripts/lib.sh disable=SC1091
. "$BT_TOP/scripts/lib.sh"

usage()
{
	cat <<EOF2
Usage: bootconfig/fuzz/run.sh [-t SECONDS] [--tree 6.1|6.12] [--help]

Runs build/fuzz/fuzz_parse and build/fuzz/fuzz_trailer (built by
\`make -C bootconfig fuzz\`, which calls this) and the differential
harness fuzz_diff (built here by tests/diff/run.sh --build-fuzz from the
packaged tree, default 6.1 or \$FUZZ_TREE: it stops at the first
disagreement between the tree's parser and ours) for SECONDS each
(default: \$FUZZ_SECONDS or 60).  Seed corpora are generated into
build/fuzz/corpus-*: the tree's tools/bootconfig/samples, the differential
test's regressions, the repository's examples, and initrds made from them
with build/bootconfig -a.  Crashes and differences go to
build/fuzz/artifacts/.  Each harness reports its runs and final corpus
size.  Last line: "N passed, N failed" (one test per harness).
EOF2
}

secs=${FUZZ_SECONDS:-60}
tree=${FUZZ_TREE:-6.1}
while [ $# -gt 0 ]; do
	case "$1" in
	-t) [ $# -ge 2 ] || bt_die "-t needs seconds"; secs=$2; shift 2 ;;
	--tree) [ $# -ge 2 ] || bt_die "--tree needs 6.1 or 6.12"; tree=$2; shift 2 ;;
	-h | --help) usage; exit 0 ;;
	*) usage >&2; bt_die "unknown argument '$1'" ;;
	esac
done
[[ "$secs" =~ ^[0-9]+$ ]] || bt_die "-t/FUZZ_SECONDS must be a number, not '$secs'"

B="$BT_TOP/bootconfig/build"
F="$B/fuzz"
for h in fuzz_parse fuzz_trailer; do
	[ -x "$F/$h" ] || bt_die "$F/$h missing: run make -C bootconfig fuzz"
done
[ -x "$B/bootconfig" ] || bt_die "$B/bootconfig missing: run make -C bootconfig"
bt_log "building the differential harness against the $tree tree"
"$BT_TOP/tests/diff/run.sh" --tree "$tree" --build-fuzz "$F/fuzz_diff" >&2 ||
	bt_die "building fuzz_diff failed"

# Seed corpora, regenerated each run.
rm -rf "$F/corpus-parse" "$F/corpus-trailer" "$F/corpus-diff" "$F/work"
mkdir -p "$F/corpus-parse" "$F/corpus-trailer" "$F/corpus-diff" "$F/artifacts" "$F/work"
src=$(bt_tree_dir 6.1)
shopt -s nullglob
seeds=("$src"/tools/bootconfig/samples/*.bconf "$BT_TOP"/tests/diff/regressions/*.bconf
	"$BT_TOP"/examples/*.bconf "$BT_TOP"/examples/*/*.bconf)
shopt -u nullglob
i=0
for s in "${seeds[@]}"; do
	i=$((i + 1))
	cp "$s" "$F/corpus-parse/seed-$i"
	cp "$s" "$F/corpus-diff/seed-$i"
	# an initrd with that config (when ours accepts it), with 0-3 bytes
	# of bootloader padding, and one with a corrupted checksum
	printf 'INITRD%*s' $((i % 4)) '' >"$F/work/initrd"
	if "$B/bootconfig" -a "$s" "$F/work/initrd" >/dev/null 2>&1; then
		cp "$F/work/initrd" "$F/corpus-trailer/seed-$i"
		{ cat "$F/work/initrd"; head -c $((i % 4)) /dev/zero; } >"$F/corpus-trailer/seed-$i-pad"
		{ printf 'X'; tail -c +2 "$F/work/initrd"; } >"$F/corpus-trailer/seed-$i-csum"
	fi
done
printf '#BOOTCONFIG\n' >"$F/corpus-trailer/magic-only"
bt_log "seed corpora: $(find "$F/corpus-parse" -type f | wc -l) configs, $(find "$F/corpus-trailer" -type f | wc -l) initrds"

pass=0
fail=0
for h in parse trailer diff; do
	log="$F/work/$h.log"
	# the reference side (the tree's tool) does not free all it allocates
	leaks=1
	[ "$h" = diff ] && leaks=0
	bt_log "fuzzing $h for ${secs}s"
	if (cd "$F/work" && "$F/fuzz_$h" -max_total_time="$secs" -max_len=40000 \
		-dict="$HERE/bconf.dict" -artifact_prefix="$F/artifacts/$h-" \
		-detect_leaks="$leaks" -print_final_stats=1 "$F/corpus-$h") >"$log" 2>&1; then
		echo "ok - fuzz_$h: $(grep -m1 'stat::number_of_executed_units' "$log" | awk '{print $2}') runs in ${secs}s, corpus $(find "$F/corpus-$h" -type f | wc -l) files, no finding"
		pass=$((pass + 1))
	else
		tail -n 40 "$log"
		echo "not ok - fuzz_$h: crash, invariant failure or difference, see $log and $F/artifacts/"
		fail=$((fail + 1))
	fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
