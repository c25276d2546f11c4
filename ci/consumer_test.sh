#!/usr/bin/env bash
# Builds and tests examples/bazel_consumer: a separate workspace that depends on this one
# through local_repository and deps.bzl, with no C++ standard flag of its own. It runs
# its own Bazel server (another output base); the shared disk cache keeps reruns fast.
# Ends with "N passed, N failed", like the other stages.
set -uo pipefail
cd "$(dirname "$0")/.."
source ci/lib.sh
cd examples/bazel_consumer || exit 2
bazel_test //...
