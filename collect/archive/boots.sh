#!/bin/bash
# boottrace boots - the archive of bundles saved at boot by
# boottrace-collect.service: list it, save this boot into it, resolve
# `--boot WHICH` to a bundle.  The one place that knows the archive's
# layout: ARCHIVE/<boot-id>/ (32 hex digits, as journalctl --list-boots
# shows them), one bundle per boot, newest by the directory's time.
set -euo pipefail

BT_TOP=${BT_TOP:-$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../.." && pwd)}
# shellcheck source=../../scripts/lib.sh
. "$BT_TOP/scripts/lib.sh"

usage()
{
	cat <<'USAGE'
usage: boottrace boots [--archive DIR]
       boottrace boots --save [--archive DIR] [--keep N] [--timeout SECONDS]
       boottrace boots --resolve WHICH [--archive DIR]

List the bundles that boottrace-collect.service archived, newest first:
WHICH (as `--boot WHICH` of report, diff and check takes it), boot id, when
it was saved, kernel release, complete or not, size.

  --save            save this boot's bundle (what the service runs): only
                    when this boot's bootconfig has ftrace keys (otherwise
                    nothing happens), once per boot, with `boottrace
                    collect -o DIR` bounded by --timeout; then keep only
                    the newest --keep bundles
  --resolve WHICH   print the directory of an archived bundle: last (the
                    newest), -N (N before it), or a boot id (dashes
                    optional, a unique prefix is enough)
  --archive DIR     the archive (default /var/lib/boottrace/boots)
  --keep N          bundles kept by --save (default 10)
  --timeout S       seconds the collector may take (default 60)
  -h, --help        this help

Settings: /etc/default/boottrace (BOOTTRACE_ARCHIVE, BOOTTRACE_KEEP,
BOOTTRACE_COLLECT_TIMEOUT: KEY=VALUE lines); the environment and the
options win over it.  Testing: BOOTTRACE_PROC (default /proc) and
BOOTTRACE_COLLECT (a program run as PROG -o DIR instead of boottrace
collect).
USAGE
}

# KEY=VALUE lines of the defaults file for the keys the environment does
# not set; a bad line is an error naming file:line.
load_defaults()
{
	local f=${BOOTTRACE_DEFAULTS:-/etc/default/boottrace} n=0 line k v

	[ -r "$f" ] || return 0
	while IFS= read -r line || [ -n "$line" ]; do
		n=$((n + 1))
		[[ $line =~ ^[[:space:]]*(#.*)?$ ]] && continue
		[[ $line =~ ^[[:space:]]*([A-Z_]+)=(.*)$ ]] ||
			bt_die "$f:$n: not a KEY=VALUE line: '$line'"
		k=${BASH_REMATCH[1]} v=${BASH_REMATCH[2]}
		v=${v#\"} v=${v%\"}
		case "$k" in
		BOOTTRACE_ARCHIVE | BOOTTRACE_KEEP | BOOTTRACE_COLLECT_TIMEOUT) ;;
		*) bt_die "$f:$n: unknown setting $k (BOOTTRACE_ARCHIVE, BOOTTRACE_KEEP or BOOTTRACE_COLLECT_TIMEOUT)" ;;
		esac
		[ -n "${!k+x}" ] || printf -v "$k" '%s' "$v"
	done <"$f"
}

# The archived boots, newest first: "<mtime> <boot-id>" lines.
archived()
{
	[ -d "$archive" ] || return 0
	find "$archive" -mindepth 1 -maxdepth 1 -type d -regextype posix-extended \
		-regex '.*/[0-9a-f]{32}' -printf '%T@ %f\n' | LC_ALL=C sort -k1,1nr -k2,2r
}

# resolve WHICH: the bundle directory, or an error naming WHICH.
resolve()
{
	local which=$1 id n count ids=()

	mapfile -t ids < <(archived | cut -d' ' -f2)
	count=${#ids[@]}
	[ "$count" -gt 0 ] || bt_die "--boot $which: no archived boots in $archive (see boottrace boots)"
	case "$which" in
	last | -0) n=0 ;;
	-[0-9]*)
		n=${which#-}
		[[ $n =~ ^[0-9]+$ ]] || bt_die "--boot $which: use last, -N or a boot id"
		[ "$n" -lt "$count" ] ||
			bt_die "--boot $which: the archive has $count boot(s), the oldest is -$((count - 1))"
		;;
	*)
		id=$(printf '%s' "$which" | tr -d '-' | tr 'A-F' 'a-f')
		[[ $id =~ ^[0-9a-f]+$ ]] || bt_die "--boot $which: use last, -N or a boot id"
		local matches=() i
		for i in "${!ids[@]}"; do
			[[ ${ids[$i]} == "$id"* ]] && matches+=("$i")
		done
		[ ${#matches[@]} -gt 0 ] || bt_die "--boot $which: no archived boot has this id (see boottrace boots)"
		[ ${#matches[@]} -eq 1 ] ||
			bt_die "--boot $which: ${#matches[@]} archived boots start with this id; give more digits"
		n=${matches[0]}
		;;
	esac
	printf '%s\n' "$archive/${ids[$n]}"
}

# The value of KEY in a bundle's metadata, or "-".
meta()
{
	local v

	v=$(sed -n "s/^$2=//p" "$1/metadata" 2>/dev/null | head -n1)
	printf '%s\n' "${v:--}"
}

list()
{
	local i=0 t id dir which

	if [ -z "$(archived)" ]; then
		bt_log "no archived boots in $archive"
		return 0
	fi
	printf '%-5s %-32s %-19s %-24s %-8s %s\n' WHICH BOOT-ID SAVED KERNEL COMPLETE SIZE
	while read -r t id; do
		dir=$archive/$id
		which=-$i
		[ "$i" -gt 0 ] || which=last
		printf '%-5s %-32s %-19s %-24s %-8s %s\n' "$which" "$id" \
			"$(date -d "@${t%.*}" '+%Y-%m-%d %H:%M:%S')" \
			"$(meta "$dir" kernel_release_guest)" "$(meta "$dir" complete)" \
			"$(du -sh "$dir" | cut -f1)"
		i=$((i + 1))
	done < <(archived)
}

# Keep the newest $keep bundles.
rotate()
{
	local t id i=0

	while read -r t id; do
		i=$((i + 1))
		[ "$i" -gt "$keep" ] || continue
		bt_log "removing archived boot $id (keeping the last $keep)"
		rm -rf "${archive:?}/$id"
	done < <(archived)
}

save()
{
	local proc=${BOOTTRACE_PROC:-/proc} id tmp rc=0

	if ! grep -Eq '^ftrace[.]' "$proc/bootconfig" 2>/dev/null; then
		bt_log "this boot's bootconfig has no ftrace keys: nothing to save"
		return 0
	fi
	id=$(tr -d '\n-' <"$proc/sys/kernel/random/boot_id") ||
		bt_die "cannot read $proc/sys/kernel/random/boot_id"
	[[ $id =~ ^[0-9a-f]{32}$ ]] || bt_die "$proc/sys/kernel/random/boot_id: not a boot id: '$id'"
	mkdir -p "$archive" || bt_die "cannot create $archive"
	exec 9>"$archive/.lock"
	flock 9
	if [ -d "$archive/$id" ]; then
		bt_log "boot $id is already archived"
		return 0
	fi
	# Leftovers of a save that was killed (we hold the lock).
	rm -rf "$archive"/.saving-*
	tmp=$(mktemp -d "$archive/.saving-$id.XXXXXX")
	bt_log "saving boot $id into $archive (collector timeout ${timeout}s)"
	if [ -n "${BOOTTRACE_COLLECT:-}" ]; then
		timeout -k 5 "$timeout" "$BOOTTRACE_COLLECT" -o "$tmp/bundle" || rc=$?
	else
		timeout -k 5 "$timeout" "$BT_TOP/bin/boottrace" collect -o "$tmp/bundle" || rc=$?
	fi
	case "$rc" in
	0) ;;
	124 | 137)
		rm -rf "$tmp"
		bt_die "the collector did not finish within ${timeout}s: nothing archived"
		;;
	*)
		# An incomplete bundle (its metadata says so) is kept: what it
		# has may be all there is of this boot.  Without metadata it is
		# not a bundle.
		if [ ! -f "$tmp/bundle/metadata" ]; then
			rm -rf "$tmp"
			bt_die "the collector failed (exit $rc) without writing a bundle: nothing archived"
		fi
		;;
	esac
	mv "$tmp/bundle" "$archive/$id"
	touch "$archive/$id"
	rmdir "$tmp"
	bt_log "archived boot $id: $archive/$id"
	rotate
	[ "$rc" = 0 ] || bt_die "the collector failed (exit $rc): the bundle was archived as it is (incomplete)"
}

action=list which=''
load_defaults
archive=${BOOTTRACE_ARCHIVE:-/var/lib/boottrace/boots}
keep=${BOOTTRACE_KEEP:-10}
timeout=${BOOTTRACE_COLLECT_TIMEOUT:-60}
while [ $# -gt 0 ]; do
	case "$1" in
	-h | --help) usage; exit 0 ;;
	--save) action=save ;;
	--resolve)
		[ $# -ge 2 ] || bt_usage "--resolve needs last, -N or a boot id"
		action=resolve which=$2
		shift ;;
	--archive | --keep | --timeout)
		[ $# -ge 2 ] || bt_usage "$1 needs a value"
		case "$1" in
		--archive) archive=$2 ;;
		--keep) keep=$2 ;;
		--timeout) timeout=$2 ;;
		esac
		shift ;;
	*) usage >&2; bt_usage "unknown argument '$1'" ;;
	esac
	shift
done
[ ! -e "$archive" ] || [ -d "$archive" ] ||
	bt_die "$archive: not a directory (the archive: --archive or BOOTTRACE_ARCHIVE)"
[[ $keep =~ ^[1-9][0-9]*$ ]] || bt_die "keep: '$keep' is not a number >= 1 (--keep or BOOTTRACE_KEEP)"
[[ $timeout =~ ^[1-9][0-9]*$ ]] ||
	bt_die "timeout: '$timeout' is not a number of seconds >= 1 (--timeout or BOOTTRACE_COLLECT_TIMEOUT)"

case "$action" in
list) list ;;
save) save ;;
resolve) resolve "$which" ;;
esac
