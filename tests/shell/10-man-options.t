#!/bin/bash
# tests/shell/10-man-options.t - the man pages against the commands' --help:
# bin/boottrace.1 has one `.SS VERB` section per verb of bin/boottrace's
# table BT_VERBS (and none for a verb that is gone); for every verb that is
# a shell script, every long option that `boottrace VERB --help` prints is
# in that verb's section (--help itself is documented once, at the head of
# COMMANDS); every long option of `boottrace-lint --help` (the program is
# built first, as bt_tool does) is in boottrace-lint.1.  The compiled
# verbs (collect, report, diff, check, bootconfig) have their own man
# pages, which the section refers to.  TAP.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../lib/tap.sh
. "$top/tests/lib/tap.sh"
man=$top/bin/boottrace.1
lint_man=$top/bootconfig/lint/boottrace-lint.1

# plain FILE: the man source with the escapes of option names undone
# (\- to -, no font changes, no \% or \&), one line per source line
plain()
{
	sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\[%&]//g' "$1"
}
# long_opts: the long options in stdin (--name, not part of a longer word),
# sorted, once each
long_opts()
{
	grep -oE '(^|[^[:alnum:]-])--[[:alnum:]][[:alnum:]-]*' |
		sed -E 's/^[^-]*--/--/; s/-+$//' | sort -u || true
}
# missing_in FILE: the options of stdin that FILE does not mention
missing_in()
{
	local opt re text

	text=$(<"$1")
	while read -r opt; do
		re="(^|[^[:alnum:]-])$opt([^[:alnum:]-]|\$)"
		[[ $text =~ $re ]] || printf '%s\n' "$opt"
	done
}

# none WHAT DESC: ok when WHAT (lines) is empty, else not ok with WHAT as
# the diagnostics (tap.sh's t_is would end the file at its first failure:
# its diff's status 1 under pipefail)
none()
{
	if [ -z "$1" ]; then
		t_result 0 "$2"
	else
		t_result 1 "$2"
		printf '%s\n' "$1" | sed 's/^/# /'
	fi
}

# the verbs: "VERB|PROGRAM|..." lines of BT_VERBS; PROGRAM tool:... is a
# compiled program, anything else a script
verbs=() scripts=()
while IFS='|' read -r verb prog _; do
	[ -n "$verb" ] || continue
	verbs+=("$verb")
	[[ $prog == tool:* ]] || scripts+=("$verb")
done < <(sed -n "/^BT_VERBS='\$/,/^'\$/{/|/p}" "$top/bin/boottrace")

# the sections of boottrace.1: $T_TMP/sec/NAME, the plain text from its
# .SS line to the next .SS or .SH; their names in order in $T_TMP/sections
mkdir "$T_TMP/sec"
plain "$man" | awk -v dir="$T_TMP/sec" '
	/^\.SH/ { out = ""; next }
	/^\.SS/ { name = $0; sub(/^\.SS[ \t]+/, "", name); gsub(/"/, "", name)
		print name; out = dir "/" name; printf "" > out; next }
	out != "" { print > out }' >"$T_TMP/sections"

t_plan $((3 + ${#scripts[@]}))

t_ok "bin/boottrace has verbs, some of them scripts" \
	test "${#verbs[@]}" -gt 0 -a "${#scripts[@]}" -gt 0
# comm: "<TAB>NAME" a verb without a section, "NAME" a section that is no
# verb (or a second one)
none "$(comm -3 <(sort "$T_TMP/sections") <(printf '%s\n' "${verbs[@]}" | sort))" \
	"boottrace.1 has one section (.SS VERB) per verb of BT_VERBS"

for verb in "${scripts[@]}"; do
	rc=0
	help=$("$top/bin/boottrace" "$verb" --help 2>&1) || rc=$?
	opts=$(long_opts <<<"$help" | grep -vx -- --help || true)
	if [ "$rc" != 0 ] || [ -z "$opts" ] || ! [ -f "$T_TMP/sec/$verb" ]; then
		t_result 1 "$verb: every option of its --help is in its boottrace.1 section"
		echo "# --help exited $rc, options: ${opts:-none}, section: $([ -f "$T_TMP/sec/$verb" ] && echo yes || echo no)"
		continue
	fi
	none "$(missing_in "$T_TMP/sec/$verb" <<<"$opts")" \
		"$verb: every option of its --help is in its boottrace.1 section"
done

# boottrace-lint: made first (as bt_tool does in a checkout)
lint=$(. "$top/scripts/lib.sh" && bt_tool bootconfig boottrace-lint) || lint=
rc=0
help=$("${lint:-false}" --help 2>&1) || rc=$?
opts=$(long_opts <<<"$help")
plain "$lint_man" >"$T_TMP/lint.man"
if [ -z "$lint" ] || [ "$rc" != 0 ] || [ -z "$opts" ]; then
	t_result 1 "every option of boottrace-lint --help is in boottrace-lint.1"
	echo "# boottrace-lint: '${lint:-not built}', --help exited $rc, options: ${opts:-none}"
else
	none "$(missing_in "$T_TMP/lint.man" <<<"$opts")" \
		"every option of boottrace-lint --help is in boottrace-lint.1"
fi

t_done
