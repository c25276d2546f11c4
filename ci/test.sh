#!/usr/bin/env bash
# The test suite: every target, default toolchain (g++). Ends with "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
source ci/lib.sh
if [ -z "${MPO_SHARED_TESTDATA:-}" ]; then
  echo "NOTE: ../shared/testdata not found: conformance tests against it will say SKIPPED"
fi
bazel_test //... "$@"
