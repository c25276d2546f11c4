# Shared by the ci/ scripts: Bazel with quiet progress, and the plain result line.
export MPO_SHARED_TESTDATA="${MPO_SHARED_TESTDATA:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/shared/testdata}"
[ -d "$MPO_SHARED_TESTDATA" ] || unset MPO_SHARED_TESTDATA

# RapidCheck properties run on one fixed seed in CI, so a run is reproducible; set
# RC_PARAMS yourself to explore others (e.g. RC_PARAMS="seed=1 max_success=10000").
export RC_PARAMS="${RC_PARAMS:-seed=20261121}"

BAZEL_QUIET=(--noshow_progress --color=no --curses=no)

# bazel_test LABEL... [-- FLAGS]: runs bazel test, prints "N passed, N failed" (the
# targets' verdicts, as Bazel reports them) and returns Bazel's exit code.
bazel_test() {
  local log
  log=$(mktemp)
  bazel test "${BAZEL_QUIET[@]}" "$@" 2>&1 | tee "$log"
  local rc=${PIPESTATUS[0]}
  local passed failed
  passed=$(grep -cE '^//[^ ]+ +(\(cached\) )?PASSED in' "$log" || true)
  failed=$(grep -cE '^//[^ ]+ +(\(cached\) )?(FAILED|TIMEOUT|FLAKY|NO STATUS|INCOMPLETE|FAILED TO BUILD)' "$log" || true)
  rm -f "$log"
  echo "$passed passed, $failed failed"
  return "$rc"
}
