#!/usr/bin/env bash
# The examples an outside user starts from:
# - examples/bazel_consumer: a separate workspace that depends on this one through
#   local_repository and deps.bzl, with no C++ standard flag of its own. It runs its own
#   Bazel server (another output base).
# - examples/python_sampler: an implementation in another language, held to the corpus by
#   `corpus check` through the adapter contract, and a broken copy of it caught.
# Ends with "N passed, N failed" lines, like the other stages.
set -uo pipefail
cd "$(dirname "$0")/.."
source ci/lib.sh
bazel build "${BAZEL_QUIET[@]}" //tools:memprof-oracle || exit 1
bash examples/python_sampler/check.sh .bazel/bin/tools/memprof-oracle || exit 1
cd examples/bazel_consumer || exit 2
bazel_test //...
