#!/usr/bin/env bash
# `memprof-oracle events record` against a real OCaml 5.3 program (events_workload.ml,
# compiled with the OCaml 5.3 that ci/build_peers.sh builds from ../shared/peers): the
# program runs with its runtime events on, its output and exit status come through,
# and the ring it leaves, the Chrome export and the stats agree with one another. Also
# `events tail PID` of such a program, found through OCAML_RUNTIME_EVENTS_DIR.
#
#   events_record_real_test.sh MEMPROF_ORACLE EVENTS_WORKLOAD_ML
#
# OCaml 5.3 is found as memprof_real_test.sh finds it (never built here).
set -euo pipefail

bin=$1
program=$2

# shellcheck source=conformance/runtime/find_ocaml.sh
source "$(dirname "$0")/find_ocaml.sh"

compile_ocaml_program "$program" events_workload

failures=0
fail() {
  echo "FAIL $*"
  failures=$((failures + 1))
}

# Two domains, exit status 5: record exits 5 too.
rc=0
"$bin" events record --out "$work/rec" --interval-ms 20 -- "$work/events_workload" 30 2 5 \
  >"$work/out" 2>"$work/err" || rc=$?
cat "$work/out" "$work/err"
[ "$rc" = 5 ] || fail "record exit $rc, want the program's 5"
grep -q '^checksum ' "$work/out" || fail "the program's own output did not come through"
pid=$(sed -n 's/^program: .* (pid \([0-9]*\)) exited with status 5$/\1/p' "$work/out")
[ -n "$pid" ] || fail "no program line"
grep -Eq '^followed: the process exited \([1-9][0-9]* events read live, [0-9]+ lost words\)$' \
  "$work/out" || fail "no live events"
ring="$work/rec/$pid.events"
[ -s "$ring" ] || fail "no ring left"
# The ring is OCaml's, kept by OCAML_RUNTIME_EVENTS_PRESERVE: it reads back cleanly.
"$bin" events dump "$ring" >"$work/dump" || fail "events dump of the recorded ring"
grep -q ' begin minor ' "$work/dump" || fail "no minor collection in the ring"
# Stats printed, written and recomputed agree; both domains are there.
"$bin" events stats "$ring" >"$work/stats" || fail "events stats of the recorded ring"
cmp -s "$work/stats" "$work/rec/$pid.stats.txt" || fail "stats file differs from events stats"
grep -q '^domain 1:' "$work/stats" || fail "second domain missing from stats"
python3 - "$work/rec/$pid.chrome.json" <<'PY' || fail "chrome export"
import json, sys
d = json.load(open(sys.argv[1]))
ev = d["traceEvents"]
assert any(e.get("ph") == "B" and e.get("name") == "minor" for e in ev), "no minor span"
assert len({e.get("tid") for e in ev if e.get("ph") in ("B", "E")}) >= 2, "one domain only"
PY

# `events tail PID` finds the ring of a running OCaml program through
# OCAML_RUNTIME_EVENTS_DIR and follows it to the end. If the program is quicker than
# the tail's start (a sanitized build on a busy machine starts slowly), tail says it was
# not running and prints the ring as it is: the ring is preserved, so that it is there.
mkdir -p "$work/tail"
( OCAML_RUNTIME_EVENTS_START=1 OCAML_RUNTIME_EVENTS_DIR="$work/tail" \
    OCAML_RUNTIME_EVENTS_PRESERVE=1 \
    "$work/events_workload" 300 2 0 >/dev/null & echo $! >"$work/tail.pid" )
tpid=$(cat "$work/tail.pid")
for _ in $(seq 400); do [ -s "$work/tail/$tpid.events" ] && break; sleep 0.05; done
rc=0
OCAML_RUNTIME_EVENTS_DIR="$work/tail" "$bin" events tail "$tpid" --interval-ms 10 \
  >"$work/tail.out" 2>"$work/tail.err" || rc=$?
cat "$work/tail.err"
[ "$rc" = 0 ] || fail "tail PID exit $rc"
grep -Eq "process $tpid (has exited|not found)" "$work/tail.err" || fail "tail: why it stopped"
grep -q ' begin minor ' "$work/tail.out" || fail "tail: no minor collection seen"

echo "events record against OCaml 5.3: $failures failures"
[ "$failures" -eq 0 ]
