#!/bin/bash
# tests/package/run.sh - the Debian packages: `dpkg-buildpackage -b` of a
# copy of the working tree (niced), lintian on the result (no error or
# warning), the library's SONAME and symbols file, then the packages
# unpacked into a staging root where every `boottrace` verb runs with the
# checkout hidden (tests/install/installed.sh) and `bootconfig` works.
# Keeps the build in $BOOTTRACE_PACKAGE_OUT when set (the .debs for
# tests/system); otherwise in a temporary directory.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../../scripts/lib.sh
. "$top/scripts/lib.sh"
bt_need_pkgs dpkg-dev debhelper lintian libtracecmd-dev libtraceevent-dev pkg-config

work=${BOOTTRACE_PACKAGE_OUT:-}
if [ -z "$work" ]; then
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work"
# shellcheck source=../lib/check.sh
. "$top/tests/lib/check.sh"

version=$(dpkg-parsechangelog -l "$top/debian/changelog" -S Version)
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
src=$work/boottrace-$version
rm -rf "$src" "$work"/*.deb "$work"/*.changes "$work"/*.buildinfo
mkdir -p "$src"
# The working tree as git sees it (tracked and new files, no build output).
(cd "$top" && git ls-files -z --cached --others --exclude-standard |
	tar --null --ignore-failed-read -T - -cf - 2>/dev/null) | tar -C "$src" -xf -

echo "# dpkg-buildpackage -b -us -uc in $src (log: $work/build.log)"
start=$SECONDS
if (cd "$src" && nice -n 10 dpkg-buildpackage -b -us -uc) >"$work/build.log" 2>&1; then
	check "dpkg-buildpackage -b builds ($((SECONDS - start)) s)" true
else
	check "dpkg-buildpackage -b builds" false
	tail -n 40 "$work/build.log"
	echo "$passed passed, $failed failed"
	exit 1
fi
debs=()
for p in boottrace bootconfig libbootconfig0 libbootconfig-dev; do
	deb=$work/${p}_${version}_$arch.deb
	check "package $p built" test -f "$deb"
	debs+=("$deb")
done
changes=$work/boottrace_${version}_$arch.changes

# lintian: no error, no warning (overrides in debian/*.lintian-overrides
# each give their reason); the tags it prints are shown.
lintian_out=$(nice -n 10 lintian --fail-on error,warning --display-info "$changes" 2>&1) &&
	lint_ok=true || lint_ok=false
[ -z "$lintian_out" ] || printf '%s\n' "$lintian_out" | sed 's/^/# lintian: /'
check "lintian: no errors or warnings" "$lint_ok"

check "libbootconfig0 carries a symbols file" \
	sh -c "dpkg-deb --ctrl-tarfile '$work/libbootconfig0_${version}_$arch.deb' |
		tar -t | grep -qx './symbols'"

root=$work/root
rm -rf "$root"
for deb in "${debs[@]}"; do
	dpkg-deb -x "$deb" "$root"
done
lib=$root/usr/lib/$multiarch/libbootconfig.so.0
check "the shared library's SONAME is libbootconfig.so.0" \
	sh -c "objdump -p '$lib' | grep -q 'SONAME *libbootconfig.so.0$'"
check "the -dev package's .so links to it" \
	test "$(readlink "$root/usr/lib/$multiarch/libbootconfig.so")" = libbootconfig.so.0
check "pkg-config finds the library in the -dev package" \
	env PKG_CONFIG_SYSROOT_DIR="$root" PKG_CONFIG_LIBDIR="$root/usr/lib/$multiarch/pkgconfig" \
	sh -c 'pkg-config --libs bootconfig | grep -q -- -lbootconfig'
check "bootconfig --help from the package" \
	sh -c "'$root/usr/bin/bootconfig' --help | grep -q '^Usage: bootconfig'"
check "the kernel-install plugin is in /usr/lib/kernel/install.d" \
	test -x "$root/usr/lib/kernel/install.d/86-boottrace-bootconfig.install"
check "the postinst.d hook names the installed module" \
	grep -q '/usr/lib/dracut/modules.d/95bootconfig' "$root/etc/kernel/postinst.d/zz-boottrace-bootconfig"
check "boottrace-collect.service is shipped" \
	grep -qx 'ExecStart=/usr/bin/boottrace boots --save' "$root/lib/systemd/system/boottrace-collect.service"
dpkg-deb --ctrl-tarfile "$work/boottrace_${version}_$arch.deb" | tar -xOf - ./postinst >"$work/postinst"
# dh_installsystemd --no-enable: the postinst enables the unit again only
# where the admin had (debian-installed + was-enabled), never starts it.
check "... disabled: the postinst does not enable or start it" \
	sh -c "grep -q 'deb-systemd-helper debian-installed' '$work/postinst' &&
	       ! grep -q 'deb-systemd-invoke\|systemctl.*start' '$work/postinst'"
check "/etc/default/boottrace is a conffile" sh -c \
	"dpkg-deb --ctrl-tarfile '$work/boottrace_${version}_$arch.deb' | tar -xOf - ./conffiles |
	 grep -qx /etc/default/boottrace"
rc=0
out=$("$top/tests/install/installed.sh" "$root/usr") || rc=$?
printf '%s\n' "$out"
check_add "$out" "$rc"

check_done
