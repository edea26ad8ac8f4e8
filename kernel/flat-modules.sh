#!/bin/bash
# kernel/flat-modules.sh - the modules a kernel build made, in one directory.
#
# Called by kernel/build.sh for out/modules/, read by insmod in the tests
# and by kernel/knowledge.sh (the trace events of modules).
set -euo pipefail

usage()
{
	cat <<'USAGE'
usage: kernel/flat-modules.sh OBJDIR DEST

Copies each module kbuild built in the object directory OBJDIR, as its
modules.order lists them (x.ko on 6.1, x.o for x.ko on 6.12), to
DEST/NAME.ko, without debug information (objcopy --strip-debug: the code,
the symbols and every other section stay, which is what insmod and
kernel/knowledge.sh read; a Debian-config build's 4,023 modules are 4.8 GB
with it, 364 MB without).  Only those: `make bindeb-pkg` leaves other
files named *.ko under OBJDIR/debian (stripped and signed copies, and the
-dbg package's files, which hold only debug information).  DEST must be
an empty or new directory.  Prints the number of modules copied.  Fails,
naming the module, when one listed is missing or two have the same file
name.
USAGE
}

die()
{
	printf 'boottrace: flat-modules: %s\n' "$*" >&2
	exit 1
}

case "${1:-}" in
-h | --help) usage; exit 0 ;;
esac
[ $# -eq 2 ] || { usage >&2; exit 2; }
obj=$1 dest=$2
order=$obj/modules.order
[ -f "$order" ] || die "$order not found (not a kbuild object directory with modules)"
mkdir -p "$dest"
[ -z "$(ls -A "$dest")" ] || die "$dest is not empty"

declare -A from=()
n=0
while IFS= read -r m; do
	[ -n "$m" ] || continue
	m=${m%.o}
	m=${m%.ko}.ko
	name=${m##*/}
	[ -z "${from[$name]+x}" ] ||
		die "two modules named $name: ${from[$name]} and $m ($order)"
	from[$name]=$m
	[ -f "$obj/$m" ] || die "$obj/$m: listed in $order but not built"
	objcopy --strip-debug "$obj/$m" "$dest/$name" ||
		die "objcopy --strip-debug $obj/$m failed"
	n=$((n + 1))
done <"$order"
printf '%d\n' "$n"
