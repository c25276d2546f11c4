#!/usr/bin/env bash
# CI's test stage: every test once. ASan+UBSan (g++) on everything that can be sanitized;
# then, unsanitized, the targets tagged nosan (Relacy models, and end-to-end CLI tests
# whose time goes into starting hundreds of processes); then TSan where threads run.
# Each configuration builds into its own output tree (.bazelrc), so none rebuilds another.
set -uo pipefail
cd "$(dirname "$0")/.."
source ci/lib.sh
if [ -z "${MPO_SHARED_TESTDATA:-}" ]; then
  echo "NOTE: ../shared/testdata not found: conformance tests against it will say SKIPPED"
fi
rc=0
echo "== asan + ubsan"
bazel_test //... --config=asan-ubsan || rc=1
echo "== asan + ubsan: $SECONDS s"
echo "== unsanitized: targets tagged nosan"
bazel_test //... --build_tag_filters=nosan --test_tag_filters=nosan || rc=1
echo "== unsanitized: $SECONDS s so far"
# TSan only on the tests that run real threads (tagged "threads": the sync layer, the
# ring's flooding producers, the engine's cross-domain paths). The simulator is
# single-threaded, so its statistics-heavy tests would only add minutes under TSan.
echo "== tsan"
bazel_test //... --config=tsan --build_tag_filters=threads --test_tag_filters=threads || rc=1
echo "== tsan: $SECONDS s so far"
exit $rc
