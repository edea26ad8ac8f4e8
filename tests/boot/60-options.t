#!/bin/bash
# Every option of `boottrace boot` reaches it through `boottrace run`
# unchanged (run keeps no copy of boot's option list), and boot passes its
# QEMU options on to `boottrace qemu`.  `--dry-run` makes boot print what it
# would boot (kernel, initrd plan, lint, command line, QEMU options, bundle)
# and stop; no boot here.
set -uo pipefail
. "$(dirname "$0")/tap.sh"

t_kernel
conf=$BT_TOP/examples/default.bconf
echo ok >"$T_TMP/initrd.img"
# OPTION [VALUE] | what the plan must then show (a line of `--dry-run`)
cases=(
	"-o $T_TMP/b1|^bundle=$T_TMP/b1\$"
	"--output $T_TMP/b2|^bundle=$T_TMP/b2\$"
	"--tree 6.12|^tree=6.12\$"
	"--kver 9.9.9-test|^kernel_release=9.9.9-test\$"
	"--initrd $T_TMP/initrd.img|^initrd=$T_TMP/initrd.img\$"
	"--delivery trailer|^initrd=build: delivery trailer\$"
	"--delivery early|^initrd=build: delivery early\$"
	"--no-cache|^initrd=build: delivery posthoc, no cache\$"
	"--flavour systemd|^initrd=build: delivery posthoc, flavour systemd\$"
	"--no-bootconfig|^cmdline=.* boottrace.collect=vda trace_clock=global\$"
	"--append foo=1 bar|^cmdline=.* foo=1 bar\$"
	"--append trace_clock=local|^cmdline=.*vda bootconfig trace_clock=local\$"
	"--no-lint|^lint=no\$"
	"--knowledge|^lint=yes \\(extract knowledge\\)\$"
	"--machine pc|^qemu=--machine pc\$"
	"--accel tcg|^qemu=--accel tcg\$"
	"--smp 3|^qemu=--smp 3\$"
	"--memory 300|^qemu=--memory 300\$"
	"--rtc 2040-01-01|^qemu=--rtc 2040-01-01\$"
	"--timeout 77|^qemu=--timeout 77\$"
	"-v|^qemu=-v\$"
	"--verbose|^qemu=--verbose\$"
	"-q|^qemu=-q\$"
	"--quiet|^qemu=--quiet\$"
)
t_plan $((${#cases[@]} + 11))

# has TEXT ERE: TEXT has a line matching ERE (TEXT shown when not)
has()
{
	# a here-string, not printf | grep -q: under pipefail the printf
	# can die of SIGPIPE once grep -q has seen its match
	grep -q -E -e "$2" <<<"$1" && return 0
	printf '%s\n' "$1"
	return 1
}

for c in "${cases[@]}"; do
	opt=${c%%|*}
	want=${c#*|}
	args=()
	case "$opt" in
	"--append "*) args=(--append "${opt#--append }") ;;
	*) read -r -a args <<<"$opt" ;;
	esac
	out=$("$BT_TOP/bin/boottrace" run "$conf" "${T_KOPTS[@]}" "${args[@]}" --dry-run 2>&1)
	t_ok "run $opt: reaches boot" has "$out" "$want"
done

out=$("$BT_TOP/bin/boottrace" run "$conf" "${T_KOPTS[@]}" --dry-run 2>&1)
t_ok "run lints with the kernel's knowledge (extracted when missing)" \
	has "$out" '^lint=yes \(extract knowledge\)$'
t_ok "the default bundle is in the cache, named after the config" \
	has "$out" "^bundle=.*/bundles/default\$"
out=$("$BT_TOP/bin/boottrace" boot "$conf" "${T_KOPTS[@]}" --dry-run 2>&1)
t_ok "boot alone does not extract knowledge" has "$out" '^lint=yes$'
rc=0
out=$("$BT_TOP/bin/boottrace" run "$conf" "${T_KOPTS[@]}" --no-such-option --dry-run 2>&1) || rc=$?
t_is "$rc" 2 "an unknown option is refused by boot (exit 2, a usage error)"
t_ok "and named" has "$out" "unknown option '--no-such-option'"
rc=0
out=$("$BT_TOP/bin/boottrace" run "$conf" "${T_KOPTS[@]}" --machine vax --dry-run 2>&1) || rc=$?
t_ok "a bad QEMU option value is refused before anything runs" \
	has "$out" '^boottrace: error: --machine: use microvm or pc$'
t_is "$rc" 2 "... as a usage error (exit 2)"
rc=0
out=$("$BT_TOP/bin/boottrace" run "$conf" "${T_KOPTS[@]}" --repeat two -o "$T_TMP/set" 2>&1) || rc=$?
t_ok "run --repeat reaches boot, which checks its value" \
	has "$out" "^boottrace: error: --repeat needs a number above 0 \\(got 'two'\\)\$"
t_ok "and writes no set" test ! -e "$T_TMP/set" -a ! -e "$T_TMP/set.partial"
# -o names a directory that boottrace did not write: --repeat keeps it
mkdir "$T_TMP/precious"
echo notes >"$T_TMP/precious/notes.txt"
rc=0
out=$("$BT_TOP/bin/boottrace" boot "$conf" "${T_KOPTS[@]}" --repeat 2 -o "$T_TMP/precious" 2>&1) || rc=$?
t_ok "--repeat refuses an -o directory that is not a bundle or a set, and keeps it (exit $rc)" \
	sh -c "[ $rc = 1 ] && [ -f '$T_TMP/precious/notes.txt' ] && [ ! -e '$T_TMP/precious.partial' ]"
t_ok "and says why" has "$out" "^boottrace: error: $T_TMP/precious exists and is not a bundle or a set of bundles"
t_done
