#!/bin/bash
# examples/coverage.sh - verify the coverage table of examples/README.md
# against the kernel tree: every boot-time tracing key the tree documents
# or accepts has a row, every row names examples that really use the key,
# and no row is stale.
set -euo pipefail

BT_TOP=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
# shellcheck source=../scripts/lib.sh
. "$BT_TOP/scripts/lib.sh"

usage()
{
	cat <<'USAGE'
usage: examples/coverage.sh [--tree DIR] [--readme FILE] [--examples DIR]

Checks the table between "<!-- coverage:begin -->" and "<!-- coverage:end -->"
in examples/README.md (rows: | `KEY` | EXAMPLE.bconf[, ...] | `USED-AS` |)
against the target tree:

  - every key of Documentation/trace/boottime-trace.rst (its definition
    lines, <a|b> alternatives expanded, and the kernel.* keys of its
    examples) has exactly one row, and every row is such a key (no stale
    rows);
  - every key word kernel/trace/trace_boot.c looks up (string literals of
    xbc_node_find_value/find_subkey/for_each_array_value, the hist helpers
    and strcmp) appears in some row;
  - every ftrace.* key of the document's examples matches some row;
  - every example a row names exists and has a key (bootconfig -l)
    matching the row's key, or its USED-AS key when the documented name is
    not what the kernel knows.

  --tree DIR      kernel tree to read (default: linux-source-6.1 with
                  kernel/series applied to those two files)
  --readme FILE   the table (default examples/README.md)
  --examples DIR  where the .bconf files are (default: the README's dir)

Exit status 0 when complete, 1 naming every problem, 2 on bad usage.
USAGE
}

tree=
readme=$BT_TOP/examples/README.md
exdir=
while [ $# -gt 0 ]; do
	case "$1" in
	-h | --help) usage; exit 0 ;;
	--tree) [ $# -ge 2 ] || { usage >&2; exit 2; }; tree=$2; shift ;;
	--readme) [ $# -ge 2 ] || { usage >&2; exit 2; }; readme=$2; shift ;;
	--examples) [ $# -ge 2 ] || { usage >&2; exit 2; }; exdir=$2; shift ;;
	*) echo "coverage.sh: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
	esac
	shift
done
[ -n "$exdir" ] || exdir=$(dirname "$readme")
[ -f "$readme" ] || bt_die "$readme: no such file"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bt-coverage.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

rst_rel=Documentation/trace/boottime-trace.rst
tb_rel=kernel/trace/trace_boot.c

# The two files of the target tree: the packaged tree + our series.
target_files()
{
	local src patch line series=$BT_TOP/kernel/series

	src=$(bt_tree_dir 6.1)
	mkdir -p "$tmp/tree/${rst_rel%/*}" "$tmp/tree/${tb_rel%/*}"
	cp "$src/$rst_rel" "$tmp/tree/$rst_rel"
	cp "$src/$tb_rel" "$tmp/tree/$tb_rel"
	while IFS= read -r line; do
		line=${line%%#*}
		line=${line//[[:space:]]/}
		[ -n "$line" ] || continue
		patch=$BT_TOP/kernel/patches/$line
		[ -f "$patch" ] || bt_die "$series: $line: no such patch"
		(cd "$tmp/tree" && git apply --include="$rst_rel" \
			--include="$tb_rel" "$patch") ||
			bt_die "$line does not apply to $rst_rel/$tb_rel"
	done <"$series"
	tree=$tmp/tree
}

[ -n "$tree" ] || target_files
rst=$tree/$rst_rel
tb=$tree/$tb_rel
[ -f "$rst" ] || bt_die "$rst: no such file"
[ -f "$tb" ] || bt_die "$tb: no such file"

bconf=$BT_TOP/bootconfig/build/bootconfig
[ -x "$bconf" ] || make -s -C "$BT_TOP/bootconfig" >&2

problems=0
problem()
{
	echo "coverage: $*"
	problems=$((problems + 1))
}

# --- the documented keys ------------------------------------------------
# Definition lines start in column 0 with "ftrace." or "kernel.".
doc_keys()
{
	local k pre alts post a

	grep -E '^(ftrace|kernel)\.[^ ]' "$rst" | awk '{ print $1 }' |
		while IFS= read -r k; do
			if [[ $k =~ ^(.*)\<([^\>]*)\>(.*)$ ]]; then
				pre=${BASH_REMATCH[1]}
				alts=${BASH_REMATCH[2]}
				post=${BASH_REMATCH[3]}
				IFS='|' read -r -a a <<<"$alts"
				printf "$pre%s$post\n" "${a[@]}"
			else
				printf '%s\n' "$k"
			fi
		done
}

# The literal blocks of the document (after "::"), one file each.
awk -v dir="$tmp" '
	/::[ \t]*$/ { want = 1; next }
	want && /^[ \t]*$/ { if (inblk) print "" > f; next }
	want && /^[ \t]/ { if (!inblk) { n++; f = dir "/block" n; inblk = 1 }
			   print > f; next }
	{ if (inblk) close(f); want = 0; inblk = 0 }
' "$rst"

: >"$tmp/example-keys"
for b in "$tmp"/block*; do
	[ -f "$b" ] || continue
	"$bconf" -l "$b" 2>/dev/null | sed 's/ = .*//' >>"$tmp/example-keys" || true
done

{
	doc_keys
	grep '^kernel\.' "$tmp/example-keys" || true
} | sort -u >"$tmp/required"
[ -s "$tmp/required" ] || bt_die "$rst: no keys found (not the boot-time tracing document?)"

# --- trace_boot.c's key words -------------------------------------------
grep -oE '(xbc_node_find_value|xbc_node_find_subkey|xbc_node_for_each_array_value|xbc_find_node|trace_boot_hist_add_array|trace_boot_hist_add_handlers|strcmp)\([^;"]*"[^"]+"' "$tb" |
	sed -E 's/.*"([^"]+)"$/\1/' | sort -u >"$tmp/words"
[ -s "$tmp/words" ] || bt_die "$tb: no key lookups found"

# --- the table ------------------------------------------------------------
# rows: KEY<TAB>EXAMPLES<TAB>USED-AS
awk '
	/<!-- coverage:begin -->/ { on = 1; next }
	/<!-- coverage:end -->/ { on = 0 }
	on && /^\|/ {
		n = split($0, c, "|")
		if (n < 4) next
		key = c[2]; ex = c[3]; as = (n >= 5 ? c[4] : "")
		gsub(/[` \t]/, "", key); gsub(/[` \t]/, "", ex); gsub(/[` \t]/, "", as)
		if (key == "" || key ~ /^-+$/ || key == "key") next
		print key "\t" ex "\t" as
	}
' "$readme" >"$tmp/rows"
[ -s "$tmp/rows" ] || bt_die "$readme: no coverage table (rows between <!-- coverage:begin --> and <!-- coverage:end -->)"

cut -f1 "$tmp/rows" | sort | uniq -d | while IFS= read -r k; do
	echo "coverage: duplicate row: $k"
done >"$tmp/dups"
[ ! -s "$tmp/dups" ] || { cat "$tmp/dups"; problems=$((problems + $(wc -l <"$tmp/dups"))); }

# A documented key pattern as an anchored ERE over full keys, in REPLY.
key_regex()
{
	local k=$1 w

	k=${k//\[instance.INSTANCE.\]/@I@}
	k=${k//\[N.\]/@N@}
	k=${k//\[M.\]/@N@}
	for w in INSTANCE GROUP EVENT VARIABLE; do
		k=${k//.$w./.@W@.}
		k=${k//@$w./@@W@.}
		[[ $k != *.$w ]] || k=${k%"$w"}@W@
	done
	k=${k//./\\.}
	k=${k//@I@/(instance\\.[A-Za-z0-9_-]+\\.)?}
	k=${k//@N@/([0-9]+\\.)?}
	k=${k//@W@/[A-Za-z0-9_-]+}
	REPLY="^$k\$"
}

cut -f1 "$tmp/rows" | sort >"$tmp/row-keys"
comm -23 "$tmp/required" "$tmp/row-keys" | while IFS= read -r k; do
	echo "coverage: missing row: $k (documented in $rst_rel)"
done >"$tmp/missing"
comm -13 "$tmp/required" "$tmp/row-keys" | while IFS= read -r k; do
	echo "coverage: stale row: $k (not a key of $rst_rel)"
done >>"$tmp/missing"
[ ! -s "$tmp/missing" ] || { cat "$tmp/missing"; problems=$((problems + $(wc -l <"$tmp/missing"))); }

: >"$tmp/ftrace-res"
while IFS=$'\t' read -r k ex as; do
	key_regex "${as:-$k}"
	re=$REPLY
	[[ $k != ftrace.* ]] || printf '%s\n' "$re" >>"$tmp/ftrace-res"
	[ -n "$ex" ] || { problem "row $k names no example"; continue; }
	IFS=',' read -r -a exs <<<"$ex"
	for e in "${exs[@]}"; do
		f=$exdir/$e
		if [ ! -f "$f" ]; then
			problem "row $k: $e: no such example"
			continue
		fi
		kf=$tmp/keys.$e
		if [ ! -f "$kf" ]; then
			if ! "$bconf" -l "$f" >"$kf.list" 2>"$tmp/err"; then
				problem "row $k: $e does not parse: $(head -n1 "$tmp/err")"
				continue
			fi
			sed 's/ = .*//' "$kf.list" >"$kf"
		fi
		grep -qE -- "$re" "$kf" ||
			problem "row $k: $e has no key matching ${as:-$k}"
	done
done <"$tmp/rows"

# Every word trace_boot.c looks up appears in some row's key.
awk '
	NR == FNR { keys[++n] = $0; next }
	{
		w = $0
		gsub(/\./, "\\.", w)
		re = "(^|[].[<|])" w "([].>|]|$)"
		for (i = 1; i <= n; i++)
			if (keys[i] ~ re)
				next
		print "coverage: no row covers \x27" $0 "\x27 (looked up by '"$tb_rel"')"
	}
' "$tmp/row-keys" "$tmp/words" >"$tmp/uncovered"
[ ! -s "$tmp/uncovered" ] || { cat "$tmp/uncovered"; problems=$((problems + $(wc -l <"$tmp/uncovered"))); }

# Every ftrace.* key of the document's examples fits some row.
grep '^ftrace\.' "$tmp/example-keys" | sort -u | grep -vE -f "$tmp/ftrace-res" |
	sed "s|^|coverage: example key of $rst_rel fits no row: |" >"$tmp/unfit" || true
[ ! -s "$tmp/unfit" ] || { cat "$tmp/unfit"; problems=$((problems + $(wc -l <"$tmp/unfit"))); }

nrows=$(wc -l <"$tmp/rows")
if [ "$problems" -gt 0 ]; then
	echo "coverage: $problems problem(s) in $readme"
	exit 1
fi
echo "coverage: $nrows rows cover $(wc -l <"$tmp/required") documented keys and $(wc -l <"$tmp/words") trace_boot.c key words"
