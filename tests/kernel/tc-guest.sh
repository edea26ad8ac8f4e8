#!/usr/bin/bash
# tests/kernel/tc-guest.sh - the guest half of 62-early-module.t.  Runs as
# the first process (rdinit=) of an initrd made of dracut's base image,
# the trace-events sample module, tests/kernel/uevent-helper.c (which
# loaded the module during the device initcalls) and the test cases of
# tests/kernel/tc/, with tests/kernel/tc/early.bconf as bootconfig.
# Runs each tc/*.tc the way tools/testing/selftests/ftrace's ftracetest
# does (a fresh shell with "set -e" in the tracefs directory, the
# helpers of tc/functions, the "# requires:" files checked first) and
# prints one "BTTC: RESULT NAME" line per case on the console, RESULT
# being ok, not ok or unsupported, then "BTTC: done".  Its end ends the
# boot in the kernel's "Attempted to kill init" panic.
set -uo pipefail
# /boottrace/bin: grep, wc and sort, which the image does not have
export PATH=/usr/sbin:/usr/bin:/sbin:/bin:/boottrace/bin

GUEST_TAG=BTTC
# shellcheck source=tests/kernel/guest-lib.sh
. /boottrace/guest-lib.sh
guest_mounts /sys/kernel/tracing
mkdir -p /tmp

export TRACING=/sys/kernel/tracing TC_DIR=/boottrace/tc
export KO=/boottrace/trace-events-sample.ko MOD=trace_events_sample

say "early-load $(cat /early-load/status 2>/dev/null || echo none)"
[ -f /early-load/insmod.err ] && say_lines early-load-err /early-load/insmod.err

for tc in "$TC_DIR"/*.tc; do
	name=${tc##*/}
	name=${name%.tc}
	missing=
	read -r -a requires < <(sed -n 's/^# requires: //p' "$tc")
	for f in "${requires[@]}"; do
		[ -e "$TRACING/$f" ] || missing+=" $f"
	done
	if [ -n "$missing" ]; then
		say "unsupported $name (no$missing)"
		continue
	fi
	(cd "$TRACING" && bash -e -c '. "$TC_DIR/functions"; . "$1"' tc "$tc") \
		>"/tmp/$name.log" 2>&1
	rc=$?
	say_lines "log $name:" "/tmp/$name.log"
	case $rc in
	0) say "ok $name" ;;
	4) say "unsupported $name" ;;
	*) say "not ok $name (exit $rc)" ;;
	esac
done
say "done"
