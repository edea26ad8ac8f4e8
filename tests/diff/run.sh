#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tests/diff/run.sh - differential test of our bootconfig parser and CLI
# against the packaged tree's lib/bootconfig.c and tools/bootconfig.
set -euo pipefail
shopt -s inherit_errexit

BT_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=scripts/lib.sh disable=SC1091
. "$BT_TOP/scripts/lib.sh"
HERE="$BT_TOP/tests/diff"

usage()
{
	cat <<EOF
Usage: tests/diff/run.sh [-n N] [-s SEED] [-k K] [-o DIR] [--tree 6.1|6.12]
                         [--self-test] [--help]

Compares our libbootconfig (public API) with the tree's lib/bootconfig.c +
tools/bootconfig/main.c (compiled into a runner in the cache), and our
bootconfig CLI with the tree's tool, on every tools/bootconfig/samples
file, every tests/diff/regressions file, the limit cases at N and N+1
and N generated/mutated configs.  See tests/diff/README.md.

  -n N         generated configs (default: \$N or 10000; long mode 1000000)
  -s SEED      seed (default: \$SEED or random; printed either way)
  -k K         also run both CLIs on every K-th generated config (default 50)
  -o DIR       where minimal reproducers go (default: a new directory
               under \$BOOTTRACE_CACHE/diff/repro/)
  --tree T     reference tree (default 6.1)
  --self-test  prove the harness: the reference against itself must show
               0 differences, and every deliberately broken variant of
               the reference (built in the cache) must show some
Last line: "N passed, N failed".
EOF
}

n=${N:-10000}
seed=${SEED:-}
every=50
out=
tree=6.1
self=0
while [ $# -gt 0 ]; do
	case "$1" in
	-n) [ $# -ge 2 ] || bt_die "-n needs a number"; n=$2; shift 2 ;;
	-s) [ $# -ge 2 ] || bt_die "-s needs a seed"; seed=$2; shift 2 ;;
	-k) [ $# -ge 2 ] || bt_die "-k needs a number"; every=$2; shift 2 ;;
	-o) [ $# -ge 2 ] || bt_die "-o needs a directory"; out=$2; shift 2 ;;
	--tree) [ $# -ge 2 ] || bt_die "--tree needs 6.1 or 6.12"; tree=$2; shift 2 ;;
	--self-test) self=1; shift ;;
	-h | --help) usage; exit 0 ;;
	*) usage >&2; bt_die "unknown argument '$1'" ;;
	esac
done
[[ "$n" =~ ^[0-9]+$ ]] || bt_die "-n/N must be a number, not '$n'"
[[ -z "$seed" || "$seed" =~ ^[0-9]+$ ]] || bt_die "-s/SEED must be a number, not '$seed'"

bt_need_pkgs gcc libc6-dev make
tree=$(bt_tree_series "$tree")
src=$(bt_tree_dir "$tree")
ver=$(bt_tree_pkgver "$tree")
cc=${CC:-gcc}
cflags=(-std=gnu11 -O2 -g -Wall -Wextra -Werror -D_GNU_SOURCE)
key=$( (printf '%s\n' "$ver" "$($cc --version | head -n1)"; cat "$HERE"/*.c "$HERE"/*.h) |
	sha256sum | cut -c1-12)
cache="$(bt_cache_dir)/diff"
build="$cache/build-$tree-$key"

# The reference side, compiled from the extracted tree (never from the
# repository): the tree's parser and its tool's main() renamed, linked with
# our runner.c.  $1: output directory, $2: lib/bootconfig.c, $3: main.c
build_ref()
{
	local dir=$1 lib=$2 main=$3 inc="$src/tools/bootconfig/include"

	mkdir -p "$dir"
	$cc -O2 -g -w -I"$inc" -c -o "$dir/lib.o" "$lib"
	$cc -O2 -g -w -I"$inc" -Dmain=bt_ref_tool_main -c -o "$dir/main.o" "$main"
	$cc "${cflags[@]}" -DRUNNER_REF -isystem "$inc" -o "$dir/ref-runner" \
		"$HERE/runner.c" "$dir/main.o" "$dir/lib.o"
	$cc -O2 -g -w -I"$inc" -o "$dir/bootconfig" "$main" "$lib"
}

if [ ! -x "$build/bt-diff" ]; then
	bt_log "building the differential tester into $build"
	rm -rf "$build.tmp"
	mkdir -p "$build.tmp"
	build_ref "$build.tmp" "$src/lib/bootconfig.c" "$src/tools/bootconfig/main.c" >&2
	$cc "${cflags[@]}" -o "$build.tmp/cli-runner" "$HERE/runner.c"
	$cc "${cflags[@]}" -o "$build.tmp/bt-diff" "$HERE/bt-diff.c"
	rm -rf "$build"
	mv "$build.tmp" "$build"
fi

seed_args=()
[ -n "$seed" ] && seed_args=(-s "$seed")
inputs=("$src"/tools/bootconfig/samples/*.bconf)
shopt -s nullglob
inputs+=("$HERE"/regressions/*.bconf)
shopt -u nullglob

# Deliberately broken variants of the reference, for --self-test:
# "name|file|FROM => TO" (fixed strings; file is lib or main).
mutants=(
	"key length off by one|lib|if (len > XBC_KEYLEN_MAX) => if (len >= XBC_KEYLEN_MAX)"
	"message text|lib|\"No value delimiter\" => \"No value delimiter!\""
	"unquoted value not trimmed|lib|v = strim(v); => v = skip_spaces(v);"
	"value appended after subkeys|lib|return __xbc_add_sibling(data, flag, true); => return __xbc_add_sibling(data, flag, false);"
	"error position|lib|xbc_parse_error(\"Value is redefined\", v) => xbc_parse_error(\"Value is redefined\", v + 1)"
	"node limit|lib|if (xbc_node_num == XBC_NODE_MAX) => if (xbc_node_num == XBC_NODE_MAX - 1)"
	"brace depth limit|lib|if (brace_index >= XBC_DEPTH_MAX) => if (brace_index > XBC_DEPTH_MAX)"
	"DEL accepted|lib|if (!isprint(c) && !isspace(c)) => if (!isprint(c) && !isspace(c) && c != 0x7f)"
	"data size limit|lib|if (size > XBC_DATA_MAX || size == 0) => if (size >= XBC_DATA_MAX || size == 0)"
	"key word limit|lib|if (depth > XBC_DEPTH_MAX) => if (depth >= XBC_DEPTH_MAX)"
	"newline after closing quote|lib|while (isspace(*p) && *p != '\\n') => while (isspace(*p))"
	"single quotes|lib|if (*v == '\"' || *v == '\\'') { => if (*v == '\"') {"
	"list quoting|main|q = '\\''; => q = '\"';"
	"error column|main|col = pos - i; => col = pos - i + 1;"
)

# $1: "name|file|from|to" -> directory with ref-runner and bootconfig
build_mutant()
{
	local spec=$1 name file from to dir text path new

	name=${spec%%|*}
	file=${spec#*|}
	from=${file#*|}
	file=${file%%|*}
	to=${from#* => }
	from=${from%% => *}
	dir="$cache/mutants-$tree-$key/$(printf '%s' "$name" | tr -c 'a-zA-Z0-9' '-')"
	dir="$dir$(printf '%s' "$spec" | sha256sum | cut -c1-8)"
	if [ ! -x "$dir/ref-runner" ]; then
		mkdir -p "$dir"
		if [ "$file" = lib ]; then
			path="$src/lib/bootconfig.c"
		else
			path="$src/tools/bootconfig/main.c"
		fi
		text=$(<"$path")
		new=${text/"$from"/"$to"}
		[ "$new" != "$text" ] || bt_die "mutant '$name': '$from' not found in $path"
		printf '%s\n' "$new" >"$dir/$file.c"
		if [ "$file" = lib ]; then
			build_ref "$dir" "$dir/lib.c" "$src/tools/bootconfig/main.c" >&2
		else
			build_ref "$dir" "$src/lib/bootconfig.c" "$dir/main.c" >&2
		fi
	fi
	printf '%s\n' "$dir"
}

if [ "$self" = 1 ]; then
	pass=0
	fail=0
	log=$(mktemp "${TMPDIR:-/tmp}/bt-diff-self.XXXXXX")
	trap 'rm -f "$log"' EXIT
	if "$build/bt-diff" -a "$build/ref-runner" -b "$build/ref-runner" \
		-A "$build/cli-runner ref $build/bootconfig" \
		-B "$build/cli-runner ref $build/bootconfig" \
		-n "$n" -k "$every" "${seed_args[@]}" "${inputs[@]}" >"$log"; then
		echo "ok - reference against itself: $(tail -n1 "$log")"
		pass=$((pass + 1))
	else
		cat "$log"
		echo "not ok - reference against itself shows differences"
		fail=$((fail + 1))
	fi
	for spec in "${mutants[@]}"; do
		name=${spec%%|*}
		dir=$(build_mutant "$spec")
		if "$build/bt-diff" -a "$build/ref-runner" -b "$dir/ref-runner" \
			-A "$build/cli-runner ref $build/bootconfig" \
			-B "$build/cli-runner ref $dir/bootconfig" \
			-n "$((n < 3000 ? n : 3000))" -k 10 "${seed_args[@]}" \
			"${inputs[@]}" >"$log"; then
			echo "not ok - broken variant '$name' went unnoticed"
			fail=$((fail + 1))
		else
			echo "ok - broken variant '$name' detected: $(grep -c '^DIFF' "$log") differences"
			pass=$((pass + 1))
		fi
	done
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ]
	exit
fi

# Our side: the library through its public API, and the CLI.
bt_log "building bootconfig (make -C bootconfig)"
make -s -C "$BT_TOP/bootconfig" >&2 ||
	bt_die "make -C bootconfig failed: the library and CLI must build first"
ours="$cache/ours-$tree-$key"
mkdir -p "$ours"
$cc "${cflags[@]}" -DRUNNER_LIB -I"$BT_TOP/bootconfig/include" -o "$ours/lib-runner.tmp" \
	"$HERE/runner.c" "$BT_TOP/bootconfig/build/libbootconfig.a"
mv -f "$ours/lib-runner.tmp" "$ours/lib-runner"

if [ -z "$out" ]; then
	mkdir -p "$cache/repro"
	out=$(mktemp -d "$cache/repro/run.XXXXXX")
fi
bt_log "comparing; minimal reproducers go to $out"
rc=0
"$build/bt-diff" -a "$build/ref-runner" -b "$ours/lib-runner" \
	-A "$build/cli-runner ref $build/bootconfig" \
	-B "$build/cli-runner ours $BT_TOP/bootconfig/build/bootconfig" \
	-n "$n" -k "$every" -o "$out" "${seed_args[@]}" "${inputs[@]}" || rc=$?
if [ "$rc" -eq 0 ]; then
	rmdir "$out" 2>/dev/null || true
elif [ "$rc" -eq 1 ]; then
	bt_log "differences found: copy the reproducers from $out into tests/diff/regressions/ once understood"
fi
exit "$rc"
