# shellcheck shell=bash
# tests/lint/tap.sh - shared setup for the lint tests, on top of
# tests/boot/tap.sh (t_plan, t_ok, t_is, t_grep, t_boot, t_kernel...):
#
#   t_lint_setup     build boottrace-lint (T_LINT) and find the test kernel's
#                    knowledge (T_KN, T_KEY, T_LONG=yes|no), extracting it
#                    once with kernel/knowledge.sh (one QEMU boot, cached)
#   t_lint_expect CASE.bconf TAG...
#                    the "# TAG: ..." lines of a case (KERNEL replaced)
# shellcheck disable=SC2034 # T_* are read by the test files

# shellcheck source=../boot/tap.sh
. "$(dirname "${BASH_SOURCE[0]}")/../boot/tap.sh"

t_lint_setup()
{
	make -s -C "$BT_TOP/bootconfig" build/boottrace-lint >&2 ||
		{ echo "Bail out! cannot build boottrace-lint"; exit 1; }
	T_LINT=$BT_TOP/bootconfig/build/boottrace-lint
	t_kernel
	T_KN=$("$BT_TOP/kernel/knowledge.sh" --kernel "${T_KOPTS[1]}" 2>"$T_TMP/kn.err") ||
		{ echo "Bail out! no kernel knowledge: $(tail -n1 "$T_TMP/kn.err")"; exit 1; }
	T_KEY=$(sed -n 's/^key=//p' "$T_KN/info")
	T_LONG=$(sed -n 's/^long_settings=//p' "$T_KN/info")
}

t_lint_expect()
{
	local f=$1 tag
	shift
	for tag in "$@"; do
		sed -n "s/^# $tag: //p" "$f"
	done | sed "s/KERNEL/$T_KEY/g" | sort -t: -k1,1n -k2,2n
}
