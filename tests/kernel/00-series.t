#!/bin/bash
# The series itself, for each tree (no boots): every patch is
# `checkpatch.pl --strict` clean (run from the pristine tree), has an
# upstream-style subject and a Signed-off-by, and the series applies in
# order with `patch -p1 --fuzz=0` (what kernel/build.sh does) and with
# `git am` on a git-initialised copy of the files it touches.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

apply_patch()
{
	local dir=$1 p
	shift

	for p; do
		patch -d "$dir" -p1 --batch --fuzz=0 --no-backup-if-mismatch -s <"$p" || { echo "$p"; return 1; }
	done
}

apply_am()
{
	local dir=$1
	shift

	(
		cd "$dir" || exit 1
		export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t.invalid
		export GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t.invalid
		git init -q && git add -f -A . && git commit -qm base &&
			git am -q "$@"
	)
}

# kernel/series is the 6.1 list; other trees need their own series-TREE.
trees=(6.1)
dir=${K_SERIES_DIR:-$BT_TOP/kernel}
[ -f "$dir/series-6.12" ] && trees+=(6.12)
declare -A list=()
total=0
for tree in "${trees[@]}"; do
	series=$(k_series_file "$tree")
	list[$tree]=$(sed 's/#.*//; s/[[:space:]]//g; /^$/d' "$series")
	n=$(printf '%s' "${list[$tree]}" | grep -c .)
	total=$((total + 3 * n + 4))
done
t_plan $((total + 1))

# subject_of PATCH: its subject, unfolded, without "[PATCH]"
subject_of()
{
	awk '/^Subject: / {
		s = $0; sub(/^Subject: (\[[^]]*\] )?/, "", s)
		while ((getline n) > 0 && n ~ /^[ \t]/) s = s n
		print s; exit }' "$1"
}

# upstream_refs PATCH: "SHA|SUBJECT" of each upstream commit PATCH names
# (its Fixes: tags, and the commit it backports)
upstream_refs()
{
	local sha

	sed -n 's/^Fixes: \([0-9a-f]*\) ("\(.*\)")$/\1|\2/p' "$1"
	sha=$(sed -n 's/^commit \([0-9a-f]\{40\}\) upstream\.$/\1/p' "$1")
	[ -z "$sha" ] || printf '%s|%s\n' "$sha" "$(subject_of "$1")"
}

# unlisted_refs PATCH...: the references not in upstream-commits with
# the same subject (SHAs compared on the shorter one, 12 hex at least)
unlisted_refs()
{
	local p ref sha subj lsha lsubj found

	for p; do
		while IFS= read -r ref; do
			sha=${ref%%|*} subj=${ref#*|} found=
			while IFS='|' read -r lsha lsubj _; do
				case $lsha in '#'* | '') continue ;; esac
				if [ ${#lsha} -lt 12 ] || [ ${#sha} -lt 12 ]; then
					continue
				fi
				if [[ $lsha == "$sha"* || $sha == "$lsha"* ]] &&
					[ "$lsubj" = "$subj" ]; then
					found=1
					break
				fi
			done <"$dir/upstream-commits"
			[ -n "$found" ] || echo "$(basename "$p"): $sha (\"$subj\")"
		done < <(upstream_refs "$p")
	done
}

mapfile -t all < <(printf '%s\n' "${list[@]}" | sort -u)
t_is "$(unlisted_refs "${all[@]/#/$dir/patches/}")" "" \
	"every upstream commit a patch names is in kernel/upstream-commits, same subject"

# checkpatch SRC PATCH...: checkpatch.pl --strict of the tree SRC, quiet;
# fails with its output unless it has nothing to say.
# UNKNOWN_COMMIT_ID: the packaged trees have no git history, so checkpatch
# cannot look up the commit a Fixes: tag names (it says "Unknown commit id"
# for any); the tag's form is checked below.
checkpatch()
{
	local src=$1 out rc=0
	shift

	out=$(cd "$src" && scripts/checkpatch.pl --strict -q \
		--ignore UNKNOWN_COMMIT_ID "$@" 2>&1) || rc=$?
	if [ "$rc" != 0 ] || [ -n "$out" ]; then
		printf '%s\n' "$out"
		return 1
	fi
}

# patch_clean SRC PATCH: checkpatch has nothing to say about PATCH: known
# from the run of the whole series when that run was clean, otherwise
# checked alone.
patch_clean()
{
	[ "$series_clean" = yes ] || checkpatch "$@"
}

for tree in "${trees[@]}"; do
	src=$(bt_tree_dir "$tree" 2>"$T_TMP/tree.err") ||
		{ echo "Bail out! cannot extract linux-source-$tree: $(tail -n1 "$T_TMP/tree.err")"; exit 1; }
	mapfile -t patches <<<"${list[$tree]}"
	pdir=$(dirname "$(k_series_file "$tree")")/patches
	# The patches as checkpatch reads them: a backport's "commit <sha>
	# upstream." line (the form of
	# Documentation/process/stable-kernel-rules.rst) is not a commit
	# reference in checkpatch's sense: it is left out.
	cpdir=$T_TMP/checkpatch-$tree
	mkdir -p "$cpdir"
	for p in "${patches[@]}"; do
		sed -E '/^commit [0-9a-f]{40} upstream\.$/d' "$pdir/$p" >"$cpdir/$p"
	done
	# One run for the whole series (checkpatch checks each file on its
	# own; its start-up is half of a run), each patch alone only when that
	# run is not clean, to say which.
	series_clean=no
	if checkpatch "$src" "${patches[@]/#/$cpdir/}" >/dev/null; then
		series_clean=yes
	fi
	paths=()
	for p in "${patches[@]}"; do
		f=$pdir/$p
		t_ok "$tree: $p: checkpatch --strict clean" patch_clean "$src" "$cpdir/$p"
		t_ok "$tree: $p: subject has a subsystem prefix" \
			grep -q -E '^Subject: \[PATCH[^]]*\] (bootconfig|tracing/boot|tracing|init/main|init): ' "$f"
		t_ok "$tree: $p: Signed-off-by, and Fixes: tags of the form 12-hex (\"subject\")" \
			sh -c "grep -q -E '^Signed-off-by: .+ <.+@.+>\$' '$f' &&
				! grep -E '^Fixes:' '$f' | grep -v -E '^Fixes: [0-9a-f]{12} \\(\".+\"\\)\$'"
		while IFS= read -r path; do paths+=("$path"); done \
			< <(sed -n 's|^+++ b/||p; s|^--- a/||p' "$f")
	done
	# Fixes (a Fixes: tag, or a backport) come before the features, so
	# that stable can take them without anything after them.
	kinds=
	for p in "${patches[@]}"; do
		if grep -q -E '^(Fixes: |commit [0-9a-f]{40} upstream\.$)' "$pdir/$p"; then
			kinds+=F
		else
			kinds+=N
		fi
	done
	t_ok "$tree: fixes first ($kinds)" test "${kinds#*NF}" = "$kinds"
	# a copy of every file the series touches, as git's base
	base=$T_TMP/$tree
	mkdir -p "$base"
	for path in $(printf '%s\n' "${paths[@]}" | sort -u); do
		[ -f "$src/$path" ] || continue
		mkdir -p "$base/$(dirname "$path")"
		cp "$src/$path" "$base/$path"
	done
	cp -a "$base" "$base.patch"
	t_ok "$tree: the series applies with patch -p1 --fuzz=0" \
		apply_patch "$base.patch" "${patches[@]/#/$pdir/}"
	t_ok "$tree: the series applies with git am" \
		apply_am "$base" "${patches[@]/#/$pdir/}"
	t_ok "$tree: git am and patch give the same result" \
		diff -r -x .git "$base" "$base.patch"
done
t_done
