#!/bin/bash
# scripts/deps.sh - install the Debian packages a stage needs.
#
#   scripts/deps.sh build    compilers and libraries for the user-space tools
#   scripts/deps.sh check    build + what the test suites use
#   scripts/deps.sh boot     kernel build, dracut, QEMU, trace-cmd
#   scripts/deps.sh all      everything (make check, make demo)
#
# As root it runs apt-get (apt-get update once); otherwise it prints the
# apt-get command to run and fails.
set -euo pipefail

. "$(dirname "$0")/lib.sh"

build_pkgs=(gcc make pkg-config libc6-dev
	libtraceevent-dev libtracefs-dev libtracecmd-dev)
check_pkgs=(clang libclang-rt-14-dev valgrind shellcheck perl xfsprogs
	linux-source-6.1 bc python3 jq libxml2-utils groff-base python3-jsonschema
	python3-scipy chromium dpkg-dev debhelper lintian linux-config-6.1 dwarves)
boot_pkgs=(linux-source-6.1 flex bison bc libelf-dev libssl-dev cpio zstd
	ccache qemu-system-x86 dracut-core systemd trace-cmd kmod xz-utils)

case "${1:-all}" in
build) pkgs=("${build_pkgs[@]}") ;;
check) pkgs=("${build_pkgs[@]}" "${check_pkgs[@]}") ;;
boot) pkgs=("${build_pkgs[@]}" "${boot_pkgs[@]}") ;;
all) pkgs=("${build_pkgs[@]}" "${check_pkgs[@]}" "${boot_pkgs[@]}") ;;
-h | --help)
	sed -n '2,10s/^# \{0,1\}//p' "$0"
	exit 0
	;;
*) bt_die "unknown package set '$1' (build, check, boot or all)" ;;
esac

if bt_have_pkgs "${pkgs[@]}"; then
	bt_log "packages: all ${#pkgs[@]} present"
else
	bt_need_pkgs "${pkgs[@]}"
fi
