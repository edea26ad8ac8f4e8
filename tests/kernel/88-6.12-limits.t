#!/bin/bash
# The series on linux-source-6.12 (kernel/series-6.12): parser and size
# limits at their edges (20-limits.t)
K_TREE=6.12 exec "$(dirname "$0")/20-limits.t"
