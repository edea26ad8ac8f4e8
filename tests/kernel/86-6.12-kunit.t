#!/bin/bash
# The series on linux-source-6.12 (kernel/series-6.12): the parser's KUnit
# suite on the sanitizer kernel (70-kunit.t)
# alone: boots the sanitizer kernel (tests/run.sh, suite_series)
K_TREE=6.12 exec "$(dirname "$0")/70-kunit.t"
