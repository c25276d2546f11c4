#!/usr/bin/env bash
# `events stats` against olly's figures computed by OCaml 5.3's own runtime_events
# consumer (olly_figures.ml, the rules of olly gc-stats): wall time, per-domain time,
# GC time and words, collection counts and the GC pause percentiles agree exactly on
# the real rings of testdata/ring and on a ring recorded from a real two-domain program
# (which wraps, losing its ring_start: there only the wall and domain times differ, and
# `events stats` says what it measured them from).
#
#   olly_stats_real_test.sh MEMPROF_ORACLE OLLY_FIGURES_ML EVENTS_WORKLOAD_ML
set -euo pipefail

bin=$1
# shellcheck source=conformance/runtime/find_ocaml.sh
source "$(dirname "$0")/find_ocaml.sh"
compile_ocaml_program "$2" olly_figures -I +unix -I +runtime_events unix.cmxa runtime_events.cmxa
cp "$3" "$work/events_workload.ml"
(cd "$work" && "$peers/ocaml-5.3/bin/ocamlopt" events_workload.ml -o events_workload)

failures=0
compare_ring() {  # LABEL DIR PID
  "$work/olly_figures" "$2" "$3" >"$work/olly.txt"
  "$bin" events stats "$2/$3.events" --json >"$work/ours.json"
  python3 - "$work/olly.txt" "$work/ours.json" <<'PY' || { echo "FAIL $1"; failures=$((failures + 1)); }
import json, sys
olly = dict(l.split() for l in open(sys.argv[1]))
s = json.load(open(sys.argv[2]))
ours = {"wall_ns": s["wall_ns"], "minor": s["collections"]["minor"],
        "major": s["collections"]["major"], "pauses": s["gc_pauses"]["count"]}
if s["gc_pauses"]["count"]:
    ours.update({k: s["gc_pauses"][k] for k in ("p50_ns", "p90_ns", "p99_ns", "max_ns")})
for d in s["domains"]:
    r = d["ring"]
    ours["domain%d.time_ns" % r] = d["time_ns"]
    ours["domain%d.gc_ns" % r] = d["gc_ns"]
    ours["domain%d.minor" % r] = d["words"]["minor"] or 0
    ours["domain%d.promoted" % r] = d["words"]["promoted"] or 0
if s["wall_basis"] != "ring_start..ring_stop":
    # A wrapped ring lost its ring_start: olly, reading it after the fact, would measure
    # from time 0; ours is measured from the first event and says so. Everything else
    # must still agree.
    assert s["wall_basis"].startswith("first event.."), s["wall_basis"]
    assert 0 < s["wall_ns"] < int(olly["wall_ns"]), (s["wall_ns"], olly["wall_ns"])
    olly = {k: v for k, v in olly.items() if k != "wall_ns" and not k.endswith(".time_ns")}
bad = {k: (int(v), ours.get(k)) for k, v in olly.items() if int(v) != ours.get(k)}
print("olly:", olly)
assert not bad, bad
PY
}
for c in single:3995 user:4131; do
  name=${c%%:*}; pid=${c##*:}
  mkdir -p "$work/$name"
  gzip -dc "testdata/ring/$name/$pid.events.gz" >"$work/$name/$pid.events"
  compare_ring "$name (real ring)" "$work/$name" "$pid"
done
"$bin" events record --out "$work/rec" --interval-ms 20 -- "$work/events_workload" 30 2 0 \
  >"$work/rec.out" 2>&1 || { echo "FAIL events record"; failures=$((failures + 1)); }
pid=$(sed -n 's/^program: .* (pid \([0-9]*\)) exited with status 0$/\1/p' "$work/rec.out")
if [ -n "$pid" ]; then
  compare_ring "recorded two-domain program" "$work/rec" "$pid"
else
  echo "FAIL no recorded ring"; failures=$((failures + 1))
fi
echo "events stats against olly's figures: $failures failures"
[ "$failures" = 0 ]
