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
Usage: tests/diff/run.sh [-n N] [-s SEED] [-k K] [-j W] [-o DIR]
                         [--tree 6.1|6.12] [--self-test] [--build-fuzz BIN]
                         [--help]

Compares our libbootconfig (public API) with the tree's lib/bootconfig.c +
tools/bootconfig/main.c (compiled in the cache, linked with the generator
and our library into one program, bt-diff), and our bootconfig CLI with
the tree's tool, on every tools/bootconfig/samples file, every
tests/diff/regressions file, the limit cases at N and N+1 and N
generated/mutated configs.  See tests/diff/README.md.

  -n N         generated configs (default: \$N or 10000; make fuzz-diff
               takes N=10000000)
  -s SEED      seed (default: \$SEED or random; printed either way)
  -k K         also run both CLIs on every K-th generated config (default:
               \$K, else 50, or N/1000 when that is larger: the CLI pair
               spawns ten processes per config)
  -j W         worker processes (default: \$JOBS or the number of CPUs);
               a seed checks the same configs for any W
  \$BT_DIFF_SANITIZE=1  build bt-diff, the runners and our library with
               ASan+UBSan, the tree's code with ASan (its own undefined
               behaviour is not ours to find)
  -o DIR       where minimal reproducers go (default: a new directory
               under \$BOOTTRACE_CACHE/diff/repro/)
  --tree T     reference tree (default 6.1)
  --self-test  prove the harness: the reference against itself must show
               0 differences, every deliberately broken variant of the
               reference (built in the cache) must show some against our
               library in-process and two broken tools against the tree's
               tool, and the in-process sides must give the same results
               as the same sides run as runner processes on one seed
  --build-fuzz BIN
               only build the libFuzzer differential harness
               (bootconfig/fuzz/fuzz_diff.c: the tree's parser and tool,
               compiled as the reference is, and our library, both
               instrumented) into BIN, with clang (\$FUZZ_CC)
Last line: "N passed, N failed".
EOF
}

n=${N:-10000}
seed=${SEED:-}
every=${K:-}
jobs=${JOBS:-$(nproc)}
out=
tree=6.1
self=0
fuzz_out=
while [ $# -gt 0 ]; do
	case "$1" in
	-n) [ $# -ge 2 ] || bt_die "-n needs a number"; n=$2; shift 2 ;;
	-s) [ $# -ge 2 ] || bt_die "-s needs a seed"; seed=$2; shift 2 ;;
	-k) [ $# -ge 2 ] || bt_die "-k needs a number"; every=$2; shift 2 ;;
	-j) [ $# -ge 2 ] || bt_die "-j needs a number"; jobs=$2; shift 2 ;;
	-o) [ $# -ge 2 ] || bt_die "-o needs a directory"; out=$2; shift 2 ;;
	--tree) [ $# -ge 2 ] || bt_die "--tree needs 6.1 or 6.12"; tree=$2; shift 2 ;;
	--self-test) self=1; shift ;;
	--build-fuzz) [ $# -ge 2 ] || bt_die "--build-fuzz needs a path"; fuzz_out=$2; shift 2 ;;
	-h | --help) usage; exit 0 ;;
	*) usage >&2; bt_die "unknown argument '$1'" ;;
	esac
done
[[ "$n" =~ ^[0-9]+$ ]] || bt_die "-n/N must be a number, not '$n'"
[[ -z "$seed" || "$seed" =~ ^[0-9]+$ ]] || bt_die "-s/SEED must be a number, not '$seed'"
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || bt_die "-j/JOBS must be a positive number, not '$jobs'"
if [ -z "$every" ]; then
	every=50
	[ "$((n / 1000))" -le "$every" ] || every=$((n / 1000))
fi
[[ "$every" =~ ^[1-9][0-9]*$ ]] || bt_die "-k/K must be a positive number, not '$every'"

bt_need_pkgs gcc libc6-dev make
tree=$(bt_tree_series "$tree")
src=$(bt_tree_dir "$tree")
ver=$(bt_tree_pkgver "$tree")
cc=${CC:-gcc}
cflags=(-std=gnu11 -O2 -g -Wall -Wextra -Werror -D_GNU_SOURCE)
san=${BT_DIFF_SANITIZE:-0}
[[ "$san" =~ ^[01]$ ]] || bt_die "BT_DIFF_SANITIZE must be 0 or 1, not '$san'"
san_k=()	# the tree's code
lflags=()	# links
if [ "$san" = 1 ]; then
	san_k=(-fsanitize=address -fno-omit-frame-pointer)
	lflags=("-fsanitize=address,undefined")
	cflags+=("-fsanitize=address,undefined" -fno-sanitize-recover=all -fno-omit-frame-pointer)
fi
# Trees from 6.2 on build the kernel with -funsigned-char: so does their parser.
ref_cflags=()
if grep -q -- '-funsigned-char' "$src/Makefile"; then
	ref_cflags=(-funsigned-char)
fi
key=$( (printf '%s\n' "$ver" "$($cc --version | head -n1)" "sanitize $san"; cat "$HERE"/*.c "$HERE"/*.h "$0") |
	sha256sum | cut -c1-12)
cache="$(bt_cache_dir)/diff"
build="$cache/build-$tree-$key"

# The reference side, compiled from the extracted tree (never from the
# repository): the tree's parser and its tool's main() renamed, with our
# runner.c as the in-process side "@ref" of bt-diff (ref-side.o, main.o,
# lib.o, ctype.o) and as a runner program (ref-runner).  The parser is
# compiled with the kernel's own character classes (the tree's
# include/linux/ctype.h and lib/ctype.c, Latin-1 aware) instead of the C
# library's, so that bytes >= 0x80 are judged as the kernel judges them;
# see README.md.  $1: output directory, $2: lib/bootconfig.c, $3: main.c
kctype_dir()
{
	local dir=$1

	mkdir -p "$dir/kctype/linux"
	printf '/* generated by tests/diff/run.sh: the kernel'"'"'s ctype */\n#include "%s/include/linux/ctype.h"\n' \
		"$src" >"$dir/kctype/ctype.h"
	printf '/* generated by tests/diff/run.sh: stub */\n' >"$dir/kctype/linux/compiler.h"
	printf '/* generated by tests/diff/run.sh: stub */\n#define EXPORT_SYMBOL(x)\n' \
		>"$dir/kctype/linux/export.h"
}

build_ref()
{
	local dir=$1 lib=$2 main=$3 inc="$src/tools/bootconfig/include"
	local kflags=(-O2 -g -w "${san_k[@]}" "${ref_cflags[@]}" -I"$dir/kctype" -I"$inc")

	kctype_dir "$dir"
	$cc -O2 -g -w "${san_k[@]}" -I"$dir/kctype" -I"$src/include" -c -o "$dir/ctype.o" "$src/lib/ctype.c"
	$cc "${kflags[@]}" -c -o "$dir/lib.o" "$lib"
	$cc "${kflags[@]}" -Dmain=bt_ref_tool_main -c -o "$dir/main.o" "$main"
	$cc "${cflags[@]}" -DRUNNER_REF -DRUNNER_EMBED=bt_ref_run -isystem "$inc" \
		-c -o "$dir/ref-side.o" "$HERE/runner.c"
	$cc "${cflags[@]}" -DRUNNER_REF -isystem "$inc" -o "$dir/ref-runner" \
		"$HERE/runner.c" "$dir/main.o" "$dir/lib.o" "$dir/ctype.o"
	$cc "${kflags[@]}" -c -o "$dir/tool.o" "$main"
	$cc "${san_k[@]}" -o "$dir/bootconfig" "$dir/tool.o" "$dir/lib.o" "$dir/ctype.o"
}

# The libFuzzer differential harness: the reference objects built as in
# build_ref() but instrumented for coverage and ASan (not UBSan: the
# kernel's code is the reference, its own undefined behaviour is not ours
# to find), our library and both runner sides with ASan+UBSan.  $1: BIN
build_fuzz()
{
	local out=$1 dir fcc=${FUZZ_CC:-clang} inc="$src/tools/bootconfig/include"
	local cov=(-g -O1 -fno-omit-frame-pointer "-fsanitize=fuzzer-no-link,address")
	local kflags
	local lflags=(-std=gnu11 -Wall -Wextra -Werror -D_GNU_SOURCE -g -O1
		-fno-omit-frame-pointer "-fsanitize=fuzzer-no-link,address,undefined"
		-fno-sanitize-recover=all)
	local bc="$BT_TOP/bootconfig"

	bt_need_pkgs clang
	dir=$(mktemp -d "${TMPDIR:-/tmp}/bt-fuzz-diff.XXXXXX")
	kflags=("${cov[@]}" -w "${ref_cflags[@]}" -I"$dir/kctype" -I"$inc")
	kctype_dir "$dir"
	$fcc "${cov[@]}" -w -I"$dir/kctype" -I"$src/include" -c -o "$dir/ctype.o" "$src/lib/ctype.c"
	$fcc "${kflags[@]}" -c -o "$dir/lib.o" "$src/lib/bootconfig.c"
	$fcc "${kflags[@]}" -Dmain=bt_ref_tool_main -c -o "$dir/main.o" \
		"$src/tools/bootconfig/main.c"
	$fcc "${lflags[@]}" -DRUNNER_REF -DRUNNER_EMBED=bt_ref_run -isystem "$inc" \
		-c -o "$dir/ref-runner.o" "$HERE/runner.c"
	$fcc "${lflags[@]}" -DRUNNER_LIB -DRUNNER_EMBED=bt_lib_run -I"$bc/include" \
		-c -o "$dir/lib-runner.o" "$HERE/runner.c"
	$fcc "${lflags[@]}" -fsanitize=fuzzer -I"$HERE" -I"$bc/include" -I"$bc/lib" \
		-o "$out" "$bc/fuzz/fuzz_diff.c" "$dir"/*.o "$bc"/lib/*.c
	rm -rf "$dir"
}

if [ -n "$fuzz_out" ]; then
	build_fuzz "$fuzz_out"
	exit
fi

if [ ! -x "$build/cli-runner" ]; then
	bt_log "building the differential tester into $build"
	rm -rf "$build.tmp"
	mkdir -p "$build.tmp"
	build_ref "$build.tmp" "$src/lib/bootconfig.c" "$src/tools/bootconfig/main.c" >&2
	$cc "${cflags[@]}" -c -o "$build.tmp/bt-diff.o" "$HERE/bt-diff.c"
	$cc "${cflags[@]}" -o "$build.tmp/cli-runner" "$HERE/runner.c"
	rm -rf "$build"
	mv "$build.tmp" "$build"
fi

# Our side, rebuilt every run (the library under test changes): the
# library and CLI, runner.c as the in-process side "@ours" (lib-side.o)
# and as a runner program (lib-runner, for the --self-test comparison).
bt_log "building bootconfig (make -C bootconfig)"
make -s -C "$BT_TOP/bootconfig" >&2 ||
	bt_die "make -C bootconfig failed: the library and CLI must build first"
mkdir -p "$cache"
ours=$(mktemp -d "$cache/ours.XXXXXX")	# this checkout's, this run's
tmps=("$ours")
trap 'rm -rf "${tmps[@]}"' EXIT
libbc=("$BT_TOP/bootconfig/build/libbootconfig.a")
if [ "$san" = 1 ]; then	# our library instrumented too
	libbc=()
	for c in "$BT_TOP"/bootconfig/lib/*.c; do
		o="$ours/lib-$(basename "$c" .c).o"
		$cc "${cflags[@]}" -I"$BT_TOP/bootconfig/include" -I"$BT_TOP/bootconfig/lib" \
			-c -o "$o" "$c"
		libbc+=("$o")
	done
fi
$cc "${cflags[@]}" -DRUNNER_LIB -DRUNNER_EMBED=bt_lib_run -I"$BT_TOP/bootconfig/include" \
	-c -o "$ours/lib-side.o" "$HERE/runner.c"

# bt-diff with the reference objects of directory $1 (the tree's, or a
# broken variant's) and our library linked in, as $2.
link_bt_diff()
{
	$cc "${lflags[@]}" -o "$2" "$build/bt-diff.o" "$1/ref-side.o" "$1/main.o" \
		"$1/lib.o" "$1/ctype.o" "$ours/lib-side.o" "${libbc[@]}"
}
bt_diff="$ours/bt-diff"
link_bt_diff "$build" "$bt_diff"

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
	log="$ours/log"
	log2="$ours/log2"
	# $1: description; runs the rest, which must find no difference
	same()
	{
		local what=$1

		shift
		if "$@" >"$log"; then
			echo "ok - $what: $(tail -n1 "$log")"
			pass=$((pass + 1))
		else
			cat "$log"
			echo "not ok - $what shows differences"
			fail=$((fail + 1))
		fi
	}
	# $1: description; runs the rest, which must find some
	differs()
	{
		local what=$1

		shift
		if "$@" >"$log"; then
			echo "not ok - $what went unnoticed"
			fail=$((fail + 1))
		else
			echo "ok - $what detected: $(grep -c '^DIFF' "$log") differences"
			pass=$((pass + 1))
		fi
	}
	same "reference against itself, in-process and CLI" \
		"$bt_diff" -a @ref -b @ref -A "$build/cli-runner ref $build/bootconfig" \
		-B "$build/cli-runner ref $build/bootconfig" \
		-n "$n" -k "$every" -j "$jobs" "${seed_args[@]}" "${inputs[@]}"
	# Each broken parser or tool, linked in as the reference, against our
	# library (which agrees with the real reference: the normal run).
	for spec in "${mutants[@]}"; do
		dir=$(build_mutant "$spec")
		link_bt_diff "$dir" "$ours/bt-diff-broken"
		differs "broken variant '${spec%%|*}' (in-process)" \
			"$ours/bt-diff-broken" -a @ref -b @ours -n "$((n < 3000 ? n : 3000))" \
			-j "$jobs" "${seed_args[@]}" "${inputs[@]}"
	done
	# The CLI pair alone must catch a broken tool too.
	for spec in "${mutants[@]}"; do
		case "$spec" in "error column|"* | "unquoted value not trimmed|"*) ;; *) continue ;; esac
		dir=$(build_mutant "$spec")
		differs "broken tool '${spec%%|*}' (CLI pair)" \
			"$bt_diff" -a @ref -b @ref -A "$build/cli-runner ref $build/bootconfig" \
			-B "$build/cli-runner ref $dir/bootconfig" \
			-n 500 -k 5 -j "$jobs" "${seed_args[@]}"
	done
	# The in-process sides and the same sides as runner processes behind
	# the pipe protocol: one seed, the same verdicts and the same counts.
	$cc "${cflags[@]}" -DRUNNER_LIB -I"$BT_TOP/bootconfig/include" -o "$ours/lib-runner" \
		"$HERE/runner.c" "${libbc[@]}"
	s=${seed:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
	"$bt_diff" -a @ref -b @ours -n "$n" -s "$s" -j "$jobs" "${inputs[@]}" >"$log" || true
	"$bt_diff" -a "$build/ref-runner" -b "$ours/lib-runner" -n "$n" -s "$s" -j 1 \
		"${inputs[@]}" >"$log2" || true
	summary()
	{
		grep -E '^bt-diff: seed [0-9]+:|passed, .* failed$|^DIFF ' "$1"
		grep '^bt-diff: reference outcomes' "$1" | cut -d: -f3- | tr ',' '\n' | sort
	}
	if [ "$(summary "$log")" = "$(summary "$log2")" ] &&
		grep -q ' 0 failed$' "$log"; then
		echo "ok - in-process and runner processes agree on seed $s: $(tail -n1 "$log")"
		pass=$((pass + 1))
	else
		diff <(summary "$log2") <(summary "$log") || true
		echo "not ok - in-process and runner processes disagree on seed $s"
		fail=$((fail + 1))
	fi
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ]
	exit
fi

if [ -z "$out" ]; then
	mkdir -p "$cache/repro"
	out=$(mktemp -d "$cache/repro/run.XXXXXX")
fi
bt_log "comparing; minimal reproducers go to $out"
rc=0
"$bt_diff" -a @ref -b @ours \
	-A "$build/cli-runner ref $build/bootconfig" \
	-B "$build/cli-runner ours $BT_TOP/bootconfig/build/bootconfig" \
	-O -n "$n" -k "$every" -j "$jobs" -o "$out" "${seed_args[@]}" "${inputs[@]}" || rc=$?
if [ "$rc" -eq 0 ]; then
	rmdir "$out" 2>/dev/null || true
elif [ "$rc" -eq 1 ]; then
	bt_log "differences found: copy the reproducers from $out into tests/diff/regressions/ once understood"
fi
exit "$rc"
