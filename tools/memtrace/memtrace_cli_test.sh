#!/usr/bin/env bash
# End-to-end checks of `memtrace dump|check|copy|diff|stats`: outputs and exit codes, on
# the repository's copies of real traces (testdata/memtrace).
source tools/cli_test_lib.sh
bin="$1"
T=testdata/memtrace
v2=$T/arrays_major.ocaml5.3.native.r1e-3
v3=$T/rate_one.ocaml5.3.memtrace-head.r1
bad=$T/long_columns.ocaml4.13.bc.r1e-3

check "dump is memtrace's dump_trace" 0 "$bin" memtrace dump $v2.ctf
cmp -s "$out" $v2.dump_trace.txt || fail "dump_trace text differs"
check "dump of v3 is HEAD's dump_trace" 0 "$bin" memtrace dump $v3.ctf
head -1 "$out" | grep -Eq '^0000000625 0000000000 alloc 2 len=1 dom=0    0: ' || { fail "v3 dump_trace line"; head -1 "$out"; }
check "dump --oracle is the golden" 0 "$bin" memtrace dump --oracle $v3.ctf
cmp -s "$out" $v3.oracle_dump.txt || fail "oracle text differs"
check "dump --json" 0 "$bin" memtrace dump --json $v3.ctf
# Schema 2 (core/corpus/SCHEMA.md): header, records, trailer counting them.
python3 -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1])]' "$out" || fail "json lines do not parse"
[ "$(grep -c '^{"kind":"\(alloc\|promote\|collect\)",' "$out")" = "$(grep -c '^ev ' $v3.oracle_dump.txt)" ] || fail "json event count"
head -1 "$out" | grep -q '^{"schema":2,"format":"memtrace","info":{"version":3,' || fail "json header"
[ "$(tail -1 "$out")" = "{\"kind\":\"end_of_stream\",\"error\":null,\"records\":$(($(wc -l <"$out") - 2))}" ] || { fail "json trailer"; tail -1 "$out"; }
[ "$(grep -c '^{"kind":"location",' "$out")" = "$(grep '^locations ' $v3.oracle_dump.txt | cut -d' ' -f2)" ] || fail "json location count"
check "dump --json --no-backtraces" 0 "$bin" memtrace dump --json --no-backtraces $v3.ctf
! grep -q 'location\|backtrace' "$out" || fail "no-backtraces json has locations"
check "dump --json of a bad trace" 1 "$bin" memtrace dump --json $bad.ctf
tail -1 "$out" | grep -q '^{"kind":"end_of_stream","error":{"code":"corrupt","check":"location: filename MTF index","offset":348,"bit":6},"records":0}$' || { fail "bad trace json trailer"; tail -1 "$out"; }
check "dump --no-backtraces" 0 "$bin" memtrace dump --no-backtraces $v2.ctf
[ "$(wc -l <"$out")" = "$(wc -l <$v2.dump_trace.txt)" ] || fail "no-backtraces line count"
check "dump of a bad trace" 1 "$bin" memtrace dump --oracle $bad.ctf
cmp -s "$out" $bad.oracle_dump.txt || fail "partial oracle text differs"
grep -q "corrupt: location: filename MTF index at offset 0x15c (bit 6)" "$err" || { fail "bad trace message"; cat "$err"; }

check "check valid" 0 "$bin" memtrace check $v2.ctf
grep -q "913 events.*: ok" "$out" || { fail "check summary"; cat "$out"; }
check "check invalid" 1 "$bin" memtrace check $bad.ctf
check "check --keep-going" 1 "$bin" memtrace check --keep-going $bad.ctf
grep -q "1 bad packets: INVALID" "$out" || { fail "keep-going summary"; cat "$out"; }
check "check missing file" 2 "$bin" memtrace check "$tmp/nonexistent.ctf"

check "copy v3 is byte-identical" 0 "$bin" memtrace copy $v3.ctf "$tmp/copy3.ctf"
cmp -s "$tmp/copy3.ctf" $v3.ctf || fail "v3 copy differs"
check "copy v2 is byte-identical" 0 "$bin" memtrace copy $v2.ctf "$tmp/copy2.ctf"
cmp -s "$tmp/copy2.ctf" $v2.ctf || fail "v2 copy differs"
check "copy to v3" 0 "$bin" memtrace copy --format-version 3 $v2.ctf "$tmp/v2to3.ctf"
check "diff of a conversion is empty" 0 "$bin" memtrace diff $v2.ctf "$tmp/v2to3.ctf"
check "copy bad version" 2 "$bin" memtrace copy --format-version 4 $v2.ctf "$tmp/x.ctf"
check "diff different traces" 1 "$bin" memtrace diff $v2.ctf $v3.ctf
grep -q "^info: sample_rate: 0.001 | 1$" "$out" || { fail "diff output"; cat "$out"; }

check "stats" 0 "$bin" memtrace stats --top 2 $v2.ctf
grep -q "460 allocs (78 minor, 382 major, 0 external), 56 promotes, 397 collects" "$out" || { fail "stats totals"; cat "$out"; }
grep -q "top allocation sites by words" "$out" || fail "stats sites"
check "no memtrace subcommand" 2 "$bin" memtrace

# One policy for a backtrace entry whose code no location event defined: every command
# fails with the typed error at the event that first uses it (exit 1).
und="$tmp/undefined.ctf"
"$bin" memtrace dump --json $v3.ctf >"$tmp/v3.jsonl"
code=$(sed -n 2p "$tmp/v3.jsonl" | python3 -c 'import json,sys; print(json.load(sys.stdin)["code"])')
# Rename the code's location event (its first 8 bytes in the file) to another code.
python3 - $v3.ctf "$und" "$code" <<'PY'
import sys
data = bytearray(open(sys.argv[1], "rb").read())
at = data.find(int(sys.argv[3], 16).to_bytes(8, "little"))
assert at > 0
data[at + 5] ^= 0x20
open(sys.argv[2], "wb").write(data)
PY
check "dump --json: undefined code" 1 "$bin" memtrace dump --json "$und"
off=$(tail -1 "$out" | python3 -c 'import json,sys; e=json.load(sys.stdin)["error"]; assert e["check"]=="backtrace: location code"; print("0x%x" % e["offset"])') || fail "undefined code trailer"
want="corrupt: backtrace: location code at offset $off"
grep -q "$want" "$err" || { fail "dump --json message"; cat "$err"; }
for cmd in "dump" "dump --oracle" "check" "check --keep-going" "stats" "folded"; do
  check "$cmd: undefined code" 1 "$bin" memtrace $cmd "$und"
  grep -q "$want" "$err" || { fail "$cmd message"; cat "$err"; }
  ! grep -q "<undefined\|<unknown" "$out" || fail "$cmd printed a placeholder"
done
check "diff: undefined code" 1 "$bin" memtrace diff $v3.ctf "$und"
grep -q "memtrace diff: $und: $want" "$err" || { fail "diff message"; cat "$err"; }
cli_done
