#!/bin/bash
# boottrace qemu - boot a kernel, an initrd and a command line in QEMU.
set -euo pipefail

BT_TOP=${BT_TOP:-$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)}
# shellcheck source=../scripts/lib.sh
. "$BT_TOP/scripts/lib.sh"
# shellcheck source=lib-boot.sh
. "$BT_TOP/qemu/lib-boot.sh"

usage()
{
	cat <<'USAGE'
usage: boottrace qemu --kernel BZIMAGE --initrd INITRD --append CMDLINE
                      -o|--output DIR [--disk FILE] [options]

The boot stage and nothing else: boot BZIMAGE with INITRD and the kernel
command line CMDLINE in QEMU until the guest powers off, with FILE (if
given) as its first virtio disk (/dev/vda).  Writes into DIR:
  console.log   the serial console (ttyS0)
  qemu.log      QEMU's own output
  boot.info     key=value: machine, accelerator, qemu, smp, memory_mb, rtc,
                started, boot_wall_seconds, cmdline (docs/boot-loop.md)
FILE is written by the guest in place (the disk out).

options:
  --machine pc|microvm   QEMU machine (default: $BOOTTRACE_MACHINE, else
                         microvm: virtio-mmio, no PCI bus, qboot; the kernel
                         needs CONFIG_VIRTIO_MMIO); pc: PCI, SeaBIOS
  --accel auto|kvm|tcg   accelerator (default auto: KVM when a short probe
                         boot works, else TCG)
  --smp N                virtual CPUs (default 2)
  --memory MB            guest memory (default 512)
  --rtc DATE             guest clock at power-on (YYYY-MM-DD[THH:MM:SS], UTC)
  --timeout SECONDS      give up after this long (default 300)
  -v, --verbose          copy the serial console to stderr while booting
  -q, --quiet            no progress lines
  -h, --help             this help

Progress (stderr, unless --quiet): the phase the console shows (firmware,
kernel, /init, collector, power-off) with the elapsed seconds, refreshed
at most once a second on a terminal, one line per phase otherwise.
Exit status: 0 when the guest powered off by itself; 1 with a one-line
reason (kernel panic, timeout, QEMU error); 2 on a usage error.
USAGE
}

kimage='' initrd='' cmdline='' dir='' disk='' machine=$BTB_DEFAULT_MACHINE accel=auto
smp=2 mem=512 rtc='' timeout=300 verbose='' quiet=''
have_append=''
while [ $# -gt 0 ]; do
	case "$1" in
	-h | --help) usage; exit 0 ;;
	--kernel | --initrd | --append | -o | --output | --disk)
		[ $# -ge 2 ] || bt_usage "$1 needs a value (see boottrace qemu --help)"
		case "$1" in
		--kernel) kimage=$2 ;;
		--initrd) initrd=$2 ;;
		--append) cmdline=$2; have_append=1 ;;
		-o | --output) dir=$2 ;;
		--disk) disk=$2 ;;
		esac
		shift
		;;
	*)
		var=$(btb_qemu_opt "$1") || bt_usage "unknown argument '$1' (see boottrace qemu --help)"
		if [ "${var%% *}" = =FLAG ]; then
			printf -v "${var#* }" 1
		else
			[ $# -ge 2 ] || bt_usage "$1 needs a value (see boottrace qemu --help)"
			printf -v "$var" '%s' "$2"
			shift
		fi
		;;
	esac
	shift
done

[ -n "$kimage" ] || bt_usage "no kernel given: use --kernel BZIMAGE"
[ -f "$kimage" ] || bt_die "$kimage: no such file"
[ -n "$initrd" ] || bt_usage "no initrd given: use --initrd INITRD"
[ -f "$initrd" ] || bt_die "$initrd: no such file"
[ -n "$have_append" ] || bt_usage "no command line given: use --append CMDLINE"
[ -n "$dir" ] || bt_usage "no output directory given: use -o DIR"
[ -d "$dir" ] || bt_die "$dir: no such directory"
[ -z "$disk" ] || [ -f "$disk" ] || bt_die "$disk: no such file"
btb_check_machine "$machine" "$accel" "$smp" "$mem" "$timeout" "$rtc"
bt_need_pkgs qemu-system-x86

# --- accelerator ------------------------------------------------------
btb_accel_probe()
{
	local key cache res log

	key=$({
		sha256sum <"$kimage"
		btb_qemu_version
		uname -r
	} | sha256sum | cut -c1-16)
	cache="$(bt_cache_dir)/accel"
	mkdir -p "$cache"
	if [ -f "$cache/kvm-$key" ]; then
		cat "$cache/kvm-$key"
		return
	fi
	log=$(mktemp "$dir/kvmprobe.XXXXXX")
	bt_log "probing KVM with a short boot (result cached)"
	timeout -k 2 8 qemu-system-x86_64 -accel kvm -cpu host,-arch-capabilities \
		-m 256 -nodefaults -display none -no-reboot -serial "file:$log" \
		-kernel "$kimage" -append "console=ttyS0 panic=-1" \
		>/dev/null 2>&1 || true
	if grep -q 'Linux version' "$log"; then res=kvm; else res=tcg; fi
	rm -f "$log"
	echo "$res" >"$cache/kvm-$key"
	echo "$res"
}

if [ "$accel" = auto ]; then
	if [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
		accel=$(btb_accel_probe)
	else
		accel=tcg
	fi
fi
if [ "$accel" = kvm ]; then
	qaccel=(-accel kvm -cpu 'host,-arch-capabilities')
else
	qaccel=(-accel tcg -cpu max)
fi

# --- machine ----------------------------------------------------------
# microvm: no PCI bus, virtio devices on MMIO (the kernel finds them in
# the ACPI tables), qboot instead of SeaBIOS, no option ROMs; ACPI stays
# on so that the guest's power-off ends QEMU.
qdisk=()
if [ "$machine" = microvm ]; then
	qmachine=(-machine "$BTB_MICROVM")
	[ -z "$disk" ] || qdisk=(-drive "file=$disk,format=raw,if=none,id=out,cache=unsafe"
		-device 'virtio-blk-device,drive=out')
else
	qmachine=(-machine pc)
	[ -z "$disk" ] || qdisk=(-drive "file=$disk,format=raw,if=virtio,cache=unsafe")
fi
qrtc=()
[ -z "$rtc" ] || qrtc=(-rtc "base=$rtc,clock=vm")
# microvm with ACPI is hardware-reduced: no PIT and no HPET or PM timer to
# calibrate the TSC against, and under TCG no TSC frequency in CPUID either,
# so the kernel hangs at "tsc: Marking TSC unstable due to could not
# calculate TSC khz".  Under TCG the guest's TSC runs at the host's rate:
# tell the kernel that rate.
if [ "$machine" = microvm ] && [ "$accel" = tcg ] && [[ " $cmdline " != *" tsc_early_khz="* ]]; then
	khz=$(btb_host_tsc_khz)
	[ -n "$khz" ] || bt_die "--machine microvm under TCG: cannot find the host's TSC frequency (use --machine pc, or give tsc_early_khz= in the command line)"
	cmdline+=" tsc_early_khz=$khz"
fi

# --- boot -------------------------------------------------------------
console="$dir/console.log"
: >"$console"
tailpid=
if [ -n "$verbose" ]; then
	tail -n +1 -f "$console" >&2 &
	tailpid=$!
fi
TZ=UTC printf -v started '%(%Y-%m-%dT%H:%M:%SZ)T' -1
t0=$EPOCHREALTIME
timeout -k 5 "$timeout" qemu-system-x86_64 "${qaccel[@]}" "${qmachine[@]}" \
	-smp "$smp" -m "$mem" -nodefaults -display none -no-reboot \
	-serial "file:$console" "${qrtc[@]}" "${qdisk[@]}" \
	-kernel "$kimage" -initrd "$initrd" -append "$cmdline" \
	>"$dir/qemu.log" 2>&1 &
qpid=$!
if [ -z "$quiet" ] && [ -z "$verbose" ]; then
	bt_progress "boot" "$qpid" btb_console_phase "$console"
fi
qrc=0
wait "$qpid" || qrc=$?
wall=$(btb_seconds_since "$t0")
[ -z "$tailpid" ] || kill "$tailpid" 2>/dev/null || true

{
	echo "machine=$machine"
	echo "accelerator=$accel"
	echo "qemu=$(btb_qemu_version)"
	echo "smp=$smp"
	echo "memory_mb=$mem"
	echo "rtc=${rtc:-host}"
	echo "started=$started"
	echo "boot_wall_seconds=$wall"
	echo "cmdline=$cmdline"
} >"$dir/boot.info"

# --- how it ended -----------------------------------------------------
panic=$(grep -a -m1 'Kernel panic - not syncing' "$console") || panic=
panic=${panic//$'\r'/}
panic=${panic#*] }
[ -z "$panic" ] || bt_die "kernel panic: ${panic#Kernel panic - not syncing: }"
if [ "$qrc" -eq 124 ] || [ "$qrc" -eq 137 ]; then
	last=$(grep -a -v '^[[:space:]]*$' "$console" | tail -n1 | tr -d '\r' | cut -c1-100 || true)
	bt_die "timeout after ${timeout}s (last console line: ${last:-none})"
fi
[ "$qrc" -eq 0 ] || bt_die "qemu exited with status $qrc: $(head -n1 "$dir/qemu.log")"
[ -n "$quiet" ] || bt_log "boot: guest powered off after ${wall}s ($machine, $accel)"
