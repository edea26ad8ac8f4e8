#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tests/compat/run.sh - run the packaged tree's own
# tools/bootconfig/test-bootconfig.sh, unchanged, against our bootconfig.
set -euo pipefail

BT_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=scripts/lib.sh disable=SC1091
. "$BT_TOP/scripts/lib.sh"

usage()
{
	cat <<EOF
Usage: tests/compat/run.sh [--bin PATH] [--tree 6.1|6.12] [--ref] [--strict] [--keep] [--help]

Runs tools/bootconfig/test-bootconfig.sh of the extracted packaged tree
(\$BOOTTRACE_CACHE/trees/...) without modifying or copying it: the script
is executed in place with a temporary working directory that holds a
symlink "bootconfig" to the binary under test and a symlink "samples" to
the tree's samples directory, and that directory as its argument.

  --bin PATH   binary under test (default: bootconfig/build/bootconfig,
               built with make -C bootconfig)
  --ref        test the tree's own tool instead (harness self-check)
  --tree T     tree to take the script from (default 6.1)
  --keep       keep the working directory and print its path
  --strict     do not set BOOTCONFIG_ALLOW_OVERSIZE=1 for our binary

The script's "Max filesize check" applies 32766 bytes + NUL, which after
padding gives a trailer the kernel refuses (size >= 32767).  Our bootconfig
refuses to write that unless BOOTCONFIG_ALLOW_OVERSIZE=1, which this runner
sets for our binary (and says so); with --strict that one case must fail.

Prints every check of the script, then "N passed, N failed".
EOF
}

bin=
tree=6.1
keep=0
ref=0
strict=0
while [ $# -gt 0 ]; do
	case "$1" in
	--bin) [ $# -ge 2 ] || bt_die "--bin needs a path"; bin=$2; shift 2 ;;
	--tree) [ $# -ge 2 ] || bt_die "--tree needs 6.1 or 6.12"; tree=$2; shift 2 ;;
	--ref) ref=1; shift ;;
	--keep) keep=1; shift ;;
	--strict) strict=1; shift ;;
	-h | --help) usage; exit 0 ;;
	*) usage >&2; bt_die "unknown argument '$1'" ;;
	esac
done

tree=$(bt_tree_series "$tree")
if [ "$ref" = 1 ]; then
	bin=$("$BT_TOP/scripts/ref-bootconfig.sh" --tree "$tree")
elif [ -z "$bin" ]; then
	bt_log "building bootconfig (make -C bootconfig)"
	make -s -C "$BT_TOP/bootconfig" >&2 || bt_die "make -C bootconfig failed"
	bin="$BT_TOP/bootconfig/build/bootconfig"
fi
[ -x "$bin" ] || bt_die "$bin is not an executable (build it or pass --bin)"
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")

src=$(bt_tree_dir "$tree")
script="$src/tools/bootconfig/test-bootconfig.sh"
[ -f "$script" ] || bt_die "$script missing in the extracted tree"

work=$(mktemp -d "${TMPDIR:-/tmp}/bt-compat.XXXXXX")
if [ "$keep" = 1 ]; then
	bt_log "keeping $work"
else
	trap 'rm -rf "$work"' EXIT
fi
ln -s "$bin" "$work/bootconfig"
ln -s "$src/tools/bootconfig/samples" "$work/samples"

bt_log "running $script against $bin"
if [ "$ref" = 0 ] && [ "$strict" = 0 ]; then
	bt_log "with BOOTCONFIG_ALLOW_OVERSIZE=1 (upstream's max-size case writes a trailer the kernel refuses)"
	export BOOTCONFIG_ALLOW_OVERSIZE=1
fi
rc=0
(cd "$work" && sh "$script" "$work") >"$work/log" 2>&1 || rc=$?
cat "$work/log"

pass=$(grep -c '\[OK\]$' "$work/log" || true)
fail=$(grep -c '\[NG\]$' "$work/log" || true)
summary_pass=$(sed -n 's/^# of Passed: //p' "$work/log")
summary_fail=$(sed -n 's/^# of Failed: //p' "$work/log")
# The script must have run to its summary and agree with our count.
if [ -z "$summary_pass" ] || [ "$summary_pass" != "$pass" ] ||
	[ "$summary_fail" != "$fail" ]; then
	echo "compat: test-bootconfig.sh did not complete (summary '$summary_pass'/'$summary_fail')"
	fail=$((fail + 1))
fi
if [ "$rc" -ne 0 ] && [ "$fail" -eq 0 ]; then
	echo "compat: test-bootconfig.sh exited $rc"
	fail=1
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
