#!/bin/bash
# corpus fuzz end to end: the reference decoder agrees with the oracle on every mutant,
# and deliberately wrong decoders are caught, minimized and saved, with a replayable
# report; declared differences do not fail the run.
set -euo pipefail
source tools/cli_test_lib.sh
BIN="$(abs_path "$1")"
T="$tmp"
run() { timeout 600 "$BIN" "$@"; }
REF="$BIN corpus decode {file}"
# Only the mutant budget may end a run whose counts are checked: a clock budget would make
# what is found depend on the machine's speed (under ASan the 60 s default ended runs early);
# so does minimization's, per class.
DET=(--max-seconds 86400 --timeout 600 --minimize-seconds 3600)

# --- The oracle against itself: no divergence, in both formats and a reference mode. ---
check "oracle vs itself, memtrace" 0 run corpus fuzz "${DET[@]}" --impl "$REF" --seed 11 --max-mutants 60
grep -q "^60 passed, 0 failed, 0 declared" "$out" || fail "memtrace summary: $(tail -1 "$out")"
grep -q "^seed: 11 " "$out" || fail "the seed is not printed: $(head -3 "$out")"
check "oracle vs itself, ring" 0 run corpus fuzz "${DET[@]}" --impl "$REF" --format ring --seed 12 \
  --max-mutants 20
grep -q "^20 passed, 0 failed" "$out" || fail "ring summary: $(tail -1 "$out")"
check "oracle vs itself, memtrace-0.2.3" 0 run corpus fuzz "${DET[@]}" --impl "$REF --as memtrace-0.2.3" \
  --as memtrace-0.2.3 --seed 13 --max-mutants 20
grep -q "^20 passed, 0 failed" "$out" || fail "0.2.3 summary: $(tail -1 "$out")"
# Without --seed the seed comes from the clock and is printed for a replay.
check "rotating seed" 0 run corpus fuzz --impl "$REF" --max-mutants 3
grep -qE "^seed: [0-9]+ \(--seed [0-9]+ replays this run\)" "$out" ||
  fail "no rotating seed line: $(head -3 "$out")"

# --- Seeds selected as corpus check selects cases: a v1/v2 reader gets no v3 seed. ---
check "selected seeds" 0 run corpus fuzz "${DET[@]}" --impl "$REF" --seed 14 --max-mutants 10 \
  --supports memtrace-v1,memtrace-v2 --only tag:backtrace --skip tag:rejected
grep -qE "^10 passed, 0 failed, 0 declared \(10 mutants of [1-9][0-9]* seeds .*; [1-9][0-9]* seeds left out by --only/--skip/--supports$" \
  "$out" || fail "selected seeds summary: $(tail -1 "$out")"
check "a seed tag nothing has" 2 run corpus fuzz "${DET[@]}" --impl "$REF" --max-mutants 1 \
  --only tag:no_such_tag
grep -q "no seed has the tag" "$err" || fail "unknown seed tag: $(cat "$err")"
check "a selection leaving no seed" 2 run corpus fuzz "${DET[@]}" --impl "$REF" --max-mutants 1 \
  --supports ring
grep -q "leave no seed" "$err" || fail "empty selection: $(cat "$err")"

# --- A decoder that loses the last record of every stream. ---
cat > "$T/drop_last.sh" <<SH
#!/bin/bash
out=\$("$BIN" corpus decode "\$1") && rc=0 || rc=\$?
n=\$(printf '%s\n' "\$out" | wc -l)
if [ "\$n" -ge 3 ]; then printf '%s\n' "\$out" | sed "\$((n - 1))d"; else printf '%s\n' "\$out"; fi
exit \$rc
SH
chmod +x "$T/drop_last.sh"
# Seeds the oracle accepts: a rejected input's records are not compared in strict mode.
check "drop-last is caught" 1 run corpus fuzz "${DET[@]}" --impl "$T/drop_last.sh {file}" --seed 8 \
  --skip tag:rejected --max-mutants 25 --max-minimize-tests 80 --out "$T/drop"
grep -q "^FAIL oracle=accept impl=accept differs=/" "$out" ||
  fail "drop-last: no records divergence: $(cat "$out")"
grep -qE "^[0-9]+ passed, [1-9][0-9]* failed" "$out" || fail "drop-last summary: $(tail -1 "$out")"
[ -s "$T/drop/divergence-1.ctf" ] || fail "drop-last: no reproducer saved"
[ -s "$T/drop/divergence-1.mutant.ctf" ] || fail "drop-last: the mutant is not saved"
grep -q "^first difference: line " "$T/drop/divergence-1.txt" ||
  fail "drop-last: the report has no first difference: $(cat "$T/drop/divergence-1.txt")"
min=$(stat -c %s "$T/drop/divergence-1.ctf")
orig=$(stat -c %s "$T/drop/divergence-1.mutant.ctf")
[ "$min" -lt "$orig" ] || fail "drop-last: not minimized ($min of $orig bytes)"
# The minimized input still shows the divergence: the reference and the wrapper differ.
"$BIN" corpus decode "$T/drop/divergence-1.ctf" > "$T/ref.jsonl" || true
"$T/drop_last.sh" "$T/drop/divergence-1.ctf" > "$T/got.jsonl" || true
cmp -s "$T/ref.jsonl" "$T/got.jsonl" && fail "drop-last: the minimized input no longer diverges"
# The report's replay line reruns that one mutant and finds it again.
index=$(sed -n 's/^mutant index: //p' "$T/drop/divergence-1.txt")
grep -q "^replay: .* --skip 'tag:rejected'" "$T/drop/divergence-1.txt" ||
  fail "drop-last: the replay line lacks the selection: $(cat "$T/drop/divergence-1.txt")"
check "drop-last replay" 1 run corpus fuzz "${DET[@]}" --impl "$T/drop_last.sh {file}" --seed 8 \
  --skip tag:rejected --first-index "$index" --max-mutants 1 --max-minimize-tests 0
grep -q "^0 passed, 1 failed" "$out" || fail "replay: $(tail -1 "$out")"

# --- A decoder that accepts everything: exit 0, the end line's error set to null. ---
cat > "$T/accept_all.sh" <<SH
#!/bin/bash
"$BIN" corpus decode "\$1" | sed '\$s/"error":{.*},"records"/"error":null,"records"/'
exit 0
SH
chmod +x "$T/accept_all.sh"
check "accept-all is caught" 1 run corpus fuzz --impl "$T/accept_all.sh {file}" --seed 6 "${DET[@]}" \
  --max-mutants 25 --max-minimize-tests 40 --out "$T/acc" -j 1
grep -qE "^FAIL oracle=reject\(.*\) impl=accept " "$out" ||
  fail "accept-all: no reject/accept divergence: $(cat "$out")"
ls "$T/acc"/divergence-*.txt > /dev/null 2>&1 || fail "accept-all: nothing saved"
# The same seed finds the same classes in the same order, minimized alike, whatever the
# number of workers.
same_run() { sed -e 's/, saved .*//' -e 's/ in [0-9.]* s, [0-9.]* mutants\/s//' "$out"; }
same_run > "$T/first_run"
check "accept-all again, -j 3" 1 run corpus fuzz --impl "$T/accept_all.sh {file}" --seed 6 \
  "${DET[@]}" --max-mutants 25 --max-minimize-tests 40 -j 3
same_run > "$T/second_run"
grep -q "^FAIL" "$T/second_run" || fail "accept-all -j 3: no class: $(cat "$out")"
cmp -s "$T/first_run" "$T/second_run" ||
  fail "accept-all: -j 3 reported otherwise: $(diff "$T/first_run" "$T/second_run")"
# Declared: the same divergences are reported, not failed.
printf '# this decoder never rejects\noracle=reject(*) impl=accept   # it never rejects\n' \
  > "$T/declared.txt"
check "accept-all declared" 0 run corpus fuzz "${DET[@]}" --impl "$T/accept_all.sh {file}" --seed 6 \
  --max-mutants 25 --max-minimize-tests 0 --declared "$T/declared.txt"
grep -q "^DECLARED oracle=reject(" "$out" || fail "declared: not reported: $(cat "$out")"
grep -qE "^[0-9]+ passed, 0 failed, [1-9][0-9]* declared" "$out" ||
  fail "declared summary: $(tail -1 "$out")"

# --- Built-in declared rules: --as MODE declares that reference's known bugs. ---
# A decoder with memtrace's loop on a packet_size below the header (it hangs where the
# oracle refuses that size): declared under --as memtrace-0.2.3 with no file given.
cat > "$T/loops.sh" <<SH
#!/bin/bash
out=\$("$BIN" corpus decode --as memtrace-0.2.3 "\$1") && rc=0 || rc=\$?
case "\$out" in *'"check":"packet header: packet_size"'*) sleep 5 ;; esac
printf '%s\n' "\$out"
exit \$rc
SH
chmod +x "$T/loops.sh"
LOOPS=(--impl "$T/loops.sh {file}" --as memtrace-0.2.3 --seed 1 --max-mutants 10 --timeout 0.5
  --max-seconds 86400 --max-minimize-tests 0)
check "built-in rules declare 0.2.3's loop" 0 run corpus fuzz "${LOOPS[@]}"
grep -qE "^fuzzing memtrace inputs, verdicts memtrace-0.2.3, [1-9][0-9]* declared rules \([1-9][0-9]* built in" \
  "$out" || fail "built-in rules not counted: $(head -3 "$out")"
grep -q "^DECLARED oracle=reject(packet header: packet_size) impl=timeout .*: memtrace loops" "$out" ||
  fail "the loop is not declared: $(cat "$out")"
check "without the built-in rules it fails" 1 run corpus fuzz "${LOOPS[@]}" --no-builtin-declared
grep -q "^FAIL oracle=reject(packet header: packet_size) impl=timeout" "$out" ||
  fail "no failure without the built-in rules: $(cat "$out")"
# The file adds to them, and a rule tagged for another mode does not apply.
printf 'as=ocaml-5.3 oracle=reject(packet header: packet_size) impl=timeout # not this mode\n' \
  > "$T/other_mode.txt"
check "a rule of another mode" 1 run corpus fuzz "${LOOPS[@]}" --no-builtin-declared \
  --declared "$T/other_mode.txt"
grep -q "^FAIL oracle=reject(packet header: packet_size) impl=timeout" "$out" ||
  fail "another mode's rule applied: $(cat "$out")"
check "help names the built-in rules" 0 run corpus fuzz --help
grep -q -- "--no-builtin-declared" "$out" || fail "help: no --no-builtin-declared"
# Help is wrapped to the terminal: a phrase may span lines.
tr -s ' \n' ' ' <"$out" | grep -c "known bugs are declared" >/dev/null ||
  fail "help: the built-in rules are not explained"

# --- Usage errors. ---
check "no {file}" 2 run corpus fuzz "${DET[@]}" --impl "cat" --max-mutants 1
check "mode without that format" 2 run corpus fuzz "${DET[@]}" --impl "$REF" --as ocaml-5.3 --format memtrace
check "missing declared file" 2 run corpus fuzz "${DET[@]}" --impl "$REF" --declared "$T/none"
check "missing seeds" 2 run corpus fuzz "${DET[@]}" --impl "$REF" --seeds "$T/none"
check "zero jobs" 2 run corpus fuzz "${DET[@]}" --impl "$REF" -j 0
check "zero mutants" 2 run corpus fuzz "${DET[@]}" --impl "$REF" --max-mutants 0
check "negative minimization budget" 2 run corpus fuzz "${DET[@]}" --impl "$REF" --minimize-seconds -1
check "bad format" 2 run corpus fuzz "${DET[@]}" --impl "$REF" --format sampler

cli_done
