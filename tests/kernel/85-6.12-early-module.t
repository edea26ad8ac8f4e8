#!/bin/bash
# The series on linux-source-6.12 (kernel/series-6.12): module loaded
# during the initcalls, and the tc/*.tc cases, on the sanitizer kernel
# (62-early-module.t)
K_TREE=6.12 exec "$(dirname "$0")/62-early-module.t"
