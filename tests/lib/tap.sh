# shellcheck shell=bash
# tests/lib/tap.sh - the TAP helpers every shell test file shares.
#
#   t_plan N            print the plan
#   t_ok DESC CMD...    ok when CMD succeeds (its output shown when not)
#   t_is GOT WANT DESC  ok when the strings are equal (diff shown when not)
#   t_grep FILE RE DESC ok when FILE has a line matching the ERE
#   t_skip_all REASON   skip the whole file
#   t_done              exit status: 0 when nothing failed
# Sets BT_TOP (exported) and T_TMP (a scratch directory removed at exit).
# Tests print diagnostics with `# ` and never stop at the first failure.
# shellcheck disable=SC2034 # T_* are read by the test files

BT_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
export BT_TOP
T_N=0
T_FAILED=0
T_TMP=$(mktemp -d "${TMPDIR:-/tmp}/boottrace-test.XXXXXX")
trap 'rm -rf "$T_TMP"' EXIT

t_plan()
{
	echo "1..$1"
}

t_skip_all()
{
	echo "1..0 # SKIP $*"
	exit 0
}

t_result()
{
	T_N=$((T_N + 1))
	if [ "$1" = 0 ]; then
		echo "ok $T_N - $2"
	else
		echo "not ok $T_N - $2"
		T_FAILED=$((T_FAILED + 1))
	fi
}

t_ok()
{
	local desc=$1 rc=0
	shift
	"$@" >"$T_TMP/.out" 2>&1 || rc=$?
	t_result "$rc" "$desc"
	[ "$rc" = 0 ] || sed 's/^/# /' "$T_TMP/.out" | head -n 20
}

t_is()
{
	if [ "$1" = "$2" ]; then
		t_result 0 "$3"
	else
		t_result 1 "$3"
		# diff exits 1 here: the file may run under set -e
		{ diff <(printf '%s\n' "$2") <(printf '%s\n' "$1") || true; } | head -n 20 | sed 's/^/# /'
	fi
}

t_grep()
{
	if [ -f "$1" ] && grep -a -q -E -- "$2" "$1"; then
		t_result 0 "$3"
	else
		t_result 1 "$3"
		echo "# no line matching /$2/ in $1"
	fi
}

t_done()
{
	[ "$T_FAILED" = 0 ]
}
