#!/bin/bash
# tests/install/installed.sh ROOT - run every `boottrace` verb from an
# install whose PREFIX is ROOT (make install's DESTDIR/usr/local, or the
# Debian packages unpacked: ROOT/usr) with no checkout to fall back on:
# this script copies itself out of the checkout and runs again under a
# tmpfs mounted over the checkout, in a private mount namespace.  What the
# install prints is compared with what the checkout prints for the same
# input.  Prints a plan line "1..N", then "ok - ..." / "not ok - ..." lines
# (tests/lib/check.sh's check_add holds them to the plan); exit 1 when one
# failed.
# shellcheck disable=SC2016 # the sh -c scripts expand their own arguments
set -uo pipefail

if [ "${1:-}" != --hidden ]; then
	top=$(cd "$(dirname "$0")/../.." && pwd)
	root=$(cd "$1" && pwd)
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
	cp -r "$top/trace-analysis/tests/fixtures/bundles/default" "$work/bundle"
	cp "$0" "$work/installed.sh"
	bt=$top/bin/boottrace
	args=("$root" "$work/bundle"
		"$("$bt" bootconfig -l "$top/examples/default.bconf")"
		"$("$bt" kernel --print-dir 2>/dev/null || echo none)"
		"$("$bt" check "$work/bundle" "$top/examples/default.expect" 2>&1; echo "exit $?")")
	if unshare -m --propagation private true 2>/dev/null; then
		unshare -m --propagation private bash -c \
			'mount -t tmpfs tmpfs "$0" && [ ! -e "$0/Makefile" ] && exec bash "$@"' \
			"$top" "$work/installed.sh" --hidden "${args[@]}" ||
			{ echo "not ok - installed: the checkout could not be hidden"; exit 1; }
	else
		echo "# cannot unshare a mount namespace: the checkout stays visible"
		bash "$work/installed.sh" --hidden "${args[@]}"
	fi
	exit
fi

root=$2 bundle=$3 want_l=$4 want_kdir=$5 want_check=$6
bt=$root/bin/boottrace
share=$root/share/boottrace
PATH=$root/bin:/usr/sbin:/usr/bin:/sbin:/bin
unset BT_TOP
cd /
failed=0
echo "1..14"

t()
{
	local name=$1

	shift
	if "$@" >/dev/null 2>&1; then
		echo "ok - installed: $name"
	else
		echo "not ok - installed: $name"
		failed=1
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
# The checkout's --print-dir fails too when no kernel is built in the cache:
# then there is nothing to compare ("none" = "none" proves nothing).
if [ "$want_kdir" = none ]; then
	echo "ok - installed: boottrace kernel finds the same series and fragments # SKIP no kernel built in the cache"
else
	t "boottrace kernel finds the same series and fragments" \
		sh -c '[ "$("$0" kernel --print-dir 2>/dev/null || echo none)" = "$1" ]' \
		"$bt" "$want_kdir"
fi
exit "$failed"
