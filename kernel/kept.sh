# shellcheck shell=bash
# kernel/kept.sh - kept build directories: what kernel/build.sh and
# kernel/per-patch.sh agree on (kernel/README.md, "Kept build
# directories").  Sourced after scripts/lib.sh.
#
# A kept directory DIR is a qemu-flavour build's build.XXXXXX in its cache
# entry: DIR/src (the patched source) and DIR/obj (kbuild's objects), and
#   DIR/kept       its mark (what it was built from: build.sh's kept_mark);
#                  a build whose .config is near may be made there
#   DIR/kept.away  the mark set aside: per-patch.sh has taken the series
#                  off the source to build the prefixes there; it puts the
#                  mark back at the end, and one that stops before removes
#                  DIR (its source is no longer what the mark says)
#   DIR/.lock      held (flock) by whoever uses DIR, and by whoever
#                  removes it
#   DIR/applied/   copies of the patches DIR/src has, and their list
#                  (series: "NAME SHA256" lines, in order; the mark's
#                  series= is the hash of that list, as build.sh computes
#                  it), so that the source can be switched to another
#                  series (kept_switch): a kernel developer's edit of one
#                  patch is an incremental build there, not a new one
# A process uses one kept directory at a time: its lock is on kept_fd.

kept_fd=

# kept_use DIR SAY...: takes DIR's lock, after the process using it (SAY...
# says that it waits, bt_flock_wait).  Fails, holding nothing, when DIR is
# gone or has no mark (removed meanwhile, or left by a per-patch.sh run
# that stopped).
kept_use()
{
	local dir=$1

	shift
	{ exec {kept_fd}>"$dir/.lock"; } 2>/dev/null || {
		kept_fd=
		return 1
	}
	bt_flock_wait "$kept_fd" "$@"
	[ -f "$dir/kept" ] && return 0
	kept_release
	return 1
}

# kept_release: lets go of the kept directory this process uses.
kept_release()
{
	[ -z "$kept_fd" ] || exec {kept_fd}>&-
	kept_fd=
}

# kept_take DIR / kept_give DIR (under kept_use): the mark set aside while
# the source is not what it says, and back.
kept_take()
{
	mv "$1/kept" "$1/kept.away"
}

kept_give()
{
	mv "$1/kept.away" "$1/kept"
}

# kept_drop_taken DIR: removes DIR when its mark is still set aside (the
# run that took it stops half-way).
kept_drop_taken()
{
	[ -f "$1/kept" ] || rm -rf "$1"
}

# kept_remove DIR: removes DIR once nobody uses it.
kept_remove()
{
	(
		{ exec {fd}>"$1/.lock"; } 2>/dev/null && flock "$fd"
		rm -rf "$1"
	)
}

# kept_remove_idle DIR: removes DIR if nobody uses it now.
kept_remove_idle()
{
	(
		{ exec {fd}>"$1/.lock"; } 2>/dev/null && flock -n "$fd" && rm -rf "$1"
	) || true
}

# kept_patch_lines DIR NAME...: the "NAME SHA256" lines of the named patch
# files of DIR, in order: a series' identity (its hash is build.sh's
# series hash).
kept_patch_lines()
{
	local dir=$1 p

	shift
	for p in "$@"; do
		printf '%s %s\n' "$p" "$(sha256sum <"$dir/$p" | cut -d' ' -f1)"
	done
}

# kept_touches_kconfig PATCH: PATCH touches a file Kconfig reads or may
# read: Kconfig*, Makefile*, Kbuild*, *.config, or anything under scripts/.
# Another patch cannot change what olddefconfig makes of a .config.
kept_touches_kconfig()
{
	awk '/^(---|\+\+\+) / {
		p = $2
		sub(/^[ab]\//, "", p)
		n = p
		sub(/.*\//, "", n)
		if (p ~ /^scripts\// || n ~ /^(Kconfig|Makefile|Kbuild)/ || n ~ /\.config$/) {
			found = 1
			exit
		}
	}
	END { exit !found }' "$1"
}

# kept_kconfig_lines DIR: of the "NAME SHA256" lines on stdin (patches in
# DIR), those of the patches that touch a file Kconfig reads
# (kept_touches_kconfig): build.sh keeps merged configs by these lines.
kept_kconfig_lines()
{
	local dir=$1 name sum

	while read -r name sum; do
		[ -n "$name" ] || continue
		! kept_touches_kconfig "$dir/$name" || printf '%s %s\n' "$name" "$sum"
	done
}

# kept_series_hash: the series hash of the "NAME SHA256" lines on stdin.
kept_series_hash()
{
	sha256sum | cut -c1-16
}

# kept_copy_patches DIR FROM NAME...: DIR/applied/ holds copies of the
# named patches of FROM and their list (a build applies the copies, so
# that what is listed is what was applied).
kept_copy_patches()
{
	local dir=$1 from=$2 p

	shift 2
	rm -rf "$dir/applied.new"
	mkdir "$dir/applied.new"
	for p in "$@"; do
		cp "$from/$p" "$dir/applied.new/$p"
	done
	kept_patch_lines "$dir/applied.new" "$@" >"$dir/applied.new/series"
	rm -rf "$dir/applied"
	mv "$dir/applied.new" "$dir/applied"
}

# kept_plan DIR LINES: what switching DIR's source to the series whose
# "NAME SHA256" lines are LINES takes: kept_old (DIR's applied list),
# kept_new (LINES) and kept_common (how many lines both begin with).  Fails
# for a directory kept before there were lists (only a build of its own
# series can use it).
kept_old=()
kept_new=()
kept_common=0
kept_plan()
{
	[ -f "$1/applied/series" ] || return 1
	mapfile -t kept_old <"$1/applied/series"
	kept_new=()
	[ -z "$2" ] || mapfile -t kept_new <<<"$2"
	kept_common=0
	while [ "$kept_common" -lt "${#kept_old[@]}" ] &&
		[ "$kept_common" -lt "${#kept_new[@]}" ] &&
		[ "${kept_old[kept_common]}" = "${kept_new[kept_common]}" ]; do
		kept_common=$((kept_common + 1))
	done
}

# kept_switch_cost DIR LINES: how many patches kept_switch takes off and
# puts on for LINES (0: DIR has that series).
kept_switch_cost()
{
	kept_plan "$1" "$2" || return 1
	printf '%d\n' "$((${#kept_old[@]} + ${#kept_new[@]} - 2 * kept_common))"
}

# kept_switch DIR FROM NAME... (under kept_use, the mark set aside): gives
# DIR's source the named patches of FROM instead of the ones it has: its
# own come off (patch -R, from its copies, last first) down to what both
# series begin with, the rest of the new one goes on (every file they
# touch gets a new time: kbuild recompiles what depends on it), and the
# list and the mark's series= say the new series.  patch's output goes to
# stderr.  Fails when a patch does not come off or go on: DIR's source is
# then neither series, and the caller removes DIR.
kept_switch()
{
	local dir=$1 from=$2 i mark

	shift 2
	kept_plan "$dir" "$(kept_patch_lines "$from" "$@")" || return 1
	for ((i = ${#kept_old[@]} - 1; i >= kept_common; i--)); do
		patch -d "$dir/src" -p1 -R --batch --fuzz=0 --no-backup-if-mismatch \
			-s -i "$dir/applied/${kept_old[i]%% *}" >&2 || return 1
	done
	for ((i = kept_common; i < ${#kept_new[@]}; i++)); do
		patch -d "$dir/src" -p1 --batch --forward --fuzz=0 \
			--no-backup-if-mismatch -s -i "$from/${kept_new[i]%% *}" >&2 || return 1
	done
	kept_set_applied "$dir" "$from" "$@"
}

# kept_set_applied DIR FROM NAME...: DIR's source has the named patches of
# FROM: their copies, the list and the mark's series= say so.
kept_set_applied()
{
	local dir=$1 mark

	kept_copy_patches "$@"
	mark=$dir/kept.away
	[ -f "$mark" ] || mark=$dir/kept
	sed -i "s/^series=.*/series=$(kept_series_hash <"$dir/applied/series")/" "$mark"
}

# kept_identity MARK: the mark without its series= line: what a build and
# a kept directory must share for the build to be made there (the tree,
# its version, the recipe and the toolchain).
kept_identity()
{
	grep -v '^series=' "$1"
}
