#!/usr/bin/env bash
# check.sh BIN: the Python sampler passes every sampler case of the corpus that BIN
# generates, and a copy with one realistic bug (rand_init's surplus not less one) fails
# some. Python is slow: a case may take seconds, so --timeout allows minutes.
# Ends with "N passed, N failed" over these two checks.
set -uo pipefail
bin=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
"$bin" corpus gen "$tmp/corpus" >/dev/null || exit 2

"$bin" corpus check "$tmp/corpus" --only sampler/ -q --timeout 300 \
  --impl "python3 $here/memprof_sampler.py {file}" >"$tmp/good.txt"
summary=$(tail -n 1 "$tmp/good.txt")
if [[ "$summary" =~ ^([0-9]+)\ passed,\ 0\ failed ]] && [ "${BASH_REMATCH[1]}" -gt 0 ]; then
  echo "PASS: the Python sampler: $summary"
  passed=$((passed + 1))
else
  echo "FAIL: the Python sampler: $summary"
  cat "$tmp/good.txt"
  failed=$((failed + 1))
fi

sed 's/self\.geometric() - 1$/self.geometric()/' "$here/memprof_sampler.py" >"$tmp/broken.py"
if cmp -s "$here/memprof_sampler.py" "$tmp/broken.py"; then
  echo "FAIL: the broken copy is unchanged (the sed pattern no longer matches)"
  failed=$((failed + 1))
else
  "$bin" corpus check "$tmp/corpus" --only sampler/ -q --timeout 300 \
    --impl "python3 $tmp/broken.py {file}" >"$tmp/broken.txt"
  summary=$(tail -n 1 "$tmp/broken.txt")
  # Caught by its records (a FAIL naming a line), not by running out of time.
  if [[ "$summary" =~ ^[0-9]+\ passed,\ ([0-9]+)\ failed ]] && [ "${BASH_REMATCH[1]}" -ge 20 ] &&
    ! grep -q 'timed out' "$tmp/broken.txt"; then
    echo "PASS: the broken copy is caught: $summary"
    passed=$((passed + 1))
  else
    echo "FAIL: the broken copy passed: $summary"
    failed=$((failed + 1))
  fi
fi
echo "examples: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
