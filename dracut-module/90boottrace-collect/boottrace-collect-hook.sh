#!/bin/sh
# cmdline hook (sourced by dracut's init, the first hook it runs; in the
# systemd flavour by dracut-cmdline.service): hand over to the collector,
# which returns at once unless boottrace.collect= is on the command line,
# and otherwise writes the bundle and powers the machine off.
/usr/bin/boottrace-collect --initramfs
