#!/usr/bin/env bash
# clang-tidy (checks in .clang-tidy) and clang-format over the library code in core/.
set -uo pipefail
cd "$(dirname "$0")/.."
files=$(git ls-files 'core/*.cc' | grep -v '_test.cc$')
rc=0
if ! clang-format --dry-run --Werror $(git ls-files 'core/*.cc' 'core/*.h' 'tools/*.cc' 'tools/*.h'); then
  echo "clang-format: files above need formatting"; rc=1
fi
for f in $files; do
  clang-tidy --quiet "$f" -- -std=c++20 -I. -xc++ 2>/dev/null | grep -E "warning:|error:" && rc=1
done
[ $rc -eq 0 ] && echo "tidy: clean"
exit $rc
