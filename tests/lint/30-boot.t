#!/bin/bash
# A boot proves the lint right: kernel-fails.bconf packs settings the lint
# rejects (one per rule of a sample of rules).  `boottrace boot` refuses it
# before booting; booted anyway (--no-lint), the kernel does not apply any
# setting the lint reported as an error (it fails it, or with the
# module-events patch keeps a misspelt event pending forever) and applies
# the one it accepted, as `boottrace check` on the bundle shows
# (boot_status, tracefs, dmesg).
set -uo pipefail
. "$(dirname "$0")/tap.sh"

conf=$BT_TOP/tests/lint/kernel-fails.bconf
t_lint_setup
sample="option event filter-field hist-field kprobe-symbol tracer clock cpumask buffer-size ftrace-filter action"
t_plan $((6 + $(wc -w <<<"$sample")))

"$T_LINT" --json --knowledge "$T_KN" "$conf" >"$T_TMP/lint.json"
t_is "$?" 1 "the lint rejects kernel-fails.bconf (exit 1)"
grep -o '"severity":"error","rule":"[^"]*","key":"[^"]*"' "$T_TMP/lint.json" |
	sed 's/.*"rule":"\([^"]*\)","key":"\([^"]*\)"/\1 \2/' >"$T_TMP/errors"
sed 's/^/# lint error: /' "$T_TMP/errors"
t_is "$(cut -d' ' -f1 "$T_TMP/errors" | tr '\n' ' ' | sed 's/ $//')" "$sample" \
	"one lint error per sampled rule"

# boottrace boot refuses it before booting (no bundle, the lint's findings shown).
t_boot refused "$conf"
t_ok "boottrace boot stops on the lint's errors (exit 1, no bundle)" \
	sh -c "[ $T_RC = 1 ] && ! [ -e '$T_TMP/refused' ] &&
		grep -q 'kernel-fails.bconf:21:11: error: .*functoin' '$T_TMP/refused.err' &&
		grep -q 'boottrace lint found errors' '$T_TMP/refused.err'"

t_boot b "$conf" --no-lint
t_is "$T_RC" 0 "booted anyway with --no-lint"
{
	echo "bootconfig loaded"
	# a histogram is one setting: ftrace.event.G.E.hist[.N]
	sed 's/\(\.hist\(\.[0-9][^.]*\)\?\)\..*/\1/' "$T_TMP/errors" |
		awk '{ print "not applied " $2 "*" }'

	echo "applied ftrace.event.sched.sched_switch.enable"
} >"$T_TMP/expect"
"$BT_TOP/bin/boottrace" check "$T_TMP/b" "$T_TMP/expect" >"$T_TMP/check" 2>&1
sed 's/^/# /' "$T_TMP/check" | cut -c1-200
t_grep "$T_TMP/check" '^ok +bootconfig loaded' "the kernel loaded the config"
while read -r rule key; do
	# the detail shows the settings that matched: "N failed, ..." or
	# "N not applied (...)", never "no setting matches"
	t_grep "$T_TMP/check" "^ok +not applied $key\\* +[0-9]+ (failed|not applied)" \
		"$rule: the kernel did not apply $key"
done < <(sed 's/\(\.hist\(\.[0-9][^.]*\)\?\)\..*/\1/' "$T_TMP/errors")
t_grep "$T_TMP/check" '^ok +applied ftrace.event.sched.sched_switch.enable' \
	"the setting the lint accepted was applied"
t_done
