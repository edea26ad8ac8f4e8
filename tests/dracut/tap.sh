# shellcheck shell=bash
# tests/dracut/tap.sh - TAP helpers and fixtures for the dracut module tests.
#
#   t_plan N / t_ok DESC CMD... / t_is GOT WANT DESC / t_skip_all REASON
#   t_done                      exit status: 0 when nothing failed
#   t_farm DIR                  dracutbasedir: /usr/lib/dracut + our modules
#   t_dracut IMG CONFDIR ARGS...
#                               kernel-module-free dracut run (base module
#                               plus ARGS), log in $T_LOG; returns its status
#   t_sha FILE                  sha256 of FILE
#   t_kernel                    set T_KIMG, T_KREL: $BT_TEST_KERNEL (a bzImage
#                               with kernelrelease beside it) or the one
#                               `boottrace kernel` builds or reuses
# Every test runs in $T_TMP (removed at exit).  Nothing outside it is
# written except the cache of module-less fixture images.
# shellcheck disable=SC2034 # T_* are read by the test files

# shellcheck source=../lib/tap.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/tap.sh"
T_MOD=$BT_TOP/dracut-module/95bootconfig
T_LOG=$T_TMP/dracut.log
# shellcheck source=../../scripts/lib.sh
. "$BT_TOP/scripts/lib.sh"

t_sha()
{
	sha256sum <"$1" | cut -c1-64
}

# Our bootconfig, built if needed.
t_tool()
{
	[ -x "$BT_TOP/bootconfig/build/bootconfig" ] ||
		make -s -C "$BT_TOP/bootconfig" >&2 || return 1
	echo "$BT_TOP/bootconfig/build/bootconfig"
}

t_farm()
{
	local farm=$1 e

	mkdir -p "$farm/modules.d"
	for e in /usr/lib/dracut/*; do
		[ "${e##*/}" = modules.d ] || ln -s "$e" "$farm/${e##*/}"
	done
	for e in /usr/lib/dracut/modules.d/*; do
		ln -s "$e" "$farm/modules.d/${e##*/}"
	done
	ln -s "$T_MOD" "$farm/modules.d/95bootconfig"
	ln -s "$BT_TOP/dracut-module/90boottrace-collect" "$farm/modules.d/90boottrace-collect"
}

# t_dracut IMG CONFDIR [--modules M] [dracut args...]: default modules
# "base bootconfig", default kernel release `uname -r` (T_KVER overrides).
t_dracut()
{
	local img=$1 confdir=$2 mods="base bootconfig"
	shift 2
	if [ "${1:-}" = --modules ]; then
		mods=$2
		shift 2
	fi
	[ -d "$T_TMP/farm" ] || t_farm "$T_TMP/farm"
	dracutbasedir="$T_TMP/farm" nice dracut --force --no-kernel --no-hostonly \
		--no-hostonly-cmdline --conf /dev/null --confdir "$confdir" \
		--modules "$mods" --no-early-microcode --reproducible \
		--tmpdir "$T_TMP" "$@" "$img" "${T_KVER:-$(uname -r)}" >"$T_LOG" 2>&1
}

t_kernel()
{
	if [ -n "${BT_TEST_KERNEL:-}" ]; then
		T_KIMG=$BT_TEST_KERNEL
	else
		T_KIMG=$("$BT_TOP/bin/boottrace" kernel 2>"$T_TMP/kernel.err" | tail -n1)
	fi
	if ! [ -f "$T_KIMG" ] || ! [ -s "$(dirname "$T_KIMG")/kernelrelease" ]; then
		echo "Bail out! no kernel: $(tail -n1 "$T_TMP/kernel.err" 2>/dev/null)"
		exit 1
	fi
	T_KREL=$(cat "$(dirname "$T_KIMG")/kernelrelease")
}

bt_need_pkgs dracut-core cpio zstd gzip
