# shellcheck shell=bash
# shellcheck disable=SC2034 # BTB_FINISH_ERROR is read by the caller
# scripts/lib-bundle.sh - the host side of the bundle: the one step that
# turns what the collector wrote onto the guest's disk into a bundle
# directory (docs/bundle.md).  Source it after scripts/lib.sh and
# qemu/lib-boot.sh.
#
#   btb_finish_bundle DISK OUT BOOTDIR [KEY=VALUE...]
#                        unpack DISK into the new directory OUT, add the
#                        console and input.bconf* of BOOTDIR and the host's
#                        metadata (the kernel of BTB_KIMAGE/BTB_KDIR and
#                        its hash BTB_KIMAGE_HASH when the caller has it, the
#                        boot of `boottrace qemu -o BOOTDIR`, the KEY=VALUEs);
#                        (through btb_bundle_meta, qemu/lib-boot.sh: the
#                        collector's --add-metadata, the one metadata
#                        writer); on failure BTB_FINISH_ERROR says why
#   btb_unpack ARCHIVE DIR
#                        unpack an untrusted tar from the guest safely

# Unpack the guest's archive.  It is untrusted: accept only regular files and
# directories with plain relative names, extract into an empty directory and
# check the result again.
btb_unpack()
{
	local src=$1 dst=$2 list mode owner size date time n rest

	# one listing: "MODE OWNER SIZE DATE TIME NAME"; a name the pattern
	# below accepts has no blanks, so anything after it (" -> target",
	# " link to target") is left in rest and rejected
	list=$(tar -tvf "$src" --quoting-style=escape 2>/dev/null) || return 1
	[ -n "$list" ] || return 1
	while read -r mode owner size date time n rest; do
		case "$mode" in
		-* | d*) ;;
		*)
			bt_log "bundle: rejecting links or special files in the archive"
			return 1
			;;
		esac
		n=${n#./}
		[ -n "$n$rest" ] || continue
		if [ -n "$rest" ] || ! [[ $n =~ ^[A-Za-z0-9_.+:@,=-]+(/[A-Za-z0-9_.+:@,=-]+)*/?$ ]]; then
			bt_log "bundle: rejecting member name '$n${rest:+ $rest}'"
			return 1
		fi
		[[ /$n/ != */../* && /$n/ != */./* ]] ||
			{ bt_log "bundle: rejecting member name '$n'"; return 1; }
	done <<<"$list"
	mkdir -p "$dst"
	tar -xf "$src" -C "$dst" --no-same-owner --no-same-permissions \
		--no-overwrite-dir -m 2>/dev/null || return 1
	if [ -n "$(find "$dst" ! -type f ! -type d -print -quit)" ]; then
		bt_log "bundle: special files appeared while unpacking"
		return 1
	fi
	chmod -R u+rwX,go+rX "$dst"
}

btb_finish_bundle()
{
	local disk=$1 out=$2 bootdir=$3 verdict status='' msg='' errs=0 warnings=() w
	local cmdline requested kvs
	local -A bi=() km=() cs=()
	local -a kept
	shift 3

	BTB_FINISH_ERROR=
	if ! btb_unpack "$disk" "$out"; then
		BTB_FINISH_ERROR="no bundle: the guest did not write a readable archive (missing or rejected)"
		return 1
	fi
	if ! [ -f "$out/collect.status" ]; then
		BTB_FINISH_ERROR="no bundle: the archive has no collect.status (collector did not finish)"
		return 1
	fi
	kept=("$bootdir/console.log")
	[ ! -f "$bootdir/input.bconf" ] || kept+=("$bootdir/input.bconf")
	[ ! -f "$bootdir/input.bconf.list" ] || kept+=("$bootdir/input.bconf.list")
	cp "${kept[@]}" "$out/"

	# boot.info and the kernel build's metadata, read once (first value
	# of each key)
	btb_read_keys bi "$bootdir/boot.info"
	btb_read_keys km "$BTB_KDIR/metadata"
	btb_read_keys cs "$out/collect.status"
	cmdline=${bi[cmdline]-}
	requested=no
	[[ " $cmdline " != *" bootconfig "* ]] || requested=yes
	# the kernel's verdict on the bootconfig: trace-analysis reads dmesg
	verdict=$("$(bt_tool trace-analysis trace-analysis)" verdict \
		--requested "$requested" "$out") || {
		BTB_FINISH_ERROR="no bundle: trace-analysis verdict could not read its kernel log (above)"
		return 1
	}
	mapfile -t verdict <<<"$verdict"
	for w in "${verdict[@]}"; do
		case "$w" in
		bootconfig_status=*) status=${w#*=} ;;
		bootconfig_message=*) msg=${w#*=} ;;
		trace_boot_errors=*) errs=${w#*=} ;;
		esac
	done
	if [ "$status" = rejected ] || [ "$status" = unknown ]; then
		warnings+=("bootconfig $status: ${msg:-no bootconfig message in dmesg}")
	fi
	[ "${errs:-0}" -eq 0 ] || warnings+=("$errs trace_boot error(s) in dmesg")
	errs=${cs[errors]-}
	[ "${errs:-0}" = 0 ] || warnings+=("collector reported $errs problem(s), see collect.log")
	[ -s "$out/trace.dat" ] || warnings+=("no trace.dat in the bundle")

	w=$(IFS='|'; echo "${warnings[*]-}")
	kvs=(
		"created=${bi[started]-}"
		"boottrace_version=$(git -C "$BT_TOP" describe --always --dirty 2>/dev/null || echo unknown)"
		"kernel_release=$BTB_KREL"
		"kernel_image_hash=${BTB_KIMAGE_HASH:-$(sha256sum <"$BTB_KIMAGE" | cut -c1-16)}"
		"tree=${km[tree]-}"
		"tree_version=${km[tree_version]-}"
		"series_hash=${km[series_hash]-}"
		"fragment_hash=${km[fragment_hash]-}"
		"compiler=${km[compiler]-}"
		"dracut=$(btb_dracut_version)"
		"trace_cmd=$(bt_pkg_version trace-cmd)"
		"${verdict[@]}"
		"cmdline=$cmdline"
		"accelerator=${bi[accelerator]-}"
		"machine=${bi[machine]-}"
		"qemu=${bi[qemu]-}"
		"smp=${bi[smp]-}"
		"memory_mb=${bi[memory_mb]-}"
		"rtc=${bi[rtc]-}"
		"boot_wall_seconds=${bi[boot_wall_seconds]-}"
		"$@"
		"warnings=$w"
	)
	# one line per key: a newline inside a value becomes a space
	kvs=("${kvs[@]//$'\n'/ }")
	printf '%s\n' "${kvs[@]//$'\r'/}" | btb_bundle_meta "$out" || {
		BTB_FINISH_ERROR="no bundle: the collector's metadata is missing or conflicts (see above)"
		return 1
	}
}
