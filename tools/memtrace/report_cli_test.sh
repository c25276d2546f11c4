#!/usr/bin/env bash
# `memtrace report`: the page is written, self-contained (no http(s) src/href), its JSON
# data block parses and holds the figures `memtrace stats --json` prints for the same
# trace and window, and a location containing "</script>" cannot end the block early.
set -euo pipefail
source tools/cli_test_lib.sh
bin="$1"
gen="$(abs_path "${2:-}")"
t=testdata/memtrace/arrays_major.ocaml5.3.native.r1e-3.ctf
html="$tmp/r.html"

# The JSON block of a page, parsed, and compared with a stats document (python3 reads both).
compare_with_stats() {
  local page="$1" stats="$2"
  python3 - "$page" "$stats" <<'PY'
import json, re, sys
page = open(sys.argv[1], encoding="utf-8").read()
stats = json.load(open(sys.argv[2]))
blocks = re.findall(r'<script type="application/json" id="report-data">(.*?)</script>', page, re.S)
assert len(blocks) == 1, "one data block, closed by the writer"
data = json.loads(blocks[0])
for bad in re.findall(r'(?:src|href)\s*=\s*["\']?\s*https?://', page, re.I):
    raise SystemExit("external reference: " + bad)
assert data["trace"] == stats["trace"], (data["trace"], stats["trace"])
assert data["window"] == stats["window"]
for k in ("blocks", "samples", "words", "est_bytes"):
    assert data["allocated"][k] == stats["allocated"][k], k
    assert data["live"][k] == stats["live_at_end"][k], k
assert data["peak"] == stats["peak"] and data["live_at"]["at"] == "end"
assert data["sites_total"] == stats["sites_total"]
n = min(len(data["sites"]), len(stats["sites"]))
assert n > 0 or stats["sites_total"] == 0
for a, b in zip(data["sites"][:n], stats["sites"][:n]):
    assert a == b, (a, b)
assert data["timeline"] == stats["timeline"]
# The flame graph holds every sampled allocation of the window.
assert data["flame"]["v"] == stats["allocated"]["samples"], (data["flame"]["v"], stats["allocated"]["samples"])
print("sites", n, "samples", data["flame"]["v"])
PY
}

check "report: writes a page" 0 "$bin" memtrace report "$t" -o "$html"
[ -s "$html" ] || fail "report: empty page"
check "stats --json (top 20)" 0 "$bin" memtrace stats --json --top 20 "$t"
cp "$out" "$tmp/stats.json"
check "report: data equals stats --json" 0 compare_with_stats "$html" "$tmp/stats.json"

check "report --from/--to" 0 "$bin" memtrace report "$t" -o "$html" --from 0.005 --to 0.015 --top 5
check "stats --json --from/--to" 0 "$bin" memtrace stats --json --top 5 --from 0.005 --to 0.015 "$t"
cp "$out" "$tmp/stats.json"
check "report: window data equals stats --json" 0 compare_with_stats "$html" "$tmp/stats.json"

# --live-at: the page's leak candidates and live heap are those of `leaks --live-at`.
check "report --live-at peak --from/--to" 0 "$bin" memtrace report "$t" -o "$html" --from 0.005 --to 0.015 --live-at peak
check "leaks --json --live-at peak --from/--to" 0 "$bin" memtrace leaks --json --top 20 --from 0.005 --to 0.015 --live-at peak "$t"
python3 - "$html" "$out" <<'PY' || fail "report --live-at: data differs from leaks --json"
import json, re, sys
data = json.loads(re.search(r'id="report-data">(.*?)</script>', open(sys.argv[1], encoding="utf-8").read(), re.S).group(1))
leaks = json.load(open(sys.argv[2]))
assert data["live_at"] == leaks["live_at"] and data["live_at"]["at"] == "peak", (data["live_at"], leaks["live_at"])
assert data["live"] == leaks["live"] and data["peak"] == leaks["peak"]
assert data["leaks"] == leaks["sites"] and data["leak_sites_total"] == leaks["sites_with_live_blocks"]
PY

# A location whose file name is '</script><i>&"x</i>___.ml' (same length as the original,
# so the trace stays valid): escaped in the block, which still parses.
python3 - "$t" "$tmp/patched.ctf" <<'PY'
import sys
d = open(sys.argv[1], "rb").read()
old = b"workloads/arrays_major.ml"
pre = b'</script><i>&"x</i>'
new = pre + b"_" * (len(old) - len(pre) - 3) + b".ml"
assert d.count(old) == 1 and len(new) == len(old)
open(sys.argv[2], "wb").write(d.replace(old, new))
PY
check "report: hostile location" 0 "$bin" memtrace report "$tmp/patched.ctf" -o "$html"
check "stats --json: hostile location" 0 "$bin" memtrace stats --json --top 20 "$tmp/patched.ctf"
cp "$out" "$tmp/stats.json"
check "report: hostile data equals stats --json" 0 compare_with_stats "$html" "$tmp/stats.json"
grep -q '\\u003c/script>\\u003ci>&\\"x\\u003c/i>' "$html" || fail "report: </script> not escaped"
[ "$(grep -c '</script>' "$html")" = 2 ] || fail "report: a location closed a script block"

# --flame-nodes bounds the flame graph: at most N nodes plus one "other" per kept node,
# and the values still add up. The checked-in traces have few stacks; the large real one
# (MPO_SHARED_TESTDATA) has thousands, so there the bound must merge some into "other".
flame_bounded() {
  python3 - "$1" "$2" "$3" <<'PY'
import json, re, sys
page, limit, need_other = open(sys.argv[1], encoding="utf-8").read(), int(sys.argv[2]), sys.argv[3] == "1"
data = json.loads(re.search(r'id="report-data">(.*?)</script>', page, re.S).group(1))
def walk(n):
    assert sum(c["v"] for c in n["c"]) <= n["v"], n["n"]
    return 1 + sum(walk(c) for c in n["c"])
nodes, others = walk(data["flame"]), page.count('"n":"other"')
assert nodes - others <= limit and (others > 0 or not need_other), (nodes, others)
print("flame nodes", nodes, "other", others)
PY
}
check "report --flame-nodes 16" 0 "$bin" memtrace report "$t" -o "$html" --flame-nodes 16
check "report: flame graph bounded" 0 flame_bounded "$html" 16 0
big="${MPO_SHARED_TESTDATA:-}/memtrace/examples-ocamlopt.v0.2.3.ctf"
if [ -n "${MPO_SHARED_TESTDATA:-}" ] && [ -r "$big" ]; then
  check "report: large trace, --flame-nodes 50" 0 "$bin" memtrace report "$big" -o "$html" --flame-nodes 50
  check "report: large trace, flame graph bounded" 0 flame_bounded "$html" 50 1
  cat "$out"
else
  echo "SKIPPED: the large real trace (set MPO_SHARED_TESTDATA to ../shared/testdata)"
fi

# External allocations (memtrace 0.2.3 ends their backtraces in its tracer's
# ext_alloc_slowpath) belong to the tracer's caller: checked against memtrace's own text
# dump of the trace, where each alloc_ext line lists the backtrace innermost last.
ext="${MPO_SHARED_TESTDATA:-}/memtrace/external_bigarray.ocaml4.13.native.r1e-3"
if [ -n "${MPO_SHARED_TESTDATA:-}" ] && [ -r "$ext.ctf" ]; then
  check "report: external allocations" 0 "$bin" memtrace report "$ext.ctf" -o "$html" --top 100
  check "stats --json: external allocations" 0 "$bin" memtrace stats --json --top 100 "$ext.ctf"
  cp "$out" "$tmp/stats.json"
  check "folded: external allocations" 0 "$bin" memtrace folded "$ext.ctf"
  python3 - "$ext.dump_trace.txt" "$html" "$tmp/stats.json" "$out" <<'PY' || fail "report: external allocations not at the tracer's caller"
import collections, json, re, sys
tracer = re.compile(r"^Memtrace(__|\.)Memprof_tracer\.ext_alloc(_slowpath)?@")
want, ext_samples = collections.Counter(), 0
for line in open(sys.argv[1]):
    p = line.split()
    if len(p) < 4 or p[2] not in ("alloc", "alloc_ext"):
        continue
    frames = [f for f in p[6:] if "@" in f]
    if p[2] == "alloc_ext":
        ext_samples += int(p[3])
        while len(frames) > 1 and tracer.match(frames[-1]):
            frames.pop()
    want[frames[-1] if frames else None] += int(p[3])
assert ext_samples > 0
stats = json.load(open(sys.argv[3]))
got = {s["site"]: s["samples"] for s in stats["sites"]}
assert got == dict(want), (got, dict(want))
data = json.loads(re.search(r'id="report-data">(.*?)</script>', open(sys.argv[2], encoding="utf-8").read(), re.S).group(1))
assert {s["site"]: s["samples"] for s in data["sites"]} == dict(want)
names, todo = [], [data["flame"], data["flame_inverted"], data["flame_live"]]
while todo:
    n = todo.pop(); names.append(n["n"]); todo += n["c"]
assert not any("Memprof_tracer.ext_alloc" in n for n in names), "a tracer frame in a flame graph"
folded = open(sys.argv[4]).read()
assert "Memprof_tracer" not in folded and sum(int(l.rsplit(" ", 1)[1]) for l in folded.splitlines()) == sum(want.values())
print("external samples", ext_samples, "sites", len(want))
PY
else
  echo "SKIPPED: external allocations (set MPO_SHARED_TESTDATA to ../shared/testdata)"
fi

# Errors: usage (2), bad input (1), the output may not be the input (2), nothing left.
check "report: -o missing" 2 "$bin" memtrace report "$t"
check "report: --flame-nodes 1" 2 "$bin" memtrace report "$t" -o "$html" --flame-nodes 1
check "report: --to before --from" 2 "$bin" memtrace report "$t" -o "$html" --from 2 --to 1
head -c 100 "$t" >"$tmp/cut.ctf"
check "report: truncated trace" 1 "$bin" memtrace report "$tmp/cut.ctf" -o "$tmp/cut.html"
[ ! -e "$tmp/cut.html" ] || fail "report: a page was left for a bad trace"
cp "$t" "$tmp/same.ctf"
check "report: output is the input" 2 "$bin" memtrace report "$tmp/same.ctf" -o "$tmp/same.ctf"
cmp -s "$t" "$tmp/same.ctf" || fail "report: the input was overwritten"
check "report: budget" 1 "$bin" memtrace report "$t" -o "$html" --max-held-frames 4

# A trace hostile to the page (report_trace_gen.cc): a 6,000-deep recursion whose site is
# not UTF-8, 400 sites, a 3,500-byte name 2,500 deep. Each flame tree holds at most
# --flame-nodes nodes, "other" included; every name is text of at most 256 bytes; the page
# stays within the documented bound, 64 KiB + 2 KiB x (4 x nodes + 2 x top x (callers + 1)).
"$gen" "$tmp/hostile.ctf" || fail "report_trace_gen failed"
check "report: the hostile trace is valid" 0 "$bin" memtrace check "$tmp/hostile.ctf"
for args in "16 20 0" "2000 20 0" "100000 20 0" "16 200 64"; do
  set -- $args
  page="$tmp/hostile-$1-$2-$3.html"
  check "report: hostile trace, --flame-nodes $1 --top $2 --callers $3" 0 \
    "$bin" memtrace report "$tmp/hostile.ctf" -o "$page" --flame-nodes "$1" --top "$2" --callers "$3"
  size=$(wc -c <"$page")
  bound=$((65536 + 2048 * (4 * $1 + 2 * $2 * ($3 + 1))))
  [ "$size" -le "$bound" ] || fail "report: page of $size bytes, over the bound of $bound"
  python3 - "$page" "$1" <<'PY' || fail "report: --flame-nodes $1 is not a bound, or a long name was kept"
import re, sys
page = open(sys.argv[1], encoding="utf-8").read()  # the page is UTF-8, whatever the trace
data = re.search(r'id="report-data">(.*?)</script>', page, re.S).group(1)
assert '"hex"' not in data, "a name written as bytes, not text"
assert "bad\ufffd\ufffdname" in data, "the non-UTF-8 name, as text with U+FFFD"
members = ["flame", "flame_collapsed", "flame_inverted", "flame_live", "bytes_per_sample"]
for tree, after in zip(members, members[1:]):
    start = data.index('"%s":{' % tree)
    # Nodes are the '{"n":' openings of the tree's text (names cannot hold a bare quote).
    end = data.index(',"%s":' % after)
    nodes = data[start:end].count('{"n":')
    assert 0 < nodes <= int(sys.argv[2]), (tree, nodes)
PY
  # The tree walks of the script do not recurse: no function calls itself.
  python3 - "$page" <<'PY' || fail "report: the page's script has a recursive function"
import re, sys
page = open(sys.argv[1], encoding="utf-8").read()
script = page[page.rindex("<script>") + len("<script>"):page.rindex("</script>")]
for m in re.finditer(r"function\s+(\w+)\s*\(", script):
    name, i = m.group(1), script.index("{", m.end())
    depth, j = 0, i
    while True:
        depth += {"{": 1, "}": -1}.get(script[j], 0)
        j += 1
        if depth == 0:
            break
    # A call from an event handler ("() => draw(n)") runs later, on an empty stack.
    assert not re.search(r"(?<!=> )\b%s\s*\(" % name, script[i:j]), "recursive: " + name
PY
  if command -v node >/dev/null; then
    node --stack-size=300 tools/memtrace/report_page_check.js "$page" "$1" >"$out" 2>"$err" ||
      fail "report: the page's script under node: $(cat "$out") $(head -c 600 "$err")"
  fi
done
command -v node >/dev/null || echo "NOTE: node is not installed: the page's script was checked by its text only"

cli_done
