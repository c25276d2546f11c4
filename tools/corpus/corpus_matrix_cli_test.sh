#!/bin/bash
# `corpus matrix`: columns of batch decoders over a generated corpus give the Markdown
# table (stdout or --markdown) and the HTML page; bad column specs are usage errors.
set -eo pipefail
source tools/cli_test_lib.sh
BIN="$(abs_path "$1")"
T="$tmp"

"$BIN" corpus gen "$T/c" > /dev/null
strict="oracle=$BIN corpus decode --batch"
as023="oracle@memtrace-0.2.3=$BIN corpus decode --batch --as memtrace-0.2.3"

check "matrix, two columns" 0 "$BIN" corpus matrix "$T/c" --column "$strict" --column "$as023" \
  --html "$T/m.html"
grep -qx "| family | cases | oracle | oracle (as memtrace-0.2.3) |" "$out" || fail "heading: $(head -6 "$out")"
grep -qx "| sampler accepted | 48 | 48 passed | n/a |" "$out" || fail "sampler row: $(cat "$out")"
grep -Eqx "\| memtrace v1 rejected \| 45 \| 45 passed \| [0-9]+ passed, [1-9][0-9]* declared \|" "$out" ||
  fail "declared differences of memtrace 0.2.3: $(cat "$out")"
rows=$(grep -c "^| [a-z]" "$out")
[ "$rows" -ge 10 ] || fail "only $rows rows"
grep -q '<table id="matrix">' "$T/m.html" || fail "no table in the page"
[ "$(grep -c '<details id="family-' "$T/m.html")" = "$((rows - 1))" ] || fail "a family's cases are missing from the page"

check "matrix --markdown" 0 "$BIN" corpus matrix "$T/c" --column "$strict" --markdown "$T/m.md"
[ ! -s "$out" ] || fail "--markdown also printed: $(head -3 "$out")"
grep -qx "| sampler accepted | 48 | 48 passed |" "$T/m.md" || fail "markdown file: $(cat "$T/m.md")"

check "matrix: a spec without =" 2 "$BIN" corpus matrix "$T/c" --column "oracle"
grep -q -- "--column" "$err" || fail "message does not name --column: $(cat "$err")"
check "matrix: an unknown mode" 2 "$BIN" corpus matrix "$T/c" --column "x@nonsense=cat {file}"
grep -q 'unknown mode "nonsense"' "$err" || fail "unknown mode: $(cat "$err")"
check "matrix: no corpus" 2 "$BIN" corpus matrix "$T/none" --column "$strict"
grep -q "MANIFEST.json" "$err" || fail "missing corpus: $(cat "$err")"
[ ! -e "$T/none" ] || fail "a missing corpus was created"
cli_done
