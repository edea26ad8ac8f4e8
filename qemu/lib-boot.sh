# shellcheck shell=bash
# shellcheck disable=SC2034 # BTB_* are read by the scripts sourcing this
# qemu/lib-boot.sh - helpers shared by the boot-loop scripts (initrd, boot,
# run, report, bench).  Source it after scripts/lib.sh.
#
#   btb_kernel TREE            build or reuse the kernel; sets BTB_KIMAGE,
#                              BTB_KDIR, BTB_KREL (a stamp of the inputs'
#                              names, sizes and mtimes skips kernel/build.sh)
#   btb_read_keys ARRAY FILE   FILE's KEY=value lines into an associative
#                              array (the kernel build's metadata, boot.info)
#   btb_now                    seconds since the epoch, with microseconds
#   btb_seconds_since T [D]    seconds from T (btb_now) to now, D decimals
#   btb_check_machine MACHINE ACCEL SMP MEM TIMEOUT RTC
#                              die on a bad value of a `boottrace qemu` option
#   btb_host_tsc_khz           the host's TSC frequency in kHz (the rate a
#                              TCG guest's TSC runs at), empty if unknown;
#                              remembered per host boot
#   btb_qemu_version           QEMU's version line, remembered per binary
#   btb_cached_value F KEY CMD...
#                              CMD's output line, remembered in F under KEY
#   btb_console_phase LOG      the boot phase a console log has reached
#   btb_console_phases LOG     guest seconds at which it reached /init, the
#                              collector, the collector's end and power-off
#   btb_bundle_meta DIR        append the KEY=VALUE lines of stdin (the
#                              host's keys) to the metadata the collector
#                              wrote into the bundle DIR
# and, from dracut-module/lib-dracut.sh (the initramfs stage), btb_bootconfig,
# btb_collector, btb_base_initrd, btb_conf_initrd, btb_dracut_version.

# shellcheck source=../dracut-module/lib-dracut.sh
. "$BT_TOP/dracut-module/lib-dracut.sh"
# Packages the boot loop needs on the host besides the initramfs stage's.
BTB_PKGS+=(qemu-system-x86 tar)

btb_now()
{
	local t=${EPOCHREALTIME//[!0-9]/}

	printf '%s.%s\n' "${t:0:-6}" "${t: -6}"
}

# btb_seconds_since T [DIGITS]: the seconds from T (an $EPOCHREALTIME or a
# btb_now) to now, rounded to DIGITS decimals (default 2); no process.
btb_seconds_since()
{
	local a=${1//[!0-9]/} b=${EPOCHREALTIME//[!0-9]/} d=${2:-2} us x p

	us=$((10#$b - 10#$a))
	p=$((10 ** d))
	x=$(((us * p + 500000) / 1000000))
	printf "%d.%0${d}d\n" $((x / p)) $((x % p))
}

# The stamp of what kernel/build.sh --tree TREE builds from, without reading
# the files: names, sizes and mtimes of everything in kernel/ and of
# scripts/lib.sh, the dpkg database (the tree, compiler and binutils
# versions) and the cache directory.  Any change is a miss (build.sh then
# hashes the contents as always); a hit skips build.sh and its hashing.
btb_kernel_stamp()
{
	local h

	h=$({
		echo "tree=$1 cache=$(bt_cache_dir)"
		find "$BT_TOP/kernel" "$BT_TOP/scripts/lib.sh" /var/lib/dpkg/status \
			-type f -printf '%p %s %T@\n' | LC_ALL=C sort
	} | sha256sum)
	printf '%s\n' "${h:0:16}"
}

btb_kernel()
{
	local tree=$1 out stampf

	[ -x "$BT_TOP/kernel/build.sh" ] ||
		bt_die "kernel/build.sh is missing: cannot build the kernel"
	stampf="$(bt_cache_dir)/kernels/.stamp-$(btb_kernel_stamp "$tree")"
	BTB_KIMAGE=
	[ ! -s "$stampf" ] || BTB_KIMAGE=$(<"$stampf")
	if [ -n "$BTB_KIMAGE" ] && [ -f "$BTB_KIMAGE" ] &&
		[ -s "${BTB_KIMAGE%/*}/kernelrelease" ]; then
		bt_log "kernel: cached (inputs unchanged): $BTB_KIMAGE"
	else
		out=$("$BT_TOP/kernel/build.sh" --tree "$tree") ||
			bt_die "kernel build failed (tree $tree); see the log it names above"
		BTB_KIMAGE=$(printf '%s\n' "$out" | tail -n1)
		[ -f "$BTB_KIMAGE" ] ||
			bt_die "kernel/build.sh did not print an image path (got '$BTB_KIMAGE')"
		mkdir -p "${stampf%/*}"
		printf '%s\n' "$BTB_KIMAGE" >"$stampf.$$" && mv -f "$stampf.$$" "$stampf"
	fi
	BTB_KDIR=${BTB_KIMAGE%/*}
	[ -s "$BTB_KDIR/kernelrelease" ] ||
		bt_die "$BTB_KDIR/kernelrelease is missing"
	BTB_KREL=$(<"$BTB_KDIR/kernelrelease")
}

# btb_read_keys ARRAY FILE: the KEY=value (or "KEY: value") lines of FILE
# into the associative array ARRAY, the first value of each key; nothing
# when FILE is missing.  No process is started.
btb_read_keys()
{
	local -n kv=$1
	local l k re='^([A-Za-z0-9_.-]+)[=:][[:space:]]*(.*)$'

	[ -f "$2" ] || return 0
	while IFS= read -r l || [ -n "$l" ]; do
		[[ $l =~ $re ]] || continue
		k=${BASH_REMATCH[1]}
		[ -n "${kv["$k"]+set}" ] || kv["$k"]=${BASH_REMATCH[2]}
	done <"$2"
}

# The bundle's metadata has one writer, the collector; the host adds its
# keys through it (a key written twice is an error).
btb_bundle_meta()
{
	"$(btb_collector)" --add-metadata "$1"
}

# The machine of a boot without --machine: BOOTTRACE_MACHINE, else microvm
# (no PCI bus to probe, qboot instead of SeaBIOS; the kernel needs
# virtio-mmio, which the test kernels have): see docs/boot-loop.md.
BTB_DEFAULT_MACHINE=${BOOTTRACE_MACHINE:-microvm}
# microvm's -machine value: ACPI on, so that the guest's power-off ends
# QEMU; no option ROMs (also booted by tests/kernel/lib.sh, k_qemu_bare)
BTB_MICROVM=microvm,acpi=on,x-option-roms=off

# The options of `boottrace qemu` that `boottrace boot` passes on as they
# are: OPTION VARIABLE (VARIABLE empty: a flag).  qemu/qemu.sh parses with
# this table, so the two never disagree.
BTB_QEMU_OPTS=(
	"--machine machine" "--accel accel" "--smp smp" "--memory mem"
	"--rtc rtc" "--timeout timeout" "-v verbose" "--verbose verbose"
	"-q quiet" "--quiet quiet"
)

# btb_qemu_opt OPTION: print its variable name (a flag: "=FLAG VAR"), or
# fail when OPTION is not one of `boottrace qemu`'s machine options.
btb_qemu_opt()
{
	local o

	for o in "${BTB_QEMU_OPTS[@]}"; do
		[ "${o%% *}" = "$1" ] || continue
		case "$1" in
		-v | --verbose | -q | --quiet) echo "=FLAG ${o#* }" ;;
		*) echo "${o#* }" ;;
		esac
		return 0
	done
	return 1
}

btb_check_machine()
{
	local machine=$1 accel=$2 smp=$3 mem=$4 timeout=$5 rtc=$6

	case "$machine" in microvm | pc) ;; *) bt_usage "--machine: use microvm or pc" ;; esac
	case "$accel" in auto | kvm | tcg) ;; *) bt_usage "--accel: use auto, kvm or tcg" ;; esac
	local n
	for n in "$timeout" "$smp" "$mem"; do
		[[ $n =~ ^0*[1-9][0-9]*$ ]] ||
			bt_usage "--timeout, --smp, --memory take numbers above 0 (got '$n')"
	done
	[ -n "$rtc" ] || return 0
	[[ $rtc =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2}(:[0-9]{2})?)?$ ]] ||
		bt_usage "--rtc '$rtc': use YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS"
	date -u -d "${rtc/T/ }" >/dev/null 2>&1 || bt_usage "--rtc '$rtc' is not a valid date"
}

# btb_cached_value FILE KEY CMD...: CMD's first line of output, remembered
# in FILE under KEY (KEY and the value on two lines); CMD runs only when
# FILE has another key.  For values that cost a process start and change
# rarely.
btb_cached_value()
{
	local f=$1 key=$2 k='' v=''

	shift 2
	[ ! -f "$f" ] || { read -r k; read -r v; } <"$f" || true
	if [ "$k" = "$key" ] && [ -n "$v" ]; then
		printf '%s\n' "$v"
		return 0
	fi
	v=$("$@") || return 1
	v=${v%%$'\n'*}
	printf '%s\n%s\n' "$key" "$v" >"$f.$$" && mv -f "$f.$$" "$f"
	printf '%s\n' "$v"
}

# btb_qemu_version: QEMU's version line, remembered until the binary
# changes (`qemu-system-x86_64 --version` takes ~100 ms to start)
btb_qemu_version()
{
	local q key

	q=$(command -v qemu-system-x86_64) || bt_die "qemu-system-x86_64 not found"
	key=$(stat -L -c '%n %s %Y %Z %i' "$q")
	btb_cached_value "$(bt_cache_dir)/qemu-version" "$key" qemu-system-x86_64 --version
}

# btb_host_tsc_khz: the host's TSC rate in kHz, remembered for this boot of
# the host
btb_host_tsc_khz()
{
	local bid=unknown

	read -r bid </proc/sys/kernel/random/boot_id || true
	btb_cached_value "$(bt_cache_dir)/host-tsc-khz" "$bid" btb_host_tsc_measure
}

btb_host_tsc_measure()
{
	local mhz

	mhz=$({ dmesg 2>/dev/null || true; } |
		sed -n -E 's/.*tsc: (Refined TSC clocksource calibration|Detected): ([0-9.]+) MHz.*/\2/p' |
		tail -n1)
	[ -n "$mhz" ] || mhz=$(sed -n 's/^cpu MHz[[:space:]]*: *//p' /proc/cpuinfo | head -n1)
	[ -z "$mhz" ] || awk -v m="$mhz" 'BEGIN { printf "%d\n", m * 1000 }'
}

# The console lines that mark the phases of a boot (the kernel's own
# messages and the collector's "boottrace-collect" lines).
BTB_PHASE_RE='Linux version|Unpacking initramfs|Run /init as init process|boottrace[- ]collect|reboot: Power down'

btb_console_phase()
{
	local m

	m=$(grep -a -o -E "$BTB_PHASE_RE" "$1" | tail -n1) || m=
	case "$m" in
	'') echo "firmware" ;;
	'Linux version') echo "kernel" ;;
	'Unpacking initramfs') echo "kernel: unpacking the initramfs" ;;
	'Run /init'*) echo "/init" ;;
	boottrace*) echo "collector" ;;
	reboot*) echo "power-off" ;;
	esac
}

# btb_console_phases LOG: "init=S collect_start=S collect_end=S poweroff=S"
# in guest seconds (printk times; the collector's own [uptime] stamps), an
# empty value for a phase the log does not show.
btb_console_phases()
{
	tr -d '\r' <"$1" | awk '
		function stamp(line,   m) {
			if (match(line, /\[ *[0-9]+\.[0-9]+\]/)) {
				m = substr(line, RSTART + 1, RLENGTH - 2)
				gsub(/ /, "", m)
				return m
			}
			return ""
		}
		/Run \/init as init process/ && init == "" { init = stamp($0) }
		/boottrace[- ]collect/ {
			s = $0
			sub(/^.*boottrace[- ]collect[^[]*/, "", s)
			t = stamp(s)
			if (t == "") t = stamp($0)
			if (t != "") { if (cs == "") cs = t; ce = t }
		}
		/reboot: Power down/ && off == "" { off = stamp($0) }
		END { printf "init=%s collect_start=%s collect_end=%s poweroff=%s\n", init, cs, ce, off }'
}
