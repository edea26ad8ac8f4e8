#!/bin/bash
# boottrace initrd: the dracut base is cached; a new config only appends a
# new trailer to a copy of it (no dracut run); a bad config leaves the old
# image in place.
set -uo pipefail
. "$(dirname "$0")/tap.sh"

t_kernel
t_plan 8
bt() { "$BT_TOP/bin/boottrace" "$@"; }
base=$(bt initrd --kver "$T_KVER" --print-base 2>/dev/null)
printf 'ftrace.event.sched.sched_switch.enable\n' >"$T_TMP/a.bconf"
printf 'ftrace.instance.x.tracer = "function"\n' >"$T_TMP/b.bconf"
# The first image makes the base when this checkout's collector has none
# yet (a fresh clone elsewhere; another test may be making it right now:
# initrd.sh waits for its lock); the second must reuse it.
bt initrd "$T_TMP/a.bconf" -o "$T_TMP/a.img" --kver "$T_KVER" 2>/dev/null
t_ok "the base image exists ($base)" test -s "$base"
bt initrd "$T_TMP/b.bconf" -o "$T_TMP/b.img" --kver "$T_KVER" 2>"$T_TMP/b.err"
t_grep "$T_TMP/b.err" 'base initrd: cached' "a config change reuses the cached base"
t_ok "no dracut ran" sh -c "! grep -q 'running dracut' '$T_TMP/b.err'"
t_is "$(bt bootconfig -l "$T_TMP/a.img")" "$(bt bootconfig -l "$T_TMP/a.bconf")" "image A carries config A"
t_is "$(bt bootconfig -l "$T_TMP/b.img")" "$(bt bootconfig -l "$T_TMP/b.bconf")" "image B carries config B"
size=$(stat -c %s "$base")
t_ok "both start with the unchanged base image" \
	sh -c "cmp -s -n $size '$base' '$T_TMP/a.img' && cmp -s -n $size '$base' '$T_TMP/b.img'"
cp "$T_TMP/a.img" "$T_TMP/a.keep"
printf 'x = 1\nx = 2\n' >"$T_TMP/bad.bconf"
bt initrd "$T_TMP/bad.bconf" -o "$T_TMP/a.img" --kver "$T_KVER" 2>"$T_TMP/bad.err"
t_grep "$T_TMP/bad.err" 'bad.bconf:2:.*Value is redefined' "a bad config is reported with file and line"
t_ok "and the old image is left as it was" cmp -s "$T_TMP/a.img" "$T_TMP/a.keep"
t_done
