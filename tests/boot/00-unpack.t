#!/bin/bash
# The harness unpacks the guest's archive as untrusted input: nothing may
# land outside the bundle, and links and special files are refused.
set -uo pipefail
. "$(dirname "$0")/tap.sh"
# shellcheck source=../../scripts/lib.sh
. "$BT_TOP/scripts/lib.sh"
# shellcheck source=../../scripts/lib-bundle.sh
. "$BT_TOP/scripts/lib-bundle.sh"

t_plan 14
src=$T_TMP/src
mkdir -p "$src/tracefs/events/kprobes/vfs_read" "$T_TMP/victim"
echo ok >"$src/collect.status"
echo 1 >"$src/tracefs/events/kprobes/vfs_read/enable"

tar -C "$src" -cf "$T_TMP/good.tar" .
t_ok "a plain archive unpacks" btb_unpack "$T_TMP/good.tar" "$T_TMP/out-good"
t_is "$(cat "$T_TMP/out-good/tracefs/events/kprobes/vfs_read/enable" 2>&1)" 1 \
	"its files are in place"

# reject DESC ARCHIVE REGEX: unpacking must fail, saying why (REGEX on
# stderr; "" for an archive tar itself cannot read)
reject()
{
	local desc=$1 tarball=$2 re=$3 out=$T_TMP/out-$RANDOM rc=0

	btb_unpack "$tarball" "$out" 2>"$T_TMP/err" || rc=$?
	if [ "$rc" -ne 0 ] && { [ -z "$re" ] || grep -Eq "$re" "$T_TMP/err"; }; then
		t_result 0 "$desc is rejected"
	else
		t_result 1 "$desc is rejected (exit $rc: $(tr '\n' ' ' <"$T_TMP/err"))"
	fi
}

# The hostile members are files that an unchecked extraction into
# $T_TMP/out-* writes into $T_TMP/victim: ../victim/planted and
# $T_TMP/victim/planted.
mkdir -p "$T_TMP/stage/victim" "$T_TMP/control/out"
echo planted >"$T_TMP/stage/victim/planted"
tar -C "$T_TMP/stage" -cPf "$T_TMP/dotdot.tar" --transform 's|^victim|../victim|' victim/planted
tar -C "$T_TMP/stage" -cPf "$T_TMP/abs.tar" --transform "s|^victim|$T_TMP/victim|" victim/planted
tar -C "$T_TMP/control/out" -xPf "$T_TMP/dotdot.tar"
t_ok "(control) the .. archive writes outside its target when unpacked unchecked" \
	test -f "$T_TMP/control/victim/planted"
t_is "$(tar -tPf "$T_TMP/abs.tar")" "$T_TMP/victim/planted" "(control) the absolute archive names the victim"
reject "a member with .." "$T_TMP/dotdot.tar" "rejecting member name '\\.\\./victim/planted'"
reject "an absolute member name" "$T_TMP/abs.tar" "rejecting member name '/"
# reject_member DESC REGEX NAME CMD...: `CMD... $src/NAME` adds the member
# NAME; the archive of $src with it must be rejected (reject DESC _ REGEX)
reject_member()
{
	local desc=$1 re=$2 name=$3 tarball=$T_TMP/member-$RANDOM.tar

	shift 3
	"$@" "$src/$name"
	tar -C "$src" -cf "$tarball" .
	rm -f "$src/$name"
	reject "$desc" "$tarball" "$re"
}
reject_member "a symlink" "rejecting links or special files" link ln -s /etc/passwd
reject_member "a hard link" "rejecting links or special files" hard ln "$src/collect.status"
reject_member "a fifo" "rejecting links or special files" fifo mkfifo
reject_member "a name with a newline" "rejecting member name" $'new\nline' touch
reject_member "a name that reads like a symlink's listing" "rejecting member name 'a -> b'" 'a -> b' touch
reject_member "a name with a blank" "rejecting member name 'two words'" 'two words' touch
head -c 4096 /dev/zero >"$T_TMP/zero.img"
reject "an empty disk" "$T_TMP/zero.img" ""
t_is "$(ls -A "$T_TMP/victim")" "" "nothing was written outside the targets"
t_done
