#!/bin/bash
# The series on linux-source-6.12 (kernel/series-6.12): hostile trailers
# (10-trailer.t)
K_TREE=6.12 exec "$(dirname "$0")/10-trailer.t"
