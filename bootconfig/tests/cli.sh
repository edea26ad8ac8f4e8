#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bootconfig/tests/cli.sh - behaviour of the bootconfig command itself:
# diagnostics, exit codes, output modes, refusals and file safety.
#
#   bootconfig/tests/cli.sh [BOOTCONFIG]    default: build/bootconfig
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
bc=$(readlink -f "${1:-$here/build/bootconfig}")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

passed=0
failed=0

ok()
{
	passed=$((passed + 1))
	echo "ok - $1"
}

not_ok()
{
	failed=$((failed + 1))
	echo "not ok - $1"
}

# check NAME CMD...: the command succeeds.
check()
{
	local name=$1
	shift
	if "$@" >/dev/null 2>&1; then ok "$name"; else not_ok "$name"; fi
}

# run_bc: run bootconfig, keeping stdout, stderr and the exit status.
run_bc()
{
	set +e
	"$bc" "$@" >out 2>err
	rc=$?
	set -e
}

printf 'a = 1\na = 2\n' >redef.bconf
run_bc redef.bconf
check "parse error exits 1" test "$rc" -eq 1
check "parse error names file:line:col" grep -qx 'redef.bconf:2:5: error: Value is redefined' err
check "parse error shows the source line" grep -qx 'a = 2' err
check "parse error puts a caret under the column" grep -qx '    ^' err
check "parse error says what to do" grep -q "note: use ':=' to override" err
check "nothing on stdout after an error" test ! -s out

printf 'k {\n\tv = "x\n' >tab.bconf
run_bc -l tab.bconf
check "unclosed quote at end of file" grep -qx 'tab.bconf:3:1: error: No closing quotes' err

run_bc
check "no file is a usage error (2)" test "$rc" -eq 2
run_bc -a x -d y
check "conflicting options are a usage error (2)" test "$rc" -eq 2
run_bc -Z x
check "unknown option is a usage error (2)" test "$rc" -eq 2
run_bc --help
check "--help exits 0 and shows usage" test "$rc" -eq 0 -a -s out

printf 'kernel {\n console = ttyS0, tty0\n quiet\n x = "a b"\n}\ninit.s = 1\nftrace.event.x = 1\n' >k.bconf
run_bc -C k.bconf
check "-C prints the kernel.* command line" grep -qx 'console=ttyS0 console=tty0 quiet x="a b" ' out
run_bc --json k.bconf
check "--json is valid JSON" python3 -c 'import json,sys; d=json.load(open("out")); assert d["kernel"]["console"]==["ttyS0","tty0"]; assert d["kernel"]["quiet"]==""'

printf 'a = "", b\n' >empty-first.bconf
run_bc -l empty-first.bconf
check "-l cuts an empty-first array like tools/bootconfig" grep -qx 'a = ""' out
run_bc --proc empty-first.bconf
check "--proc lists it as /proc/bootconfig does" grep -qx 'a = "", "b"' out

: >empty
run_bc empty
check "an empty file shows nothing and succeeds" test "$rc" -eq 0 -a ! -s out

head -c 40000 /dev/zero | tr '\0' 'x' | sed 's/^/a = /' >big.bconf
run_bc big.bconf
check "a too big text file is an error, not an empty image" \
	grep -q 'big.bconf: error: Config data is too big' err

# Apply, show, list, delete on a 4 KiB image.
head -c 4096 /dev/zero >initrd
cp initrd initrd.orig
printf 'key = value;\n' >small.bconf
run_bc -a small.bconf initrd
check "apply succeeds" test "$rc" -eq 0
printf 'Apply small.bconf to initrd\n\tNumber of nodes: 2\n\tSize: 14 bytes\n\tChecksum: 1064\n' >want
check "apply prints tools/bootconfig's summary" cmp -s out want
check "apply pads the image to 4 bytes" test $(($(stat -c %s initrd) % 4)) -eq 0
check "the trailer ends with the magic" sh -c 'tail -c 12 initrd | grep -q "#BOOTCONFIG"'
run_bc -l initrd
check "list reads the trailer back" grep -qx 'key = "value"' out
chmod 640 initrd
run_bc -a small.bconf initrd
check "apply keeps the mode" test "$(stat -c %a initrd)" = 640
run_bc -d initrd
check "delete restores the original image" cmp -s initrd initrd.orig
run_bc -d initrd
check "delete without a trailer succeeds" test "$rc" -eq 0

run_bc -a redef.bconf initrd
check "a bad config is not applied" cmp -s initrd initrd.orig

# Text after a NUL byte: the kernel (and the tree's tool) read up to the
# NUL.  Shown as the kernel reads it; -a refuses to drop the rest.
printf 'a = 1\nb = 2\0c = 3\n' >nul.bconf
run_bc nul.bconf
check "a file with a NUL shows what the kernel reads, as the tool" \
	sh -c "test $rc -eq 0 && test \"\$(cat out)\" = 'a = \"1\";
b = \"2\";'"
run_bc -a nul.bconf initrd
check "-a refuses text after a NUL byte" test "$rc" -eq 1
check "... at the NUL's line and column, saying what would be lost" \
	grep -qx 'nul.bconf:2:6: error: a NUL byte before the end of the file: the kernel stops reading at this byte: 6 bytes after it would be ignored; nothing was changed' err
check "... with the line and a caret after its text" \
	sh -c "sed -n 2,3p err | tr '\n' '|' | grep -qx 'b = 2|     ^|'"
check "... and the initrd unchanged" cmp -s initrd initrd.orig
printf 'a = 1\n\0\0\0' >nulpad.bconf
run_bc -a nulpad.bconf initrd
check "NUL bytes that end the file are padding: applied" test "$rc" -eq 0
run_bc -l initrd
check "... the config before them" grep -qx 'a = "1"' out
cp initrd.orig initrd

# A corrupt trailer: flip one byte of the config text.
"$bc" -a small.bconf initrd >/dev/null
size=$(stat -c %s initrd)
printf 'K' | dd of=initrd bs=1 seek=4096 conv=notrunc status=none
cp initrd corrupt
run_bc initrd
check "a bad checksum is an error" test "$rc" -eq 1
check "a bad checksum is named" grep -q 'checksum' err
run_bc -a small.bconf initrd
check "apply refuses to replace a corrupt trailer" cmp -s initrd corrupt
test "$(stat -c %s initrd)" -eq "$size"

# Sizes at the kernel's limit: the footer size must stay below 32767.
cp initrd.orig initrd
# On a 4096-byte image 32763 bytes need no padding (size 32764); 32764
# bytes need 3 (size 32768) and are refused, as are 32766 (upstream's max).
{ printf 'data = "'; head -c 32753 /dev/zero | tr '\0' 'y'; printf '"\n'; } >max.bconf
run_bc -a max.bconf initrd
check "the largest config the kernel takes is applied" test "$rc" -eq 0
cp initrd.orig initrd
{ printf 'data = "'; head -c 32754 /dev/zero | tr '\0' 'y'; printf '"\n'; } >pad.bconf
run_bc -a pad.bconf initrd
check "a config pushed over the limit by padding is refused" test "$rc" -eq 1
check "the refusal says how much to cut" grep -q 'shorten the config by 1 byte or more' err
{ printf 'data = "'; head -c 32756 /dev/zero | tr '\0' 'y'; printf '"\n'; } >over.bconf
run_bc -a over.bconf initrd
check "32766 bytes of text are refused" test "$rc" -eq 1
check "the refusal explains the limit" grep -q 'which the kernel refuses' err
check "a refused apply leaves the image unchanged" cmp -s initrd initrd.orig
BOOTCONFIG_ALLOW_OVERSIZE=1 run_bc -a over.bconf initrd
check "BOOTCONFIG_ALLOW_OVERSIZE=1 writes it like tools/bootconfig" test "$rc" -eq 0
check "... with a warning" grep -q 'warning' err
run_bc -l initrd
check "an oversized trailer can still be shown" test "$rc" -eq 0 -a -s out
check "... with a warning" grep -q 'over the kernel' err
run_bc -d initrd
check "an oversized trailer can still be deleted" cmp -s initrd initrd.orig

# 16 words parse but cannot be composed by the kernel.
printf 'a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p = 1\n' >w16.bconf
run_bc -l w16.bconf
check "listing a 16-word key fails with an explanation" \
	sh -c "test $rc -eq 1 && grep -q '16 words' err"
run_bc -a w16.bconf initrd
check "applying a 16-word key warns" grep -q 'warning' err
printf 'a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q = 1\n' >w17.bconf
run_bc w17.bconf
check "17 words are a parse error" grep -q 'Too many key words' err

# Control bytes in a diagnostic are escaped, the caret still under them.
printf 'a = x\033]0;x\007y\n' >ctl.bconf
run_bc ctl.bconf
check "a control byte is a parse error at its column" grep -qx 'ctl.bconf:1:6: error: Non printable value' err
check "the source line shows it escaped" grep -qxF 'a = x\x1b]0;x\x07y' err
check "the caret stays under it" grep -qx '     ^' err
check "no raw control byte reaches the terminal" sh -c "! LC_ALL=C grep -q \"\$(printf '[\\033\\007]')\" err"
# A 16 KB line: the quote is a window around the column, not the line.
{ printf 'a = 1'; for _ in $(seq 8200); do printf ',1'; done; echo; } >nodes.bconf
run_bc nodes.bconf
check "too many nodes on a 16 KB line: its place" grep -qx 'nodes.bconf:1:16387: error: Too many nodes' err
check "... a diagnostic of a few lines, not 32 KB" test "$(wc -c <err)" -lt 400
check "... the quote clipped with \"...\" marks" grep -qx '\.\.\.\(,1\)\{50\}' err
check "... the caret under its value" test "$(sed -n 3p err)" = "$(printf '%85s' '^')"
printf 'a = %s\033%s\n' "$(head -c 300 /dev/zero | tr '\0' x)" "$(head -c 300 /dev/zero | tr '\0' y)" >wide.bconf
run_bc wide.bconf
check "a control byte on a wide line: escaped in the window" \
	grep -qx '\.\.\.x\{40\}\\x1by\{56\}\.\.\.' err
check "... the caret under it" test "$(sed -n 3p err)" = "$(printf '%44s' '^')"
printf 'a = 1\na = 2\n' >"$(printf 'esc\033[31m.bconf')"
run_bc "$(printf 'esc\033[31m.bconf')"
check "a file name's control bytes are escaped" grep -qF 'esc\x1b[31m.bconf:2:5: error' err

# Files that are not regular: refused at once, never waited on.
mkfifo fifo
python3 -c 'import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' sock
if ! mknod dev c 1 3 2>/dev/null; then ln -s /dev/null dev; fi
for f in fifo sock dev; do
	set +e
	timeout 10 "$bc" -a small.bconf "$f" >out 2>err
	rc=$?
	set -e
	check "-a on a $f is refused at once" test "$rc" -eq 1
	check "... saying it is not a regular file" grep -q 'not a regular file' err
	set +e
	timeout 10 "$bc" -d "$f" >out 2>err
	rc=$?
	timeout 10 "$bc" -l "$f" >out 2>err
	rc2=$?
	set -e
	check "-d on a $f is refused at once" test "$rc" -eq 1
	check "showing a $f does not hang" test "$rc2" -ne 124
done
run_bc -a <(printf 'p = 1\n') initrd
check "-a reads a config from a pipe" test "$rc" -eq 0
run_bc -l initrd
check "... and applies all of it" grep -qx 'p = "1"' out
cp initrd.orig initrd

# A corrupt trailer, -a and -d: what is wrong and what to do.
run_bc -a small.bconf corrupt
check "-a on a bad checksum names it" grep -q 'checksum does not match' err
check "... says nothing was changed and what to do" grep -q 'nothing was changed' err
check "... and what to do" grep -q 'regenerate it' err
printf '#BOOTCONFIG\n' >magic-only
run_bc -l magic-only
check "the 12-byte magic alone is called too short" grep -q 'only 12 bytes, too short for a trailer' err

# A footer claiming 3 GiB: refused, naming the claim, in bounded memory.
truncate -s 3G huge
printf '\0\0\0\300\0\0\0\0#BOOTCONFIG\n' >>huge
rss_kib() { python3 -c 'import resource,subprocess,sys; subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=open("err", "w")); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$@"; }
base=$(rss_kib "$bc" -l small.bconf)
for op in -l -d "-a small.bconf"; do
	# shellcheck disable=SC2086 # the option and its argument
	rss=$(rss_kib "$bc" $op huge)
	check "$op on a 3 GiB claim names it" grep -q 'claims 3221225472 bytes' err
	check "$op on a 3 GiB claim stays below 16 MiB of RSS (${rss} KiB, baseline ${base} KiB)" \
		test "$((rss - base))" -lt 16384
done
rm -f huge

# A 2 GiB sparse image stays sparse.
truncate -s 2G sparse.img
printf 'cpio' | dd of=sparse.img bs=1 seek=$((1 << 30)) conv=notrunc status=none
before=$(stat -c %b sparse.img)
start=$(date +%s%N)
run_bc -a small.bconf sparse.img
end=$(date +%s%N)
after=$(stat -c %b sparse.img)
echo "# 2 GiB sparse image: $before blocks before -a, $after after, $(((end - start) / 1000000)) ms"
check "-a on a 2 GiB sparse image succeeds" test "$rc" -eq 0
check "... and keeps it sparse" test "$after" -le "$((before + 64))"
run_bc -d sparse.img
check "-d keeps it sparse too" test "$(stat -c %b sparse.img)" -le "$((before + 64))"
rm -f sparse.img

# --in-place goes with -a or -d only.
run_bc --in-place -l initrd
check "--in-place without -a or -d is a usage error" test "$rc" -eq 2
run_bc --in-place -a small.bconf initrd
check "--in-place -a succeeds" test "$rc" -eq 0
run_bc -l initrd
check "... and the config is there" grep -qx 'key = "value"' out
run_bc --in-place -d initrd
check "--in-place -d restores the image" cmp -s initrd initrd.orig

# Root only: another user's 0444 file, and a nearly full tmpfs.
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	mkdir shared
	chmod 755 "$tmp"
	chown 65534:65534 shared
	cp initrd.orig shared/initrd
	chmod 444 shared/initrd
	chmod 644 small.bconf
	for flag in "" --in-place; do
		set +e
		setpriv --reuid=65534 --regid=65534 --clear-groups \
			"$bc" $flag -a small.bconf shared/initrd >out 2>err
		rc=$?
		set -e
		check "another user's 0444 initrd is refused ${flag:-(atomic)}" test "$rc" -eq 1
		check "... with Permission denied" grep -q 'Permission denied' err
		check "... and left as it was" cmp -s shared/initrd initrd.orig
	done
	chmod 700 "$tmp"
	mkdir mnt
	head -c 160000 /dev/urandom >mnt.orig
	set +e
	# shellcheck disable=SC2016 # expanded by the inner bash
	unshare -m --propagation private bash -c '
		set -e
		mount -t tmpfs -o size=256k tmpfs mnt
		cp mnt.orig mnt/initrd
		"$1" -a small.bconf mnt/initrd >full.out 2>full.err && echo 0 >full.rc || echo $? >full.rc
		cmp -s mnt/initrd mnt.orig && echo same >full.same
		"$1" --in-place -a small.bconf mnt/initrd >inplace.out 2>inplace.err
		"$1" -l mnt/initrd >inplace.list
		"$1" --in-place -d mnt/initrd
		cmp -s mnt/initrd mnt.orig && echo same >inplace.same
	' - "$bc"
	set -e
	check "-a on a nearly full tmpfs fails" test "$(cat full.rc 2>/dev/null)" = 1
	check "... saying how much it needs" grep -q 'it needs [0-9]* bytes (.* KiB), the file system has' full.err
	check "... and pointing at --in-place" grep -q 'use --in-place' full.err
	check "... the original intact" test -f full.same
	check "--in-place -a succeeds there" grep -qx 'key = "value"' inplace.list
	check "--in-place -d restores it" test -f inplace.same
else
	echo "# skipped: the permission and tmpfs checks need root and setpriv"
fi

# Root only: what stops root itself.  An immutable or append-only file or
# directory (chattr, where the file system of $tmp supports it) and a
# read-only file system are named, and "run as root" is not said to root.
if [ "$(id -u)" -eq 0 ] && command -v chattr >/dev/null &&
	mkdir flagdir && cp initrd.orig flagdir/initrd && chattr +i flagdir/initrd 2>/dev/null; then
	trap 'chattr -i -a "$tmp/flagdir" "$tmp/flagdir/initrd" 2>/dev/null; rm -rf "$tmp"' EXIT
	for flag in "" --in-place; do
		run_bc $flag -a small.bconf flagdir/initrd
		check "root: -a ${flag:-(atomic)} on an immutable file fails" test "$rc" -eq 1
		check "... naming the flag" grep -q 'note: the file is immutable (chattr +i; lsattr shows it)' err
		check "... and not telling root to run as root" sh -c '! grep -q "run as root" err'
	done
	run_bc -d flagdir/initrd
	check "root: -d on an immutable file names the flag" grep -q 'note: the file is immutable (chattr' err
	chattr -i flagdir/initrd
	chattr +a flagdir/initrd
	run_bc -a small.bconf flagdir/initrd
	check "root: an append-only file is named" grep -q 'note: the file is append-only (chattr +a' err
	chattr -a flagdir/initrd
	chattr +i flagdir
	run_bc -a small.bconf flagdir/initrd
	check "root: an immutable directory is named" \
		grep -q "note: its directory $tmp/flagdir is immutable (chattr +i; lsattr -d shows it).*use --in-place" err
	check "... and not telling root to run as root" sh -c '! grep -q "run as root" err'
	run_bc --in-place -a small.bconf flagdir/initrd
	check "... where --in-place works" test "$rc" -eq 0
	chattr -i flagdir
	check "the flagged initrd was left as it was, but for --in-place" \
		sh -c "\"$bc\" -d flagdir/initrd && cmp -s flagdir/initrd initrd.orig"
	mkdir ro
	cp initrd.orig ro/initrd
	set +e
	# shellcheck disable=SC2016 # expanded by the inner bash
	unshare -m --propagation private bash -c '
		mount --bind ro ro && mount -o remount,ro,bind ro &&
			"$1" -a small.bconf ro/initrd >ro.out 2>ro.err
	' - "$bc"
	set -e
	check "root: a read-only file system is named" \
		grep -q 'Read-only file system; nothing was changed' ro.err
	check "... as such" grep -q 'note: the file system is mounted read-only' ro.err
else
	echo "# skipped: the immutable and read-only checks need root and a file system with chattr +i"
fi

# Root only, when XFS is already registered (nothing gets loaded into the
# kernel) and mkfs.xfs exists: on a reflink file system the image is cloned,
# so -a succeeds with less free space than the image's size.
if [ "$(id -u)" -eq 0 ] && [ -e /dev/loop-control ] && command -v mkfs.xfs >/dev/null &&
	grep -qw xfs /proc/filesystems; then
	truncate -s 320M xfs.img
	mkfs.xfs -q -m reflink=1 xfs.img
	head -c 4000000 /dev/urandom >xfs.orig
	mkdir -p xmnt
	set +e
	# shellcheck disable=SC2016 # expanded by the inner bash
	unshare -m --propagation private bash -c '
		set -e
		mount -o loop xfs.img xmnt
		cp xfs.orig xmnt/initrd
		avail=$(df -B1 --output=avail xmnt | tail -n 1)
		fallocate -l $((avail - 1000000)) xmnt/fill
		df -B1 --output=avail xmnt | tail -n 1 >xfs.avail
		"$1" -a small.bconf xmnt/initrd >xfs.out 2>xfs.err && echo 0 >xfs.rc || echo $? >xfs.rc
		"$1" -l xmnt/initrd >xfs.list
		"$1" -d xmnt/initrd
		cmp -s xmnt/initrd xfs.orig && echo same >xfs.same
		umount xmnt
	' - "$bc"
	set -e
	check "-a clones a 4 MB image on XFS with $(cat xfs.avail 2>/dev/null) bytes free" \
		test "$(cat xfs.rc 2>/dev/null)" = 0
	check "... and the config is there" grep -qx 'key = "value"' xfs.list
	check "... -d clones back the image" test -f xfs.same
	rm -f xfs.img
else
	echo "# skipped: the reflink check needs root, a loop device, mkfs.xfs and XFS already registered"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
