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

# Every long-running command: a line on a terminal (MPO_PROGRESS_AFTER_SECONDS=0 shows it
# from the first update), none when stderr is not a terminal, and the same results both
# ways (stdout, and the file the command writes, which is always $tmp/o).
# `progress_case NAME WHAT ARGS...`: WHAT is the line's label; PROGRESS_FILTER, when set,
# is a sed script applied to both stdouts before they are compared.
progress_case() {
  local name="$1" what="$2"
  shift 2
  rm -f "$tmp/o" "$tmp/o.plain"
  check "$name, not a tty" 0 env MPO_PROGRESS_AFTER_SECONDS=0 "$bin" "$@"
  [ -s "$err" ] && fail "$name wrote to a non-terminal stderr: $(head -c 200 "$err")"
  cp "$out" "$tmp/stdout.plain"
  [ -e "$tmp/o" ] && mv "$tmp/o" "$tmp/o.plain"
  local cmd="'$bin'" a
  for a in "$@"; do cmd+=" '$a'"; done
  MPO_PROGRESS_AFTER_SECONDS=0 script -qec "$cmd >'$tmp/stdout.tty'" /dev/null >"$tmp/tty" 2>&1 ||
    fail "$name failed on a tty: $(tail -c 300 "$tmp/tty")"
  grep -q $'\r\033\\[K'"$what: [0-9.]*" "$tmp/tty" || fail "no progress for $name on a tty: $(head -c 200 "$tmp/tty" | od -c | head -3)"
  # The line is taken away at the end: the terminal's last bytes clear it.
  [ "$(tail -c 4 "$tmp/tty" | od -An -c | tr -d ' ')" = '\r033[K' ] ||
    fail "$name left its progress line: $(tail -c 60 "$tmp/tty" | od -c | head -3)"
  [ -z "${PROGRESS_FILTER:-}" ] || sed -i "$PROGRESS_FILTER" "$tmp/stdout.plain" "$tmp/stdout.tty"
  cmp -s "$tmp/stdout.plain" "$tmp/stdout.tty" || fail "$name: stdout differs on a tty"
  if [ -e "$tmp/o.plain" ]; then
    cmp -s "$tmp/o.plain" "$tmp/o" || fail "$name: its output file differs on a tty"
  fi
}

# A trace and a ring to work on, from the demo; the demo itself counts its steps. Its
# report ends with the elapsed time, so that line is left out of the comparison.
PROGRESS_FILTER='/simulated:/d' progress_case "demo" "demo" demo --out "$tmp/demo" --steps 3000
trace="$tmp/demo/trace.ctf"
ring="$(ls "$tmp"/demo/*.events)"
progress_case "memtrace dump" "memtrace dump" memtrace dump "$trace"
progress_case "memtrace dump --json" "memtrace dump" memtrace dump --json "$trace"
progress_case "memtrace check" "memtrace check" memtrace check "$trace"
progress_case "memtrace check --json" "memtrace check" memtrace check --json "$trace"
progress_case "memtrace copy" "memtrace copy" memtrace copy "$trace" "$tmp/o"
progress_case "memtrace stats" "memtrace stats" memtrace stats "$trace"
progress_case "memtrace leaks" "memtrace leaks" memtrace leaks "$trace"
progress_case "memtrace folded" "memtrace folded" memtrace folded "$trace"
progress_case "memtrace report" "memtrace report" memtrace report "$trace" -o "$tmp/o"
progress_case "events chrome" "events chrome" events chrome "$ring" "$tmp/o"
progress_case "events fuchsia" "events fuchsia" events fuchsia "$ring" "$tmp/o"

# An error printed while the line is shown starts on a clean line.
head -c "$(($(stat -c %s "$trace") - 7))" "$trace" >"$tmp/cut.ctf"
MPO_PROGRESS_AFTER_SECONDS=0 script -qec "'$bin' memtrace check '$tmp/cut.ctf' >/dev/null" \
  /dev/null >"$tmp/tty" 2>&1 || true
grep -q $'\r\033\\[Kmemprof-oracle: memtrace check: ' "$tmp/tty" ||
  fail "check's error was not preceded by clearing the progress: $(od -c "$tmp/tty" | head -5)"

cli_done
