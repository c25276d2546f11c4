#!/usr/bin/env bash
# End-to-end checks of `memprof-oracle events`: the dump of OCaml's own ring files is
# OCaml's consumer output, byte for byte; `dump --json` is schema 2 with the same events;
# Chrome and stats outputs parse; errors have the documented exit codes.
source tools/cli_test_lib.sh
bin="$1"
writer="$2"
tags=(--tag oracle.unit=Ev_unit --tag oracle.int=Ev_int --tag oracle.span=Ev_span
      --tag oracle.string=Ev_str --tag oracle.second_unit=Ev_unit2)
# The Chrome JSON of each ring, byte for byte.
declare -A chrome_sha=(
  [single]=2b6d041db02d2a3c2a8fa43cd64472e1d95a9620543eed2eff1466ae146e7a4d
  [user]=1e7aa25f1e28979201df3f16d3c9c0ba142afa7bf3972113628eae04362c35e8)
for c in single:3995 user:4131; do
  name=${c%%:*}; pid=${c##*:}
  mkdir -p "$tmp/$name"
  gzip -dc "testdata/ring/$name/$pid.events.gz" > "$tmp/$name/$pid.events"
  check "dump $name DIR PID" 0 "$bin" events dump "$tmp/$name" "$pid" "${tags[@]}"
  cmp -s "$out" "testdata/ring/$name/consumer_dump.txt" || { fail "dump $name differs"; diff "$out" "testdata/ring/$name/consumer_dump.txt" | head; }
  check "dump $name FILE, OCaml's algorithm" 0 "$bin" events dump "$tmp/$name/$pid.events" --batch 1 "${tags[@]}"
  cmp -s "$out" "testdata/ring/$name/consumer_dump.txt" || fail "dump $name --batch 1 differs"
  check "dump $name --json" 0 "$bin" events dump "$tmp/$name/$pid.events" --json
  cp "$out" "$tmp/$name.jsonl"
  python3 - "$out" "testdata/ring/$name/consumer_dump.txt" <<'PY' || fail "dump $name --json: schema 2"
import json, sys
lines = open(sys.argv[1]).read().split("\n")
assert lines[-1] == "", "no final newline"
lines = lines[:-1]
assert lines[0] == '{"schema":2,"format":"ring","ocaml_version":"5.3"}', lines[0]
records = [json.loads(l) for l in lines[1:-1]]
end = json.loads(lines[-1])
assert list(end) == ["kind", "error", "records"], end
assert end["kind"] == "end_of_stream" and end["error"] is None and end["records"] == len(records), end
order = {
    "begin": ["kind", "ring", "ts", "id", "name"], "end": ["kind", "ring", "ts", "id", "name"],
    "counter": ["kind", "ring", "ts", "id", "name", "value"],
    "alloc": ["kind", "ring", "ts", "buckets"],
    "lifecycle": ["kind", "ring", "ts", "id", "name", "data"],
    "lost_events": ["kind", "ring", "words"],
    "user_unit": ["kind", "ring", "ts", "id", "name"],
    "user_span_begin": ["kind", "ring", "ts", "id", "name"],
    "user_span_end": ["kind", "ring", "ts", "id", "name"],
    "user_int": ["kind", "ring", "ts", "id", "name", "value"],
    "user_custom": ["kind", "ring", "ts", "id", "name", "payload_hex"],
}
for r in records:
    assert list(r) == order[r["kind"]], r
# The same events as OCaml's consumer delivered, in the same order, with the same values
# where the golden text prints them unconverted.
golden = [l.split() for l in open(sys.argv[2]) if not l.startswith("#")]
assert len(golden) == len(records), (len(golden), len(records))
for g, r in zip(golden, records):
    assert int(g[0]) == r["ring"], (g, r)
    if g[1] == "lost_events":
        assert r["kind"] == "lost_events" and int(g[2]) == r["words"], (g, r)
        continue
    kind = g[2] if g[2] != "user_span" else "user_span_" + g[5]
    assert kind == r["kind"] and int(g[1]) == r["ts"], (g, r)
    if kind in ("begin", "end", "counter", "lifecycle"):
        assert g[3] == r["name"] and g[4] == "#%d" % r["id"], (g, r)
    if kind == "counter":
        assert int(g[5]) == r["value"], (g, r)
    if kind == "lifecycle":
        assert (g[5] == "none") == (r["data"] == 0) and (g[5] == "none" or int(g[5]) == r["data"]), (g, r)
    if kind.startswith("user_"):
        assert g[3] == r["name"], (g, r)
    if kind == "user_int":
        assert int(g[5]) == r["value"], (g, r)
PY
  check "dump $name DIR PID --json" 0 "$bin" events dump "$tmp/$name" "$pid" --json --batch 1
  cmp -s "$out" "$tmp/$name.jsonl" || fail "dump $name --json: DIR PID and FILE differ"
  check "chrome $name" 0 "$bin" events chrome "$tmp/$name/$pid.events" "$tmp/$name.json"
  [ "$(sha256sum < "$tmp/$name.json" | cut -d' ' -f1)" = "${chrome_sha[$name]}" ] || fail "chrome $name bytes changed"
  python3 - "$tmp/$name.json" "$pid" "$name" <<'PY' || fail "chrome $name"
import json, sys
t = json.load(open(sys.argv[1]))
ev = t["traceEvents"]
assert all(e["pid"] == int(sys.argv[2]) for e in ev)
b = sum(1 for e in ev if e["ph"] == "B"); e_ = sum(1 for e in ev if e["ph"] == "E")
assert b > 0 and abs(b - e_) <= 2, (b, e_)
assert any(e["ph"] == "C" for e in ev)
assert any(e["ph"] == "M" and e["args"]["name"] == "domain 0" for e in ev)
# User ints are counter tracks Perfetto plots, one per domain, never instants.
assert not any(e.get("cat") == "user_int" for e in ev)
ints = [e for e in ev if e["ph"] == "C" and e.get("cat") == "user"]
assert (len(ints) > 0) == (sys.argv[3] == "user"), len(ints)
assert all(e["name"].endswith(" (domain %d)" % e["tid"]) and isinstance(e["args"]["value"], int) for e in ints)
PY
  check "stats $name" 0 "$bin" events stats "$tmp/$name/$pid.events"
  grep -q '^minor ' "$out" || fail "stats has no minor phase"
  grep -q '^domain 0: ' "$out" || fail "stats has no domain 0"
done
check "stats --json" 0 "$bin" events stats "$tmp/single" 3995 --json
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["phases"]["minor"]["count"] > 0' "$out" || fail "stats json"
# `events stats --json` against olly's definitions recomputed here from `dump --json`:
# wall time ring_start..ring_stop, per-domain GC time (outermost major, stw_leader or
# interrupt_remote), nearest-rank pause percentiles per phase, counts on domain 0, words.
stats_vs_dump() {  # LABEL RING [ITS DUMP --JSON]
  check "stats --json $1" 0 "$bin" events stats "$2" --json
  cp "$out" "$tmp/stats.json"
  local dump="${3:-}"
  if [ -z "$dump" ]; then
    check "dump --json $1" 0 "$bin" events dump "$2" --json
    dump="$tmp/stats_dump.jsonl"
    cp "$out" "$dump"
  fi
  python3 - "$tmp/stats.json" "$dump" <<'PY' || fail "stats $1: not olly's figures"
import json, math, sys
s = json.load(open(sys.argv[1]))
recs = [json.loads(l) for l in open(sys.argv[2])][1:-1]
timed = [r for r in recs if r["kind"] != "lost_events"]
life = {}
for r in timed:
    if r["kind"] == "lifecycle":
        life.setdefault(r["name"], r["ts"])
start = life.get("ring_start", min(r["ts"] for r in timed))
stop = life.get("ring_stop", max(r["ts"] for r in timed))
assert s["wall_ns"] == stop - start, (s["wall_ns"], stop - start)
gc, stacks, durs, gc_open = {}, {}, {}, {}
counts = dict(minor=0, major=0)
words = {}
for r in recs:
    d = r["ring"]
    if r["kind"] == "lost_events":
        stacks[d] = []; gc_open.pop(d, None); continue
    if r["kind"] == "begin":
        if d == 0 and r["name"] == "minor": counts["minor"] += 1
        if d == 0 and r["name"] == "major_gc_stw": counts["major"] += 1
        if r["name"] in ("major", "stw_leader", "interrupt_remote") and d not in gc_open:
            gc_open[d] = (r["id"], r["ts"])
        stacks.setdefault(d, []).append((r["id"], r["ts"]))
        del stacks[d][:-64]
    elif r["kind"] == "end":
        if d in gc_open and gc_open[d][0] == r["id"]:
            gc[d] = gc.get(d, 0) + r["ts"] - gc_open.pop(d)[1]
        st = stacks.setdefault(d, [])
        for i in range(len(st) - 1, -1, -1):
            if st[i][0] == r["id"]:
                durs.setdefault(r["name"], []).append(r["ts"] - st[i][1]); del st[i:]; break
    elif r["kind"] == "counter":
        w = words.setdefault(d, {})
        w[r["name"]] = w.get(r["name"], 0) + r["value"]
assert s["collections"]["minor"] == counts["minor"] and s["collections"]["major"] == counts["major"], s["collections"]
for dom in s["domains"]:
    d = dom["ring"]
    assert dom["gc_ns"] == gc.get(d, 0), (d, dom["gc_ns"], gc.get(d))
    w = words.get(d, {})
    if "minor_allocated" in w and "minor_allocated_words" not in w:
        assert dom["words"]["minor"] == w["minor_allocated"] // 8, dom["words"]
    assert len(dom["open_at_end"]) == len(stacks.get(d, [])), (d, dom["open_at_end"])
def rank(v, p):
    v = sorted(v); return v[max(1, math.ceil(p / 100 * len(v))) - 1]
assert set(s["phases"]) == set(durs), (set(s["phases"]) ^ set(durs))
for name, v in durs.items():
    ph = s["phases"][name]
    assert ph["count"] == len(v), name
    for p in (50, 90, 99, 100):
        key = "max_ns" if p == 100 else "p%d_ns" % p
        assert ph[key] == rank(v, p), (name, key, ph[key], rank(v, p))
assert s["sum_over_domains"]["gc_ns"] == sum(gc.values())
assert s["wall_ns"] > 0 and any(dom["gc_ns"] > 0 for dom in s["domains"]), "no GC time"
PY
}
for c in single:3995 user:4131; do
  stats_vs_dump "${c%%:*}" "$tmp/${c%%:*}/${c##*:}.events" "$tmp/${c%%:*}.jsonl"
done
if [ -n "${MPO_SHARED_TESTDATA:-}" ] && [ -d "$MPO_SHARED_TESTDATA/runtime_events" ]; then
  for gz in "$MPO_SHARED_TESTDATA"/runtime_events/*/*.events.gz; do
    gzip -dc "$gz" > "$tmp/shared.events"
    copy="$tmp/$(basename "$(dirname "$gz")")/$(basename "$gz" .gz)"
    if [ -f "$copy" ] && cmp -s "$tmp/shared.events" "$copy"; then
      echo "shared $gz: the same bytes as testdata/ring's copy, checked above"
    else
      stats_vs_dump "shared $(basename "$gz")" "$tmp/shared.events"
    fi
  done
else
  echo "SKIPPED: stats of the real rings in ../shared/testdata (set MPO_SHARED_TESTDATA)"
fi
# The text says what the wall time is measured from and labels the sum over domains.
check "stats text" 0 "$bin" events stats "$tmp/single/3995.events"
grep -q '^wall time: [0-9.]* s (ring_start\.\.ring_stop)$' "$out" || fail "stats: wall time line"
grep -q '^sum over domains (not wall time): ' "$out" || fail "stats: sum labelled"
grep -Eq '^gc \(olly\) +[0-9]+ ' "$out" || fail "stats: olly pauses"
# 5.2 numbering: phase 11 is minor_local_roots there.
check "dump --ocaml-version 5.2" 0 "$bin" events dump "$tmp/single/3995.events" --ocaml-version 5.2
grep -q 'begin minor_local_roots #11' "$out" || fail "5.2 names"
check "unknown version" 2 "$bin" events dump "$tmp/single/3995.events" --ocaml-version 4.14
check "empty version" 2 "$bin" events dump "$tmp/single/3995.events" --ocaml-version ''
# A file named NAME.ocaml-5.N.events (the corpus's names) is read with release 5.N unless
# --ocaml-version says otherwise.
cp "$tmp/single/3995.events" "$tmp/named.ocaml-5.2.events"
check "release from the file name" 0 "$bin" events dump "$tmp/named.ocaml-5.2.events" --json
head -1 "$out" | grep -qx '{"schema":2,"format":"ring","ocaml_version":"5.2"}' || fail "5.2 header"
grep -q '"kind":"begin","ring":0,"ts":[0-9]*,"id":11,"name":"minor_local_roots"}' "$out" || fail "5.2 names from the file name"
check "release from the file name, text" 0 "$bin" events dump "$tmp/named.ocaml-5.2.events"
grep -q 'begin minor_local_roots #11' "$out" || fail "5.2 text names from the file name"
check "--ocaml-version over the file name" 0 "$bin" events dump "$tmp/named.ocaml-5.2.events" --json --ocaml-version 5.3
head -1 "$out" | grep -qx '{"schema":2,"format":"ring","ocaml_version":"5.3"}' || fail "explicit release"
grep -q '"id":11,"name":"minor"}' "$out" || fail "explicit release names"
check "missing file" 2 "$bin" events dump "$tmp" 1
grep -q 'E_OPEN_FAILURE' "$err" || fail "missing file message"
head -c 64 "$tmp/single/3995.events" > "$tmp/short.events"
check "truncated file" 1 "$bin" events dump "$tmp/short.events"
grep -q 'corrupt' "$err" || { fail "truncated message"; cat "$err"; }
# A bad ring still gets its whole stream: the header and an end line with the error.
check "truncated file --json" 1 "$bin" events dump "$tmp/short.events" --json
grep -q 'corrupt' "$err" || fail "truncated --json: no message"
[ "$(wc -l < "$out")" = 2 ] || fail "truncated --json: want header and end line"
tail -1 "$out" | grep -Eq '^\{"kind":"end_of_stream","error":\{"code":"corrupt","check":"metadata header[^"]*","offset":([0-9]+|null)\},"records":0\}$' || { fail "truncated --json end line"; cat "$out"; }
# --as ocaml-5.3: OCaml 5.3's consumer never reads the version word (conformance/VERDICTS.md).
cp "$tmp/single/3995.events" "$tmp/version.events"
printf '\x07' | dd of="$tmp/version.events" bs=1 conv=notrunc status=none
check "bad version, strict" 1 "$bin" events dump "$tmp/version.events" --json
check "bad version --as ocaml-5.3" 0 "$bin" events dump "$tmp/version.events" --json --as ocaml-5.3
cmp -s "$out" "$tmp/single.jsonl" || fail "--as ocaml-5.3: not the valid file's stream"
check "bad version --as ocaml-5.3, text" 0 "$bin" events dump "$tmp/version.events" --as ocaml-5.3
# --as ocaml-5.0: the same events; 5.0.0's read_poll returns Int_val(count), read as count >> 2.
check "dump --as ocaml-5.0" 0 "$bin" events dump "$tmp/single/3995.events" --as ocaml-5.0 "${tags[@]}"
cmp -s <(grep -v '^#' "$out") <(grep -v '^#' "testdata/ring/single/consumer_dump.txt") ||
  fail "--as ocaml-5.0: not OCaml's events"
total=$(sed -n 's/^# read_poll calls=2 total_events=\([0-9]*\)$/\1/p' "testdata/ring/single/consumer_dump.txt")
grep -qx "# read_poll calls=2 total_events=$((total / 4))" "$out" ||
  { fail "--as ocaml-5.0: total_events not a quarter"; tail -1 "$out"; }
check "--as a mode that does not judge rings" 2 "$bin" events dump "$tmp/version.events" --as memtrace-0.2.3
check "missing file --json" 2 "$bin" events dump "$tmp/absent.events" --json
[ -s "$out" ] && fail "missing file --json: a stream for no input"
check "bad pid" 2 "$bin" events dump "$tmp" notapid
check "tail of a dead process" 0 "$bin" events tail "$tmp/single" 3995 --max-seconds 1
cmp -s <(grep -v '^#' "testdata/ring/single/consumer_dump.txt") "$out" || fail "tail output"
check "tail needs DIR PID" 2 "$bin" events tail "$tmp/single/3995.events"
check "chrome to unwritable path" 2 "$bin" events chrome "$tmp/single/3995.events" /nonexistent/x.json
# A live process: tail follows it until it exits (the writer is detached so that its
# exit is seen; the file is removed at exit, the cursor keeps its mapping). The writer
# holds its events until the tail has mapped the ring, however slowly either starts.
mkdir -p "$tmp/live"
( "$writer" "$tmp/live" 40 25 "$tmp/live.go" & echo $! > "$tmp/live.pid" )
livepid=$(cat "$tmp/live.pid")
for _ in $(seq 1200); do [ -e "$tmp/live/$livepid.events" ] && break; sleep 0.05; done
"$bin" events tail "$tmp/live" "$livepid" --interval-ms 10 --max-seconds 120 >"$out" 2>"$err" &
tailpid=$!
for _ in $(seq 1200); do
  grep -q "$livepid.events" "/proc/$tailpid/maps" 2>/dev/null && break
  kill -0 "$tailpid" 2>/dev/null || break
  sleep 0.05
done
touch "$tmp/live.go"
tail_rc=0
wait "$tailpid" || tail_rc=$?
if [ "$tail_rc" = 0 ]; then echo "ok   tail a live process"; else fail "tail a live process: exit $tail_rc: $(cat "$err")"; fi
[ "$(grep -c ' counter minor_promoted #4 ' "$out")" = 40 ] || { fail "tail live: counters"; cat "$out"; }
seq 0 39 | cmp -s - <(grep ' counter ' "$out" | awk '{print $NF}') || fail "tail live: order"
grep -q 'lifecycle ring_stop #1 none' "$out" || fail "tail live: no ring_stop"
kill -0 "$livepid" 2>/dev/null && fail "tail returned while the writer lives"
# A tail started with the program can find the ring before OCaml has written its header
# (the file is created and sized first): it waits for the header while the process runs.
# Here a process's ring is all zeros until the real header and events land 0.5 s later.
mkdir -p "$tmp/early"
sleep 30 &
earlypid=$!
ring_bytes=$(stat -c %s "$tmp/single/3995.events")
head -c "$ring_bytes" /dev/zero >"$tmp/early/$earlypid.events"
( sleep 0.5 && dd if="$tmp/single/3995.events" of="$tmp/early/$earlypid.events" conv=notrunc \
    status=none ) &
check "tail finds the header written after the file" 0 "$bin" events tail "$tmp/early" \
  "$earlypid" --interval-ms 10 --max-seconds 2
kill "$earlypid" 2>/dev/null || true
wait "$earlypid" 2>/dev/null || true
cmp -s <(grep -v '^#' "testdata/ring/single/consumer_dump.txt") "$out" || fail "tail early: output"
# A ring whose version word is wrong from the start is answered at once, not waited for.
sleep 30 &
badpid=$!
cp "$tmp/version.events" "$tmp/early/$badpid.events"
check "tail of a bad version exits at once" 1 "$bin" events tail "$tmp/early" "$badpid" \
  --interval-ms 10
kill "$badpid" 2>/dev/null || true
wait "$badpid" 2>/dev/null || true
grep -q "version" "$err" || fail "tail bad version: $(cat "$err")"
cli_done
