#!/usr/bin/env bash
# Hostile and careless use of the real program: outputs that would clobber
# their input, failed copies, planted symlinks, stdout that cannot be written, missing
# and non-regular inputs, malformed numbers, work beyond a budget. Every command runs
# under `timeout`, so a regression to a hang fails the check instead of the whole test.
#
#   hostile_cli_test.sh BIN   (from the repository root or its runfiles)
source tools/cli_test_lib.sh
bin="$(abs_path "$1")"
T=testdata/memtrace
good=$T/arrays_major.ocaml5.3.native.r1e-3.ctf
other=$T/rate_one.ocaml5.3.memtrace-head.r1.ctf
bad=$T/long_columns.ocaml4.13.bc.r1e-3.ctf
limit="${HOSTILE_TIME_LIMIT:-20}"  # seconds; every command here takes well under one

# Runs BIN with a time limit; stdout to $out, stderr to $err.
run() { timeout "$limit" "$bin" "$@"; }

# expect NAME WANT_EXIT ARGS...: like check, with the time limit.
expect() {
  local name="$1" want="$2"
  shift 2
  check "$name" "$want" run "$@"
}

# Like expect, with stdout thrown away (a regression may print without end).
expect_quiet() {
  local name="$1" want="$2" got=0
  shift 2
  run "$@" >/dev/null 2>"$err" || got=$?
  if [ "$got" != "$want" ]; then
    fail "$name: exit $got, want $want"
    head -c 2000 "$err"
  else
    echo "ok   $name"
  fi
}

# err_has TEXT: stderr of the last check mentions TEXT.
err_has() { grep -q -- "$1" "$err" || fail "stderr lacks '$1': $(head -c 500 "$err")"; }

# no_temporaries DIR: no temporary file of an atomic output was left behind.
no_temporaries() {
  if ls -A "$1" | grep -q '\.tmp-'; then fail "temporary file left in $1: $(ls -A "$1")"; fi
}

# ---- 1. Outputs are atomic and never clobber inputs ----------------------------------
w="$tmp/copy"
mkdir -p "$w"
cp "$good" "$w/x.ctf"
expect "copy X X is refused" 2 memtrace copy "$w/x.ctf" "$w/x.ctf"
cmp -s "$good" "$w/x.ctf" || fail "copy X X changed X"
err_has "same file as an input"
ln -s x.ctf "$w/link.ctf"
expect "copy X link-to-X is refused" 2 memtrace copy "$w/x.ctf" "$w/link.ctf"
cmp -s "$good" "$w/x.ctf" || fail "copy through a symlink changed X"
ln "$w/x.ctf" "$w/hard.ctf"
expect "copy X hard-link-of-X is refused" 2 memtrace copy "$w/link.ctf" "$w/hard.ctf"
cmp -s "$good" "$w/x.ctf" || fail "copy onto a hard link changed X"
no_temporaries "$w"

echo "old contents" >"$w/out.ctf"
expect "failed copy exits 1" 1 memtrace copy "$bad" "$w/out.ctf"
[ "$(cat "$w/out.ctf")" = "old contents" ] || fail "a failed copy replaced the existing OUT"
no_temporaries "$w"

# A truncated final packet is skipped by the reader with a warning: the copy would be a
# clean trace that hides the damage, so there must be none.
head -c 5000 "$good" >"$w/trunc.ctf"
expect "copy of a truncated trace exits 1" 1 memtrace copy "$w/trunc.ctf" "$w/trunc_copy.ctf"
[ ! -e "$w/trunc_copy.ctf" ] || fail "a copy of a truncated trace was written"
err_has "truncated"
no_temporaries "$w"

expect "a good copy still works" 0 memtrace copy "$good" "$w/out.ctf"
cmp -s "$good" "$w/out.ctf" || fail "copy differs from its input"

# demo --out DIR with trace.ctf planted as a symlink to a file of the victim's.
d="$tmp/demo"
mkdir -p "$d"
echo "victim" >"$tmp/victim"
ln -s "$tmp/victim" "$d/trace.ctf"
expect_quiet "demo with a planted trace.ctf symlink" 0 demo --out "$d" --steps 200 --domains 2
[ "$(cat "$tmp/victim")" = "victim" ] || fail "demo wrote through a planted symlink"
[ -f "$d/trace.ctf" ] && [ ! -L "$d/trace.ctf" ] || fail "demo's trace.ctf is not a regular file"
no_temporaries "$d"
ring="$(ls "$d"/*.events 2>/dev/null | head -1)"

# ---- 2. Every write is checked: stdout on a full device is exit 2 naming stdout ------
full() {
  local name="$1" got=0
  shift
  run "$@" >/dev/full 2>"$err" || got=$?
  if [ "$got" != 2 ]; then
    fail "$name > /dev/full: exit $got, want 2"
    head -c 500 "$err"
  elif ! grep -q stdout "$err"; then
    fail "$name > /dev/full: the message does not name stdout: $(head -c 500 "$err")"
  else
    echo "ok   $name > /dev/full"
  fi
}
full "--help" --help
full "sample" sample
full "sample --json" sample --json
full "sample binomial" sample binomial --count 3
full "memprof-sim" memprof-sim --blocks 1000
full "memprof-sim --json" memprof-sim --blocks 1000 --json
full "demo" demo --out "$tmp/demo_full" --steps 200 --domains 2
full "memtrace dump" memtrace dump "$good"
full "memtrace dump --json" memtrace dump --json "$good"
full "memtrace dump --oracle" memtrace dump --oracle "$good"
full "memtrace check" memtrace check "$good"
full "memtrace stats" memtrace stats "$good"
full "memtrace diff" memtrace diff "$good" "$other"
full "memtrace folded" memtrace folded "$good"
full "memtrace stats --json" memtrace stats --json "$good"
full "memtrace leaks" memtrace leaks "$good"
full "memtrace compare --json" memtrace compare --json "$good" "$other"
if [ -n "$ring" ]; then full "events dump" events dump "$ring"; else fail "the demo wrote no ring"; fi
# A closed stdout: the prints fail; nothing may land in a file the program opens.
got=0
run sample >&- 2>"$err" || got=$?
[ "$got" = 2 ] || fail "sample with stdout closed: exit $got, want 2"
got=0
run memtrace copy "$good" "$w/closed.ctf" >&- 2>"$err" || got=$?
[ "$got" = 0 ] && cmp -s "$good" "$w/closed.ctf" ||
  fail "copy with stdout closed: exit $got or its output differs"

# ---- 3. Inputs are opened safely: a missing input is 2, a FIFO or directory no hang --
missing="$tmp/no/such.ctf"
expect "dump of a missing file" 2 memtrace dump "$missing"
expect "check of a missing file" 2 memtrace check "$missing"
expect "copy of a missing file" 2 memtrace copy "$missing" "$tmp/m.ctf"
expect "stats of a missing file" 2 memtrace stats "$missing"
expect "diff of a missing file" 2 memtrace diff "$good" "$missing"
expect "folded of a missing file" 2 memtrace folded "$missing"
expect "leaks of a missing file" 2 memtrace leaks "$missing"
expect "compare with a missing file" 2 memtrace compare "$good" "$missing"
mkfifo "$tmp/fifo"
expect "dump of a FIFO" 2 memtrace dump "$tmp/fifo"
err_has "FIFO"
expect "check of a FIFO" 2 memtrace check "$tmp/fifo"
expect "copy of a FIFO" 2 memtrace copy "$tmp/fifo" "$tmp/f.ctf"
[ ! -e "$tmp/f.ctf" ] || fail "copy of a FIFO wrote an output"
expect "stats of a FIFO" 2 memtrace stats "$tmp/fifo"
expect "diff with a FIFO" 2 memtrace diff "$good" "$tmp/fifo"
expect "folded of a FIFO" 2 memtrace folded "$tmp/fifo"
expect "leaks of a FIFO" 2 memtrace leaks "$tmp/fifo"
expect "compare with a FIFO" 2 memtrace compare "$good" "$tmp/fifo"
expect "dump of a directory" 2 memtrace dump "$tmp"
err_has "is a directory"
expect "copy onto a directory" 2 memtrace copy "$good" "$tmp"
expect "copy into a missing directory" 2 memtrace copy "$good" "$tmp/no/such/dir/out.ctf"
# Refused before any work: with A a trace whose analysis fails (exit 1), a refused other
# input or output must be the answer (exit 2, naming it), so nothing of A was analysed.
# An output FIFO with no reader (opening it would wait forever) is refused, not opened.
late() {
  local name="$1" path="$2"
  shift 2
  expect_quiet "$name" 2 "$@"
  err_has "$path"
  if grep -q "corrupt" "$err"; then fail "$name: A was analysed before the refusal"; fi
}
late "compare BAD missing" "$missing" memtrace compare "$bad" "$missing"
late "compare BAD FIFO" "$tmp/fifo" memtrace compare "$bad" "$tmp/fifo"
late "compare BAD directory" "$tmp" memtrace compare "$bad" "$tmp"
late "compare FIFO BAD" "$tmp/fifo" memtrace compare "$tmp/fifo" "$bad"
late "report BAD --output DIR" "$tmp" memtrace report "$bad" --output "$tmp"
late "report BAD --output FIFO" "$tmp/fifo" memtrace report "$bad" --output "$tmp/fifo"
late "report BAD --output missing/dir" "$tmp/no/such" memtrace report "$bad" --output "$tmp/no/such/r.html"
late "report BAD --output BAD" "same file" memtrace report "$bad" --output "$bad"
late "copy BAD DIR" "$tmp" memtrace copy "$bad" "$tmp"
late "copy BAD FIFO" "$tmp/fifo" memtrace copy "$bad" "$tmp/fifo"
late "copy BAD missing/dir" "$tmp/no/such" memtrace copy "$bad" "$tmp/no/such/c.ctf"
for c in stats leaks folded; do
  late "$c of a FIFO with a window" "$tmp/fifo" memtrace "$c" "$tmp/fifo" --from 0
done
echo "a file" >"$tmp/plain"
expect_quiet "demo --out naming a file" 2 demo --out "$tmp/plain" --steps 10
[ "$(cat "$tmp/plain")" = "a file" ] || fail "demo --out changed a file"

# ---- 4. Arguments are validated: malformed numbers are usage errors ------------------
# Each runs with valid other options, so only the number under test can fail; a
# regression that accepts it may start a huge run, which the time limit stops.
ints=("-1" "18446744073709551616" "" "nan" "1.5" " 3")
reals=("" "nan" "inf" "-inf" "1e999" "0x" "-1" "1e-400")
int_option() {
  local v
  for v in "${ints[@]}"; do expect_quiet "$* '$v'" 2 "$@" "$v"; done
}
real_option() {
  local v
  for v in "${reals[@]}"; do expect_quiet "$* '$v'" 2 "$@" "$v"; done
}
dd="$tmp/demo_args"
int_option sample --count
int_option sample --seed
int_option sample binomial --length
int_option sample --max-draws
real_option sample --lambda
int_option memprof-sim --blocks
int_option memprof-sim --seed
int_option memprof-sim --callstack-size
int_option memprof-sim --max-blocks
real_option memprof-sim --lambda
real_option memprof-sim --survival
int_option demo --out "$dd" --steps
int_option demo --out "$dd" --seed
int_option demo --out "$dd" --domains
int_option demo --out "$dd" --max-steps
int_option demo --out "$dd" --ring-log2-words
int_option demo --out "$dd" --format-version
real_option demo --out "$dd" --lambda
int_option memtrace stats "$good" --top
int_option memtrace leaks "$good" --callers
real_option memtrace stats "$good" --from
real_option memtrace folded "$good" --to
int_option memtrace copy "$good" "$tmp/args.ctf" --format-version
# Durations: a value that rounds to zero (0 often means "no limit") or is below the
# microsecond tick is refused before anything starts; a regression would follow or run
# the program until the time limit.
durations=("1e-400" "1e-7" "1e-300" "nan" "-1")
for v in "${durations[@]}"; do
  expect_quiet "events tail --max-seconds '$v'" 2 events tail --follow "$tmp/no.events" --max-seconds "$v"
  expect_quiet "events tail --interval-ms '$v'" 2 events tail --follow "$tmp/no.events" --interval-ms "$v"
  expect_quiet "events record --max-seconds '$v'" 2 events record --out "$tmp/rec" --max-seconds "$v" -- sleep 100
  expect_quiet "events record --interval-ms '$v'" 2 events record --out "$tmp/rec" --interval-ms "$v" -- sleep 100
  expect_quiet "corpus fuzz --minimize-seconds '$v'" 2 corpus fuzz --impl false --minimize-seconds "$v"
done
[ ! -e "$tmp/rec" ] || fail "a refused events record wrote its output"
if [ -n "$ring" ]; then
  # The demo's ring ends with ring_stop, which also ends following: either reason.
  expect_quiet "events tail --follow --max-seconds 1e-6 (one tick) stops" 0 \
    events tail --follow "$ring" --max-seconds 1e-6
  err_has "stopped after --max-seconds\|the ring ended (ring_stop read)"
fi
expect_quiet "sample --length 2^62 - 1" 2 sample binomial --length 4611686018427387903
expect_quiet "demo --domains 65" 2 demo --out "$dd" --domains 65
expect_quiet "memprof-sim --survival 1.5" 2 memprof-sim --survival 1.5
[ ! -e "$tmp/args.ctf" ] || fail "a refused copy wrote its output"

# ---- Work budgets: refused promptly with a typed error naming the option to raise ----
expect_quiet "binomial draw of 2^62 - 2 words at 0.5" 1 \
  sample binomial --length 4611686018427387902 --lambda 0.5
err_has "--max-draws"
expect_quiet "sample --count 10^12" 1 sample --count 1000000000000
err_has "--max-draws"
expect_quiet "demo --steps 10^9" 1 demo --out "$dd" --steps 1000000000
err_has "--max-steps"
[ ! -e "$dd/trace.ctf" ] || fail "a refused demo wrote a trace"
expect_quiet "memprof-sim --blocks 10^12" 1 memprof-sim --blocks 1000000000000
err_has "--max-blocks"
# At lambda = 1 a binomial draw is a jump, whatever the length: no budget needed.
expect "binomial at lambda 1 of 2^62 - 2 words" 0 \
  sample binomial --length 4611686018427387902 --lambda 1 --count 3
[ "$(head -1 "$out")" = 4611686018427387902 ] || fail "lambda 1 draw: $(head -1 "$out")"
# Raising the budget lets a refused run through.
expect_quiet "sample --max-draws raised" 0 sample --count 200 --max-draws 200
expect_quiet "sample over a lowered budget" 1 sample --count 201 --max-draws 200

# ---- Whole files read into memory: a budget per kind, checked before reading ----------
# Sparse 900 MB files (nothing on disk): refused at once, by a typed error naming the file
# and the limit, without reading them (a regression reads 900 MB; the ulimit fails it).
bounded() { (ulimit -v 600000 && exec timeout "$limit" "$bin" "$@"); }
# A sanitized binary cannot start under an address-space limit: there the refusals are
# still checked, by their messages and exit codes, without the memory limit.
if ! bounded --version >/dev/null 2>&1; then
  echo "NOTE: this binary cannot start under ulimit -v (sanitized?): 900 MB files checked without it"
  bounded() { timeout "$limit" "$bin" "$@"; }
fi
sparse="$tmp/sparse"
mkdir -p "$sparse/c/sampler"
truncate -s 900M "$sparse/big.sampler.json" "$sparse/declared" "$sparse/c/sampler/a.expected.jsonl"
echo '{"seed":1,"lambda":0.5,"mode":"geometric","count":3}' >"$sparse/c/sampler/a.sampler.json"
echo '{"schema":2,"cases":[{"name":"sampler/a","file":"sampler/a.sampler.json",
 "expected_jsonl":"sampler/a.expected.jsonl"}]}' >"$sparse/c/MANIFEST.json"
check "a 900 MB sampler case" 1 bounded corpus decode "$sparse/big.sampler.json"
err_has "big.sampler.json: sampler case is larger than the limit of 1048576 bytes"
check "a 900 MB --declared file" 1 bounded corpus fuzz --impl false --declared "$sparse/declared"
err_has "declared: declared differences file is larger than the limit of 1048576 bytes"
check "a 900 MB expected stream" 1 bounded corpus check "$sparse/c" --impl "cat {file}"
err_has "a.expected.jsonl: expected stream is larger than the limit of 536870912 bytes"
truncate -s 900M "$sparse/c/MANIFEST.json"
check "a 900 MB manifest" 1 bounded corpus check "$sparse/c" --impl "cat {file}"
err_has "MANIFEST.json: manifest is larger than the limit of 67108864 bytes"

# ---- No second thread to be had -------------------------------------------------------
# `memtrace dump --threads 2` when no thread can be started: a 4 GB default thread stack
# (RLIMIT_STACK) under a 3 GB address-space limit makes std::thread fail; the dump falls
# back to one thread, same bytes, exit 0 (it used to abort). A sanitized binary cannot
# start at all under an address-space limit; then the case says SKIPPED.
limited() { (ulimit -s 4000000 && ulimit -v 3000000 && exec "$@"); }
if limited "$bin" memtrace dump --threads 1 "$good" >"$tmp/one.txt" 2>"$err"; then
  got=0
  limited "$bin" memtrace dump --threads 2 "$good" >"$tmp/two.txt" 2>"$err" || got=$?
  if [ "$got" != 0 ]; then
    fail "dump --threads 2 without a thread: exit $got: $(head -c 300 "$err")"
  elif ! cmp -s "$tmp/one.txt" "$tmp/two.txt"; then
    fail "dump --threads 2 without a thread: text differs from --threads 1"
  else
    echo "ok   dump --threads 2 without a thread (one thread, same bytes)"
  fi
else
  echo "SKIPPED: dump without a thread (this binary cannot start under ulimit -v: sanitized?)"
fi

cli_done
