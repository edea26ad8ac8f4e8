#!/bin/bash
# boottrace run - boot a config and print its report.
set -euo pipefail

BT_TOP=${BT_TOP:-$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)}
# shellcheck source=lib.sh
. "$BT_TOP/scripts/lib.sh"

usage()
{
	cat <<'USAGE'
usage: boottrace run CONF.bconf [boot options]

`boottrace boot --knowledge CONF [boot options]`, then `boottrace report` of
the bundle it wrote (with --dry-run, boot's plan instead; with --repeat,
the set's path: report each bundle of it, or compare sets with
`boottrace diff`).  Every option is `boottrace boot`'s (see boottrace boot
--help), passed on unchanged; without -o the bundle goes to
$BOOTTRACE_CACHE/bundles/<CONF name>.  The config is linted once, by
`boot`, against the kernel being booted (its knowledge is extracted first
when it is not cached).

  -h, --help   this help
USAGE
}

case "${1:-}" in
-h | --help) usage; exit 0 ;;
'') usage >&2; exit 2 ;;
esac
out=$("$BT_TOP/scripts/boot.sh" --knowledge "$@")
bundle=$(printf '%s\n' "$out" | tail -n1)
if ! [ -f "$bundle/metadata" ]; then
	# --dry-run: boot printed what it would do
	printf '%s\n' "$out"
	exit 0
fi
echo
# boot made the program (bt_tools_ready); this finds it without make
exec "$(bt_tool trace-analysis trace-analysis)" report "$bundle"
