#!/usr/bin/env bash
# Progress (tools/progress.h): shown on a terminal once an operation has run a while,
# never when stderr is not a terminal, and taken away before results are printed.
# `script` gives the command a pseudo-terminal; MPO_PROGRESS_AFTER_SECONDS sets the delay
# (0: at once; 100000: never within a test), so no check depends on the machine's speed.
source "$(dirname "$0")/cli_test_lib.sh"
bin="$(abs_path "$1")"

if ! command -v script >/dev/null; then
  echo "SKIPPED: util-linux 'script' not found (no pseudo-terminal to test with)"
  exit 0
fi

# Not a terminal: stderr stays empty.
check "gen, not a tty" 0 env MPO_PROGRESS_AFTER_SECONDS=0 "$bin" corpus gen "$tmp/c"
[ -s "$err" ] && fail "gen wrote to a non-terminal stderr: $(head -c 200 "$err")"

# A terminal: the count of cases, each redraw clearing the line first.
MPO_PROGRESS_AFTER_SECONDS=0 script -qec "'$bin' corpus gen '$tmp/c2'" /dev/null >"$tmp/tty" 2>&1
grep -q $'\r\033\\[Kcorpus gen: [0-9]* cases' "$tmp/tty" || fail "no progress for corpus gen on a tty"
grep -q "corpus written to" "$tmp/tty" || fail "corpus gen did not finish on a tty"

# With -q the count of cases runs; a failing case's line starts on a clean line.
MPO_PROGRESS_AFTER_SECONDS=0 script -qec \
  "'$bin' corpus check '$tmp/c' -q --only ring/ --impl 'cat {file}.expected.txt'" /dev/null \
  >"$tmp/tty" 2>&1
grep -q "corpus check: [0-9]* cases" "$tmp/tty" || fail "no progress for corpus check -q on a tty"
grep -q $'\r\033\\[KFAIL ring/' "$tmp/tty" || fail "a FAIL line was not preceded by clearing the progress"

# Before the delay nothing is shown, also on a terminal. The delay is set far beyond the
# run's length, so the check holds however slow the machine (a sanitizer build) is.
MPO_PROGRESS_AFTER_SECONDS=100000 script -qec \
  "'$bin' corpus check '$tmp/c' -q --only sampler/geometric --impl '$bin corpus decode {file}'" \
  /dev/null >"$tmp/tty" 2>&1
grep -q "corpus check: " "$tmp/tty" && fail "progress shown before its delay"
grep -q " passed, 0 failed" "$tmp/tty" || fail "short check did not pass: $(tail -2 "$tmp/tty")"

cli_done
