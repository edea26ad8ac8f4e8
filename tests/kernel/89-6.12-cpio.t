#!/bin/bash
# The series on linux-source-6.12 (kernel/series-6.12): the bootconfig
# from the early cpio (30-cpio.t)
K_TREE=6.12 exec "$(dirname "$0")/30-cpio.t"
