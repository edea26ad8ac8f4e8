# shellcheck shell=bash
# tests/lib/check.sh - the counters of the plain test runners (install,
# package): `ok - NAME` / `not ok - NAME` lines and a closing
# "N passed, N failed" line.
#
#   check NAME CMD...   run CMD, count and print the result
#   check_add TEXT      count the ok/not ok lines of another runner's output
#   check_done          print the closing line; status 0 when nothing failed
# shellcheck disable=SC2034 # passed/failed are the runner's counters

passed=0
failed=0

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
	passed=$((passed + $(grep -c '^ok' <<<"$1" || true)))
	failed=$((failed + $(grep -c '^not ok' <<<"$1" || true)))
}

check_done()
{
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
}
