#!/usr/bin/env python3
"""Alternating whole-process timing of memprof-oracle against the real memtrace 0.2.3.

Called by run.sh, which builds both sides and prepares the traces. For every trace and
every comparison it first checks that both sides agree (identical dump text, identical
copied bytes), then runs PAIRS pairs of whole processes, alternating which side goes
first so that a frequency ramp or a burst of load from other processes falls on both
sides alike (rows whose runs take milliseconds get more pairs, see MAX_PAIRS), and reports the median of the per-pair ratios ours/real next to each
side's median wall time and peak RSS.

Wall time is measured around posix_spawn/wait of the program itself (no shell or other
process in between). posix_spawn costs about what a shell's fork and exec cost (0.7-0.9 ms
for /bin/true here); a fork of this Python process cost 2.5 ms, on both sides alike, which
weighed most on the shorter side's ratio (runs before 26 Nov 2026 19:00 UTC used fork;
BENCH_START=fork still does).
Peak RSS is measured in separate runs under `/usr/bin/time -f %M`: Linux carries a
process's RSS high-water mark across exec, so a child started from this
Python process would report at least Python's own ~11 MB; time(1) is a small C program,
so its floor is about 1.5 MB. Without /usr/bin/time the wait4 figure is used instead
and the table says so. CPU time (user + system, from wait4) is reported beside the wall
time: a side's wall time also holds what it waits for, such as `copy`'s fsync of its
output before the rename, which the real writer does not do.

usage: pairs.py --ours BIN --peers DIR --dump-trace EXE --work DIR --pairs N
                --trace LABEL=PATH [--trace ...] --tiny PATH
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time


# BENCH_START=fork: start processes as runs before 26 Nov 2026 19:00 UTC did, to compare.
FORK = os.environ.get("BENCH_START") == "fork"


def run_once(argv, stdout_path=os.devnull):
    """Runs argv to completion; returns (wall seconds, peak RSS in KiB, exit code, CPU
    seconds: user + system)."""
    with open(stdout_path, "wb") as out, open(os.devnull, "wb") as err:
        start = time.monotonic()
        if FORK:
            pid = os.fork()
            if pid == 0:
                try:
                    os.dup2(out.fileno(), 1)
                    os.dup2(err.fileno(), 2)
                    os.execv(argv[0], argv)
                finally:
                    os._exit(127)
        else:
            try:
                pid = os.posix_spawn(argv[0], argv, os.environ,
                                     file_actions=[(os.POSIX_SPAWN_DUP2, out.fileno(), 1),
                                                   (os.POSIX_SPAWN_DUP2, err.fileno(), 2)])
            except OSError as e:
                # A program that cannot be started fails as under a shell (exit 127),
                # and the caller reports the row as failed, as the fork mode did.
                print(f"  cannot start {argv[0]}: {e.strerror}", file=sys.stderr, flush=True)
                return time.monotonic() - start, 0, 127, 0.0
        _, status, usage = os.wait4(pid, 0)
        wall = time.monotonic() - start
    return (wall, usage.ru_maxrss, os.waitstatus_to_exitcode(status),
            usage.ru_utime + usage.ru_stime)


TIME = "/usr/bin/time"


def peak_rss_kib(argv):
    """Peak RSS in KiB of one run of argv (see the module comment for how)."""
    if not os.access(TIME, os.X_OK):
        return run_once(argv)[1]
    with tempfile.NamedTemporaryFile("r") as report:
        code = subprocess.run([TIME, "-f", "%M", "-o", report.name] + argv,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
        lines = report.read().split()
    return int(lines[-1]) if code == 0 and lines else float("nan")


def same_output(a, b):
    """True when the two commands print byte-identical stdout (compared by cmp, streamed,
    so a dump of hundreds of megabytes never sits in memory or on disk)."""
    pa = subprocess.Popen(a, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    pb = subprocess.Popen(b, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    cmp = subprocess.run(["cmp", "-s", f"/dev/fd/{pa.stdout.fileno()}",
                          f"/dev/fd/{pb.stdout.fileno()}"],
                         pass_fds=(pa.stdout.fileno(), pb.stdout.fileno()))
    pa.stdout.close()
    pb.stdout.close()
    if cmp.returncode != 0:
        pa.kill()
        pb.kill()
    codes = (pa.wait(), pb.wait())
    return cmp.returncode == 0 and codes == (0, 0)


def same_files(a, b):
    return subprocess.run(["cmp", "-s", a, b]).returncode == 0


def median(xs):
    return statistics.median(xs) if xs else float("nan")


COLUMNS = (
    ("check", "`memtrace check` vs bare decode"),
    ("check_locs", "`memtrace check` vs decode + location lookups"),
    ("dump", "`memtrace dump` vs `dump_trace`"),
    ("copy", "`memtrace copy --format-version 2` vs decode + encode"),
)


class Table:
    """Collects one row per (trace, comparison); prints the details and a summary of the
    ratios as Markdown."""

    def __init__(self):
        self.rows = []

    def add(self, trace, key, ours, real, ours_cpu, real_cpu, ours_rss, real_rss, note):
        ratios = [o / r for o, r in zip(ours, real) if r > 0]
        # CPU times come in scheduler ticks on some kernels (0 for a short run), so the
        # ratio is of the totals over the pairs, not a median of per-pair ratios.
        cpu_ratio = sum(ours_cpu) / sum(real_cpu) if sum(real_cpu) > 0 else float("nan")
        self.rows.append(dict(trace=trace, key=key, pairs=len(ratios), ratio=median(ratios),
                              cpu_ratio=cpu_ratio,
                              lo=min(ratios),
                              hi=max(ratios), ours=median(ours), real=median(real),
                              ours_rss=ours_rss, real_rss=real_rss, note=note))

    def print(self):
        names = dict(COLUMNS)
        print("| trace | ours vs real | ratio ours/real (median of pairs) | range of pairs |"
              " CPU ratio (user+sys, total of the pairs) |"
              " pairs | ours (median) | real (median) | ours peak RSS | real peak RSS |"
              " agreement |")
        print("|---|---|---|---|---|---|---|---|---|---|---|")
        for r in self.rows:
            print(f"| {r['trace']} | {names[r['key']]} | **{r['ratio']:.2f}** |"
                  f" {r['lo']:.2f}-{r['hi']:.2f} | {r['cpu_ratio']:.2f} | {r['pairs']} |"
                  f" {fmt_s(r['ours'])} |"
                  f" {fmt_s(r['real'])} |"
                  f" {fmt_mb(r['ours_rss'])} | {fmt_mb(r['real_rss'])} | {r['note']} |")
        print()
        if os.access(TIME, os.X_OK):
            print("Peak RSS: /usr/bin/time -f %M, one run per side (floor about 1.5 MB).")
        else:
            print("Peak RSS: wait4 of the timed runs (no /usr/bin/time), which includes"
                  " this Python process's own ~11 MB as a floor.")
        print()
        print("Summary, ratio ours/real (below 1: memprof-oracle is faster):")
        print()
        print("| trace | " + " | ".join(name for _, name in COLUMNS) + " |")
        print("|---|" + "---|" * len(COLUMNS))
        traces = list(dict.fromkeys(r["trace"] for r in self.rows))
        for t in traces:
            cells = []
            for key, _ in COLUMNS:
                hit = [r for r in self.rows if r["trace"] == t and r["key"] == key]
                cells.append(f"{hit[0]['ratio']:.2f}" if hit else "-")
            print(f"| {t} | " + " | ".join(cells) + " |")
        sys.stdout.flush()


def fmt_s(seconds):
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def fmt_mb(kib):
    return f"{kib / 1024:.1f} MB"


# Short runs get more pairs, up to this many, so that each row takes about SHORT_ROW_S
# seconds: on a busy machine a few-millisecond run is at the mercy of the scheduler, and
# more pairs cost little there.
MAX_PAIRS = 41
SHORT_ROW_S = 2.0


def time_pairs(ours, real, pairs, log):
    """Alternating pairs after one untimed warm-up run of each side (page cache, lazy
    binding); returns the lists of wall times and of CPU times of each side, or None
    when a run failed."""
    warm = 0.0
    for argv in (ours, real):
        wall, _, code, _ = run_once(argv)
        warm += wall
        if code != 0:
            log(f"  warm-up failed (exit {code}): {' '.join(argv)}")
            return None
    if warm > 0:
        pairs = max(pairs, min(MAX_PAIRS, int(SHORT_ROW_S / warm)))
    ours_runs, real_runs, ours_cpu, real_cpu = [], [], [], []
    for i in range(pairs):
        order = ((ours, ours_runs, ours_cpu), (real, real_runs, real_cpu))
        if i % 2 == 1:
            order = order[::-1]
        for argv, runs, cpus in order:
            wall, _, code, cpu = run_once(argv)
            if code != 0:
                log(f"  run failed (exit {code}): {' '.join(argv)}")
                return None
            runs.append(wall)
            cpus.append(cpu)
    return ours_runs, real_runs, ours_cpu, real_cpu


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ours", required=True)
    ap.add_argument("--peers", required=True, help="folder of conformance/peers programs")
    ap.add_argument("--dump-trace", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--pairs", type=int, default=7)
    ap.add_argument("--trace", action="append", default=[])
    ap.add_argument("--tiny", required=True)
    a = ap.parse_args()

    def log(msg):
        print(msg, file=sys.stderr, flush=True)

    bare = os.path.join(a.peers, "decode_bare")
    locs = os.path.join(a.peers, "decode_locations")
    copy = os.path.join(a.peers, "decode_encode")
    table = Table()

    def compare(label, key, ours, real, note):
        started = time.monotonic()
        res = time_pairs(ours, real, a.pairs, log)
        if res is None:
            log(f"{label}: {key}: FAILED, left out of the table")
            return
        table.add(label, key, res[0], res[1], res[2], res[3], peak_rss_kib(ours),
                  peak_rss_kib(real), note)
        log(f"{label}: {key}: done in {time.monotonic() - started:.0f} s")

    traces = [t.split("=", 1) for t in a.trace]
    for label, path in traces:
        compare(label, "check", [a.ours, "memtrace", "check", path], [bare, path], "both accept")
        compare(label, "check_locs", [a.ours, "memtrace", "check", path], [locs, path],
                "both accept")

        ours = [a.ours, "memtrace", "dump", path]
        real = [a.dump_trace, path]
        if same_output(ours, real):
            compare(label, "dump", ours, real, "identical text")
        else:
            log(f"{label}: dump text DIFFERS from dump_trace's; not timed")

        out_ours = os.path.join(a.work, "copy-ours.ctf")
        out_real = os.path.join(a.work, "copy-real.ctf")
        ours = [a.ours, "memtrace", "copy", path, out_ours, "--format-version", "2"]
        real = [copy, path, out_real]
        if run_once(ours)[2] == 0 and run_once(real)[2] == 0 and same_files(out_ours, out_real):
            compare(label, "copy", ours, real, "identical bytes")
        else:
            log(f"{label}: copies differ (or one failed); not timed")
        for f in (out_ours, out_real):
            if os.path.exists(f):
                os.remove(f)

    compare("empty trace (start-up)", "check", [a.ours, "memtrace", "check", a.tiny],
            [bare, a.tiny], "both accept")
    table.print()


if __name__ == "__main__":
    main()
