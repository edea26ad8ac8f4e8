#!/bin/bash
# bench/analysis.sh - trace-analysis on a trace.dat of more than a million
# events, against `trace-cmd report >/dev/null` and the cheapest complete
# libtracecmd visit of every record (the floor), in one run; prints times,
# ratios and peak RSS.
set -euo pipefail

BT_TOP=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
export BT_TOP
# shellcheck source=../scripts/lib.sh
. "$BT_TOP/scripts/lib.sh"

usage()
{
	cat <<'USAGE'
usage: bench/analysis.sh [--bundle DIR] [--runs N] [--reboot] [--kernel IMG]

Boots bench/analysis/function.bconf once (the function tracer during boot
into a 40 MiB instance buffer; the bundle is cached in
$BOOTTRACE_CACHE/bench/analysis-function) unless --bundle gives one, then
times, median of N interleaved runs (default 14, in a balanced order):

  trace-analysis   trace-analysis report BUNDLE >/dev/null
  trace-cmd        trace-cmd report -i BUNDLE/trace.dat >/dev/null
  no-op floor      bench/analysis/noop-iterate.c: the cheapest complete
                   visit of every record libtracecmd's API offers: open
                   trace.dat without plugins, read each buffer (top and
                   instances) CPU by CPU with tracecmd_read_cpu_first() and
                   tracecmd_read_data(), count and free each record, close
                   each instance when read

and prints the ratios of the median CPU seconds (user + system, from each
run's rusage: all three are single-threaded and read a file in the page
cache, so on an idle machine that is their wall time, while on a shared
one it leaves out the time spent waiting for a CPU, which wall time does
not; the wall medians are printed too) (targets: trace-cmd /
trace-analysis >= 10,
trace-analysis / floor <= 1.2; exit 1 when one is missed) and each one's
peak RSS, plus trace-analysis's peak RSS on the small recorded initcalls
bundle (memory must stay flat as the trace grows).

libtracecmd 3.1 keeps every decompressed chunk of a compressed trace.dat
until the handle is closed, so all three touch fresh heap for the whole
uncompressed trace.  trace-analysis runs itself with glibc's transparent
huge-page heap (GLIBC_TUNABLES=glibc.malloc.hugetlb=1, src/main.c), and
so does the floor; trace-cmd runs as a user runs it.  Three more rows, not
targets, show what that and the floor leave out: trace-cmd with the same
huge-page heap, the floor's visit on 4 KiB pages (hugetlb=0), and the
time-ordered merge of all buffers (tracecmd_iterate_events_multi(), huge
pages).

options:
  --bundle DIR   use this bundle instead of booting
  --runs N       runs of each (default 14: the balanced design's
                 rounds, in which each program follows each other twice)
  --reboot       boot again even when a cached bundle exists
  --kernel IMG   boot this bzImage (see boottrace boot --kernel)
  -h, --help     this help
USAGE
}

bundle='' runs=14 reboot='' kopt=()
while [ $# -gt 0 ]; do
	case "$1" in
	-h | --help) usage; exit 0 ;;
	--bundle) [ $# -ge 2 ] || bt_die "--bundle needs a directory"; bundle=$2; shift ;;
	--runs) [ $# -ge 2 ] || bt_die "--runs needs a number"; runs=$2; shift ;;
	--reboot) reboot=1 ;;
	--kernel) [ $# -ge 2 ] || bt_die "--kernel needs a bzImage"; kopt=(--kernel "$2"); shift ;;
	*) bt_die "unknown argument '$1' (see --help)" ;;
	esac
	shift
done
case "$runs" in "" | *[!0-9]* | 0) bt_die "--runs takes a positive number" ;; esac

bt_need_pkgs trace-cmd python3 libtracecmd-dev libtraceevent-dev pkg-config gcc
make -s -C "$BT_TOP/trace-analysis" >&2
ta=$BT_TOP/trace-analysis/build/trace-analysis

if [ -z "$bundle" ]; then
	bundle=$(bt_cache_dir)/bench/analysis-function
	if [ -n "$reboot" ] || [ ! -s "$bundle/trace.dat" ]; then
		mkdir -p "$(dirname "$bundle")"
		bt_log "booting bench/analysis/function.bconf (once; cached in $bundle)"
		"$BT_TOP/bin/boottrace" boot "$BT_TOP/bench/analysis/function.bconf" \
			--timeout 900 -o "$bundle" "${kopt[@]}" >&2
	fi
fi
[ -s "$bundle/trace.dat" ] || bt_die "$bundle: no trace.dat"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck disable=SC2046 # pkg-config output is a word list
gcc -std=gnu11 -O2 -Wall -Wextra -Werror $(pkg-config --cflags libtracecmd) \
	-o "$tmp/noop" "$BT_TOP/bench/analysis/noop-iterate.c" \
	$(pkg-config --libs libtracecmd libtraceevent)

# the floor on the heap trace-analysis gives itself
hp=GLIBC_TUNABLES=glibc.malloc.hugetlb=1
records=$("$tmp/noop" "$bundle/trace.dat" | awk '{ print $1 }')
bt_log "trace.dat: $records records, $(du -h "$bundle/trace.dat" | cut -f1)"
[ "$records" -ge 2000000 ] ||
	bt_log "warning: fewer than 2M records; the targets assume at least 2M"

# once NAME CMD...: one run, "CPU-seconds wall-seconds peak-RSS-KiB"
# appended to res.NAME (the child's rusage, to the microsecond)
once()
{
	local name=$1
	shift
	python3 -c '
import os, sys, time
t = time.monotonic()
pid = os.fork()
if pid == 0:
    os.dup2(os.open("/dev/null", os.O_WRONLY), 1)
    os.execvp(sys.argv[1], sys.argv[1:])
_, status, ru = os.wait4(pid, 0)
print("%.4f %.4f %d" % (ru.ru_utime + ru.ru_stime, time.monotonic() - t,
                        ru.ru_maxrss))
sys.exit(os.waitstatus_to_exitcode(status))' "$@" >>"$tmp/res.$name" 2>"$tmp/err" ||
		bt_die "$name failed: $(tail -n3 "$tmp/err")"
}

# median NAME: median CPU seconds, median wall seconds, largest peak RSS
median()
{
	local k=$(((runs + 1) / 2))

	echo "$(cut -d' ' -f1 "$tmp/res.$1" | sort -n | sed -n "${k}p")" \
		"$(cut -d' ' -f2 "$tmp/res.$1" | sort -n | sed -n "${k}p")" \
		"$(cut -d' ' -f3 "$tmp/res.$1" | sort -n | tail -n1)"
}

# The runs are interleaved so that a change of the machine's load hits all
# of them alike (the host is shared), in a Williams design: round k runs
# the programs in the order w[j] + k (mod 7) for rounds 0-6 and the same
# orders reversed for rounds 7-13, where w = 0 1 6 2 5 3 4, so over 14
# rounds every program runs right after every other one exactly twice.  A
# run's cost depends on what ran before it: right after trace-cmd (70 MB
# of freed 4 KiB pages) the floor takes 0.31 CPU s and trace-analysis 0.33,
# after each other 0.22 and 0.24 (2026-12-05, idle host), so a fixed order
# (or a rotation of one, which keeps who follows whom) measures positions,
# not programs.
small=$BT_TOP/trace-analysis/tests/fixtures/bundles/initcalls
names=(ta noop tc tchp small noop4k merged)
w=(0 1 6 2 5 3 4)
# one_of NAME: one run of that program
one_of()
{
	case "$1" in
	ta) once ta "$ta" report "$bundle" ;;
	noop) once noop env "$hp" "$tmp/noop" "$bundle/trace.dat" ;;
	tc) once tc trace-cmd report -i "$bundle/trace.dat" ;;
	tchp) once tchp env "$hp" trace-cmd report -i "$bundle/trace.dat" ;;
	small) once small "$ta" report "$small" ;;
	noop4k) once noop4k env GLIBC_TUNABLES=glibc.malloc.hugetlb=0 "$tmp/noop" "$bundle/trace.dat" ;;
	merged) once merged env "$hp" "$tmp/noop" --merged "$bundle/trace.dat" ;;
	esac
}
load0=$(uptime | sed 's/.*load average: //')
np=${#names[@]}
for ((i = 0; i < runs; i++)); do
	k=$((i % (2 * np)))
	for ((j = 0; j < np; j++)); do
		if ((k < np)); then
			x=${w[j]}
		else
			x=${w[np - 1 - j]}
		fi
		one_of "${names[(x + k) % np]}"
	done
done
read -r t_ta w_ta m_ta < <(median ta)
read -r t_tc w_tc m_tc < <(median tc)
read -r t_th w_th m_th < <(median tchp)
read -r t_no w_no m_no < <(median noop)
read -r t_sm w_sm m_sm < <(median small)
read -r t_4k w_4k m_4k < <(median noop4k)
read -r t_mg w_mg m_mg < <(median merged)

echo "load average (1, 5, 15 min): $load0 before, $(uptime | sed 's/.*load average: //') after"
printf '%-22s %10s %10s %12s\n' "" "CPU s" "wall s" "peak RSS KiB"
printf '%-22s %10s %10s %12s\n' "trace-analysis" "$t_ta" "$w_ta" "$m_ta" \
	"trace-cmd" "$t_tc" "$w_tc" "$m_tc" "  trace-cmd, huge pages" "$t_th" "$w_th" "$m_th" \
	"no-op floor" "$t_no" "$w_no" "$m_no" \
	"  floor, 4 KiB pages" "$t_4k" "$w_4k" "$m_4k" \
	"  floor, merged" "$t_mg" "$w_mg" "$m_mg"
printf '%-22s %10s %10s %12s   (%s records, small bundle)\n' "trace-analysis" \
	"$t_sm" "$w_sm" "$m_sm" \
	"$("$tmp/noop" "$small/trace.dat" | awk '{ print $1 }')"
awk -v ta="$t_ta" -v tc="$t_tc" -v no="$t_no" -v n="$records" \
	-v mta="$m_ta" -v mno="$m_no" 'BEGIN {
	if (ta <= 0) ta = 0.001; if (no <= 0) no = 0.001
	miss = 0
	printf "records: %d\n", n
	# parenthesised: a bare > in a printf argument list is a redirection
	fast = (tc / ta >= 10); floor = (ta / no <= 1.2)
	printf "trace-cmd report / trace-analysis: %.1fx (target >= 10)%s\n", tc / ta,
		(fast ? "" : "  MISSED")
	printf "trace-analysis / no-op floor:      %.2fx (target <= 1.2)%s\n", ta / no,
		(floor ? "" : "  MISSED")
	printf "peak RSS above the floor:          %d KiB (the rest is libtracecmd\047s)\n", mta - mno
	exit ((fast && floor) ? 0 : 1)
}'
