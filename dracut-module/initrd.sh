#!/bin/bash
# boottrace initrd - a test-boot initramfs with the collector and a bconf.
set -euo pipefail

BT_TOP=${BT_TOP:-$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)}
# shellcheck source=../scripts/lib.sh
. "$BT_TOP/scripts/lib.sh"
# shellcheck source=lib-dracut.sh
. "$BT_TOP/dracut-module/lib-dracut.sh"

usage()
{
	cat <<'USAGE'
usage: boottrace initrd [CONF.bconf] -o INITRD [options]

Build an initramfs for a test boot: Debian's dracut (no kernel modules)
with the boottrace collector module (collect/, run at the first hook, which
powers off when done), carrying CONF.  The default flavour is dracut's
shell init, uncompressed: the fastest to unpack and reach; --flavour
systemd makes the systemd-based image real systems use.

By default (--delivery posthoc) the dracut output without bootconfig (the
"base" image) is cached and CONF is appended with `boottrace bootconfig -a`:
changing only CONF never reruns dracut.  --delivery trailer|early instead
runs dracut with the bootconfig delivery module (dracut-module/95bootconfig)
carrying CONF, exactly what a user's `dracut --force` with bootconfig_files
makes (cached per CONF content and mode).

Images are cached in $BOOTTRACE_CACHE/initrd, keyed by the dracut version,
the modules, the kernel release, the dracut arguments (flavour), the
versions of the host programs copied into the image, the collector binary
and (for trailer/early) CONF's content and the delivery mode.

options:
  -o, --output INITRD   where to write the image (replaced only on success)
  --kver RELEASE        kernel release to build for (default: the release of
                        the kernel `boottrace kernel --tree TREE` builds)
  --tree 6.1|6.12       kernel tree (default 6.1)
  --flavour shell|systemd
                        the initramfs init: dracut's shell init (default;
                        the environment's BT_INITRD_FLAVOUR overrides the
                        default) or systemd
  --delivery MODE       posthoc (default): the cached base image plus
                        `bootconfig -a`; trailer or early: dracut with the
                        95bootconfig module in that bootconfig_mode
  --no-cache            rerun dracut even when a cached image exists
  --print-base          only build (or find) the base image, print its path
  -h, --help            this help

environment: BT_BOOTCONFIG=PATH uses another bootconfig tool for -a.
USAGE
}

conf='' out='' kver='' tree=6.1 nocache='' print_base='' delivery=posthoc
while [ $# -gt 0 ]; do
	case "$1" in
	-h | --help) usage; exit 0 ;;
	-o | --output) [ $# -ge 2 ] || bt_usage "$1 needs a file"; out=$2; shift ;;
	--kver) [ $# -ge 2 ] || bt_usage "--kver needs a release"; kver=$2; shift ;;
	--tree) [ $# -ge 2 ] || bt_usage "--tree needs 6.1 or 6.12"; tree=$2; shift ;;
	--flavour) [ $# -ge 2 ] || bt_usage "--flavour needs shell or systemd"; BTB_FLAVOUR=$2; shift ;;
	--delivery) [ $# -ge 2 ] || bt_usage "--delivery needs trailer, early or posthoc"; delivery=$2; shift ;;
	--no-cache) nocache=--no-cache ;;
	--print-base) print_base=1 ;;
	-*) bt_usage "unknown option '$1' (see boottrace initrd --help)" ;;
	*)
		[ -z "$conf" ] || bt_usage "more than one CONF given ('$conf', '$1')"
		conf=$1
		;;
	esac
	shift
done
tree=$(bt_tree_series "$tree")
case "$delivery" in trailer | early | posthoc) ;; *) bt_usage "--delivery: use trailer, early or posthoc" ;; esac
case "$BTB_FLAVOUR" in shell | systemd) ;; *) bt_usage "--flavour: use shell or systemd (got '$BTB_FLAVOUR')" ;; esac

if [ -z "$print_base" ]; then
	[ -n "$out" ] || bt_usage "no output given: use -o INITRD (see --help)"
	if [ -n "$conf" ] && ! [ -f "$conf" ]; then
		bt_die "$conf: no such file"
	fi
fi

if [ -z "$kver" ]; then
	kimage=$("$BT_TOP/bin/boottrace" kernel --tree "$tree" | tail -n1) ||
		bt_die "no kernel for tree $tree (see above); or give --kver"
	kver=$(cat "$(dirname "$kimage")/kernelrelease") ||
		bt_die "$(dirname "$kimage")/kernelrelease is missing"
fi
case "$kver" in
"" | */* | .*) bt_die "bad kernel release '$kver'" ;;
esac

if [ -n "$print_base" ] || [ -z "$conf" ] || [ "$delivery" = posthoc ]; then
	base=$(btb_base_initrd "$kver" $nocache)
else
	base=$(btb_conf_initrd "$kver" "$conf" "$delivery" $nocache)
fi
if [ -n "$print_base" ]; then
	printf '%s\n' "$base"
	exit 0
fi

outdir=
bt_dirname outdir "$out"
[ -d "$outdir" ] || bt_die "$outdir: no such directory (for -o $out)"
tmp=$(mktemp "$outdir/.initrd.XXXXXX")
trap 'rm -f "$tmp"' EXIT
cp "$base" "$tmp"
if [ -n "$conf" ] && [ "$delivery" = posthoc ]; then
	if ! msg=$(btb_bootconfig -a "$conf" "$tmp" 2>&1); then
		printf '%s\n' "$msg" >&2
		bt_die "$conf: bootconfig -a rejected it; fix the config and retry"
	fi
fi
mv -f "$tmp" "$out"
trap - EXIT
bt_log "initrd: $out${conf:+ (with $conf)}"
