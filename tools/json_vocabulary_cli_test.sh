#!/usr/bin/env bash
# tools/JSON.md lists every member name the JSON documents use: each command with a
# one-document --json (and the report's embedded data) runs here on real traces and
# rings, whole and damaged, and every member name printed must be in the table; every
# name in the table must be printed by one of them, so the table cannot go stale either.
source "$(dirname "$0")/cli_test_lib.sh"
bin="$(abs_path "$1")"
doc="$(abs_path "$2")"
traces="$(abs_path testdata/memtrace)"
rings="$(abs_path testdata/ring)"
docs="$tmp/docs"
mkdir -p "$docs"
a="$traces/arrays_major.ocaml5.3.native.r1e-3.ctf"
c="$traces/rate_one.ocaml5.3.memtrace-head.r1.ctf"
head -c 3000 "$a" > "$tmp/cut.ctf"
n=0
keep() {  # keep EXPECTED_EXIT CMD...: runs a command, keeps its stdout as one document
  local want="$1"
  shift
  check "$*" "$want" "$@"
  n=$((n + 1))
  cp "$out" "$docs/$n.json"
}
for t in "$a" "$c"; do
  keep 0 "$bin" memtrace stats --json "$t"
  keep 0 "$bin" memtrace leaks --json --callers 2 "$t"
  keep 0 "$bin" memtrace check --json "$t"
done
keep 0 "$bin" memtrace stats --json --live-at peak --by words --from 0 --to 0.01 "$a"
keep 0 "$bin" memtrace stats --json "$tmp/cut.ctf"
keep 1 "$bin" memtrace check --json --keep-going "$tmp/cut.ctf"
keep 0 "$bin" memtrace compare --json "$a" "$c"
keep 0 "$bin" memtrace compare --json --live-at end "$c" "$a"
keep 1 "$bin" memtrace diff --json "$a" "$c"
keep 0 "$bin" memtrace diff --json "$a" "$a"
keep 0 "$bin" events stats --json "$rings/single/3995.events.gz"
keep 0 "$bin" events stats --json "$rings/user/4131.events.gz"
keep 0 "$bin" sample geometric --lambda 0.1 --seed 1 --count 3 --json
keep 0 "$bin" sample binomial --lambda 0.1 --seed 1 --count 3 --length 10 --json
keep 0 "$bin" memprof-sim --blocks 1000 --json
check "report" 0 "$bin" memtrace report "$a" --output "$tmp/page.html"

python3 - "$doc" "$docs" "$tmp/page.html" <<'PY' || fail "tools/JSON.md and the printed names disagree"
import json, os, re, sys
sys.setrecursionlimit(100000)
doc, docs, page = sys.argv[1:4]
listed = set()
for line in open(doc):
    if line.startswith("| `"):
        listed |= set(re.findall(r"`([a-z0-9_]+)`", line.split("|")[1]))
printed = {}
def walk(x, where, keyed_by_data=False):
    if isinstance(x, dict):
        for k, v in x.items():
            if not keyed_by_data:
                printed.setdefault(k, where)
            # phases (by phase name) and a domain's events (by kind) are keyed by data.
            walk(v, where, k == "phases" or (k == "events" and isinstance(v, dict)))
    elif isinstance(x, list):
        for v in x:
            walk(v, where)
for name in sorted(os.listdir(docs), key=lambda n: int(n.split(".")[0])):
    walk(json.load(open(os.path.join(docs, name))), name)
html = open(page).read()
data = re.search(r'<script type="application/json" id="report-data">(.*?)</script>', html, re.S)
walk(json.loads(data.group(1)), "report")
# Printed only where an error carries a bit offset (a backtrace's bit-level codec).
rare = {"bit"}
missing = sorted(k for k in printed if k not in listed)
stale = sorted(k for k in listed - rare if k not in printed)
for k in missing:
    print(f"printed but not in tools/JSON.md: {k} (first in {printed[k]})")
for k in stale:
    print(f"in tools/JSON.md but printed by no command here: {k}")
print(f"{len(printed)} names printed, {len(listed)} listed")
sys.exit(1 if missing or stale else 0)
PY
cli_done
