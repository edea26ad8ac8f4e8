# shellcheck shell=bash
# shellcheck disable=SC2034 # BTB_* are read by the scripts sourcing this
# qemu/lib-boot.sh - helpers shared by the boot-loop scripts (initrd, boot,
# run, report, bench).  Source it after scripts/lib.sh.
#
#   btb_bootconfig ARGS...     run our bootconfig tool (BT_BOOTCONFIG overrides)
#   btb_kernel TREE            build or reuse the kernel; sets BTB_KIMAGE,
#                              BTB_KDIR, BTB_KREL
#   btb_kernel_meta KEY        a value from the kernel build's metadata file
#   btb_base_initrd KREL [--no-cache]
#                              build or reuse the dracut base initrd (no
#                              bootconfig), print its path
#   btb_conf_initrd KREL CONF MODE [--no-cache]
#                              build or reuse the initrd dracut makes with
#                              the bootconfig module carrying CONF (MODE
#                              trailer|early), print its path
#   btb_dracut_version         the installed dracut version
#   btb_now                    seconds since the epoch, with nanoseconds
#   btb_unpack ARCHIVE DIR     unpack an untrusted tar from the guest safely

# Packages the boot loop needs on the host (the guest gets its programs from
# the host through dracut).
BTB_PKGS=(dracut-core systemd udev qemu-system-x86 trace-cmd cpio zstd tar
	coreutils util-linux grep)

btb_now()
{
	date +%s.%N
}

btb_bootconfig()
{
	if [ -n "${BT_BOOTCONFIG:-}" ]; then
		"$BT_BOOTCONFIG" "$@"
	else
		"$BT_TOP/bin/boottrace" bootconfig "$@"
	fi
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

btb_dracut_version()
{
	dpkg-query -W -f='${Version}' dracut-core 2>/dev/null ||
		dracut --version 2>/dev/null | head -n1
}

# The dracut command line of the base image, without the output and kver.
btb_dracut_args()
{
	printf '%s\n' --force --no-kernel --no-hostonly --no-hostonly-cmdline \
		--no-early-microcode --reproducible --zstd \
		--modules "base systemd systemd-initrd dracut-systemd boottrace-collect"
}

# A dracutbasedir that sees /usr/lib/dracut plus our module.
btb_dracut_farm()
{
	local farm=$1 e

	rm -rf "$farm"
	mkdir -p "$farm/modules.d"
	for e in /usr/lib/dracut/*; do
		[ "${e##*/}" = modules.d ] && continue
		ln -s "$e" "$farm/${e##*/}"
	done
	for e in /usr/lib/dracut/modules.d/*; do
		ln -s "$e" "$farm/modules.d/${e##*/}"
	done
	ln -s "$BT_TOP/dracut-module/90boottrace-collect" \
		"$farm/modules.d/90boottrace-collect"
	ln -s "$BT_TOP/dracut-module/95bootconfig" "$farm/modules.d/95bootconfig"
}

# Versions of the host programs dracut copies into the image.
btb_guest_pkgs()
{
	dpkg-query -W -f='${Package}=${Version}\n' systemd udev trace-cmd tar \
		bash libc6 2>/dev/null
}

btb_base_key()
{
	local krel=$1

	{
		echo "dracut=$(btb_dracut_version)"
		echo "krel=$krel"
		btb_dracut_args
		btb_guest_pkgs
		bt_hash "$BT_TOP/dracut-module/90boottrace-collect"
	} | sha256sum | cut -c1-16
}

# btb_dracut_cached IMG KREL WHAT [--no-cache] [MODULE...]: print IMG, first
# running dracut into it (the base modules plus MODULEs, with the dracut.conf
# lines read from stdin) unless it is cached.  WHAT names it in messages.
btb_dracut_cached()
{
	local img=$1 krel=$2 what=$3 nocache=${4:-} tmp log rc args

	shift 4 || shift $#
	if [ -s "$img" ] && [ "$nocache" != --no-cache ]; then
		cat >/dev/null
		bt_log "$what: cached $img"
		printf '%s\n' "$img"
		return 0
	fi
	tmp=$(mktemp -d "$(dirname "$img")/.build.XXXXXX")
	log=${img%.img}.log
	mkdir -p "$tmp/conf.d"
	cat >"$tmp/conf.d/90-boottrace.conf"
	btb_dracut_farm "$tmp/farm"
	bt_log "$what: running dracut $(btb_dracut_version) for $krel (log: $log)"
	rc=0
	mapfile -t args < <(btb_dracut_args | sed "s/boottrace-collect\$/boottrace-collect${*:+ $*}/")
	{
		dracutbasedir="$tmp/farm" nice dracut "${args[@]}" \
			--conf /dev/null --confdir "$tmp/conf.d" --tmpdir "$tmp" \
			"$tmp/out.img" "$krel"
	} >"$log" 2>&1 || rc=$?
	if [ $rc -ne 0 ] || ! [ -s "$tmp/out.img" ]; then
		rm -rf "$tmp"
		# the bootconfig module's messages (FILE:LINE:COL, caret, note)
		# or dracut's tail
		if grep -q '^bootconfig: error:' "$log"; then
			grep -v '^dracut' "$log" | grep -v '^$' >&2
		else
			tail -n 15 "$log" >&2
		fi
		bt_die "dracut failed for the $what (exit $rc); full log: $log"
	fi
	mv -f "$tmp/out.img" "$img"
	rm -rf "$tmp"
	bt_log "$what: $img ($(stat -c %s "$img") bytes)"
	printf '%s\n' "$img"
}

btb_base_initrd()
{
	local krel=$1 nocache=${2:-} cache

	bt_need_pkgs "${BTB_PKGS[@]}"
	cache="$(bt_cache_dir)/initrd"
	mkdir -p "$cache"
	btb_dracut_cached "$cache/base-$(btb_base_key "$krel").img" "$krel" \
		"base initrd" "$nocache" </dev/null
}

# The initrd users get: dracut with the delivery module (dracut-module/
# 95bootconfig) carrying CONF, no post-hoc apply.  Cached by the base key,
# CONF's content, the mode, the module and our bootconfig.
btb_conf_initrd()
{
	local krel=$1 conf=$2 mode=$3 nocache=${4:-} cache key tool

	bt_need_pkgs "${BTB_PKGS[@]}"
	tool=$(bt_tool bootconfig bootconfig)
	cache="$(bt_cache_dir)/initrd"
	mkdir -p "$cache"
	key=$({
		btb_base_key "$krel"
		echo "mode=$mode"
		sha256sum <"$conf"
		sha256sum <"$tool"
		bt_hash "$BT_TOP/dracut-module/95bootconfig"
	} | sha256sum | cut -c1-16)
	{
		printf 'bootconfig_tool=%s\n' "$tool"
		printf 'bootconfig_files+=" %s "\n' "$(readlink -f "$conf")"
		printf 'bootconfig_mode=%s\n' "$mode"
	} | btb_dracut_cached "$cache/bconf-$key.img" "$krel" \
		"initrd" "$nocache" bootconfig
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

