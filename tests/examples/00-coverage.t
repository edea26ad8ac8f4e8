#!/bin/bash
# examples/coverage.sh against the target tree, and against deliberately
# broken copies of the table, the examples and the tree: it must name
# each problem.
# shellcheck disable=SC2016 # backquotes of the Markdown table, not expansions
set -uo pipefail
. "$(dirname "$0")/../lib/tap.sh"

cov=$BT_TOP/examples/coverage.sh
readme=$BT_TOP/examples/README.md
t_plan 13

t_ok "coverage table complete against linux-source-6.1 + kernel/series" "$cov"
t_ok "coverage.sh --help" "$cov" --help

# run NAME ARGS...: coverage.sh ARGS; output in $T_TMP/NAME, rc in R
run()
{
	local name=$1
	shift
	R=0
	"$cov" "$@" >"$T_TMP/$name" 2>&1 || R=$?
}

# A copy of the examples with an edited README.
ex=$T_TMP/ex
mkdir -p "$ex"
cp "$BT_TOP"/examples/*.bconf "$ex/"

grep -v '^| `ftrace.\[instance.INSTANCE.\]cpumask`' "$readme" >"$ex/README.md"
run missing --readme "$ex/README.md"
t_is "$R" 1 "a missing row fails"
t_grep "$T_TMP/missing" '^coverage: missing row: ftrace\.\[instance\.INSTANCE\.\]cpumask ' "missing row named"
t_grep "$T_TMP/missing" "^coverage: no row covers 'cpumask'" "trace_boot.c word without a row named"

sed 's/^<!-- coverage:end -->$/| `ftrace.[instance.INSTANCE.]nosuchkey` | instances.bconf | |\n&/' \
	"$readme" >"$ex/README.md"
run stale --readme "$ex/README.md"
t_is "$R" 1 "a stale row fails"
t_grep "$T_TMP/stale" '^coverage: stale row: ftrace\.\[instance\.INSTANCE\.\]nosuchkey ' "stale row named"

# The row names an example that does not use the key.
sed 's/^\(| `ftrace.\[instance.INSTANCE.\]cpumask` | \)instances.bconf/\1kprobes.bconf/' \
	"$readme" >"$ex/README.md"
run unused --readme "$ex/README.md"
t_grep "$T_TMP/unused" '^coverage: row ftrace\.\[instance\.INSTANCE\.\]cpumask: kprobes\.bconf has no key matching' \
	"a row whose example lacks the key is named"

# The example loses the key.
cp "$readme" "$ex/README.md"
grep -v 'cpumask' "$BT_TOP/examples/instances.bconf" >"$ex/instances.bconf"
run dropped --readme "$ex/README.md"
t_is "$R" 1 "an example without its key fails"
t_grep "$T_TMP/dropped" 'cpumask: instances\.bconf has no key matching' "the example is named"

# A tree whose trace_boot.c and document know one more key.
# shellcheck source=../../scripts/lib.sh
src=$(. "$BT_TOP/scripts/lib.sh" && bt_tree_dir 6.1)
tree=$T_TMP/tree
mkdir -p "$tree/kernel/trace" "$tree/Documentation/trace"
cp "$src/Documentation/trace/boottime-trace.rst" "$tree/Documentation/trace/"
{
	cat "$src/kernel/trace/trace_boot.c"
	printf 'static void __init x(struct xbc_node *node)\n{\n'
	printf '\txbc_node_find_value(node, "newopt", NULL);\n}\n'
} >"$tree/kernel/trace/trace_boot.c"
run newword --tree "$tree"
t_grep "$T_TMP/newword" "^coverage: no row covers 'newopt'" "a new trace_boot.c key word is named"
printf '\nftrace.[instance.INSTANCE.]newopt = X\n   New.\n' \
	>>"$tree/Documentation/trace/boottime-trace.rst"
run newdoc --tree "$tree"
t_grep "$T_TMP/newdoc" '^coverage: missing row: ftrace\.\[instance\.INSTANCE\.\]newopt ' \
	"a new documented key is named"
t_is "$R" 1 "the tree with a new key fails"
t_done
