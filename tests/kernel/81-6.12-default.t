#!/bin/bash
# The series on linux-source-6.12 (kernel/series-6.12): examples/default.bconf
# booted with the 6.12 kernel, every setting applied (tests/boot/10-default.t).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
bz=$("$top/kernel/build.sh" --tree 6.12 2>/dev/null | tail -n1)
if [ -z "$bz" ]; then
	echo "Bail out! the 6.12 kernel did not build (kernel/build.sh --tree 6.12)"
	exit 1
fi
BOOTTRACE_TEST_KERNEL=$bz exec "$top/tests/boot/10-default.t"
