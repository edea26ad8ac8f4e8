#!/bin/sh
# tests/system/guest/boottrace-test.sh - installed into the Debian system
# of tests/system/10-debian.t as /usr/local/sbin/boottrace-test and run by
# boottrace-test.service once boottrace-collect.service is done: records
# what the host checks after the boot under /var/lib/boottrace-test/N/
# (N: the boot_count file's value), and with `boottrace_test.live=1` on the
# kernel command line runs `boottrace collect` on the live system too.
# Then powers the system off.
set -u

state=/var/lib/boottrace-test
mkdir -p "$state"
n=$(($(cat "$state/boot_count" 2>/dev/null || echo 0) + 1))
echo "$n" >"$state/boot_count"
out=$state/$n
rm -rf "$out"
mkdir -p "$out"

tr -d '\n-' </proc/sys/kernel/random/boot_id >"$out/boot_id"
cat /proc/1/comm >"$out/pid1-comm"
readlink /proc/1/exe >"$out/pid1-exe"
cat /proc/cmdline >"$out/cmdline"
systemctl show -p ActiveState -p Result -p ExecMainStatus -p ConditionResult \
	boottrace-collect.service >"$out/collect-unit" 2>&1
journalctl -b -o cat -u boottrace-collect.service >"$out/collect-journal" 2>&1
systemctl is-enabled boottrace-collect.service >"$out/collect-enabled" 2>&1
systemctl list-units --failed --no-legend --plain >"$out/failed-units" 2>&1

case " $(cat /proc/cmdline) " in
*" boottrace_test.live=1 "*)
	boottrace collect -o "$out/live" >"$out/live.log" 2>&1
	echo $? >"$out/live.rc"
	;;
esac

echo finished >"$out/done"
sync
systemctl poweroff
