#!/usr/bin/env bash
# memprof-oracle's conformance kit, run from another workspace: generate the corpus, then
# check an implementation against it. The implementation here is memprof-oracle's own
# decoder; a project testing its decoder would put its own command in --impl.
set -euo pipefail
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
corpus="$TEST_TMPDIR/corpus"
"$bin" corpus gen "$corpus"
[ -f "$corpus/MANIFEST.json" ] || { echo "FAIL: corpus gen wrote no MANIFEST.json"; exit 1; }
out="$TEST_TMPDIR/check.txt"
"$bin" corpus check "$corpus" --impl "$bin corpus decode {file}" -q | tee "$out"
# The summary must count every case (not an empty selection that passes vacuously).
summary=$(tail -n 1 "$out")
if ! [[ "$summary" =~ ^([0-9]+)\ passed,\ 0\ failed$ ]] || [ "${BASH_REMATCH[1]}" -eq 0 ]; then
  echo "FAIL: unexpected summary: $summary"
  exit 1
fi
echo "PASS: $summary"
