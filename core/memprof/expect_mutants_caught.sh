#!/bin/sh
# Usage: expect_mutants_caught.sh NAMES_BINARY BINARY GTEST_FILTER RC_PARAMS PATTERN...
# Runs test BINARY once per mutant that NAMES_BINARY lists (core/memprof/mutants.h),
# selecting it with MPO_MEMPROF_FAULTS. Passes when every run fails AND its output
# matches every extended regex PATTERN (so a crash or a silent pass both count as the
# mutant escaping); prints, for each mutant, the lines that show how it was caught.
names_bin=$1
bin=$2
filter=$3
params=$4
shift 4
RC_PARAMS=$params
export RC_PARAMS
names=$("$names_bin") || { echo "cannot list mutants: $names_bin failed"; exit 1; }
[ -n "$names" ] || { echo "no mutants listed by $names_bin"; exit 1; }
failed=0
for name in $names; do
  echo "=== mutant $name"
  out=$(MPO_MEMPROF_FAULTS=$name "$bin" --gtest_filter="$filter" 2>&1)
  rc=$?
  if [ "$rc" -eq 0 ]; then
    echo "MUTANT SURVIVED: $name ($bin passed)"
    printf '%s\n' "$out" | tail -20
    failed=1
    continue
  fi
  clean=1
  for pattern in "$@"; do
    if ! printf '%s\n' "$out" | grep -Eq -- "$pattern"; then
      echo "MUTANT NOT CLEANLY CAUGHT: $name: exit $rc without output matching: $pattern"
      printf '%s\n' "$out" | tail -40
      clean=0
      failed=1
      break
    fi
  done
  [ "$clean" -eq 1 ] || continue
  # The report, from the first pattern's first match on.
  first=$(printf '%s\n' "$out" | grep -En -- "$1" | head -1 | cut -d: -f1)
  printf '%s\n' "$out" | tail -n +"$first" | head -40
  echo "mutant $name caught (exit $rc)"
done
exit "$failed"
