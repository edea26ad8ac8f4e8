#!/bin/bash
# One broken config per lint rule (tests/lint/cases/RULE.bconf): the lint
# prints exactly the "# expect:" diagnostics (LINE:COL: severity: message
# [rule]) with the test kernel's knowledge, and exactly the
# "# expect-nokernel:" ones without it; "# expect-series:" and
# "# expect-noseries:" lines apply when the kernel has (or lacks) the
# boottrace series; "# expect-modpatch:" and "# expect-nomodpatch:" when it
# has (or lacks) the module-events patch.  The exit status follows: 1 with
# an error, else 0.  Each case expects its own rule's diagnostic ([RULE]) in
# one of its expect lines.
set -uo pipefail
. "$(dirname "$0")/tap.sh"

t_lint_setup
cases=("$BT_TOP"/tests/lint/cases/*.bconf)
t_plan $((5 * ${#cases[@]} + 11))
if [ "$T_LONG" = yes ]; then series=expect-series; else series=expect-noseries; fi
if grep -q '^series=.*Apply-the-settings-of-module-events' "$T_KN/info"; then
	modpatch=expect-modpatch
else
	modpatch=expect-nomodpatch
fi

# lint_run FILE [ARGS]: GOT = the diagnostics without the file name, LRC.
lint_run()
{
	local f=$1
	shift
	LRC=0
	"$T_LINT" -q "$@" "$f" >"$T_TMP/out" 2>"$T_TMP/err" || LRC=$?
	GOT=$(sed "s|^$f:||" "$T_TMP/out")
}

want_rc()
{
	if grep -q ': error: ' <<<"$1"; then echo 1; else echo 0; fi
}

for f in "${cases[@]}"; do
	rule=$(basename "$f" .bconf)
	t_grep "$f" "^# expect[a-z-]*: .*\[$rule\]\$" "$rule: an expect line names a [$rule] diagnostic"
	want=$(t_lint_expect "$f" expect "$series" "$modpatch")
	lint_run "$f" --knowledge "$T_KN"
	t_is "$GOT" "$want" "$rule: diagnostics with kernel $T_KEY"
	t_is "$LRC" "$(want_rc "$want")" "$rule: exit status with the kernel"
	want=$(t_lint_expect "$f" expect-nokernel)
	lint_run "$f"
	t_is "$GOT" "$want" "$rule: diagnostics without a kernel"
	t_is "$LRC" "$(want_rc "$want")" "$rule: exit status without a kernel"
done

# The size limit: a config the kernel may refuse for its size.
{
	echo 'kernel.trace_clock = global'
	head -c 32736 /dev/zero | tr '\0' '#'
	echo
} >"$T_TMP/size.bconf"
lint_run "$T_TMP/size.bconf" --knowledge "$T_KN"
t_is "$GOT" "2:32735: error: the config is 32765 bytes: with its NUL and padding the kernel may refuse it (keep it to 32762 bytes; the text from here on is too much) [size]" \
	"size: diagnostic at the first byte over the limit"
t_is "$LRC" 1 "size: exit status 1"

# UTF-16, with and without a byte order mark: one finding, how to convert.
for enc in UTF-16 UTF-16LE; do
	iconv -t "$enc" <<<'kernel.trace_clock = global' >"$T_TMP/$enc.bconf"
	lint_run "$T_TMP/$enc.bconf" --knowledge "$T_KN"
	if [ "$enc" = UTF-16 ]; then n=3; else n=1; fi
	t_is "$GOT" "1:1: error: the file is UTF-16: the kernel reads bytes, up to the first NUL byte (here $n of the $(stat -c %s "$T_TMP/$enc.bconf") bytes): convert the file to UTF-8/ASCII (iconv -f $enc -t UTF-8) [encoding]" \
		"encoding: $enc is named, with the conversion"
	iconv -f "$enc" -t UTF-8 "$T_TMP/$enc.bconf" >"$T_TMP/$enc.utf8.bconf"
	lint_run "$T_TMP/$enc.utf8.bconf" --knowledge "$T_KN"
	t_is "$GOT:$LRC" ":0" "encoding: the conversion it names gives a clean config ($enc)"
done

# The source is quoted as bootconfig quotes it (one printer): on a 16 KB
# line, the same window around the column and the same caret.
{ printf 'a = 1'; for _ in $(seq 8200); do printf ',1'; done; echo; } >"$T_TMP/nodes.bconf"
make -s -C "$BT_TOP/bootconfig" build/bootconfig >&2
"$T_LINT" "$T_TMP/nodes.bconf" >"$T_TMP/lint.out" 2>/dev/null
"$BT_TOP/bootconfig/build/bootconfig" "$T_TMP/nodes.bconf" 2>"$T_TMP/bc.err"
t_is "$(sed -n 2,3p "$T_TMP/lint.out")" "$(sed -n 2,3p "$T_TMP/bc.err")" \
	"a wide line: the lint quotes the window bootconfig quotes"
t_ok "... a window of at most 106 columns with its \"...\" mark" \
	grep -qx '[.][.][.][,1]\{1,103\}' "$T_TMP/lint.out"

# --json carries the same findings.
"$T_LINT" --json --knowledge "$T_KN" "$BT_TOP/tests/lint/cases/tracer.bconf" >"$T_TMP/j" 2>&1
t_ok "--json: schema, kernel, one error with its place and rule" \
	grep -q "\"schema\":\"boottrace-lint-1\",\"file\":\"[^\"]*tracer.bconf\",\"kernel\":\"$T_KEY\",\"skipped\":null,\"errors\":1,\"warnings\":0,\"diagnostics\":\[{\"line\":2,\"col\":30,\"severity\":\"error\",\"rule\":\"tracer\",\"key\":\"ftrace.instance.bad.tracer\"" "$T_TMP/j"
# Without a kernel a note names the skipped checks.
"$T_LINT" "$BT_TOP/tests/lint/cases/tracer.bconf" >/dev/null 2>"$T_TMP/err"
t_grep "$T_TMP/err" 'note: skipped checks of events, .*tracers' "without a kernel: a note names the skipped checks"
# Usage errors exit 2.
"$T_LINT" >/dev/null 2>&1
t_is "$?" 2 "no config: exit status 2"
t_done
