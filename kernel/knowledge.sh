#!/bin/bash
# boottrace knowledge - what a kernel build knows, for `boottrace lint`.
set -euo pipefail

BT_TOP=${BT_TOP:-$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)}
# shellcheck source=../scripts/lib.sh
. "$BT_TOP/scripts/lib.sh"

usage()
{
	cat <<'USAGE'
usage: boottrace knowledge [--kernel BUILD | --tree 6.1|6.12] [--cached-only]
                           [--force] [--print-key]

Print the directory holding the lint's knowledge of one kernel build,
extracting it first when it is not cached.  BUILD is a kernel build's out/
directory (`kernel/build.sh --print-dir`), its bzImage, or a tree name;
default: the default build of --tree (6.1).  The build must exist (this
never compiles a kernel: run `boottrace kernel` first).

The knowledge is extracted once per kernel build into
$BOOTTRACE_CACHE/knowledge/<build key>/ (the build key is the kernel cache
entry's name, e.g. 6.1-1d6ffbacbda9cdb8, which covers tree, series, config
and compiler).  Files:
  info      key=value: key, tree, release, series, long_settings (yes when
            the series removes trace_boot's 256-byte limit), events_from
  symbols   function symbols of System.map (kprobe targets), sorted
  params    kernel command line parameters of the tree's x86 and generic
            code: NAME early|setup|core (early_param is parsed before
            bootconfig is)
  events    GROUP EVENT FIELD... of every event the booted kernel has
  module-events
            GROUP EVENT MODULE of the trace events of out/modules/*.ko
            (nm/objdump: not loaded at boot, so not in the boot's events)
  tracers, clocks, options
            available_tracers, trace_clock and trace_options of that kernel
The events, tracers, clocks and options come from one QEMU boot of the
kernel with `--no-bootconfig` (`boottrace boot --no-lint`): the bundle's
trace.dat holds the format of every event, tracefs/ the rest.  The lint
only reads this directory; this is the only program that writes it.

  --cached-only   print the directory only when it is already cached
                  (exit 1 and print nothing otherwise)
  --force         extract again
  --print-key     print the build key only
  -h, --help      this help
USAGE
}

kernel='' tree=6.1 cached_only='' force='' print_key=''
while [ $# -gt 0 ]; do
	case "$1" in
	-h | --help) usage; exit 0 ;;
	--kernel | --tree)
		[ $# -ge 2 ] || bt_usage "$1 needs a value (see --help)"
		if [ "$1" = --kernel ]; then kernel=$2; else tree=$2; fi
		shift
		;;
	--cached-only) cached_only=1 ;;
	--force) force=1 ;;
	--print-key) print_key=1 ;;
	*) bt_usage "unknown argument '$1' (see boottrace knowledge --help)" ;;
	esac
	shift
done

# The out/ directory of the build.
case "$kernel" in
'') ;;
6.1 | 6.12 | linux-source-6.1 | linux-source-6.12) tree=${kernel#linux-source-}; kernel='' ;;
esac
if [ -z "$kernel" ]; then
	tree=$(bt_tree_series "$tree")
	kernel=$("$BT_TOP/kernel/build.sh" --tree "$tree" --print-dir 2>/dev/null) || {
		[ -n "$cached_only" ] && exit 1
		bt_die "no kernel build for tree $tree yet: run 'boottrace kernel --tree $tree' first"
	}
fi
[ -e "$kernel" ] || bt_die "--kernel $kernel: no such file or directory (a kernel build's directory or its bzImage, or 6.1 or 6.12)"
[ ! -f "$kernel" ] || bt_dirname kernel "$kernel"
given=$kernel
kernel=$(cd "$kernel" 2>/dev/null && pwd) || bt_die "$given: not a directory"
for f in System.map metadata bzImage; do
	[ -f "$kernel/$f" ] || bt_die "$kernel: not a kernel build (no $f)"
done

# a build of kernel/build.sh (ENTRY/out): ENTRY's name; else the path's hash
key=${kernel%/*}
key=${key##*/}
[ "${kernel##*/}" = out ] || key="dir-$(printf "%s" "$kernel" | sha256sum | cut -c1-16)"
if [ -n "$print_key" ]; then
	echo "$key"
	exit 0
fi
dest="$(bt_cache_dir)/knowledge/$key"
if [ -z "$force" ] && [ -f "$dest/info" ]; then
	echo "$dest"
	exit 0
fi
[ -z "$cached_only" ] || exit 1

meta()
{
	sed -n "s/^$1=//p" "$kernel/metadata" | head -n1
}

bt_need_pkgs trace-cmd binutils
mkdir -p "$(dirname "$dest")"
# One extraction per key at a time (parallel test files ask for the same).
exec 8>"$(dirname "$dest")/.$key.lock"
flock 8
if [ -z "$force" ] && [ -f "$dest/info" ]; then
	echo "$dest"
	exit 0
fi
work=$(mktemp -d "$(dirname "$dest")/.$key.XXXXXX")
trap 'rm -rf "$work"' EXIT

bt_log "extracting kernel knowledge for $key into $dest"
# Function symbols: what a kprobe can be placed on.
awk '$2 ~ /^[TtWw]$/ { print $3 }' "$kernel/System.map" | LC_ALL=C sort -u >"$work/symbols"

# Parameters, from the tree's source (x86 and generic code).
tree_name=$(meta tree)
tree_ver=${tree_name#linux-source-}
src=$(bt_tree_dir "$tree_ver")
(
	cd "$src"
	grep -rhoE --include='*.c' --include='*.h' \
		'\b(early_param|__setup|core_param)\("[^"]+"' \
		--exclude-dir=Documentation --exclude-dir=tools --exclude-dir=samples \
		--exclude-dir=scripts --exclude-dir=arch . || true
	grep -rhoE --include='*.c' --include='*.h' \
		'\b(early_param|__setup|core_param)\("[^"]+"' arch/x86 || true
) | sed -E 's/^(early_param|__setup|core_param)\("([^"=]+)=?"$/\2 \1/' |
	sed -e 's/ early_param$/ early/' -e 's/ __setup$/ setup/' -e 's/ core_param$/ core/' |
	LC_ALL=C sort -u >"$work/params.all"
# A name that is both early and setup (e.g. console) is handled by both.
awk '{ k[$1] = (k[$1] == "" ? $2 : k[$1] "," $2) } END { for (n in k) print n, k[n] }' \
	"$work/params.all" | LC_ALL=C sort >"$work/params"
rm -f "$work/params.all"

# Events of the build's modules (out/modules/*.ko; not loaded at boot):
# GROUP EVENT MODULE.  An event is a trace_event_call "event_NAME" with a
# tracepoint string "__tpstrtab_NAME"; its group is the module's
# TRACE_SYSTEM string ("VAR__trace_system_name"; modules with one only).
module_events()
{
	local ko sysv sec off name tmp group

	for ko in "$kernel"/modules/*.ko; do
		[ -f "$ko" ] || continue
		name=$(basename "$ko" .ko)
		sysv=$(nm "$ko" 2>/dev/null | awk '$3 ~ /__trace_system_name$/ { print $3 }')
		[ "$(wc -w <<<"$sysv")" = 1 ] || continue
		read -r sec off < <(objdump -t "$ko" |
			awk -v s="$sysv" '$NF == s { print $(NF - 2), $1 }') || continue
		tmp=$(mktemp "$work/ko.XXXXXX")
		objcopy -O binary --only-section="$sec" "$ko" "$tmp" 2>/dev/null || continue
		group=$(tail -c +$((16#$off + 1)) "$tmp" | tr '\0' '\n' | sed -n 1p)
		rm -f "$tmp"
		[[ $group =~ ^[A-Za-z0-9_-]+$ ]] || continue
		nm "$ko" | awk -v g="$group" -v m="$name" '
			$3 ~ /^__tpstrtab_/ { tp[substr($3, 12)] = 1 }
			$3 ~ /^event_/ && $3 !~ /^event_class_/ { ev[substr($3, 7)] = 1 }
			END { for (e in ev) if (e in tp) print g, e, m }'
	done | LC_ALL=C sort
}
module_events >"$work/module-events"

# Events, tracers, clocks and options: one boot without bootconfig.
conf="$work/knowledge.bconf"
printf '%s\n' '# knowledge boot: the config is not applied (--no-bootconfig)' \
	'kernel.trace_clock = global' >"$conf"
"$BT_TOP/scripts/boot.sh" "$conf" -o "$work/bundle" --no-lint --quiet \
	--kernel "$kernel/bzImage" --no-bootconfig >/dev/null ||
	bt_die "the knowledge boot of $key failed (see above)"
b="$work/bundle"
[ -s "$b/trace.dat" ] || bt_die "the knowledge boot left no trace.dat"
trace-cmd report -E -i "$b/trace.dat" 2>/dev/null |
	awk -F: 'NF == 2 && $1 != "" && $2 != "" { print $2, $1 }' | LC_ALL=C sort >"$work/groups"
trace-cmd dump --events -i "$b/trace.dat" 2>/dev/null |
	awk '/^name: / { if (n) print n, f; n = $2; f = ""; next }
	     /^[ \t]*field:/ { sub(/;.*/, ""); gsub(/\[[^]]*\]/, ""); w = split($0, a, /[ \t*]+/);
			     f = f " " a[w] }
	     END { if (n) print n, f }' | LC_ALL=C sort >"$work/fields"
# GROUP EVENT FIELD...; events trace.dat lists without a group are ftrace's.
LC_ALL=C join -a2 "$work/groups" "$work/fields" |
	awk 'NF >= 1 { if ($2 ~ /^common_/ || NF == 1) { ev = $1; $1 = ""; print "ftrace", ev $0 }
	              else { ev = $1; g = $2; $1 = ""; $2 = ""; print g, ev, $0 } }' |
	tr -s ' ' | sed 's/ $//' | LC_ALL=C sort >"$work/events"
[ "$(wc -l <"$work/events")" -gt 100 ] ||
	bt_die "the knowledge boot's trace.dat lists only $(wc -l <"$work/events") events"
tr ' ' '\n' <"$b/tracefs/available_tracers" | sed '/^$/d' >"$work/tracers"
tr ' ' '\n' <"$b/tracefs/trace_clock" | tr -d '[]' | sed '/^$/d' >"$work/clocks"
sed -e 's/^no//' "$b/tracefs/trace_options" | LC_ALL=C sort -u >"$work/options"
rm -f "$work/groups" "$work/fields"

long=no
case " $(meta series) " in *Remove-the-256-byte-limit*) long=yes ;; esac
{
	echo "key=$key"
	echo "tree=$tree_name"
	echo "release=$(cat "$kernel/kernelrelease" 2>/dev/null || true)"
	echo "series=$(meta series)"
	echo "long_settings=$long"
	echo "events_from=$(sed -n 's/^kernel_release_guest=//p' "$b/metadata") boot at $(sed -n 's/^created=//p' "$b/metadata")"
	echo "extracted=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
} >"$work/info.tmp"
rm -rf "$b" "$conf"
mv "$work/info.tmp" "$work/info"
rm -rf "$dest"
mv "$work" "$dest"
trap - EXIT
echo "$dest"
