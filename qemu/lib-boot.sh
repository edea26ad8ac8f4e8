# shellcheck shell=bash
# shellcheck disable=SC2034 # BTB_* are read by the scripts sourcing this
# qemu/lib-boot.sh - helpers shared by the boot-loop scripts (initrd, boot,
# run, report, bench).  Source it after scripts/lib.sh.
#
#   btb_bootconfig ARGS...     run our bootconfig tool (BT_BOOTCONFIG overrides)
#   btb_kernel TREE            build or reuse the kernel; sets BTB_KIMAGE,
#                              BTB_KDIR, BTB_KREL
#   btb_kernel_meta KEY        a value from the kernel build's metadata file
#   btb_base_initrd KREL [--no-cache]
#                              build or reuse the dracut base initrd (no
#                              bootconfig), print its path
#   btb_conf_initrd KREL CONF MODE [--no-cache]
#                              build or reuse the initrd dracut makes with
#                              the bootconfig module carrying CONF (MODE
#                              trailer|early), print its path
#   btb_dracut_version         the installed dracut version
#   btb_now                    seconds since the epoch, with nanoseconds
#   btb_check_machine MACHINE ACCEL SMP MEM TIMEOUT RTC
#                              die on a bad value of a `boottrace qemu` option
#   btb_host_tsc_khz           the host's TSC frequency in kHz (the rate a
#                              TCG guest's TSC runs at), empty if unknown
#   btb_console_phase LOG      the boot phase a console log has reached
#   btb_console_phases LOG     guest seconds at which it reached /init, the
#                              collector, the collector's end and power-off

# Packages the boot loop needs on the host (the guest gets its programs from
# the host through dracut).
BTB_PKGS=(dracut-core systemd udev qemu-system-x86 trace-cmd cpio zstd tar
	coreutils util-linux grep)

btb_now()
{
	date +%s.%N
}

btb_bootconfig()
{
	if [ -n "${BT_BOOTCONFIG:-}" ]; then
		"$BT_BOOTCONFIG" "$@"
	else
		"$BT_TOP/bin/boottrace" bootconfig "$@"
	fi
}

btb_kernel()
{
	local tree=$1 out

	[ -x "$BT_TOP/kernel/build.sh" ] ||
		bt_die "kernel/build.sh is missing: cannot build the kernel"
	out=$("$BT_TOP/kernel/build.sh" --tree "$tree") ||
		bt_die "kernel build failed (tree $tree); see the log it names above"
	BTB_KIMAGE=$(printf '%s\n' "$out" | tail -n1)
	[ -f "$BTB_KIMAGE" ] ||
		bt_die "kernel/build.sh did not print an image path (got '$BTB_KIMAGE')"
	BTB_KDIR=$(dirname "$BTB_KIMAGE")
	[ -s "$BTB_KDIR/kernelrelease" ] ||
		bt_die "$BTB_KDIR/kernelrelease is missing"
	BTB_KREL=$(<"$BTB_KDIR/kernelrelease")
}

# btb_kernel_meta KEY: KEY=value from the kernel build's metadata file.
btb_kernel_meta()
{
	local f="${BTB_KDIR:-}/metadata"

	[ -f "$f" ] || return 0
	sed -n "s/^$1[=:][[:space:]]*//p" "$f" | head -n1
}

btb_dracut_version()
{
	dpkg-query -W -f='${Version}' dracut-core 2>/dev/null ||
		dracut --version 2>/dev/null | head -n1
}

# The dracut command line of the base image, without the output and kver.
btb_dracut_args()
{
	printf '%s\n' --force --no-kernel --no-hostonly --no-hostonly-cmdline \
		--no-early-microcode --reproducible --zstd \
		--modules "base systemd systemd-initrd dracut-systemd boottrace-collect"
}

# A dracutbasedir that sees /usr/lib/dracut plus our module.
btb_dracut_farm()
{
	local farm=$1 e

	rm -rf "$farm"
	mkdir -p "$farm/modules.d"
	for e in /usr/lib/dracut/*; do
		[ "${e##*/}" = modules.d ] && continue
		ln -s "$e" "$farm/${e##*/}"
	done
	for e in /usr/lib/dracut/modules.d/*; do
		ln -s "$e" "$farm/modules.d/${e##*/}"
	done
	ln -s "$BT_TOP/dracut-module/90boottrace-collect" \
		"$farm/modules.d/90boottrace-collect"
	ln -s "$BT_TOP/dracut-module/95bootconfig" "$farm/modules.d/95bootconfig"
}

# Versions of the host programs dracut copies into the image.
btb_guest_pkgs()
{
	dpkg-query -W -f='${Package}=${Version}\n' systemd udev trace-cmd tar \
		bash libc6 2>/dev/null
}

btb_base_key()
{
	local krel=$1

	{
		echo "dracut=$(btb_dracut_version)"
		echo "krel=$krel"
		btb_dracut_args
		btb_guest_pkgs
		bt_hash "$BT_TOP/dracut-module/90boottrace-collect"
	} | sha256sum | cut -c1-16
}

# btb_dracut_cached IMG KREL WHAT [--no-cache] [MODULE...]: print IMG, first
# running dracut into it (the base modules plus MODULEs, with the dracut.conf
# lines read from stdin) unless it is cached.  WHAT names it in messages.
btb_dracut_cached()
{
	local img=$1 krel=$2 what=$3 nocache=${4:-} tmp log rc args

	shift 4 || shift $#
	if [ -s "$img" ] && [ "$nocache" != --no-cache ]; then
		cat >/dev/null
		bt_log "$what: cached $img"
		printf '%s\n' "$img"
		return 0
	fi
	tmp=$(mktemp -d "$(dirname "$img")/.build.XXXXXX")
	log=${img%.img}.log
	mkdir -p "$tmp/conf.d"
	cat >"$tmp/conf.d/90-boottrace.conf"
	btb_dracut_farm "$tmp/farm"
	bt_log "$what: running dracut $(btb_dracut_version) for $krel (log: $log)"
	rc=0
	mapfile -t args < <(btb_dracut_args | sed "s/boottrace-collect\$/boottrace-collect${*:+ $*}/")
	{
		dracutbasedir="$tmp/farm" nice dracut "${args[@]}" \
			--conf /dev/null --confdir "$tmp/conf.d" --tmpdir "$tmp" \
			"$tmp/out.img" "$krel"
	} >"$log" 2>&1 || rc=$?
	if [ $rc -ne 0 ] || ! [ -s "$tmp/out.img" ]; then
		rm -rf "$tmp"
		# the bootconfig module's messages (FILE:LINE:COL, caret, note)
		# or dracut's tail
		if grep -q '^bootconfig: error:' "$log"; then
			grep -v '^dracut' "$log" | grep -v '^$' >&2
		else
			tail -n 15 "$log" >&2
		fi
		bt_die "dracut failed for the $what (exit $rc); full log: $log"
	fi
	mv -f "$tmp/out.img" "$img"
	rm -rf "$tmp"
	bt_log "$what: $img ($(stat -c %s "$img") bytes)"
	printf '%s\n' "$img"
}

btb_base_initrd()
{
	local krel=$1 nocache=${2:-} cache

	bt_need_pkgs "${BTB_PKGS[@]}"
	cache="$(bt_cache_dir)/initrd"
	mkdir -p "$cache"
	btb_dracut_cached "$cache/base-$(btb_base_key "$krel").img" "$krel" \
		"base initrd" "$nocache" </dev/null
}

# The initrd users get: dracut with the delivery module (dracut-module/
# 95bootconfig) carrying CONF, no post-hoc apply.  Cached by the base key,
# CONF's content, the mode, the module and our bootconfig.
btb_conf_initrd()
{
	local krel=$1 conf=$2 mode=$3 nocache=${4:-} cache key tool

	bt_need_pkgs "${BTB_PKGS[@]}"
	[ -x "$BT_TOP/bootconfig/build/bootconfig" ] || make -s -C "$BT_TOP/bootconfig" >&2 ||
		bt_die "building bootconfig failed"
	tool=$BT_TOP/bootconfig/build/bootconfig
	cache="$(bt_cache_dir)/initrd"
	mkdir -p "$cache"
	key=$({
		btb_base_key "$krel"
		echo "mode=$mode"
		sha256sum <"$conf"
		sha256sum <"$tool"
		bt_hash "$BT_TOP/dracut-module/95bootconfig"
	} | sha256sum | cut -c1-16)
	{
		printf 'bootconfig_tool=%s\n' "$tool"
		printf 'bootconfig_files+=" %s "\n' "$(readlink -f "$conf")"
		printf 'bootconfig_mode=%s\n' "$mode"
	} | btb_dracut_cached "$cache/bconf-$key.img" "$krel" \
		"initrd" "$nocache" bootconfig
}

# The machine of a boot without --machine: BOOTTRACE_MACHINE, else pc.
# microvm (no PCI bus; needs the kernel's virtio-mmio) becomes the default
# once it is verified with every boot suite: see docs/boot-loop.md.
BTB_DEFAULT_MACHINE=${BOOTTRACE_MACHINE:-pc}

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

	case "$machine" in microvm | pc) ;; *) bt_die "--machine: use microvm or pc" ;; esac
	case "$accel" in auto | kvm | tcg) ;; *) bt_die "--accel: use auto, kvm or tcg" ;; esac
	local n
	for n in "$timeout" "$smp" "$mem"; do
		[[ $n =~ ^0*[1-9][0-9]*$ ]] ||
			bt_die "--timeout, --smp, --memory take numbers above 0 (got '$n')"
	done
	[ -n "$rtc" ] || return 0
	[[ $rtc =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2}(:[0-9]{2})?)?$ ]] ||
		bt_die "--rtc '$rtc': use YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS"
	date -u -d "${rtc/T/ }" >/dev/null 2>&1 || bt_die "--rtc '$rtc' is not a valid date"
}

btb_host_tsc_khz()
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
