#!/bin/bash
# kernel/build.sh - build (or reuse) boottrace's kernel and print the bzImage path.
#
# The packaged Debian tree (linux-source-6.1 or -6.12) + kernel/series applied
# to a hard-linked copy + `make tinyconfig` + kernel/configs/boottrace.config
# (+ --config extras), built out of tree with ccache.  Results are cached in
# $BOOTTRACE_CACHE/kernels/<tree>-<key>/out/; see kernel/README.md.
set -euo pipefail

BT_TOP=${BT_TOP:-$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)}
# shellcheck source=../scripts/lib.sh
. "$BT_TOP/scripts/lib.sh"
# shellcheck source=kept.sh
. "$BT_TOP/kernel/kept.sh"

# Bump when the way a kernel is produced from the same inputs changes.
# 2: modules (=m symbols of the fragments) are built and copied to out/modules/.
BT_KERNEL_RECIPE=2

usage()
{
	cat <<'USAGE'
usage: kernel/build.sh [--tree 6.1|6.12] [--flavour qemu|debian]
                       [--config EXTRA.config]... [options]
       boottrace kernel [same options]

Build boottrace's kernel (or reuse the cached one) and print the absolute
path of its bzImage on stdout (the only thing printed on stdout).  Next to it:
System.map, .config, kernelrelease, metadata, build.log and, when the config
has modules (=m), modules/*.ko.

  --tree 6.1|6.12     packaged source tree to use (default 6.1; installs
                      the linux-source-<tree> package when missing)
  --flavour qemu      (default) `make tinyconfig` + kernel/configs/
                      boottrace.config + boottrace-<tree>.config: a small
                      kernel for QEMU boots
  --flavour debian    Debian's own config for this architecture (package
                      linux-config-<tree>, same version as linux-source) +
                      kernel/configs/debian.config (the boot-time tracing
                      symbols); also reports how the merged config differs
                      from Debian's (every Debian symbol it does not
                      override must keep its value)
  --config-only       merge and verify the config, build nothing; print
                      the merged .config's path (a report beside it)
  --deb               build installable packages with `make bindeb-pkg`
                      (linux-image-<release>, release ending in -boottrace
                      or -boottrace-debian) and print the .deb paths
  --config FILE       extra Kconfig fragment merged after
                      kernel/configs/boottrace.config and
                      kernel/configs/boottrace-<tree>.config (repeatable;
                      later fragments win); every symbol of every fragment
                      is verified after olddefconfig
  --series FILE       series file to apply (default kernel/series-<tree>
                      if it exists, else kernel/series); patch names are
                      looked up in FILE's directory/patches/
  --force             rebuild even when a cached build exists (replaces it
                      atomically on success; a build that has packages
                      gets them again, as with --deb), and start over
                      instead of resuming a stopped build
  --print-dir         print the cache entry's out/ directory the inputs map
                      to, without building (prints nothing and exits 1 when
                      it is not built yet)
  --print-kept        print a kept build directory (below) for these
                      inputs, without building: one whose source they build
                      (the same tree, series and toolchain; this entry's own
                      first, else the newest), else one of the same tree and
                      toolchain whose series can be switched (the fewest
                      patches off and on); exits 1 when there is none
  -v, --verbose       copy the build output to stderr as well
  -q, --quiet         no progress, only errors (for CI logs)
  -h, --help          this help

A build that stops once its source and config are ready (a compile
error, Ctrl-C, a reboot) keeps its directory in the cache entry, and the
same command resumes it: kbuild compiles only what is missing, and the
metadata counts the resumes.

A qemu-flavour build keeps its source and object directories in the
cache (the newest two per tree).  A later build of the same tree and
toolchain whose merged .config differs from a kept one's in at most 32
symbol lines is made in that directory: kbuild compiles only what
depends on the changed symbols (metadata: derived_from=).  When its
series differs (a patch edited, added or dropped), the patches after the
part both series begin with come off that source and the new ones go on
first, so kbuild compiles only what they touch.  Not with --force, --deb
or --flavour debian; BOOTTRACE_KERNEL_DERIVE=0 turns it off.  A
qemu-flavour build's merged and verified config is kept too; a build
with the same tree, toolchain, fragment symbols and Kconfig-read files
(a patch that touches none of them does not count) takes it instead of
merging again.

Environment: BOOTTRACE_CACHE (cache root, default ~/.cache/boottrace),
BOOTTRACE_JOBS (make -j, default nproc), BOOTTRACE_KERNEL_IDLE=1 (build
in the CPUs' idle time: SCHED_IDLE, and no wait for other builds, which
are otherwise one at a time).  Progress goes to stderr: the
steps, and while make runs the step it is in with a count: objects
compiled (of what the last build of the same tree and flavour compiled,
and a percentage), modules linked, installed or signed (of
modules.order), the package being built (--deb).  On a terminal it is one
line rewritten at most once a second, otherwise a plain line when the
step changes and every 30 s.
USAGE
}

tree=6.1
series_file=
fragments=()
force=0
verbose=0
quiet=0
print_dir=0
print_kept=0
flavour=qemu
deb=0
config_only=0

while [ $# -gt 0 ]; do
	case "$1" in
	-h | --help) usage; exit 0 ;;
	--tree) [ $# -ge 2 ] || bt_usage "--tree needs an argument (6.1 or 6.12)"
		tree=$2; shift ;;
	--tree=*) tree=${1#--tree=} ;;
	--config) [ $# -ge 2 ] || bt_usage "--config needs a fragment file"
		fragments+=("$2"); shift ;;
	--config=*) fragments+=("${1#--config=}") ;;
	--series) [ $# -ge 2 ] || bt_usage "--series needs a file"
		series_file=$2; shift ;;
	--series=*) series_file=${1#--series=} ;;
	--flavour) [ $# -ge 2 ] || bt_usage "--flavour needs an argument (qemu or debian)"
		flavour=$2; shift ;;
	--flavour=*) flavour=${1#--flavour=} ;;
	--deb) deb=1 ;;
	--config-only) config_only=1 ;;
	--force) force=1 ;;
	--print-dir) print_dir=1 ;;
	--print-kept) print_kept=1 ;;
	-v | --verbose) verbose=1 ;;
	-q | --quiet) quiet=1 ;;
	*) usage >&2; bt_usage "unknown argument '$1'" ;;
	esac
	shift
done

tree=$(bt_tree_series "$tree")
case "$flavour" in
qemu | debian) ;;
*) bt_usage "unknown flavour '$flavour' (use qemu or debian)" ;;
esac
[ "$deb" = 0 ] || [ "$config_only" = 0 ] || bt_usage "--deb and --config-only exclude each other"
t_start=$SECONDS

# Defaults that depend on the tree: kernel/series-<tree> when it exists
# (else kernel/series); configs/boottrace.config, then
# configs/boottrace-<tree>.config when it exists, then the --config ones.
if [ -z "$series_file" ]; then
	series_file="$BT_TOP/kernel/series"
	[ ! -f "$BT_TOP/kernel/series-$tree" ] || series_file="$BT_TOP/kernel/series-$tree"
fi
base_fragments=("$BT_TOP/kernel/configs/boottrace.config")
[ ! -f "$BT_TOP/kernel/configs/boottrace-$tree.config" ] ||
	base_fragments+=("$BT_TOP/kernel/configs/boottrace-$tree.config")
[ "$flavour" = qemu ] || base_fragments=("$BT_TOP/kernel/configs/$flavour.config")
fragments=("${base_fragments[@]}" ${fragments[@]+"${fragments[@]}"})

# "boottrace: kernel: [  12s] MSG" on stderr.
step()
{
	[ "$quiet" = 0 ] || return 0
	printf 'boottrace: kernel: [%4ds] %s\n' "$((SECONDS - t_start))" "$*" >&2
}

# ---------------------------------------------------------------------------
# Inputs: series, fragments, compiler
# ---------------------------------------------------------------------------

# Prints the patch names of a series file, one a line; dies naming the line
# of a bad entry.  Blank lines and `#` comments (whole line or trailing) are
# ignored.
read_series()
{
	local file=$1 dir=$2 n=0 line

	[ -f "$file" ] || bt_die "series file $file not found"
	while IFS= read -r line || [ -n "$line" ]; do
		n=$((n + 1))
		line=${line%%#*}
		line=$(printf '%s' "$line" | tr -d '[:space:]')
		[ -n "$line" ] || continue
		case "$line" in
		*/* | .*) bt_die "$file:$n: '$line': a patch name, not a path (file in $dir/)" ;;
		esac
		[ -f "$dir/$line" ] ||
			bt_die "$file:$n: patch '$line' not found in $dir/"
		printf '%s\n' "$line"
	done <"$file"
}

# 16 hex digits over the contents of the given files, in order.
hash_contents()
{
	local f

	for f in "$@"; do
		sha256sum <"$f" | cut -d' ' -f1
	done | sha256sum | cut -c1-16
}

# Fragment lines as "CONFIG_X<TAB>value", value `n` for "is not set"; dies
# naming file:line for anything that is neither that nor a comment.
parse_fragment()
{
	local file=$1 n=0 line re_set re_unset

	re_set='^(CONFIG_[A-Za-z0-9_]+)=(.*)$'
	re_unset='^# (CONFIG_[A-Za-z0-9_]+) is not set$'
	while IFS= read -r line || [ -n "$line" ]; do
		n=$((n + 1))
		if [[ $line =~ $re_unset ]]; then
			printf '%s\tn\n' "${BASH_REMATCH[1]}"
		elif [[ $line =~ $re_set ]]; then
			printf '%s\t%s\n' "${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}"
		elif [[ $line =~ ^[[:space:]]*(#.*)?$ ]]; then
			continue
		else
			bt_die "$file:$n: not a Kconfig line: '$line' (use CONFIG_X=y or '# CONFIG_X is not set')"
		fi
	done <"$file"
}

# ---------------------------------------------------------------------------
# Flavours and packages (--flavour, --config-only, --deb)
# ---------------------------------------------------------------------------

# Debian's config for this architecture from linux-config-<tree>, which
# must be the same version as linux-source-<tree>: prints its path.
debian_config_file()
{
	local arch cver f

	arch=$(dpkg --print-architecture)
	bt_need_pkgs "linux-config-$tree"
	cver=$(dpkg-query -W -f='${Version}' "linux-config-$tree")
	[ "$cver" = "$pkgver" ] ||
		bt_die "linux-config-$tree is $cver but linux-source-$tree is $pkgver: install the same version of both"
	f=/usr/src/linux-config-$tree/config.${arch}_none_$arch.xz
	[ -f "$f" ] || f=$(find "/usr/src/linux-config-$tree" -name "config.${arch}_none_*.xz" |
		LC_ALL=C sort | head -n1)
	[ -f "$f" ] ||
		bt_die "no config.${arch}_none_*.xz in /usr/src/linux-config-$tree (architecture $arch)"
	printf '%s\n' "$f"
}

# Extra cache-key lines of the flavour (none for qemu: its keys predate
# the flavours).
flavour_key()
{
	[ "$flavour" = qemu ] && return 0
	printf 'flavour=%s\nbase=%s %s\nmake=%s\npahole=%s\n' "$flavour" "$(debian_config_file)" \
		"$(xz -dc "$(debian_config_file)" | sha256sum | cut -d' ' -f1)" \
		"${flavour_make[*]-}" "$(pahole --version)"
}

# Extra make arguments of the flavour (flavour_make): Debian's config was
# made with CC=gcc-<N> (its CC_VERSION_TEXT says which); the same compiler
# under that name keeps CC_VERSION_TEXT as Debian has it.  And pahole:
# without it the BTF symbols of Debian's config are dropped.
flavour_make=()
flavour_toolchain()
{
	local cc

	[ "$flavour" = debian ] || return 0
	bt_need_pkgs dwarves
	cc=$(xz -dc "$(debian_config_file)" |
		sed -n 's/^CONFIG_CC_VERSION_TEXT="\([^ ]*\) .*/\1/p')
	if [ -n "$cc" ] && command -v "$cc" >/dev/null; then
		flavour_make=(CC="ccache $cc")
	fi
}

# base_config WORK: the config the fragments are merged onto, as
# $obj/.config (and a copy in WORK/base.config for the report).
base_config()
{
	case "$flavour" in
	qemu) kmake tinyconfig ;;
	debian)
		xz -dc "$(debian_config_file)" >"$obj/.config" &&
			cp "$obj/.config" "$1/base.config"
		;;
	esac
}

# Lines "CONFIG_X<TAB>value" (n for "is not set") of a full .config.
config_values()
{
	sed -n -e 's/^\(CONFIG_[A-Za-z0-9_]*\)=\(.*\)$/\1\t\2/p' \
		-e 's/^# \(CONFIG_[A-Za-z0-9_]*\) is not set$/\1\tn/p' "$1"
}

# flavour_config_report WORK: how the merged config ($obj/.config) differs
# from the base config (WORK/base.config): the
# fragment symbols that change Debian's value, every other symbol whose
# value changed (a Debian symbol not kept: listed, and counted as
# "changed"), and the symbols that are new.  On stdout (the report file);
# a summary on stderr.
flavour_config_report()
{
	local work=$1 sym val frag_changed=0 frag_same=0 kept=0 changed=0 added=0
	declare -A base=() merged=() inf=()

	while IFS=$'\t' read -r sym val; do base[$sym]=$val; done \
		< <(config_values "$work/base.config")
	while IFS=$'\t' read -r sym val; do merged[$sym]=$val; done \
		< <(config_values "$obj/.config")
	for sym in "${order[@]}"; do inf[$sym]=1; done
	printf '# %s config (%s) + %s, linux-source-%s %s\n' "$flavour" \
		"$(debian_config_file)" "${fragments[*]}" "$tree" "$pkgver"
	for sym in "${order[@]}"; do
		if [ "${base[$sym]-n}" = "${want[$sym]}" ]; then
			frag_same=$((frag_same + 1))
		else
			frag_changed=$((frag_changed + 1))
			printf 'fragment: %s: %s -> %s\n' "$sym" "${base[$sym]-(absent)}" "${want[$sym]}"
		fi
	done
	for sym in $(printf '%s\n' "${!base[@]}" | LC_ALL=C sort); do
		[ -z "${inf[$sym]+x}" ] || continue
		if [ "${merged[$sym]-n}" = "${base[$sym]}" ]; then
			kept=$((kept + 1))
		else
			changed=$((changed + 1))
			printf 'changed: %s: %s -> %s\n' "$sym" "${base[$sym]}" "${merged[$sym]-(absent)}"
		fi
	done
	for sym in $(printf '%s\n' "${!merged[@]}" | LC_ALL=C sort); do
		if [ -n "${base[$sym]+x}" ] || [ -n "${inf[$sym]+x}" ]; then
			continue
		fi
		added=$((added + 1))
		printf 'new: %s=%s\n' "$sym" "${merged[$sym]}"
	done
	printf 'summary: %d fragment symbols kept (%d set differently from Debian, %d already as Debian has them); %d Debian symbols kept; %d changed; %d new\n' \
		$((frag_changed + frag_same)) "$frag_changed" "$frag_same" "$kept" "$changed" "$added"
	step "$flavour config: ${#order[@]} fragment symbols kept ($frag_changed differ from Debian's), $kept Debian symbols kept, $changed changed, $added new"
	[ "$changed" = 0 ] || step "warning: $changed Debian symbol(s) changed without being in the fragment (see 'changed:' in the report)"
}

# finish_config_only WORK: keep .config and the report (WORK/config-report)
# in $entry/config/, print the .config's path, stop.
finish_config_only()
{
	local work=$1 dir="$entry/config"

	[ -f "$work/config-report" ] ||
		printf 'summary: %d fragment symbols kept\n' "${#order[@]}" >"$work/config-report"
	mkdir -p "$work/config"
	cp "$obj/.config" "$work/config/.config"
	cp "$work/config-report" "$work/config/report"
	rm -rf "$dir"
	mv "$work/config" "$dir"
	cat "$dir/report" >&2
	cleanup
	finished=1
	printf '%s\n' "$dir/.config"
	exit 0
}

# The .deb files `make bindeb-pkg` wrote next to the build directory.
collect_debs()
{
	local from=$1 to=$2 d n=0

	mkdir -p "$to"
	for d in "$from"/*.deb; do
		[ -f "$d" ] || continue
		mv "$d" "$to/"
		n=$((n + 1))
	done
	[ "$n" -gt 0 ] || fail "make bindeb-pkg wrote no .deb"
}

# "-config" for --config-only: its lock and work directories are its own,
# so that a merge never waits for a build of the same entry (nor removes
# its work directory as a leftover).
work_kind()
{
	[ "$config_only" = 0 ] || printf -- '-config'
}

# A cached build that has what was asked for (with --deb: the packages).
built_already()
{
	[ -f "$out/bzImage" ] && { [ "$deb" = 0 ] || [ -d "$out/debs" ]; }
}

# --- kept build directories -------------------------------------------------
# A qemu-flavour build that succeeds keeps its source and object
# directories in its cache entry, marked "kept" with what they were made
# from (kept_mark).  A later build of the same tree, series and toolchain
# whose merged .config differs from a kept directory's in at most
# BT_DERIVE_MAX_LINES symbol lines is made there instead of from scratch:
# kbuild compiles only what depends on the symbols that changed (the
# HIST_TRIGGERS=n kernel of the tests: 4 lines, 28 objects and the link in
# 37 s, against 430 s from scratch with every object in ccache; the same
# System.map).  Kbuild's paths are absolute, so a kept directory is used
# where it is, under its lock (.lock inside it).  The newest
# BT_KEPT_PER_TREE kept directories of a tree stay, older ones are removed.
# --force, --deb, the debian flavour and BOOTTRACE_KERNEL_DERIVE=0 always
# build from scratch.
BT_DERIVE_MAX_LINES=32
BT_KEPT_PER_TREE=2
derived=

kept_mark()
{
	printf 'recipe=%s\ntree=linux-source-%s %s\nseries=%s\ngcc=%s\nld=%s\n' \
		"$BT_KERNEL_RECIPE" "$tree" "$pkgver" "$series_hash" "$cc_version" \
		"$ld_version"
}

# config_lines FILE: the symbol lines of a .config (set or not set), sorted.
config_lines()
{
	grep -E '^(CONFIG_[A-Za-z0-9_]+=|# CONFIG_[A-Za-z0-9_]+ is not set$)' "$1" |
		LC_ALL=C sort
}

# kept_candidates: the kept directories this build could be made in, one
# "DIR SWITCH" line each: the same tree, version, recipe and toolchain
# (kept_identity), and either this series (SWITCH 0) or an applied list to
# switch from (SWITCH: patches off and on).  kept.away: in use by
# kernel/per-patch.sh, which puts the mark back.
kept_candidates()
{
	local m d want sw

	want=$(kept_identity <(kept_mark))
	for m in "$cache/kernels/$tree"-*/build.*/kept "$cache/kernels/$tree"-*/build.*/kept.away; do
		d=${m%/*}
		if [ ! -f "$m" ] || [ ! -f "$d/obj/.config" ] ||
			[ "$(kept_identity "$m")" != "$want" ]; then
			continue
		fi
		if grep -qx "series=$series_hash" "$m"; then
			sw=0
		else
			sw=$(kept_switch_cost "$d" "$series_lines") || continue
		fi
		printf '%s %s\n' "$d" "$sw"
	done
}

# derive_from_kept: the kept directory whose .config is nearest to this
# build's merged one (then whose series is), when one is near enough: uses
# it (kept_use), gives its source this build's series when it has another
# (kept_switch: one edited patch of a series under work is an incremental
# build), puts this build's .config there and points src and obj at it
# (after the build using it, if any).  Returns 1 when there is none: the
# build is made from scratch.
switching=
derive_from_kept()
{
	local d sw n best='' best_n=0 best_sw=0

	[ "$flavour" = qemu ] && [ "$make_debs" = 0 ] && [ "$force" = 0 ] &&
		[ "${BOOTTRACE_KERNEL_DERIVE:-1}" != 0 ] || return 1
	while read -r d sw; do
		n=$(diff <(config_lines "$obj/.config") <(config_lines "$d/obj/.config") |
			grep -c '^[<>]' || true)
		[ "$n" -le "$BT_DERIVE_MAX_LINES" ] || continue
		if [ -n "$best" ] && { [ "$n" -gt "$best_n" ] ||
			{ [ "$n" = "$best_n" ] && [ "$sw" -ge "$best_sw" ]; }; }; then
			continue
		fi
		best=$d best_n=$n best_sw=$sw
	done < <(kept_candidates)
	[ -n "$best" ] || return 1
	# Compiles are one at a time anyway (kernels/.build.lock): waiting for
	# the build that uses it costs less than compiling every object.
	# (removed since the look: from scratch)
	kept_use "$best" step "waiting for the build that uses $best" || return 1
	if grep -qx "series=$series_hash" "$best/kept"; then
		# kept before the lists: it has this series, which it now lists
		kept_plan "$best" "" ||
			kept_set_applied "$best" "$applied" ${patches[@]+"${patches[@]}"}
	else
		# (switched by someone else meanwhile: its list says how far)
		sw=$(kept_switch_cost "$best" "$series_lines") || {
			kept_release
			return 1
		}
		step "switching the source of the kept build directory $best to this series ($sw patches off and on)"
		switching=$best
		kept_take "$best"
		if ! kept_switch "$best" "$applied" ${patches[@]+"${patches[@]}"} 2>>"$log"; then
			step "a patch did not come off or go on there (log: $log): removing it, building from scratch"
			rm -rf "$best"
			switching=
			kept_release
			return 1
		fi
		kept_give "$best"
		switching=
	fi
	step "deriving from the kept build directory $best ($best_n lines of .config differ)"
	# The .config went through olddefconfig with the Kconfig files this
	# source now has; make's syncconfig reads it again there.
	cmp -s "$obj/.config" "$best/obj/.config" || cp "$obj/.config" "$best/obj/.config"
	chmod --reference="$obj/.config" "$best/obj/.config"
	derived=$best src=$best/src obj=$best/obj
}

# --- merged configs, kept by what they depend on -----------------------------
# A qemu-flavour build's merged .config depends on the tree, the toolchain,
# the fragments' symbol lines and the files Kconfig reads, and on nothing
# else of the series: after an edit of a patch that touches no such file,
# the config is the same.  The merged and verified config is kept in
# $cache/kernels/configs/ under a key of those inputs (config_key), so that
# a build of such inputs needs no throwaway source to merge it in and none
# of Kconfig's three runs (tinyconfig is two, olddefconfig after the merge
# one: ~16 s of a derived build's ~50 s on 6.1).  Not with --force, which
# merges again and keeps the new one.  The newest BT_CONFIGS_KEPT stay.
BT_CONFIGS_KEPT=64
config_key=
configs_dir=

# config_key_of: the key of this build's merged config (above), on stdout.
config_key_of()
{
	local f

	{
		printf 'recipe=%s\ntree=linux-source-%s %s\nflavour=%s\ngcc=%s\nld=%s\n' \
			"$BT_KERNEL_RECIPE" "$tree" "$pkgver" "$flavour" "$cc_version" "$ld_version"
		kept_kconfig_lines "$patch_dir" <<<"$series_lines"
		for f in "${fragments[@]}"; do
			parse_fragment "$f"
		done
	} | sha256sum | cut -c1-16
}

# config_cached: this build's merged config from configs_dir as
# $obj/.config; returns 1 when there is none to take.
config_cached()
{
	local f=$configs_dir/$config_key

	[ "$flavour" = qemu ] && [ "$force" = 0 ] && [ "$config_only" = 0 ] &&
		[ -f "$f" ] || return 1
	mkdir -p "$obj"
	# (a new file, as kbuild writes one: the umask's mode, not the kept one's)
	cat "$f" >"$obj/.config" || return 1
	# (a damaged one is merged again)
	config_unmet "$obj/.config"
	if [ ${#unmet[@]} -gt 0 ] || ! grep -q '^CONFIG_CC_VERSION_TEXT=' "$obj/.config"; then
		step "the kept config $f lacks fragment values or the compiler's: merging again"
		rm -f "$f" "$obj/.config"
		return 1
	fi
	touch -c "$f"
	step "config merged and verified before, for the same tree, toolchain, fragments and Kconfig files ($f)"
}

# config_keep: this build's merged config ($obj/.config) into configs_dir,
# whole or not at all; the older ones beyond BT_CONFIGS_KEPT go.
config_keep()
{
	local tmpf f

	[ "$flavour" = qemu ] || return 0
	mkdir -p "$configs_dir"
	tmpf=$(mktemp "$configs_dir/.new.XXXXXX")
	if cat "$obj/.config" >"$tmpf" && chmod a+r "$tmpf"; then
		mv -f "$tmpf" "$configs_dir/$config_key"
	else
		rm -f "$tmpf"
		return 0
	fi
	# shellcheck disable=SC2012 # keys: no newlines
	ls -t "$configs_dir" | tail -n +$((BT_CONFIGS_KEPT + 1)) |
		while IFS= read -r f; do rm -f "$configs_dir/$f"; done
	# what a build killed between its mktemp and its mv left (ls -t
	# lists no dot files); a live one is seconds old
	find "$configs_dir" -maxdepth 1 -name '.new.*' -mmin +60 -delete 2>/dev/null || true
}

# keep_build DIR: this build's directory DIR becomes a kept one; the
# tree's older kept directories beyond the newest BT_KEPT_PER_TREE go
# (unless in use).
keep_build()
{
	local dir=$1 m d i=0

	rm -rf "$dir/resumable" "$dir/old-out"
	kept_mark >"$dir/kept"
	while IFS= read -r m; do
		i=$((i + 1))
		d=$(dirname "$m")
		if [ "$i" -le "$BT_KEPT_PER_TREE" ] || [ "$d" = "$dir" ]; then
			continue
		fi
		kept_remove_idle "$d"
	done < <(kept_marks)
}

# kept_marks: the kept marks of the tree's kept directories, newest first.
kept_marks()
{
	# shellcheck disable=SC2012 # cache paths: no newlines
	ls -t "$cache/kernels/$tree"-*/build.*/kept 2>/dev/null || true
}

# What the command prints on stdout: the bzImage, or with --deb the .debs.
print_result()
{
	if [ "$deb" = 1 ]; then
		find "$out/debs" -name '*.deb' | LC_ALL=C sort
	else
		printf '%s\n' "$out/bzImage"
	fi
}

for i in "${!fragments[@]}"; do
	f=${fragments[$i]}
	if [ ! -f "$f" ] || [ ! -r "$f" ]; then
		bt_die "config fragment $f not found or unreadable"
	fi
	parse_fragment "$f" >/dev/null
	# merge_config.sh runs inside the build directory: absolute paths.
	fragments[i]=$(readlink -f "$f")
done
series_file=$(readlink -f "$series_file")
patch_dir="$(dirname "$series_file")/patches"
series_list=$(read_series "$series_file" "$patch_dir")
patches=()
[ -z "$series_list" ] || mapfile -t patches <<<"$series_list"

# Only what the cache key needs here; the rest once we know we build.
bt_need_pkgs gcc binutils
pkgver=$(bt_tree_pkgver "$tree")
# the series' "NAME SHA256" lines, and their hash (kernel/kept.sh)
series_lines=$(kept_patch_lines "$patch_dir" ${patches[@]+"${patches[@]}"})
series_hash=$(kept_series_hash <<<"$series_lines")
fragment_hash=$(hash_contents "${fragments[@]}")
flavour_toolchain
cc_version=$(gcc --version | head -n1)
ld_version=$(ld --version | head -n1)
key=$({
	printf 'recipe=%s\ntree=linux-source-%s %s\nseries=%s\nfragments=%s\ngcc=%s\nld=%s\n' \
		"$BT_KERNEL_RECIPE" "$tree" "$pkgver" "$series_hash" "$fragment_hash" \
		"$cc_version" "$ld_version"
	flavour_key
} | sha256sum | cut -c1-16)

cache=$(bt_cache_dir)
cache=$(cd "$cache" && pwd -P)
entry="$cache/kernels/$tree-$key"
[ "$flavour" = qemu ] || entry="$cache/kernels/$tree-$flavour-$key"
out="$entry/out"
configs_dir="$cache/kernels/configs"

# A kept directory for kernel/per-patch.sh: one of this source (this
# entry's first), else one whose series it can switch (the fewest patches).
if [ "$print_kept" = 1 ]; then
	mark=$(kept_mark)
	while IFS= read -r m; do
		if [ -f "$m" ] && [ "$(cat "$m")" = "$mark" ]; then
			printf '%s\n' "${m%/kept}"
			exit 0
		fi
	done < <(printf '%s\n' "$entry"/build.*/kept; kept_marks)
	kept_candidates | sort -k2,2n | head -n1 | cut -d' ' -f1 | grep . || exit 1
	exit 0
fi
if [ "$print_dir" = 1 ]; then
	[ -f "$out/bzImage" ] || exit 1
	printf '%s\n' "$out"
	exit 0
fi

if [ "$force" = 0 ] && [ "$config_only" = 1 ] && [ -f "$entry/config/.config" ]; then
	step "cached config: linux-source-$tree $pkgver, flavour $flavour, key $key"
	cat "$entry/config/report" >&2
	printf '%s\n' "$entry/config/.config"
	exit 0
fi
if [ "$force" = 0 ] && [ "$config_only" = 0 ] && built_already; then
	step "cached: linux-source-$tree $pkgver, key $key"
	print_result
	exit 0
fi

bt_need_pkgs make flex bison bc libelf-dev libssl-dev ccache patch xz-utils cpio
# --force replaces the entry with one of the same kind: an entry that has
# packages gets them again (without them, the next --deb build of it would
# build the whole kernel again to make them).  What is printed stays what
# was asked for.
make_debs=$deb
if [ "$force" = 1 ] && [ "$deb" = 0 ] && [ "$config_only" = 0 ] && [ -d "$out/debs" ]; then
	step "this build has packages ($out/debs): building them again too"
	make_debs=1
fi
[ "$make_debs" = 0 ] || bt_need_pkgs dpkg-dev rsync kmod

# ---------------------------------------------------------------------------
# Locks: one builder per entry; and (below, around `make bzImage` only) one
# kernel compile at a time per cache: the builds are CPU-bound, two at once
# only slow each other down.
# ---------------------------------------------------------------------------
mkdir -p "$entry"
exec 8>"$entry/.lock$(work_kind)"
bt_flock_wait 8 step "another process is building this kernel; waiting ($entry/.lock)"
if [ "$force" = 0 ] && [ "$config_only" = 0 ] && built_already; then
	step "built by the other process"
	print_result
	exit 0
fi

# Leftovers of builds that stopped (we hold the entry lock).  One whose
# source and config were ready (the "resumable" mark) is resumed: kbuild
# compiles only what it had not compiled, which on the Debian flavour saves
# hours.  Its inputs are those of this entry (the key); --force starts over.
resume=
for d in "$entry"/build"$(work_kind)".*; do
	[ -d "$d" ] || continue
	if [ "$force" = 0 ] && [ -z "$resume" ] && [ -f "$d/resumable" ]; then
		resume=$d
	elif [ -f "$d/kept" ] || [ -f "$d/kept.away" ]; then
		# kept (kept.away: per-patch.sh builds there): once nobody uses it
		kept_remove "$d"
	else
		rm -rf "$d"
	fi
done

if [ -n "$resume" ]; then
	tmp=$resume
else
	tmp=$(mktemp -d "$entry/build$(work_kind).XXXXXX")
fi
src="$tmp/src"
obj="$tmp/obj"
# the copies of the patches the source has (make_source, kernel/kept.sh)
applied="$tmp/applied"
log="$tmp/build.log"
failed_log="$entry/failed.log"
finished=0
kpid=

# stop_tree PID: SIGTERM to PID and to every process below it, then waits
# (up to 60 s) until they are gone.  make passes SIGTERM on to its jobs and
# removes the targets they were writing, so a kept directory holds no
# half-written object.  (The build runs as a background job, which ignores
# SIGINT: a Ctrl-C reaches this script only, and the make below would go on
# without it.)
stop_tree()
{
	local pids

	pids=$(ps -e -o pid=,ppid= | awk -v root="$1" '
		{ parent[$1] = $2 }
		END {
			tree[root] = 1
			do {
				n = 0
				for (p in parent)
					if (!(p in tree) && (parent[p] in tree)) {
						tree[p] = 1
						n++
					}
			} while (n > 0)
			for (p in tree)
				print p
		}')
	# shellcheck disable=SC2086 # one PID per word
	kill -TERM $pids 2>/dev/null || true
	wait "$1" 2>/dev/null || true
	for _ in $(seq 600); do
		# shellcheck disable=SC2086
		kill -0 $pids 2>/dev/null || return 0
		sleep 0.1
	done
}

# A stopped build (an error, a signal) leaves its log as failed.log; its
# directory is kept when it can be resumed, else removed.
cleanup()
{
	[ "$finished" = 1 ] && return 0
	if [ -n "${kpid:-}" ] && kill -0 "$kpid" 2>/dev/null; then
		stop_tree "$kpid"
	fi
	if [ -f "$tmp/resumable" ]; then
		[ ! -f "$log" ] || cp -f "$log" "$failed_log"
		printf 'boottrace: kernel: kept %s: the same command resumes the build there (--force starts over)\n' \
			"$tmp" >&2
		return 0
	fi
	if [ -f "$log" ]; then
		mv -f "$log" "$failed_log"
	fi
	rm -rf "$tmp"
	# stopped while switching a kept directory's series: neither series
	[ -z "$switching" ] || kept_drop_taken "$switching"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Stops the build: names the step, the full log and its last 30 lines.
fail()
{
	local msg=$1

	cleanup
	finished=1
	printf 'boottrace: kernel: error: %s\n' "$msg" >&2
	if [ -f "$failed_log" ]; then
		printf 'boottrace: kernel: full log: %s; last 30 lines:\n' "$failed_log" >&2
		tail -n 30 "$failed_log" >&2
	fi
	exit 1
}

# Runs a command with its output in the log (and on stderr with -v).
logged()
{
	printf '\n$ %s\n' "$*" >>"$log"
	if [ "$verbose" = 1 ]; then
		"$@" 2>&1 | tee -a "$log" >&2
	else
		"$@" >>"$log" 2>&1
	fi
}

jobs=${BOOTTRACE_JOBS:-$(nproc)}
export BOOTTRACE_JOBS=$jobs
# BOOTTRACE_KERNEL_IDLE=1: a build in the CPUs' idle time (a head start
# on a kernel that is needed later, beside other work): SCHED_IDLE, so
# that any other process runs first, and no wait for the compile lock.
idle=0
if [ "${BOOTTRACE_KERNEL_IDLE:-0}" = 1 ]; then
	chrt --idle -p 0 $$ >/dev/null 2>&1 ||
		bt_die "BOOTTRACE_KERNEL_IDLE=1: cannot make this build SCHED_IDLE (chrt --idle -p 0 $$)"
	idle=1
fi
bt_kbuild_env "$cache"

kmake()
{
	logged bt_kmake "$src" "$obj" ${flavour_make[@]+"${flavour_make[@]}"} "$@"
}

# ccache's counters, for the metadata: "hits misses".
ccache_counts()
{
	ccache --print-stats 2>/dev/null | awk '
		$1 == "direct_cache_hit" || $1 == "preprocessed_cache_hit" { h += $2 }
		$1 == "cache_miss" { m += $2 }
		END { printf "%d %d\n", h, m }'
}

# Objects compiled so far (kbuild's "  CC  path" lines of the log).
objects_done()
{
	awk -v count=objects -f "$BT_TOP/kernel/kbuild-progress.awk" "$log"
}

# --- source: a hard-linked copy of the pristine tree, patched -------------
make_source()
{
	local t=$SECONDS tree_dir p

	tree_dir=$(bt_tree_dir "$tree")
	cp -al "$tree_dir" "$src" 2>>"$log" || fail "copying $tree_dir failed"
	# GNU patch writes a new file and renames it over the old one, so patching
	# breaks the hard link and the pristine tree is never modified.
	# The copies are applied: a kept directory's list is what its source has.
	for p in ${patches[@]+"${patches[@]}"}; do
		logged patch -d "$src" -p1 --batch --forward --fuzz=0 \
			--no-backup-if-mismatch -i "$tmp/applied/$p" ||
			fail "patch $p (series $series_file) does not apply to linux-source-$tree $pkgver"
	done
	step "source ready (${#patches[@]} patches applied) in $((SECONDS - t))s"
}

# --- config: merged, verified (and reported for the Debian flavour) -------
# config_unmet CONFIG: sets unmet to "CONFIG_X: wanted V, got W" for each
# symbol of the fragments (later fragments win) that does not have its
# value in the .config CONFIG, order to the fragments' symbols, in order,
# and want to their values.
order=()
unmet=()
declare -A want=()
config_unmet()
{
	local f sym val got line
	declare -A have=()

	order=() unmet=() want=()
	for f in "${fragments[@]}"; do
		while IFS=$'\t' read -r sym val; do
			[ -n "${want[$sym]+x}" ] || order+=("$sym")
			want[$sym]=$val
		done < <(parse_fragment "$f")
	done
	while IFS= read -r line; do
		if [[ $line =~ ^(CONFIG_[A-Za-z0-9_]+)=(.*)$ ]]; then
			have[${BASH_REMATCH[1]}]=${BASH_REMATCH[2]}
		elif [[ $line =~ ^#\ (CONFIG_[A-Za-z0-9_]+)\ is\ not\ set$ ]]; then
			have[${BASH_REMATCH[1]}]=n
		fi
	done <"$1"
	for sym in "${order[@]}"; do
		got=${have[$sym]-"(absent: unknown symbol or unmet dependencies)"}
		[ "${want[$sym]}" = n ] && [ -z "${have[$sym]+x}" ] && continue
		[ "$got" = "${want[$sym]}" ] || unmet+=("$sym: wanted ${want[$sym]}, got $got")
	done
}

make_config()
{
	local t=$SECONDS

	mkdir -p "$obj"
	base_config "$tmp" || fail "making the $flavour base config failed"
	# merge_config.sh writes temporary files into $PWD: run it inside obj.
	(cd "$obj" && logged "$src/scripts/kconfig/merge_config.sh" -m .config \
		"${fragments[@]}") || fail "merge_config.sh failed"
	kmake olddefconfig || fail "make olddefconfig failed"

	config_unmet "$obj/.config"
	if [ ${#unmet[@]} -gt 0 ]; then
		printf 'boottrace: kernel: %s\n' "${unmet[@]}" >>"$log"
		printf 'boottrace: kernel: %s\n' "${unmet[@]}" >&2
		fail "${#unmet[@]} fragment symbol(s) did not get their value after olddefconfig (fix their dependencies in the fragment)"
	fi
	step "config merged and verified (${#order[@]} symbols) in $((SECONDS - t))s"
	[ "$flavour" = qemu ] || flavour_config_report "$tmp" >"$tmp/config-report"
	[ "$config_only" = 0 ] || finish_config_only "$tmp"
}

if [ -n "$resume" ]; then
	now=$(date -u +%Y-%m-%dT%H:%M:%SZ)
	printf '\n$ # resumed at %s\n' "$now" >>"$log"
	printf 'resumed=%s\n' "$now" >>"$tmp/resumable"
	step "resuming the build of linux-source-$tree $pkgver stopped in $tmp ($(objects_done) objects compiled there; kbuild compiles the rest)"
	step "log: $log"
else
	: >"$log"
	step "building linux-source-$tree $pkgver, series $series_hash (${#patches[@]} patches), fragments $fragment_hash -> $entry"
	step "log: $log"
	# the copies of the series' patches, which the source gets (make_source)
	# or a kept directory switches to (derive_from_kept)
	kept_copy_patches "$tmp" "$patch_dir" ${patches[@]+"${patches[@]}"}
	config_key=$(config_key_of)
	# From here on a stopped build can be resumed (a derived one is made
	# again where it was derived: kbuild compiles only what is missing).
	if config_cached; then
		derive_from_kept || {
			make_source
			printf 'key=%s\n' "$key" >"$tmp/resumable"
		}
	else
		make_source
		make_config
		config_keep
		derive_from_kept || printf 'key=%s\n' "$key" >"$tmp/resumable"
	fi
fi

# --- build ---------------------------------------------------------------
# An idle-time build (BOOTTRACE_KERNEL_IDLE=1, set at the start) does not
# take the lock: it only gets the CPU time the other builds leave.
if [ "$idle" = 0 ]; then
	exec 9>"$cache/kernels/.build.lock"
	bt_flock_wait 9 step "another kernel build is running; waiting ($cache/kernels/.build.lock)"
fi
t=$SECONDS
read -r hits0 miss0 < <(ccache_counts)
# Modules only when the fragments ask for some (=m).
targets=(bzImage)
! grep -q '=m$' "$obj/.config" || targets+=(modules)
# bindeb-pkg builds the image and the modules itself, then packages them.
[ "$make_debs" = 0 ] || targets=(bindeb-pkg)
# kbuild's build counter (obj/.version, init/build-version) numbers the
# runs in a directory: the "#N" of uname -v and the package revision.  A
# resumed build starts it again at 1, as a fresh build does, so that the
# same inputs give the same version however often the build was resumed.
rm -f "$obj/.version"
step "make -j$jobs ${targets[*]} (ccache $CCACHE_DIR)"
# For the progress line: how many objects the newest build of this tree
# and flavour compiled (a qemu build's ~1,300 are no total for Debian's
# config, ten times larger; the path alone does not tell them apart).
# (no earlier build of them is not an error: grep fails then).  A derived
# build compiles what a config change touches: no total for it, and its
# count is none for the next.
objects_total=
[ -n "$derived" ] ||
objects_total=$({ find "$cache/kernels" -maxdepth 3 -path "*/$tree-*/out/metadata" \
	-exec grep -lx "flavour=$flavour" {} + 2>/dev/null || true; } |
	while IFS= read -r m; do
		! grep -q '^derived_from=' "$m" || continue
		n=$(sed -n 's/^objects=//p' "$m")
		[ -z "$n" ] || printf '%s %s\n' "$(stat -c %Y "$m")" "$n"
	done | sort -n | tail -n1 | cut -d' ' -f2)
# The progress line: the step the log shows (kernel/kbuild-progress.awk),
# modules counted against obj/modules.order once kbuild has written it.
build_progress()
{
	local modules_total=0

	[ ! -f "$obj/modules.order" ] || modules_total=$(wc -l <"$obj/modules.order")
	awk -v objects_total="${objects_total:-0}" -v modules_total="$modules_total" \
		-f "$BT_TOP/kernel/kbuild-progress.awk" "$log"
}
kmake "${targets[@]}" &
kpid=$!
[ "$quiet" = 1 ] || [ "$verbose" = 1 ] || bt_progress kernel "$kpid" build_progress
wait "$kpid" || fail "make ${targets[*]} failed"
read -r hits1 miss1 < <(ccache_counts)
build_secs=$((SECONDS - t))
step "bzImage built in ${build_secs}s (ccache: $((hits1 - hits0)) hits, $((miss1 - miss0)) misses)"

# --- collect, then rename into place ------------------------------------
release=$(make -s -C "$src" O="$obj" CC="ccache gcc" kernelrelease 2>>"$log") ||
	fail "make kernelrelease failed"
mkdir "$tmp/out"
cp "$obj/arch/x86/boot/bzImage" "$obj/System.map" "$obj/.config" "$tmp/out/"
if grep -q '=m$' "$obj/.config"; then
	# Flat: out/modules/NAME.ko (insmod needs no depmod tree)
	nmods=$("$BT_TOP/kernel/flat-modules.sh" "$obj" "$tmp/out/modules" 2>>"$log") ||
		fail "copying the modules to out/modules failed"
	step "$nmods modules in out/modules (without debug information)"
fi
printf '%s\n' "$release" >"$tmp/out/kernelrelease"
[ "$make_debs" = 0 ] || collect_debs "$tmp" "$tmp/out/debs"
[ ! -f "$tmp/config-report" ] || cp "$tmp/config-report" "$tmp/out/config-report"
# a derived build has no resumable mark
resumes=$(grep -cs '^resumed=' "$tmp/resumable" || true)
resumes=${resumes:-0}
{
	printf 'tree=linux-source-%s\n' "$tree"
	printf 'tree_version=%s\n' "$pkgver"
	printf 'flavour=%s\n' "$flavour"
	printf 'kernelrelease=%s\n' "$release"
	printf 'key=%s\n' "$key"
	printf 'recipe=%s\n' "$BT_KERNEL_RECIPE"
	printf 'series_hash=%s\n' "$series_hash"
	printf 'series=%s\n' "${patches[*]-}"
	printf 'modules=%s\n' "$(find "$tmp/out" -name '*.ko' -printf '%f ')"
	printf 'fragment_hash=%s\n' "$fragment_hash"
	printf 'fragments=%s\n' "${fragments[*]}"
	printf 'compiler=%s\n' "$cc_version"
	printf 'linker=%s\n' "$ld_version"
	printf 'jobs=%s\n' "$jobs"
	printf 'build_seconds=%s\n' "$build_secs"
	printf 'objects=%s\n' "$(objects_done)"
	printf 'total_seconds=%s\n' "$((SECONDS - t_start))"
	printf 'resumes=%s\n' "$resumes"
	printf 'ccache_hits=%s\n' "$((hits1 - hits0))"
	printf 'ccache_misses=%s\n' "$((miss1 - miss0))"
	printf 'built_at=%s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
	[ -z "$derived" ] || printf 'derived_from=%s\n' "$derived"
} >"$tmp/out/metadata"
mv "$log" "$tmp/out/build.log"
log="$tmp/out/build.log"

if [ -d "$out" ]; then
	mv "$out" "$tmp/old-out"
fi
mv "$tmp/out" "$out"
finished=1
if [ -n "$derived" ] || [ "$flavour" != qemu ]; then
	# a derived build's own directory only merged its config
	rm -rf "$tmp"
	kept_release
else
	keep_build "$tmp"
fi
rm -f "$failed_log"
step "done: $out/bzImage ($release, $(stat -c %s "$out/bzImage") bytes)"
print_result
