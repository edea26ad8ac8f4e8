#!/bin/bash
# boottrace report - a short summary of a bundle (interim version, based on
# the dumped hist files and `trace-cmd report`, until trace-analysis exists).
set -euo pipefail

BT_TOP=${BT_TOP:-$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)}
# shellcheck source=../scripts/lib.sh
. "$BT_TOP/scripts/lib.sh"

usage()
{
	cat <<'USAGE'
usage: boottrace report BUNDLE [--top N]

Summarise a bundle written by `boottrace boot`: the boot (kernel, accelerator,
wall time, bootconfig status, warnings), the top entries of every histogram
the collector dumped (sorted by their first value, e.g. initcall latency in
microseconds, else by hit count), and the number of events per buffer and
event in trace.dat, counted from `trace-cmd report`.

options:
  --top N      histogram entries to show (default 10)
  -h, --help   this help
USAGE
}

bundle='' top=10
while [ $# -gt 0 ]; do
	case "$1" in
	-h | --help) usage; exit 0 ;;
	--top) [ $# -ge 2 ] || bt_die "--top needs a number"; top=$2; shift ;;
	-*) bt_die "unknown option '$1' (see boottrace report --help)" ;;
	*) [ -z "$bundle" ] || bt_die "more than one BUNDLE given"; bundle=$1 ;;
	esac
	shift
done
[ -n "$bundle" ] || { usage >&2; exit 2; }
case "$top" in "" | *[!0-9]*) bt_die "--top takes a number" ;; esac
[ -f "$bundle/metadata" ] || bt_die "$bundle: not a bundle (no metadata file)"

meta()
{
	sed -n "s/^$1=//p" "$bundle/metadata" | head -n1
}

echo "bundle:     $bundle"
echo "kernel:     $(meta kernel_release) ($(meta tree) $(meta tree_version))"
echo "boot:       $(meta boot_wall_seconds) s wall, $(meta accelerator), guest uptime at collect $(meta guest_uptime_at_collect) s"
m=$(meta bootconfig_message)
echo "bootconfig: $(meta bootconfig_status)${m:+ ($m)}"
w=$(meta warnings)
[ -z "$w" ] || printf 'warnings:   %s\n' "${w//|/; }"

# Histograms: "{ k: v, ... } hitcount: N  val: N ..." lines.
print_hist()
{
	local f=$1 name=$2

	awk -v top="$top" -v name="$name" '
	/^\{/ {
		key = $0; sub(/^\{ */, "", key); sub(/ *\}.*$/, "", key)
		gsub(/\[[0-9a-f]+\] /, "", key)		# symbolised keys: drop addresses
		gsub(/  +/, " ", key); gsub(/ ,/, ",", key)
		rest = $0; sub(/^[^}]*\} */, "", rest)
		n = split(rest, a, /[: ]+/)
		sortv = ""; vals = ""; hits = 0
		for (i = 1; i < n; i += 2) {
			if (a[i] == "") { i--; continue }
			if (a[i] == "hitcount") { hits = a[i + 1]; continue }
			vals = vals sprintf("%s=%s ", a[i], a[i + 1])
			if (sortv == "") sortv = a[i + 1]
		}
		if (hits != 1) once = 0; else if (cnt == 0) once = 1
		if (sortv == "") { sortv = hits; vals = "hits=" hits } else novals = 1
		cnt++
		entry[cnt] = sprintf("%020d\t%s\t%s", sortv, vals, key)
		next
	}
	/^ *Dropped:/ { dropped = $2 }
	END {
		if (cnt == 0) { printf "%s: no entries\n", name; exit }
		if (!novals && once) {
			printf "%s: %d entries, each hit once (a helper for variables)\n", name, cnt
			exit
		}
		printf "%s: top %d of %d entries%s\n", name, (cnt < top ? cnt : top), cnt,
			(dropped > 0 ? sprintf(" (%d dropped)", dropped) : "")
		for (k = 1; k <= top && k <= cnt; k++) {
			best = 0
			for (j = 1; j <= cnt; j++)
				if (!(j in used) && (best == 0 || entry[j] > entry[best])) best = j
			used[best] = 1
			split(entry[best], p, "\t")
			printf "  %-18s %s\n", p[2], p[3]
		}
	}' "$f"
}

found=0
while IFS= read -r f; do
	rel=${f#"$bundle"/tracefs/}
	rel=${rel%/hist}
	case "$rel" in
	instances/*) inst=${rel#instances/}; inst=${inst%%/*}; ev=${rel#instances/*/events/} ;;
	*) inst=top; ev=${rel#events/} ;;
	esac
	echo
	print_hist "$f" "histogram ${ev/\//:} ($inst)"
	found=1
done < <(find "$bundle/tracefs" -name hist -type f 2>/dev/null | LC_ALL=C sort)
[ "$found" = 1 ] || printf '\nno histograms in the bundle\n'

echo
if ! [ -s "$bundle/trace.dat" ]; then
	echo "no trace.dat in the bundle"
	exit 0
fi
bt_need_pkgs trace-cmd
if ! rep=$(trace-cmd report -i "$bundle/trace.dat" 2>/dev/null); then
	bt_die "trace-cmd report cannot read $bundle/trace.dat"
fi
insts=$(find "$bundle/tracefs/instances" -mindepth 1 -maxdepth 1 -type d \
	-printf '%f\n' 2>/dev/null | paste -sd' ' -)
echo "events in trace.dat (trace-cmd report):"
printf '%s\n' "$rep" | awk -v insts="$insts" '
	BEGIN { n = split(insts, a, " "); for (i = 1; i <= n; i++) inst[a[i]] = 1 }
	{
		buf = "top"
		if (match($0, /^[A-Za-z0-9_.+-]+:[ \t]/)) {
			name = substr($0, 1, RLENGTH - 2)
			if (name in inst) buf = name
		}
		if (match($0, /\[[0-9]+ EVENTS DROPPED\]/)) {
			d = substr($0, RSTART + 1); sub(/ .*/, "", d)
			dropped[buf] += d
			next
		}
		if (!match($0, /\[[0-9]+\] +[0-9]+\.[0-9]+: +[A-Za-z0-9_]+:/)) next
		ev = substr($0, RSTART, RLENGTH); sub(/:$/, "", ev); sub(/.* /, "", ev)
		count[buf "\t" ev]++
		bufs[buf] = 1
		total++
	}
	END {
		if (total == 0) { print "  (no events)"; exit }
		printf "  %-10s %-28s %10s\n", "buffer", "event", "count"
		for (k in count) {
			split(k, p, "\t")
			printf "  %-10s %-28s %10d\n", p[1], p[2], count[k] | "LC_ALL=C sort"
		}
		close("LC_ALL=C sort")
		for (b in dropped)
			printf "  %-10s %-28s %10d\n", b, "(dropped: buffer full)", dropped[b]
		printf "  %-10s %-28s %10d\n", "all", "", total
	}'

# Ring-buffer overruns per trace array, from the dumped per-CPU stats.
lost=$(find "$bundle/tracefs" -path '*/per_cpu/cpu*/stats' -type f 2>/dev/null |
	LC_ALL=C sort | while IFS= read -r f; do
		o=$(sed -n 's/^overrun: *//p' "$f")
		[ "${o:-0}" = 0 ] && continue
		d=${f%/per_cpu/*}
		a=${d#"$bundle"/tracefs}
		a=${a#/instances/}
		c=${f%/stats}
		printf '%-10s %s lost %s events (buffer_size_kb %s)\n' "${a:-top}" \
			"${c##*/}" "$o" "$(cat "$d/buffer_size_kb" 2>/dev/null)"
	done)
if [ -n "$lost" ]; then
	echo
	echo "ring buffer overruns (oldest events overwritten):"
	printf '%s\n' "$lost" | sed 's/^/  /'
fi
