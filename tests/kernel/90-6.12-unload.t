#!/bin/bash
# The series on linux-source-6.12 (kernel/series-6.12): unloading a module
# whose events have triggers, on the sanitizer kernel (65-unload.t)
# alone: boots the sanitizer kernel (tests/run.sh, suite_series)
K_TREE=6.12 exec "$(dirname "$0")/65-unload.t"
