#!/usr/bin/env bash
# Liveness on the command line: `stats` prints the peak of the live heap and its time;
# `leaks`, `stats`, `folded` and `compare` with --live-at end|peak|SECONDS the blocks live
# then, each checked against a model computed here from the golden oracle dump or
# memtrace's own text dump (live at T: allocated at or before T, not
# collected at or before T; the peak: the largest value of that step function, first
# reached). Bad --live-at values are usage errors naming the option; a damaged trace
# still gives the figures of what precedes the damage.
set -euo pipefail
source tools/cli_test_lib.sh
bin="$1"
T=testdata/memtrace
v2=$T/arrays_major.ocaml5.3.native.r1e-3
v3=$T/rate_one.ocaml5.3.memtrace-head.r1

model="$tmp/model.py"
cat >"$model" <<'PY'
import json, sys

def load(path):
    info, evs = {}, []
    for line in open(path, encoding="utf-8", errors="replace"):
        p = line.split()
        if line.startswith("info.sample_rate"): info["rate"] = float(p[1])
        elif line.startswith("info.word_size"): info["ws"] = int(p[1])
        elif p and p[0] == "ev":
            f = dict(x.split("=", 1) for x in p[2:] if "=" in x)
            kind = [x for x in p[2:] if x in ("alloc", "promote", "collect")][0]
            evs.append((int(f["dt"]), kind, int(f["id"]), int(f.get("nsamples", 0))))
    return info, evs

def live_at(evs, t, lo, hi):
    """(heap samples, heap blocks, window samples, window blocks) live at t."""
    alloc, dead = {}, set()
    for dt, kind, i, ns in evs:
        if kind == "alloc" and dt <= t: alloc[i] = (ns, lo <= dt <= hi)
        if kind == "collect" and dt <= t: dead.add(i)
    live = [v for i, v in alloc.items() if i not in dead]
    return (sum(ns for ns, _ in live), len(live),
            sum(ns for ns, w in live if w), sum(1 for _, w in live if w))

def peak(evs):
    """The step function's maximum (its value after every event at a time) and its time."""
    sizes, cur, best, when = {}, 0, 0, None
    for k, (dt, kind, i, ns) in enumerate(evs):
        if kind == "alloc": sizes[i] = ns; cur += ns
        elif kind == "collect" and i in sizes: cur -= sizes.pop(i)
        last_of_step = k + 1 == len(evs) or evs[k + 1][0] != dt
        if last_of_step and cur > best: best, when = cur, dt
    return best, when

what, dump, doc = sys.argv[1], sys.argv[2], json.load(open(sys.argv[3]))
info, evs = load(dump)
per = 1 / info["rate"] * info["ws"] / 8
best, when = peak(evs)
end = max(dt for dt, *_ in evs)
if what == "stats":
    p = doc["peak"]
    assert p["t_s"] == when / 1e6 and p["samples"] == best, (p, best, when)
    assert p["est_bytes"] == best * per
    # No step of the timeline hides the peak.
    assert max(x["max_est_bytes"] for x in doc["timeline"]) == best * per, doc["timeline"]
    for x in doc["timeline"]:
        assert x["min_est_bytes"] <= x["live_est_bytes"] <= x["max_est_bytes"], x
    assert doc["timeline"][-1]["t_s"] == end / 1e6
else:
    at, lo, hi = sys.argv[4], float(sys.argv[5]) * 1e6, float(sys.argv[6]) * 1e6
    t = end if at == "end" else when if at == "peak" else round(float(at) * 1e6)
    heap_s, heap_b, win_s, win_b = live_at(evs, t, lo, hi)
    la = doc["live_at"]
    assert la["at"] == {"end": "end", "peak": "peak"}.get(at, "time"), la
    assert la["t_s"] == t / 1e6, (la, t)
    assert (la["heap"]["samples"], la["heap"]["blocks"]) == (heap_s, heap_b), (la, heap_s, heap_b)
    assert (doc["live"]["samples"], doc["live"]["blocks"]) == (win_s, win_b), (doc["live"], win_s)
    if at == "peak": assert heap_s == best
    print(at, "heap", heap_s, "window", win_s)
PY

# Each trace with times inside it (v2 lasts 24.75 ms, v3 0.858 ms) and a window.
for case in "$v2 0.0123 0.005_0.015" "$v3 0.000555 0.0002_0.0006"; do
  set -- $case
  tr=$1 time=$2 win=${3/_/ }
  check "stats --json: peak ($tr)" 0 "$bin" memtrace stats --json $tr.ctf
  python3 "$model" stats $tr.oracle_dump.txt "$out" || fail "stats peak disagrees with the model ($tr)"
  for at in end peak $time; do
    for window in "0 1e9" "$win"; do
      set -- $window
      check "leaks --live-at $at --from $1 --to $2 ($tr)" 0 \
        "$bin" memtrace leaks --json --top 1000 --live-at $at --from $1 --to $2 $tr.ctf
      python3 "$model" leaks $tr.oracle_dump.txt "$out" $at $1 $2 >/dev/null ||
        fail "leaks --live-at $at [$1, $2] disagrees with the model ($tr)"
    done
  done
done

check "stats text: the peak" 0 "$bin" memtrace stats $v2.ctf
grep -Eq '^peak live heap: est\. [0-9.]+ [KM]iB at 0\.[0-9]{6} s \([0-9]+ blocks\)$' "$out" ||
  { fail "stats peak line"; cat "$out"; }
grep -Eq '^lifetimes \(collected objects\): mean [0-9.]+ (us|ms), median [0-9.]+ (us|ms)' "$out" ||
  { fail "stats lifetimes in human units"; cat "$out"; }
check "leaks text --live-at peak" 0 "$bin" memtrace leaks --live-at peak $v2.ctf
head -1 "$out" | grep -Eq ' allocated and still live at the peak \(0\.[0-9]{6} s\), at [0-9]+ sites$' ||
  { fail "leaks peak headline"; cat "$out"; }
check "leaks text --live-at 0.01" 0 "$bin" memtrace leaks --live-at 0.01 $v2.ctf
head -1 "$out" | grep -q ' allocated and still live at 0.010000 s, at ' || { fail "leaks T headline"; cat "$out"; }

# `stats`, `folded` and `compare` with --live-at: the sites table, the stacks and A's side
# of the comparison are those of the blocks live at T, checked against a model of
# memtrace's own text dump of the trace (each alloc line's backtrace, innermost last).
live_model="$tmp/live_model.py"
cat >"$live_model" <<'PY'
import collections, json, re, sys
tracer = re.compile(r"^Memtrace(__|\.)Memprof_tracer\.ext_alloc(_slowpath)?@")
def load(path):
    evs = []
    for line in open(path, encoding="utf-8", errors="replace"):
        p = line.split()
        if len(p) < 3: continue
        dt, i, kind = int(p[0]), int(p[1]), p[2]
        if kind.startswith("alloc"):
            frames = [f for f in p[6:] if "@" in f]
            if kind == "alloc_ext":
                while len(frames) > 1 and tracer.match(frames[-1]): frames.pop()
            evs.append((dt, "alloc", i, int(p[3]), frames))
        elif kind == "collect":
            evs.append((dt, "collect", i, 0, None))
    return evs
def live(evs, t, lo, hi):
    alloc, dead = {}, set()
    for dt, kind, i, ns, fr in evs:
        if kind == "alloc" and dt <= t and lo <= dt <= hi: alloc[i] = (ns, fr)
        if kind == "collect" and dt <= t: dead.add(i)
    return [v for i, v in alloc.items() if i not in dead]
def folded_name(f):
    name, loc = f.split("@", 1)
    file, line = loc.split(":")[:2]
    return "%s (%s:%s)" % (name, file, line)
mode, dump, t_us = sys.argv[1], sys.argv[2], round(float(sys.argv[3]) * 1e6)
evs = load(dump)
blocks = live(evs, t_us, 0, 1 << 62)
if mode == "stats":
    doc = json.load(open(sys.argv[4]))
    want = collections.defaultdict(lambda: [0, 0])
    for ns, fr in blocks:
        w = want[fr[-1] if fr else None]; w[0] += 1; w[1] += ns
    got = {s["site"]: [s["live_blocks"], s["live_samples"]] for s in doc["sites"]}
    assert doc["sites_by"] == "live" and doc["sites_live_total"] == len(want), (doc["sites_live_total"], len(want))
    assert got == {k: v for k, v in want.items()}, (got, dict(want))
    order = [s["live_samples"] for s in doc["sites"]]
    assert order == sorted(order, reverse=True), order
    print("stats live sites", len(got), "samples", sum(v[1] for v in got.values()))
elif mode == "folded":
    want = collections.Counter()
    for ns, fr in blocks:
        want[";".join(folded_name(f) for f in fr) if fr else "<no backtrace>"] += ns
    got = collections.Counter()
    for line in open(sys.argv[4]):
        k, v = line.rstrip("\n").rsplit(" ", 1); got[k] += int(v)
    want = +want
    assert got == want, (got, want)
    print("folded live stacks", len(got), "samples", sum(got.values()))
elif mode == "compare":
    doc = json.load(open(sys.argv[4])); per = float(sys.argv[5])
    want = collections.Counter()
    for ns, fr in blocks: want[fr[-1] if fr else None] += ns
    assert doc["measure"] == "live" and doc["a"]["samples"] == sum(want.values()), doc["a"]
    got = {s["site"]: s["a_est_bytes"] for s in doc["sites"] if s["status"] != "new"}
    assert got == {k: v * per for k, v in want.items()}, (got, want)
    print("compare live A sites", len(got))
PY
for at in 0.0005 0.0123 peak end; do
  check "stats --json --live-at $at" 0 "$bin" memtrace stats --json --top 1000 --live-at $at $v2.ctf
  t="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["live_at"]["t_s"])' "$out")"
  python3 "$live_model" stats $v2.dump_trace.txt "$t" "$out" >/dev/null ||
    fail "stats --live-at $at disagrees with the model"
  check "folded --live-at $at" 0 "$bin" memtrace folded --live-at $at $v2.ctf
  python3 "$live_model" folded $v2.dump_trace.txt "$t" "$out" >/dev/null ||
    fail "folded --live-at $at disagrees with the model"
done
# Both traces at T (v3 lasts 0.858 ms): A's side per site, B's total equal to its stats.
check "compare --json --live-at 0.0005" 0 "$bin" memtrace compare --json --top 1000 --live-at 0.0005 $v2.ctf $v3.ctf
cp "$out" "$tmp/cmp.json"
python3 "$live_model" compare $v2.dump_trace.txt 0.0005 "$tmp/cmp.json" 8000 >/dev/null ||
  fail "compare --live-at disagrees with the model"
check "stats --json --live-at 0.0005 (v3)" 0 "$bin" memtrace stats --json --live-at 0.0005 $v3.ctf
python3 - "$tmp/cmp.json" "$out" <<'PY' || fail "compare --live-at: B's side is not stats'"
import json, sys
c, s = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert c["b"]["live_at"] == s["live_at"] and c["b"]["samples"] == s["live_at"]["heap"]["samples"], (c["b"], s["live_at"])
PY
check "compare --live-at peak: a trace with itself" 0 "$bin" memtrace compare --live-at peak $v2.ctf $v2.ctf
grep -q "^A: .* allocated and still live at the peak (0.019445 s) at 7 sites$" "$out" || { fail "compare --live-at peak headline"; cat "$out"; }
grep -q "^change: 0 B; sites: 0 grew, 0 shrank, 0 new, 0 gone, 7 same$" "$out" || { fail "compare --live-at peak"; cat "$out"; }
check "compare --live-at past B's end" 2 "$bin" memtrace compare --live-at 0.0123 $v2.ctf $v3.ctf
grep -q -- "--live-at: 0.012300 s is after the trace's last event" "$err" || { fail "compare past the end"; cat "$err"; }
check "folded --live-at past the end" 2 "$bin" memtrace folded --live-at 0.03 $v2.ctf
[ ! -s "$out" ] || fail "folded --live-at past the end: output written"
check "stats text --live-at 0.01" 0 "$bin" memtrace stats --live-at 0.01 $v2.ctf
grep -q "^top allocation sites by estimated bytes of the blocks still live at 0.010000 s (of [0-9]* with such blocks):$" "$out" ||
  { fail "stats --live-at headline"; cat "$out"; }

# Hostile values: usage errors (exit 2) that name the option; nothing on stdout.
for bad in -1 nan inf 1e99 x "" "0.1 " PEAK 1e-400; do
  for cmd in leaks stats folded; do
    check "$cmd --live-at '$bad'" 2 "$bin" memtrace $cmd --live-at "$bad" $v2.ctf
    grep -q -- "--live-at" "$err" || { fail "$cmd --live-at '$bad': the message does not name the option"; cat "$err"; }
    [ ! -s "$out" ] || fail "$cmd --live-at '$bad': output written"
  done
done
check "compare --live-at nan" 2 "$bin" memtrace compare --live-at nan $v2.ctf $v3.ctf
check "report --live-at nan" 2 "$bin" memtrace report --live-at nan $v2.ctf -o "$tmp/r.html"
[ ! -e "$tmp/r.html" ] || fail "report --live-at nan: a page was written"
# Past the last event (the trace lasts 0.02475 s): a usage error naming the duration.
check "leaks --live-at past the end" 2 "$bin" memtrace leaks --live-at 0.03 $v2.ctf
grep -q -- "--live-at: 0.030000 s is after the trace's last event (the trace lasts 0.024750 s)" "$err" ||
  { fail "past-the-end message"; cat "$err"; }
check "leaks --live-at at the last event" 0 "$bin" memtrace leaks --live-at 0.02475 $v2.ctf

# A real trace cut inside a packet (an out-of-memory kill): the figures of what precedes
# the cut, with a warning; the checked-in traces have one event packet each, so this
# needs the shared test data (the unit tests cut a hand-built trace).
big="${MPO_SHARED_TESTDATA:-}/memtrace/lists_maps.ocaml4.13.native.r1e-3.ctf"
if [ -n "${MPO_SHARED_TESTDATA:-}" ] && [ -r "$big" ]; then
  head -c 80000 "$big" >"$tmp/cut.ctf"
  check "leaks --live-at peak: damaged trace" 0 "$bin" memtrace leaks --json --live-at peak "$tmp/cut.ctf"
  grep -q "warning: .*stopped at byte" "$err" || { fail "damaged: no warning"; cat "$err"; }
  python3 - "$out" <<'PY' || fail "damaged: no partial result"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["damage"] is not None and d["peak"] is not None and d["live_at"]["heap"]["blocks"] > 0, d
assert d["live_at"]["t_s"] == d["peak"]["t_s"] and d["live_at"]["heap"]["samples"] == d["peak"]["samples"]
print("damaged: peak", d["peak"]["est_bytes"], "at", d["peak"]["t_s"], "s")
PY
  check "stats: damaged trace, peak" 0 "$bin" memtrace stats "$tmp/cut.ctf"
  grep -q "^peak live heap: est\. " "$out" || { fail "damaged stats: no peak"; cat "$out"; }
  check "leaks --live-at past the damage" 2 "$bin" memtrace leaks --live-at 100 "$tmp/cut.ctf"
  check "leaks --strict --live-at peak: damaged trace" 1 "$bin" memtrace leaks --strict --live-at peak "$tmp/cut.ctf"
else
  echo "SKIPPED: damaged trace checks (set MPO_SHARED_TESTDATA to ../shared/testdata)"
fi

cli_done
