#!/usr/bin/bash
# tests/kernel/uevent-helper.sh - the uevent helper of 62-early-module.t,
# installed as /boottrace/uevent-helper in the initramfs; the test kernel
# (kernel/configs/early-module.config) runs it for every uevent from
# rootfs_initcall on, during the device initcalls.  The first call loads
# the trace-events sample module, before late_initcall; later calls do
# nothing.  Nothing is set up for a usermode helper (no open files, /dev
# may be empty), so the outcome goes to files the guest script reads.
set -uo pipefail
export PATH=/usr/sbin:/usr/bin:/sbin:/bin

mkdir /early-load 2>/dev/null || exit 0
insmod /boottrace/trace-events-sample.ko 2>/early-load/insmod.err
echo $? >/early-load/status
