#!/usr/bin/env bash
# The --max-* options of every memtrace command: a passed budget is a typed error (exit
# 1) naming the option; a bad value is a usage error (exit 2); defaults read real traces.
source tools/cli_test_lib.sh
bin="$1"
t=testdata/memtrace/arrays_major.ocaml5.3.native.r1e-3.ctf
scratch=${TEST_TMPDIR:-/tmp}

for cmd in "dump" "dump --json" "dump --oracle" "check" "stats" "folded"; do
  # shellcheck disable=SC2086
  check "$cmd: defaults" 0 "$bin" memtrace $cmd $t
  # shellcheck disable=SC2086
  check "$cmd: --max-frames 10" 1 "$bin" memtrace $cmd --max-frames 10 $t
  grep -q "resource exhausted.*exceeds the limit of 10 (raise it with --max-frames)" "$err" ||
    { fail "$cmd: limit message"; cat "$err"; }
  # shellcheck disable=SC2086
  check "$cmd: --max-frames -1" 2 "$bin" memtrace $cmd --max-frames -1 $t
done
check "diff: --max-held-frames 8" 1 "$bin" memtrace diff --max-held-frames 8 $t $t
grep -q "raise it with --max-held-frames" "$err" || { fail "diff: limit message"; cat "$err"; }
check "copy: --max-location-bytes 10" 1 "$bin" memtrace copy --max-location-bytes 10 $t "$scratch/c.ctf"
grep -q "raise it with --max-location-bytes" "$err" || { fail "copy: limit message"; cat "$err"; }
check "dump: --max-output-bytes 100" 1 "$bin" memtrace dump --max-output-bytes 100 $t
grep -q "raise it with --max-output-bytes" "$err" || { fail "dump: output limit message"; cat "$err"; }
check "stats: --max-output-bytes 0" 2 "$bin" memtrace stats --max-output-bytes 0 $t
cli_done
