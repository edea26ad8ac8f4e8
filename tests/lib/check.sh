# shellcheck shell=bash
# tests/lib/check.sh - the counters of the plain test runners (install,
# package): `ok - NAME` / `not ok - NAME` lines and a closing
# "N passed, N failed" line.
#
#   check NAME CMD...   run CMD, count and print the result
#   check_add TEXT RC   count the ok/not ok lines of another runner's output
#                       (an "ok ... # SKIP" line as skipped, not passed);
#                       two more checks: TEXT has a plan line "1..N" and N
#                       results, and the runner's exit status RC is 0
#   check_done          print the closing line ("N skipped" before it when
#                       some were); status 0 when nothing failed
# shellcheck disable=SC2034 # passed/failed/skipped are the runner's counters

passed=0
failed=0
skipped=0

check()
{
	local name=$1

	shift
	if "$@"; then
		passed=$((passed + 1))
		echo "ok - $name"
	else
		failed=$((failed + 1))
		echo "not ok - $name"
	fi
}

check_add()
{
	local n plan skip

	n=$(grep -cE '^(not )?ok' <<<"$1" || true)
	plan=$(sed -n 's/^1\.\.\([0-9][0-9]*\)$/\1/p' <<<"$1")
	skip=$(grep -c '^ok .*# SKIP' <<<"$1" || true)
	passed=$((passed + $(grep -c '^ok' <<<"$1" || true) - skip))
	failed=$((failed + $(grep -c '^not ok' <<<"$1" || true)))
	skipped=$((skipped + skip))
	check "the runner planned ${plan:-no} results and gave $n" test "${plan:-none}" = "$n"
	check "the runner exited 0 (status $2)" test "$2" = 0
}

check_done()
{
	[ "$skipped" -eq 0 ] || echo "$skipped skipped"
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
}
