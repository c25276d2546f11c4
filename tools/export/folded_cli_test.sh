#!/bin/bash
# `memtrace folded` through the real program, on a trace of the generated corpus: caller
# first, inlined frames unfolded, counts summing to the trace's samples / sampled words.
set -eo pipefail
source tools/cli_test_lib.sh
BIN="$1"
T="$tmp"

"$BIN" corpus gen "$T/c" > /dev/null
f="$T/c/memtrace/v3_event_forms.ctf"
"$BIN" memtrace folded "$f" > "$T/samples.txt"
"$BIN" memtrace folded --by words "$f" > "$T/words.txt"

grep -qx 'Main.main (main.ml:1);A.inlined_inner (lib/a.ml:43);A.outer (lib/a.ml:42);B.clamped (lib/b.ml:1048575) 16' \
  "$T/samples.txt" || fail "16 short allocs at one site: $(cat "$T/samples.txt")"
grep -qx '<no backtrace> 1' "$T/samples.txt" || fail "no-backtrace line"
grep -qx 'Main.main (main.ml:1) 100000' "$T/words.txt" || fail "external words"

# Totals agree with the decoded view (schema 2 JSON Lines).
"$BIN" memtrace dump --json "$f" > "$T/view.jsonl"
read -r want_samples want_words < <(python3 - "$T/view.jsonl" <<'PY'
import json, sys
ev = [e for e in map(json.loads, open(sys.argv[1])) if e.get("kind") == "alloc"]
print(sum(e["nsamples"] for e in ev), sum(e["length"] for e in ev if e["nsamples"] > 0))
PY
)
got_samples=$(awk '{s += $NF} END {printf "%.0f", s}' "$T/samples.txt")
got_words=$(awk '{s += $NF} END {printf "%.0f", s}' "$T/words.txt")
[ "$got_samples" = "$want_samples" ] || fail "samples $got_samples != $want_samples"
[ "$got_words" = "$want_words" ] || fail "words $got_words != $want_words"
# Every line is "stack count" with a positive integer count.
if grep -vqE '^.+ [1-9][0-9]*$' "$T/samples.txt"; then fail "malformed line"; fi

# A malformed trace: a typed error and exit code 1, nothing on stdout.
check "a bad trace" 1 "$BIN" memtrace folded "$T/c/memtrace/v3_bad_magic.ctf"
[ ! -s "$out" ] || fail "output on a bad trace"
grep -q 'packet header: magic' "$err" || fail "error message: $(cat "$err")"
check "--by bytes" 2 "$BIN" memtrace folded --by bytes "$f"
cli_done
