#!/bin/bash
# tests/install/run.sh - `make install` into a staging DESTDIR, then build
# and run a program against the installed header, library and .pc file,
# both shared and static, and check the man page and command.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
passed=0
failed=0

check()
{
	local name=$1
	shift
	if "$@"; then
		passed=$((passed + 1))
		echo "ok - $name"
	else
		failed=$((failed + 1))
		echo "not ok - $name"
	fi
}

make -s -C "$top" install PREFIX=/usr/local DESTDIR="$stage" >/dev/null
root=$stage/usr/local
check "command installed" test -x "$root/bin/bootconfig"
check "man page installed" test -f "$root/share/man/man1/bootconfig.1"
check "man page renders" sh -c "man -l '$root/share/man/man1/bootconfig.1' >/dev/null 2>&1 || groff -man -Tutf8 '$root/share/man/man1/bootconfig.1' >/dev/null"
check "header installed" test -f "$root/include/bootconfig.h"
check "static library installed" test -f "$root/lib/libbootconfig.a"
check "shared library installed" test -f "$root/lib/libbootconfig.so.0"

cat >"$stage/use.c" <<'C'
#include <bootconfig.h>
#include <string.h>

int main(void)
{
	static const char text[] = "kernel.quiet\nftrace.tracer = nop\n";
	struct bconf *bc;

	if (bconf_parse(text, strlen(text), &bc, NULL))
		return 1;
	if (strcmp(bconf_find_value(bc, NULL, "ftrace.tracer", NULL), "nop"))
		return 1;
	bconf_render_cmdline(bc, "kernel", stdout);
	bconf_free(bc);
	return 0;
}
C
export PKG_CONFIG_PATH="$root/lib/pkgconfig"
export PKG_CONFIG_SYSROOT_DIR="$stage"
flags=$(pkg-config --cflags --libs bootconfig)
check "pkg-config knows the library" test -n "$flags"
# shellcheck disable=SC2086
check "a program builds against the shared library" \
	cc -std=gnu11 -Wall -Werror -o "$stage/use" "$stage/use.c" $flags
check "... and runs" sh -c "LD_LIBRARY_PATH='$root/lib' '$stage/use' | grep -qx 'quiet '"
check "a program builds against the static library" \
	cc -std=gnu11 -Wall -Werror -I"$root/include" -o "$stage/use-static" \
	"$stage/use.c" "$root/lib/libbootconfig.a"
check "... and runs" sh -c "'$stage/use-static' | grep -qx 'quiet '"
check "only bconf_ symbols are exported" sh -c \
	"! nm -D --defined-only '$root/lib/libbootconfig.so.0' | awk '{print \$3}' | grep -v '^bconf_' | grep -q ."

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
