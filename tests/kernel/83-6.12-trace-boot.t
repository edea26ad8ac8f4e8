#!/bin/bash
# The series on linux-source-6.12 (kernel/series-6.12): failed settings in
# error_log and boot_status, long settings (40-trace-boot.t)
K_TREE=6.12 exec "$(dirname "$0")/40-trace-boot.t"
