#!/bin/bash
# tests/install/run.sh - `make install` into a staging DESTDIR, then build
# and run a program against the installed header, library and .pc file,
# both shared and static, and check the man pages and commands; run every
# `boottrace` verb from the staged install with the checkout hidden
# (installed.sh, under a tmpfs mounted over the checkout in a private mount
# namespace); `make uninstall` then removes every file.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
# shellcheck source=../lib/check.sh
. "$top/tests/lib/check.sh"

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

# --- boottrace from the install, without the checkout -------------------
check "boottrace installed" test -x "$root/bin/boottrace"
check "dracut module installed" \
	test -x "$stage/usr/lib/dracut/modules.d/95bootconfig/module-setup.sh"
check "no checkout path in the installed text files" sh -c "! grep -rlIF '$top' '$stage/usr'"
for m in boottrace bootconfig boottrace-lint trace-analysis; do
	check "man page $m(1) renders without warnings" sh -c "test -f '$root/share/man/man1/$m.1' &&
		! groff -man -ww -z '$root/share/man/man1/$m.1' 2>&1 | grep -q ."
done
check "the collect unit runs the installed boottrace" grep -qx \
	"ExecStart=/usr/local/bin/boottrace boots --save" "$root/lib/systemd/system/boottrace-collect.service"
check "its settings file is installed" test -f "$stage/etc/default/boottrace"
comp=$root/share/bash-completion/completions/boottrace
check "bash completion is clean for shellcheck" shellcheck -s bash "$comp"
check "bash completion completes verbs" bash -c ". '$comp'
	COMP_WORDS=(boottrace rep); COMP_CWORD=1; _boottrace; [ \"\${COMPREPLY[*]}\" = report ]"

rc=0
out=$("$top/tests/install/installed.sh" "$root") || rc=$?
printf '%s\n' "$out"
check_add "$out" "$rc"

make -s -C "$top" uninstall PREFIX=/usr/local DESTDIR="$stage" >/dev/null
check "make uninstall removes every installed file" \
	sh -c "! find '$stage/usr' '$stage/etc' ! -type d | grep -q ."

check_done
