#!/bin/bash
# Real dracut runs with the bootconfig module (no kernel modules, `base`
# flavour): trailer mode with zstd, gzip and no compression, idempotency,
# an invalid config failing the build without touching the image, early-cpio
# mode, and no config at all.
set -uo pipefail
. "$(dirname "$0")/tap.sh"
# shellcheck source=../../dracut-module/95bootconfig/bootconfig-lib.sh
. "$T_MOD/bootconfig-lib.sh"

command -v dracut >/dev/null || t_skip_all "dracut is not installed"
tool=$(t_tool) || { echo "Bail out! cannot build bootconfig"; exit 1; }
ref=$("$BT_TOP/scripts/ref-bootconfig.sh" 2>/dev/null | tail -n1)
[ -x "$ref" ] || { echo "Bail out! no reference tools/bootconfig"; exit 1; }
t_plan 34
cd "$T_TMP" || exit 1

cat >one.bconf <<'BCONF'
# the user's base config
kernel.trace_clock = global
ftrace.event.task.task_newtask {
	enable
	filter = "pid < 128"
}
ftrace.options = sym-addr
BCONF
printf 'ftrace.options += stacktrace\nkernel.quiet\n# last line without a newline' >two.bconf
bcm_build_text "$tool" want.bconf "$T_TMP/one.bconf" "$T_TMP/two.bconf" ||
	{ echo "Bail out! fixture config invalid"; exit 1; }
want=$("$tool" -l want.bconf)

conf()
{
	local dir=$1
	shift
	mkdir -p "$dir"
	printf 'bootconfig_tool=%s\n' "$tool" >"$dir/50-tool.conf"
	printf '%s\n' "$@" >"$dir/90-bootconfig.conf"
}
conf c.ok "bootconfig_files+=\" $T_TMP/one.bconf \"" "bootconfig_files+=\" $T_TMP/two.bconf \""

magic()
{
	head -c4 "$1" | od -An -tx1 | tr -d ' \n'
}

# lsinitrd's listing, without its first line (image name and size).
lsi()
{
	lsinitrd "$1" 2>/dev/null | tail -n +2
}

has_module()
{
	lsinitrd -f usr/lib/dracut/modules.txt "$1" 2>/dev/null | grep -x bootconfig >/dev/null
}

early_lists()
{
	lsinitrd "$1" 2>/dev/null | grep -A8 "^Early CPIO image" |
		grep -q " kernel/bootconfig/bootconfig.bconf$"
}

# the image carries the config: both tools, alignment, lsinitrd unchanged
carries()
{
	local img=$1 what=$2
	t_is "$("$tool" -l "$img" 2>&1)" "$want" "$what: our bootconfig reads the concatenated config back"
	t_is "$("$ref" -l "$img" 2>&1)" "$want" "$what: the tree's tools/bootconfig reads the same"
	t_is "$(($(stat -c %s "$img") % 4))" 0 "$what: image length is a multiple of 4"
	cp "$img" "$img.notrailer"
	"$tool" -d "$img.notrailer" >/dev/null 2>&1
	t_ok "$what: lsinitrd lists the same archive as without the trailer" \
		diff <(lsi "$img") <(lsi "$img.notrailer")
}

# --- zstd, trailer ----------------------------------------------------
rc=0; t_dracut z.img c.ok --zstd || rc=$?
t_is "$rc" 0 "dracut --zstd with the module succeeds"
[ "$rc" = 0 ] || tail -n 5 "$T_LOG" | sed 's/^/# /'
t_ok "dracut reports the trailer after zstd -15 -q -T0" \
	grep -q "bootconfig: trailer with .*one.bconf .*two.bconf after 'zstd -15 -q -T0'" "$T_LOG"
t_is "$(magic z.img)" 28b52ffd "the image is zstd-compressed"
carries z.img zstd
t_ok "lsinitrd sees a real dracut image (modules.txt lists bootconfig)" \
	has_module z.img
sha=$(t_sha z.img)

rc=0; t_dracut z.img c.ok --zstd || rc=$?
t_is "$rc:$(t_sha z.img)" "0:$sha" "dracut --force again: byte-identical image (one trailer, not two)"
cp z.img z.img.again
"$tool" -d z.img.again >/dev/null 2>&1
t_ok "deleting its trailer once leaves the image without a config (no second trailer)" \
	sh -c "tail -c 12 z.img | grep -qx '#BOOTCONFIG' && ! tail -c 12 z.img.again | grep -qx '#BOOTCONFIG' &&
	       cmp -s z.img.again z.img.notrailer"

# --- invalid config: dracut fails, image untouched --------------------
printf 'kernel.trace_clock = local\n' >bad.bconf
conf c.bad "bootconfig_files+=\" $T_TMP/one.bconf $T_TMP/two.bconf $T_TMP/bad.bconf \""
rc=0; t_dracut z.img c.bad --zstd || rc=$?
t_ok "an invalid config makes dracut fail (exit $rc)" test "$rc" -ne 0
t_ok "dracut's output names the file, line and column" \
	grep -q "^$T_TMP/bad.bconf:1:22: error: Value is redefined" "$T_LOG"
t_is "$(t_sha z.img)" "$sha" "the previous image is byte-identical"
printf 'kernel {\n' >syntax.bconf
conf c.syn "bootconfig_files+=\" $T_TMP/syntax.bconf \""
rc=0; t_dracut z.img c.syn --zstd || rc=$?
t_ok "a syntax error fails too and is located (exit $rc)" \
	grep -q "^$T_TMP/syntax.bconf:1:.*error: " "$T_LOG"
t_is "$(t_sha z.img)" "$sha" "the previous image is still byte-identical"

# --- gzip from the dracut config -------------------------------------
conf c.gz "bootconfig_files+=\" $T_TMP/one.bconf $T_TMP/two.bconf \"" 'compress="gzip"'
rc=0; t_dracut g.img c.gz || rc=$?
t_is "$rc" 0 "compress=\"gzip\" in dracut.conf.d with the module succeeds"
t_is "$(magic g.img | cut -c1-4)" 1f8b "the image is gzip-compressed"
carries g.img gzip

# --- no compression ---------------------------------------------------
rc=0; t_dracut n.img c.ok --no-compress || rc=$?
t_is "$rc" 0 "dracut --no-compress with the module succeeds"
t_is "$(head -c6 n.img)" 070701 "the image is a plain cpio"
carries n.img no-compress

# --- early cpio -------------------------------------------------------
conf c.early "bootconfig_files+=\" $T_TMP/one.bconf $T_TMP/two.bconf \"" 'bootconfig_mode=early'
rc=0; t_dracut e.img c.early --zstd || rc=$?
t_is "$rc" 0 "bootconfig_mode=early succeeds"
t_ok "lsinitrd shows an early cpio with the member" \
	early_lists e.img
t_is "$(cpio -i --quiet --to-stdout kernel/bootconfig/bootconfig.bconf <e.img | t_sha /dev/stdin)" \
	"$(t_sha want.bconf)" "the member is the concatenated text, uncompressed, in the first archive"
t_is "$(/usr/lib/dracut/skipcpio e.img | head -c4 | od -An -tx1 | tr -d ' \n')" 28b52ffd \
	"the main archive after it is zstd-compressed"
t_is "$("$tool" e.img 2>&1)" "" "no trailer in early mode"

# --- module included, nothing configured ------------------------------
conf c.none "# no bootconfig_files"
rc=0; t_dracut x.img c.none --zstd || rc=$?
t_is "$rc:$("$tool" x.img 2>&1)" "0:" "no bootconfig_files: dracut succeeds, image without a bootconfig"
t_ok "and says so" grep -q "no bootconfig_files configured" "$T_LOG"
t_done
