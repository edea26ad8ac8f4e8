# shellcheck shell=bash
# scripts/lib.sh - helpers shared by every boottrace shell script.
#
# Source it; do not execute it.  Callers run with `set -euo pipefail`.
#
#   bt_log MSG...            progress line on stderr ("boottrace: MSG")
#   bt_die MSG...            error line on stderr, exit 1
#   bt_dirname VAR PATH      VAR = dirname of PATH, without a process
#   bt_cache_dir             print the cache root (created), see BOOTTRACE_CACHE
#   bt_need_pkgs PKG...      install missing Debian packages (root: apt-get)
#   bt_query_pkgs VAR PKG... the PKGs dpkg has not installed, in array VAR
#   bt_pkg_version PKG       installed version of PKG (empty: not installed)
#   bt_tree_series [S]       normalise a tree name: "" / 6.1 / 6.12 -> 6.1 / 6.12
#   bt_tree_pkgver S         version of the installed linux-source-S package
#   bt_tree_dir [S]          extract the packaged tree once, print its path
#   bt_hash FILE|DIR...      sha256 over files (directories: sorted contents)
#   bt_kbuild_env CACHE      export the environment of every kernel build
#   bt_kmake SRC OBJ ARG...  make in kernel tree SRC, objects in OBJ, ccache
#   bt_progress WHAT PID FN ARGS...
#                            while PID runs, show "WHAT: `FN ARGS` [Ns]" on
#                            stderr (a terminal: one line refreshed at most
#                            once a second; else a line per change or 30 s)
#   bt_make_stage STAGE TARGET...
#                            make in a checkout's stage, one make per stage
#                            at a time
#   bt_tool STAGE NAME       path of a compiled program (checkout or installed)
#   bt_tools_ready STAGE/NAME...
#                            make them once for this command and its children
#
# Cache layout (everything below is safe to delete):
#   $BOOTTRACE_CACHE/trees/<pkgver>/linux-source-<S>/   extracted trees
#   $BOOTTRACE_CACHE/...                                 other stages' entries
# BOOTTRACE_CACHE defaults to ${XDG_CACHE_HOME:-$HOME/.cache}/boottrace.

BT_TOP=${BT_TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
# the stages this script runs find the same tree without working it out
export BT_TOP

bt_log()
{
	printf 'boottrace: %s\n' "$*" >&2
}

bt_die()
{
	printf 'boottrace: error: %s\n' "$*" >&2
	exit 1
}

# bt_flock_wait FD SAY...: takes the lock of the file open on FD; when
# another process holds it, first runs SAY... (the caller's way of saying
# what it waits for), then waits.
bt_flock_wait()
{
	local fd=$1

	shift
	flock -n "$fd" && return 0
	"$@"
	flock "$fd"
}

# bt_usage MSG: a usage error (a missing, unknown or malformed option or
# argument): the message, exit 2
bt_usage()
{
	printf 'boottrace: error: %s\n' "$*" >&2
	exit 2
}

# bt_dirname VAR PATH: VAR = the directory part of PATH, as dirname(1)
# gives it for a path without a trailing slash; no process
bt_dirname()
{
	# (no local: it would hide a caller's variable of the same name)
	case "$2" in
	*/*) printf -v "$1" '%s' "${2%/*}"; [ -n "${!1}" ] || printf -v "$1" / ;;
	*) printf -v "$1" . ;;
	esac
}

bt_cache_dir()
{
	local dir=${BOOTTRACE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/boottrace}

	[ -d "$dir" ] || mkdir -p "$dir" ||
		bt_die "cannot create cache directory $dir (set BOOTTRACE_CACHE)"
	printf '%s\n' "$dir"
}

# Succeeds when every named package is installed.
bt_have_pkgs()
{
	local p st

	for p in "$@"; do
		st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null) || return 1
		[ "$st" = installed ] || return 1
	done
}

# bt_query_pkgs VAR PKG...: one dpkg query for the PKGs: the installed
# ones are added to BT_PKGS_SEEN, the others listed in the array VAR.
bt_query_pkgs()
{
	local -n not_installed=$1
	local p st v

	shift
	not_installed=()
	# (unset until a package is found: none of these may be installed)
	BT_PKGS_SEEN=${BT_PKGS_SEEN-}
	while read -r p st v; do
		[ "$st" != installed ] || BT_PKGS_SEEN+=" $p=$v"
	done < <(dpkg-query -W -f='${Package} ${db:Status-Status} ${Version}\n' \
		"$@" 2>/dev/null || true)
	export BT_PKGS_SEEN
	for p in "$@"; do
		[[ " $BT_PKGS_SEEN " == *" $p="* ]] || not_installed+=("$p")
	done
}

# BT_PKGS_SEEN: " PKG=VERSION" for each package bt_need_pkgs found installed,
# exported: the programs this command runs do not ask dpkg again (each
# dpkg-query costs ~40 ms; a boot's stages would ask three times).
bt_need_pkgs()
{
	local missing=() pkgs_wanted=() p stamp lock

	for p in "$@"; do
		[[ " ${BT_PKGS_SEEN-} " == *" $p="* ]] || pkgs_wanted+=("$p")
	done
	[ ${#pkgs_wanted[@]} -gt 0 ] || return 0
	# one query for all (the common case: everything is installed)
	bt_query_pkgs missing "${pkgs_wanted[@]}"
	[ ${#missing[@]} -eq 0 ] && return 0
	if [ "$(id -u)" -ne 0 ]; then
		bt_die "missing packages: ${missing[*]}; install them with: sudo apt-get install ${missing[*]}"
	fi
	# One installer at a time: test files run side by side, and a second
	# apt-get would fail on dpkg's lock while the first one installs the
	# same package.  Whoever waited asks dpkg again.
	exec {lock}>"$(bt_cache_dir)/.apt.lock"
	flock "$lock"
	bt_query_pkgs missing "${missing[@]}"
	if [ ${#missing[@]} -eq 0 ]; then
		exec {lock}>&-
		return 0
	fi
	# apt-get update once per machine boot of this cache (and always when
	# the lists are empty), then install.
	stamp="$(bt_cache_dir)/.apt-updated"
	if [ ! -e "$stamp" ] ||
		[ -z "$(find /var/lib/apt/lists -maxdepth 1 -name '*_Packages*' -print -quit 2>/dev/null)" ]; then
		bt_log "apt-get update"
		apt-get update -qq >&2 || bt_die "apt-get update failed"
		touch "$stamp"
	fi
	bt_log "installing: ${missing[*]}"
	# (-o DPkg::Lock::Timeout: wait for another apt or dpkg, e.g. a daily
	# upgrade, instead of failing)
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
		-o DPkg::Lock::Timeout=600 "${missing[@]}" >&2 ||
		bt_die "apt-get install ${missing[*]} failed"
	exec {lock}>&-
}

# bt_pkg_version PKG: the installed version of PKG (empty when it is not
# installed), from what bt_need_pkgs saw when it can.
bt_pkg_version()
{
	local v

	if [[ " ${BT_PKGS_SEEN-} " == *" $1="* ]]; then
		v=${BT_PKGS_SEEN##*" $1="}
		printf '%s\n' "${v%% *}"
		return 0
	fi
	dpkg-query -W -f='${Version}\n' "$1" 2>/dev/null || true
}

bt_tree_series()
{
	case "${1:-6.1}" in
	6.1 | linux-source-6.1) echo 6.1 ;;
	6.12 | linux-source-6.12) echo 6.12 ;;
	*) bt_usage "unknown tree '$1' (use 6.1 or 6.12)" ;;
	esac
}

bt_tree_pkgver()
{
	local s

	s=$(bt_tree_series "${1:-}")
	bt_need_pkgs "linux-source-$s"
	dpkg-query -W -f='${Version}' "linux-source-$s"
}

bt_tree_dir()
{
	local s ver cache dest tmp tarball

	s=$(bt_tree_series "${1:-}") || exit 1
	# (its error is on stderr already; without the exit, a caller without
	# set -e would go on with no version)
	ver=$(bt_tree_pkgver "$s") || exit 1
	cache=$(bt_cache_dir)
	dest="$cache/trees/$ver/linux-source-$s"
	if [ ! -f "$dest/.boottrace-complete" ]; then
		tarball="/usr/src/linux-source-$s.tar.xz"
		[ -f "$tarball" ] || bt_die "$tarball missing (reinstall linux-source-$s)"
		mkdir -p "$cache/trees/$ver"
		(
			flock 9
			if [ ! -f "$dest/.boottrace-complete" ]; then
				bt_log "extracting $tarball ($ver) into $cache/trees/$ver"
				tmp=$(mktemp -d "$cache/trees/$ver/.extract.XXXXXX")
				tar -C "$tmp" -xf "$tarball" >&2 ||
					{ rm -rf "$tmp"; bt_die "extracting $tarball failed"; }
				touch "$tmp/linux-source-$s/.boottrace-complete"
				rm -rf "$dest"
				mv "$tmp/linux-source-$s" "$dest"
				rmdir "$tmp"
			fi
		) 9>"$cache/trees/$ver/.lock"
	fi
	printf '%s\n' "$dest"
}

bt_hash()
{
	local f

	for f in "$@"; do
		if [ -d "$f" ]; then
			(cd "$f" && find . -type f -print0 | LC_ALL=C sort -z |
				xargs -0r sha256sum)
		else
			sha256sum <"$f"
		fi
	done | sha256sum | cut -c1-16
}

# bt_kbuild_env CACHE: the environment of every kernel build: ccache in
# CACHE/ccache, with paths below CACHE hashed relative to the build
# directory (so a build in a fresh directory hits the same entries; with
# -g, as in Debian's config, ccache would also hash that directory unless
# told not to, and a stopped build would start again from nothing), and a
# fixed build user and host.
bt_kbuild_env()
{
	export CCACHE_DIR="$1/ccache" CCACHE_BASEDIR="$1" CCACHE_NOHASHDIR=1
	export KBUILD_BUILD_USER=boottrace KBUILD_BUILD_HOST=boottrace
}

# bt_kmake SRC OBJ ARG...: make ARGs in the kernel tree SRC with objects in
# OBJ, through ccache, niced, with $BOOTTRACE_JOBS (default nproc) jobs.
bt_kmake()
{
	local src=$1 obj=$2

	shift 2
	nice -n 10 make -C "$src" O="$obj" CC="ccache gcc" HOSTCC="ccache gcc" \
		-j"${BOOTTRACE_JOBS:-$(nproc)}" "$@"
}

# bt_progress WHAT PID FN ARGS...: progress of a long step on stderr while
# PID runs.  FN prints the phase, optionally followed by a tab and a detail
# that changes often (a count).  On a terminal: one line, rewritten at most
# once a second; else a plain line when the phase changes and every 30 s.
# Nothing for a step shorter than a second; returns within 0.1 s of PID's
# end.
bt_progress()
{
	local what=$1 pid=$2 t0=$SECONDS out phase last='' lastt=$SECONDS tty=''
	shift 2

	[ -t 2 ] && tty=1
	while :; do
		# a step shorter than a second shows nothing
		for _ in 1 2 3 4 5 6 7 8 9 10; do
			kill -0 "$pid" 2>/dev/null || break 2
			sleep 0.1
		done
		out=$("$@" 2>/dev/null) || out=
		phase=${out%%$'\t'*}
		out=${out/$'\t'/ }
		if [ -n "$tty" ]; then
			printf '\rboottrace: %s: %s [%ds]\033[K' "$what" "$out" \
				"$((SECONDS - t0))" >&2
		elif [ "$phase" != "$last" ] || [ $((SECONDS - lastt)) -ge 30 ]; then
			printf 'boottrace: %s: %s [%ds]\n' "$what" "$out" "$((SECONDS - t0))" >&2
			last=$phase
			lastt=$SECONDS
		fi
	done
	[ -z "$tty" ] || printf '\r\033[K' >&2
}

# bt_tool STAGE NAME: the path of NAME, a program compiled in the stage
# directory STAGE (bootconfig, trace-analysis, ...).  In a checkout it is
# STAGE/build/NAME, made first when missing or stale (make's output on
# stderr).  Installed (`make install`, the Debian package: BT_TOP is
# PREFIX/share/boottrace and has no STAGE/Makefile) it is PREFIX/bin/NAME.
bt_tool()
{
	local stage=$1 name=$2 bindir var

	# made once already by this command (bt_tools_ready)
	var=${stage}_${name}
	var=BT_TOOL_${var//[^A-Za-z0-9_]/_}
	if [ -n "${!var:-}" ] && [ -x "${!var}" ]; then
		printf '%s\n' "${!var}"
		return 0
	fi
	if [ -f "$BT_TOP/$stage/Makefile" ]; then
		bt_make_stage "$stage" "build/$name"
		printf '%s\n' "$BT_TOP/$stage/build/$name"
		return 0
	fi
	bindir=$(cd "$BT_TOP/../../bin" 2>/dev/null && pwd) ||
		bt_die "$BT_TOP is neither a checkout nor PREFIX/share/boottrace"
	[ -x "$bindir/$name" ] || bt_die "$bindir/$name is missing (reinstall boottrace)"
	printf '%s\n' "$bindir/$name"
}

# bt_make_stage STAGE TARGET...: make TARGETs in the checkout's stage
# directory STAGE (make's output on stderr), one make at a time per stage:
# concurrent commands (prove -j) would otherwise write the same program at
# once, and one could run or hash it half-written.
bt_make_stage()
{
	local stage=$1

	shift
	flock "$BT_TOP/$stage/Makefile" make -s -C "$BT_TOP/$stage" "$@" >&2 ||
		bt_die "building $* in $stage failed"
}

# bt_tools_ready STAGE/NAME...: make these programs now (one make per
# stage) and export their paths, so that bt_tool in this command and the
# programs it runs finds them without running make again.
bt_tools_ready()
{
	local t stage var make_targets path
	local -A by_stage=()

	for t in "$@"; do
		by_stage[${t%%/*}]+=" build/${t#*/}"
	done
	for stage in "${!by_stage[@]}"; do
		[ -f "$BT_TOP/$stage/Makefile" ] || continue
		read -r -a make_targets <<<"${by_stage[$stage]}"
		bt_make_stage "$stage" "${make_targets[@]}"
	done
	for t in "$@"; do
		stage=${t%%/*}
		var=${t/\//_}
		var=BT_TOOL_${var//[^A-Za-z0-9_]/_}
		if [ -f "$BT_TOP/$stage/Makefile" ]; then
			path=$BT_TOP/$stage/build/${t#*/}
		else
			path=$(bt_tool "$stage" "${t#*/}") || exit 1
		fi
		export "$var=$path"
	done
}
