#!/usr/bin/env bash
# CI's lint stage: core/'s layering (ci/layering.py), then clang-tidy (checks in
# .clang-tidy) and clang-format over the library code in core/.
# clang-tidy runs MPO_TIDY_JOBS files at a time (default: nproc).
set -uo pipefail
cd "$(dirname "$0")/.."
rc=0
python3 ci/layering.py || rc=1
if ! clang-format --dry-run --Werror $(git ls-files 'core/*.cc' 'core/*.h' 'tools/*.cc' 'tools/*.h'); then
  echo "clang-format: files above need formatting"; rc=1
fi
findings=$(git ls-files 'core/*.cc' | grep -v '_test.cc$' |
  xargs -P "${MPO_TIDY_JOBS:-$(nproc)}" -I{} sh -c \
    'clang-tidy --quiet "$1" -- -std=c++20 -I. -xc++ 2>/dev/null | grep -E "warning:|error:"' _ {})
if [ -n "$findings" ]; then
  echo "$findings"
  rc=1
fi
[ $rc -eq 0 ] && echo "tidy: clean"
exit $rc
