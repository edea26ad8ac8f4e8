#!/bin/bash
# boottrace lint - check a boot-time tracing config before booting it.
set -euo pipefail

BT_TOP=${BT_TOP:-$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../.." && pwd)}
# shellcheck source=../../scripts/lib.sh
. "$BT_TOP/scripts/lib.sh"

usage()
{
	cat <<'USAGE'
usage: boottrace lint CONF.bconf... [--kernel BUILD | --tree 6.1|6.12]
                      [--no-kernel] [--cached-only] [--json] [--quiet]

Check configs the way the kernel will read them, before a reboot is spent
on them: parse errors, text after a NUL byte, a byte order mark or UTF-16,
keys trace_boot does not read (did-you-mean), values that do not fit their
key, and against the target kernel: events and their
fields, kprobe and ftrace filter symbols, tracers, clocks, options,
kernel.* parameters (unknown, or early and so ignored from an initrd),
trace_boot's 256-byte limit on kernels without the boottrace series, and
the size and depth limits.  Findings: FILE:LINE:COL: error|warning: MSG.

  --kernel BUILD   the target kernel: a build's out/ directory or bzImage,
                   or a tree name (its default build).  Its knowledge must
                   have been extracted with `boottrace knowledge --kernel
                   BUILD` (one QEMU boot, cached; see
                   bootconfig/lint/README.md); without it a note says so
                   and only the kernel-independent checks run
  --tree T         same as --kernel T
  --no-kernel      kernel-independent checks only
  --cached-only    with --kernel: no note suggesting `boottrace knowledge`
                   when that kernel's knowledge is not extracted yet (the
                   lint's own note on the skipped checks stays)
  -j, --json       JSON output (schema boottrace-lint-1)
  -q, --quiet      findings only: no source lines, no notes
  -h, --help       this help

Without --kernel the default 6.1 build's knowledge is used when it is
cached; otherwise only the kernel-independent checks run and a note names
the skipped ones.  Exit status: 0 no errors (warnings allowed), 1 errors,
2 usage error or unreadable file.
USAGE
}

confs=() kernel='' kopt=--kernel nokernel='' cached='' args=()
while [ $# -gt 0 ]; do
	case "$1" in
	-h | --help) usage; exit 0 ;;
	--kernel | --tree)
		[ $# -ge 2 ] || { echo "boottrace lint: $1 needs a value" >&2; exit 2; }
		kernel=$2 kopt=$1
		shift
		;;
	--no-kernel) nokernel=1 ;;
	--cached-only) cached=1 ;;
	--json | -j) args+=(--json) ;;
	--quiet | -q) args+=(--quiet) ;;
	-*) echo "boottrace lint: unknown option '$1' (see --help)" >&2; exit 2 ;;
	*) confs+=("$1") ;;
	esac
	shift
done
[ ${#confs[@]} -gt 0 ] || { echo "boottrace lint: no CONF.bconf given (see --help)" >&2; exit 2; }

lint=$(bt_tool bootconfig boottrace-lint)

# The lint only reads a kernel's knowledge; `boottrace knowledge` writes it.
kdir=''
if [ -z "$nokernel" ]; then
	# --cached-only fails silently when the knowledge is not extracted
	# yet, and with a message when --kernel names no kernel build
	kerr=$(mktemp)
	kdir=$("$BT_TOP/kernel/knowledge.sh" ${kernel:+"$kopt" "$kernel"} --cached-only 2>"$kerr") ||
		kdir=''
	if [ -s "$kerr" ]; then
		cat "$kerr" >&2
		rm -f "$kerr"
		exit 2
	fi
	rm -f "$kerr"
	if [ -z "$kdir" ] && [ -n "$kernel" ] && [ -z "$cached" ]; then
		echo "boottrace lint: note: run \`boottrace knowledge $kopt $kernel\` (one boot, cached) for the kernel checks" >&2
	fi
fi
[ -z "$kdir" ] || args+=(--knowledge "$kdir")
exec "$lint" "${args[@]}" "${confs[@]}"
