# shellcheck shell=bash
# tests/boot/tap.sh - shared setup for the boot tests, on top of the TAP
# helpers of tests/lib/tap.sh (t_plan, t_ok, t_is, t_grep, t_skip_all,
# t_done, T_TMP, BT_TOP):
#
#   t_boot NAME ARGS... boottrace boot ARGS -o $T_TMP/NAME; sets T_RC, T_ERR
#   t_kernel            build (or reuse) the kernel; BOOTTRACE_TEST_KERNEL=
#                       BZIMAGE tests that image instead (kernelrelease beside)
# shellcheck disable=SC2034 # T_RC, T_ERR are read by the test files
# Tests print diagnostics with `# ` and never stop at the first failure.

# shellcheck source=../lib/tap.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/tap.sh"

# t_boot NAME ARGS...: boot into $T_TMP/NAME; T_RC and T_ERR (stderr) set.
t_boot()
{
	local name=$1
	shift
	T_RC=0
	"$BT_TOP/bin/boottrace" boot -o "$T_TMP/$name" "${T_KOPTS[@]}" "$@" >/dev/null \
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

