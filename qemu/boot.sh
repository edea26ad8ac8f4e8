#!/bin/bash
# boottrace boot - boot a bconf in QEMU and write a trace bundle.
set -euo pipefail

BT_TOP=${BT_TOP:-$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)}
# shellcheck source=../scripts/lib.sh
. "$BT_TOP/scripts/lib.sh"
# shellcheck source=lib-boot.sh
. "$BT_TOP/qemu/lib-boot.sh"

usage()
{
	cat <<'USAGE'
usage: boottrace boot CONF.bconf -o BUNDLE [options]
       boottrace boot --initrd INITRD -o BUNDLE [options] [CONF.bconf]

Build (or reuse) the kernel and the initramfs, boot them in QEMU, let the
collector in the initramfs dump the tracing state and trace.dat, and unpack
the result into the bundle directory BUNDLE (layout: docs/bundle.md).
BUNDLE is replaced only when the boot produced a bundle; a failed boot
leaves its console log in BUNDLE.failed/.

options:
  -o, --output BUNDLE    bundle directory to write
  --tree 6.1|6.12        kernel tree (default 6.1)
  --kernel BZIMAGE       boot this image instead of `boottrace kernel`
                         (kernelrelease must be beside it, or give --kver)
  --kver RELEASE         kernel release for --kernel
  --initrd INITRD        boot this initrd as it is (CONF is then only
                         recorded in the metadata)
  --accel auto|kvm|tcg   accelerator (default auto: KVM when a short probe
                         boot works, else TCG)
  --rtc DATE             guest clock at power-on (YYYY-MM-DD[THH:MM:SS], UTC)
  --no-bootconfig        leave `bootconfig` off the kernel command line
  --append ARGS          extra kernel command line arguments
  --timeout SECONDS      give up after this long (default 300)
  --smp N                virtual CPUs (default 2)
  --memory MB            guest memory (default 512)
  --delivery MODE        how CONF gets into the initrd: posthoc (default:
                         the cached dracut base + `bootconfig -a`, no dracut
                         run per config), trailer or early (dracut runs with
                         the 95bootconfig module, as a user's `dracut
                         --force` does; early needs the kernel series)
  --no-cache             rerun dracut for the base initrd
  --no-lint              boot CONF even when `boottrace lint` finds errors
  -v, --verbose          show the serial console while booting
  -h, --help             this help

The harness adds trace_clock=global to the command line unless ARGS or the
config set a trace clock: without it the kernel wipes the top buffer at
late init under TCG (see docs/bundle.md).  Exit status: 0 with a bundle
(warnings on stderr, e.g. a rejected bootconfig), 1 with a one-line reason
on timeout, kernel panic or missing bundle.
USAGE
}

conf='' bundle='' tree=6.1 kimage='' kver='' initrd='' accel=auto rtc=''
use_bconf=1 append='' timeout=300 smp=2 mem=512 nocache='' verbose=''
delivery=posthoc nolint=${BOOTTRACE_NO_LINT:-}
while [ $# -gt 0 ]; do
	case "$1" in
	-h | --help) usage; exit 0 ;;
	-o | --output | --tree | --kernel | --kver | --initrd | --accel | --rtc | \
		--append | --timeout | --smp | --memory | --delivery)
		[ $# -ge 2 ] || bt_die "$1 needs a value (see boottrace boot --help)"
		case "$1" in
		-o | --output) bundle=$2 ;;
		--tree) tree=$2 ;;
		--kernel) kimage=$2 ;;
		--kver) kver=$2 ;;
		--initrd) initrd=$2 ;;
		--accel) accel=$2 ;;
		--rtc) rtc=$2 ;;
		--append) append=$2 ;;
		--timeout) timeout=$2 ;;
		--smp) smp=$2 ;;
		--memory) mem=$2 ;;
		--delivery) delivery=$2 ;;
		esac
		shift
		;;
	--no-bootconfig) use_bconf= ;;
	--no-cache) nocache=--no-cache ;;
	--no-lint) nolint=1 ;;
	-v | --verbose) verbose=1 ;;
	-*) bt_die "unknown option '$1' (see boottrace boot --help)" ;;
	*)
		[ -z "$conf" ] || bt_die "more than one CONF given ('$conf', '$1')"
		conf=$1
		;;
	esac
	shift
done

[ -n "$bundle" ] || bt_die "no bundle directory given: use -o BUNDLE"
[ -n "$conf" ] || [ -n "$initrd" ] || bt_die "no CONF.bconf given (see --help)"
[ -z "$conf" ] || [ -f "$conf" ] || bt_die "$conf: no such file"
[ -z "$initrd" ] || [ -f "$initrd" ] || bt_die "$initrd: no such file"
case "$accel" in auto | kvm | tcg) ;; *) bt_die "--accel: use auto, kvm or tcg" ;; esac
case "$timeout$smp$mem" in *[!0-9]*) bt_die "--timeout, --smp, --memory take numbers" ;; esac
if [ -n "$rtc" ]; then
	[[ $rtc =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2}(:[0-9]{2})?)?$ ]] ||
		bt_die "--rtc '$rtc': use YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS"
	date -u -d "${rtc/T/ }" >/dev/null 2>&1 || bt_die "--rtc '$rtc' is not a valid date"
fi
tree=$(bt_tree_series "$tree")
bundle=${bundle%/}
parent=$(dirname "$bundle")
[ -d "$parent" ] || bt_die "$parent: no such directory (for -o $bundle)"
if [ -e "$bundle" ] && ! [ -f "$bundle/metadata" ] && [ -n "$(ls -A "$bundle" 2>/dev/null)" ]; then
	bt_die "$bundle exists and is not a bundle; remove it or choose another -o"
fi
bt_need_pkgs "${BTB_PKGS[@]}"

# --- kernel -----------------------------------------------------------
if [ -n "$kimage" ]; then
	[ -f "$kimage" ] || bt_die "$kimage: no such file"
	BTB_KIMAGE=$kimage
	BTB_KDIR=$(dirname "$kimage")
	if [ -n "$kver" ]; then
		BTB_KREL=$kver
	elif [ -s "$BTB_KDIR/kernelrelease" ]; then
		BTB_KREL=$(<"$BTB_KDIR/kernelrelease")
	else
		bt_die "no kernelrelease beside $kimage: give --kver"
	fi
else
	btb_kernel "$tree"
fi

work=$(mktemp -d "$parent/.${bundle##*/}.work.XXXXXX")
cleanup()
{
	rm -rf "$work"
}
trap cleanup EXIT

# --- lint: errors stop the boot (the kernel's knowledge only if cached) ---
if [ -z "$initrd" ] && [ -n "$conf" ] && [ -n "$use_bconf" ] && [ -z "$nolint" ]; then
	"$BT_TOP/bootconfig/lint/lint.sh" --quiet --cached-only --kernel "$BTB_KDIR" "$conf" >&2 ||
		bt_die "$conf: boottrace lint found errors (above): fix them, or boot anyway with --no-lint"
fi

# --- initrd -----------------------------------------------------------
if [ -z "$initrd" ]; then
	initrd="$work/initrd.img"
	"$BT_TOP/dracut-module/initrd.sh" "$conf" -o "$initrd" --kver "$BTB_KREL" \
		--delivery "$delivery" $nocache ||
		bt_die "$conf: no initrd (see above); fix the config and retry"
fi
conf_list=
if [ -n "$conf" ]; then
	conf_list=$(btb_bootconfig -l "$conf" 2>/dev/null) || conf_list=
fi

# --- command line -----------------------------------------------------
cmdline="console=ttyS0 panic=-1 rd.shell=0 rd.emergency=poweroff"
cmdline+=" boottrace.collect=vda"
[ -z "$use_bconf" ] || cmdline+=" bootconfig"
clock_added=
clock_in_conf=
if [ -n "$use_bconf" ] &&
	printf '%s\n' "$conf_list" | grep -q '^kernel\.trace_clock[[:space:]]*='; then
	clock_in_conf=1
fi
if ! [[ " $append " =~ [[:space:]]trace_clock= ]] && [ -z "$clock_in_conf" ]; then
	cmdline+=" trace_clock=global"
	clock_added=1
fi
[ -z "$append" ] || cmdline+=" $append"

# --- accelerator ------------------------------------------------------
btb_accel_probe()
{
	local key cache res log
	key=$({
		sha256sum <"$BTB_KIMAGE"
		qemu-system-x86_64 --version | head -n1
		uname -r
	} | sha256sum | cut -c1-16)
	cache="$(bt_cache_dir)/accel"
	mkdir -p "$cache"
	if [ -f "$cache/kvm-$key" ]; then
		cat "$cache/kvm-$key"
		return
	fi
	log=$(mktemp "$work/kvmprobe.XXXXXX")
	bt_log "probing KVM with a short boot (result cached)"
	timeout -k 2 8 qemu-system-x86_64 -accel kvm -cpu host,-arch-capabilities \
		-m 256 -nodefaults -display none -no-reboot -serial "file:$log" \
		-kernel "$BTB_KIMAGE" -append "console=ttyS0 panic=-1" \
		>/dev/null 2>&1 || true
	if grep -q 'Linux version' "$log"; then res=kvm; else res=tcg; fi
	echo "$res" >"$cache/kvm-$key"
	echo "$res"
}

if [ "$accel" = auto ]; then
	if [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
		accel=$(btb_accel_probe)
	else
		accel=tcg
	fi
	bt_log "accelerator: $accel"
fi
if [ "$accel" = kvm ]; then
	qaccel=(-accel kvm -cpu 'host,-arch-capabilities')
else
	qaccel=(-accel tcg -cpu max)
fi

# --- boot -------------------------------------------------------------
disk="$work/out.disk"
# sparse; the bundle cannot outgrow the guest memory it was built in
truncate -s "$((mem + 64))M" "$disk"
printf 'BOOTTRACE-COLLECT-DISK-1' | dd of="$disk" conv=notrunc status=none
console="$work/console.log"
: >"$console"
qrtc=()
[ -z "$rtc" ] || qrtc=(-rtc "base=$rtc,clock=vm")

tailpid=
if [ -n "$verbose" ]; then
	tail -n +1 -f "$console" >&2 &
	tailpid=$!
fi
bt_log "booting $BTB_KREL ($accel, timeout ${timeout}s)"
t0=$(btb_now)
started=$(date -u +%Y-%m-%dT%H:%M:%SZ)
qrc=0
timeout -k 5 "$timeout" qemu-system-x86_64 "${qaccel[@]}" -machine pc \
	-smp "$smp" -m "$mem" -nodefaults -display none -no-reboot \
	-serial "file:$console" "${qrtc[@]}" \
	-drive "file=$disk,format=raw,if=virtio,cache=unsafe" \
	-kernel "$BTB_KIMAGE" -initrd "$initrd" -append "$cmdline" \
	>"$work/qemu.out" 2>&1 || qrc=$?
t1=$(btb_now)
[ -z "$tailpid" ] || kill "$tailpid" 2>/dev/null || true
wall=$(printf '%s %s\n' "$t0" "$t1" | awk '{ printf "%.2f", $2 - $1 }')

# --- verdict ----------------------------------------------------------
failed()
{
	local dest="$bundle.failed"

	rm -rf "$dest"
	mkdir -p "$dest"
	cp "$console" "$dest/console.log"
	cp "$work/qemu.out" "$dest/qemu.out"
	printf 'boottrace: error: %s (console: %s/console.log)\n' "$1" "$dest" >&2
	exit 1
}

panic=$(grep -a -m1 'Kernel panic - not syncing' "$console" | tr -d '\r' || true)
panic=${panic#*] }
[ -z "$panic" ] || failed "kernel panic: ${panic#Kernel panic - not syncing: }"
if [ "$qrc" -eq 124 ] || [ "$qrc" -eq 137 ]; then
	last=$(grep -a -v '^[[:space:]]*$' "$console" | tail -n1 | tr -d '\r' | cut -c1-100 || true)
	failed "timeout after ${timeout}s (last console line: ${last:-none})"
fi
if [ "$qrc" -ne 0 ]; then
	failed "qemu exited with status $qrc: $(head -n1 "$work/qemu.out")"
fi

out="$work/bundle"
btb_unpack "$disk" "$out" ||
	failed "no bundle: the guest did not write a readable archive (missing or rejected)"
[ -f "$out/collect.status" ] ||
	failed "no bundle: the archive has no collect.status (collector did not finish)"
rm -f "$disk"
cp "$console" "$out/console.log"
if [ -n "$conf" ]; then
	cp "$conf" "$out/input.bconf"
	[ -z "$conf_list" ] || printf '%s\n' "$conf_list" >"$out/input.bconf.list"
fi

# --- bootconfig verdict -----------------------------------------------
bconf_status=not-requested bconf_msg=
dm="$out/dmesg"
[ -s "$dm" ] || dm="$console"
bmsg=$(grep -a -E 'Load bootconfig:|bootconfig checksum failed|bootconfig size .* (greater|is greater)|Failed to (parse|init) bootconfig|found on command line, but no bootconfig' "$dm" |
	tr -d '\r' | sed 's/^\[[^]]*\] //' || true)
if [ -n "$use_bconf" ]; then
	if printf '%s\n' "$bmsg" | grep -q '^Load bootconfig:'; then
		bconf_status=loaded
	elif [ -n "$bmsg" ]; then
		bconf_status=rejected
	else
		bconf_status=unknown
	fi
elif printf '%s\n' "$bmsg" | grep -q 'checksum failed\|greater than initrd'; then
	bconf_status=rejected
fi
bconf_msg=$(printf '%s\n' "$bmsg" | paste -sd'|' -)
warnings=()
if [ "$bconf_status" = rejected ] || [ "$bconf_status" = unknown ]; then
	warnings+=("bootconfig $bconf_status: ${bconf_msg:-no bootconfig message in dmesg}")
fi
tb_errs=$(grep -a -c 'trace_boot: ' "$dm" || true)
[ "${tb_errs:-0}" -eq 0 ] || warnings+=("$tb_errs trace_boot error(s) in dmesg")
collect_errs=$(sed -n 's/^errors=//p' "$out/collect.status")
[ "${collect_errs:-0}" = 0 ] || warnings+=("collector reported $collect_errs problem(s), see collect.log")
[ -s "$out/trace.dat" ] || warnings+=("no trace.dat in the bundle")

# --- metadata ---------------------------------------------------------
bconf_hash=none
[ -z "$conf" ] || bconf_hash=$(sha256sum <"$conf" | cut -c1-16)
{
	echo "created=$started"
	echo "boottrace_version=$(git -C "$BT_TOP" describe --always --dirty 2>/dev/null || echo unknown)"
	echo "kernel_release=$BTB_KREL"
	echo "kernel_image_hash=$(sha256sum <"$BTB_KIMAGE" | cut -c1-16)"
	echo "tree=$(btb_kernel_meta tree)"
	echo "tree_version=$(btb_kernel_meta tree_version)"
	echo "series_hash=$(btb_kernel_meta series_hash)"
	echo "fragment_hash=$(btb_kernel_meta fragment_hash)"
	echo "compiler=$(btb_kernel_meta compiler)"
	echo "bconf=${conf:+$(readlink -f "$conf")}"
	echo "bconf_hash=$bconf_hash"
	echo "initrd_hash=$(sha256sum <"$initrd" | cut -c1-16)"
	echo "dracut=$(btb_dracut_version)"
	echo "trace_cmd=$(dpkg-query -W -f='${Version}' trace-cmd 2>/dev/null)"
	echo "bootconfig_on_cmdline=$([ -n "$use_bconf" ] && echo yes || echo no)"
	echo "bootconfig_status=$bconf_status"
	echo "bootconfig_message=$bconf_msg"
	echo "trace_clock_added=$([ -n "$clock_added" ] && echo yes || echo no)"
	echo "cmdline=$cmdline"
	echo "accelerator=$accel"
	echo "qemu=$(qemu-system-x86_64 --version | head -n1)"
	echo "smp=$smp"
	echo "memory_mb=$mem"
	echo "rtc=${rtc:-host}"
	echo "boot_wall_seconds=$wall"
	echo "warnings=$(IFS='|'; echo "${warnings[*]}")"
} | btb_bundle_meta "$out" || failed "no bundle: the collector's metadata is missing or conflicts (see above)"

# --- install ----------------------------------------------------------
if [ -e "$bundle" ]; then
	mv "$bundle" "$work/old"
fi
mv "$out" "$bundle"
rm -rf "$bundle.failed"
for w in "${warnings[@]}"; do
	printf 'boottrace: warning: %s\n' "$w" >&2
done
bt_log "bundle: $bundle (boot ${wall}s, $accel)"
