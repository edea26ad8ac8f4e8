#!/bin/bash
# tests/system/10-debian.t - boottrace on a Debian system built from the
# archive, booted as a normal system in QEMU.
#
# mmdebstrap a minimal bookworm (systemd, udev, dracut, trace-cmd, kmod,
# and libtracecmd1, which boottrace needs and trace-cmd 3.1.6 does not pull
# in; cached by a key of its package list); install the boottrace packages
# (built by tests/package, cached by the tree's content) and the qemu
# flavour's kernel packages (`kernel/build.sh --flavour qemu --deb`: the
# test kernel, which has ext4 for the root disk) inside it with dpkg, so
# that the kernel's postinst runs Debian's dracut hook and ours for real,
# with /etc/bootconfig.d/10-trace.bconf (tests/system/trace.bconf)
# configured.  In the chroot: the initrd carries the config; the installed
# boottrace runs with no checkout; the collect unit is installed disabled;
# `boottrace collect` refuses to run without tracefs; an invalid config
# makes `dracut --force` fail with file:line:col and leaves the image
# byte-identical.  Then the system, with boottrace-collect.service enabled,
# is booted three times in QEMU (root on ext4 on a virtio disk, systemd as
# PID 1, `bootconfig` on the command line of the first two): the unit
# archives one bundle per boot, read back on the host from the disk image
# (debugfs, nothing mounted) and checked with `boottrace report`, `check`
# (tests/system/trace.expect) and `diff`; the third boot, without a
# bootconfig, archives nothing and runs `boottrace collect` on the live
# system.  TAP; root.  BOOTTRACE_SYSTEM_TIMEOUT: seconds per boot (900);
# BOOTTRACE_SYSTEM_KERNEL_DEB: a linux-image .deb to install instead.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../lib/tap.sh
. "$top/tests/lib/tap.sh"
# shellcheck source=../../scripts/lib.sh
. "$top/scripts/lib.sh"
[ "$(id -u)" = 0 ] || t_skip_all "needs root (chroot, dpkg)"
bt_need_pkgs mmdebstrap e2fsprogs qemu-system-x86

here=$top/tests/system
cache="$(bt_cache_dir)/system"
mkdir -p "$cache"
work=$(mktemp -d "$cache/work.XXXXXX")
root=$work/root
kpid=
trap '[ -z "$kpid" ] || kill "$kpid" 2>/dev/null; rm -rf "$work" "$T_TMP"' EXIT
boot_timeout=${BOOTTRACE_SYSTEM_TIMEOUT:-900}
t0=$SECONDS
# progress MSG: a TAP comment with the seconds since the start
progress()
{
	printf '# [%4ds] %s\n' "$((SECONDS - t0))" "$*"
}
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

# The kernel packages (below) build while the system is made: mmdebstrap
# mostly waits on the network and dpkg, a kernel build from scratch on the
# CPUs (minutes; cached after).
if [ -z "${BOOTTRACE_SYSTEM_KERNEL_DEB:-}" ]; then
	progress "the kernel packages (kernel/build.sh --flavour qemu --deb), in the background"
	"$top/kernel/build.sh" --flavour qemu --deb >"$work/kdebs" 2>"$work/kernel.log" &
	kpid=$!
fi

# --- the Debian system, cached by its package list -------------------------
suite=bookworm
pkgs=(systemd-sysv udev dracut trace-cmd kmod libtracecmd1)
key=$(printf '%s\n' "suite=$suite" "variant=apt" "${pkgs[@]}" \
	"$(mmdebstrap --version)" "$(cat /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null)" |
	sha256sum | cut -c1-16)
image=$cache/$suite-$key.tar
if [ ! -f "$image" ]; then
	progress "mmdebstrap $suite (${pkgs[*]}) -> $image"
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
# content: tests/system/debs-dir.sh).
debs=$("$here/debs-dir.sh")
if ! ls "$debs"/boottrace_*.deb >/dev/null 2>&1; then
	progress "building the boottrace packages (tests/package/run.sh)"
	BOOTTRACE_PACKAGE_OUT=$work/package "$top/tests/package/run.sh" >"$work/package.log" 2>&1 ||
		{ tail -n 20 "$work/package.log"; bt_die "tests/package failed"; }
	debs=$("$here/debs-dir.sh" --store "$work/package")
fi
mkdir -p "$root/tmp/debs"
cp "$debs"/*.deb "$root/tmp/debs/"
# (the globs are expanded in the system, not on the host)
# shellcheck disable=SC2016
in_root sh -c 'dpkg -i /tmp/debs/libbootconfig0_*.deb /tmp/debs/bootconfig_*.deb \
	/tmp/debs/boottrace_*.deb' >"$work/err" 2>&1 && rc=0 || rc=$?
t_ok "the boottrace packages install with dpkg" test "$rc" -eq 0
[ "$rc" -eq 0 ] || tail -n 10 "$work/err" | sed 's/^/# /'
in_root boottrace --help >"$work/out" 2>"$work/err" && rc=0 || rc=$?
t_ok "boottrace --help runs in the system (no checkout there)" \
	sh -c "[ $rc -eq 0 ] && grep -q '^usage: boottrace COMMAND' '$work/out'"
state=$(in_root systemctl is-enabled boottrace-collect.service 2>/dev/null || true)
t_ok "boottrace-collect.service is installed disabled" test "$state" = disabled

# No tracefs in the chroot (a fresh sysfs, nothing mounted on
# /sys/kernel/tracing): the collector refuses, writes nothing, never mounts.
in_root boottrace collect -o /tmp/bundle >"$work/out" 2>"$work/err" && rc=0 || rc=$?
t_ok "boottrace collect without tracefs fails" test "$rc" -ne 0
t_grep "$work/err" 'no tracefs: it is not mounted \(mount -t tracefs' "... saying tracefs is not mounted and how to mount it"
t_ok "... and writes nothing" test ! -e "$root/tmp/bundle"

# The kernel packages (built once, then cached: kernel/README.md), or the
# linux-image package BOOTTRACE_SYSTEM_KERNEL_DEB names (by hand: the
# Debian flavour's, whose virtio and ext4 drivers are modules in the
# initrd; boot it with BOOTTRACE_MACHINE=pc).
if [ -n "${BOOTTRACE_SYSTEM_KERNEL_DEB:-}" ]; then
	kimage=$BOOTTRACE_SYSTEM_KERNEL_DEB
	[ -f "$kimage" ] || bt_die "BOOTTRACE_SYSTEM_KERNEL_DEB=$kimage: no such file"
else
	rc=0; wait "$kpid" || rc=$?
	kpid=
	progress "the kernel packages: done (exit $rc)"
	mapfile -t kdebs <"$work/kdebs"
	if [ "$rc" != 0 ] || [ "${#kdebs[@]}" -eq 0 ]; then
		tail -n 20 "$work/kernel.log"
		bt_die "kernel --deb failed"
	fi
	kimage=$(printf '%s\n' "${kdebs[@]}" | grep '/linux-image-[^/]*\.deb$' | grep -v -- '-dbg_' | head -n1)
fi
krel=$(dpkg-deb -f "$kimage" Package | sed 's/^linux-image-//')
progress "kernel $krel: $(basename "$kimage")"

cp "$kimage" "$root/tmp/debs/"

# The user's configuration, then the kernel: its postinst runs
# /etc/kernel/postinst.d/dracut and ours.
conf=$root/etc/bootconfig.d/10-trace.bconf
mkdir -p "$(dirname "$conf")"
cp "$here/trace.bconf" "$conf"
cp "$root/usr/share/boottrace/dracut.conf.d/90-bootconfig.conf" "$root/etc/dracut.conf.d/"
progress "dpkg -i $(basename "$kimage") (its postinst runs dracut)"
in_root dpkg -i "/tmp/debs/$(basename "$kimage")" >"$work/kinstall.log" 2>&1 && rc=0 || rc=$?
t_ok "the kernel package installs (its postinst runs dracut and the hooks)" test "$rc" -eq 0
[ "$rc" -eq 0 ] || tail -n 20 "$work/kinstall.log" | sed 's/^/# /'
initrd=$root/boot/initrd.img-$krel
t_ok "dracut wrote $initrd" test -s "$initrd"
bconf=$top/bootconfig/build/bootconfig
[ -x "$bconf" ] || make -s -C "$top/bootconfig" >&2
"$bconf" -l "$conf" >"$work/want"
"$bconf" -l "$initrd" >"$work/got" 2>"$work/err" || true
t_ok "the initrd carries /etc/bootconfig.d/10-trace.bconf" cmp -s "$work/want" "$work/got"

# An invalid config: dracut fails naming file:line:col, the image stays.
sum=$(sha256sum <"$initrd")
cp "$conf" "$work/conf.good"
printf 'boottrace.test = 1\nboottrace.test = 2\n' >>"$conf"
line=$(wc -l <"$conf")
progress "dracut --force with an invalid config"
in_root dracut --force "/boot/initrd.img-$krel" "$krel" >"$work/out" 2>"$work/err" && rc=0 || rc=$?
t_ok "dracut --force with an invalid config fails" test "$rc" -ne 0
t_ok "... naming /etc/bootconfig.d/10-trace.bconf:$line:COL" \
	grep -Eq "/etc/bootconfig.d/10-trace.bconf:$line:[0-9]+: error: Value is redefined" "$work/err"
t_ok "... and leaves the image byte-identical" test "$(sha256sum <"$initrd")" = "$sum"
cp "$work/conf.good" "$conf"

# --- the boots -----------------------------------------------------------------
# The system as a user leaves it: the collect unit enabled; and the test's
# own unit that records each boot for the host, then powers off.  A machine
# id, so that no first-boot service waits for input on the console.
install -m 0755 "$here/guest/boottrace-test.sh" "$root/usr/local/sbin/boottrace-test"
install -m 0644 "$here/guest/boottrace-test.service" "$root/etc/systemd/system/"
in_root systemctl enable boottrace-collect.service boottrace-test.service >"$work/err" 2>&1 && rc=0 || rc=$?
t_ok "systemctl enable boottrace-collect.service (and the test's unit)" test "$rc" -eq 0
in_root systemd-machine-id-setup >/dev/null 2>&1
# The collector's own timeout, as the user of a slow machine sets it (TCG
# on a loaded host); the unit's TimeoutStartSec (300 s) bounds the save.
sed -i 's/^#\?BOOTTRACE_COLLECT_TIMEOUT=.*/BOOTTRACE_COLLECT_TIMEOUT=240/' "$root/etc/default/boottrace"
cp "$root/boot/vmlinuz-$krel" "$work/vmlinuz"
cp "$initrd" "$work/initrd.img"
rm -rf "$root/tmp/debs"
disk=$work/disk.img
progress "mkfs.ext4 -d (the system's root file system, 2 GiB sparse)"
mkfs.ext4 -q -F -L root -d "$root" "$disk" 2G >"$work/err" 2>&1 && rc=0 || rc=$?
t_ok "the root file system image is made (mkfs.ext4 -d)" test "$rc" -eq 0
rm -rf "$root"

cmdline_base="root=/dev/vda rootfstype=ext4 rw console=ttyS0 panic=-1 no_timer_check rd.shell=0 rd.emergency=poweroff systemd.show_status=1"
# boot N CMDLINE: boot the system; its console log in $work/boot-N/, the
# test unit's and the archive's files (read from the disk with debugfs,
# nothing mounted) in $work/boot-N/state and $work/boot-N/boots.
boot()
{
	local n=$1 dir=$work/boot-$1 rc=0 pid

	mkdir -p "$dir"
	progress "boot $n: $2 (timeout ${boot_timeout}s)"
	: >"$dir/qemu.err"
	"$top/bin/boottrace" qemu --kernel "$work/vmlinuz" --initrd "$work/initrd.img" \
		--append "$2" --disk "$disk" --memory 1024 --timeout "$boot_timeout" \
		-o "$dir" 2>>"$dir/qemu.err" &
	pid=$!
	# its progress lines (the phase every 30 s) as they come
	tail --pid="$pid" -n +1 -f "$dir/qemu.err" | sed 's/^/# /' >&2 || true
	wait "$pid" || rc=$?
	progress "boot $n: $(tail -n1 "$dir/qemu.err")"
	debugfs -R "rdump /var/lib/boottrace-test $dir" "$disk" >/dev/null 2>&1 || true
	debugfs -R "rdump /var/lib/boottrace $dir" "$disk" >/dev/null 2>&1 || true
	t_ok "boot $n: the system boots and powers off by itself" test "$rc" -eq 0
	t_ok "boot $n: systemd ran as PID 1 and the test unit recorded the boot" \
		sh -c "grep -qx systemd '$dir/boottrace-test/$n/pid1-comm' &&
			grep -Eq 'systemd 252[^ ]* running in system mode' '$dir/console.log' &&
			test -f '$dir/boottrace-test/$n/done'"
	[ "$rc" -eq 0 ] || tail -n 15 "$dir/console.log" | tr -d '\r' | sed 's/^/# console: /'
}
# archived DIR: the boot ids archived on that boot's disk, newest first
archived()
{
	BOOTTRACE_ARCHIVE=$1/boottrace/boots BOOTTRACE_DEFAULTS=/dev/null \
		"$top/bin/boottrace" boots 2>/dev/null | awk 'NR > 1 { print $2 }'
}

# Boot 1: the bootconfig is applied, the unit archives the bundle.
boot 1 "$cmdline_base bootconfig"
b1=$work/boot-1
id1=$(cat "$b1/boottrace-test/1/boot_id" 2>/dev/null || echo none)
bundle1=$b1/boottrace/boots/$id1
t_ok "boot 1: the unit archived the bundle as /var/lib/boottrace/boots/<boot-id>" \
	sh -c "test -f '$bundle1/metadata' && test '$(archived "$b1" | tr '\n' ' ')' = '$id1 '"
t_grep "$b1/boottrace-test/1/collect-unit" '^Result=success' "boot 1: boottrace-collect.service succeeded"
"$bconf" -l "$here/trace.bconf" >"$work/want"
t_ok "boot 1: the bundle's /proc/bootconfig is bootconfig -l of the file written into the system" \
	cmp "$work/want" "$bundle1/proc/bootconfig"
t_grep "$bundle1/proc/cmdline" "root=/dev/vda .*bootconfig" "boot 1: the bundle's command line is the boot's"
"$top/bin/boottrace" report "$bundle1" >"$work/report1" 2>&1 && rc=0 || rc=$?
t_ok "boot 1: boottrace report reads the archived bundle" test "$rc" -eq 0
[ "$rc" -eq 0 ] || sed 's/^/# /' "$work/report1" | head -n 20
BOOTTRACE_ARCHIVE=$b1/boottrace/boots BOOTTRACE_DEFAULTS=/dev/null \
	"$top/bin/boottrace" report --boot last >"$work/report1b" 2>&1 && rc=0 || rc=$?
t_ok "boot 1: boottrace report --boot last is the same report" \
	sh -c "[ $rc -eq 0 ] && cmp -s '$work/report1' '$work/report1b'"
"$top/bin/boottrace" check "$bundle1" "$here/trace.expect" >"$work/check1" 2>&1 && rc=0 || rc=$?
t_ok "boot 1: boottrace check against tests/system/trace.expect passes" test "$rc" -eq 0
sed -n 's/^FAIL/# FAIL/p; $s/^/# check: /p' "$work/check1"
t_ok "boot 1: trace-cmd reads the bundle's trace.dat" \
	sh -c "trace-cmd report -i '$bundle1/trace.dat' 2>/dev/null | grep -q 'task_newtask'"

# Boot 2: the same system again, a second archived bundle; diff of the two.
boot 2 "$cmdline_base bootconfig"
b2=$work/boot-2
id2=$(cat "$b2/boottrace-test/2/boot_id" 2>/dev/null || echo none)
t_ok "boot 2: a second bundle is archived, newest first" \
	test "$(archived "$b2" | tr '\n' ' ')" = "$id2 $id1 "
"$top/bin/boottrace" check "$b2/boottrace/boots/$id2" "$here/trace.expect" >"$work/check2" 2>&1 && rc=0 || rc=$?
t_ok "boot 2: boottrace check passes on the second bundle" test "$rc" -eq 0
BOOTTRACE_ARCHIVE=$b2/boottrace/boots BOOTTRACE_DEFAULTS=/dev/null \
	"$top/bin/boottrace" diff --boot -1 --boot last >"$work/diff" 2>&1 && rc=0 || rc=$?
t_ok "boot 2: boottrace diff --boot -1 --boot last compares boot 1 (A) with boot 2 (B) (exit 0 or 1, not an error)" \
	sh -c "[ $rc -le 1 ] && grep -qi initcall '$work/diff' &&
	       grep -q '^A .*/$id1 (' '$work/diff' && grep -q '^B .*/$id2 (' '$work/diff'"
[ "$rc" -le 1 ] || sed 's/^/# /' "$work/diff" | head -n 20

# Boot 3: no bootconfig, so no ftrace keys: the unit saves nothing; the
# test unit runs `boottrace collect` on the live system.
boot 3 "$cmdline_base boottrace_test.live=1"
b3=$work/boot-3
t_ok "boot 3 (no ftrace keys): nothing new is archived" \
	test "$(archived "$b3" | tr '\n' ' ')" = "$id2 $id1 "
t_grep "$b3/boottrace-test/3/collect-journal" 'no ftrace keys: nothing to save' \
	"boot 3: the unit ran and said why it saved nothing"
live=$b3/boottrace-test/3/live
t_ok "boot 3: boottrace collect on the live system exits 0" \
	test "$(cat "$b3/boottrace-test/3/live.rc" 2>/dev/null)" = 0
t_grep "$live/metadata" '^complete=yes' "boot 3: ... and writes a complete bundle"
t_ok "boot 3: ... of this boot (its command line, an empty bootconfig)" \
	sh -c "grep -q 'boottrace_test.live=1' '$live/proc/cmdline' && ! grep -q '^ftrace' '$live/proc/bootconfig'"
"$top/bin/boottrace" report "$live" >"$work/report3" 2>&1 && rc=0 || rc=$?
t_ok "boot 3: boottrace report reads the live bundle" test "$rc" -eq 0

progress "done"
t_plan "$T_N"
echo "$((T_N - T_FAILED)) passed, $T_FAILED failed"
t_done
