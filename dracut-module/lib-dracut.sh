# shellcheck shell=bash
# shellcheck disable=SC2034 # BTB_* are read by the scripts sourcing this
# dracut-module/lib-dracut.sh - the initramfs stage: every dracut run of the
# boot loop (the collector image and the image with the delivery module).
# Source it after scripts/lib.sh.
#
#   btb_bootconfig ARGS...     run our bootconfig tool (BT_BOOTCONFIG overrides)
#   btb_collector              build (if needed) boottrace-collect, print its path
#   btb_base_initrd KREL [--no-cache]
#                              build or reuse the collector image (no
#                              bootconfig), print its path
#   btb_conf_initrd KREL CONF MODE [--no-cache]
#                              build or reuse the image dracut makes with the
#                              bootconfig module carrying CONF (MODE
#                              trailer|early), print its path
#   btb_dracut_version         the installed dracut version
#
# The image has two flavours, chosen by BTB_FLAVOUR (default: the
# environment's BT_INITRD_FLAVOUR, else shell):
#   shell    no systemd and no shell init: only the collector module,
#            whose collector is /init (PID 1 collects and powers off),
#            uncompressed
#   systemd  systemd as the initramfs init (what real images use), zstd;
#            the collector runs at the same hook (dracut-cmdline.service)

# Packages the initramfs stage needs on the host (the guest gets its
# programs from the host through dracut).
BTB_PKGS=(dracut-core systemd udev trace-cmd cpio zstd coreutils util-linux
	grep libtracefs-dev)
BTB_FLAVOUR=${BT_INITRD_FLAVOUR:-shell}

btb_bootconfig()
{
	local tool=${BT_BOOTCONFIG:-}

	# the program itself, not `boottrace bootconfig` (one bash start less)
	[ -n "$tool" ] || tool=$(bt_tool bootconfig bootconfig)
	"$tool" "$@"
}

btb_collector()
{
	bt_tool collect boottrace-collect
}

btb_dracut_version()
{
	local v

	v=$(bt_pkg_version dracut-core)
	[ -n "$v" ] || v=$(dracut --version 2>/dev/null | head -n1)
	printf '%s\n' "$v"
}

# The dracut command line of the collector image (BTB_FLAVOUR), without the
# output and kver; the module list is the last line.
btb_dracut_args()
{
	printf '%s\n' --force --no-kernel --no-hostonly --no-hostonly-cmdline \
		--no-early-microcode --reproducible
	case "$BTB_FLAVOUR" in
	shell)
		printf '%s\n' --no-compress --modules "boottrace-collect"
		;;
	systemd)
		printf '%s\n' --zstd --modules \
			"base systemd systemd-initrd dracut-systemd boottrace-collect"
		;;
	*) bt_die "initrd flavour '$BTB_FLAVOUR': use shell or systemd" ;;
	esac
}

# The dracut.conf lines of the collector image (BTB_FLAVOUR) besides the
# collector's path: in the shell flavour the collector is /init, the whole
# init (90boottrace-collect).
btb_dracut_conf()
{
	[ "$BTB_FLAVOUR" != shell ] || echo boottrace_collect_init=yes
}

# A dracutbasedir that sees /usr/lib/dracut plus our modules.
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
	dpkg-query -W -f='${Package}=${Version}\n' systemd udev trace-cmd \
		bash libc6 2>/dev/null
}

# The key of the collector image: dracut, the kernel release, the dracut
# command line (flavour), the host programs, the module and the collector.
btb_base_key()
{
	local krel=$1 collector stamp keyf key

	collector=$(btb_collector)
	# the key is remembered under a stamp of its inputs' names, sizes and
	# mtimes (and the dpkg database's): hashing them again is the slow part
	stamp=$({
		echo "krel=$krel"
		btb_dracut_args
		btb_dracut_conf
		find "$BT_TOP/dracut-module/90boottrace-collect" "$collector" \
			/var/lib/dpkg/status -printf '%p %s %T@\n' | LC_ALL=C sort
	} | sha256sum | cut -c1-16)
	keyf="$(bt_cache_dir)/initrd/.key-$stamp"
	if [ -s "$keyf" ]; then
		printf '%s\n' "$(<"$keyf")"
		return 0
	fi
	mkdir -p "${keyf%/*}"
	key=$({
		echo "dracut=$(btb_dracut_version)"
		echo "krel=$krel"
		btb_dracut_args
		btb_dracut_conf
		btb_guest_pkgs
		bt_hash "$BT_TOP/dracut-module/90boottrace-collect"
		sha256sum <"$collector"
	} | sha256sum | cut -c1-16)
	printf '%s\n' "$key" >"$keyf.$$" && mv -f "$keyf.$$" "$keyf"
	printf '%s\n' "$key"
}

# btb_dracut_cached IMG KREL WHAT [--no-cache] [MODULE...]: print IMG, first
# running dracut into it (the collector image's modules plus MODULEs, with
# the dracut.conf lines read from stdin) unless it is cached.  WHAT names it
# in messages.
btb_dracut_cached()
{
	local img=$1 krel=$2 what=$3 nocache=${4:-} tmp log rc args collector lockfd

	shift 4 || shift $#
	# one dracut run per image: concurrent boots (prove -j) that need the
	# same uncached image wait for the first and then reuse it
	exec {lockfd}>"$img.lock"
	flock "$lockfd"
	if [ -s "$img" ] && [ "$nocache" != --no-cache ]; then
		exec {lockfd}>&-
		cat >/dev/null
		bt_log "$what: cached $img"
		printf '%s\n' "$img"
		return 0
	fi
	collector=$(btb_collector)
	tmp=$(mktemp -d "$(dirname "$img")/.build.XXXXXX")
	log=${img%.img}.log
	mkdir -p "$tmp/conf.d"
	{
		cat
		btb_dracut_conf
		printf 'boottrace_collect=%s\n' "$collector"
	} >"$tmp/conf.d/90-boottrace.conf"
	btb_dracut_farm "$tmp/farm"
	bt_log "$what: running dracut $(btb_dracut_version) ($BTB_FLAVOUR flavour) for $krel (log: $log)"
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
	exec {lockfd}>&-
	bt_log "$what: $img ($(stat -c %s "$img") bytes)"
	printf '%s\n' "$img"
}

btb_base_initrd()
{
	local krel=$1 nocache=${2:-} cache

	bt_need_pkgs "${BTB_PKGS[@]}"
	cache="$(bt_cache_dir)/initrd"
	[ -d "$cache" ] || mkdir -p "$cache"
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
	[ -d "$cache" ] || mkdir -p "$cache"
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
