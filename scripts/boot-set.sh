#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# scripts/boot-set.sh CONF.bconf -o DIR --repeat N [boot options] - boot
# CONF N times with `bin/boottrace boot` and write the set of bundles
# DIR/1 .. DIR/N that `trace-analysis diff` (boottrace diff) compares as
# one side.  The boots go to DIR.partial/ first; DIR is replaced only when
# all N succeeded, so a failed or interrupted run leaves the old set.
# Any other option is passed to every `boottrace boot` (see its --help).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)

usage()
{
	cat <<'USAGE'
usage: scripts/boot-set.sh CONF.bconf -o DIR --repeat N [boot options]

Boot CONF N times (bin/boottrace boot) and write the set DIR/1 .. DIR/N,
each a normal bundle, for `boottrace diff SET_A SET_B`.  DIR is replaced
only when every boot produced a bundle.  Other options go to each boot
(bin/boottrace boot --help).
USAGE
}

die() { echo "boot-set.sh: $*" >&2; exit 2; }

conf='' out='' n='' pass=()
while [ $# -gt 0 ]; do
	case $1 in
	-h|--help) usage; exit 0 ;;
	-o|--output) [ $# -ge 2 ] || die "$1 needs a directory"; out=$2; shift 2 ;;
	--repeat) [ $# -ge 2 ] || die "--repeat needs a number"; n=$2; shift 2 ;;
	-*)
		# boot options with a value take it along
		case $1 in
		--tree|--kernel|--kver|--initrd|--accel|--rtc|--append|--timeout|--smp|--memory|--delivery)
			[ $# -ge 2 ] || die "$1 needs a value"
			pass+=("$1" "$2"); shift 2 ;;
		*) pass+=("$1"); shift ;;
		esac ;;
	*)
		[ -z "$conf" ] || die "one CONF.bconf only ('$conf', then '$1')"
		conf=$1; shift ;;
	esac
done
[ -n "$out" ] || die "needs -o DIR (see --help)"
[[ "$n" =~ ^[1-9][0-9]*$ ]] || die "--repeat N needs a positive number, not '${n}'"
[ -n "$conf" ] || [[ " ${pass[*]} " == *" --initrd "* ]] || die "needs CONF.bconf (see --help)"

tmp=$out.partial
rm -rf "$tmp"
mkdir -p "$tmp"
for ((k = 1; k <= n; k++)); do
	echo "boot-set.sh: boot $k of $n" >&2
	if ! "$top/bin/boottrace" boot ${conf:+"$conf"} -o "$tmp/$k" "${pass[@]}"; then
		echo "boot-set.sh: boot $k of $n failed; $out left as it was, boots so far in $tmp" >&2
		exit 1
	fi
done
rm -rf "$out.old"
[ ! -e "$out" ] || mv "$out" "$out.old"
mv "$tmp" "$out"
rm -rf "$out.old"
echo "boot-set.sh: $n bundles in $out" >&2
