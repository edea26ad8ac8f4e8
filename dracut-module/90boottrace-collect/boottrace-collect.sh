#!/bin/bash
# boottrace-collect - runs inside the initramfs of a test boot (pre-trigger).
#
# Stops tracing everywhere, dumps the text state of tracefs (top buffer and
# every instance), /proc/bootconfig, /proc/cmdline, dmesg and uname, then
# extracts the ring buffers with `trace-cmd extract -k -a -t`, writes the
# whole bundle as a tar archive onto the raw disk named by
# boottrace.collect=DEV and powers the machine off.
#
# It does nothing unless boottrace.collect=DEV is on the kernel command line
# and DEV starts with the marker `boottrace boot` writes, so an initramfs that
# contains this module never overwrites a real disk.  The layout it writes is
# documented in docs/bundle.md.
set -u

DISK_MAGIC="BOOTTRACE-COLLECT-DISK-1"
export TZ=UTC0
OUT=/run/boottrace/bundle
TRACEFS=/sys/kernel/tracing
errors=0

say()
{
	local up

	read -r up _ </proc/uptime
	echo "boottrace-collect: [$up] $*" >/dev/console 2>/dev/null
	echo "[$up] $*" >>"$OUT/collect.log" 2>/dev/null
}

fail()
{
	errors=$((errors + 1))
	say "warning: $*"
}

cmdline_arg()
{
	local w words

	read -r -a words </proc/cmdline
	for w in "${words[@]}"; do
		case "$w" in
		"$1"=*) echo "${w#*=}"; return 0 ;;
		esac
	done
	return 1
}

# Under TCG every fork+exec costs a few hundred milliseconds, so the dump
# uses shell builtins only: one grep per trace array, no cat, no cp.

# copy SRC DST: copy one text file if it exists (the directory must exist)
copy()
{
	local data=

	[ -e "$1" ] || return 0
	{ IFS= read -r -d '' data || true; } <"$1" 2>>"$OUT/collect.log" ||
		{ fail "cannot read $1"; return 0; }
	printf '%s' "$data" >"$2" || fail "cannot write $2"
}

stop_tracing()
{
	local d

	for d in "$TRACEFS" "$TRACEFS"/instances/*; do
		[ -w "$d/tracing_on" ] || continue
		echo 0 >"$d/tracing_on" || fail "cannot stop tracing in $d"
	done
}

# changed_events DIR: GROUP/EVENT of every event whose enable is not 0,
# whose filter is not none or whose trigger has a non-comment line.
changed_events()
{
	local line path
	local -A seen=()

	while IFS= read -r line; do
		path=${line%%:*}
		path=${path%/*}
		[ -n "${seen[$path]:-}" ] && continue
		seen[$path]=1
		echo "$path"
	done < <(cd "$1/events" 2>/dev/null &&
		grep -H -v -x -e 0 -e none -e '#.*' -- */*/enable */*/filter \
			*/*/trigger 2>/dev/null)
}

# dump_instance SRC DST: the state of one trace array (top or instance)
dump_instance()
{
	local src=$1 dst=$2 f ev c dirs=() evs=() cpus=()

	for c in "$src"/per_cpu/cpu*; do
		[ -d "$c" ] && cpus+=("${c##*/}") && dirs+=("$dst/per_cpu/${c##*/}")
	done
	while IFS= read -r ev; do
		evs+=("$ev")
		dirs+=("$dst/events/$ev")
	done < <(changed_events "$src")
	mkdir -p "$dst" "${dirs[@]}" || fail "cannot create directories in $dst"
	for f in current_tracer trace_clock buffer_size_kb buffer_total_size_kb \
		tracing_on tracing_cpumask set_event set_event_pid \
		set_ftrace_filter set_ftrace_notrace set_ftrace_pid \
		set_graph_function set_graph_notrace trace_options error_log \
		snapshot_status; do
		copy "$src/$f" "$dst/$f"
	done
	for c in "${cpus[@]}"; do
		copy "$src/per_cpu/$c/stats" "$dst/per_cpu/$c/stats"
	done
	for ev in "${evs[@]}"; do
		for f in enable filter trigger format id; do
			copy "$src/events/$ev/$f" "$dst/events/$ev/$f"
		done
		# hist exists for every event; only a hist trigger fills it
		while IFS= read -r f; do
			case "$f" in
			hist:*) copy "$src/events/$ev/hist" "$dst/events/$ev/hist"; break ;;
			esac
		done <"$dst/events/$ev/trigger"
	done
}

dump_state()
{
	local i name

	dump_instance "$TRACEFS" "$OUT/tracefs"
	# boot_status: what trace_boot applied (kernels with our series)
	for f in dynamic_events kprobe_events synthetic_events kprobe_profile \
		available_tracers boot_status; do
		copy "$TRACEFS/$f" "$OUT/tracefs/$f"
	done
	for i in "$TRACEFS"/instances/*; do
		[ -d "$i" ] || continue
		name=${i##*/}
		case "$name" in
		*[!A-Za-z0-9_.+-]* | .*) fail "skipping instance with odd name"; continue ;;
		esac
		dump_instance "$i" "$OUT/tracefs/instances/$name"
	done
}

dump_system()
{
	local up rel btime='' k v

	mkdir -p "$OUT/proc"
	copy /proc/cmdline "$OUT/proc/cmdline"
	copy /proc/bootconfig "$OUT/proc/bootconfig"
	dmesg >"$OUT/dmesg" 2>>"$OUT/collect.log" || fail "dmesg failed"
	uname -a >"$OUT/uname" 2>>"$OUT/collect.log" || fail "uname failed"
	while read -r k v; do
		[ "$k" = btime ] && btime=$v && break
	done </proc/stat
	read -r up _ </proc/uptime
	read -r rel </proc/sys/kernel/osrelease
	{
		echo "kernel_release=$rel"
		printf 'guest_time=%(%Y-%m-%dT%H:%M:%SZ)T\n' -1
		echo "guest_btime=$btime"
		echo "guest_uptime=$up"
	} >"$OUT/guest-info"
}

# load_modules: boottrace.insmod=PATH[,PATH...] (.ko files in the
# initramfs) loads the modules before anything is dumped, so that the
# events they define (and the boot-time settings kept for them) are in the
# bundle; boottrace.reload=N unloads and loads them again N times.  The
# boot_status before the first load goes to modules/boot_status.before.
load_modules()
{
	local list reloads p name n=0 paths=()

	list=$(cmdline_arg boottrace.insmod) || return 0
	reloads=$(cmdline_arg boottrace.reload) || reloads=0
	case "$reloads" in
	"" | *[!0-9]*) fail "bad boottrace.reload=$reloads, not reloading"; reloads=0 ;;
	esac
	IFS=, read -r -a paths <<<"$list"
	mkdir -p "$OUT/modules" || { fail "cannot create $OUT/modules"; return; }
	copy "$TRACEFS/boot_status" "$OUT/modules/boot_status.before"
	while :; do
		for p in "${paths[@]}"; do
			if insmod "$p" >>"$OUT/modules/insmod.log" 2>&1; then
				say "loaded $p"
			else
				fail "insmod $p failed (see modules/insmod.log)"
			fi
		done
		[ "$n" -lt "$reloads" ] || break
		n=$((n + 1))
		sleep 1
		for p in "${paths[@]}"; do
			name=${p##*/}
			name=${name%.ko}
			if rmmod "${name//-/_}" >>"$OUT/modules/insmod.log" 2>&1; then
				say "unloaded $name ($n of $reloads)"
			else
				fail "rmmod $name failed (see modules/insmod.log)"
			fi
		done
	done
	# Give the modules' events a moment to fire (the sample module emits
	# one event a second; under TCG a loaded host delays it).
	sleep 4
}

extract()
{
	if ! [ -e "$TRACEFS/trace" ]; then
		fail "no tracefs: nothing to extract"
		return
	fi
	say "extracting"
	# -k: keep instances (3.1.6 deletes them otherwise); -a -t: all + top
	if ! (cd "$OUT" && trace-cmd extract -k -a -t -o trace.dat \
		>>"$OUT/collect.log" 2>&1); then
		fail "trace-cmd extract failed (see collect.log)"
	fi
	say "extracted"
}

write_disk()
{
	local dev=$1 head

	head=$(head -c ${#DISK_MAGIC} "$dev" 2>/dev/null) || head=
	if [ "$head" != "$DISK_MAGIC" ]; then
		say "error: $dev does not carry the boottrace marker; not writing"
		return 1
	fi
	echo "errors=$errors" >"$OUT/collect.status"
	if ! tar -C "$OUT" -cf "$dev" .; then
		say "error: writing the bundle to $dev failed"
		return 1
	fi
	sync
	say "bundle written to $dev"
}

power_off()
{
	sync
	systemctl poweroff --force --force >/dev/null 2>&1
	poweroff -f >/dev/null 2>&1
	echo 1 >/proc/sys/kernel/sysrq 2>/dev/null
	echo o >/proc/sysrq-trigger 2>/dev/null
	sleep 30
}

main()
{
	local devname dev

	devname=$(cmdline_arg boottrace.collect) || exit 0
	case "$devname" in
	"" | *[!A-Za-z0-9]*) say "error: bad boottrace.collect=$devname"; exit 0 ;;
	esac
	dev=/dev/$devname
	rm -rf "$OUT"
	mkdir -p "$OUT" || { say "error: cannot create $OUT"; power_off; }
	say "collecting"
	if ! [ -e "$TRACEFS/trace" ]; then
		mount -t tracefs nodev "$TRACEFS" 2>/dev/null ||
			fail "cannot mount tracefs"
	fi
	load_modules
	stop_tracing
	say "tracing stopped"
	dump_state
	say "tracefs state dumped"
	dump_system
	say "system state dumped"
	extract
	write_disk "$dev"
	say "done, powering off"
	power_off
}

main "$@"
