#!/bin/bash
# The series on linux-source-6.12 (kernel/series-6.12): module events set
# at boot, applied on load and reload (60-module.t)
K_TREE=6.12 exec "$(dirname "$0")/60-module.t"
