#!/usr/bin/env bash
# End-to-end checks of `memprof-oracle events`: the dump of OCaml's own ring files is
# OCaml's consumer output, byte for byte; JSON, Chrome and stats outputs parse; errors
# have the documented exit codes.
source tools/cli_test_lib.sh
bin="$1"
writer="$2"
tags=(--tag oracle.unit=Ev_unit --tag oracle.int=Ev_int --tag oracle.span=Ev_span
      --tag oracle.string=Ev_str --tag oracle.second_unit=Ev_unit2)
# The Chrome JSON of each ring, byte for byte, as written before `events chrome` streamed.
declare -A chrome_sha=(
  [single]=b98febd8f74749ee802c4a6ce670c3394df919bd5caa89228fb446bb4442cef0
  [user]=d8792b7f508071a655cca7ec4b06e18e0d3991f09fd86292a27289ac905d4aea)
for c in single:3995 user:4131; do
  name=${c%%:*}; pid=${c##*:}
  mkdir -p "$tmp/$name"
  gzip -dc "testdata/ring/$name/$pid.events.gz" > "$tmp/$name/$pid.events"
  check "dump $name DIR PID" 0 "$bin" events dump "$tmp/$name" "$pid" "${tags[@]}"
  cmp -s "$out" "testdata/ring/$name/consumer_dump.txt" || { fail "dump $name differs"; diff "$out" "testdata/ring/$name/consumer_dump.txt" | head; }
  check "dump $name FILE, OCaml's algorithm" 0 "$bin" events dump "$tmp/$name/$pid.events" --batch 1 "${tags[@]}"
  cmp -s "$out" "testdata/ring/$name/consumer_dump.txt" || fail "dump $name --batch 1 differs"
  check "dump $name --json" 0 "$bin" events dump "$tmp/$name/$pid.events" --json
  want=$(grep -vc '^#' "testdata/ring/$name/consumer_dump.txt")
  [ "$(wc -l < "$out")" = "$want" ] || fail "json line count"
  python3 -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1])]' "$out" || fail "json parse"
  check "chrome $name" 0 "$bin" events chrome "$tmp/$name/$pid.events" "$tmp/$name.json"
  [ "$(sha256sum < "$tmp/$name.json" | cut -d' ' -f1)" = "${chrome_sha[$name]}" ] || fail "chrome $name bytes changed"
  python3 - "$tmp/$name.json" "$pid" <<'PY' || fail "chrome $name"
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
  grep -q '^minor ' "$out" || fail "stats has no minor phase"
  grep -q '^domain 0: ' "$out" || fail "stats has no domain 0"
done
check "stats --json" 0 "$bin" events stats "$tmp/single" 3995 --json
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["phases"]["minor"]["count"] > 0' "$out" || fail "stats json"
# 5.2 numbering: phase 11 is minor_local_roots there.
check "dump --ocaml-version 5.2" 0 "$bin" events dump "$tmp/single/3995.events" --ocaml-version 5.2
grep -q 'begin minor_local_roots #11' "$out" || fail "5.2 names"
check "unknown version" 2 "$bin" events dump "$tmp/single/3995.events" --ocaml-version 4.14
check "missing file" 2 "$bin" events dump "$tmp" 1
grep -q 'E_OPEN_FAILURE' "$err" || fail "missing file message"
head -c 64 "$tmp/single/3995.events" > "$tmp/short.events"
check "truncated file" 1 "$bin" events dump "$tmp/short.events"
grep -q 'corrupt' "$err" || { fail "truncated message"; cat "$err"; }
check "bad pid" 2 "$bin" events dump "$tmp" notapid
check "tail of a dead process" 0 "$bin" events tail "$tmp/single" 3995 --max-seconds 1
cmp -s <(grep -v '^#' "testdata/ring/single/consumer_dump.txt") "$out" || fail "tail output"
check "tail needs DIR PID" 2 "$bin" events tail "$tmp/single/3995.events"
check "chrome to unwritable path" 2 "$bin" events chrome "$tmp/single/3995.events" /nonexistent/x.json
# A live process: tail follows it until it exits (the writer is detached so that its
# exit is seen; the file is removed at exit, the cursor keeps its mapping).
mkdir -p "$tmp/live"
( "$writer" "$tmp/live" 40 25 & echo $! > "$tmp/live.pid" )
livepid=$(cat "$tmp/live.pid")
for _ in $(seq 100); do [ -e "$tmp/live/$livepid.events" ] && break; sleep 0.05; done
check "tail a live process" 0 "$bin" events tail "$tmp/live" "$livepid" --interval-ms 10 --max-seconds 30
[ "$(grep -c ' counter minor_promoted #4 ' "$out")" = 40 ] || { fail "tail live: counters"; cat "$out"; }
seq 0 39 | cmp -s - <(grep ' counter ' "$out" | awk '{print $NF}') || fail "tail live: order"
grep -q 'lifecycle ring_stop #1 none' "$out" || fail "tail live: no ring_stop"
kill -0 "$livepid" 2>/dev/null && fail "tail returned while the writer lives"
cli_done
