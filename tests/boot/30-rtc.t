#!/bin/bash
# The guest clock set past 2038 (--rtc 2040-01-01): the kernel reads it from
# the RTC and both dmesg and the metadata show 2040.
set -uo pipefail
. "$(dirname "$0")/tap.sh"

t_kernel
t_plan 5
t_boot rtc "$BT_TOP/examples/default.bconf" --rtc 2040-01-01
b=$T_TMP/rtc
t_is "$T_RC" 0 "boottrace boot --rtc 2040-01-01 exits 0"
[ -f "$b/metadata" ] || { echo "Bail out! no bundle: $T_ERR"; exit 1; }
t_grep "$b/dmesg" 'setting system clock to 2040-01-01T' "dmesg: the kernel set the clock to 2040"
t_is "$(t_meta "$b" rtc)" 2040-01-01 "metadata: rtc"
t_grep "$b/metadata" '^guest_boot_time=2040-01-01T' "metadata: the guest booted in 2040"
t_is "$(t_meta "$b" bootconfig_status)" loaded "the bootconfig still loads"
t_done
