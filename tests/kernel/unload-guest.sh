#!/usr/bin/bash
# tests/kernel/unload-guest.sh - the guest half of 65-unload.t.  Runs as
# the first process (rdinit=) of an initrd made of dracut's base image
# plus the trace-events sample module, with examples/module-events.bconf
# as bootconfig.  It loads the module, adds triggers by hand to its events
# (besides those the bootconfig gives), unloads it and loads it again,
# and prints what it sees as "BT65: KEY VALUE" lines on the console for
# the host to check.  Its end (or any failure: set -e) ends the boot in
# the kernel's "Attempted to kill init" panic.
set -euo pipefail
export PATH=/usr/sbin:/usr/bin:/sbin:/bin

T=/sys/kernel/tracing
EV=$T/events/sample-trace
KO=/boottrace/trace-events-sample.ko
MOD=trace_events_sample

GUEST_TAG=BT65
# shellcheck source=tests/kernel/guest-lib.sh
. /boottrace/guest-lib.sh

# show KEY FILE: each line of FILE that is not a comment, as KEY LINE
show()
{
	local line

	while IFS= read -r line; do
		case "$line" in
		'#'* | '') ;;
		*) say "$1 $line" ;;
		esac
	done <"$2"
}

# add_trigger EVENT TRIGGER: write TRIGGER to EVENT's trigger file
add_trigger()
{
	if echo "$2" >"$EV/$1/trigger"; then
		say "added $1 $2"
	else
		say "add-failed $1 $2"
		show error_log "$T/error_log"
	fi
}

guest_mounts "$T"

# count ERE FILE: lines of FILE matching ERE (no grep in the image)
count()
{
	local re=$1 line n=0

	while IFS= read -r line; do
		[[ $line =~ $re ]] && n=$((n + 1))
	done <"$2"
	echo "$n"
}

say "pending $(count '^pending ' "$T/boot_status")"
insmod "$KO"
say "loaded 1"
show trigger1.foo_bar "$EV/foo_bar/trigger"

# By hand: a plain trigger, one that soft-enables an event outside the
# module, and two hist triggers with timestamps (removing them takes
# trace_types_lock), foo_bar_with_cond's using the variable of foo_bar's,
# which can only go after it.  The unload meets foo_bar first (without
# its second pass over the events, 6.1 warns here).
add_trigger foo_with_template_simple stacktrace
add_trigger foo_bar_with_cond enable_event:sched:sched_switch
add_trigger foo_bar 'hist:keys=bar:ts0=common_timestamp.usecs'
# shellcheck disable=SC2016 # $ts0 is the hist variable, for the kernel
add_trigger foo_bar_with_cond 'hist:keys=bar:lat=common_timestamp.usecs-$ts0'
show hand.foo_bar "$EV/foo_bar/trigger"
show hand.foo_bar_with_cond "$EV/foo_bar_with_cond/trigger"
say "sched_switch $(cat "$T/events/sched/sched_switch/enable")"

if rmmod "$MOD"; then
	say "unloaded 1"
fi
say "sched_switch-after $(cat "$T/events/sched/sched_switch/enable")"
if [ -d "$EV" ]; then
	say "events-left"
fi

insmod "$KO"
say "loaded 2"
show trigger2.foo_bar "$EV/foo_bar/trigger"
show trigger2.foo_bar_with_cond "$EV/foo_bar_with_cond/trigger"
show trigger2.foo_with_template_simple "$EV/foo_with_template_simple/trigger"
say "applied $(count "^applied .* # module $MOD, loads +2\$" "$T/boot_status")"
if rmmod "$MOD"; then
	say "unloaded 2"
fi
say "done"
