#!/bin/bash
# Every example of examples/ (a NAME.bconf with a NAME.expect) is lint
# clean against the test kernel, boots, and meets its expectations
# (`boottrace check`).  One boot per example, ~20-60 s each under QEMU TCG.
# examples/module-events.* has its own test (it needs module events).
# BOOTTRACE_TEST_KERNEL=BZIMAGE boots that image (see tests/boot/tap.sh);
# EXAMPLES="kprobes triggers" limits the run to those examples.  An
# example's NAME.boot holds the boot options it needs (--flavour systemd for
# the ones that trace early user space).
set -uo pipefail
. "$(dirname "$0")/../boot/tap.sh"

bt=$BT_TOP/bin/boottrace
make -s -C "$BT_TOP/trace-analysis" >&2 || { echo "Bail out! trace-analysis build failed"; exit 1; }
ta=$BT_TOP/trace-analysis/build/trace-analysis

names=()
if [ -n "${EXAMPLES:-}" ]; then
	read -r -a names <<<"$EXAMPLES"
else
	for e in "$BT_TOP"/examples/*.expect; do
		n=$(basename "$e" .expect)
		[ "$n" != module-events ] || continue
		names+=("$n")
	done
fi
[ ${#names[@]} -gt 0 ] || { echo "Bail out! no examples"; exit 1; }
t_kernel
t_plan $((${#names[@]} * 3))

# check_ok NAME: boottrace check of the bundle; the unmet lines on failure
check_ok()
{
	local n=$1 rc=0

	"$ta" check "$T_TMP/$n" "$BT_TOP/examples/$n.expect" >"$T_TMP/$n.check" 2>&1 || rc=$?
	t_result "$rc" "$n: meets examples/$n.expect ($(tail -n1 "$T_TMP/$n.check"))"
	[ "$rc" = 0 ] || grep -v '^ok ' "$T_TMP/$n.check" | sed 's/^/# /' | head -n 30
}

for n in "${names[@]}"; do
	conf=$BT_TOP/examples/$n.bconf
	rc=0
	"$bt" lint "${T_KOPTS[@]}" "$conf" >"$T_TMP/$n.lint" 2>&1 || rc=$?
	if [ "$rc" = 0 ] && ! grep -qE ': (error|warning): ' "$T_TMP/$n.lint"; then
		t_result 0 "$n: boottrace lint is clean"
	else
		t_result 1 "$n: boottrace lint is clean (exit $rc)"
		sed 's/^/# /' "$T_TMP/$n.lint" | head -n 20
	fi
	# examples/NAME.boot: the boot options it needs (# comments)
	opts=()
	[ ! -f "$BT_TOP/examples/$n.boot" ] ||
		read -r -a opts <<<"$(grep -v '^#' "$BT_TOP/examples/$n.boot" | tr '\n' ' ')"
	t_boot "$n" "$conf" ${opts[@]+"${opts[@]}"}
	t_is "$T_RC" 0 "$n: boots"
	if [ -f "$T_TMP/$n/metadata" ]; then
		check_ok "$n"
	else
		t_result 1 "$n: meets examples/$n.expect (no bundle)"
	fi
done
t_done
