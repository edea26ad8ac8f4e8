#!/bin/bash
# tests/system/debs-dir.sh [--store DIR] - the cache directory of the
# boottrace .debs of this tree for tests/system:
# $BOOTTRACE_CACHE/system/debs-<key>, the key a hash of the tree's files as
# git sees them (tracked and new, not ignored) without tests/system/
# (nothing in it is packaged).  Prints it; with --store DIR first copies
# DIR/*.deb (tests/package/run.sh's output) into it, replacing it at once,
# and removes all but the 5 newest such directories.
# The package suite of tests/run.sh stores its .debs there, so that the
# system suite of the same `make check` does not build them again.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../../scripts/lib.sh
. "$top/scripts/lib.sh"

key=$(cd "$top" && git ls-files -z --cached --others --exclude-standard -- . ':!tests/system' |
	xargs -0 sha256sum 2>/dev/null | sha256sum | cut -c1-16)
dir=$(bt_cache_dir)/system/debs-$key
if [ "${1:-}" = --store ]; then
	[ $# -eq 2 ] || bt_die "usage: $0 [--store DIR]"
	ls "$2"/boottrace_*.deb >/dev/null 2>&1 || bt_die "$2: no boottrace .debs to store"
	mkdir -p "$dir.tmp.$$"
	cp "$2"/*.deb "$dir.tmp.$$/"
	rm -rf "$dir"
	mv "$dir.tmp.$$" "$dir"
	# One directory per tree state: keep the 5 newest, so that the cache
	# does not grow by a set of packages per commit.
	find "$(dirname "$dir")" -mindepth 1 -maxdepth 1 -type d -name 'debs-*' \
		! -name '*.tmp.*' -printf '%T@ %p\n' | sort -rn | tail -n +6 |
		cut -d' ' -f2- | while IFS= read -r old; do rm -rf "$old"; done
fi
printf '%s\n' "$dir"
