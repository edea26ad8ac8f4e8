# shellcheck shell=bash
# tests/boot/tap.sh - TAP helpers and shared setup for the boot tests.
#
#   t_plan N            print the plan
#   t_ok DESC CMD...    ok when CMD succeeds
#   t_is GOT WANT DESC  ok when the strings are equal (diff shown when not)
#   t_grep FILE RE DESC ok when FILE has a line matching the ERE
#   t_skip_all REASON   skip the whole file
#   t_boot NAME ARGS... boottrace boot ARGS -o $T_TMP/NAME; sets T_RC, T_ERR
#   t_kernel            build (or reuse) the kernel; BOOTTRACE_TEST_KERNEL=
#                       BZIMAGE tests that image instead (kernelrelease beside)
# shellcheck disable=SC2034 # T_RC, T_ERR are read by the test files
# Tests print diagnostics with `# ` and never stop at the first failure.

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
		diff <(printf '%s\n' "$2") <(printf '%s\n' "$1") | head -n 20 | sed 's/^/# /'
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

# t_boot NAME ARGS...: boot into $T_TMP/NAME; T_RC and T_ERR (stderr) set.
t_boot()
{
	local name=$1
	shift
	T_RC=0
	"$BT_TOP/bin/boottrace" boot -o "$T_TMP/$name" "${T_KOPTS[@]}" "$@" \
		2>"$T_TMP/$name.err" || T_RC=$?
	T_ERR=$(cat "$T_TMP/$name.err")
	printf '%s\n' "$T_ERR" | grep -E 'warning|error|bundle:' | sed 's/^/# /'
}

t_meta()
{
	sed -n "s/^$2=//p" "$1/metadata" | head -n1
}

# The kernel is shared by all boot tests (built once, cached).
T_KOPTS=()
t_kernel()
{
	local k=${BOOTTRACE_TEST_KERNEL:-}

	if [ -z "$k" ]; then
		"$BT_TOP/kernel/build.sh" >"$T_TMP/kernel.out" 2>"$T_TMP/kernel.err" ||
			{ echo "Bail out! kernel build failed: $(tail -n1 "$T_TMP/kernel.err")"; exit 1; }
		k=$(tail -n1 "$T_TMP/kernel.out")
	fi
	[ -s "$(dirname "$k")/kernelrelease" ] ||
		{ echo "Bail out! no kernelrelease beside $k"; exit 1; }
	T_KOPTS=(--kernel "$k")
	T_KVER=$(cat "$(dirname "$k")/kernelrelease")
}

t_done()
{
	[ "$T_FAILED" = 0 ]
}
