#!/bin/bash
# kernel/test.sh - tests of kernel/build.sh (TAP).
#
# Fast checks (argument and input errors, a patch that does not apply, a
# fragment symbol that does not stick) always run; they need the packaged
# tree (extracted once into the cache) and take ~1 minute.  With --built
# (or BOOTTRACE_KERNEL_TESTS=built), also check a built kernel: the cached
# rerun is fast and prints only the path, and the artifacts are complete;
# and a build stopped by SIGTERM is resumed by the same command, and
# --force starts over (a cache entry of its own, each run stopped early:
# ~30 s); a build near a kept build directory is derived there (~1 min;
# the first time in a cache without one, a kept directory is built first).
# That builds the kernel first when it is not cached (~10 min cold).
set -euo pipefail

top=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
build="$top/kernel/build.sh"

usage()
{
	cat <<'USAGE'
usage: kernel/test.sh [--built] [--tree 6.1|6.12]

TAP tests of kernel/build.sh.  --built also checks a built (cached) kernel,
building it first if needed.  Last line: "N passed, N failed".
USAGE
}

built=${BOOTTRACE_KERNEL_TESTS:-}
tree=6.1
while [ $# -gt 0 ]; do
	case "$1" in
	-h | --help) usage; exit 0 ;;
	--built) built=built ;;
	--tree) [ $# -ge 2 ] || { usage >&2; exit 2; }; tree=$2; shift ;;
	*) usage >&2; exit 2 ;;
	esac
	shift
done

n=0
pass=0
fail=0
work=$(mktemp -d)
# fake: a cache entry the progress test plants (removed even when the
# test is interrupted, so that no later build counts against it)
fake=
trap 'rm -rf "$work" ${fake:+"$fake"}' EXIT

ok()
{
	n=$((n + 1))
	pass=$((pass + 1))
	echo "ok $n - $1"
}

not_ok()
{
	n=$((n + 1))
	fail=$((fail + 1))
	echo "not ok $n - $1"
	if [ -f "$work/err" ]; then
		sed 's/^/#   /' "$work/err" | tail -n 15
	fi
}

# prog_fails PROG DESC REGEX ARGS...: PROG must exit non-zero, print nothing
# on stdout and match REGEX (extended) on stderr.
prog_fails()
{
	local prog=$1 desc=$2 re=$3 rc=0
	shift 3

	"$prog" "$@" >"$work/out" 2>"$work/err" || rc=$?
	if [ "$rc" -ne 0 ] && [ ! -s "$work/out" ] && grep -Eq -- "$re" "$work/err"; then
		ok "$desc"
	else
		echo "# rc=$rc stdout=$(head -c 200 "$work/out")"
		not_ok "$desc"
	fi
}

# expect_fail DESC REGEX ARGS...: the same of build.sh
expect_fail()
{
	prog_fails "$build" "$@"
}

# drop_entry DIR: removes the kernel cache entry DIR (never one that holds
# a finished build).
drop_entry()
{
	case "$1" in
	*/kernels/*-*) [ -d "$1/out" ] || rm -rf "$1" ;;
	esac
}

# Removes the cache entry a failed build named in $work/err.
drop_failed_entry()
{
	local f

	f=$(sed -n 's/^boottrace: kernel: full log: \(.*failed\.log\);.*/\1/p' "$work/err")
	[ -z "$f" ] || drop_entry "$(dirname "$f")"
}

# --- arguments and inputs ------------------------------------------------
if "$build" --help >"$work/out" 2>&1 && grep -q -- '--tree' "$work/out"; then
	ok "--help describes the options"
else
	not_ok "--help describes the options"
fi
expect_fail "unknown tree is refused" "unknown tree '5.10'" --tree 5.10
expect_fail "unknown option is refused" "unknown argument '--frobnicate'" --frobnicate
expect_fail "missing fragment is named" "fragment $work/none.config not found" \
	--config "$work/none.config"
printf 'CONFIG_A=y\nthis is not kconfig\n' >"$work/bad.config"
expect_fail "bad fragment line names file:line" "bad.config:2: not a Kconfig line" \
	--config "$work/bad.config"

mkdir -p "$work/s/patches"
printf '# comment\n\n0001-missing.patch  # trailing comment\n' >"$work/s/series"
expect_fail "series entry without a patch names the line" \
	"series:3: patch '0001-missing.patch' not found" --series "$work/s/series"
printf 'sub/0001.patch\n' >"$work/s/series"
expect_fail "series entry with a path is refused" "a patch name, not a path" \
	--series "$work/s/series"

# --- the progress line's steps (kernel/kbuild-progress.awk) --------------
# A log in kbuild's and builddeb's words: a build stopped while linking
# modules and resumed, whose second run links the rest and packages.
# expect_progress DESC WANT LOG [AWK-ARGS]: WANT is the line build.sh
# shows for LOG.
expect_progress()
{
	local desc=$1 want=$2 log=$3 got
	shift 3

	got=$(awk "$@" -f "$top/kernel/kbuild-progress.awk" "$log")
	if [ "$got" = "$want" ]; then
		ok "$desc"
	else
		echo "# got:  '$got'"
		echo "# want: '$want'"
		not_ok "$desc"
	fi
}
tab=$'\t'
plog=$work/progress.log
{
	printf '$ make -j2 bindeb-pkg\n'
	printf '  CC      init/main.o\n  AS      arch/x86/entry/entry_64.o\n'
	printf '  CC [M]  fs/ext4/inode.o\n  LD [M]  fs/ext4/ext4.o\n'
	printf '  LD      vmlinux.o\n'
} >"$plog"
expect_progress "progress: objects compiled, against the last build's total" \
	"compiling${tab}3 of ~12 objects (25%)" "$plog" -v objects_total=12 -v modules_total=3
expect_progress "progress: objects compiled, with no total" \
	"compiling${tab}3 objects" "$plog"
{
	printf '  LD [M]  fs/ext4/ext4.ko\n  BTF [M] fs/ext4/ext4.ko\n'
	printf '\n$ # resumed at 2026-12-07T01:30:18Z\n$ make -j2 bindeb-pkg\n'
	printf '  LD [M]  fs/ext4/ext4.ko\n  LD [M]  net/9p/9pnet.ko\n'
} >>"$plog"
expect_progress "progress: a module linked again after a resume counts once" \
	"linking modules${tab}2 of 3 modules (66%)" "$plog" -v modules_total=3
m=debian/linux-image/lib/modules/6.1.0
printf '  LD [M]  fs/fat/fat.ko\n  INSTALL %s/kernel/fs/ext4/ext4.ko\n  SIGN    %s/kernel/fs/ext4/ext4.ko\n' \
	"$m" "$m" >>"$plog"
expect_progress "progress: modules installed (and signed as they are)" \
	"installing modules${tab}1 of 3 modules (33%)" "$plog" -v modules_total=3
printf '  DEPMOD  %s\n' "$m" >>"$plog"
expect_progress "progress: after depmod, the packages' silent steps" \
	"preparing packages${tab}(debug symbols, headers)" "$plog"
printf '  SIGN    %s/kernel/fs/ext4/ext4.ko\n' "$m" >>"$plog"
expect_progress "progress: the stripped modules signed again" \
	"signing modules${tab}1 of 3 modules (33%)" "$plog" -v modules_total=3
printf "dpkg-deb: building package 'linux-headers-6.1.0' in '../x.deb'.\\n" >>"$plog"
printf '  HDRINST usr/include/linux/types.h\n  CC      scripts/mod/empty.o\n' >>"$plog"
expect_progress "progress: the package being built" \
	"packaging linux-headers-6.1.0" "$plog"
printf '\n$ # resumed at 2026-12-07T02:00:00Z\n  INSTALL %s/kernel/fs/fat/fat.ko\n' "$m" >>"$plog"
expect_progress "progress: a resumed build installs and packages again" \
	"installing modules${tab}1 of 3 modules (33%)" "$plog" -v modules_total=3
expect_progress "progress: objects counted over every run (the metadata's objects=)" \
	"4" "$plog" -v count=objects

# --- out/modules (kernel/flat-modules.sh) ---------------------------------
# An object directory in kbuild's layout: modules.order names one module
# the 6.1 way (x.ko) and one the 6.12 way (x.o), both built with -g; under
# debian/ a -dbg copy of one (only its debug information: what bindeb-pkg
# leaves there) that must not be taken.
flat=$top/kernel/flat-modules.sh
fo=$work/flat-obj
mkdir -p "$fo/fs/alpha" "$fo/drivers/beta" "$fo/debian/linux-image-dbg/lib/modules/x/fs/alpha"
printf 'int alpha_init(void) { return 42; }\n' >"$work/alpha.c"
printf 'int beta_init(void) { return 7; }\n' >"$work/beta.c"
gcc -g -c -o "$fo/fs/alpha/alpha.ko" "$work/alpha.c"
gcc -g -c -o "$fo/drivers/beta/beta.ko" "$work/beta.c"
objcopy --only-keep-debug "$fo/fs/alpha/alpha.ko" "$fo/debian/linux-image-dbg/lib/modules/x/fs/alpha/alpha.ko"
printf 'fs/alpha/alpha.ko\ndrivers/beta/beta.o\n' >"$fo/modules.order"
# has_code KO SYMBOL: KO has SYMBOL, a .text with contents and no debug
# information
has_code()
{
	nm "$1" | grep -q " T $2\$" &&
		readelf -S -W "$1" | grep -Eq ' \.text +PROGBITS ' &&
		! readelf -S -W "$1" | grep -q ' \.debug_'
}
rc=0
got=$("$flat" "$fo" "$work/flat" 2>"$work/err") || rc=$?
if [ "$rc" = 0 ] && [ "$got" = 2 ] && [ "$(cd "$work/flat" && echo *)" = "alpha.ko beta.ko" ] &&
	has_code "$work/flat/alpha.ko" alpha_init && has_code "$work/flat/beta.ko" beta_init; then
	ok "flat-modules: the modules of modules.order, with their code and symbols, without debug information"
else
	not_ok "flat-modules: the modules of modules.order, with their code and symbols, without debug information (rc=$rc, printed '$got')"
fi
mkdir -p "$work/flat" && : >"$work/flat/old.ko"
prog_fails "$flat" "flat-modules: refuses a directory that is not empty" \
	'flat is not empty' "$fo" "$work/flat"
rm -rf "$work/flat"
printf 'fs/alpha/alpha.ko\ndrivers/beta/beta.o\nnet/gamma/gamma.o\n' >"$fo/modules.order"
prog_fails "$flat" "flat-modules: a module listed but not built is named" \
	"net/gamma/gamma.ko: listed in .*modules.order but not built" "$fo" "$work/flat"
rm -rf "$work/flat"
mkdir -p "$fo/net/alpha" && cp "$fo/fs/alpha/alpha.ko" "$fo/net/alpha/"
printf 'fs/alpha/alpha.ko\nnet/alpha/alpha.ko\n' >"$fo/modules.order"
prog_fails "$flat" "flat-modules: two modules of the same name are named" \
	"two modules named alpha.ko: fs/alpha/alpha.ko and net/alpha/alpha.ko" "$fo" "$work/flat"

# --- switching a kept directory's series (kernel/kept.sh) ---------------
# A kept directory of a small tree with patches A B C; switched to A B2 (B
# edited): C and B come off, B2 goes on; then to none; a patch that does
# not go on fails the switch.
kd=$work/kd
mkdir -p "$kd/src" "$kd/p"
printf 'one\n' >"$kd/src/a" && printf 'two\n' >"$kd/src/b"
cp -r "$kd/src" "$kd/pristine"
mkpatch() # NAME FILE OLD NEW: a -p1 patch of FILE (OLD empty: a new file)
{
	if [ -z "$3" ]; then
		printf -- '--- /dev/null\n+++ b/%s\n@@ -0,0 +1 @@\n+%s\n' "$2" "$4"
	else
		printf -- '--- a/%s\n+++ b/%s\n@@ -1 +1 @@\n-%s\n+%s\n' "$2" "$2" "$3" "$4"
	fi >"$kd/p/$1"
}
mkpatch A a one ONE
mkpatch B b two TWO
mkpatch C c '' three
mkpatch B2 b two Two
mkpatch X b nothing-like-this X
rc=0
(
	# shellcheck source=../scripts/lib.sh
	. "$top/scripts/lib.sh"
	# shellcheck source=kept.sh
	. "$top/kernel/kept.sh"
	for p in A B C; do
		patch -d "$kd/src" -p1 -s -i "$kd/p/$p"
	done
	kept_copy_patches "$kd" "$kd/p" A B C
	printf 'recipe=1\nseries=%s\ngcc=x\n' "$(kept_series_hash <"$kd/applied/series")" >"$kd/kept.away"
	[ "$(kept_switch_cost "$kd" "$(kept_patch_lines "$kd/p" A B2)")" = 3 ] || exit 11
	kept_switch "$kd" "$kd/p" A B2 2>/dev/null || exit 12
	[ "$(cat "$kd/src/a" "$kd/src/b")" = "$(printf 'ONE\nTwo')" ] && [ ! -e "$kd/src/c" ] || exit 13
	[ "$(cut -d' ' -f1 "$kd/applied/series" | tr '\n' ' ')" = "A B2 " ] || exit 14
	grep -qx "series=$(kept_patch_lines "$kd/p" A B2 | kept_series_hash)" "$kd/kept.away" || exit 15
	grep -qx 'gcc=x' "$kd/kept.away" || exit 16
	[ "$(kept_switch_cost "$kd" "$(kept_patch_lines "$kd/p" A B2)")" = 0 ] || exit 17
	kept_switch "$kd" "$kd/p" 2>/dev/null || exit 18
	diff -r "$kd/pristine" "$kd/src" >/dev/null || exit 19
	! kept_switch "$kd" "$kd/p" X 2>/dev/null || exit 20
) || rc=$?
if [ "$rc" = 0 ]; then
	ok "kept.sh switches a kept directory's series: what both begin with stays, the rest off and on, list and mark updated; a patch that does not apply fails"
else
	not_ok "kept.sh switches a kept directory's series (step $rc failed)"
fi

# The patches a merged config depends on (kept_kconfig_lines): those that
# touch a file Kconfig reads; a patch of C code alone changes no config.
kp=$work/kp
mkdir -p "$kp"
for p in c:kernel/fork.c kconfig:lib/Kconfig.debug makefile:init/Makefile \
	scripts:scripts/cc-version.sh header:include/linux/kconfig.h; do
	printf -- '--- a/%s\n+++ b/%s\n@@ -1 +1 @@\n-x\n+y\n' "${p#*:}" "${p#*:}" >"$kp/${p%%:*}"
done
printf -- '--- /dev/null\n+++ b/%s\n@@ -0,0 +1 @@\n+y\n' kernel/configs/x.config >"$kp/new-config"
printf -- 'diff --git a/%s b/%s\n--- a/%s\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n' \
	drivers/Kbuild drivers/Kbuild drivers/Kbuild >"$kp/gone-kbuild"
got=$(
	# shellcheck source=../scripts/lib.sh
	. "$top/scripts/lib.sh"
	# shellcheck source=kept.sh
	. "$top/kernel/kept.sh"
	kept_patch_lines "$kp" c kconfig makefile scripts header new-config gone-kbuild |
		kept_kconfig_lines "$kp" | cut -d' ' -f1 | tr '\n' ' '
)
if [ "$got" = "kconfig makefile scripts new-config gone-kbuild " ]; then
	ok "the patches a merged config depends on: those touching Kconfig*, Makefile*, Kbuild*, *.config or scripts/"
else
	not_ok "the patches a merged config depends on (got '$got')"
fi

# --- a patch that does not apply ----------------------------------------
cat >"$work/s/patches/0001-good.patch" <<'EOF'
From: boottrace tests <test@example.invalid>
Subject: [PATCH] test: add a file, change one

---
 README             | 2 +-
 boottrace-test.txt | 1 +
 2 files changed, 2 insertions(+), 1 deletion(-)

diff --git a/README b/README
--- a/README
+++ b/README
@@ -1,3 +1,3 @@
-Linux kernel
+Linux kernel, changed by kernel/test.sh
 ============
 
diff --git a/boottrace-test.txt b/boottrace-test.txt
new file mode 100644
--- /dev/null
+++ b/boottrace-test.txt
@@ -0,0 +1 @@
+added by kernel/test.sh
EOF
cat >"$work/s/patches/0002-bad.patch" <<'EOF'
From: boottrace tests <test@example.invalid>
Subject: [PATCH] test: change a line that does not exist

---
diff --git a/Makefile b/Makefile
--- a/Makefile
+++ b/Makefile
@@ -1,3 +1,3 @@
 this line is not in the kernel Makefile
-nor is this one
+so the patch cannot apply
 end
EOF
printf '0001-good.patch\n0002-bad.patch\n' >"$work/s/series"
expect_fail "a patch that does not apply is named" \
	"patch 0002-bad.patch .*does not apply" --tree "$tree" --series "$work/s/series"
if grep -q 'full log: .*failed.log' "$work/err"; then
	ok "failure points at the full log"
else
	not_ok "failure points at the full log"
fi
# shellcheck source=../scripts/lib.sh
tree_dir=$(. "$top/scripts/lib.sh" && bt_tree_dir "$tree")
# the build patches a hard-linked copy: a file changed in place through a
# link would change the pristine tree's README
if [ ! -e "$tree_dir/boottrace-test.txt" ] && [ "$(head -n1 "$tree_dir/README")" = "Linux kernel" ]; then
	ok "pristine tree untouched by the series"
else
	not_ok "pristine tree untouched by the series"
fi
drop_failed_entry

# --- fragment symbols that do not stick ---------------------------------
printf 'CONFIG_BOOTTRACE_NO_SUCH_SYMBOL=y\n# CONFIG_MODULES is not set\n' \
	>"$work/drop.config"
expect_fail "unsatisfiable fragment symbols are listed" \
	"CONFIG_BOOTTRACE_NO_SUCH_SYMBOL: wanted y, got \(absent" \
	--tree "$tree" --config "$work/drop.config"
if grep -q 'CONFIG_KPROBES: wanted y, got ' "$work/err"; then
	ok "a symbol lost through a dependency is listed (KPROBES needs MODULES)"
else
	not_ok "a symbol lost through a dependency is listed (KPROBES needs MODULES)"
fi
drop_failed_entry

# --- a built kernel ---------------------------------------------------------
if [ "$built" = built ]; then
	if img=$("$build" --tree "$tree" 2>"$work/err"); then
		ok "kernel builds (or is cached): $img"
	else
		not_ok "kernel builds"
		img=
	fi
	t=$SECONDS
	if [ -n "$img" ] && img2=$("$build" --tree "$tree" 2>"$work/err") &&
		[ "$img2" = "$img" ] && [ "$(printf '%s\n' "$img2" | wc -l)" = 1 ] &&
		[ $((SECONDS - t)) -le 20 ]; then
		ok "cached rerun prints only the same path, in $((SECONDS - t))s"
	else
		not_ok "cached rerun prints only the same path quickly"
	fi
	dir=$(dirname "${img:-/nonexistent/x}")
	absent=
	for f in bzImage System.map .config kernelrelease metadata build.log; do
		[ -s "$dir/$f" ] || absent="$absent $f"
	done
	if [ -z "$absent" ]; then
		ok "artifacts next to bzImage"
	else
		not_ok "artifacts next to bzImage (missing:$absent)"
	fi
	if [ -n "$img" ] && file -b "$img" 2>/dev/null | grep -q 'Linux kernel x86 boot executable' &&
		grep -q "version $(cat "$dir/kernelrelease") " <(file -b "$img"); then
		ok "bzImage is an x86 kernel whose version matches kernelrelease"
	elif [ -n "$img" ] && ! command -v file >/dev/null; then
		ok "bzImage check skipped: no file(1) # SKIP"
	else
		not_ok "bzImage is an x86 kernel whose version matches kernelrelease"
	fi
	want_missing=
	while IFS= read -r line; do
		grep -qxF -- "$line" "$dir/.config" || want_missing="$want_missing ${line%%=*}"
	done < <(grep -E '^CONFIG_[A-Z0-9_]+=' "$top/kernel/configs/boottrace.config")
	if [ -z "$want_missing" ]; then
		ok "built .config has every fragment value"
	else
		not_ok "built .config has every fragment value (missing:$want_missing)"
	fi
	if grep -q ' T start_kernel$' "$dir/System.map" &&
		grep -q ' [tT] trace_boot_init$' "$dir/System.map"; then
		ok "System.map has start_kernel and boot-time tracing"
	else
		not_ok "System.map has start_kernel and boot-time tracing"
	fi

	# A build stopped while compiling keeps its directory, and the same
	# command resumes it there; --force starts over.  A fragment of only a
	# comment gives a cache entry of its own whose objects are all in
	# ccache.  Each run is stopped early: what is tested is the resume, not
	# kbuild (a resumed build that completes: kernel/README.md).
	printf '# kernel/test.sh resume test %s\n' "$$-$RANDOM" >"$work/resume.config"
	resume_args=(--tree "$tree" --config "$work/resume.config")
	# an object compiled: kbuild's "  CC  path" line (what build.sh counts)
	objre='^  (CC|AS)( \[M\])? '
	# stopped_build N [ARGS]: runs build.sh with the resume test's
	# arguments (and ARGS) in a session of its own until its log has N more
	# compiled objects than when it started (N = 0: until its directory is
	# marked resumable, as make starts), then sends SIGTERM to the script
	# alone (as kill(1) does) and waits.  Sets rc, rlog (the log), rdir
	# (its build directory) and rleft (processes left in the session).
	stopped_build()
	{
		local want=$1 base='' have pid
		shift

		# from scratch: a build near a kept directory would be derived there
		BOOTTRACE_KERNEL_DERIVE=0 setsid "$build" "${resume_args[@]}" "$@" \
			>"$work/out" 2>"$work/err" &
		# shellcheck disable=SC2031 # $! of the line above, not of a subshell
		pid=$!
		rlog=
		for _ in $(seq 900); do
			rlog=$(sed -n 's/^boottrace: kernel: \[ *[0-9]*s\] log: //p' "$work/err")
			if [ "$want" = 0 ] && [ -n "$rlog" ]; then
				[ ! -f "$(dirname "$rlog")/resumable" ] || break
			elif [ -n "$rlog" ] && [ -f "$rlog" ]; then
				have=$(grep -cE "$objre" "$rlog" || true)
				[ -n "$base" ] || base=$have
				[ $((have - base)) -lt "$want" ] || break
			fi
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.2
		done
		rc=0
		kill -TERM "$pid" 2>/dev/null || true
		wait "$pid" || rc=$?
		rdir=$(dirname "${rlog:-/nonexistent/x}")
		rleft=$({ pgrep -s "$pid" || true; } | wc -l)
	}
	# The progress line's total is what the newest build of the same tree
	# and flavour compiled: a newer Debian-config entry (~13,700 objects)
	# must not be taken for it.
	fake=$(dirname "$(dirname "$dir")")/$tree-debian-progress-test-$$
	mkdir -p "$fake/out"
	printf 'flavour=debian\nobjects=99999\n' >"$fake/out/metadata"
	stopped_build 50
	rm -rf "$fake"
	fake=
	dir1=$rdir
	if grep -Eq '^boottrace: kernel: compiling [0-9]+ of ~[0-9]+ objects' "$work/err" &&
		! grep -q ' of ~99999 ' "$work/err"; then
		ok "the progress line counts against a build of the same flavour"
	else
		not_ok "the progress line counts against a build of the same flavour"
	fi
	# The objects the stop cut short: make removed their targets, so they
	# are compiled again.  Not always the last lines of the log: a long
	# compile in one job slot can have started before several short ones
	# of the other (arch/x86/events/intel/ds.o under load).  kbuild names
	# its objects relative to the object directory, tools/ (objtool) by
	# absolute paths.
	{ grep -E "$objre" "$rlog" || true; } | while IFS= read -r line; do
		f=${line##* }
		[ "${f#/}" != "$f" ] || f=$rdir/obj/$f
		[ -e "$f" ] || printf '%s\n' "$line"
	done | sort >"$work/cut"
	if [ "$rc" = 143 ] && [ "$rleft" = 0 ] && [ -f "$rdir/resumable" ] &&
		grep -q "kept $rdir: the same command resumes" "$work/err"; then
		ok "a build stopped by SIGTERM while compiling keeps its directory, and its make stops"
	else
		not_ok "a build stopped by SIGTERM while compiling keeps its directory, and its make stops (rc=$rc, $rleft processes left)"
	fi
	stopped_build 30
	# Every object once, but for those the stop cut short (at most one per
	# make job).
	sed -n '/^\$ # resumed at/q;p' "$rlog" | { grep -E "$objre" || true; } >"$work/run1"
	grep -E "$objre" "$rlog" | sort | uniq -d >"$work/twice"
	twice=$(comm -23 "$work/twice" "$work/cut" | head -n 3 | tr '\n' ' ')
	ncut=$(wc -l <"$work/cut")
	before=$(wc -l <"$work/run1")
	after=$(($(grep -cE "$objre" "$rlog" || true) - before))
	if [ "$rdir" = "$dir1" ] && grep -q "resuming the build .* stopped in $dir1 ($before objects" "$work/err" &&
		[ "$before" -ge 50 ] && [ "$after" -ge 30 ] && [ -z "$twice" ] &&
		[ "$ncut" -le "${BOOTTRACE_JOBS:-$(nproc)}" ] &&
		grep -q '^resumed=' "$rdir/resumable" && [ "$rleft" = 0 ]; then
		ok "the same command resumes it there and compiles only what is missing ($before objects, then $after)"
	else
		not_ok "the same command resumes it there and compiles only what is missing ($before objects, then $after; cut short: $ncut; twice: ${twice:-none})"
	fi
	stopped_build 0 --force
	if [ "$rdir" != "$dir1" ] && [ ! -e "$dir1" ] && [ -f "$rdir/resumable" ] &&
		grep -q "kept $rdir: the same command resumes" "$work/err" &&
		! grep -q 'resuming' "$work/err"; then
		ok "--force starts over in a new directory and removes the stopped one"
	else
		not_ok "--force starts over in a new directory and removes the stopped one"
	fi
	drop_entry "$(dirname "$rdir")"

	# A build whose merged config is near that of a kept build directory
	# is made there (build.sh, "kept build directories"): a fragment of
	# only a comment has the test kernel's config.  A cache with no kept
	# directory of the tree that lists its patches gets one first, once:
	# a build of that config lists the patches of a kept directory of its
	# series (one kept before there were lists) as it derives there, or
	# is made from scratch when there is none (~4-8 minutes with every
	# object in ccache).
	kernels=$(dirname "$(dirname "$dir")")
	listed=
	for m in "$kernels/$tree"-*/build.*/kept; do
		[ ! -f "${m%/kept}/applied/series" ] || listed=$m
	done
	if [ -z "$listed" ]; then
		printf '# kernel/test.sh kept directory %s\n' "$$-$RANDOM" >"$work/keep.config"
		if kimg=$("$build" -q --tree "$tree" --config "$work/keep.config" 2>"$work/err"); then
			# derived: its entry holds only the image, of no use
			! grep -q '^derived_from=' "$(dirname "$kimg")/metadata" ||
				rm -rf "$(dirname "$(dirname "$kimg")")"
		else
			sed 's/^/# /' "$work/err"
		fi
	fi
	# A series that differs as a kernel developer's does after editing a
	# patch: the test kernel's with the second to last patch's message
	# edited (a patch that touches no file Kconfig reads, so the merged
	# config is the one kept: that of the resume test's build above).  The
	# kept directory's source is switched to it (the last two patches off
	# and on), then back by the derived build below, whose System.map
	# must be the test kernel's.
	series=$top/kernel/series
	[ ! -f "$top/kernel/series-$tree" ] || series=$top/kernel/series-$tree
	mkdir -p "$work/switch/patches"
	sed 's/#.*//; s/[[:space:]]//g; /^$/d' "$series" >"$work/switch/series"
	edited=$(tail -n 2 "$work/switch/series" | head -n 1)
	while IFS= read -r p; do
		ln -sfn "$top/kernel/patches/$p" "$work/switch/patches/$p"
	done <"$work/switch/series"
	rm "$work/switch/patches/$edited"
	sed '0,/^$/s//\nA line of the message added by kernel\/test.sh.\n/' \
		"$top/kernel/patches/$edited" >"$work/switch/patches/$edited"
	printf '# kernel/test.sh switched series %s\n' "$$-$RANDOM" >"$work/switch.config"
	from='' nobj='' sdir=''
	if simg=$("$build" --tree "$tree" --series "$work/switch/series" \
		--config "$work/switch.config" 2>"$work/err"); then
		sdir=$(dirname "$simg")
		from=$(sed -n 's/^derived_from=//p' "$sdir/metadata")
		nobj=$(sed -n 's/^objects=//p' "$sdir/metadata")
	fi
	# what the kept directory's list must say: the edited patch's hash
	want=$(while IFS= read -r p; do
		printf '%s %s\n' "$p" "$(sha256sum <"$work/switch/patches/$p" | cut -d' ' -f1)"
	done <"$work/switch/series")
	if [ -n "$from" ] && [ -f "$from/kept" ] &&
		grep -q 'config merged and verified before' "$work/err" &&
		! grep -q 'source ready' "$work/err" &&
		grep -q "switching the source of the kept build directory $from to this series (4 patches off and on)" "$work/err" &&
		[ "$(cat "$from/applied/series")" = "$want" ] &&
		grep -qx "series=$(sha256sum <"$from/applied/series" | cut -c1-16)" "$from/kept" &&
		[ "${nobj:-0}" -gt 0 ] && [ "${nobj:-9999}" -lt 100 ]; then
		ok "a build after a patch edit takes the kept merged config and is derived in a kept directory, its source switched: two patches off and on, $nobj objects compiled"
	else
		not_ok "a build after a patch edit takes the kept merged config and is derived in a kept directory, its source switched (from '${from}', $nobj objects)"
		sed 's/^/# /' "$work/err" | tail -n 5
	fi
	[ -z "$sdir" ] || rm -rf "$(dirname "$sdir")"

	# (its .config has a new file's mode, as one kbuild writes)
	: >"$work/new-file"
	printf '# kernel/test.sh derived build %s\n' "$$-$RANDOM" >"$work/derive.config"
	from='' nobj=''
	if dimg=$("$build" --tree "$tree" --config "$work/derive.config" 2>"$work/err"); then
		ddir=$(dirname "$dimg")
		from=$(sed -n 's/^derived_from=//p' "$ddir/metadata")
		nobj=$(sed -n 's/^objects=//p' "$ddir/metadata")
	fi
	if [ -n "$from" ] && [ -f "$from/kept" ] &&
		grep -q "deriving from the kept build directory $from " "$work/err" &&
		grep -q 'config merged and verified before' "$work/err" &&
		[ "$(stat -c %a "$ddir/.config")" = "$(stat -c %a "$work/new-file")" ] &&
		[ "${nobj:-9999}" -lt 100 ] && cmp -s "$ddir/System.map" "$dir/System.map"; then
		ok "a build near a kept directory is derived there (its series switched back if it was), with the kept merged config: $nobj objects compiled, the same System.map"
	else
		not_ok "a build near a kept directory is derived there (from '${from}', $nobj objects)"
		sed 's/^/# /' "$work/err" | tail -n 5
	fi
	# the derived entry's directory held only its config: none is left
	if [ -n "${ddir:-}" ] && ! compgen -G "$(dirname "$ddir")/build*" >/dev/null; then
		ok "the derived build leaves no directory of its own"
	else
		not_ok "the derived build leaves no directory of its own"
	fi
	[ -z "${ddir:-}" ] || rm -rf "$(dirname "$ddir")"
fi

echo "1..$n"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
