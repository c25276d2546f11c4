#!/usr/bin/env bash
# Two builds of memprof-oracle must say the same thing: same exit code, same stdout and
# stderr, same files, for every command on the same inputs. ci/libcxx.sh runs it on the
# Bazel build (libstdc++) against a libc++ build, so that no output depends on which
# standard library the oracle was built with (sort order of ties, hash-table order,
# number formatting).
# Inputs: the demo's trace and ring (made by the reference build), every case of
# `corpus gen`, and the real traces and rings of $MPO_SHARED_TESTDATA when it is set
# (else that part says SKIPPED).
# Usage: ci/stdlib_diff.sh REFERENCE_BIN OTHER_BIN. Prints one line per difference and
# "stdlib_diff: compared N runs (K refused...), M differ"; exit 1 when any differ.
# STDLIB_DIFF_VERBOSE=1 also lists the runs the reference refused (bad inputs, on purpose).
set -uo pipefail
ref=$(realpath "$1")
other=$(realpath "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/ref" "$work/other" "$work/in"
runs=0
failing=0
differ=0

# same ARGS...: runs both builds, each in its own folder (so relative outputs do not
# collide); their folder names are masked in what they print, and so is the demo's
# wall-clock time.
same() {
  runs=$((runs + 1))
  local side bin rc_ref rc_other
  for side in ref other; do
    bin=$ref
    [ "$side" = other ] && bin=$other
    rm -rf "$work/$side/out"
    mkdir -p "$work/$side/out"
    (cd "$work/$side/out" && "$bin" "$@" >../stdout 2>../stderr)
    echo $? >"$work/$side/rc"
    sed -i -E "s|$work/$side/out|OUT|g; s|collections, [0-9.]+ s\$|collections, T s|" \
      "$work/$side/stdout" "$work/$side/stderr"
  done
  rc_ref=$(cat "$work/ref/rc")
  rc_other=$(cat "$work/other/rc")
  if [ "$rc_ref" != 0 ]; then
    failing=$((failing + 1))
    [ -n "${STDLIB_DIFF_VERBOSE:-}" ] && echo "refused ($rc_ref): $*"
  fi
  if [ "$rc_ref" != "$rc_other" ]; then
    echo "DIFFERS (exit $rc_ref, $rc_other): $*"
  elif ! cmp -s "$work/ref/stdout" "$work/other/stdout"; then
    echo "DIFFERS (stdout): $*"
    diff "$work/ref/stdout" "$work/other/stdout" | head -6
  elif ! cmp -s "$work/ref/stderr" "$work/other/stderr"; then
    echo "DIFFERS (stderr): $*"
    diff "$work/ref/stderr" "$work/other/stderr" | head -6
  elif ! diff -r "$work/ref/out" "$work/other/out" >/dev/null; then
    echo "DIFFERS (files written): $*"
    diff -r "$work/ref/out" "$work/other/out" | head -6
  else
    return 0
  fi
  differ=$((differ + 1))
}

memtrace_commands() {
  local f=$1
  same memtrace dump "$f" --threads 1
  same memtrace dump "$f" --json
  same memtrace check "$f" --json
  same memtrace stats "$f" --json --top 50 --callers 3
  same memtrace stats "$f" --top 50 --by words
  same memtrace leaks "$f" --json --top 50
  same memtrace folded "$f" --by bytes
  same memtrace folded "$f" --functions --collapse-recursion
  same memtrace compare "$f" "$work/in/trace.ctf" --json --top 30
  same memtrace copy "$f" copy.ctf --format-version 3 --reencode
  same memtrace report "$f" --output report.html
  same corpus decode "$f"
}

events_commands() {
  local f=$1
  same events dump "$f"
  same events dump "$f" --json
  same events stats "$f" --json
  same events stats "$f"
  same events chrome "$f" chrome.json
  same events fuchsia "$f" trace.fxt
  # corpus decode knows a ring by its name; these are all OCaml 5.3's layout.
  cp "$f" "$work/in/ring.ocaml-5.3.events"
  same corpus decode "$work/in/ring.ocaml-5.3.events"
}

# The demo: its report and both files, which the commands below then read.
same demo --out demo
if ! cp "$work/ref/out/demo/trace.ctf" "$work/ref/out/demo/4242.events" "$work/in/"; then
  echo "DIFFERS: the reference's demo wrote no trace and ring to read"
  differ=$((differ + 1))
fi
for s in 1 42 4242; do
  same sample geometric --lambda 0.01 --seed "$s" --count 1000 --length 100
  same sample binomial --lambda 0.3 --seed "$s" --count 1000 --length 77 --json
  same memprof-sim --seed "$s" --json --blocks 20000
done
memtrace_commands "$work/in/trace.ctf"
events_commands "$work/in/4242.events"

# Every conformance case, good and bad: the verdicts and their messages.
"$ref" corpus gen "$work/in/corpus" >/dev/null || echo "corpus gen failed: $ref"
same corpus gen corpus
while IFS= read -r f; do
  same corpus decode "$f"
  same corpus decode "$f" --text
done < <(find "$work/in/corpus" -type f \( -name '*.ctf' -o -name '*.events' -o -name '*.sampler.json' \) | sort)

if [ -n "${MPO_SHARED_TESTDATA:-}" ] && [ -d "$MPO_SHARED_TESTDATA/memtrace" ]; then
  for f in "$MPO_SHARED_TESTDATA"/memtrace/*.ctf; do memtrace_commands "$f"; done
  for gz in "$MPO_SHARED_TESTDATA"/runtime_events/*/*.events.gz; do
    [ -f "$gz" ] || continue
    out="$work/in/$(basename "$gz" .gz)"
    gzip -dc "$gz" >"$out"
    events_commands "$out"
  done
else
  echo "SKIPPED: the real traces and rings (set MPO_SHARED_TESTDATA or put ../shared beside the checkout)"
fi
echo "stdlib_diff: compared $runs runs ($failing of them refused by the reference: bad cases), $differ differ"
[ "$differ" -eq 0 ]
