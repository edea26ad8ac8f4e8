#!/bin/bash
# The harness unpacks the guest's archive as untrusted input: nothing may
# land outside the bundle, and links and special files are refused.
set -uo pipefail
. "$(dirname "$0")/tap.sh"
# shellcheck source=../../scripts/lib.sh
. "$BT_TOP/scripts/lib.sh"
# shellcheck source=../../scripts/lib-bundle.sh
. "$BT_TOP/scripts/lib-bundle.sh"

t_plan 12
src=$T_TMP/src
mkdir -p "$src/tracefs/events/kprobes/vfs_read" "$T_TMP/victim"
echo ok >"$src/collect.status"
echo 1 >"$src/tracefs/events/kprobes/vfs_read/enable"

tar -C "$src" -cf "$T_TMP/good.tar" .
t_ok "a plain archive unpacks" btb_unpack "$T_TMP/good.tar" "$T_TMP/out-good"
t_is "$(cat "$T_TMP/out-good/tracefs/events/kprobes/vfs_read/enable" 2>&1)" 1 \
	"its files are in place"

# rejected: each must fail and leave nothing outside the target
reject()
{
	local desc=$1 tarball=$2 out=$T_TMP/out-$RANDOM
	if btb_unpack "$tarball" "$out" 2>/dev/null; then
		t_result 1 "$desc is rejected"
	else
		t_result 0 "$desc is rejected"
	fi
}

(cd "$T_TMP" && tar -cf dotdot.tar -P ../"${T_TMP##*/}"/victim 2>/dev/null)
reject "a member with .." "$T_TMP/dotdot.tar"
tar -cf "$T_TMP/abs.tar" -P "$T_TMP/victim" 2>/dev/null
reject "an absolute member name" "$T_TMP/abs.tar"
# reject_member DESC NAME CMD...: `CMD... $src/NAME` adds the member NAME;
# the archive of $src with it must be rejected
reject_member()
{
	local desc=$1 name=$2 tarball=$T_TMP/member-$RANDOM.tar

	shift 2
	"$@" "$src/$name"
	tar -C "$src" -cf "$tarball" .
	rm -f "$src/$name"
	reject "$desc" "$tarball"
}
reject_member "a symlink" link ln -s /etc/passwd
reject_member "a hard link" hard ln "$src/collect.status"
reject_member "a fifo" fifo mkfifo
reject_member "a name with a newline" $'new\nline' touch
reject_member "a name that reads like a symlink's listing" 'a -> b' touch
reject_member "a name with a blank" 'two words' touch
head -c 4096 /dev/zero >"$T_TMP/zero.img"
reject "an empty disk" "$T_TMP/zero.img"
t_is "$(ls -A "$T_TMP/victim")" "" "nothing was written outside the targets"
t_done
