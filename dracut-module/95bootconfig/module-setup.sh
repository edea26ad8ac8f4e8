#!/bin/bash
# 95bootconfig - dracut module: carry a kernel bootconfig in the image.
#
# Configured in dracut.conf.d (see ../conf/90-bootconfig.conf):
#   bootconfig_files+=" /etc/bootconfig.d/trace.bconf "   concatenated in order
#   bootconfig_mode=trailer|early                         default trailer
#   bootconfig_tool=/path/to/bootconfig                   default: installed one
# trailer: the image ends with the bootconfig trailer (any kernel with
#          CONFIG_BOOT_CONFIG; boot with `bootconfig` on the command line).
# early:   the text is kernel/bootconfig/bootconfig.bconf in the uncompressed
#          early cpio (kernels with the boottrace series).
# The files are validated here, while dracut installs modules: an invalid
# config stops dracut before it touches the output image.  See README.md.
# shellcheck disable=SC2154 # dracut sets moddir, DRACUT_TMPDIR, compress...
# shellcheck disable=SC2031 # bootconfig_* are dracut config globals
# shellcheck disable=SC2034 # early_cpio_dir, create_early_cpio, compress are dracut's

# called by dracut
check()
{
	# Included when asked for (add_dracutmodules / --modules), or by default
	# once bootconfig files are configured.
	[ -n "${bootconfig_files// /}" ] && return 0
	return 255
}

# called by dracut
depends()
{
	return 0
}

# The compress command dracut would run for the user's choice (its own
# expansion happens after modules are installed, so the wrapper has to do
# it): named compressors get dracut's arguments, other commands run as given.
bcm_resolve_compress()
{
	local c=$1 i

	if [[ $c == "$DRACUT_COMPRESS_ZSTD"* ]] && ! check_kernel_config CONFIG_RD_ZSTD; then
		dwarn "bootconfig: kernel has no zstd support compiled in."
		c=
	fi
	if [[ $c && $c != cat ]] && ! command -v "${c%% *}" >/dev/null 2>&1; then
		derror "bootconfig: cannot execute compression command '$c', falling back to default"
		c=
	fi
	if [[ ! $c ]]; then
		for i in $DRACUT_COMPRESS_PIGZ $DRACUT_COMPRESS_GZIP $DRACUT_COMPRESS_LZ4 \
			$DRACUT_COMPRESS_LZOP $DRACUT_COMPRESS_ZSTD $DRACUT_COMPRESS_LZMA \
			$DRACUT_COMPRESS_XZ $DRACUT_COMPRESS_LBZIP2 $DRACUT_COMPRESS_BZIP2 \
			$DRACUT_COMPRESS_CAT; do
			[[ $i != "$DRACUT_COMPRESS_ZSTD" ]] || check_kernel_config CONFIG_RD_ZSTD || continue
			command -v "$i" >/dev/null 2>&1 || continue
			c=$i
			break
		done
	fi
	case $c in
	bzip2 | lbzip2)
		if [[ $c == lbzip2 ]] || command -v "$DRACUT_COMPRESS_LBZIP2" >/dev/null 2>&1; then
			c="$DRACUT_COMPRESS_LBZIP2 -9"
		else
			c="$DRACUT_COMPRESS_BZIP2 -9"
		fi
		;;
	lzma) c="$DRACUT_COMPRESS_LZMA -9 -T0" ;;
	xz) c="$DRACUT_COMPRESS_XZ --check=crc32 --lzma2=dict=1MiB -T0" ;;
	gzip | pigz)
		if [[ $c == pigz ]] || command -v "$DRACUT_COMPRESS_PIGZ" >/dev/null 2>&1; then
			c="$DRACUT_COMPRESS_PIGZ -9 -n -T -R"
		elif $DRACUT_COMPRESS_GZIP --help 2>&1 | grep -q rsyncable; then
			c="$DRACUT_COMPRESS_GZIP -n -9 --rsyncable"
		else
			c="$DRACUT_COMPRESS_GZIP -n -9"
		fi
		;;
	lzo | lzop) c="$DRACUT_COMPRESS_LZOP -9" ;;
	lz4) c="$DRACUT_COMPRESS_LZ4 -l -9" ;;
	zstd) c="$DRACUT_COMPRESS_ZSTD -15 -q -T0" ;;
	esac
	printf '%s\n' "${c:-cat}"
}

bcm_fail()
{
	dfatal "bootconfig: $*"
	exit 1
}

# called by dracut
install()
{
	local tool text files c

	# shellcheck source=bootconfig-lib.sh
	. "$moddir/bootconfig-lib.sh"
	read -r -a files <<<"${bootconfig_files:-}"
	if [ ${#files[@]} -eq 0 ]; then
		dinfo "bootconfig: no bootconfig_files configured; nothing to add"
		return 0
	fi
	tool=$(bcm_tool "${bootconfig_tool:-}") || bcm_fail "no usable bootconfig command"
	text="$DRACUT_TMPDIR/bootconfig.bconf"
	bcm_build_text "$tool" "$text" "${files[@]}" ||
		bcm_fail "invalid bootconfig; the image was not written"
	case "${bootconfig_mode:-trailer}" in
	trailer)
		if dracut_module_included squash; then
			bcm_fail "bootconfig_mode=trailer cannot be combined with the squash module (it resets the compressor); use bootconfig_mode=early"
		fi
		case "$moddir$text$tool" in
		*[[:space:]]*)
			bcm_fail "paths with blanks cannot go into dracut's compress command ($moddir, $tool, $DRACUT_TMPDIR)"
			;;
		esac
		c=$(bcm_resolve_compress "${compress:-}")
		compress="$moddir/bootconfig-compress $tool $text -- $c"
		dinfo "bootconfig: trailer with ${files[*]} after '$c'"
		;;
	early)
		if [ -z "${early_cpio_dir:-}" ]; then
			early_cpio_dir="$DRACUT_TMPDIR/earlycpio"
			mkdir -p "$early_cpio_dir"
		fi
		bcm_early_tree "$early_cpio_dir/d" "$text" ||
			bcm_fail "cannot write the early cpio member in $early_cpio_dir"
		create_early_cpio=yes
		dinfo "bootconfig: early cpio member $(bcm_early_member) with ${files[*]}"
		;;
	*)
		bcm_fail "bootconfig_mode='$bootconfig_mode' is not trailer or early (dracut config)"
		;;
	esac
}
