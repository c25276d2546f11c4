#!/bin/bash
# One view per format: the user-facing dumps print the corpus's streams, so
# `corpus check` passes every memtrace case with `memtrace dump --json`, every ring case
# with `events dump --json`, and every case with `corpus decode`.
set -eo pipefail
source tools/cli_test_lib.sh
BIN="$(abs_path "$1")"
T="$tmp"

"$BIN" corpus gen "$T/c" > /dev/null
count() { python3 -c "import json,sys;print(sum(c['kind']==sys.argv[2] or sys.argv[2]=='' for c in json.load(open(sys.argv[1]))['cases']))" "$T/c/MANIFEST.json" "$1"; }

all_pass() {  # NAME KIND IMPL [--only PREFIX]
  local name="$1" kind="$2" impl="$3"
  shift 3
  check "$name" 0 "$BIN" corpus check "$T/c" -q --impl "$impl" "$@"
  local want
  want=$(count "$kind")
  [ "$want" -gt 0 ] || fail "$name: no $kind cases"
  tail -1 "$out" | grep -qx "$want passed, 0 failed" || fail "$name: $(cat "$out")"
}
all_pass "memtrace dump --json, every memtrace case" memtrace "$BIN memtrace dump --json {file}" --only memtrace/
all_pass "events dump --json, every ring case" ring "$BIN events dump --json {file}" --only ring/
all_pass "corpus decode, every case" "" "$BIN corpus decode {file}"

# Byte for byte, not only semantically.
for f in "$T"/c/memtrace/v3_event_forms.ctf "$T"/c/memtrace/v3_bad_unknown_event_code.ctf; do
  "$BIN" memtrace dump --json "$f" > "$T/dump" 2>/dev/null || true
  cmp -s "$T/dump" "$f.expected.jsonl" || fail "memtrace dump --json $(basename "$f") differs from corpus decode"
done
f="$T/c/ring/every_event_type.ocaml-5.0.events"
"$BIN" events dump --json "$f" > "$T/dump" 2>/dev/null || true
cmp -s "$T/dump" "$f.expected.jsonl" || fail "events dump --json $(basename "$f") differs from corpus decode"
cli_done
