#!/bin/bash
# kernel/per-patch.sh - build the kernel once per prefix of the series.
#
# "Each patch builds and boots on its own": this builds the tree with the
# first 0, 1, ..., N patches of the series, incrementally in one build
# directory (each step recompiles only what the patch touches), and prints
# one line per prefix.  tests/kernel/05-per-patch.t boots every image.
set -euo pipefail

BT_TOP=${BT_TOP:-$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)}
# shellcheck source=../scripts/lib.sh
. "$BT_TOP/scripts/lib.sh"
# shellcheck source=kept.sh
. "$BT_TOP/kernel/kept.sh"

# Bump when the way a prefix image is produced changes.
BT_PER_PATCH_RECIPE=1

usage()
{
	cat <<'USAGE'
usage: kernel/per-patch.sh [--tree 6.1|6.12] [--series FILE] [--config EXTRA.config]...

Build the kernel with each prefix of the series: none of the patches (the
packaged tree), the first patch, the first two, ..., the whole series, and
print one line per prefix on stdout:

    INDEX PATCH DIR

INDEX counts the patches applied (0 = none), PATCH is the last one applied
("-" for 0) and DIR holds bzImage, System.map, kernelrelease and metadata.

The Kconfig is the one of the whole-series kernel that kernel/build.sh
builds (or reuses) with the same --tree, --series and --config options,
through `make olddefconfig` for each prefix (again only after a patch that
touches a file Kconfig reads), so symbols that a later patch adds are simply
absent before it.  The prefixes are built one after the
other in one build directory (an incremental `make bzImage` per patch,
through ccache; the whole series is the kernel kernel/build.sh built,
copied rather than built again): a kept build directory of the same tree
when kernel/build.sh kept one (after any build using it; the series it has
is taken off its source with patch -R first, and this one is on it at the
end), else a new one.  The images are cached in
$BOOTTRACE_CACHE/per-patch/<tree>-<key>/,
keyed by the tree's package version, the config, the compiler and the
names and contents of the patches of the prefix.  A patch that does not
apply or a prefix that does not build stops with an error naming the patch.

  --tree 6.1|6.12     packaged source tree (default 6.1)
  --series FILE       series file (default: what kernel/build.sh uses)
  --config FILE       extra Kconfig fragment, passed to kernel/build.sh
  -h, --help          this help

Environment: BOOTTRACE_CACHE, BOOTTRACE_JOBS (make -j, default nproc).
USAGE
}

tree=6.1
build_args=()
series_file=

while [ $# -gt 0 ]; do
	case "$1" in
	-h | --help) usage; exit 0 ;;
	--tree) [ $# -ge 2 ] || bt_die "--tree needs an argument (6.1 or 6.12)"
		tree=$2; shift ;;
	--series) [ $# -ge 2 ] || bt_die "--series needs a file"
		series_file=$2; shift ;;
	--config) [ $# -ge 2 ] || bt_die "--config needs a fragment file"
		build_args+=(--config "$2"); shift ;;
	*) usage >&2; bt_die "unknown argument '$1'" ;;
	esac
	shift
done

tree=$(bt_tree_series "$tree")
if [ -z "$series_file" ]; then
	series_file="$BT_TOP/kernel/series"
	[ ! -f "$BT_TOP/kernel/series-$tree" ] || series_file="$BT_TOP/kernel/series-$tree"
fi
[ -f "$series_file" ] || bt_die "series file $series_file not found"
series_file=$(readlink -f "$series_file")

# The whole-series kernel first: its .config is every prefix's config, and
# build.sh has already checked the series and the fragments.
full=$("$BT_TOP/kernel/build.sh" --tree "$tree" --series "$series_file" \
	${build_args[@]+"${build_args[@]}"})
config="$(dirname "$full")/.config"
mapfile -t patches < <(sed 's/#.*//; s/[[:space:]]//g; /^$/d' "$series_file")
# A snapshot of the patches: what is hashed is what is applied, even when
# someone edits kernel/patches/ meanwhile.
patch_dir=$(mktemp -d "${TMPDIR:-/tmp}/bt-per-patch.XXXXXX")
trap 'rm -rf "$patch_dir"' EXIT
for p in ${patches[@]+"${patches[@]}"}; do
	cp "$(dirname "$series_file")/patches/$p" "$patch_dir/" ||
		bt_die "$series_file: patch '$p' not found"
done

pkgver=$(bt_tree_pkgver "$tree")
cache=$(bt_cache_dir)
cache=$(cd "$cache" && pwd -P)
base=$(printf 'recipe=%s\ntree=%s %s\nconfig=%s\ngcc=%s\nld=%s\n' \
	"$BT_PER_PATCH_RECIPE" "$tree" "$pkgver" "$(bt_hash "$config")" \
	"$(gcc --version | head -n1)" "$(ld --version | head -n1)")

# key_of N: the cache key of the prefix of N patches.
key_of()
{
	local n=$1 i

	{
		printf '%s' "$base"
		for ((i = 0; i < n; i++)); do
			printf '%s %s\n' "${patches[i]}" "$(bt_hash "$patch_dir/${patches[i]}")"
		done
	} | sha256sum | cut -c1-16
}

declare -a dirs=()
todo=0
for ((n = 0; n <= ${#patches[@]}; n++)); do
	dirs[n]="$cache/per-patch/$tree-$(key_of "$n")"
	[ -f "${dirs[n]}/bzImage" ] || todo=1
done

print_all()
{
	local n name

	for ((n = 0; n <= ${#patches[@]}; n++)); do
		name=-
		[ "$n" = 0 ] || name=${patches[n - 1]}
		printf '%d %s %s\n' "$n" "$name" "${dirs[n]}"
	done
}

if [ "$todo" = 0 ]; then
	bt_log "per-patch: all $((${#patches[@]} + 1)) prefixes cached"
	print_all
	exit 0
fi

bt_need_pkgs make flex bison bc libelf-dev libssl-dev ccache patch xz-utils cpio
mkdir -p "$cache/per-patch"
exec 8>"$cache/per-patch/.lock"
flock 8
work=$(mktemp -d "$cache/per-patch/work.XXXXXX")
# kept: the kept build directory the prefixes are built in (below); one
# left with part of the series off its source is of no use to anyone
kept=
cleanup()
{
	rm -rf "$work" "$patch_dir"
	[ -z "$kept" ] || kept_drop_taken "$kept"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
src=$work/src obj=$work/obj log=$work/build.log
: >"$log"

bt_kbuild_env "$cache"

kmake()
{
	bt_kmake "$src" "$obj" "$@" >>"$log" 2>&1
}

# store_prefix N TMP SECONDS [FROM]: TMP (holding prefix N's bzImage,
# System.map and kernelrelease) with its metadata replaces N's cache entry.
store_prefix()
{
	local n=$1 tmp=$2 name=-

	[ "$n" = 0 ] || name=${patches[n - 1]}
	printf 'tree=%s %s\nprefix=%d\npatch=%s\nbuild_seconds=%d\n' \
		"$tree" "$pkgver" "$n" "$name" "$3" >"$tmp/metadata"
	[ -z "${4:-}" ] || printf 'from=%s\n' "$4" >>"$tmp/metadata"
	rm -rf "${dirs[n]}"
	mv "$tmp" "${dirs[n]}"
}

# build_prefix N: make bzImage with the first N patches applied and store it.
# The .config is made again (the whole series' one, then olddefconfig) when
# a patch touched a file Kconfig reads since it was last made
# (kept_touches_kconfig, config_stale): otherwise olddefconfig would give
# the same file, at ~5 s a prefix.
config_stale=1
build_prefix()
{
	local n=$1 tmp t=$SECONDS name=-

	[ "$n" = 0 ] || name=${patches[n - 1]}
	if [ "$config_stale" = 1 ]; then
		cp "$config" "$obj/.config"
		kmake olddefconfig ||
			bt_die "per-patch: make olddefconfig failed after $name (log: $log)"
		config_stale=0
	fi
	exec 9>"$cache/kernels/.build.lock"
	bt_flock_wait 9 bt_log "per-patch: another kernel build is running; waiting ($cache/kernels/.build.lock)"
	kmake bzImage || {
		tail -n 30 "$log" >&2
		bt_die "per-patch: the kernel does not build with the series up to $name"
	}
	exec 9>&-
	tmp=$(mktemp -d "$cache/per-patch/new.XXXXXX")
	cp "$obj/arch/x86/boot/bzImage" "$obj/System.map" "$tmp/"
	make -s -C "$src" O="$obj" kernelrelease >"$tmp/kernelrelease" 2>>"$log"
	store_prefix "$n" "$tmp" "$((SECONDS - t))"
	bt_log "per-patch: [$n/${#patches[@]}] $name built in $((SECONDS - t))s"
}

# adopt_full N: prefix N is the whole series, built from the same source
# and .config by kernel/build.sh already: store a copy of that kernel.
adopt_full()
{
	local n=$1 tmp full_dir

	full_dir=$(dirname "$full")
	tmp=$(mktemp -d "$cache/per-patch/new.XXXXXX")
	cp "$full_dir/bzImage" "$full_dir/System.map" "$full_dir/kernelrelease" "$tmp/"
	store_prefix "$n" "$tmp" 0 "$full_dir"
	bt_log "per-patch: [$n/${#patches[@]}] ${patches[n - 1]}: the whole-series kernel ($full_dir)"
}

# A kept build directory of the whole-series kernel's source, or of the
# same tree with another series (kernel/build.sh --print-kept), when there
# is one (after the build that uses it): the prefixes are built there,
# after the series it has is taken off its source (kept_switch: patch -R
# from its copies, last patch first; every file it touches gets a new
# time, so kbuild recompiles what depends on them), and this series is on
# it at the end.  Prefix 0 is then an incremental build too, not one of every
# object (227 s on 6.1 with every object in ccache).  Its mark is set
# aside meanwhile, and a run that stops half-way removes the directory.
kept=$("$BT_TOP/kernel/build.sh" --tree "$tree" --series "$series_file" \
	${build_args[@]+"${build_args[@]}"} --print-kept) || kept=
# (removed since: a new directory)
if [ -n "$kept" ] && kept_use "$kept" bt_log "per-patch: waiting for the build that uses $kept"; then
	kept_take "$kept"
else
	kept=
fi
if [ -n "$kept" ]; then
	bt_log "per-patch: building in the kept build directory $kept"
	src=$kept/src obj=$kept/obj
	# one kept before the lists (kernel/kept.sh) has this very series
	kept_plan "$kept" "" || kept_set_applied "$kept" "$patch_dir" ${patches[@]+"${patches[@]}"}
	kept_switch "$kept" "$patch_dir" 2>>"$log" ||
		bt_die "per-patch: the series does not come off $kept (log: $log)"
else
	cp -al "$(bt_tree_dir "$tree")" "$src"
	mkdir -p "$obj"
fi
mkdir -p "$cache/kernels"
for ((n = 0; n <= ${#patches[@]}; n++)); do
	if [ "$n" -gt 0 ]; then
		patch -d "$src" -p1 --batch --forward --fuzz=0 --no-backup-if-mismatch \
			-s -i "$patch_dir/${patches[n - 1]}" >>"$log" 2>&1 ||
			bt_die "per-patch: ${patches[n - 1]} does not apply after the first $((n - 1)) patches"
		! kept_touches_kconfig "$patch_dir/${patches[n - 1]}" || config_stale=1
	fi
	if [ -f "${dirs[n]}/bzImage" ]; then
		continue
	elif [ "$n" -gt 0 ] && [ "$n" = "${#patches[@]}" ]; then
		adopt_full "$n"
	else
		build_prefix "$n"
	fi
done
# the whole series is on the kept directory's source (again)
if [ -n "$kept" ]; then
	kept_set_applied "$kept" "$patch_dir" ${patches[@]+"${patches[@]}"}
	kept_give "$kept"
fi
print_all
