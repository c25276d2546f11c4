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

grep -qx 'Main.main (main.ml:1);A.outer (lib/a.ml:42);A.inlined_inner (lib/a.ml:43);B.clamped (lib/b.ml:1048575) 16' \
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
check "--by kilobytes" 2 "$BIN" memtrace folded --by kilobytes "$f"

# A real trace (OCaml 5.3, memtrace v2): its outermost entry is a code memtrace could not
# name; no stack starts with a placeholder for it, and no "$CODE" frame is left anywhere.
r=testdata/memtrace/arrays_major.ocaml5.3.native.r1e-3
check "real trace" 0 "$BIN" memtrace folded $r.ctf
cp "$out" "$T/real.txt"
! grep -q '^\$\|;\$\|<unknown' "$T/real.txt" || fail "placeholder frame: $(head -3 "$T/real.txt")"
grep -q '^Arrays_major (workloads/arrays_major.ml:13);' "$T/real.txt" || fail "root frame: $(head -3 "$T/real.txt")"
[ "$(awk '{s += $NF} END {print s}' "$T/real.txt")" = 19337 ] || fail "real trace samples"
check "--by bytes" 0 "$BIN" memtrace folded --by bytes $r.ctf
# Rate 0.001 and 64-bit words: 8000 estimated bytes per sample.
[ "$(awk '{s += $NF} END {printf "%.0f", s}' "$out")" = 154696000 ] || fail "estimated bytes total"
check "--functions --collapse-recursion" 0 "$BIN" memtrace folded --functions --collapse-recursion $r.ctf
! grep -q '(.*:[0-9]*)' "$out" || fail "--functions kept file:line"
python3 - "$out" <<'PY' || fail "--collapse-recursion left a repeated frame"
import sys
for line in open(sys.argv[1]):
    frames = line.rsplit(" ", 1)[0].split(";")
    assert all(a != b for a, b in zip(frames, frames[1:])), line
PY
[ "$(awk '{s += $NF} END {print s}' "$out")" = 19337 ] || fail "collapsed samples"
# A window: the allocations in [0.005 s, 0.015 s] (dt in the golden decode, in us).
want=$(awk '$1 == "ev" && $4 == "alloc" { split($3, d, "="); if (d[2] >= 5000 && d[2] <= 15000) { split($8, n, "="); s += n[2] } } END {print s}' $r.oracle_dump.txt)
check "--from --to" 0 "$BIN" memtrace folded --from 0.005 --to 0.015 $r.ctf
[ "$(awk '{s += $NF} END {print s}' "$out")" = "$want" ] || fail "windowed samples != $want"
check "--to before --from" 2 "$BIN" memtrace folded --from 1 --to 0.5 $r.ctf
cli_done
