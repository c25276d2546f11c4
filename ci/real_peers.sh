#!/usr/bin/env bash
# CI stage: the project against the real implementations of ../shared/peers (issue 12).
#   - ci/peers.sh: the real memtrace 0.2.3 and HEAD readers and OCaml 5.3's consumer, behind
#     the adapters of conformance/peers/, checked case by case in each verdict mode;
#   - //conformance/runtime/...: real Gc.Memprof against the sampler and engine, and
#     `events record` of a real OCaml 5.3 program.
# The peers are built once per machine and cached (ci/build_peers.sh); ci/all.sh starts
# the OCaml 5.3 build in the background before the lint stage, and the call below waits
# for it (the build holds a lock) instead of starting another. Without ../shared: SKIPPED.
set -uo pipefail
cd "$(dirname "$0")/.."
source ci/lib.sh
if ! peers=$(bash ci/build_peers.sh memtrace-0.2.3 ocaml-5.3); then
  echo "building the peers failed (logs: \$HOME/.cache/memprof-oracle-peers/*/ocaml-5.3.*.log)"
  [ -n "${MPO_PEERS_BUILD_LOG:-}" ] && tail -40 "$MPO_PEERS_BUILD_LOG"
  exit 1
fi
case "$peers" in
  SKIPPED*)
    echo "$peers"
    exit 0
    ;;
esac
rc=0
MPO_PEERS_OCAML=1 bash ci/peers.sh || rc=1
bazel_test //conformance/runtime/... --test_env=MPO_PEERS_DIR="$peers" || rc=1
exit "$rc"
