#!/bin/bash
# tests/kernel/prebuild.sh - build (or find in the cache) the kernels the
# series suite boots besides the 6.1 test kernel: the 6.12 test kernel,
# then the sanitizer kernels of 6.1 and 6.12 (k_kernel, k_kasan_kernel:
# the same inputs, so the same cache entries, as the test files').
#
# tests/run.sh starts it beside the suite's first files, which boot built
# kernels and build the series prefixes: it builds in the CPU time they
# leave (BOOTTRACE_KERNEL_IDLE=1: SCHED_IDLE, no wait for their builds),
# and a file that needs one of its kernels waits for it.  It is waited for
# before the files that boot a sanitizer kernel, which run with the host
# to themselves.  Only a head start: a kernel it could not build is built
# (and its failure reported) by the test that boots it.  Prints which it
# has; exits 1 when one failed.
set -uo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
export BOOTTRACE_KERNEL_IDLE=1

rc=0
for k in "k_kernel 6.12" "k_kasan_kernel 6.1" "k_kasan_kernel 6.12"; do
	# a subshell each: the helpers exit on failure
	# shellcheck disable=SC2086 # the function and its argument
	if out=$( $k >/dev/null && printf '%s\n' "${K_BZ:-}${K_KASAN_BZ:-}" ); then
		printf '%s: %s\n' "$k" "$out"
	else
		printf '%s: failed\n' "$k"
		tail -qn 3 "$T_TMP"/*.err 2>/dev/null
		rc=1
	fi
done
exit $rc
