#!/bin/bash
# boottrace run - check a bconf, boot it, print a report.
set -euo pipefail

BT_TOP=${BT_TOP:-$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)}
# shellcheck source=../scripts/lib.sh
. "$BT_TOP/scripts/lib.sh"
# shellcheck source=lib-boot.sh
. "$BT_TOP/qemu/lib-boot.sh"

usage()
{
	cat <<'USAGE'
usage: boottrace run CONF.bconf [-o BUNDLE] [boot options]

Check CONF (`boottrace lint` when available, else a parse with the
bootconfig tool), boot it with `boottrace boot` and print `boottrace report`
of the bundle.  Without -o the bundle goes to
$BOOTTRACE_CACHE/bundles/<CONF name>.  Every other option is passed to
`boottrace boot` (see boottrace boot --help).

options:
  -o, --output BUNDLE   bundle directory
  -h, --help            this help
USAGE
}

conf='' bundle='' pass=()
while [ $# -gt 0 ]; do
	case "$1" in
	-h | --help) usage; exit 0 ;;
	-o | --output) [ $# -ge 2 ] || bt_die "$1 needs a directory"; bundle=$2; shift ;;
	--tree | --kernel | --kver | --initrd | --accel | --rtc | --append | \
		--timeout | --smp | --memory)
		[ $# -ge 2 ] || bt_die "$1 needs a value"
		pass+=("$1" "$2")
		shift
		;;
	-*) pass+=("$1") ;;
	*) [ -z "$conf" ] || bt_die "more than one CONF given"; conf=$1 ;;
	esac
	shift
done
[ -n "$conf" ] || { usage >&2; exit 2; }
[ -f "$conf" ] || bt_die "$conf: no such file"

if "$BT_TOP/bin/boottrace" lint --help >/dev/null 2>&1; then
	"$BT_TOP/bin/boottrace" lint "$conf" || bt_die "$conf: lint failed"
elif ! msg=$(btb_bootconfig -l "$conf" 2>&1 >/dev/null); then
	printf '%s\n' "$msg" >&2
	bt_die "$conf: not a valid bootconfig"
fi

if [ -z "$bundle" ]; then
	name=$(basename "$conf")
	name=${name%.bconf}
	mkdir -p "$(bt_cache_dir)/bundles"
	bundle="$(bt_cache_dir)/bundles/$name"
fi
"$BT_TOP/qemu/boot.sh" "$conf" -o "$bundle" "${pass[@]}"
echo
"$BT_TOP/bin/boottrace" report "$bundle"
