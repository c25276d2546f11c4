#!/bin/bash
# End to end through the real program: gen is deterministic and writes schema 2, our own
# decoder passes every case via --impl, wrong decoders fail at the right line with the
# right exit code and their stderr, other error words pass at verdict level, selection by
# names, tags and --supports, a schema 1 corpus is told to regenerate.
set -eo pipefail
source tools/cli_test_lib.sh
BIN="$(abs_path "$1")"
T="$tmp"

"$BIN" corpus gen "$T/a" > "$T/gen.out"
grep -q "cases (" "$T/gen.out" || fail "gen summary: $(cat "$T/gen.out")"
"$BIN" corpus gen "$T/b" > /dev/null
diff -r "$T/a" "$T/b" > /dev/null || fail "gen is not deterministic"
python3 - "$T/a/MANIFEST.json" <<'PY' || fail "MANIFEST.json is not schema 2"
import json, os, sys
m = json.load(open(sys.argv[1]))
assert m["schema"] == 2, m["schema"]
root = os.path.dirname(sys.argv[1])
for c in m["cases"]:
    assert c["expected_jsonl"] == c["file"] + ".expected.jsonl", c
    assert os.path.isfile(os.path.join(root, c["expected_jsonl"])), c
    tags = c["tags"]
    assert tags[0] == c["kind"], c
    assert ("rejected" if c["expects_error"] else "accepted") in tags, c
PY

# Our own decoder through --impl: 100%.
"$BIN" corpus check "$T/a" --impl "$BIN corpus decode {file}" > "$T/self.out" \
  || fail "self check failed: $(grep -v ^PASS "$T/self.out")"
n=$(python3 -c "import json;print(len(json.load(open('$T/a/MANIFEST.json'))['cases']))")
tail -1 "$T/self.out" | grep -qx "$n passed, 0 failed" || fail "summary: $(tail -1 "$T/self.out")"
head -1 "$T/self.out" | grep -qx "oracle: $("$BIN" --version)" || fail "version line: $(head -1 "$T/self.out")"
[ "$(grep -c '^PASS ' "$T/self.out")" = "$n" ] || fail "not one PASS line per case"

# decode prints the expected stream; --text the expected text. A rejected input prints
# its whole stream too, and exits 1.
f="$T/a/memtrace/v3_event_forms.ctf"
"$BIN" corpus decode "$f" | cmp - "$f.expected.jsonl" || fail "decode"
"$BIN" corpus decode --text "$f" | cmp - "$f.expected.txt" || fail "decode --text"
bad="$T/a/memtrace/v3_bad_unknown_event_code.ctf"
check "decode a rejected trace" 1 "$BIN" corpus decode "$bad"
cmp -s "$out" "$bad.expected.jsonl" || fail "decode of a rejected trace is not its expected stream"
grep -q "event header: code" "$err" || fail "decode of a rejected trace: $(cat "$err")"

# A decoder that gets one field wrong: that case fails, at its line, with both values.
cat > "$T/wrong.sh" <<WRONG
#!/bin/bash
"$BIN" corpus decode "\$1" | sed 's/"domain":1,/"domain":7,/'
WRONG
chmod +x "$T/wrong.sh"
check "a wrong decoder fails" 1 "$BIN" corpus check "$T/a" --impl "$T/wrong.sh {file}" --only memtrace/ -q
cp "$out" "$T/wrong.out"
line=$(grep -n -m1 '"domain":1,' "$T/a/memtrace/v3_multidomain.ctf.expected.jsonl" | cut -d: -f1)
grep -qx "FAIL memtrace/v3_multidomain: line $line: at /domain: expected 1, got 7" "$T/wrong.out" \
  || fail "first difference (line $line): $(cat "$T/wrong.out")"
[ "$(grep -c '^FAIL' "$T/wrong.out")" = 1 ] || fail "only the multi-domain case differs"
tail -1 "$T/wrong.out" | grep -q ' passed, 1 failed$' || fail "wrong summary"

# A decoder that stops without its end line, prints a record twice or leaves one out.
c="memtrace/v3_event_forms"
lines=$(wc -l < "$T/a/$c.ctf.expected.jsonl")
check "no end line" 1 "$BIN" corpus check "$T/a" --only "$c" --impl "head -n -1 {file}.expected.jsonl"
grep -qx "FAIL $c: incomplete stream: line $((lines - 1)), the last, is not the end line {\"kind\":\"end_of_stream\",...}" \
  "$out" || fail "no end line: $(cat "$out")"
check "an extra record" 1 "$BIN" corpus check "$T/a" --only "$c" --impl "sed 3p {file}.expected.jsonl"
grep -q "^FAIL $c: line 4: at /.*(expected $lines lines, got $((lines + 1))); line 4 printed: {\"kind\"" "$out" \
  || fail "an extra record: $(cat "$out")"
check "a missing record" 1 "$BIN" corpus check "$T/a" --only "$c" --impl "sed 3d {file}.expected.jsonl"
grep -q "^FAIL $c: line 3: at /.*(expected $lines lines, got $((lines - 1))); line 3 printed: {\"kind\"" "$out" \
  || fail "a missing record: $(cat "$out")"

# A rejected input: another record count passes when the header and the error agree
# (streaming decoders get further or less far), with exit 0 or 1; another error fails.
c="memtrace/v2_bad_non_monotone_times"
[ "$(wc -l < "$T/a/$c.ctf.expected.jsonl")" -gt 2 ] || fail "$c has no records before its error"
check "rejected input, fewer records, exit 1" 0 "$BIN" corpus check "$T/a" --only "$c" \
  --impl "{ head -n 1 {file}.expected.jsonl; tail -n 1 {file}.expected.jsonl; exit 1; }"
check "rejected input, other error words" 0 "$BIN" corpus check "$T/a" --only "$c" \
  --impl "sed '\$s/\"check\":\"[^\"]*\"/\"check\":\"x\"/' {file}.expected.jsonl"
check "rejected input, other error words, --exact-errors" 1 "$BIN" corpus check "$T/a" --only "$c" \
  --exact-errors --impl "sed '\$s/\"check\":\"[^\"]*\"/\"check\":\"x\"/' {file}.expected.jsonl"
grep -q "^FAIL $c: line [0-9]*: at /error/check: expected \"event header: monotone timestamps\", got \"x\"$" "$out" \
  || fail "another error: $(cat "$out")"
tail -1 "$out" | grep -qx "0 passed, 1 failed; errors compared exactly" || fail "exact summary: $(tail -1 "$out")"
check "rejected input, another error class" 1 "$BIN" corpus check "$T/a" --only "$c" \
  --impl "sed '\$s/\"code\":\"corrupt\"/\"code\":\"truncated\"/' {file}.expected.jsonl"
grep -q "^FAIL $c: line [0-9]*: at /error/code: expected \"corrupt\", got \"truncated\"$" "$out" \
  || fail "another error class: $(cat "$out")"
check "accepted input, exit 1" 1 "$BIN" corpus check "$T/a" --only memtrace/v3_event_forms \
  --impl "cat {file}.expected.jsonl; exit 1"
grep -qx "FAIL memtrace/v3_event_forms: exit code 1 where the input is accepted; the stream printed matches" \
  "$out" || fail "exit 1: $(cat "$out")"

# An independent reader with its own error words: every case passes at verdict level;
# --exact-errors fails every rejected input.
cat > "$T/reworded.sh" <<REWORDED
#!/bin/bash
"$BIN" corpus decode "\$1" | sed '\$s/"check":"[^"]*"/"check":"in my own words"/; \$s/"offset":[0-9][0-9]*/"offset":0/'
REWORDED
chmod +x "$T/reworded.sh"
"$BIN" corpus check "$T/a" --impl "$T/reworded.sh {file}" -q > "$T/reworded.out" \
  || fail "reworded errors fail strict mode: $(grep ^FAIL "$T/reworded.out" | head -5)"
tail -1 "$T/reworded.out" | grep -qx "$n passed, 0 failed" || fail "reworded summary: $(tail -1 "$T/reworded.out")"
rejected=$(python3 -c "import json;print(sum(c['expects_error'] for c in json.load(open('$T/a/MANIFEST.json'))['cases']))")
check "reworded errors, --exact-errors" 1 "$BIN" corpus check "$T/a" --impl "$T/reworded.sh {file}" \
  -q --exact-errors --only tag:rejected
tail -1 "$out" | grep -qx "0 passed, $rejected failed; errors compared exactly" \
  || fail "reworded --exact-errors: $(tail -1 "$out")"
# Cases judged at once report as one at a time would, line for line.
cp "$out" "$T/exact-default.out"
for j in 1 3; do
  check "reworded errors, --exact-errors -j $j" 1 "$BIN" corpus check "$T/a" -j "$j" \
    --impl "$T/reworded.sh {file}" -q --exact-errors --only tag:rejected
  cmp -s "$out" "$T/exact-default.out" || fail "-j $j reports otherwise: $(diff "$out" "$T/exact-default.out" | head)"
done
check "jobs 0" 2 "$BIN" corpus check "$T/a" --impl "cat {file}" -j 0

# A decoder that gives up midway on a valid input: its exit status, its first wrong
# record and its stderr are in the report.
c=memtrace/v3_event_forms
cat > "$T/midway.sh" <<MIDWAY
#!/bin/bash
"$BIN" corpus decode "\$1" | head -n 6 | sed '5s/"time":[0-9]*/"time":1/'
echo "midway: cannot read the record after time 1" >&2
exit 1
MIDWAY
chmod +x "$T/midway.sh"
check "exit 1 midway" 1 "$BIN" corpus check "$T/a" --only "$c" --impl "$T/midway.sh {file}"
want=$(sed -n 5p "$T/a/$c.ctf.expected.jsonl" | python3 -c "import json,sys;print(json.load(sys.stdin)['time'])")
grep -qx "FAIL $c: exit code 1 where the input is accepted; line 5: at /time: expected $want, got 1; incomplete stream: line 6, the last, is not the end line {\"kind\":\"end_of_stream\",...}" "$out" \
  || fail "exit 1 midway: $(cat "$out")"
grep -A1 "^FAIL $c" "$out" | tail -1 | grep -qx "  stderr:" || fail "no stderr header: $(cat "$out")"
grep -qx "    midway: cannot read the record after time 1" "$out" || fail "no stderr: $(cat "$out")"

# Selection: several patterns, tags, exclusions; what a decoder does not read.
check "only, several" 0 "$BIN" corpus check "$T/a" --impl "cat {file}.expected.jsonl" \
  --only memtrace/v1_event_forms,tag:ocaml-5.0 --only sampler/binomial_seed615_lambda1e-4
grep -c '^PASS ' "$out" | grep -qx 3 || fail "only, several: $(cat "$out")"
check "skip" 0 "$BIN" corpus check "$T/a" --impl "cat {file}.expected.jsonl" \
  --only tag:v2 --skip tag:bad,time
grep -q '^PASS memtrace/v2_event_forms$' "$out" || fail "skip: v2_event_forms"
! grep -q '^PASS .*\(_bad_\|time\)' "$out" || fail "skip: $(grep PASS "$out")"
check "supports" 0 "$BIN" corpus check "$T/a" --impl "cat {file}.expected.jsonl" \
  --only memtrace/ --supports memtrace-v1,memtrace-v2
v3=$(grep -c '^UNSUPPORTED memtrace/v3_' "$out")
[ "$v3" -gt 40 ] && ! grep -q '^UNSUPPORTED memtrace/v[12]_' "$out" || fail "supports: $(grep UNSUPP "$out" | head)"
tail -1 "$out" | grep -qx "[0-9]* passed, 0 failed, $v3 unsupported (--supports memtrace-v1,memtrace-v2)" \
  || fail "supports summary: $(tail -1 "$out")"
check "ignore fields" 0 "$BIN" corpus check "$T/a" --only "$c" \
  --impl "sed '1s/\"pid\":[0-9]*/\"pid\":1/' {file}.expected.jsonl" --ignore-fields /info/pid,/error/offset
tail -1 "$out" | grep -qx "1 passed, 0 failed; fields not compared: /info/pid,/error/offset" \
  || fail "ignore summary: $(tail -1 "$out")"
check "unknown tag" 2 "$BIN" corpus check "$T/a" --impl "cat {file}" --only tag:v9
grep -q "no case has the tag \"v9\"" "$err" || fail "unknown tag: $(cat "$err")"
check "bad pointer" 2 "$BIN" corpus check "$T/a" --impl "cat {file}" --ignore-fields info/pid
grep -q "is not a JSON Pointer" "$err" || fail "bad pointer: $(cat "$err")"
check "bad supports" 2 "$BIN" corpus check "$T/a" --impl "cat {file}" --supports memtrace-v7
grep -q -- "--supports" "$err" || fail "bad supports: $(cat "$err")"

# A decoder that exits non-zero fails every case; the run goes on to the end.
check "a failing decoder" 1 "$BIN" corpus check "$T/a" --impl "false {file}" --only sampler/
cp "$out" "$T/false.out"
grep -q '^FAIL sampler/binomial_seed0_lambda0: exit code 1 where the input is accepted; incomplete stream: no output' \
  "$T/false.out" || fail "false"
tail -1 "$T/false.out" | grep -q '^0 passed, 48 failed$' || fail "false summary"

# A decoder that hangs: timed out, next case still runs.
check "a hanging decoder" 1 "$BIN" corpus check "$T/a" --impl "sleep 20; cat {file}.expected.jsonl" \
  --timeout 0.2 --only ring/every_event_type.ocaml-5.0
cp "$out" "$T/hang.out"
grep -q '^FAIL ring/every_event_type.ocaml-5.0: timed out' "$T/hang.out" || fail "hang"

# {file} is an absolute path: a command that changes directory first still finds the
# case, also when the corpus was named by a relative path.
(cd "$T" && "$BIN" corpus check a --impl "cd / && cat {file}.expected.jsonl" \
  --only sampler/binomial_seed0) > "$T/cd.out" || fail "cd /: $(cat "$T/cd.out")"
grep -qE '^[1-9][0-9]* passed, 0 failed' "$T/cd.out" || fail "cd / summary: $(tail -1 "$T/cd.out")"

# A corpus of schema 1 (or without a schema) is refused: regenerate it.
for m in '{"schema":1,"cases":[]}' '{"cases":[]}'; do
  mkdir -p "$T/old" && printf '%s' "$m" > "$T/old/MANIFEST.json"
  check "schema 1 corpus $m" 2 "$BIN" corpus check "$T/old" --impl "cat {file}"
  grep -qF 'corpus schema 1: regenerate it with `memprof-oracle corpus gen DIR`' "$err" \
    || fail "schema 1 message: $(cat "$err")"
done

# The batch protocol: one decoder process for every case gives the same verdicts.
check "batch: the oracle's own decoder" 0 "$BIN" corpus check "$T/a" -q --batch \
  --impl "$BIN corpus decode --batch"
tail -1 "$out" | grep -qE '^259 passed, 0 failed$' || fail "batch summary: $(tail -1 "$out")"
# corpus decode --batch: each stream, then its end line with a one-file run's exit code.
printf '%s\n%s\n%s\n' "$T/a/memtrace/v2_empty.ctf" "$bad" "$T/a/no such file.ctf" |
  "$BIN" corpus decode --batch > "$T/batch.out" 2> "$T/batch.err" || fail "decode --batch exit"
grep -c '^{"kind":"batch_end","exit":' "$T/batch.out" | grep -qx 3 || fail "decode --batch: end lines"
grep '^{"kind":"batch_end"' "$T/batch.out" | tr -d '\n' |
  grep -qF '{"kind":"batch_end","exit":0}{"kind":"batch_end","exit":1}{"kind":"batch_end","exit":2}' ||
  fail "decode --batch: exit codes $(grep batch_end "$T/batch.out")"
grep -q 'no such file.ctf' "$T/batch.err" || fail "decode --batch: the missing file is named"
# A batch decoder that breaks the protocol fails its case, with the reason, and the run
# goes on with a fresh process.
check "batch: bad end line" 1 "$BIN" corpus check "$T/a" --batch --only v2_empty,v3_empty \
  --impl "while IFS= read -r p; do cat \"\$p.expected.jsonl\"; echo '{\"kind\":\"batch_end\"}'; done"
grep -q '^FAIL memtrace/v2_empty: batch protocol: an end line must be' "$out" || fail "bad end line"
check "batch: a hang" 1 "$BIN" corpus check "$T/a" --batch --only v2_empty,v3_empty --timeout 0.3 \
  --impl "while IFS= read -r p; do case \"\$p\" in *v2_*) sleep 20;; esac; cat \"\$p.expected.jsonl\"; echo '{\"kind\":\"batch_end\",\"exit\":0}'; done"
grep -q '^FAIL memtrace/v2_empty: timed out after 0.3 s without its end line' "$out" || fail "batch hang"
grep -q '^PASS memtrace/v3_empty' "$out" || fail "batch: the case after a hang"
# An implementation that kills its supervisor fails that case only, in either mode.
check "kills its supervisor" 1 "$BIN" corpus check "$T/a" --only v2_empty,v3_empty \
  --impl 'kill -9 $PPID; sleep 20 # {file}'
grep -q "^FAIL memtrace/v3_empty: killed by signal 9" "$out" || fail "supervisor"
tail -1 "$out" | grep -q '^0 passed, 2 failed$' || fail "supervisor summary"
check "kills its supervisor, two at once" 1 "$BIN" corpus check "$T/a" --only v2_empty,v3_empty \
  -j 2 --impl 'kill -9 $PPID; sleep 20 # {file}'
[ "$(grep -c '^FAIL memtrace/v[23]_empty: killed by signal 9' "$out")" = 2 ] || fail "supervisors, -j 2: $(cat "$out")"
check "batch: fuzz" 0 "$BIN" corpus fuzz --batch --impl "$BIN corpus decode --batch" --seed 3 \
  --max-mutants 40
grep -q '^40 passed, 0 failed' "$out" || fail "batch fuzz: $(tail -1 "$out")"

# Usage errors exit 2.
check "no {file} placeholder" 2 "$BIN" corpus check "$T/a" --impl "cat"
check "{file} with --batch" 2 "$BIN" corpus check "$T/a" --batch --impl "cat {file}"
check "decode: FILE with --batch" 2 "$BIN" corpus decode --batch "$bad"
check "decode: no FILE" 2 "$BIN" corpus decode
cli_done
