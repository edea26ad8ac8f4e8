#!/bin/bash
# bench/boot-loop.sh - the edit-to-bundle loop, cached vs the documented flow.
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
usage: bench/boot-loop.sh [CONF.bconf] [--runs N] [--tree 6.1|6.12] [--accel A]
                          [--kernel BZIMAGE]

Measures, in the same run, the time from an edited .bconf to a bundle:

  cached      `boottrace boot CONF` with the kernel and the dracut base image
              cached: copy the base, append the bootconfig, boot, unpack
  documented  the flow the kernel documents: regenerate the initramfs with
              dracut, `bootconfig -a` the config onto it, boot, unpack

Each run edits CONF first (a copy with a changed comment) so nothing can be
reused by accident.  Prints the median of each and their ratio.  The kernel
build is cached in both (it does not depend on the config).

options:
  --runs N          runs of each flow (default 3)
  --tree 6.1|6.12   kernel tree (default 6.1)
  --accel A         auto, kvm or tcg (default auto)
  --kernel BZIMAGE  use this built kernel (kernelrelease beside it)
  -h, --help        this help
USAGE
}

conf="$BT_TOP/examples/default.bconf" runs=3 tree=6.1 accel=auto kimage=
while [ $# -gt 0 ]; do
	case "$1" in
	-h | --help) usage; exit 0 ;;
	--runs | --tree | --accel | --kernel)
		[ $# -ge 2 ] || bt_die "$1 needs a value"
		case "$1" in
		--runs) runs=$2 ;;
		--tree) tree=$2 ;;
		--accel) accel=$2 ;;
		--kernel) kimage=$2 ;;
		esac
		shift
		;;
	-*) bt_die "unknown option '$1' (see --help)" ;;
	*) conf=$1 ;;
	esac
	shift
done
case "$runs" in "" | *[!0-9]* | 0) bt_die "--runs takes a positive number" ;; esac
[ -f "$conf" ] || bt_die "$conf: no such file"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/boottrace-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

bt_log "bench: preparing the kernel and the base initrd (cached)"
if [ -n "$kimage" ]; then
	[ -s "$(dirname "$kimage")/kernelrelease" ] || bt_die "no kernelrelease beside $kimage"
	BTB_KREL=$(<"$(dirname "$kimage")/kernelrelease")
	bootopts=(--kernel "$kimage" --accel "$accel")
else
	btb_kernel "$tree"
	bootopts=(--tree "$tree" --accel "$accel")
fi
"$BT_TOP/dracut-module/initrd.sh" --kver "$BTB_KREL" --print-base >/dev/null

# edit N: a copy of CONF that differs from every other run
edit()
{
	{ cat "$conf"; printf '\n# bench edit %s %s\n' "$1" "$(date +%s%N)"; } >"$tmp/conf.bconf"
}

elapsed()
{
	local t0=$1
	printf '%s %s\n' "$t0" "$(btb_now)" | awk '{ printf "%.2f", $2 - $1 }'
}

cached=() documented=()
for i in $(seq 1 "$runs"); do
	edit "c$i"
	t0=$(btb_now)
	"$BT_TOP/qemu/boot.sh" "$tmp/conf.bconf" -o "$tmp/bundle-cached" \
		"${bootopts[@]}" 2>"$tmp/cached.log" ||
		{ cat "$tmp/cached.log" >&2; bt_die "cached run $i failed"; }
	cached+=("$(elapsed "$t0")")
	bt_log "bench: cached run $i: ${cached[-1]} s"

	edit "d$i"
	t0=$(btb_now)
	"$BT_TOP/dracut-module/initrd.sh" --kver "$BTB_KREL" --no-cache \
		--print-base >"$tmp/base.path" 2>"$tmp/dracut.log" ||
		{ cat "$tmp/dracut.log" >&2; bt_die "dracut run $i failed"; }
	cp "$(cat "$tmp/base.path")" "$tmp/documented.img"
	btb_bootconfig -a "$tmp/conf.bconf" "$tmp/documented.img" >/dev/null
	"$BT_TOP/qemu/boot.sh" --initrd "$tmp/documented.img" "$tmp/conf.bconf" \
		-o "$tmp/bundle-documented" "${bootopts[@]}" 2>"$tmp/documented.log" ||
		{ cat "$tmp/documented.log" >&2; bt_die "documented run $i failed"; }
	documented+=("$(elapsed "$t0")")
	bt_log "bench: documented run $i: ${documented[-1]} s"
done

median()
{
	printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END {
		if (NR % 2) print v[(NR + 1) / 2]; else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

mc=$(median "${cached[@]}")
md=$(median "${documented[@]}")
accel_used=$(sed -n 's/^accelerator=//p' "$tmp/bundle-cached/metadata")
echo "boot loop, edit -> bundle ($runs run(s) each, $accel_used, kernel $BTB_KREL)"
printf '  cached (base initrd + bootconfig -a + boot): %6.2f s  [%s]\n' "$mc" "${cached[*]}"
printf '  documented (dracut + bootconfig -a + boot):  %6.2f s  [%s]\n' "$md" "${documented[*]}"
printf '  ratio documented/cached: %.2fx\n' "$(awk -v a="$md" -v b="$mc" 'BEGIN { print a / b }')"
