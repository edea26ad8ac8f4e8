#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""perfetto_check.py FILE MIN_SLICES - the structure of a Chrome trace JSON
that trace-analysis report --perfetto wrote: every pid >= 1, slices on a
track nest or are disjoint, at least MIN_SLICES initcall slices, no named
process or track without events, numbers where numbers belong.  Prints
what is wrong and exits 1."""
import collections
import json
import sys


def main():
    path, min_slices = sys.argv[1], int(sys.argv[2])
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    errs = []
    evs = doc["traceEvents"]
    tracks = collections.defaultdict(list)
    named_proc, named_thread, used_proc, used_thread = set(), set(), set(), set()
    for e in evs:
        pid = e.get("pid")
        if not isinstance(pid, int) or pid < 1:
            errs.append("pid %r: not >= 1 in %s" % (pid, e))
            continue
        if e["ph"] == "M":
            if e["name"] == "process_name":
                named_proc.add(pid)
            elif e["name"] == "thread_name":
                named_thread.add((pid, e["tid"]))
            continue
        if not isinstance(e["ts"], (int, float)):
            errs.append("ts not a number: %s" % e)
        used_proc.add(pid)
        used_thread.add((pid, e["tid"]))
        if e["ph"] == "X":
            if not isinstance(e["dur"], (int, float)) or e["dur"] < 0:
                errs.append("bad dur: %s" % e)
            tracks[(pid, e["tid"])].append((e["ts"], e["ts"] + e["dur"], e["name"]))
    for p in sorted(named_proc - used_proc):
        errs.append("process %d is named but has no events" % p)
    for t in sorted(named_thread - used_thread):
        errs.append("track %s is named but has no events" % (t,))
    for key, sl in tracks.items():
        sl.sort(key=lambda s: (s[0], -s[1]))
        stack = []
        for b, e, name in sl:
            while stack and stack[-1][1] <= b + 1e-6:
                stack.pop()
            if stack and e > stack[-1][1] + 1e-3:
                errs.append("track %s: %s [%.3f, %.3f] overlaps %s [%.3f, %.3f] without nesting"
                            % (key, name, b, e, stack[-1][2], stack[-1][0], stack[-1][1]))
            stack.append((b, e, name))
    n = sum(1 for e in evs if e["ph"] == "X" and e.get("cat") == "initcall")
    if n < min_slices:
        errs.append("%d initcall slices, want at least %d" % (n, min_slices))
    for e in errs[:20]:
        print(e)
    sys.exit(1 if errs else 0)


main()
