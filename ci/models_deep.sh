#!/usr/bin/env bash
# Deep model checking (not part of every CI run): every Relacy model's random-scheduler
# runs with at least ITERATIONS iterations each (default 10^6), then its search mode with
# the deep bounds (`--search --deep`).
# Usage: ci/models_deep.sh [ITERATIONS]. Prints executions and time per model, and
# "N passed, N failed" (one per model binary and mode).
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/lib.sh
iterations="${1:-1000000}"
targets=$(bazel query "${BAZEL_QUIET[@]}" 'kind("cc_test", //models/...)' 2>/dev/null)
[ -n "$targets" ] || { echo "no model tests found"; exit 1; }
# shellcheck disable=SC2086 # one label per word
bazel build "${BAZEL_QUIET[@]}" $targets
bin_dir=$(bazel info "${BAZEL_QUIET[@]}" bazel-bin 2>/dev/null)
work=$(mktemp -d)
passed=0
failed=0
run() {
  local label=$1 mode=$2 what=$3
  shift 3
  local pkg=${label#//}
  pkg=${pkg%%:*}
  local name=${label##*:}
  local log="$work/$name.$mode.log"
  local start=$SECONDS
  echo "== $label ($what)"
  if "$bin_dir/$pkg/$name" "$@" >"$log" 2>&1; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    tail -40 "$log"
    echo "FAILED: $label ($what), log in $log"
  fi
  grep -a '^\[model\]' "$log" || true
  echo "   $mode: $((SECONDS - start)) s"
}
for t in $targets; do
  MPO_MODEL_ITERATIONS="$iterations" run "$t" random "random, >= $iterations iterations"
  run "$t" search "exhaustive/context-bounded search, deep bounds" --search --deep
done
echo "models_deep: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
