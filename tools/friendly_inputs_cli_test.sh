#!/usr/bin/env bash
# Inputs as users have them: a ring given to `memtrace` (and a trace to `events`) names
# the command that reads it; gzip files are read directly, within a budget; "-" is stdin;
# a misspelt subcommand gets a did-you-mean; help is wrapped to the terminal.
source tools/cli_test_lib.sh
bin="$1"
v2=testdata/memtrace/arrays_major.ocaml5.3.native.r1e-3
ring_gz=testdata/ring/single/3995.events.gz
gzip -dc "$ring_gz" >"$tmp/3995.events"

# The wrong family: exit 1, a message that says what the file is and what reads it.
for cmd in dump check stats leaks folded "report -o $tmp/r.html"; do
  # shellcheck disable=SC2086 # cmd is a command and its options
  check "memtrace $cmd of a ring" 1 "$bin" memtrace $cmd "$tmp/3995.events"
  grep -q 'looks like an OCaml runtime events ring.*try `memprof-oracle events dump`' "$err" ||
    { fail "memtrace $cmd of a ring: message"; cat "$err"; }
done
check "memtrace copy of a ring" 1 "$bin" memtrace copy "$tmp/3995.events" "$tmp/copy.ctf"
grep -q "events dump" "$err" || { fail "copy of a ring: message"; cat "$err"; }
[ ! -e "$tmp/copy.ctf" ] || fail "copy of a ring wrote its output"
check "memtrace dump of a gzip ring" 1 "$bin" memtrace dump "$ring_gz"
grep -q "events dump" "$err" || { fail "gzip ring message"; cat "$err"; }
for cmd in "dump $v2.ctf" "stats $v2.ctf" "chrome $v2.ctf $tmp/out.json"; do
  # shellcheck disable=SC2086 # cmd is a command and its arguments
  check "events $cmd" 1 "$bin" events $cmd
  grep -q 'looks like a memtrace trace.*try `memprof-oracle memtrace dump`' "$err" ||
    { fail "events $cmd: message"; cat "$err"; }
done
[ ! -e "$tmp/out.json" ] || fail "events chrome of a trace wrote its output"

# Gzip traces, from a file and from stdin, give what the plain trace gives.
gzip -c $v2.ctf >"$tmp/t.ctf.gz"
check "memtrace dump of a gzip trace" 0 "$bin" memtrace dump "$tmp/t.ctf.gz"
cmp -s "$out" $v2.dump_trace.txt || fail "gzip dump differs from dump_trace"
check "memtrace dump - < gzip" 0 "$bin" memtrace dump - <"$tmp/t.ctf.gz"
cmp -s "$out" $v2.dump_trace.txt || fail "stdin gzip dump differs"
check "memtrace dump --oracle - < plain" 0 "$bin" memtrace dump --oracle - <$v2.ctf
cmp -s "$out" $v2.oracle_dump.txt || fail "stdin oracle dump differs"
check "memtrace check -" 0 "$bin" memtrace check - <$v2.ctf
grep -q '^-: v002, .* ok$' "$out" || { fail "check - output"; cat "$out"; }
check "memtrace stats of the plain trace" 0 "$bin" memtrace stats $v2.ctf
tail -n +2 "$out" >"$tmp/stats.plain"
check "memtrace stats - < gzip" 0 "$bin" memtrace stats - <"$tmp/t.ctf.gz"
tail -n +2 "$out" | cmp -s - "$tmp/stats.plain" || fail "stats of stdin gzip differs"
check "memtrace copy of a gzip trace" 0 "$bin" memtrace copy "$tmp/t.ctf.gz" "$tmp/copy.ctf"
cmp -s "$tmp/copy.ctf" $v2.ctf || fail "copy of a gzip trace is not the trace"
head -c 1000 "$tmp/t.ctf.gz" >"$tmp/cut.ctf.gz"
check "memtrace dump of a cut gzip" 1 "$bin" memtrace dump "$tmp/cut.ctf.gz"
grep -q "truncated: .*cut.ctf.gz.*gzip: the stream ends inside a member" "$err" ||
  { fail "cut gzip message"; cat "$err"; }
gzip -c "$tmp/t.ctf.gz" >"$tmp/twice.gz"
check "memtrace dump of a gzip inside gzip" 1 "$bin" memtrace dump "$tmp/twice.gz"
grep -q "decompress it once first" "$err" || { fail "nested gzip message"; cat "$err"; }

# Gzip rings: the repository's copies as shipped, and stdin.
check "events dump of a .events.gz" 0 "$bin" events dump "$ring_gz"
cmp -s "$out" testdata/ring/single/consumer_dump.txt || fail "events dump of gzip differs"
check "events dump - < .events.gz" 0 "$bin" events dump - <"$ring_gz"
cmp -s "$out" testdata/ring/single/consumer_dump.txt || fail "events dump of stdin differs"
check "events stats of the ring" 0 "$bin" events stats "$tmp/3995.events"
cp "$out" "$tmp/ring_stats"
check "events stats - < ring" 0 "$bin" events stats - <"$tmp/3995.events"
cmp -s "$out" "$tmp/ring_stats" || fail "events stats of stdin differs"
check "events chrome - is refused" 2 "$bin" events chrome - "$tmp/c.json" <"$ring_gz"
grep -q "save it to a file" "$err" || { fail "chrome - message"; cat "$err"; }
# A bomb: 512 members of 1 MiB of zeros (512 MiB inflated, about 512 KB compressed)
# passes the 256 MiB ring budget and is refused, naming it.
head -c 1048576 /dev/zero | gzip -c >"$tmp/bomb.events.gz"
for _ in 1 2 3 4 5 6 7 8 9; do
  cat "$tmp/bomb.events.gz" "$tmp/bomb.events.gz" >"$tmp/twice.events.gz"
  mv "$tmp/twice.events.gz" "$tmp/bomb.events.gz"
done
check "events dump of a gzip bomb" 1 "$bin" events dump "$tmp/bomb.events.gz"
grep -q "resource exhausted: .*bomb.events.gz.*ring file read into memory (stdin or gzip) is larger than the limit of 268435456 bytes" "$err" ||
  { fail "bomb message"; cat "$err"; }

# A misspelt subcommand, at any level: its nearest neighbour, exit 2.
check "memtrace stat" 2 "$bin" memtrace stat $v2.ctf
grep -qx "memprof-oracle memtrace: unknown subcommand 'stat'; did you mean 'stats'?" "$err" ||
  { fail "memtrace stat message"; cat "$err"; }
check "memtrce stats" 2 "$bin" memtrce stats $v2.ctf
grep -q "unknown subcommand 'memtrce'; did you mean 'memtrace'?" "$err" || { fail "memtrce message"; cat "$err"; }
check "events dupm" 2 "$bin" events dupm "$tmp/3995.events"
grep -q "memprof-oracle events: unknown subcommand 'dupm'; did you mean 'dump'?" "$err" ||
  { fail "events dupm message"; cat "$err"; }
check "corpus xyzzy" 2 "$bin" corpus xyzzy
grep -q "unknown subcommand 'xyzzy' (one of: " "$err" || { fail "corpus xyzzy message"; cat "$err"; }
check "a positional that looks like a subcommand is left alone" 0 "$bin" memtrace stats - <$v2.ctf

# Help wrapped to $COLUMNS, else 80 (stdout is not a terminal here): only a line that is
# one word (a long program path) may pass the width.
too_long() { awk -v w="$1" 'length($0) > w { sub(/^ +/, ""); if (index($0, " ")) print }'; }
for path in "" memtrace "memtrace stats" "memtrace copy" events "events chrome" "events record" corpus demo sample; do
  # shellcheck disable=SC2086 # the path is words
  check "help of '$path'" 0 "$bin" $path --help
  [ -z "$(too_long 80 <"$out")" ] || { fail "'$path --help' passes 80 columns"; too_long 80 <"$out"; }
  # shellcheck disable=SC2086
  check "help of '$path' at COLUMNS=60" 0 env COLUMNS=60 "$bin" $path --help
  [ -z "$(too_long 60 <"$out")" ] || { fail "'$path --help' passes 60 columns"; too_long 60 <"$out"; }
done
check "COLUMNS=200 uses the width" 0 env COLUMNS=200 "$bin" memtrace --help
[ "$(grep '^  copy ' "$out" | awk '{ print length($0) }')" -gt 150 ] ||
  { fail "COLUMNS=200: copy's first line is short"; grep -A1 '^  copy ' "$out"; }

# The real rings as the shared testdata ships them.
if [ -n "${MPO_SHARED_TESTDATA:-}" ] && [ -d "$MPO_SHARED_TESTDATA/runtime_events" ]; then
  for gz in "$MPO_SHARED_TESTDATA"/runtime_events/*/*.events.gz; do
    dir=$(dirname "$gz")
    check "events dump $gz" 0 "$bin" events dump "$gz" --tag oracle.unit=Ev_unit \
      --tag oracle.int=Ev_int --tag oracle.span=Ev_span --tag oracle.string=Ev_str \
      --tag oracle.second_unit=Ev_unit2
    cmp -s "$out" "$dir/consumer_dump.txt" || fail "events dump $gz differs"
    check "memtrace check $gz" 1 "$bin" memtrace check "$gz"
    grep -q "events dump" "$err" || fail "memtrace check $gz: message"
  done
else
  echo "SKIPPED: the real gzip rings of the shared testdata (set MPO_SHARED_TESTDATA)"
fi
cli_done
