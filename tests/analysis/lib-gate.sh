# shellcheck shell=bash
# tests/analysis/lib-gate.sh - what the boot-regression gate's proofs share
# (tests/analysis/30-diff-sets.t and bench/gate.sh): reading `trace-analysis
# diff --json` and checking its `--ktap` with the kernel's own KTAP parser.
# Needs scripts/lib.sh (bt_tree_dir) and jq.
#
#   gate_flagged JSON          the metrics flagged as regressions, one a line
#   gate_metric JSON NAME KEY  one field of a metric (e.g. status, p, pct)
#   gate_kunit_parse KTAP LOG  kunit.py parse of the 6.1 tree into LOG; 0
#                              when it reports no error and the same counts
#                              as KTAP's cases (GATE_KTAP: "N cases, F
#                              failed, S skipped")

gate_flagged()
{
	jq -r '.metrics[] | select(.status == "regression") | .name' "$1"
}

gate_metric()
{
	jq -r --arg n "$2" --arg k "$3" \
		'[.metrics[] | select(.name == $n)][0][$k] // "none"' "$1"
}

# shellcheck disable=SC2034 # GATE_KTAP is read by the callers
gate_kunit_parse()
{
	local ktap=$1 log=$2 total nfail nskip kunit want s parts=()

	kunit=$(bt_tree_dir 6.1)/tools/testing/kunit/kunit.py
	total=$(grep -c '^    \(not \)\?ok ' "$ktap")
	nfail=$(grep -c '^    not ok ' "$ktap")
	nskip=$(grep -c '^    ok .* # SKIP' "$ktap")
	GATE_KTAP="$total cases, $nfail failed, $nskip skipped"
	# kunit_parser.py's summary names only the counts above 0
	for s in "passed $((total - nfail - nskip))" "failed $nfail" "skipped $nskip"; do
		[ "${s#* }" = 0 ] || parts+=("${s% *}: ${s#* }")
	done
	want=$(printf '%s, ' "${parts[@]}")
	want="Ran $total tests: ${want%, }"
	python3 "$kunit" parse "$ktap" >"$log" 2>&1 || true
	grep -qF "$want" "$log" && ! grep -qE '\[ERROR\]|Traceback|CRASHED' "$log"
}
