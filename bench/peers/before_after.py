#!/usr/bin/env python3
"""Before/after timing of two memprof-oracle binaries beside the real memtrace 0.2.3.

Called by run.sh when BASE=PATH names an earlier build (the "before"). For the `copy`
row of every trace and the start-up row it runs rounds of three whole processes, the
new binary, the base binary and the real program, rotating which goes first, so that
load from other processes falls on all three alike; it reports the medians of the
per-round ratios new/real, base/real and new/base. Copies are first compared byte for
byte (new, base and real must write identical files). Timing and process start (posix_spawn) as pairs.py.

usage: before_after.py --ours BIN --base BIN --peers DIR --work DIR --pairs N
                       --trace LABEL=PATH [--trace ...] --tiny PATH
"""

import argparse
import os
import sys

from pairs import MAX_PAIRS, SHORT_ROW_S, fmt_s, median, run_once, same_files


def time_rounds(cmds, rounds, log):
    """Rotating rounds of the commands after one untimed warm-up each; returns one list of
    wall times per command, or None when a run failed."""
    warm = 0.0
    for argv in cmds:
        wall, _, code, _ = run_once(argv)
        warm += wall
        if code != 0:
            log(f"  warm-up failed (exit {code}): {' '.join(argv)}")
            return None
    if warm > 0:
        rounds = max(rounds, min(MAX_PAIRS, int(SHORT_ROW_S / warm)))
    runs = [[] for _ in cmds]
    for i in range(rounds):
        for k in range(len(cmds)):
            j = (i + k) % len(cmds)
            wall, _, code, _ = run_once(cmds[j])
            if code != 0:
                log(f"  run failed (exit {code}): {' '.join(cmds[j])}")
                return None
            runs[j].append(wall)
    return runs


def ratio(a, b):
    return median([x / y for x, y in zip(a, b) if y > 0])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ours", required=True)
    ap.add_argument("--base", required=True)
    ap.add_argument("--peers", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--pairs", type=int, default=7)
    ap.add_argument("--trace", action="append", default=[])
    ap.add_argument("--tiny", required=True)
    a = ap.parse_args()

    def log(msg):
        print(msg, file=sys.stderr, flush=True)

    rows = []

    def compare(label, what, new, base, real):
        res = time_rounds([new, base, real], a.pairs, log)
        if res is None:
            log(f"{label}: {what}: FAILED, left out of the table")
            return
        n, b, r = res
        rows.append((label, what, ratio(n, r), ratio(b, r), ratio(n, b), len(n),
                     median(n), median(b), median(r)))
        log(f"{label}: {what}: done")

    copy = os.path.join(a.peers, "decode_encode")
    for label, path in (t.split("=", 1) for t in a.trace):
        outs = [os.path.join(a.work, f"copy-{side}.ctf") for side in ("new", "base", "real")]
        cmds = [[a.ours, "memtrace", "copy", path, outs[0], "--format-version", "2"],
                [a.base, "memtrace", "copy", path, outs[1], "--format-version", "2"],
                [copy, path, outs[2]]]
        if (all(run_once(c)[2] == 0 for c in cmds) and same_files(outs[0], outs[2])
                and same_files(outs[1], outs[2])):
            compare(label, "`memtrace copy --format-version 2` vs decode + encode", *cmds)
        else:
            log(f"{label}: copies differ (or one failed); not timed")
        for f in outs:
            if os.path.exists(f):
                os.remove(f)
    bare = os.path.join(a.peers, "decode_bare")
    compare("empty trace (start-up)", "`memtrace check` vs bare decode",
            [a.ours, "memtrace", "check", a.tiny], [a.base, "memtrace", "check", a.tiny],
            [bare, a.tiny])

    print("| trace | ours vs real | after/real | before/real | after/before | rounds |"
          " after (median) | before (median) | real (median) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for label, what, nr, br, nb, k, n, b, r in rows:
        print(f"| {label} | {what} | **{nr:.2f}** | {br:.2f} | {nb:.2f} | {k} | {fmt_s(n)} |"
              f" {fmt_s(b)} | {fmt_s(r)} |")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
