#!/usr/bin/env bash
# The sanitizer matrix: ASan+UBSan on everything, then TSan where threads run (g++).
# Relacy targets (nosan) are skipped.
set -uo pipefail
cd "$(dirname "$0")/.."
source ci/lib.sh
rc=0
echo "== asan + ubsan"
bazel_test //... --config=asan-ubsan || rc=1
# TSan only where threads run concurrently: the sync layer, the ring (stress test with
# real threads) and the memprof engine and simulator (domains on real threads).
echo "== tsan"
bazel_test //core/sync/... //core/ring/... //core/memprof/... //core/sim/... --config=tsan || rc=1
exit $rc
