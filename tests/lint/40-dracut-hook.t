#!/bin/bash
# The 95bootconfig dracut module lints the config before it writes an
# image (bcm_build_text -> bcm_lint): errors fail the build and name the
# file and line of the user's file (not of the concatenation), warnings are
# printed and do not fail.  No dracut run needed: the module's helper is
# called directly, as module-setup.sh and the kernel hooks do.
set -uo pipefail
. "$(dirname "$0")/../lib/tap.sh"
# shellcheck source=../../dracut-module/95bootconfig/bootconfig-lib.sh
. "$BT_TOP/dracut-module/95bootconfig/bootconfig-lib.sh"

make -s -C "$BT_TOP/bootconfig" build/bootconfig build/boottrace-lint >&2 ||
	{ echo "Bail out! cannot build bootconfig and boottrace-lint"; exit 1; }
tool=$BT_TOP/bootconfig/build/bootconfig
t_plan 7

printf 'kernel.trace_clock = global\n' >"$T_TMP/a.bconf"
printf '# second file\nftrace.evnt.sched.sched_switch.enable\n' >"$T_TMP/b.bconf"
printf 'ftrace.event.sched.sched_switch.enable = 0\n' >"$T_TMP/w.bconf"

rc=0
bcm_build_text "$tool" "$T_TMP/out1" "$T_TMP/a.bconf" "$T_TMP/b.bconf" 2>"$T_TMP/err1" || rc=$?
sed 's/^/# /' "$T_TMP/err1"
t_is "$rc" 1 "a lint error fails the build"
t_grep "$T_TMP/err1" "^$T_TMP/b.bconf:2:8: error: unknown key 'evnt': .*did you mean 'event'\\? \\[unknown-key\\]\$" \
	"the error names the user's file, line and column"
t_grep "$T_TMP/err1" 'boottrace-lint found errors in the bootconfig files' "and says what happened"

rc=0
bcm_build_text "$tool" "$T_TMP/out2" "$T_TMP/a.bconf" "$T_TMP/w.bconf" 2>"$T_TMP/err2" || rc=$?
t_is "$rc" 0 "a warning does not fail the build"
t_grep "$T_TMP/err2" "^$T_TMP/w.bconf:1:42: warning: 'enable' takes no value" "the warning is printed"
t_is "$(cat "$T_TMP/out2")" "$(cat "$T_TMP/a.bconf" "$T_TMP/w.bconf")" "the text is built"

rc=0
BOOTTRACE_LINT=/nonexistent bcm_build_text "$tool" "$T_TMP/out3" "$T_TMP/a.bconf" 2>"$T_TMP/err3" || rc=$?
t_ok "without boottrace-lint: built, with a note" \
	sh -c "[ $rc = 0 ] && grep -q 'not found: config not linted' '$T_TMP/err3'"
t_done
