#!/bin/bash
# bench/gate.sh - the boot-regression gate on real TCG boots: false
# positives on independent pairs of same-config sets, and the detection of
# a real slowdown (issue 16, "Prove it").
set -euo pipefail

BT_TOP=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
export BT_TOP
# shellcheck source=../scripts/lib.sh
. "$BT_TOP/scripts/lib.sh"
# shellcheck source=../tests/analysis/lib-gate.sh
. "$BT_TOP/tests/analysis/lib-gate.sh"

usage()
{
	cat <<'USAGE'
usage: bench/gate.sh [--pairs N] [--runs N] [--conf CONF.bconf] [--dir DIR]
                     [--kernel BZIMAGE]

Boots, one after the other with `boottrace boot CONF --repeat RUNS -o SET`
(the cached kernel):

  same-config pairs   N pairs of independent sets of CONF (default
                      examples/default.bconf): sets 1a/1b, 2a/2b, ...
  detection pair      tests/analysis/initcalls.bconf against
                      tests/analysis/slow.bconf (the same plus the function
                      tracer on acpi_*, which makes acpi_init several times
                      slower), as tests/analysis/30-diff-sets.t does;
                      booted on `--machine pc`, whose full ACPI tables make
                      the slowdown large (microvm's hardware-reduced ACPI
                      runs little AML: acpi_init ~80 ms slower)

and runs `trace-analysis diff A B` with the default thresholds on each
pair.  Prints, per same-config pair, the metrics flagged as regressions
(each one is a false positive) and the metrics over a threshold but not
significant (noise); for the detection pair whether acpi_init is flagged
in the text, the JSON and the KTAP output, its medians, change and
Mann-Whitney p, and whether the 6.1 tree's kunit.py parses the KTAP with
the same counts.  Exit 1 when a same-config pair is flagged or acpi_init
is not, or a boot fails 3 times.  2 x RUNS x (N + 1) boots: 40 by
default, ~8 s each on an idle machine, over a minute under a load of 16.

options:
  --pairs N         same-config pairs (default 3)
  --runs N          boots per set (default 5)
  --conf CONF       the same-config pairs' config (default
                    examples/default.bconf)
  --dir DIR         keep the sets in DIR (default: a temporary directory,
                    removed at exit); a set already complete there (RUNS
                    bundles) is reused, not booted again
  --kernel BZIMAGE  boot this image (see boottrace boot --kernel)
  -h, --help        this help
USAGE
}

pairs=3 runs=5 conf=$BT_TOP/examples/default.bconf dir='' kopt=()
while [ $# -gt 0 ]; do
	case "$1" in
	-h | --help) usage; exit 0 ;;
	--pairs | --runs | --conf | --dir | --kernel)
		[ $# -ge 2 ] || bt_die "$1 needs an argument (see --help)"
		case "$1" in
		--pairs) pairs=$2 ;;
		--runs) runs=$2 ;;
		--conf) conf=$2 ;;
		--dir) dir=$2 ;;
		--kernel) kopt=(--kernel "$2") ;;
		esac
		shift
		;;
	*) bt_die "unknown argument '$1' (see --help)" ;;
	esac
	shift
done
[[ $pairs =~ ^[1-9][0-9]*$ ]] || bt_die "--pairs takes a positive number (got '$pairs')"
[[ $runs =~ ^[1-9][0-9]*$ ]] || bt_die "--runs takes a positive number (got '$runs')"
[ -f "$conf" ] || bt_die "$conf: no such file"

bt_need_pkgs jq python3
make -s -C "$BT_TOP/trace-analysis" >&2
ta=$BT_TOP/trace-analysis/build/trace-analysis
if [ -z "$dir" ]; then
	dir=$(mktemp -d "${TMPDIR:-/tmp}/boottrace-gate.XXXXXX")
	trap 'rm -rf "$dir"' EXIT
fi
mkdir -p "$dir"

# boot_set NAME CONF [BOOT-OPTION...]: RUNS boots of CONF into the set $dir/NAME (NAME/1 ..
# NAME/RUNS, what `boottrace boot --repeat` writes), unless done before.
# One boot at a time, so that a boot that fails (under a heavy load TCG
# boots sometimes panic in the kernel's IO-APIC timer check) is retried,
# up to twice, and a run that stops resumes; retries are counted.
retries=0
boot_set()
{
	local set=$dir/$1 conf=$2 k try t0=$SECONDS
	shift 2

	if [ -f "$set/$runs/metadata" ] && [ ! -e "$set/$((runs + 1))" ]; then
		bt_log "$1: reusing the $runs boots in $set"
		return 0
	fi
	bt_log "$1: $runs boots of $(basename "$conf")"
	mkdir -p "$set.partial"
	for ((k = 1; k <= runs; k++)); do
		for ((try = 1; ; try++)); do
			[ ! -f "$set.partial/$k/metadata" ] || break
			"$BT_TOP/bin/boottrace" boot "$conf" -o "$set.partial/$k" \
				${kopt[@]+"${kopt[@]}"} "$@" >/dev/null 2>"$dir/$1.err" && break
			bt_log "$1: boot $k failed: $(grep -m1 'error:' "$dir/$1.err" || tail -n1 "$dir/$1.err")"
			[ "$try" -lt 3 ] || bt_die "$1: boot $k failed 3 times (log: $dir/$1.err)"
			retries=$((retries + 1))
		done
	done
	rm -rf "$set"
	mv "$set.partial" "$set"
	bt_log "$1: $((SECONDS - t0)) s"
}

# diff_json A B OUT: the comparison as JSON; its exit status in R
diff_json()
{
	R=0
	"$ta" diff "$dir/$1" "$dir/$2" --json >"$3" 2>"$3.err" || R=$?
	[ "$R" -le 1 ] || { cat "$3.err" >&2; bt_die "diff $1 $2 failed"; }
}

for ((p = 1; p <= pairs; p++)); do
	boot_set "${p}a" "$conf"
	boot_set "${p}b" "$conf"
done
ic=$BT_TOP/tests/analysis/initcalls.bconf
boot_set base "$ic" --machine pc
boot_set slow "$BT_TOP/tests/analysis/slow.bconf" --machine pc

echo "gate: trace-analysis diff, default thresholds, $runs vs $runs boots ($retries failed boots retried); $(uptime | sed 's/.*load/load/')"
fp=0
for ((p = 1; p <= pairs; p++)); do
	j=$dir/pair$p.json
	diff_json "${p}a" "${p}b" "$j"
	flagged=$(gate_flagged "$j" | paste -sd ' ' -)
	noise=$(jq -r '[.metrics[] | select(.status == "noise") | .name] | join(" ")' "$j")
	n=$(jq '.regressions' "$j")
	fp=$((fp + n))
	printf 'pair %d (%s): %d compared, %d flagged%s; noise: %s\n' "$p" \
		"$(basename "$conf")" "$(jq '.metrics | length' "$j")" "$n" \
		"${flagged:+ ($flagged)}" "${noise:-none}"
	printf '  scale a %s, b %s\n' "$(jq -c '.scale_a' "$j")" "$(jq -c '.scale_b' "$j")"
done
echo "false positives: $fp over $pairs same-config pairs"

j=$dir/detect.json
diff_json base slow "$j"
"$ta" diff "$dir/base" "$dir/slow" >"$dir/detect.txt" 2>&1 || true
"$ta" diff "$dir/base" "$dir/slow" --ktap >"$dir/detect.ktap" 2>&1 || true
m=initcall:acpi_init
in_json=$([ "$(gate_metric "$j" "$m" status)" = regression ] && echo yes || echo no)
in_text=$(grep -q "^  REGRESSION $m " "$dir/detect.txt" && echo yes || echo no)
in_ktap=$(grep -qE "^    not ok [0-9]+ $m\$" "$dir/detect.ktap" && echo yes || echo no)
kunit=no
if gate_kunit_parse "$dir/detect.ktap" "$dir/detect.kunit"; then kunit=yes; fi
printf 'detection (initcalls.bconf vs slow.bconf): %s %.0f -> %.0f us (%+.1f%%, %+.0f us), p = %s\n' \
	"$m" "$(gate_metric "$j" "$m" a)" "$(gate_metric "$j" "$m" b)" \
	"$(gate_metric "$j" "$m" pct)" "$(gate_metric "$j" "$m" delta)" "$(gate_metric "$j" "$m" p)"
echo "  flagged in text: $in_text, JSON: $in_json, KTAP: $in_ktap; kunit.py parse: $kunit ($GATE_KTAP)"
echo "  all flagged: $(gate_flagged "$j" | paste -sd ' ' -)"

[ "$fp" = 0 ] && [ "$in_json$in_text$in_ktap$kunit" = yesyesyesyes ]
