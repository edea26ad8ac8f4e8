#!/bin/bash
# The series on linux-source-6.12 (kernel/series-6.12): the hostile-input
# boots on the KASAN+UBSAN kernel (15-sanitize.t)
# alone: boots the sanitizer kernel (tests/run.sh, suite_series)
K_TREE=6.12 exec "$(dirname "$0")/15-sanitize.t"
