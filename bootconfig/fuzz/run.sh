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
Usage: bootconfig/fuzz/run.sh [-t SECONDS] [--help]

Runs build/fuzz/fuzz_parse and build/fuzz/fuzz_trailer (built by
\`make -C bootconfig fuzz\`, which calls this) for SECONDS each (default:
\$FUZZ_SECONDS or 60).  Seed corpora are generated into
build/fuzz/corpus-*: the tree's tools/bootconfig/samples, the differential
test's regressions, the repository's examples, and initrds made from them
with build/bootconfig -a.  Crashes go to build/fuzz/artifacts/.
Last line: "N passed, N failed" (one test per harness).
EOF2
}

secs=${FUZZ_SECONDS:-60}
while [ $# -gt 0 ]; do
	case "$1" in
	-t) [ $# -ge 2 ] || bt_die "-t needs seconds"; secs=$2; shift 2 ;;
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

# Seed corpora, regenerated each run.
rm -rf "$F/corpus-parse" "$F/corpus-trailer" "$F/work"
mkdir -p "$F/corpus-parse" "$F/corpus-trailer" "$F/artifacts" "$F/work"
src=$(bt_tree_dir 6.1)
shopt -s nullglob
seeds=("$src"/tools/bootconfig/samples/*.bconf "$BT_TOP"/tests/diff/regressions/*.bconf
	"$BT_TOP"/examples/*.bconf "$BT_TOP"/examples/*/*.bconf)
shopt -u nullglob
i=0
for s in "${seeds[@]}"; do
	i=$((i + 1))
	cp "$s" "$F/corpus-parse/seed-$i"
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
for h in parse trailer; do
	log="$F/work/$h.log"
	bt_log "fuzzing $h for ${secs}s"
	if (cd "$F/work" && "$F/fuzz_$h" -max_total_time="$secs" -max_len=40000 \
		-dict="$HERE/bconf.dict" -artifact_prefix="$F/artifacts/$h-" \
		-print_final_stats=1 "$F/corpus-$h") >"$log" 2>&1; then
		echo "ok - fuzz_$h: $(grep -m1 'stat::number_of_executed_units' "$log" | awk '{print $2}') runs, no crash"
		pass=$((pass + 1))
	else
		tail -n 40 "$log"
		echo "not ok - fuzz_$h: crash or invariant failure, see $log and $F/artifacts/"
		fail=$((fail + 1))
	fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
