#!/usr/bin/env bash
# `events chrome` and `events fuchsia` stream: their peak RSS does not grow with the
# ring's event count. Two rings written by make_big_ring, the second with 8 times the
# events (about 25,000): when the whole JSON document was built in memory, peak RSS grew
# by about 64 MB between them (15 -> 78 MB); streamed it grows by about the mapped file
# (1 MB). Under ASan the base is about 100 MB (shadow, allocator), so the check is on
# growth. The rings are multi-domain (4) and wrapped, so the outputs also carry the
# repairs (notes) and lost-event markers.
set -euo pipefail
source tools/cli_test_lib.sh
bin="$1"
maker="$2"
max_growth_kib=$((24 * 1024))
max_peak_kib=$((192 * 1024))
# An ASan build (its runtime linked dynamically by gcc) starts from a base of 100-250 MB
# depending on the optimisation level: the absolute bound then only catches a blow-up;
# the growth check is the streaming one either way.
if ldd "$bin" 2>/dev/null | grep -q libasan; then max_peak_kib=$((512 * 1024)); fi
# Freed blocks held in ASan's quarantine would otherwise count as growth.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=4"
peak_of() {  # peak RSS in KiB of `events FORMAT RING OUT`, or -exit code
  python3 - "$bin" "$1" "$2" "$3" <<'PY'
import resource, subprocess, sys
rc = subprocess.call([sys.argv[1], "events", sys.argv[2], sys.argv[3], sys.argv[4]])
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss if rc == 0 else -abs(rc) - 1)
PY
}
mkdir "$tmp/small" "$tmp/large"
small_ring=$("$maker" "$tmp/small" 77 4 12)
large_ring=$("$maker" "$tmp/large" 77 4 15)
for format in chrome fuchsia; do
  small=$(peak_of "$format" "$small_ring" "$tmp/small.$format")
  large=$(peak_of "$format" "$large_ring" "$tmp/large.$format")
  echo "peak RSS of events $format: $small KiB (4 x 2^12 words), $large KiB (4 x 2^15 words)"
  [ "$small" -gt 0 ] && [ "$large" -gt 0 ] || { fail "events $format failed"; continue; }
  [ $((large - small)) -le "$max_growth_kib" ] || fail "$format: peak RSS grew by $((large - small)) KiB"
  [ "$large" -le "$max_peak_kib" ] || fail "$format: peak RSS $large KiB over $max_peak_kib KiB"
done
[ "$(stat -c %s "$tmp/large.chrome")" -gt 2500000 ] || fail "chrome output too small"
tail -c 2 "$tmp/large.chrome" | grep -q '^]}$' || fail "chrome output not closed"
# Fuchsia: the magic number record first, whole words, several times smaller than JSON.
[ "$(head -c 8 "$tmp/large.fuchsia" | od -An -tx1 | tr -d ' \n')" = 1000044678541600 ] ||
  fail "fuchsia output does not start with the magic number record"
[ $(($(stat -c %s "$tmp/large.fuchsia") % 8)) = 0 ] || fail "fuchsia output not whole words"
[ "$(stat -c %s "$tmp/large.fuchsia")" -gt 500000 ] || fail "fuchsia output too small"
[ "$(stat -c %s "$tmp/large.fuchsia")" -lt "$(stat -c %s "$tmp/large.chrome")" ] ||
  fail "fuchsia output not smaller than the JSON"
# The JSON keeps the rules on this multi-domain wrapped ring (the unit test checks them
# in depth): one counter track per domain, balanced B/E per thread, no unit keys.
# Its ring_start was overwritten: the pid comes from the file name, 77.events.
check "the wrapped ring lost its ring_start" 0 "$bin" events dump "$large_ring"
grep -q ' ring_start ' "$out" && fail "the large ring still has its ring_start"
python3 - "$tmp/large.chrome" <<'PY' || fail "chrome rules on the large ring"
import json, sys
t = json.load(open(sys.argv[1]))
assert list(t) == ["traceEvents"], list(t)
assert all(e["pid"] == 77 for e in t["traceEvents"]), "pid not from the file name"
assert t["traceEvents"][0]["args"]["name"] == "OCaml process 77", t["traceEvents"][0]
open_ = {}
counters = {}
for e in t["traceEvents"]:
    if e["ph"] == "B":
        open_.setdefault(e["tid"], []).append(e["name"])
    elif e["ph"] == "E":
        assert open_[e["tid"]].pop() == e["name"], e
    elif e["ph"] == "C":
        assert counters.setdefault(e["name"], e["tid"]) == e["tid"], e
        assert e["name"].endswith("(domain %d)" % e["tid"]), e
assert all(not s for s in open_.values())
assert len({tid for tid in counters.values()}) == 4, counters
PY
grep -aq 'OCaml process 77' "$tmp/large.fuchsia" || fail "fuchsia: pid not from the file name"
# The same ring under another name keeps the fallback pid 1.
cp "$large_ring" "$tmp/renamed.events"
check "chrome of a ring named without its pid" 0 "$bin" events chrome "$tmp/renamed.events" "$tmp/renamed.json"
grep -q '"OCaml process 1"' "$tmp/renamed.json" || fail "renamed ring: not pid 1"
# stats says its wall time is not from ring_start, which it lost.
check "stats of the wrapped ring" 0 "$bin" events stats "$large_ring" --json
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["wall_basis"].startswith("first event.."), d["wall_basis"]; assert d["wall_ns"] > 0' "$out" || fail "stats: wall basis of a wrapped ring"
check "fuchsia OUT == RING" 2 "$bin" events fuchsia "$small_ring" "$small_ring"
check "fuchsia missing ring" 2 "$bin" events fuchsia "$tmp/none.events" "$tmp/none.fxt"
cli_done
