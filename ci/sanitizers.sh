#!/usr/bin/env bash
# The sanitizer matrix: ASan+UBSan, then TSan (g++). Relacy targets (nosan) are skipped.
set -uo pipefail
cd "$(dirname "$0")/.."
source ci/lib.sh
rc=0
echo "== asan + ubsan"
bazel_test //... --config=asan-ubsan || rc=1
echo "== tsan"
bazel_test //... --config=tsan || rc=1
exit $rc
