#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make_set.py SRC DEST N [options] - a set directory DEST/1 .. DEST/N made
from the recorded bundle SRC (one with an initcall latency histogram, e.g.
fixtures/bundles/default), each boot's initcall latencies rewritten the
way boots under TCG differ: a whole-boot speed factor, per-initcall noise
and, optionally, a real slowdown of the initcalls matching a regex.
Deterministic for a --seed.  Used by tests/cli.sh to test the diff gate
over sets with numbers no one typed."""
import argparse
import random
import re
import shutil
import sys

HIST = "tracefs/events/synthetic/initcall_latency/hist"
ROW = re.compile(r"^\{ func: \[([0-9a-f]+)\] (\S+)(\s*), lat:\s*(\d+) \} "
                 r"hitcount:\s*(\d+)\s+lat:\s*(\d+)$")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("src")
    ap.add_argument("dest")
    ap.add_argument("n", type=int)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--speed", type=float, default=0.3,
                    help="boot speed factor drawn from 1 +- SPEED")
    ap.add_argument("--noise", type=float, default=0.1,
                    help="per-initcall factor drawn from 1 +- NOISE")
    ap.add_argument("--slow", default=None,
                    help="REGEX:FACTOR multiplies matching initcalls")
    ap.add_argument("--slow-boots", default=None,
                    help="comma-separated boot numbers --slow applies to "
                    "(default all)")
    ap.add_argument("--drop", default=None,
                    help="an initcall left out of every boot")
    o = ap.parse_args()
    rnd = random.Random(o.seed)
    slow_re, slow_f = None, 1.0
    if o.slow:
        pat, f = o.slow.rsplit(":", 1)
        slow_re, slow_f = re.compile(pat), float(f)
    slow_boots = ({int(b) for b in o.slow_boots.split(",")}
                  if o.slow_boots else set(range(1, o.n + 1)))
    matched = 0
    for k in range(1, o.n + 1):
        d = f"{o.dest}/{k}"
        shutil.copytree(o.src, d, symlinks=True)
        speed = 1 + rnd.uniform(-o.speed, o.speed)
        out = []
        with open(f"{d}/{HIST}") as fh:
            for line in fh:
                m = ROW.match(line.rstrip("\n"))
                if not m:
                    out.append(line)
                    continue
                addr, func, pad, lat, hits = m.group(1, 2, 3, 4, 5)
                if func == o.drop:
                    continue
                f = speed * (1 + rnd.uniform(-o.noise, o.noise))
                if slow_re and slow_re.search(func) and k in slow_boots:
                    f *= slow_f
                    matched += 1
                v = max(1, round(int(lat) * f))
                out.append(f"{{ func: [{addr}] {func}{pad}, lat: {v:10d} }}"
                           f" hitcount: {int(hits):10d}  lat: "
                           f"{v * int(hits):10d}\n")
        if o.drop:
            # the totals at the end count rows
            out = [re.sub(r"^(    (Hits|Entries): )(\d+)$",
                          lambda m: f"{m.group(1)}{int(m.group(3)) - 1}",
                          ln.rstrip("\n")) + "\n" for ln in out]
        with open(f"{d}/{HIST}", "w") as fh:
            fh.writelines(out)
    if slow_re and not matched:
        sys.exit(f"make_set.py: --slow {o.slow} matched no initcall")


if __name__ == "__main__":
    main()
