# Shared helpers for the end-to-end tests of memprof-oracle (sourced, not run).
#
#   check NAME WANT_EXIT CMD...  runs CMD with stdout in $out and stderr in $err; a wrong
#                                exit code is a failure (reported with stderr), not an abort
#   fail MESSAGE...              records a failure and goes on, so one run shows them all
#   abs_path PATH                PATH made absolute (Bazel passes runfiles-relative paths)
#   cli_done                     ends the test: exit 1 if anything failed
#
# $tmp is a fresh scratch directory, removed at exit. Works with and without `set -e`.
set -u
cli_failures=0
tmp="$(mktemp -d "${TEST_TMPDIR:-/tmp}/cli.XXXXXX")"
out="$tmp/out"
err="$tmp/err"
trap 'rm -rf "$tmp"' EXIT

check() {
  local name="$1" want="$2" got=0
  shift 2
  "$@" >"$out" 2>"$err" || got=$?
  if [ "$got" != "$want" ]; then
    echo "FAIL $name: exit $got, want $want"
    cat "$err"
    cli_failures=$((cli_failures + 1))
  else
    echo "ok   $name"
  fi
}

fail() {
  echo "FAIL $*"
  cli_failures=$((cli_failures + 1))
}

abs_path() {
  echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
}

cli_done() {
  if [ "$cli_failures" != 0 ]; then
    echo "$cli_failures check(s) failed"
    exit 1
  fi
  echo PASS
  exit 0
}
