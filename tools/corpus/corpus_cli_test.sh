#!/bin/bash
# End to end through the real program: gen is deterministic, our own decoder passes every
# case via --impl, wrong decoders fail with the right first difference and exit code.
set -eo pipefail
source tools/cli_test_lib.sh
BIN="$(abs_path "$1")"
T="$tmp"

"$BIN" corpus gen "$T/a" > "$T/gen.out"
grep -q "cases (" "$T/gen.out" || fail "gen summary: $(cat "$T/gen.out")"
"$BIN" corpus gen "$T/b" > /dev/null
diff -r "$T/a" "$T/b" > /dev/null || fail "gen is not deterministic"

# Our own decoder through --impl: 100%.
"$BIN" corpus check "$T/a" --impl "$BIN corpus decode {file}" > "$T/self.out" \
  || fail "self check failed: $(grep -v ^PASS "$T/self.out")"
n=$(python3 -c "import json;print(len(json.load(open('$T/a/MANIFEST.json'))['cases']))")
tail -1 "$T/self.out" | grep -qx "$n passed, 0 failed" || fail "summary: $(tail -1 "$T/self.out")"
[ "$(grep -c '^PASS ' "$T/self.out")" = "$n" ] || fail "not one PASS line per case"

# decode --text is the expected text.
f="$T/a/memtrace/v3_event_forms.ctf"
"$BIN" corpus decode --text "$f" | cmp - "$f.expected.txt" || fail "decode --text"

# A decoder that gets one field wrong: that case fails, with the path and both values.
cat > "$T/wrong.sh" <<WRONG
#!/bin/bash
"$BIN" corpus decode "\$1" | sed 's/"domain":1,/"domain":7,/'
WRONG
chmod +x "$T/wrong.sh"
check "a wrong decoder fails" 1 "$BIN" corpus check "$T/a" --impl "$T/wrong.sh {file}" --only memtrace/ -q
cp "$out" "$T/wrong.out"
grep -q '^FAIL memtrace/v3_multidomain: at /events/1/domain: expected 1, got 7$' "$T/wrong.out" \
  || fail "first difference: $(cat "$T/wrong.out")"
[ "$(grep -c '^FAIL' "$T/wrong.out")" = 1 ] || fail "only the multi-domain case differs"
tail -1 "$T/wrong.out" | grep -q ' passed, 1 failed$' || fail "wrong summary"

# A decoder that exits non-zero fails every case; the run goes on to the end.
check "a failing decoder" 1 "$BIN" corpus check "$T/a" --impl "false {file}" --only sampler/
cp "$out" "$T/false.out"
grep -q '^FAIL sampler/binomial_seed0_lambda0: exit code 1$' "$T/false.out" || fail "false"
tail -1 "$T/false.out" | grep -q '^0 passed, 48 failed$' || fail "false summary"

# A decoder that hangs: timed out, next case still runs.
check "a hanging decoder" 1 "$BIN" corpus check "$T/a" --impl "sleep 20; cat {file}.expected.json" \
  --timeout 0.2 --only ring/every_event_type.ocaml-5.0
cp "$out" "$T/hang.out"
grep -q '^FAIL ring/every_event_type.ocaml-5.0: timed out' "$T/hang.out" || fail "hang"

# Usage errors exit 2.
check "no {file} placeholder" 2 "$BIN" corpus check "$T/a" --impl "cat"
cli_done
