# shellcheck shell=bash
# shellcheck disable=SC2034 # BTB_* are read by the scripts sourcing this
# qemu/lib-boot.sh - helpers shared by the boot-loop scripts (initrd, boot,
# run, report, bench).  Source it after scripts/lib.sh.
#
#   btb_kernel TREE            build or reuse the kernel; sets BTB_KIMAGE,
#                              BTB_KDIR, BTB_KREL
#   btb_kernel_meta KEY        a value from the kernel build's metadata file
#   btb_now                    seconds since the epoch, with nanoseconds
#   btb_unpack ARCHIVE DIR     unpack an untrusted tar from the guest safely
#   btb_bundle_meta DIR        append the KEY=VALUE lines of stdin (the
#                              host's keys) to the metadata the collector
#                              wrote into the bundle DIR
# and, from dracut-module/lib-dracut.sh (the initramfs stage), btb_bootconfig,
# btb_collector, btb_base_initrd, btb_conf_initrd, btb_dracut_version.

# shellcheck source=../dracut-module/lib-dracut.sh
. "$BT_TOP/dracut-module/lib-dracut.sh"
# Packages the boot loop needs on the host besides the initramfs stage's.
BTB_PKGS+=(qemu-system-x86 tar)

btb_now()
{
	date +%s.%N
}

btb_kernel()
{
	local tree=$1 out

	[ -x "$BT_TOP/kernel/build.sh" ] ||
		bt_die "kernel/build.sh is missing: cannot build the kernel"
	out=$("$BT_TOP/kernel/build.sh" --tree "$tree") ||
		bt_die "kernel build failed (tree $tree); see the log it names above"
	BTB_KIMAGE=$(printf '%s\n' "$out" | tail -n1)
	[ -f "$BTB_KIMAGE" ] ||
		bt_die "kernel/build.sh did not print an image path (got '$BTB_KIMAGE')"
	BTB_KDIR=$(dirname "$BTB_KIMAGE")
	[ -s "$BTB_KDIR/kernelrelease" ] ||
		bt_die "$BTB_KDIR/kernelrelease is missing"
	BTB_KREL=$(<"$BTB_KDIR/kernelrelease")
}

# btb_kernel_meta KEY: KEY=value from the kernel build's metadata file.
btb_kernel_meta()
{
	local f="${BTB_KDIR:-}/metadata"

	[ -f "$f" ] || return 0
	sed -n "s/^$1[=:][[:space:]]*//p" "$f" | head -n1
}

# The bundle's metadata has one writer, the collector; the host adds its
# keys through it (a key written twice is an error).
btb_bundle_meta()
{
	"$(btb_collector)" --add-metadata "$1"
}

# Unpack the guest's archive.  It is untrusted: accept only regular files and
# directories with plain relative names, extract into an empty directory and
# check the result again.
btb_unpack()
{
	local src=$1 dst=$2 names types n

	names=$(tar -tf "$src" --quoting-style=escape 2>/dev/null) || return 1
	types=$(tar -tvf "$src" --quoting-style=escape 2>/dev/null) || return 1
	[ -n "$names" ] || return 1
	while IFS= read -r n; do
		n=${n#./}
		[ -z "$n" ] && continue
		[[ $n =~ ^[A-Za-z0-9_.+:@,=-]+(/[A-Za-z0-9_.+:@,=-]+)*/?$ ]] ||
			{ bt_log "bundle: rejecting member name '$n'"; return 1; }
		[[ /$n/ != */../* && /$n/ != */./* ]] ||
			{ bt_log "bundle: rejecting member name '$n'"; return 1; }
	done <<<"$names"
	if printf '%s\n' "$types" | grep -q -v '^[-d]' ||
		printf '%s\n' "$types" | grep -q ' link to '; then
		bt_log "bundle: rejecting links or special files in the archive"
		return 1
	fi
	mkdir -p "$dst"
	tar -xf "$src" -C "$dst" --no-same-owner --no-same-permissions \
		--no-overwrite-dir -m 2>/dev/null || return 1
	if [ -n "$(find "$dst" ! -type f ! -type d -print -quit)" ]; then
		bt_log "bundle: special files appeared while unpacking"
		return 1
	fi
	chmod -R u+rwX,go+rX "$dst"
}

