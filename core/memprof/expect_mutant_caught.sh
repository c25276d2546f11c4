#!/bin/sh
# Usage: expect_mutant_caught.sh BINARY GTEST_FILTER RC_PARAMS PATTERN...
# Runs a test binary built on a deliberately broken engine (core/memprof/mutant.h).
# Passes when the binary fails AND its output matches every extended regex PATTERN
# (so a crash or a silent pass both count as the mutant escaping); prints the lines
# that show how it was caught.
bin=$1
filter=$2
params=$3
shift 3
RC_PARAMS=$params
export RC_PARAMS
out=$("$bin" --gtest_filter="$filter" 2>&1)
rc=$?
if [ "$rc" -eq 0 ]; then
  echo "MUTANT SURVIVED: $bin passed"
  printf '%s\n' "$out" | tail -20
  exit 1
fi
for pattern in "$@"; do
  if ! printf '%s\n' "$out" | grep -Eq -- "$pattern"; then
    echo "MUTANT NOT CLEANLY CAUGHT: exit $rc without output matching: $pattern"
    printf '%s\n' "$out" | tail -40
    exit 1
  fi
done
# The report, from the first pattern's first match on.
first=$(printf '%s\n' "$out" | grep -En -- "$1" | head -1 | cut -d: -f1)
printf '%s\n' "$out" | tail -n +"$first" | head -40
echo "mutant caught (exit $rc)"
