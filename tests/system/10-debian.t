#!/bin/bash
# tests/system/10-debian.t - boottrace on a Debian system built from the
# archive, without QEMU: mmdebstrap a minimal bookworm (systemd, udev,
# dracut, trace-cmd, kmod, and libtracecmd1, which boottrace needs and
# trace-cmd 3.1.6 does not pull in; cached by a key of its package list), install
# the boottrace packages (tests/package) and the qemu flavour's kernel
# packages (`boottrace kernel --deb`) inside it with dpkg, so that the
# kernel's postinst runs Debian's dracut hook and ours for real, with
# /etc/bootconfig.d/10-trace.bconf configured.  Then: the initrd carries
# the config; the installed boottrace runs with no checkout; the collect
# unit is installed disabled; an invalid config makes `dracut --force` fail
# with file:line:col and leaves the image byte-identical.  TAP; root.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../lib/tap.sh
. "$top/tests/lib/tap.sh"
# shellcheck source=../../scripts/lib.sh
. "$top/scripts/lib.sh"
[ "$(id -u)" = 0 ] || t_skip_all "needs root (chroot, dpkg)"
bt_need_pkgs mmdebstrap

cache="$(bt_cache_dir)/system"
mkdir -p "$cache"
work=$(mktemp -d "$cache/work.XXXXXX")
root=$work/root
trap 'rm -rf "$work" "$T_TMP"' EXIT
# in_root CMD...: run CMD chrooted into the system, with /proc, /sys and
# /dev mounted in a private mount namespace (nothing leaks to the host).
in_root()
{
	# shellcheck disable=SC2016 # expanded by the inner sh
	unshare -m --propagation private sh -c '
		r=$1; shift
		mount -t proc proc "$r/proc" && mount -t sysfs sysfs "$r/sys" &&
		mount --rbind /dev "$r/dev" && exec chroot "$r" "$@"' sh "$root" \
		env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 "$@"
}

# --- the Debian system, cached by its package list -------------------------
suite=bookworm
pkgs=(systemd-sysv udev dracut trace-cmd kmod libtracecmd1)
key=$(printf '%s\n' "suite=$suite" "variant=apt" "${pkgs[@]}" \
	"$(mmdebstrap --version)" "$(cat /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null)" |
	sha256sum | cut -c1-16)
image=$cache/$suite-$key.tar
if [ ! -f "$image" ]; then
	echo "# mmdebstrap $suite (${pkgs[*]}) -> $image"
	nice -n 10 mmdebstrap --quiet --variant=apt --include="$(IFS=,; echo "${pkgs[*]}")" \
		"$suite" "$work/image.tar" >"$work/mmdebstrap.log" 2>&1 ||
		{ tail -n 20 "$work/mmdebstrap.log"; bt_die "mmdebstrap failed"; }
	mv "$work/image.tar" "$image"
fi
mkdir "$root"
tar -C "$root" -xf "$image"
t_ok "the system unpacks and has systemd and dracut" \
	test -x "$root/lib/systemd/systemd" -a -x "$root/usr/bin/dracut"

# --- the packages ------------------------------------------------------------
# boottrace's, built from this tree by tests/package (cached by the tree's
# content), and the kernel's.
tree_key=$(cd "$top" && git ls-files -z --cached --others --exclude-standard |
	xargs -0 sha256sum 2>/dev/null | sha256sum | cut -c1-16)
debs=$cache/debs-$tree_key
if ! ls "$debs"/boottrace_*.deb >/dev/null 2>&1; then
	BOOTTRACE_PACKAGE_OUT=$work/package "$top/tests/package/run.sh" >"$work/package.log" 2>&1 ||
		{ tail -n 20 "$work/package.log"; bt_die "tests/package failed"; }
	mkdir -p "$debs.tmp"
	cp "$work"/package/*.deb "$debs.tmp/"
	rm -rf "$debs"
	mv "$debs.tmp" "$debs"
fi
mapfile -t kdebs < <("$top/kernel/build.sh" --deb 2>"$work/kernel.log")
[ "${#kdebs[@]}" -gt 0 ] || { tail -n 20 "$work/kernel.log"; bt_die "kernel --deb failed"; }
kimage=$(printf '%s\n' "${kdebs[@]}" | grep '/linux-image-[^/]*\.deb$' | grep -v -- '-dbg_' | head -n1)
krel=$(dpkg-deb -f "$kimage" Package | sed 's/^linux-image-//')
echo "# kernel $krel: $(basename "$kimage")"

mkdir -p "$root/tmp/debs"
cp "$debs"/*.deb "$kimage" "$root/tmp/debs/"
in_root dpkg -i /tmp/debs/libbootconfig0_*.deb /tmp/debs/bootconfig_*.deb \
	/tmp/debs/boottrace_*.deb >"$work/err" 2>&1 && rc=0 || rc=$?
t_ok "the boottrace packages install with dpkg" test "$rc" -eq 0
in_root boottrace --help >"$work/out" 2>"$work/err" && rc=0 || rc=$?
t_ok "boottrace --help runs in the system (no checkout there)" \
	sh -c "[ $rc -eq 0 ] && grep -q '^usage: boottrace COMMAND' '$work/out'"
state=$(in_root systemctl is-enabled boottrace-collect.service 2>/dev/null || true)
t_ok "boottrace-collect.service is installed disabled" test "$state" = disabled

# The user's configuration, then the kernel: its postinst runs
# /etc/kernel/postinst.d/dracut and ours.
conf=$root/etc/bootconfig.d/10-trace.bconf
mkdir -p "$(dirname "$conf")"
cp "$top/examples/default.bconf" "$conf"
cp "$root/usr/share/boottrace/dracut.conf.d/90-bootconfig.conf" "$root/etc/dracut.conf.d/"
in_root dpkg -i "/tmp/debs/$(basename "$kimage")" >"$work/err" 2>&1 && rc=0 || rc=$?
t_ok "the kernel package installs (its postinst runs dracut and the hooks)" test "$rc" -eq 0
initrd=$root/boot/initrd.img-$krel
t_ok "dracut wrote $initrd" test -s "$initrd"
bconf=$top/bootconfig/build/bootconfig
[ -x "$bconf" ] || make -s -C "$top/bootconfig" >&2
"$bconf" -l "$conf" >"$work/want"
"$bconf" -l "$initrd" >"$work/got" 2>"$work/err" || true
t_ok "the initrd carries /etc/bootconfig.d/10-trace.bconf" cmp -s "$work/want" "$work/got"

# An invalid config: dracut fails naming file:line:col, the image stays.
sum=$(sha256sum <"$initrd")
printf 'boottrace.test = 1\nboottrace.test = 2\n' >>"$conf"
line=$(wc -l <"$conf")
in_root dracut --force "/boot/initrd.img-$krel" "$krel" >"$work/out" 2>"$work/err" && rc=0 || rc=$?
t_ok "dracut --force with an invalid config fails" test "$rc" -ne 0
t_ok "... naming /etc/bootconfig.d/10-trace.bconf:$line:COL" \
	grep -Eq "/etc/bootconfig.d/10-trace.bconf:$line:[0-9]+: error: Value is redefined" "$work/err"
t_ok "... and leaves the image byte-identical" test "$(sha256sum <"$initrd")" = "$sum"

t_plan "$T_N"
echo "$((T_N - T_FAILED)) passed, $T_FAILED failed"
t_done
