#!/bin/bash
# tests/install/installed.sh ROOT BUNDLE WANT_L WANT_KDIR WANT_CHECK - every `boottrace`
# verb run from an install in ROOT (PREFIX/), with no checkout to fall back
# on: run.sh copies this file out of the checkout and runs it with a tmpfs
# over the checkout.  Prints TAP-like "ok"/"not ok" lines.
# shellcheck disable=SC2016 # the sh -c scripts expand their own arguments
set -uo pipefail

root=$1 bundle=$2 want_l=$3 want_kdir=$4 want_check=$5
bt=$root/bin/boottrace
share=$root/share/boottrace
PATH=$root/bin:/usr/sbin:/usr/bin:/sbin:/bin
unset BT_TOP
cd /

t()
{
	local name=$1

	shift
	if "$@" >/dev/null 2>&1; then
		echo "ok - installed: $name"
	else
		echo "not ok - installed: $name"
	fi
}

t "boottrace --help" sh -c '"$0" --help | grep -q "^usage: boottrace COMMAND"' "$bt"
for v in lint kernel initrd boot run report diff check; do
	t "boottrace $v --help" sh -c '"$0" "$1" --help | grep -qi "usage"' "$bt" "$v"
done
t "boottrace bootconfig -l" \
	sh -c '[ "$("$0" bootconfig -l "$1/examples/default.bconf")" = "$2" ]' \
	"$bt" "$share" "$want_l"
t "boottrace lint --no-kernel (every example)" \
	sh -c '"$0" lint --no-kernel "$1"/examples/*.bconf' "$bt" "$share"
t "boottrace report on a bundle" sh -c '"$0" report "$1" | grep -q .' "$bt" "$bundle"
t "boottrace check on a bundle (as from the checkout)" \
	sh -c '[ "$("$0" check "$1" "$2" 2>&1; echo "exit $?")" = "$3" ]' \
	"$bt" "$bundle" "$share/examples/default.expect" "$want_check"
t "boottrace kernel finds the same series and fragments" \
	sh -c '[ "$("$0" kernel --print-dir 2>/dev/null || echo none)" = "$1" ]' \
	"$bt" "$want_kdir"
