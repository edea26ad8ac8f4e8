# shellcheck shell=bash
# shellcheck disable=SC2034 # fx, kunit: for the scripts that source this
# tests/cli-lib.sh - what tests/cli.sh and tests/cli-inputs.sh share: the
# program under test (their argument), the fixtures, a scratch directory,
# the tally and its checks.  Sourced first; cli_done ends a script with
# the line "N passed, N failed".
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
bin=$(readlink -f "${1:?usage: $(basename "$0") BINARY}")
fx=$here/fixtures/bundles
# shellcheck source=../../scripts/lib.sh
. "$top/scripts/lib.sh"
bt_need_pkgs jq libxml2-utils chromium python3-jsonschema python3-scipy
# rendered pictures are kept here for a person to look at (one directory
# per build of the program: the plain and the ASan runs go side by side)
art=$(cd "$here/.." && pwd)/build/artifacts
case "$bin" in */asan/*) art=$art/asan ;; esac
mkdir -p "$art"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0

ok() { passed=$((passed + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; }

# run NAME EXPECTED_RC CMD... : output in $tmp/out, stderr in $tmp/err
run()
{
	local name=$1 want=$2 rc=0
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
	if [ "$rc" -ge 128 ] || grep -q 'AddressSanitizer\|runtime error' "$tmp/err"; then
		bad "$name: crashed (rc $rc)"; sed 's/^/    /' "$tmp/err" | head -20
		return 1
	fi
	if [ "$rc" != "$want" ]; then
		bad "$name: exit $rc, want $want"; sed 's/^/    /' "$tmp/err" | head -5
		return 1
	fi
	ok "$name"
}

# has NAME PATTERN [FILE]: grep -E in the last output
has()
{
	if grep -qE -- "$2" "${3:-$tmp/out}"; then ok "$1"; else
		bad "$1: no /$2/"; fi
}

# the packaged tree's KTAP parser
kunit=$(bt_tree_dir 6.1)/tools/testing/kunit/kunit.py

# cli_done: the tally; fails when a check failed
cli_done()
{
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
}
