#!/usr/bin/env bash
# Everything CI checks, in order; stops at the first failing stage. The README's test
# command. FUZZ_SECONDS (default 30) bounds each fuzz target's run (12 targets, two at a
# time: 3 min). Every test runs once, in the sanitizer stage (sanitized unless it cannot
# be); ci/test.sh runs the whole suite unsanitized, as `bazel test //...` does.
# The Relacy models' deep mode (ci/models_deep.sh, >= 10^6 iterations each) is not run here.
set -uo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
log=$(mktemp)
total_passed=0
total_failed=0
# Adds up every "N passed, N failed" line a stage printed into the closing summary.
tally() {
  local p f
  while read -r p f; do
    total_passed=$((total_passed + p))
    total_failed=$((total_failed + f))
  done < <(sed -nE 's/^([a-z]+: )?([0-9]+) passed, ([0-9]+) failed$/\2 \3/p' "$log")
}
stage() {
  echo
  echo "######## $1"
  shift
  local stage_start=$SECONDS
  "$@" 2>&1 | tee "$log"
  local rc=${PIPESTATUS[0]}
  tally
  echo "######## stage time: $((SECONDS - stage_start)) s (total $((SECONDS - start)) s)"
  if [ "$rc" -ne 0 ]; then
    echo "######## FAILED: $*"
    echo "ci: $total_passed passed, $((total_failed > 0 ? total_failed : 1)) failed"
    exit 1
  fi
}
stage "tests (sanitizers)" bash ci/sanitizers.sh
stage "bazel consumer" bash ci/consumer_test.sh
# The real OCaml 5.3 (with memtrace HEAD) for the last stage builds in the background
# while fuzzing and lint run (~4 min on idle cores, ~15 under load; cached in ~/.cache
# afterwards). Both stages take the same wall time with it: each fuzz target runs for a
# fixed time (a busy machine only makes fewer runs), and lint has no time limits.
export MPO_PEERS_BUILD_LOG
MPO_PEERS_BUILD_LOG=$(mktemp)
bash ci/build_peers.sh memtrace-0.2.3 ocaml-5.3 >"$MPO_PEERS_BUILD_LOG" 2>&1 &
stage "fuzzing (oss-fuzz build)" bash ci/fuzz.sh "${FUZZ_SECONDS:-30}"
stage "libc++ build" bash ci/libcxx.sh
stage "lint" bash ci/tidy.sh
stage "real peers" bash ci/real_peers.sh
echo
echo "all stages passed in $((SECONDS - start)) s"
echo "ci: $total_passed passed, $total_failed failed"
