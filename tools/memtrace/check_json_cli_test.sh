#!/usr/bin/env bash
# `memtrace check --json`: one JSON object whose counts are the text check's, whose exit
# code is the text check's, and whose error is the schema 2 error object that
# `memtrace dump --json` ends with (one error schema for every JSON view).
set -euo pipefail
source tools/cli_test_lib.sh
bin="$1"
T=testdata/memtrace
good=$T/arrays_major.ocaml5.3.native.r1e-3.ctf
bad=$T/long_columns.ocaml4.13.bc.r1e-3.ctf

# Asserts on the JSON in $out with python3: `json_ok NAME PYTHON-EXPR-ON-d [ARGS...]`.
json_ok() {
  local name="$1" expr="$2"
  shift 2
  python3 - "$out" "$@" <<PY || fail "$name: $(head -c 600 "$out")"
import json, sys
text = open(sys.argv[1]).read()
assert text.count("\n") == 1 and text.endswith("}\n"), "not one JSON line"
d = json.loads(text)
args = sys.argv[2:]
assert set(d) == {"file", "trace", "valid", "packets", "events", "locations",
                  "undefined_location_codes", "bad_packets", "warnings", "error", "errors"}, sorted(d)
assert $expr
PY
}

# The text check's "N packets, M events" and exit code, for comparison.
text_counts() {
  local rc=0
  "$bin" memtrace check "$@" >"$tmp/text" 2>/dev/null || rc=$?
  sed -n 's/.*, \([0-9]*\) packets, \([0-9]*\) events,.*/\1 \2/p' "$tmp/text"
  echo "$rc"
}

# A good trace: valid, counts as the text form's, the trace member as stats --json's.
read -r packets events < <(text_counts "$good" | head -1)
check "good trace" 0 "$bin" memtrace check --json "$good"
json_ok "good trace" 'd["valid"] and d["error"] is None and d["errors"] == [] and d["packets"] == int(args[0]) and d["events"] == int(args[1]) and d["locations"] > 0 and d["trace"]["version"] == 2' "$packets" "$events"
cp "$out" "$tmp/check.json"
"$bin" memtrace stats --json "$good" >"$tmp/stats.json"
python3 -c '
import json, sys
c, s = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert c["trace"] == s["trace"], (c["trace"], s["trace"])' "$tmp/check.json" "$tmp/stats.json" ||
  fail "check's trace member is not stats'"

# A corrupt trace: the error object is the one dump --json's trailer carries; exit 1.
check "corrupt trace" 1 "$bin" memtrace check --json "$bad"
cp "$out" "$tmp/bad.json"
"$bin" memtrace dump --json "$bad" >"$tmp/dump.jsonl" 2>/dev/null || true
python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))
end = json.loads(open(sys.argv[2]).read().splitlines()[-1])
assert not c["valid"] and c["error"] == end["error"] and c["errors"] == [end["error"]], (c, end)
assert c["error"]["code"] == "corrupt" and c["error"]["offset"] == 348, c["error"]' \
  "$tmp/bad.json" "$tmp/dump.jsonl" || fail "corrupt trace: error object differs from dump --json's"
# --keep-going: one error object per bad packet or undefined code.
check "corrupt trace --keep-going" 1 "$bin" memtrace check --json --keep-going "$bad"
json_ok "keep-going" 'len(d["errors"]) == d["bad_packets"] + d["undefined_location_codes"] >= 1 and d["error"] == d["errors"][0]'

# Truncated: inside the second packet, then inside the first packet's header.
size=$(stat -c %s "$good")
head -c $((size - 100)) "$good" >"$tmp/trunc.ctf"
check "truncated trace" 1 "$bin" memtrace check --json "$tmp/trunc.ctf"
json_ok "truncated" 'not d["valid"] and d["error"]["code"] == "truncated" and 0 < d["error"]["offset"] < int(args[0]) and "check" in d["error"]' "$((size - 100))"
[ "$(text_counts "$tmp/trunc.ctf" | tail -1)" = 1 ] || fail "truncated: the text check's exit code is not 1"
head -c 20 "$good" >"$tmp/header.ctf"
check "truncated header" 1 "$bin" memtrace check --json "$tmp/header.ctf"
json_ok "truncated header" 'd["trace"] is None and d["error"]["code"] == "truncated" and d["error"]["offset"] <= 20 and d["events"] == 0'

# Flipped bytes in the middle of the events: rejected with an offset, or (if the bytes
# happen to decode) valid; either way the exit code is the text check's.
cp "$good" "$tmp/flip.ctf"
printf '\377\377\377\377' | dd of="$tmp/flip.ctf" bs=1 seek=$((size / 2)) conv=notrunc status=none
want=$(text_counts "$tmp/flip.ctf" | tail -1)
check "flipped bytes" "$want" "$bin" memtrace check --json "$tmp/flip.ctf"
json_ok "flipped bytes" '(d["valid"] and d["error"] is None) or (isinstance(d["error"]["offset"], int) and d["error"]["code"] in ("corrupt", "truncated", "resource_exhausted"))'

# A missing file is a usage error (exit 2), reported on stderr only.
check "missing file" 2 "$bin" memtrace check --json "$tmp/nonexistent.ctf"
[ -s "$out" ] && fail "missing file: stdout not empty"

# A large real trace from ../shared/testdata.
real="${MPO_SHARED_TESTDATA:-}/memtrace/examples-lists_and_sets.v0.2.3.ctf"
if [ -n "${MPO_SHARED_TESTDATA:-}" ] && [ -r "$real" ]; then
  read -r packets events < <(text_counts "$real" | head -1)
  check "real trace" 0 "$bin" memtrace check --json "$real"
  json_ok "real trace" 'd["valid"] and d["packets"] == int(args[0]) and d["events"] == int(args[1]) > 0' "$packets" "$events"
else
  echo "SKIPPED: the real trace from ../shared/testdata (set MPO_SHARED_TESTDATA)"
fi
cli_done
