#!/bin/bash
# boottrace boot - the pipeline for one config: kernel, lint, initrd, QEMU
# boot, bundle.  Each stage is its own program; this only connects them.
set -euo pipefail

BT_TOP=${BT_TOP:-$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)}
# shellcheck source=lib.sh
. "$BT_TOP/scripts/lib.sh"
# shellcheck source=../qemu/lib-boot.sh
. "$BT_TOP/qemu/lib-boot.sh"
# shellcheck source=lib-bundle.sh
. "$BT_TOP/scripts/lib-bundle.sh"

usage()
{
	cat <<'USAGE'
usage: boottrace boot CONF.bconf [-o BUNDLE] [options]
       boottrace boot --initrd INITRD [-o BUNDLE] [options] [CONF.bconf]

Build (or reuse) the kernel (`boottrace kernel`), lint CONF against it,
make the initramfs (`boottrace initrd`), boot them (`boottrace qemu`), let
the collector in the initramfs write the bundle onto the guest's disk and
finish it on the host into the directory BUNDLE (layout: docs/bundle.md).
Prints BUNDLE's path on stdout.  BUNDLE is replaced only when the boot
produced a bundle; a failed boot leaves its console log in BUNDLE.failed/.
Without -o: $BOOTTRACE_CACHE/bundles/<CONF's name without .bconf>.

options:
  -o, --output BUNDLE    bundle directory to write
  --tree 6.1|6.12        kernel tree (default 6.1)
  --kernel BZIMAGE       boot this image instead of `boottrace kernel`
                         (kernelrelease must be beside it, or give --kver)
  --kver RELEASE         kernel release for --kernel
  --initrd INITRD        boot this initrd as it is (CONF is then only
                         recorded in the metadata)
  --delivery MODE        how CONF gets into the initrd: posthoc (default:
                         the cached dracut base + `bootconfig -a`, no dracut
                         run per config), trailer or early (dracut runs with
                         the 95bootconfig module, as a user's `dracut
                         --force` does; early needs the kernel series)
  --flavour shell|systemd
                         the initramfs flavour (`boottrace initrd --flavour`)
  --no-cache             rerun dracut for the base initrd
  --no-bootconfig        leave `bootconfig` off the kernel command line
  --append ARGS          extra kernel command line arguments
  --no-lint              boot CONF even when `boottrace lint` finds errors
  --knowledge            extract the kernel's knowledge for the lint first
                         when it is not cached (`boottrace knowledge`; one
                         extra boot per kernel); `boottrace run` does this
  --dry-run              print what would be booted, boot nothing
  --repeat N             boot N times and write a set of bundles,
                         BUNDLE/1 .. BUNDLE/N (what `boottrace diff` compares
                         as one side); BUNDLE is replaced only when all N
                         boots succeeded
  -h, --help             this help
QEMU options, passed to `boottrace qemu` as they are (see its --help):
  --machine pc|microvm, --accel auto|kvm|tcg, --smp N, --memory MB,
  --rtc DATE, --timeout SECONDS, -v/--verbose, -q/--quiet

The lint uses the kernel's cached knowledge (`boottrace knowledge`); without
it only the kernel-independent checks run.  The command line adds
trace_clock=global unless ARGS or the config set a trace clock: without it
the kernel wipes the top buffer at late init under TCG (docs/bundle.md).
Exit status: 0 with a bundle (warnings on stderr, e.g. a rejected
bootconfig), 1 with a one-line reason on timeout, kernel panic or missing
bundle, 2 on a usage error.
USAGE
}

conf='' bundle='' parent='' tree=6.1 kimage='' kver='' initrd='' use_bconf=1 append=''
repeat='' once=()
nocache='' delivery=posthoc nolint='' knowledge='' dryrun='' flavour=''
qopts=() quiet='' mem=512
while [ $# -gt 0 ]; do
	cur=("$@")
	case "$1" in
	-h | --help) usage; exit 0 ;;
	-o | --output | --tree | --kernel | --kver | --initrd | --append | --delivery | \
		--flavour | --repeat)
		[ $# -ge 2 ] || bt_usage "$1 needs a value (see boottrace boot --help)"
		case "$1" in
		-o | --output) bundle=$2 ;;
		--repeat) repeat=$2 ;;
		--tree) tree=$2 ;;
		--kernel) kimage=$2 ;;
		--kver) kver=$2 ;;
		--initrd) initrd=$2 ;;
		--append) append=$2 ;;
		--delivery) delivery=$2 ;;
		--flavour) flavour=$2 ;;
		esac
		shift
		;;
	--no-bootconfig) use_bconf= ;;
	--no-cache) nocache=--no-cache ;;
	--no-lint) nolint=1 ;;
	--knowledge) knowledge=1 ;;
	--dry-run) dryrun=1 ;;
	-*)
		var=$(btb_qemu_opt "$1") || bt_usage "unknown option '$1' (see boottrace boot --help)"
		qopts+=("$1")
		case "$var" in
		=FLAG\ quiet) quiet=1 ;;
		=FLAG*) ;;
		*)
			[ $# -ge 2 ] || bt_usage "$1 needs a value (see boottrace boot --help)"
			qopts+=("$2")
			[ "$var" != mem ] || mem=$2
			shift
			;;
		esac
		;;
	*)
		[ -z "$conf" ] || bt_usage "more than one CONF given ('$conf', '$1')"
		conf=$1
		;;
	esac
	shift
	# what one boot of a --repeat set is given: everything but -o and --repeat
	case "${cur[0]}" in
	-o | --output | --repeat) ;;
	*) once+=("${cur[@]:0:${#cur[@]}-$#}") ;;
	esac
done

[ -n "$conf" ] || [ -n "$initrd" ] || bt_usage "no CONF.bconf given (see --help)"
[ -z "$conf" ] || [ -f "$conf" ] || bt_die "$conf: no such file"
[ -z "$initrd" ] || [ -f "$initrd" ] || bt_die "$initrd: no such file"
case "$delivery" in posthoc | trailer | early) ;; *) bt_usage "--delivery: use posthoc, trailer or early" ;; esac
tree=$(bt_tree_series "$tree")
# the machine options are checked before anything is built
qcheck() { local machine=$BTB_DEFAULT_MACHINE accel=auto smp=2 mem=512 timeout=300 rtc='' var
	while [ $# -gt 0 ]; do
		var=$(btb_qemu_opt "$1")
		case "$var" in =FLAG*) ;; *) printf -v "$var" '%s' "$2"; shift ;; esac
		shift
	done
	btb_check_machine "$machine" "$accel" "$smp" "$mem" "$timeout" "$rtc"
}
qcheck ${qopts[@]+"${qopts[@]}"}
if [ -z "$bundle" ]; then
	name=$(basename "${conf:-$initrd}")
	mkdir -p "$(bt_cache_dir)/bundles"
	bundle="$(bt_cache_dir)/bundles/${name%.bconf}"
fi
bundle=${bundle%/}
bt_dirname parent "$bundle"
[ -d "$parent" ] || bt_die "$parent: no such directory (for -o $bundle)"
# is_set DIR: DIR holds a set of bundles (1/ .. N/, what --repeat writes)
is_set()
{
	local e n=0

	for e in "$1"/* "$1"/.[!.]*; do
		[ -e "$e" ] || continue
		[[ ${e##*/} =~ ^[1-9][0-9]*$ ]] && [ -f "$e/metadata" ] || return 1
		n=$((n + 1))
	done
	[ "$n" -gt 0 ]
}
# -o replaces only what boottrace wrote: a bundle, a set of them or an
# empty directory (a file, or a directory of anything else, is refused)
if [ -e "$bundle" ] && ! { [ -d "$bundle" ] && { [ -f "$bundle/metadata" ] ||
	[ -z "$(ls -A "$bundle" 2>/dev/null)" ] || is_set "$bundle"; }; }; then
	bt_die "$bundle exists and is not a bundle or a set of bundles; remove it or choose another -o"
fi
# --repeat N: N boots of the same options into BUNDLE.partial/1..N, then
# BUNDLE is replaced (a failed or interrupted set leaves the old one)
if [ -n "$repeat" ]; then
	[[ $repeat =~ ^[1-9][0-9]*$ ]] || bt_usage "--repeat needs a number above 0 (got '$repeat')"
	[ -z "$dryrun" ] || bt_usage "--repeat and --dry-run do not go together"
	rm -rf "$bundle.partial"
	mkdir "$bundle.partial"
	for ((k = 1; k <= repeat; k++)); do
		[ -n "$quiet" ] || bt_log "boot $k of $repeat"
		"$0" ${once[@]+"${once[@]}"} -o "$bundle.partial/$k" >/dev/null ||
			bt_die "boot $k of $repeat failed; $bundle is unchanged, the boots so far are in $bundle.partial"
	done
	rm -rf "$bundle.old"
	[ ! -e "$bundle" ] || mv "$bundle" "$bundle.old"
	mv "$bundle.partial" "$bundle"
	rm -rf "$bundle.old"
	echo "$bundle"
	exit 0
fi
say() { [ -n "$quiet" ] || bt_log "$@"; }

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

# the packages and programs this boot and the stages it runs use: checked
# and made once, here (exported to the stages)
if [ -z "$initrd" ]; then bt_need_pkgs "${BTB_PKGS[@]}"; else bt_need_pkgs qemu-system-x86 tar; fi
bt_tools_ready bootconfig/bootconfig bootconfig/boottrace-lint \
	collect/boottrace-collect trace-analysis/trace-analysis

# --- the config: parsed once here (the list), once by the lint ---------
conf_list=
if [ -n "$conf" ]; then
	conf_list=$(btb_bootconfig -l "$conf") ||
		bt_die "$conf: not a valid bootconfig (above); fix it and retry"
fi

# --- command line -----------------------------------------------------
# no_timer_check: under TCG on a loaded host the vCPU can miss the ticks
# the kernel's IO-APIC timer check waits for, and the boot panics ("IO-APIC
# + timer doesn't work!"; seen in bench/gate.sh runs at load 13-21); the
# emulated IO-APIC's timer works, so the check only costs the boot.
cmdline="console=ttyS0 panic=-1 no_timer_check rd.shell=0 rd.emergency=poweroff"
cmdline+=" boottrace.collect=vda"
[ -z "$use_bconf" ] || cmdline+=" bootconfig"
clock_added=
clock_in_conf=
clock_re=$'(^|\n)kernel\\.trace_clock[[:space:]]*='
if [ -n "$use_bconf" ] && [[ $conf_list =~ $clock_re ]]; then
	clock_in_conf=1
fi
if ! [[ " $append " =~ [[:space:]]trace_clock= ]] && [ -z "$clock_in_conf" ]; then
	cmdline+=" trace_clock=global"
	clock_added=1
fi
[ -z "$append" ] || cmdline+=" $append"

if [ -n "$dryrun" ]; then
	echo "tree=$tree"
	echo "kernel=$BTB_KIMAGE"
	echo "kernel_release=$BTB_KREL"
	echo "bconf=$conf"
	echo "initrd=${initrd:-build: delivery $delivery${flavour:+, flavour $flavour}${nocache:+, no cache}}"
	if [ -n "$nolint" ]; then echo "lint=no"; else echo "lint=yes${knowledge:+ (extract knowledge)}"; fi
	echo "cmdline=$cmdline"
	echo "qemu=${qopts[*]-}"
	echo "bundle=$bundle"
	exit 0
fi

# --- lint: errors stop the boot -----------------------------------------
if [ -z "$initrd" ] && [ -n "$conf" ] && [ -n "$use_bconf" ] && [ -z "$nolint" ]; then
	# the kernel's knowledge (extracted first with --knowledge), found
	# once; then the lint program itself, what `boottrace lint` runs
	if [ -n "$knowledge" ]; then
		kdir=$("$BT_TOP/kernel/knowledge.sh" --kernel "$BTB_KDIR") ||
			bt_die "extracting the knowledge of $BTB_KDIR failed (above)"
	else
		kdir=$("$BT_TOP/kernel/knowledge.sh" --kernel "$BTB_KDIR" --cached-only \
			2>/dev/null) || kdir=
	fi
	"$(bt_tool bootconfig boottrace-lint)" --quiet ${kdir:+--knowledge "$kdir"} "$conf" >&2 ||
		bt_die "$conf: boottrace lint found errors (above): fix them, or boot anyway with --no-lint"
fi

work=$(mktemp -d "$parent/.${bundle##*/}.work.XXXXXX")
trap 'rm -rf "$work"' EXIT

# --- initrd -----------------------------------------------------------
if [ -z "$initrd" ]; then
	initrd="$work/initrd.img"
	t=$EPOCHREALTIME
	"$BT_TOP/dracut-module/initrd.sh" "$conf" -o "$initrd" --kver "$BTB_KREL" \
		--delivery "$delivery" ${flavour:+--flavour "$flavour"} $nocache \
		2>"$work/initrd.log" &
	ipid=$!
	# progress: the step initrd.sh is at (its last message: dracut runs)
	initrd_phase() { tail -n1 "$work/initrd.log" | sed -e 's/^boottrace: //' -e 's/ (log: .*//'; }
	[ -n "$quiet" ] || bt_progress initrd "$ipid" initrd_phase
	wait "$ipid" || {
		cat "$work/initrd.log" >&2
		bt_die "$conf: no initrd (see above); fix the config and retry"
	}
	[ -n "$quiet" ] || cat "$work/initrd.log" >&2
	say "initrd: ready in $(btb_seconds_since "$t" 1)s"
fi

# --- boot: the disk the collector writes the bundle onto -----------------
disk="$work/out.disk"
# sparse; the bundle cannot outgrow the guest memory it was built in
printf 'BOOTTRACE-COLLECT-DISK-1' >"$disk"
truncate -s "$((mem + 64))M" "$disk"
mkdir "$work/boot"
# what the bundle keeps of the input (btb_finish_bundle copies them)
if [ -n "$conf" ]; then
	cp "$conf" "$work/boot/input.bconf"
	[ -z "$conf_list" ] || printf '%s\n' "$conf_list" >"$work/boot/input.bconf.list"
fi
# keep the console of a failed boot (an older bundle stays as it is)
keep_failed()
{
	rm -rf "$bundle.failed"
	mkdir -p "$bundle.failed"
	cp "$work/boot/console.log" "$work/boot/qemu.log" "$bundle.failed/" 2>/dev/null || true
	bt_log "console of the failed boot: $bundle.failed/console.log"
}
"$BT_TOP/qemu/qemu.sh" --kernel "$BTB_KIMAGE" --initrd "$initrd" --append "$cmdline" \
	--disk "$disk" -o "$work/boot" ${qopts[@]+"${qopts[@]}"} || { keep_failed; exit 1; }

# --- the bundle, finished on the host -----------------------------------
# the hashes from one sha256sum: the kernel, the initrd, CONF
bconf_hash=none bconf_path=
mapfile -t -d '' hashes < <(sha256sum --zero "$BTB_KIMAGE" "$initrd" ${conf:+"$conf"})
BTB_KIMAGE_HASH=${hashes[0]:0:16}
if [ -n "$conf" ]; then
	bconf_hash=${hashes[2]:0:16}
	case "$conf" in /*) bconf_path=$conf ;; *) bconf_path=$(readlink -f "$conf") ;; esac
fi
btb_finish_bundle "$disk" "$work/bundle" "$work/boot" \
	"bconf=$bconf_path" \
	"bconf_hash=$bconf_hash" \
	"initrd_hash=${hashes[1]:0:16}" \
	"bootconfig_on_cmdline=$([ -n "$use_bconf" ] && echo yes || echo no)" \
	"trace_clock_added=$([ -n "$clock_added" ] && echo yes || echo no)" || {
	keep_failed
	bt_die "$BTB_FINISH_ERROR"
}
out=$work/bundle

# --- install ----------------------------------------------------------
if [ -e "$bundle" ]; then
	mv "$bundle" "$work/old"
fi
mv "$out" "$bundle"
[ ! -e "$bundle.failed" ] || rm -rf "$bundle.failed"
declare -A meta=()
btb_read_keys meta "$bundle/metadata"
IFS='|' read -r -a ws <<<"${meta[warnings]-}"
for w in ${ws[@]+"${ws[@]}"}; do
	[ -z "$w" ] || printf 'boottrace: warning: %s\n' "$w" >&2
done
say "bundle: $bundle (boot ${meta[boot_wall_seconds]-?}s)"
printf '%s\n' "$bundle"
