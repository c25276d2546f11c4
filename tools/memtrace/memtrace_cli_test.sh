#!/usr/bin/env bash
# End-to-end checks of `memtrace dump|check|copy|diff|stats`: outputs and exit codes, on
# the repository's copies of real traces (testdata/memtrace).
set -u
bin="$1"
T=testdata/memtrace
tmp="${TEST_TMPDIR:-/tmp}/memtrace_cli.$$"
mkdir -p "$tmp"
fail=0
check() {  # check NAME EXPECTED_EXIT COMMAND...
  local name="$1" want="$2"; shift 2
  "$@" >"$tmp/out" 2>"$tmp/err"; local got=$?
  if [ "$got" != "$want" ]; then
    echo "FAIL $name: exit $got, want $want"; cat "$tmp/err"; fail=1
  else echo "ok   $name"; fi
}
v2=$T/arrays_major.ocaml5.3.native.r1e-3
v3=$T/rate_one.ocaml5.3.memtrace-head.r1
bad=$T/long_columns.ocaml4.13.bc.r1e-3

check "dump is memtrace's dump_trace" 0 "$bin" memtrace dump $v2.ctf
cmp -s "$tmp/out" $v2.dump_trace.txt || { echo "FAIL dump_trace text differs"; fail=1; }
check "dump of v3 is HEAD's dump_trace" 0 "$bin" memtrace dump $v3.ctf
head -1 "$tmp/out" | grep -Eq '^0000000625 0000000000 alloc 2 len=1 dom=0    0: ' || { echo "FAIL v3 dump_trace line"; head -1 "$tmp/out"; fail=1; }
check "dump --oracle is the golden" 0 "$bin" memtrace dump --oracle $v3.ctf
cmp -s "$tmp/out" $v3.oracle_dump.txt || { echo "FAIL oracle text differs"; fail=1; }
check "dump --json" 0 "$bin" memtrace dump --json $v3.ctf
[ "$(grep -c '"ev":' "$tmp/out")" = "$(grep -c '^ev ' $v3.oracle_dump.txt)" ] || { echo "FAIL json event count"; fail=1; }
head -1 "$tmp/out" | grep -q '"info":{"version":3' || { echo "FAIL json info"; fail=1; }
check "dump --no-backtraces" 0 "$bin" memtrace dump --no-backtraces $v2.ctf
[ "$(wc -l <"$tmp/out")" = "$(wc -l <$v2.dump_trace.txt)" ] || { echo "FAIL no-backtraces line count"; fail=1; }
check "dump of a bad trace" 1 "$bin" memtrace dump --oracle $bad.ctf
cmp -s "$tmp/out" $bad.oracle_dump.txt || { echo "FAIL partial oracle text differs"; fail=1; }
grep -q "corrupt: location: filename MTF index at offset 0x15c (bit 6)" "$tmp/err" || { echo "FAIL bad trace message"; cat "$tmp/err"; fail=1; }

check "check valid" 0 "$bin" memtrace check $v2.ctf
grep -q "913 events.*: ok" "$tmp/out" || { echo "FAIL check summary"; cat "$tmp/out"; fail=1; }
check "check invalid" 1 "$bin" memtrace check $bad.ctf
check "check --keep-going" 1 "$bin" memtrace check --keep-going $bad.ctf
grep -q "1 bad packets: INVALID" "$tmp/out" || { echo "FAIL keep-going summary"; cat "$tmp/out"; fail=1; }
check "check missing file" 2 "$bin" memtrace check "$tmp/nonexistent.ctf"

check "copy v3 is byte-identical" 0 "$bin" memtrace copy $v3.ctf "$tmp/copy3.ctf"
cmp -s "$tmp/copy3.ctf" $v3.ctf || { echo "FAIL v3 copy differs"; fail=1; }
check "copy v2 is byte-identical" 0 "$bin" memtrace copy $v2.ctf "$tmp/copy2.ctf"
cmp -s "$tmp/copy2.ctf" $v2.ctf || { echo "FAIL v2 copy differs"; fail=1; }
check "copy to v3" 0 "$bin" memtrace copy --format-version 3 $v2.ctf "$tmp/v2to3.ctf"
check "diff of a conversion is empty" 0 "$bin" memtrace diff $v2.ctf "$tmp/v2to3.ctf"
check "copy bad version" 2 "$bin" memtrace copy --format-version 4 $v2.ctf "$tmp/x.ctf"
check "diff different traces" 1 "$bin" memtrace diff $v2.ctf $v3.ctf
grep -q "^info: sample_rate: 0.001 | 1$" "$tmp/out" || { echo "FAIL diff output"; cat "$tmp/out"; fail=1; }

check "stats" 0 "$bin" memtrace stats --top 2 $v2.ctf
grep -q "460 allocs (78 minor, 382 major, 0 external), 56 promotes, 397 collects" "$tmp/out" || { echo "FAIL stats totals"; cat "$tmp/out"; fail=1; }
grep -q "top allocation sites by words" "$tmp/out" || { echo "FAIL stats sites"; fail=1; }
check "no memtrace subcommand" 2 "$bin" memtrace
rm -rf "$tmp"
exit $fail
