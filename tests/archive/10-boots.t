#!/bin/bash
# tests/archive/10-boots.t - boottrace-collect.service's archive
# (collect/archive/boots.sh through `boottrace boots`) and `--boot WHICH`
# of report/diff/check, on a fake /proc and a fake collector
# (tests/archive/fake-collect, which copies a recorded bundle): saving
# only boots with ftrace keys, once per boot, rotation, failures and
# timeouts leaving the archive as it was, resolution and its errors; the
# unit file checked by systemd-analyze.  TAP.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../lib/tap.sh
. "$top/tests/lib/tap.sh"
bt=$top/bin/boottrace
work=$T_TMP
export BOOTTRACE_PROC=$work/proc BOOTTRACE_ARCHIVE=$work/archive
export BOOTTRACE_DEFAULTS=$work/default BOOTTRACE_COLLECT=$top/tests/archive/fake-collect
export FAKE_BUNDLE=$top/trace-analysis/tests/fixtures/bundles/default
mkdir -p "$work/proc/sys/kernel/random"
touch "$work/default-file"
# boot ID [BOOTCONFIG-TEXT]: a fake boot with this 32-hex id (printed with
# dashes, as /proc has it) and /proc/bootconfig content.
boot()
{
	local id=$1

	printf '%s-%s-%s-%s-%s\n' "${id:0:8}" "${id:8:4}" "${id:12:4}" "${id:16:4}" "${id:20:12}" \
		>"$work/proc/sys/kernel/random/boot_id"
	printf '%s' "${2-ftrace.tracer = \"function\"
}" >"$work/proc/bootconfig"
}

id_of() { printf '%02x%030x' "$1" "$1"; }
save() { "$bt" boots --save "$@" >"$work/out" 2>"$work/err"; }
count() { find "$work/archive" -mindepth 1 -maxdepth 1 -name '[0-9a-f]*' | wc -l; }

# --- saving ------------------------------------------------------------
boot "$(id_of 1)" 'kernel.quiet = ""
'
t_ok "a boot without ftrace keys: nothing saved, exit 0" \
	sh -c "'$bt' boots --save 2>'$work/err' && [ ! -e '$work/archive/$(id_of 1)' ] &&
	       grep -q 'no ftrace keys' '$work/err'"
boot "$(id_of 2)" ''
t_ok "a boot without a bootconfig: nothing saved" \
	sh -c "'$bt' boots --save 2>/dev/null && [ ! -e '$work/archive/$(id_of 2)' ]"

boot "$(id_of 3)"
save
t_ok "a boot with ftrace keys is saved under its boot id" test -f "$work/archive/$(id_of 3)/metadata"
t_ok "... the bundle as the collector wrote it" diff -r "$FAKE_BUNDLE" "$work/archive/$(id_of 3)"
t_ok "... and nothing else is left in the archive" \
	test "$(find "$work/archive" -mindepth 1 -maxdepth 1 ! -name .lock | wc -l)" -eq 1
touch -d '2 minutes ago' "$work/archive/$(id_of 3)"
t_ok "saving the same boot again does nothing" \
	sh -c "'$bt' boots --save 2>'$work/err' && grep -q 'already archived' '$work/err'"

FAKE_MODE=fail save && rc=0 || rc=$?
boot "$(id_of 4)"
FAKE_MODE=fail save && rc=0 || rc=$?
t_ok "a failing collector: non-zero exit, nothing archived, the archive as it was" \
	sh -c "[ $rc -ne 0 ] && [ ! -e '$work/archive/$(id_of 4)' ] && [ $(count) -eq 1 ] &&
	       ! ls -A '$work/archive' | grep -q '^.saving'"
rc=0
start=$SECONDS
FAKE_MODE=hang save --timeout 1 || rc=$?
t_ok "a collector that hangs is stopped by the timeout: nothing archived" \
	sh -c "[ $rc -ne 0 ] && [ ! -e '$work/archive/$(id_of 4)' ] &&
	       grep -q 'did not finish within 1s' '$work/err' &&
	       ! ls -A '$work/archive' | grep -q '^.saving'"
echo "# the hanging collector was stopped after $((SECONDS - start)) s"
rc=0
FAKE_MODE=partial save || rc=$?
t_ok "an incomplete bundle is archived as it is, with a non-zero exit" \
	sh -c "[ $rc -ne 0 ] && grep -qx complete=no '$work/archive/$(id_of 4)/metadata'"
touch -d '1 minute ago' "$work/archive/$(id_of 4)"

# --- rotation ------------------------------------------------------------
for i in 5 6 7 8; do
	boot "$(id_of "$i")"
	save --keep 3
	touch -d "$((10 - i)) seconds ago" "$work/archive/$(id_of "$i")"
done
t_ok "--keep 3 keeps the 3 newest boots" \
	sh -c "[ $(count) -eq 3 ] && [ -d '$work/archive/$(id_of 8)' ] &&
	       [ -d '$work/archive/$(id_of 6)' ] && [ ! -e '$work/archive/$(id_of 5)' ]"
printf '# keep 2\nBOOTTRACE_KEEP=2\n' >"$work/default"
boot "$(id_of 9)"
save
t_ok "BOOTTRACE_KEEP in the defaults file is used" test "$(count)" -eq 2
t_ok "the newest two are left" \
	sh -c "[ -d '$work/archive/$(id_of 9)' ] && [ -d '$work/archive/$(id_of 8)' ]"
printf 'BOOTTRACE_KEEP=two\n' >"$work/default"
rc=0
"$bt" boots --save 2>"$work/err" || rc=$?
t_ok "a bad setting is refused, naming it" sh -c "[ $rc -ne 0 ] && grep -q \"keep: 'two'\" '$work/err'"
printf 'KEEP=2\n' >"$work/default"
rc=0
"$bt" boots 2>"$work/err" >/dev/null || rc=$?
t_ok "an unknown setting is refused with file:line" \
	sh -c "[ $rc -ne 0 ] && grep -q '$work/default:1: unknown setting KEEP' '$work/err'"
rm "$work/default"
mkdir "$work/archive/not-a-boot"
boot "$(id_of 10)"
save --keep 1
t_ok "rotation removes only boot directories" test -d "$work/archive/not-a-boot"

# --- listing and --boot ---------------------------------------------------
boot "$(id_of 11)"
save
# The fake collector archives the same bundle every boot: make boot 10's
# differ where report, check and diff show it, so that resolving --boot to
# the wrong boot cannot pass.
sed -i 's/^bootconfig_status=loaded$/bootconfig_status=missing/; s/^created=.*/created=2026-12-01T00:00:00Z/' \
	"$work/archive/$(id_of 10)/metadata"
touch -d '1 hour ago' "$work/archive/$(id_of 10)"
"$bt" boots >"$work/out" 2>"$work/err"
t_ok "boottrace boots lists newest first" \
	sh -c "sed -n 2p '$work/out' | grep -q '^last  *$(id_of 11) ' &&
	       sed -n 3p '$work/out' | grep -q '^-1  *$(id_of 10) '"
t_ok "... with the kernel release from the bundle" grep -q '6.1.192-boottrace' "$work/out"
t_ok "--resolve last" test "$("$bt" boots --resolve last)" = "$work/archive/$(id_of 11)"
t_ok "--resolve -1" test "$("$bt" boots --resolve -1)" = "$work/archive/$(id_of 10)"
id10=$(id_of 10)
dashed=${id10:0:8}-${id10:8:4}-${id10:12:4}-${id10:16:4}-${id10:20}
t_ok "--resolve a boot id with dashes" test "$("$bt" boots --resolve "$dashed")" = "$work/archive/$(id_of 10)"
t_ok "--resolve a unique prefix" test "$("$bt" boots --resolve "$(id_of 11 | cut -c1-4)")" = \
	"$work/archive/$(id_of 11)"
rc=0
"$bt" boots --resolve -2 >/dev/null 2>"$work/err" || rc=$?
t_ok "-N past the oldest names the range" \
	sh -c "[ $rc -ne 0 ] && grep -q 'has 2 boot(s), the oldest is -1' '$work/err'"
rc=0
"$bt" boots --resolve 0 >/dev/null 2>"$work/err" || rc=$?
t_ok "an ambiguous prefix is refused" sh -c "[ $rc -ne 0 ] && grep -q '2 archived boots start' '$work/err'"
rc=0
"$bt" boots --resolve feed >/dev/null 2>"$work/err" || rc=$?
t_ok "an unknown id is refused" sh -c "[ $rc -ne 0 ] && grep -q 'no archived boot has this id' '$work/err'"

"$bt" report "$work/archive/$(id_of 11)" >"$work/want" 2>&1 || true
"$bt" report --boot last >"$work/got" 2>&1 || true
t_ok "report --boot last reports the newest archived bundle" \
	sh -c "cmp -s '$work/want' '$work/got' && grep -q '^bundle .*/$(id_of 11)\$' '$work/got'"
"$bt" check "$work/archive/$(id_of 10)" "$top/examples/default.expect" >"$work/want" 2>&1 || true
"$bt" check "$work/archive/$(id_of 11)" "$top/examples/default.expect" >"$work/other" 2>&1 || true
"$bt" check --boot=-1 "$top/examples/default.expect" >"$work/got" 2>&1 || true
t_ok "check --boot=-1 checks the one before" \
	sh -c "cmp -s '$work/want' '$work/got' && ! cmp -s '$work/other' '$work/got' &&
	       grep -q 'bootconfig_status=missing' '$work/got'"
rc=0
"$bt" diff --boot -1 --boot last >"$work/out" 2>"$work/err" || rc=$?
t_ok "diff --boot -1 --boot last compares the two, the one before as A" \
	sh -c "[ $rc -le 1 ] && grep -q '^A .*/$(id_of 10) (.*2026-12-01T00:00:00Z)' '$work/out' &&
	       grep -q '^B .*/$(id_of 11) (' '$work/out'"
rc=0
BOOTTRACE_ARCHIVE=$work/default-file "$bt" boots >/dev/null 2>"$work/err" || rc=$?
t_ok "an archive path that is a file is an error, named" \
	sh -c "[ $rc = 1 ] && grep -q '$work/default-file: not a directory' '$work/err'"
rc=0
"$bt" boots --keep >/dev/null 2>"$work/err" || rc=$?
t_ok "an option without its value is a usage error (exit 2)" \
	sh -c "[ $rc = 2 ] && grep -q -- '--keep needs a value' '$work/err'"
rc=0
"$bt" report --boot -7 >/dev/null 2>"$work/err" || rc=$?
t_ok "report --boot with a boot that is not there: usage error, named" \
	sh -c "[ $rc -eq 2 ] && grep -q -- '--boot -7' '$work/err'"

# --- the unit ----------------------------------------------------------------
unit=$work/boottrace-collect.service
sed "s|@BINDIR@|$top/bin|" "$top/collect/archive/boottrace-collect.service" >"$unit"
if command -v systemd-analyze >/dev/null; then
	t_ok "systemd-analyze verify accepts the unit" \
		sh -c "systemd-analyze verify --man=no '$unit' >'$work/err' 2>&1 && ! grep -q . '$work/err'"
else
	t_result 0 "systemd-analyze verify # SKIP systemd-analyze is not installed"
fi
t_ok "the unit runs after the default target and is wanted by it" \
	sh -c "grep -qx 'After=default.target' '$unit' && grep -qx 'WantedBy=default.target' '$unit'"
t_ok "the unit's time is bounded" grep -Eq '^TimeoutStartSec=[0-9]+$' "$unit"

t_plan "$T_N"
echo "$((T_N - T_FAILED)) passed, $T_FAILED failed"
t_done
