#!/bin/bash
# bt_need_pkgs (scripts/lib.sh) called by several processes at once for
# the same missing package: one installs it, the others wait and find it
# installed.  Before, the second apt-get failed on dpkg's lock, and a
# caller without set -e went on as if the package were there (the cold
# make check of e1ab481: "linux-source-6.12.tar.xz missing").  apt-get
# and dpkg-query are stand-ins on PATH that behave as the real ones do
# here: apt-get fails at once when another holds the lock.
set -uo pipefail
. "$(dirname "$0")/tap.sh"

[ "$(id -u)" = 0 ] || t_skip_all "bt_need_pkgs installs only as root"
t_plan 6
bin=$T_TMP/bin
state=$T_TMP/dpkg
mkdir -p "$bin" "$state" "$T_TMP/cache"
touch "$T_TMP/cache/.apt-updated"
# shellcheck disable=SC2016 # the stand-ins' own code
printf '%s\n' '#!/bin/bash' \
	'fmt=; pkgs=(); rc=0' \
	'for a in "$@"; do case $a in -W) ;; -f=*) fmt=${a#-f=} ;; *) pkgs+=("$a") ;; esac; done' \
	'for p in "${pkgs[@]}"; do' \
	"	[ -f '$state'/\"\$p\" ] || { rc=1; continue; }" \
	'	out=${fmt//\$\{Package\}/$p}; out=${out//\$\{db:Status-Status\}/installed}' \
	'	out=${out//\$\{Version\}/1.0}; printf "${out//%/%%}"' \
	'done' \
	'exit $rc' >"$bin/dpkg-query"
# shellcheck disable=SC2016
printf '%s\n' '#!/bin/bash' \
	"exec 7>'$T_TMP/lock-frontend'" \
	'flock -n 7 || { echo "E: Could not get lock /var/lib/dpkg/lock-frontend" >&2; exit 100; }' \
	"echo \"\$*\" >>'$T_TMP/apt-calls'" \
	'sleep 1' \
	'for a in "$@"; do case $a in -*|install|DPkg::*) ;; *)' \
	"	touch '$state'/\"\$a\" ;; esac; done" >"$bin/apt-get"
chmod +x "$bin/dpkg-query" "$bin/apt-get"

for i in 1 2 3; do
	# shellcheck disable=SC2016
	PATH=$bin:$PATH BOOTTRACE_CACHE=$T_TMP/cache BT_PKGS_SEEN='' \
		bash -c '. "$BT_TOP/scripts/lib.sh"; bt_need_pkgs bt-fake-pkg' \
		>"$T_TMP/out.$i" 2>&1 &
done
fails=0
for i in 1 2 3; do
	wait -n || fails=$((fails + 1))
done
t_is "$fails" 0 "three callers at once: each one succeeds"
t_is "$(grep -c install "$T_TMP/apt-calls" 2>/dev/null)" 1 "apt-get install ran once"
t_ok "the package is installed" test -f "$state/bt-fake-pkg"
t_ok "no caller saw a lock error" sh -c "! grep -q 'Could not get lock' '$T_TMP'/out.*"

# A process that has found no package installed yet (BT_PKGS_SEEN unset)
# under set -u, asking only for missing ones: the cold make check of
# 86f0016 stopped there ("BT_PKGS_SEEN: unbound variable") on a machine
# without linux-source-6.12.
# shellcheck disable=SC2016
PATH=$bin:$PATH BOOTTRACE_CACHE=$T_TMP/cache env -u BT_PKGS_SEEN \
	bash -c 'set -euo pipefail; . "$BT_TOP/scripts/lib.sh"; bt_need_pkgs bt-fake-pkg2' \
	>"$T_TMP/out.unset" 2>&1 && rc=0 || rc=$?
t_is "$rc" 0 "set -u, nothing installed seen yet: a missing package is installed, no error"
t_ok "... and it is" test -f "$state/bt-fake-pkg2"
t_done
