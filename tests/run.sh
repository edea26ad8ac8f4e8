#!/bin/bash
# tests/run.sh - run test suites by name and print one tally.
#
#   tests/run.sh [SUITE...]     default: every suite, in pipeline order
#
# Suites: unit (library unit tests, gcc, plain and ASan+UBSan), clang (the
# user-space code under clang -Werror), install (make install + pkg-config,
# every boottrace verb from the install), package (dpkg-buildpackage,
# lintian, the .debs unpacked and run), archive (boottrace-collect.service's
# archive and --boot, on a fake collector), system (a bookworm system
# from mmdebstrap with the packages and the qemu flavour's kernel .debs
# installed inside it, booted three times in QEMU with
# boottrace-collect.service archiving the bundles; tests/system/),
# shell (shellcheck; the man pages against every command's --help,
# tests/shell/), compat (the
# tree's test-bootconfig.sh against our bootconfig), diff (differential
# test against the kernel's parser), kernel (kernel/build.sh, building the
# kernel when it is not cached; the flavours' merged configs), boot (QEMU
# boots, TAP via prove),
# series (the kernel patch series: checkpatch, git am on both trees,
# hostile trailers, limits, early cpio, trace_boot reporting, in QEMU),
# analysis (trace-analysis on real boots), dracut (the delivery module with
# real dracut runs, the kernel hooks, boots), lint (`boottrace lint`: one
# broken config per rule, the clean examples, a boot proving findings
# right, the dracut hook), examples (the coverage table against the tree,
# every example booted and checked).
# Each suite's own output is shown, then its wall and CPU seconds (the CPU
# of every process it started and waited for, QEMU's included); the last
# line is "N passed, N failed" counting suites.  The unit suite runs the
# stages' test programs side by side, and the boot, analysis, lint and
# examples suites their test files (the series suite those that boot no
# sanitizer kernel), BOOTTRACE_TEST_JOBS at a time (default: the number of
# CPUs); every boot has its own timeout, which holds under that load.
# Environment: DIFF_N (configs for the diff suite), BOOTTRACE_TEST_JOBS.
set -euo pipefail

TOP=$(cd "$(dirname "$0")/.." && pwd)
cd "$TOP"

jobs=${BOOTTRACE_TEST_JOBS:-$(nproc)}
all=(unit clang install package archive system shell compat diff kernel boot series analysis dracut lint examples)

# the unit programs of every stage run side by side ($jobs at a time), each
# one's output printed in one piece when it ends (make -O; the Makefile's
# unit-check)
suite_unit() { make -s -j"$jobs" -O unit-check; }
suite_clang()
{
	local s

	for s in bootconfig trace-analysis collect; do
		make -s -j"$jobs" -C "$s" CC=clang B=build-clang all || return 1
	done
}
# Every script and sourced library through shellcheck; then one rule of ours:
# bash's printf and echo write a pipe one line at a time, so under pipefail
# `printf ... | grep -q` fails (status 141) whenever grep -q exits on its
# match before the last write (the CI failure of beb0df1).  Grep a
# here-string or a file instead.  Then tests/shell/: the man pages against
# the commands' --help (it builds boottrace-lint, nothing else).
suite_shell()
{
	local files hazards
	local racy='^[^#]*(^|[^[:alnum:]_])(printf|echo)[[:space:]][^|]*'

	racy+='[|][[:space:]]*grep[[:space:]]+(-[[:alnum:]]*q|--quiet)'
	mapfile -t files < <(git ls-files '*.sh' 'bin/*' '*.t' 'dracut-module/*' \
		'qemu/*' 'kernel/*.sh' '.ci/run' | sort -u |
		while read -r f; do
			[ -f "$f" ] && head -1 "$f" |
				grep -E '^#!.*(ba)?sh|^# shellcheck shell=(ba)?sh' >/dev/null &&
				echo "$f"
		done)
	echo "shellcheck: ${#files[@]} scripts, 8 per run, $jobs runs at a time"
	printf '%s\0' "${files[@]}" | xargs -0 -n 8 -P "$jobs" shellcheck || return 1
	hazards=$(grep -nE "$racy" "${files[@]}" || true)
	if [ -n "$hazards" ]; then
		printf '%s\n' "$hazards"
		echo "printf/echo piped into grep -q: racy under pipefail; grep a here-string or a file"
		return 1
	fi
	tap tests/shell/
}
suite_install() { tests/install/run.sh; }
# package keeps its .debs where the system suite looks for them
suite_package()
{
	local out rc=0

	out=$(mktemp -d)
	BOOTTRACE_PACKAGE_OUT=$out tests/package/run.sh || rc=$?
	[ "$rc" != 0 ] || tests/system/debs-dir.sh --store "$out" >/dev/null || rc=1
	rm -rf "$out"
	return $rc
}
# tap FILE...: prove, verbose, with each file's time (--timer) so that a
# slow file shows in the log
tap() { prove -v --timer "$@"; }
suite_archive() { tap tests/archive/; }
suite_system() { tap tests/system/; }
suite_compat() { tests/compat/run.sh; }
suite_diff() { N="${DIFF_N:-10000}" tests/diff/run.sh; }
# kernel: the two scripts side by side (the cache locks its entries), each
# one's output printed in one piece
suite_kernel()
{
	local rc=0 out build config

	out=$(mktemp -d)
	kernel/test.sh --built >"$out/build" 2>&1 &
	build=$!
	kernel/test-config.sh >"$out/config" 2>&1 &
	config=$!
	wait "$build" || rc=1
	cat "$out/build"
	wait "$config" || rc=1
	cat "$out/config"
	rm -rf "$out"
	return $rc
}
# prove_boots FILE|DIR...: those TAP files, $jobs at a time (the tools they
# build first, so that concurrent files find them up to date)
prove_boots()
{
	make -s -C bootconfig all && make -s -C trace-analysis all &&
		tap -j"$jobs" "$@"
}
suite_boot() { prove_boots tests/boot/; }
# series: the files that boot plain kernels $jobs at a time, then the
# files marked "# alone:" one at a time.  Those boot the KASAN+UBSAN
# kernel: with them two at a time too, the 6.1 sanitizer kernel oopsed
# once in io_apic_modify_irq 12 ms into a boot on the loaded host (a `pc`
# boot of tests/kernel/15-sanitize.t), so the sanitizer boots are only
# trusted with the host to themselves.  Inside a file, plain kernels may
# boot side by side (05-per-patch.t's prefixes).  The kernels the files
# need besides the test kernel are built from the start in the CPU time
# the plain files leave (tests/kernel/prebuild.sh), and done before the
# alone ones.
suite_series()
{
	local f rc=0 plain=() alone=() out pre

	for f in tests/kernel/*.t; do
		if grep -q '^# alone:' "$f"; then
			alone+=("$f")
		else
			plain+=("$f")
		fi
	done
	out=$(mktemp)
	tests/kernel/prebuild.sh >"$out" 2>&1 &
	pre=$!
	prove_boots "${plain[@]}" || rc=1
	wait "$pre" || { echo "# tests/kernel/prebuild.sh failed:"; sed 's/^/# /' "$out"; }
	rm -f "$out"
	[ ${#alone[@]} -eq 0 ] || tap "${alone[@]}" || rc=1
	return $rc
}
# dracut: the files share the host's dracut installation, one at a time
suite_analysis() { prove_boots tests/analysis/; }
suite_dracut() { tap tests/dracut/; }
suite_lint() { prove_boots tests/lint/; }
suite_examples() { prove_boots tests/examples/; }

# cpu_ms: cpu = milliseconds of CPU (user + system) used so far by the finished
# processes this script started (bash's `times`, second line; run in this
# shell, not a subshell, whose children are its own)
cpu_file=$(mktemp)
trap 'rm -f "$cpu_file"' EXIT
cpu_ms()
{
	local line ms=0 re='([0-9]+)m([0-9]+)\.([0-9]{3})s'

	times >"$cpu_file"
	{ read -r line; read -r line; } <"$cpu_file"
	while [[ $line =~ $re ]]; do
		ms=$((ms + BASH_REMATCH[1] * 60000 + 10#${BASH_REMATCH[2]} * 1000 + 10#${BASH_REMATCH[3]}))
		line=${line#*"${BASH_REMATCH[0]}"}
	done
	cpu=$ms
}

[ $# -gt 0 ] || set -- "${all[@]}"
passed=0
failed=0
failures=()
for s in "$@"; do
	declare -F "suite_$s" >/dev/null || { echo "unknown suite '$s'" >&2; exit 2; }
	echo "==== suite $s"
	start=$SECONDS
	cpu_ms
	cpu0=$cpu
	if "suite_$s"; then
		result=PASS
		passed=$((passed + 1))
	else
		result=FAIL
		failed=$((failed + 1))
		failures+=("$s")
	fi
	cpu_ms
	echo "==== suite $s: $result ($((SECONDS - start)) s, CPU $(((cpu - cpu0 + 500) / 1000)) s)"
done
cpu_ms
echo "==== all suites: $SECONDS s, CPU $(((cpu + 500) / 1000)) s on $(nproc) CPUs"
[ $failed -eq 0 ] || echo "failed suites: ${failures[*]}"
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
