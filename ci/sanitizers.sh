#!/usr/bin/env bash
# The sanitizer matrix: ASan+UBSan on everything, then TSan where threads run (g++).
# Relacy targets (nosan) are skipped.
set -uo pipefail
cd "$(dirname "$0")/.."
source ci/lib.sh
rc=0
echo "== asan + ubsan"
bazel_test //... --config=asan-ubsan || rc=1
# TSan only on the tests that run real threads (tagged "threads": the sync layer, the
# ring's flooding producers, the engine's cross-domain paths). The simulator is
# single-threaded, so its statistics-heavy tests would only add minutes under TSan.
echo "== tsan"
bazel_test //... --config=tsan --build_tag_filters=threads --test_tag_filters=threads || rc=1
exit $rc
