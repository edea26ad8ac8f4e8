#!/bin/bash
# bench/boot-loop.sh - the edit-to-bundle loop: legacy, new default, and the
# documented dracut flow, interleaved in one run.
set -euo pipefail

BT_TOP=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
export BT_TOP
# shellcheck source=../scripts/lib.sh
. "$BT_TOP/scripts/lib.sh"
# shellcheck source=../qemu/lib-boot.sh
. "$BT_TOP/qemu/lib-boot.sh"

usage()
{
	cat <<'USAGE'
usage: bench/boot-loop.sh [CONF.bconf] [--runs N] [--tree 6.1|6.12]
                          [--kernel BZIMAGE] [--legacy OPTS] [--new OPTS]
                          [--new-base IMG] [--only FLOWS]

Measures, interleaved in one run (N runs of each, in turn), the time from
an edited .bconf to a bundle, with the kernel and the images cached:

  legacy      the loop before issue 15: systemd dracut image with the shell
              collector, -machine pc (`boottrace boot CONF --machine pc`
              plus --legacy OPTS)
  default     `boottrace boot CONF` plus --new OPTS (none by default:
              what `boottrace run` boots); with --new-base IMG: IMG (a
              collector image without bootconfig) plus `bootconfig -a`,
              booted with --initrd
  documented  the flow the kernel documents: regenerate the initramfs with
              dracut, `bootconfig -a` the config onto it, boot (new machine
              options)
  report      edit-to-report: `boottrace run CONF` (new options), boot and
              report, with the kernel's lint knowledge cached

Each run edits CONF first (a copy with a changed comment) so nothing can be
reused by accident.  Prints per flow the median wall time and the median
of each phase (guest clock, from the console): QEMU start (QEMU start to
the kernel's first message, = boot wall - guest power-off time), kernel to
/init, /init to collector, collection, power-off, and the host's part
(initrd, unpacking, metadata); then the ratios.  Targets: default <= 3.0 s
median, >= 2.3x faster than legacy, report <= 3.5 s; exit 1 on a miss
(--no-targets: report only).

options:
  --runs N          runs of each flow (default 5)
  --tree 6.1|6.12   kernel tree (default 6.1)
  --kernel BZIMAGE  use this built kernel (kernelrelease beside it)
  --legacy OPTS     extra `boottrace boot` options for legacy (default
                    `--flavour systemd` when `boottrace initrd` has
                    flavours, else none: its image is then the systemd one)
  --new OPTS        `boottrace boot` options for default, documented and
                    report (default none: -machine microvm; e.g.
                    '--machine pc' to measure the loop on pc)
  --new-base IMG    the default flow's image (see above)
  --only FLOWS      comma-separated subset of legacy,default,documented,report
  --no-targets      do not check the targets
  -h, --help        this help
USAGE
}

conf="$BT_TOP/examples/default.bconf" runs=5 tree=6.1 kimage='' legacy_opts=''
new_opts='' new_base='' only='legacy,default,documented,report' targets=1
while [ $# -gt 0 ]; do
	case "$1" in
	-h | --help) usage; exit 0 ;;
	--runs | --tree | --kernel | --legacy | --new | --new-base | --only)
		[ $# -ge 2 ] || bt_die "$1 needs a value"
		case "$1" in
		--runs) runs=$2 ;;
		--tree) tree=$2 ;;
		--kernel) kimage=$2 ;;
		--legacy) legacy_opts=$2 ;;
		--new) new_opts=$2 ;;
		--new-base) new_base=$2 ;;
		--only) only=$2 ;;
		esac
		shift
		;;
	--no-targets) targets='' ;;
	-*) bt_die "unknown option '$1' (see --help)" ;;
	*) conf=$1 ;;
	esac
	shift
done
case "$runs" in "" | *[!0-9]* | 0) bt_die "--runs takes a positive number" ;; esac
[ -f "$conf" ] || bt_die "$conf: no such file"
[ -z "$new_base" ] || [ -f "$new_base" ] || bt_die "$new_base: no such file"
flows=()
IFS=, read -r -a flows <<<"$only"
for f in "${flows[@]}"; do
	case "$f" in legacy | default | documented | report) ;; *) bt_die "--only: unknown flow '$f'" ;; esac
done
# legacy is the systemd image wherever boottrace initrd has flavours
if [ -z "$legacy_opts" ] &&
	grep -q -- '--flavour' < <("$BT_TOP/dracut-module/initrd.sh" --help 2>/dev/null); then
	legacy_opts="--flavour systemd"
fi
read -r -a lopts <<<"$legacy_opts"
read -r -a nopts <<<"$new_opts"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/boottrace-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

bt_log "bench: preparing the kernel, the images and the lint knowledge (cached)"
if [ -n "$kimage" ]; then
	[ -s "$(dirname "$kimage")/kernelrelease" ] || bt_die "no kernelrelease beside $kimage"
	BTB_KREL=$(<"$(dirname "$kimage")/kernelrelease")
	kopts=(--kernel "$kimage")
else
	btb_kernel "$tree"
	kopts=(--tree "$tree")
	kimage=$BTB_KIMAGE
fi
"$BT_TOP/kernel/knowledge.sh" --kernel "$kimage" >/dev/null
# one boot of each flow's images before timing (fills the image caches)
# (each into its own directory: a bundle directory is replaced only by a
# bundle of the same kind, and a failed warm-up must show which one failed)
"$BT_TOP/scripts/boot.sh" "$conf" -o "$tmp/warm-legacy" -q "${kopts[@]}" --machine pc \
	${lopts[@]+"${lopts[@]}"} >/dev/null || bt_die "bench: the legacy warm-up boot failed (above)"
"$BT_TOP/scripts/boot.sh" "$conf" -o "$tmp/warm-default" -q "${kopts[@]}" \
	${nopts[@]+"${nopts[@]}"} >/dev/null || bt_die "bench: the default warm-up boot failed (above)"

# edit: a copy of CONF that differs from every other run
edit()
{
	{ cat "$conf"; printf '\n# bench edit %s %s\n' "$1" "$(date +%s%N)"; } >"$tmp/conf.bconf"
}

# run_flow FLOW N: one timed edit-to-bundle; prints "total host qemu init
# tocollect collect poweroff" (seconds)
run_flow()
{
	local flow=$1 n=$2 t0 t1 b="$tmp/bundle-$1" log="$tmp/$1.log" img

	edit "$flow$n"
	t0=$(btb_now)
	case "$flow" in
	legacy)
		"$BT_TOP/scripts/boot.sh" "$tmp/conf.bconf" -o "$b" -q "${kopts[@]}" \
			--machine pc ${lopts[@]+"${lopts[@]}"} >/dev/null 2>"$log"
		;;
	default)
		if [ -n "$new_base" ]; then
			cp "$new_base" "$tmp/new.img"
			btb_bootconfig -a "$tmp/conf.bconf" "$tmp/new.img" >/dev/null
			"$BT_TOP/scripts/boot.sh" --initrd "$tmp/new.img" "$tmp/conf.bconf" \
				-o "$b" -q "${kopts[@]}" ${nopts[@]+"${nopts[@]}"} >/dev/null 2>"$log"
		else
			"$BT_TOP/scripts/boot.sh" "$tmp/conf.bconf" -o "$b" -q "${kopts[@]}" \
				${nopts[@]+"${nopts[@]}"} >/dev/null 2>"$log"
		fi
		;;
	documented)
		img=$("$BT_TOP/dracut-module/initrd.sh" --kver "$BTB_KREL" --no-cache \
			--print-base 2>"$log")
		cp "$img" "$tmp/documented.img"
		btb_bootconfig -a "$tmp/conf.bconf" "$tmp/documented.img" >/dev/null
		"$BT_TOP/scripts/boot.sh" --initrd "$tmp/documented.img" "$tmp/conf.bconf" \
			-o "$b" -q "${kopts[@]}" ${nopts[@]+"${nopts[@]}"} >/dev/null 2>>"$log"
		;;
	report)
		"$BT_TOP/scripts/run.sh" "$tmp/conf.bconf" -o "$b" -q "${kopts[@]}" \
			${nopts[@]+"${nopts[@]}"} >"$tmp/report.txt" 2>"$log"
		;;
	esac || { cat "$log" >&2; bt_die "bench: $flow run $n failed"; }
	t1=$(btb_now)
	# shellcheck disable=SC2046 # key=value words
	local $(btb_console_phases "$b/console.log")
	local wall
	wall=$(sed -n 's/^boot_wall_seconds=//p' "$b/metadata")
	awk -v t0="$t0" -v t1="$t1" -v w="$wall" -v i="${init:-}" -v cs="${collect_start:-}" \
		-v ce="${collect_end:-}" -v off="${poweroff:-}" 'BEGIN {
		t = t1 - t0
		printf "%.2f %.2f %s %s %s %s %s\n", t, t - w,
			off == "" ? "-" : sprintf("%.2f", w - off),
			i == "" ? "-" : sprintf("%.2f", i),
			(cs == "" || i == "") ? "-" : sprintf("%.2f", cs - i),
			(cs == "" || ce == "") ? "-" : sprintf("%.2f", ce - cs),
			(ce == "" || off == "") ? "-" : sprintf("%.2f", off - ce) }'
}

for i in $(seq 1 "$runs"); do
	for f in "${flows[@]}"; do
		r=$(run_flow "$f" "$i")
		printf '%s\n' "$r" >>"$tmp/$f.times"
		bt_log "bench: $f run $i: ${r%% *} s"
	done
done

# median of column C of FILE ("-" when it has no numbers)
median()
{
	awk -v c="$2" '$c != "-" { print $c }' "$1" | sort -n | awk '{ v[NR] = $1 }
		END { if (NR == 0) print "-"; else if (NR % 2) print v[(NR + 1) / 2];
		      else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

declare -A med
echo "boot loop, edit -> bundle: $runs run(s) of each flow, interleaved"
echo "kernel $BTB_KREL; $(uptime | sed 's/^.*load/load/')"
printf '%-11s %7s | %6s %6s %6s %7s %7s %6s | %s\n' flow median host qemu \
	"->init" "->coll" collect "->off" runs
for f in "${flows[@]}"; do
	med[$f]=$(median "$tmp/$f.times" 1)
	printf '%-11s %7s | %6s %6s %6s %7s %7s %6s | %s\n' "$f" "${med[$f]}" \
		"$(median "$tmp/$f.times" 2)" "$(median "$tmp/$f.times" 3)" \
		"$(median "$tmp/$f.times" 4)" "$(median "$tmp/$f.times" 5)" \
		"$(median "$tmp/$f.times" 6)" "$(median "$tmp/$f.times" 7)" \
		"$(cut -d' ' -f1 "$tmp/$f.times" | paste -sd' ' -)"
done
echo "(seconds; host: edit-to-bundle minus the QEMU run; qemu: QEMU start to the"
echo " kernel; ->init: kernel to /init; ->coll: /init to the collector; collect:"
echo " the collector; ->off: collector end to power-off)"

ratio()
{
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'
}
miss=0
check()
{
	local what=$1 ok=$2

	if [ "$ok" = 1 ]; then
		echo "  target met: $what"
	else
		echo "  TARGET MISSED: $what"
		miss=1
	fi
}
if [ -n "${med[default]:-}" ]; then
	[ -z "${med[legacy]:-}" ] ||
		echo "ratio legacy/default: $(ratio "${med[legacy]}" "${med[default]}")x"
	[ -z "${med[documented]:-}" ] ||
		echo "ratio documented/default: $(ratio "${med[documented]}" "${med[default]}")x"
fi
if [ -n "$targets" ]; then
	if [ -n "${med[default]:-}" ]; then
		check "default edit-to-bundle ${med[default]} s <= 3.0 s" \
			"$(awk -v m="${med[default]}" 'BEGIN { print (m <= 3.0) }')"
		[ -z "${med[legacy]:-}" ] ||
			check "default $(ratio "${med[legacy]}" "${med[default]}")x faster than legacy >= 2.3x" \
				"$(awk -v a="${med[legacy]}" -v b="${med[default]}" 'BEGIN { print (a / b >= 2.3) }')"
	fi
	[ -z "${med[report]:-}" ] ||
		check "edit-to-report ${med[report]} s <= 3.5 s" \
			"$(awk -v m="${med[report]}" 'BEGIN { print (m <= 3.5) }')"
fi
exit "$miss"
