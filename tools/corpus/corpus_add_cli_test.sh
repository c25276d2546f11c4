#!/bin/bash
# corpus add end to end: the demo's own trace and ring (the ring once named for its
# release), a rejected file, a real trace from ../shared/testdata, then corpus check
# --only tag:user passes with our decoder and fails with a wrong one; refusals write
# nothing; the added files serve as corpus fuzz seeds.
set -eo pipefail
source tools/cli_test_lib.sh
BIN="$(abs_path "$1")"
T="$tmp"
C="$T/corpus"

"$BIN" demo --out "$T/demo" --steps 200 --domains 2 > /dev/null
# A ring without its release in its name is refused, and nothing is written.
check "a ring named without its release" 2 "$BIN" corpus add "$C" "$T/demo/4242.events"
grep -q "NAME.ocaml-5.N.events" "$err" || fail "ring refusal: $(cat "$err")"
[ ! -e "$C" ] || fail "a refused add wrote $C"
ln -s "$T/demo/4242.events" "$T/demo/4242.ocaml-5.3.events"
printf 'not a trace' > "$T/broken.ctf"
check "add the demo's files" 0 "$BIN" corpus add "$C" "$T/demo/trace.ctf" \
  "$T/demo/4242.ocaml-5.3.events" "$T/broken.ctf"
grep -qx "added memtrace/user_trace (accepted)" "$out" || fail "add output: $(cat "$out")"
grep -qx "added ring/user_4242 (accepted)" "$out" || fail "add output: $(cat "$out")"
grep -qx "added memtrace/user_broken (rejected by the oracle)" "$out" || fail "add output: $(cat "$out")"
cmp -s "$T/demo/trace.ctf" "$C/memtrace/user_trace.ctf" || fail "the trace is not copied"
"$BIN" corpus decode "$C/memtrace/user_trace.ctf" | cmp - "$C/memtrace/user_trace.ctf.expected.jsonl" \
  || fail "expected stream of the added trace"

real="${MPO_SHARED_TESTDATA:-}/memtrace/deep_exn.ocaml4.13.native.r1e-3.ctf"
if [ -n "${MPO_SHARED_TESTDATA:-}" ] && [ -r "$real" ]; then
  check "add a real trace" 0 "$BIN" corpus add "$C" "$real"
  n=4
else
  echo "SKIPPED: the real trace from ../shared/testdata (set MPO_SHARED_TESTDATA)"
  n=3
fi
python3 - "$C/MANIFEST.json" "$n" <<'PY' || fail "MANIFEST.json of the added cases"
import json, sys
m = json.load(open(sys.argv[1]))
assert m["schema"] == 2, m
cases = m["cases"]
assert len(cases) == int(sys.argv[2]), cases
for c in cases:
    assert c["name"].split("/")[1].startswith("user_"), c
    assert c["tags"][0] == c["kind"] and c["tags"][-1] == "user", c
ring = [c for c in cases if c["kind"] == "ring"][0]
assert "ocaml-5.3" in ring["tags"], ring
PY

# Adding the same file again replaces its own case only.
check "add again" 0 "$BIN" corpus add "$C" "$T/broken.ctf"
grep -qx "replaced memtrace/user_broken (rejected by the oracle)" "$out" || fail "replace: $(cat "$out")"
[ "$(python3 -c "import json;print(len(json.load(open('$C/MANIFEST.json'))['cases']))")" = "$n" ] \
  || fail "replacing added a case"

# A refused file among good ones: all or nothing.
cp "$C/MANIFEST.json" "$T/manifest.before"
printf 'x' > "$T/notes.txt"
check "an unknown kind" 2 "$BIN" corpus add "$C" "$T/demo/trace.ctf" "$T/notes.txt"
grep -q "notes.txt" "$err" || fail "the refusal names the file: $(cat "$err")"
cmp -s "$T/manifest.before" "$C/MANIFEST.json" || fail "a refused add changed MANIFEST.json"
check "a directory" 2 "$BIN" corpus add "$C" "$T/demo"
check "no file" 2 "$BIN" corpus add "$C"

check "our decoder passes the user cases" 0 \
  "$BIN" corpus check "$C" --only tag:user --impl "$BIN corpus decode {file}"
tail -1 "$out" | grep -qx "$n passed, 0 failed" || fail "summary: $(tail -1 "$out")"
cat > "$T/wrong.sh" <<WRONG
#!/bin/bash
"$BIN" corpus decode "\$1" | sed 's/"domain":1,/"domain":7,/'
WRONG
chmod +x "$T/wrong.sh"
check "a wrong decoder fails" 1 "$BIN" corpus check "$C" --only tag:user --impl "$T/wrong.sh {file}" -q
grep -q "^FAIL memtrace/user_trace: line [0-9]*: at /domain: expected 1, got 7" "$out" \
  || fail "wrong decoder: $(cat "$out")"

# The corpus folder, added files included, seeds corpus fuzz.
seeds() { sed -n 's/.* mutants of \([0-9]*\) seeds.*/\1/p' "$out"; }
check "fuzz without seeds" 0 "$BIN" corpus fuzz --impl "$BIN corpus decode {file}" \
  --seed 1 --max-mutants 20 --format ring
builtin=$(seeds)
check "the corpus seeds fuzz" 0 "$BIN" corpus fuzz --impl "$BIN corpus decode {file}" \
  --seeds "$C" --seed 1 --max-mutants 20 --format ring
[ -n "$builtin" ] && [ "$(seeds)" = $((builtin + 1)) ] \
  || fail "the added ring is not a seed: $builtin, then $(cat "$out")"
# Into a file first: with pipefail, grep -q ending the pipe early would kill the writer.
"$BIN" corpus fuzz --help >"$out"
tr -s ' \n' ' ' <"$out" | grep -c "corpus add" >/dev/null || fail "fuzz --help does not mention corpus add"
cli_done
