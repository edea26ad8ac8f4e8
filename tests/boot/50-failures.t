#!/bin/bash
# Failed boots: a one-line reason, exit 1, the console kept in
# BUNDLE.failed/, an existing bundle left alone.  Bad options fail early.
set -uo pipefail
. "$(dirname "$0")/tap.sh"

t_kernel
t_plan 10
conf=$BT_TOP/examples/default.bconf
mkdir -p "$T_TMP/b"
echo "format=boottrace-bundle-1" >"$T_TMP/b/metadata"

# no init anywhere: the kernel panics (VFS: Unable to mount root fs)
t_boot b "$conf" --append "rdinit=/nonexistent root=/dev/nonexistent" --timeout 120
t_is "$T_RC" 1 "a kernel panic exits 1"
t_grep "$T_TMP/b.err" '^boottrace: error: kernel panic: ' "with a one-line 'kernel panic' reason"
t_grep "$T_TMP/b.failed/console.log" 'Kernel panic - not syncing' "the console is kept in BUNDLE.failed"
t_is "$(cat "$T_TMP/b/metadata")" "format=boottrace-bundle-1" "the existing bundle is untouched"

# 1 s: a whole boot takes 2.3 s or more here (QEMU start to the kernel
# alone 0.4 s); 3 s no longer timed out on a quiet machine
t_boot b "$conf" --timeout 1
t_is "$T_RC" 1 "a timeout exits 1"
t_grep "$T_TMP/b.err" '^boottrace: error: timeout after 1s' "with a one-line 'timeout' reason"

t_boot b "$conf" --rtc 2040-13-01
t_ok "a bad --rtc is refused before booting, as a usage error (exit $T_RC)" \
	sh -c "[ $T_RC = 2 ] && grep -q rtc '$T_TMP/b.err'"
printf 'ftrace.event {\n\tkprobes.x.probes = "a"\n\tkprobes.x.probes = "b"\n}\n' >"$T_TMP/bad.bconf"
t_boot b "$T_TMP/bad.bconf"
t_ok "a bad config is refused with its file and line" \
	sh -c "[ $T_RC = 1 ] && grep -q 'bad.bconf:3' '$T_TMP/b.err'"
mkdir -p "$T_TMP/notabundle" && touch "$T_TMP/notabundle/precious"
"$BT_TOP/bin/boottrace" boot "$conf" -o "$T_TMP/notabundle" >/dev/null 2>&1
t_is "$?" 1 "a non-bundle output directory is refused"
t_ok "and its content kept" test -f "$T_TMP/notabundle/precious"
t_done
