#!/bin/bash
# The KUnit suite of the bootconfig parser (series patch 0015 "bootconfig:
# Add a KUnit suite for the parser"), built into the sanitizer test kernel
#   kernel/build.sh --config kernel/configs/kasan.config \
#       --config kernel/configs/kunit.config
# (K_KERNEL=BZIMAGE boots another image).  One boot without initrd and
# without bootconfig: KUnit runs the init section suite before the root
# file system is mounted and prints KTAP on the console; the boot then
# ends in the "Unable to mount root fs" panic.  Every case must pass (no
# skip), the suite must have its 12 cases, and KASAN/UBSAN must stay
# quiet (4-level paging: see 15-sanitize.t).  1 boot.
# alone: boots the sanitizer kernel (tests/run.sh, suite_series)
set -uo pipefail
. "$(dirname "$0")/lib.sh"

cases=(bc_test_errors bc_test_data_size bc_test_node_limit bc_test_depth
	bc_test_key_length bc_test_override bc_test_append
	bc_test_value_and_subkeys bc_test_values bc_test_compose_iterate
	bc_test_cmdline bc_test_unpadded_size)

t_plan $((${#cases[@]} + 8))
tree=${K_TREE:-6.1}
k_kasan_kernel "$tree" "${K_KERNEL:-}"
bz=$K_KASAN_BZ
cfg=$(dirname "$bz")/.config
t_grep "$cfg" '^CONFIG_BOOTCONFIG_KUNIT_TEST=y$' "the kernel has the suite built in"

log=$T_TMP/console.log
k_qemu_bare 600 "$bz" "$log" ""
t_grep "$log" 'Unable to mount root fs' "the boot went past KUnit (root fs panic)"

# KTAP without the printk timestamps
ktap=$T_TMP/ktap
tr -d '\r' <"$log" | sed 's/^\[ *[0-9.]*\] //' >"$ktap"
t_grep "$ktap" '^ *# Subtest: bootconfig$' "KTAP: the bootconfig suite ran"
t_grep "$ktap" "^ *1\\.\\.${#cases[@]}\$" "KTAP: the suite plans ${#cases[@]} cases"
for c in "${cases[@]}"; do
	t_grep "$ktap" "^ *ok [0-9]+ (- )?$c\$" "KTAP: $c passed"
done
t_is "$(grep -c '^ *not ok' "$ktap")" 0 "KTAP: no case failed"
grep '^ *not ok\|^ *# .*Expected\|^ *# .*EXPECTATION\|^ *# .*ASSERTION' "$ktap" | head -n 40 | sed 's/^/# /'
t_is "$(grep -c '# SKIP' "$ktap")" 0 "KTAP: no case skipped"
t_grep "$ktap" '^ *ok [0-9]+ (- )?bootconfig$' "KTAP: the suite passed"
t_ok "no KASAN/UBSAN report, warning or oops" k_no_oops "$log"
t_done
