#!/usr/bin/env bash
# End-to-end checks of `memprof-oracle events`: the dump of OCaml's own ring files is
# OCaml's consumer output, byte for byte; JSON, Chrome and stats outputs parse; errors
# have the documented exit codes.
set -u
bin="$1"
writer="$2"
tmp="${TEST_TMPDIR:-/tmp}/events_cli.$$"
mkdir -p "$tmp"
fail=0
check() {  # check NAME EXPECTED_EXIT COMMAND...
  local name="$1" want="$2"; shift 2
  "$@" >"$tmp/out" 2>"$tmp/err"; local got=$?
  if [ "$got" != "$want" ]; then
    echo "FAIL $name: exit $got, want $want"; cat "$tmp/err"; fail=1
  else echo "ok   $name"; fi
}
tags=(--tag oracle.unit=Ev_unit --tag oracle.int=Ev_int --tag oracle.span=Ev_span
      --tag oracle.string=Ev_str --tag oracle.second_unit=Ev_unit2)
for c in single:3995 user:4131; do
  name=${c%%:*}; pid=${c##*:}
  mkdir -p "$tmp/$name"
  gzip -dc "testdata/ring/$name/$pid.events.gz" > "$tmp/$name/$pid.events"
  check "dump $name DIR PID" 0 "$bin" events dump "$tmp/$name" "$pid" "${tags[@]}"
  cmp -s "$tmp/out" "testdata/ring/$name/consumer_dump.txt" || { echo "FAIL dump $name differs"; diff "$tmp/out" "testdata/ring/$name/consumer_dump.txt" | head; fail=1; }
  check "dump $name FILE, OCaml's algorithm" 0 "$bin" events dump "$tmp/$name/$pid.events" --batch 1 "${tags[@]}"
  cmp -s "$tmp/out" "testdata/ring/$name/consumer_dump.txt" || { echo "FAIL dump $name --batch 1 differs"; fail=1; }
  check "dump $name --json" 0 "$bin" events dump "$tmp/$name/$pid.events" --json
  want=$(grep -vc '^#' "testdata/ring/$name/consumer_dump.txt")
  [ "$(wc -l < "$tmp/out")" = "$want" ] || { echo "FAIL json line count"; fail=1; }
  python3 -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1])]' "$tmp/out" || { echo "FAIL json parse"; fail=1; }
  check "chrome $name" 0 "$bin" events chrome "$tmp/$name/$pid.events" "$tmp/$name.json"
  python3 - "$tmp/$name.json" "$pid" <<'PY' || { echo "FAIL chrome $name"; fail=1; }
import json, sys
t = json.load(open(sys.argv[1]))
ev = t["traceEvents"]
assert all(e["pid"] == int(sys.argv[2]) for e in ev)
b = sum(1 for e in ev if e["ph"] == "B"); e_ = sum(1 for e in ev if e["ph"] == "E")
assert b > 0 and abs(b - e_) <= 2, (b, e_)
assert any(e["ph"] == "C" for e in ev)
assert any(e["ph"] == "M" and e["args"]["name"] == "domain 0" for e in ev)
PY
  check "stats $name" 0 "$bin" events stats "$tmp/$name/$pid.events"
  grep -q '^minor ' "$tmp/out" || { echo "FAIL stats has no minor phase"; fail=1; }
  grep -q '^domain 0: ' "$tmp/out" || { echo "FAIL stats has no domain 0"; fail=1; }
done
check "stats --json" 0 "$bin" events stats "$tmp/single" 3995 --json
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["phases"]["minor"]["count"] > 0' "$tmp/out" || { echo "FAIL stats json"; fail=1; }
# 5.2 numbering: phase 11 is minor_local_roots there.
check "dump --ocaml-version 5.2" 0 "$bin" events dump "$tmp/single/3995.events" --ocaml-version 5.2
grep -q 'begin minor_local_roots #11' "$tmp/out" || { echo "FAIL 5.2 names"; fail=1; }
check "unknown version" 2 "$bin" events dump "$tmp/single/3995.events" --ocaml-version 4.14
check "missing file" 1 "$bin" events dump "$tmp" 1
grep -q 'E_OPEN_FAILURE' "$tmp/err" || { echo "FAIL missing file message"; fail=1; }
head -c 64 "$tmp/single/3995.events" > "$tmp/short.events"
check "truncated file" 1 "$bin" events dump "$tmp/short.events"
grep -q 'corrupt' "$tmp/err" || { echo "FAIL truncated message"; cat "$tmp/err"; fail=1; }
check "bad pid" 2 "$bin" events dump "$tmp" notapid
check "tail of a dead process" 0 "$bin" events tail "$tmp/single" 3995 --max-seconds 1
cmp -s <(grep -v '^#' "testdata/ring/single/consumer_dump.txt") "$tmp/out" || { echo "FAIL tail output"; fail=1; }
check "tail needs DIR PID" 2 "$bin" events tail "$tmp/single/3995.events"
check "chrome to unwritable path" 2 "$bin" events chrome "$tmp/single/3995.events" /nonexistent/x.json
# A live process: tail follows it until it exits (the writer is detached so that its
# exit is seen; the file is removed at exit, the cursor keeps its mapping).
mkdir -p "$tmp/live"
( "$writer" "$tmp/live" 40 25 & echo $! > "$tmp/live.pid" )
livepid=$(cat "$tmp/live.pid")
for _ in $(seq 100); do [ -e "$tmp/live/$livepid.events" ] && break; sleep 0.05; done
check "tail a live process" 0 "$bin" events tail "$tmp/live" "$livepid" --interval-ms 10 --max-seconds 30
[ "$(grep -c ' counter minor_promoted #4 ' "$tmp/out")" = 40 ] || { echo "FAIL tail live: counters"; cat "$tmp/out"; fail=1; }
seq 0 39 | cmp -s - <(grep ' counter ' "$tmp/out" | awk '{print $NF}') || { echo "FAIL tail live: order"; fail=1; }
grep -q 'lifecycle ring_stop #1 none' "$tmp/out" || { echo "FAIL tail live: no ring_stop"; fail=1; }
kill -0 "$livepid" 2>/dev/null && { echo "FAIL tail returned while the writer lives"; fail=1; }
rm -rf "$tmp"
exit $fail
