#!/bin/bash
# The series on linux-source-6.12 (kernel/series-6.12): module loaded
# during the initcalls, and the tc/*.tc cases, on the sanitizer kernel
# (62-early-module.t)
# alone: boots the sanitizer kernel (tests/run.sh, suite_series)
K_TREE=6.12 exec "$(dirname "$0")/62-early-module.t"
