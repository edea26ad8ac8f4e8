# shellcheck shell=bash
# bootconfig-lib.sh - helpers shared by the bootconfig dracut module, its
# compress wrapper and the kernel hooks.  Source it; every function returns
# non-zero with a message on stderr instead of exiting, so that dracut's
# install() can turn a failure into dfatal + exit.
#
#   bcm_err MSG...                   "bootconfig: error: MSG" on stderr
#   bcm_tool [TOOL]                  print the bootconfig command to use
#   bcm_build_text TOOL OUT FILE...  validate FILEs, concatenate them into OUT
#   bcm_early_member                 print the early-cpio member path
#   bcm_early_tree DIR TEXT          put TEXT at the member path under DIR
#   bcm_read_conf                    print mode and files from dracut's config
#
# The early-cpio member: the concatenated config text (the same bytes a
# trailer carries before its NUL) as a regular file at
# kernel/bootconfig/bootconfig.bconf in the uncompressed early cpio, next to
# kernel/x86/microcode/*.bin and kernel/firmware/acpi/*.aml.

BCM_EARLY_MEMBER=kernel/bootconfig/bootconfig.bconf
# The kernel refuses a config (text + NUL + padding) of 32767 bytes or more.
BCM_MAX=32767

bcm_err()
{
	printf 'bootconfig: error: %s\n' "$*" >&2
}

bcm_early_member()
{
	printf '%s\n' "$BCM_EARLY_MEMBER"
}

# bcm_tool [TOOL]: our bootconfig command: TOOL if given, else
# $BOOTCONFIG_TOOL, else the one installed next to this module (set by
# `make install`), else `bootconfig` on PATH.  It must be boottrace's (its
# errors are FILE:LINE:COL), not another implementation.
bcm_tool()
{
	local t=${1:-${BOOTCONFIG_TOOL:-}} v

	if [ -z "$t" ]; then
		t=@BOOTCONFIG_TOOL@
		case "$t" in @*) t=bootconfig ;; esac
	fi
	if ! command -v "$t" >/dev/null 2>&1; then
		bcm_err "bootconfig command '$t' not found; install boottrace's bootconfig (make install) or set bootconfig_tool= in the dracut config"
		return 1
	fi
	v=$("$t" --version 2>/dev/null | head -n1) || v=
	case "$v" in
	*boottrace*) ;;
	*)
		bcm_err "'$t' is not boottrace's bootconfig (--version says '${v:-nothing}'); set bootconfig_tool= to boottrace's"
		return 1
		;;
	esac
	command -v "$t"
}

# bcm_remap CONCAT MAP: rewrite "CONCAT:LINE:COL:" in the tool's messages
# (stdin) to "FILE:LINE:COL:" of the file that line came from.  MAP has one
# "FIRSTLINE FILE" line per input file, in order.
bcm_remap()
{
	local concat=$1 map=$2

	awk -v concat="$concat" -v map="$map" '
	BEGIN {
		n = 0
		while ((getline l < map) > 0) {
			sp = index(l, " ")
			first[++n] = substr(l, 1, sp - 1) + 0
			name[n] = substr(l, sp + 1)
		}
		pre = concat ":"
	}
	index($0, pre) == 1 {
		rest = substr($0, length(pre) + 1)
		if (match(rest, /^[0-9]+:/)) {
			line = substr(rest, 1, RLENGTH - 1) + 0
			i = n
			while (i > 1 && first[i] > line)
				i--
			print name[i] ":" (line - first[i] + 1) ":" substr(rest, RLENGTH + 1)
			next
		}
	}
	{ print }'
}

# bcm_build_text TOOL OUT FILE...: check each FILE with `TOOL -l`, then
# their concatenation (a newline is added after a file that lacks one, so
# that a statement or comment never runs into the next file), and write the
# concatenation to OUT.  Errors name the original file, line and column.
bcm_build_text()
{
	local tool=$1 out=$2 f line=1 n err map size
	shift 2

	[ $# -gt 0 ] || { bcm_err "no bootconfig files given"; return 1; }
	map="$out.map"
	if ! : >"$out" || ! : >"$map"; then
		bcm_err "cannot write $out"
		return 1
	fi
	for f in "$@"; do
		if ! [ -f "$f" ] || ! [ -r "$f" ]; then
			bcm_err "$f: no such readable file (named in bootconfig_files); create it or remove it from the dracut config"
			return 1
		fi
		if ! err=$("$tool" -l "$f" 2>&1 >/dev/null); then
			printf '%s\n' "$err" >&2
			bcm_err "$f is not a valid bootconfig; fix it (or remove it from bootconfig_files) and rerun"
			return 1
		fi
		printf '%s %s\n' "$line" "$f" >>"$map"
		cat "$f" >>"$out"
		if [ -s "$f" ] && [ "$(tail -c1 "$f" | od -An -c | tr -d ' ')" != '\n' ]; then
			printf '\n' >>"$out"
		fi
		n=$(wc -l <"$out")
		line=$((n + 1))
	done
	if ! err=$("$tool" -l "$out" 2>&1 >/dev/null); then
		printf '%s\n' "$err" | bcm_remap "$out" "$map" >&2
		bcm_err "the bootconfig files ($*) are valid alone but not together, in this order; fix the file named above"
		return 1
	fi
	size=$(stat -c %s "$out")
	if [ -z "$("$tool" -l "$out" 2>/dev/null)" ]; then
		bcm_err "the bootconfig files ($*) set no key; nothing to deliver"
		return 1
	fi
	if [ $((size + 1)) -ge "$BCM_MAX" ]; then
		bcm_err "the bootconfig files ($*) are $size bytes together; the kernel takes at most $((BCM_MAX - 2)) (text + NUL + padding < $BCM_MAX): shorten them"
		return 1
	fi
	bcm_lint "$tool" "$out" "$map" || return 1
	rm -f "$map"
}

# bcm_lint TOOL CONCAT MAP: run boottrace-lint (beside TOOL, or
# $BOOTTRACE_LINT) on the config; its errors fail the build, its warnings
# are printed.  Kernel-independent checks only, unless
# $BOOTTRACE_LINT_KNOWLEDGE names a knowledge directory.  No lint: a note.
bcm_lint()
{
	local lint=${BOOTTRACE_LINT:-$(dirname "$1")/boottrace-lint} st=0 out kn=()

	if ! [ -x "$lint" ]; then
		printf 'bootconfig: note: %s not found: config not linted\n' "$lint" >&2
		return 0
	fi
	[ -z "${BOOTTRACE_LINT_KNOWLEDGE:-}" ] || kn=(--knowledge "$BOOTTRACE_LINT_KNOWLEDGE")
	out=$("$lint" -q "${kn[@]}" "$2" 2>&1) || st=$?
	[ -z "$out" ] || printf '%s\n' "$out" | bcm_remap "$2" "$3" >&2
	[ "$st" != 0 ] || return 0
	bcm_err "boottrace-lint found errors in the bootconfig files (above); fix them and rerun (the image was not written)"
	return 1
}

# bcm_early_tree DIR TEXT: install TEXT as the early-cpio member under DIR.
bcm_early_tree()
{
	local dir=$1 text=$2

	# `command`: inside dracut, install() is the module's own function.
	command mkdir -p "$dir/${BCM_EARLY_MEMBER%/*}" &&
		command cp "$text" "$dir/$BCM_EARLY_MEMBER" &&
		command chmod 0644 "$dir/$BCM_EARLY_MEMBER"
}

# bcm_read_conf: source dracut's configuration the way dracut does (the
# main file, then *.conf of /usr/lib/dracut/dracut.conf.d and the confdir,
# sorted by name, a confdir file replacing a same-named library one) in a
# subshell, and print "mode=..", "tool=.." and one "file=.." per bconf.
# Environment: DRACUT_CONF (default /etc/dracut.conf), DRACUT_CONFDIR
# (default /etc/dracut.conf.d), DRACUT_LIBCONFDIR (default
# /usr/lib/dracut/dracut.conf.d).
bcm_read_conf()
(
	conf=${DRACUT_CONF:-/etc/dracut.conf}
	confdir=${DRACUT_CONFDIR:-/etc/dracut.conf.d}
	libdir=${DRACUT_LIBCONFDIR:-/usr/lib/dracut/dracut.conf.d}
	bootconfig_files='' bootconfig_mode='' bootconfig_tool=''
	set +eu
	# shellcheck disable=SC1090
	[ -f "$conf" ] && . "$conf"
	for f in $(for d in "$libdir" "$confdir"; do
		for c in "$d"/*.conf; do [ -f "$c" ] && echo "${c##*/}"; done
	done | LC_ALL=C sort -u); do
		if [ -f "$confdir/$f" ]; then
			# shellcheck disable=SC1090
			. "$confdir/$f"
		else
			# shellcheck disable=SC1090
			. "$libdir/$f"
		fi
	done
	set -eu
	echo "mode=${bootconfig_mode:-trailer}"
	echo "tool=${bootconfig_tool:-}"
	for f in $bootconfig_files; do
		echo "file=$f"
	done
)
