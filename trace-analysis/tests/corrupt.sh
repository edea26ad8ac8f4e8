#!/bin/bash
# tests/corrupt.sh BINARY - `report` on copies of the fixture bundles with
# one byte of trace.dat changed: it must never crash.  libtracecmd 3.1.6
# crashes on some such files (src/guard.c says where), so every flip must
# end in a report (exit 0 or 1) or in an error that names the bundle's
# trace.dat (exit 2).  A report whose record count is not the intact
# file's must not show the intact file's losses: libtracecmd reads some
# damaged files without an error and loses or makes up records, which
# the stats' entries tell (README.md, Data loss).  The flips: each offset at which `report` crashed
# before src/guard.c (found by changing 2000 random bytes of initcalls'
# trace.dat, 1000 of failures' and every byte of initcalls' option
# sections three ways), then a seeded sample.  Last line: "N passed, N
# failed".
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
bin=$(readlink -f "${1:?usage: corrupt.sh BINARY}")
fx=$here/fixtures/bundles

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0

ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL $1"; }

# The damaged file's lengths reach libtracecmd's malloc(): glibc refuses
# the absurd ones and libtracecmd fails cleanly, where ASan would abort;
# and libtracecmd leaks on its error paths (not ours to free).
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}allocator_may_return_null=1
export LSAN_OPTIONS=suppressions=$here/lsan-corrupt.supp
crash='ERROR: AddressSanitizer|ERROR: LeakSanitizer|runtime error'

# records_lost: "RECORDS|LOST" from the header of the report in $tmp/out
records_lost()
{
	local r l

	r=$(sed -n 's/^trace\.dat   \([0-9]*\) records.*/\1/p' "$tmp/out")
	l=$(sed -n 's/^lost        //p' "$tmp/out")
	echo "$r|$l"
}

declare -A intact
for b in initcalls failures; do
	cp -r "$fx/$b" "$tmp/$b"
	"$bin" report "$tmp/$b" >"$tmp/out" 2>/dev/null || true
	intact[$b]=$(records_lost)
done

# flip BUNDLE OFFSET XOR: report on BUNDLE with that byte of trace.dat
# XORed; $tmp/out, $tmp/err
flip()
{
	local b=$1 off=$2 x=$3 rc=0 v now
	local what="$b: byte $off of trace.dat ^ $x"

	cp "$fx/$b/trace.dat" "$tmp/$b/trace.dat"
	v=$(od -An -tu1 -j "$off" -N1 "$tmp/$b/trace.dat")
	# shellcheck disable=SC2059 # the byte, as an octal escape
	printf "\\$(printf %03o $((v ^ x)))" |
		dd of="$tmp/$b/trace.dat" bs=1 seek="$off" conv=notrunc status=none
	"$bin" report "$tmp/$b" >"$tmp/out" 2>"$tmp/err" || rc=$?
	if [ "$rc" -ge 128 ] || grep -qE "$crash" "$tmp/err"; then
		bad "$what: crashed (exit $rc)"
		sed 's/^/    /' "$tmp/err" | head -5
	elif [ "$rc" = 2 ]; then
		if grep -qF "trace-analysis: $tmp/$b: trace.dat: " "$tmp/err"; then
			ok
		else
			bad "$what: exit 2 without a message naming trace.dat"
			sed 's/^/    /' "$tmp/err" | head -5
		fi
	elif [ "$rc" = 0 ] || [ "$rc" = 1 ]; then
		now=$(records_lost)
		if [ "${now%%|*}" != "${intact[$b]%%|*}" ] &&
			[ "${now#*|}" = "${intact[$b]#*|}" ]; then
			bad "$what: ${now%%|*} records, not ${intact[$b]%%|*}, and still lost ${now#*|}"
		else
			ok
		fi
	else
		bad "$what: exit $rc"
	fi
}

# where report crashed: CPU data (the chunk tables), the event formats
# (libtraceevent), the options (CPU count, the buffer's CPU offsets),
# an instance's CPU data (failures: instance tiny)
n=0
while read -r b off x; do
	flip "$b" "$off" "$x"
	n=$((n + 1))
done <<'EOF'
initcalls 352256 255
initcalls 346841 145
initcalls 346885 108
initcalls 346952 185
initcalls 347280 18
initcalls 347429 9
initcalls 347629 124
initcalls 348261 33
initcalls 348412 159
initcalls 348781 45
initcalls 349093 96
initcalls 349153 100
initcalls 28327 79
initcalls 338837 255
initcalls 338838 1
initcalls 339408 1
initcalls 371028 255
initcalls 371030 1
initcalls 371056 255
initcalls 371063 255
initcalls 371071 1
initcalls 371076 255
initcalls 371083 128
initcalls 371091 1
failures 345340 148
failures 345445 57
failures 353790 237
failures 353890 161
failures 354092 210
failures 354131 129
EOF
echo "$n flips at offsets where report crashed: $failed failed"

# a seeded sample: 40 bytes of initcalls', 20 of failures' (an LCG, the
# same flips on every machine: 150 of them were checked when this was
# written, and the offsets that crashed are listed above); a third of
# that under ASan, whose runs take five times as long
seed=20261207
next() { seed=$(((seed * 1103515245 + 12345) % 2147483648)); }
f0=$failed
div=1
case "$bin" in */asan/*) div=3 ;; esac
sampled=0
for b in initcalls failures; do
	size=$(stat -c %s "$fx/$b/trace.dat")
	count=$((40 / div))
	[ "$b" = initcalls ] || count=$((20 / div))
	sampled=$((sampled + count))
	for ((i = 0; i < count; i++)); do
		next
		off=$((seed % size))
		next
		flip "$b" "$off" $((seed % 255 + 1))
	done
done
echo "$sampled flips of a seeded sample: $((failed - f0)) failed"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
