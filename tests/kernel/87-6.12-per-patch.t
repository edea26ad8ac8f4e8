#!/bin/bash
# The series on linux-source-6.12 (kernel/series-6.12): every prefix of
# series-6.12 builds and boots (05-per-patch.t)
K_TREE=6.12 exec "$(dirname "$0")/05-per-patch.t"
