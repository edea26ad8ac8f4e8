#!/bin/bash
# shellcheck disable=SC2016 # literal ${...} and bash -c scripts
# make -C dracut-module install / uninstall into a staging DESTDIR: the
# files land where dracut, run-parts and kernel-install look, with the
# module path and bootconfig path filled in; uninstall removes all of them.
set -uo pipefail
. "$(dirname "$0")/tap.sh"

t_plan 7
d=$T_TMP/root
mk()
{
	make -s -C "$BT_TOP/dracut-module" "$@" DESTDIR="$d" PREFIX=/usr/local
}
t_ok "make install into DESTDIR" mk install
mod=$d/usr/lib/dracut/modules.d/95bootconfig
t_is "$(cd "$d" && find . -type f | LC_ALL=C sort | tr '\n' ' ')" \
	"./etc/kernel/install.d/86-boottrace-bootconfig.install ./etc/kernel/postinst.d/zz-boottrace-bootconfig ./usr/lib/dracut/modules.d/95bootconfig/bootconfig-compress ./usr/lib/dracut/modules.d/95bootconfig/bootconfig-initrd ./usr/lib/dracut/modules.d/95bootconfig/bootconfig-lib.sh ./usr/lib/dracut/modules.d/95bootconfig/module-setup.sh ./usr/local/share/boottrace/dracut.conf.d/90-bootconfig.conf " \
	"the module, both hooks and the example config are installed"
t_ok "hooks and helpers are executable" test -x "$d/etc/kernel/postinst.d/zz-boottrace-bootconfig" \
	-a -x "$d/etc/kernel/install.d/86-boottrace-bootconfig.install" -a -x "$mod/bootconfig-initrd" \
	-a -x "$mod/bootconfig-compress"
t_is "$(grep -h -o 'moddir=${BOOTCONFIG_MODDIR:-[^}]*}' "$d"/etc/kernel/*/*boottrace* | sort -u)" \
	'moddir=${BOOTCONFIG_MODDIR:-/usr/lib/dracut/modules.d/95bootconfig}' \
	"the hooks point at the installed module"
t_is "$(grep -c 't=/usr/local/bin/bootconfig$' "$mod/bootconfig-lib.sh")" 1 \
	"the module defaults to the installed bootconfig"
t_ok "run-parts accepts the hook name (no dots)" \
	bash -c 'run-parts --test "$1" | grep -q zz-boottrace-bootconfig' _ "$d/etc/kernel/postinst.d"
mk uninstall
t_is "$(cd "$d" && find . -type f | wc -l)" 0 "make uninstall removes every installed file"
t_done
