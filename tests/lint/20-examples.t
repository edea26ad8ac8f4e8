#!/bin/bash
# Every examples/*.bconf is clean: no error or warning with the test
# kernel's knowledge and none without it (exit status 0 both times).
# Notes (information, e.g. a module event group the series keeps pending)
# are shown as TAP comments.
set -uo pipefail
. "$(dirname "$0")/tap.sh"

t_lint_setup
examples=("$BT_TOP"/examples/*.bconf)
t_plan $((2 * ${#examples[@]}))
for f in "${examples[@]}"; do
	out=$("$T_LINT" -q --knowledge "$T_KN" "$f" 2>&1) && rc=0 || rc=$?
	grep ': note: ' <<<"$out" | sed 's/^/# /'
	out=$(grep -v ': note: ' <<<"$out")
	t_is "$rc:$out" "0:" "$(basename "$f"): no findings with kernel $T_KEY"
	out=$("$T_LINT" -q "$f" 2>&1) && rc=0 || rc=$?
	t_is "$rc:$out" "0:" "$(basename "$f"): no findings without a kernel"
done
t_done
