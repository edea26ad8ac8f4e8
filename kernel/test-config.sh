#!/bin/bash
# kernel/test-config.sh - tests of `kernel/build.sh --config-only` and the
# flavours (TAP): Debian's config merged with kernel/configs/debian.config,
# every fragment symbol kept, the report of what differs from Debian's, a
# lost symbol failing with its name; the qemu flavour's config-only run.
# Each merge takes ~1 min (a hard-linked tree, the series, olddefconfig);
# nothing is compiled.  Last line: "N passed, N failed".
set -euo pipefail

top=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
build="$top/kernel/build.sh"
frag="$top/kernel/configs/debian.config"
tree=${1:-6.1}

n=0
pass=0
fail=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

t()
{
	local desc=$1

	shift
	n=$((n + 1))
	if "$@"; then
		pass=$((pass + 1))
		echo "ok $n - $desc"
	else
		fail=$((fail + 1))
		echo "not ok $n - $desc"
		[ ! -f "$work/err" ] || sed 's/^/#   /' "$work/err" | tail -n 15
	fi
}

# Symbols of a fragment or .config as "CONFIG_X=value" (n: not set), sorted.
values()
{
	sed -n -e 's/^\(CONFIG_[A-Za-z0-9_]*=.*\)$/\1/p' \
		-e 's/^# \(CONFIG_[A-Za-z0-9_]*\) is not set$/\1=n/p' "$1" | LC_ALL=C sort
}

# Each of the fragment's symbols has the fragment's value in the .config.
fragment_kept()
{
	local missing

	missing=$(LC_ALL=C comm -23 <(values "$1") <(values "$2"))
	[ -z "$missing" ] || { echo "# not kept: $missing"; return 1; }
}

# --- arguments -----------------------------------------------------------
rc=0
"$build" --flavour bsd --config-only >"$work/out" 2>"$work/err" || rc=$?
t "an unknown flavour is refused" \
	test "$rc" -ne 0 -a ! -s "$work/out" -a -n "$(grep "unknown flavour 'bsd'" "$work/err")"
rc=0
"$build" --deb --config-only >"$work/out" 2>"$work/err" || rc=$?
t "--deb with --config-only is refused" \
	test "$rc" -ne 0 -a -n "$(grep 'exclude each other' "$work/err")"
t "--help describes the flavours" sh -c "'$build' --help | grep -q -- '--flavour debian'"

# debian.config holds the tracing symbols of boottrace.config with the same
# values (LOCALVERSION aside): the two cannot drift apart.
drift=$(LC_ALL=C comm -23 <(values "$frag" | grep -v '^CONFIG_LOCALVERSION=') \
	<(values "$top/kernel/configs/boottrace.config"))
t "debian.config agrees with boottrace.config" test -z "$drift"
[ -z "$drift" ] || echo "# differs: $drift"

# --- the Debian flavour ----------------------------------------------------
rc=0
"$build" --tree "$tree" --flavour debian --config-only --force \
	>"$work/out" 2>"$work/err" || rc=$?
config=$(tail -n1 "$work/out")
t "--flavour debian --config-only merges and exits 0" test "$rc" -eq 0 -a -f "$config"
t "it prints only the .config path on stdout" test "$(wc -l <"$work/out")" -eq 1
t "every fragment symbol is kept" fragment_kept "$frag" "$config"
t "BOOT_CONFIG and BOOTTIME_TRACING are on" \
	sh -c "grep -qx CONFIG_BOOT_CONFIG=y '$config' && grep -qx CONFIG_BOOTTIME_TRACING=y '$config'"
report=$(dirname "$config")/report
t "the report is kept beside the .config" test -s "$report"
t "the report names what the fragment changed in Debian's config" \
	grep -qx 'fragment: CONFIG_BOOT_CONFIG: n -> y' "$report"
# Debian's symbols that the fragment does not set keep Debian's values,
# checked here independently of the report.
debian=$(sed -n 's/^# debian config (\(.*\)) + .*/\1/p' "$report")
t "the report names Debian's config" test -f "$debian"
xz -dc "$debian" >"$work/debian.config"
frag_syms=$(values "$frag" | cut -d= -f1 | paste -sd'|')
lost=$(LC_ALL=C comm -23 <(values "$work/debian.config" | grep -Ev "^($frag_syms)=") \
	<(values "$config"))
changed=$(grep -c '^changed: ' "$report" || true)
# the same symbols, not only as many
t "every Debian symbol not in the fragment is kept or listed as changed" \
	test "$(printf '%s' "$lost" | sed -n 's/=.*//p' | LC_ALL=C sort)" = \
	"$(sed -n 's/^changed: \([^:]*\):.*/\1/p' "$report" | LC_ALL=C sort)"
t "the summary counts them" grep -q "Debian symbols kept; $changed changed;" "$report"
[ -z "$lost" ] || printf "%s\n" "$lost" | sed "s/^/# changed from Debian: /" | head -n 5
t "the report is printed on stderr" grep -q '^summary: ' "$work/err"
rc=0
"$build" --tree "$tree" --flavour debian --config-only >"$work/out2" 2>"$work/err" || rc=$?
t "a rerun reuses the merged config" \
	sh -c "[ $rc -eq 0 ] && cmp -s '$work/out' '$work/out2' && grep -q 'cached config' '$work/err'"

# A fragment that takes a symbol's dependency away: the symbol is lost and
# named, the exit status is non-zero, stdout stays empty.
printf '# CONFIG_KPROBES is not set\n' >"$work/nokprobes.config"
rc=0
"$build" --tree "$tree" --flavour debian --config-only --config "$work/nokprobes.config" \
	>"$work/out" 2>"$work/err" || rc=$?
t "a lost fragment symbol fails the merge and is named" sh -c \
	"[ $rc -ne 0 ] && [ ! -s '$work/out' ] &&
	 grep -q 'CONFIG_KPROBE_EVENTS: wanted y, got' '$work/err'"
# The failed entry holds only its log: drop it.
entry=$(sed -n 's/^boottrace: kernel: full log: \(.*\)\/failed\.log;.*/\1/p' "$work/err")
case "$entry" in */kernels/*-debian-*) rm -rf "$entry" ;; esac

# --- the qemu flavour --------------------------------------------------------
rc=0
"$build" --tree "$tree" --config-only >"$work/out" 2>"$work/err" || rc=$?
config=$(tail -n1 "$work/out")
t "--flavour qemu --config-only merges tinyconfig + the fragments" \
	sh -c "[ $rc -eq 0 ] && grep -qx 'CONFIG_LOCALVERSION=\"-boottrace\"' '$config'"
entry_dir=$(dirname "$(dirname "$config")")
if kdir=$("$build" --tree "$tree" --print-dir 2>/dev/null); then
	t "... in the cache entry the build uses" test "$(dirname "$kdir")" = "$entry_dir"
else
	t "... in a qemu cache entry (<tree>-<key>)" \
		sh -c "basename '$entry_dir' | grep -Eq '^$tree-[0-9a-f]{16}\$'"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
