#!/usr/bin/env bash
# Every file the program writes goes through one output path, whatever happens to it:
# targets that are not regular files (a FIFO, a device node), kept modes, the longest
# legal names, termination signals in the middle of a long write, `ulimit -f`, a stdout
# pipe closed by its reader, `corpus fuzz --out` over an earlier run. Every command runs
# under `timeout`; no check depends on timing to pass (a command that finished before
# its signal only has to leave no temporary file).
#
#   outputs_cli_test.sh BIN   (from the repository root or its runfiles)
source tools/cli_test_lib.sh
bin="$(abs_path "$1")"
T=testdata/memtrace
good=$T/arrays_major.ocaml5.3.native.r1e-3.ctf
limit="${HOSTILE_TIME_LIMIT:-60}"

run() { timeout "$limit" "$bin" "$@"; }
expect() {
  local name="$1" want="$2"
  shift 2
  check "$name" "$want" run "$@"
}
err_has() { grep -q -- "$1" "$err" || fail "stderr lacks '$1': $(head -c 500 "$err")"; }
# no_temporaries DIR: nothing an output path creates was left in DIR.
no_temporaries() {
  local left
  left="$(find "$1" -name '*.tmp-*' -o -name '.scratch-*' 2>/dev/null | head -5)"
  [ -z "$left" ] || fail "temporary file left in $1: $left"
}

# A demo's trace and ring: a trace large enough for the long commands below, a ring for
# the events exports.
demo="$tmp/demo"
expect "demo for the inputs" 0 demo --out "$demo" --steps 40000 --max-steps 10000000
big="$demo/trace.ctf"
ring="$(ls "$demo"/*.events 2>/dev/null | head -1)"
[ -n "$ring" ] || fail "the demo wrote no ring"
echo "big trace: $(stat -c %s "$big") bytes"

# ---- 1. Targets that are not regular files: refused, exit 2, left as they were -------
w="$tmp/targets"
mkdir -p "$w"
mkfifo "$w/fifo"
targets=(fifo)
# A character device like /dev/null (1,3): only root may make one; never the real one.
if mknod "$w/null" c 1 3 2>/dev/null; then targets+=(null); else echo "SKIPPED: mknod (not root)"; fi
for t in "${targets[@]}"; do
  kind=$(stat -c %F "$w/$t")
  expect "copy onto a $kind" 2 memtrace copy "$good" "$w/$t"
  err_has "not a regular file"
  expect "report onto a $kind" 2 memtrace report "$good" --output "$w/$t"
  err_has "not a regular file"
  expect "events chrome onto a $kind" 2 events chrome "$ring" "$w/$t"
  expect "events fuchsia onto a $kind" 2 events fuchsia "$ring" "$w/$t"
  ln -s "$t" "$w/link-to-$t"
  expect "copy onto a symlink to a $kind" 2 memtrace copy "$good" "$w/link-to-$t"
  [ "$(stat -c %F "$w/$t")" = "$kind" ] || fail "the $kind was replaced"
  [ -L "$w/link-to-$t" ] || fail "the symlink to the $kind was replaced"
done
d="$tmp/demo_fifo"
mkdir -p "$d"
mkfifo "$d/trace.ctf"
expect "demo with trace.ctf a FIFO" 2 demo --out "$d" --steps 10
[ -p "$d/trace.ctf" ] || fail "demo replaced its FIFO trace.ctf"
no_temporaries "$w"
no_temporaries "$d"

# ---- 2. A replaced file keeps its mode; a new one gets 0666 less the umask -----------
m="$tmp/modes"
mkdir -p "$m"
for f in copy.ctf report.html chrome.json; do
  echo old >"$m/$f"
  chmod 600 "$m/$f"
done
expect "copy over a 0600 file" 0 memtrace copy "$good" "$m/copy.ctf"
expect "report over a 0600 file" 0 memtrace report "$good" --output "$m/report.html"
expect "chrome over a 0600 file" 0 events chrome "$ring" "$m/chrome.json"
for f in copy.ctf report.html chrome.json; do
  [ "$(stat -c %a "$m/$f")" = 600 ] || fail "$f came back $(stat -c %a "$m/$f"), want 600"
done
cmp -s "$good" "$m/copy.ctf" || fail "the copy over a 0600 file differs"
(umask 027 && exec timeout "$limit" "$bin" memtrace copy "$good" "$m/new.ctf") ||
  fail "copy to a new file failed"
[ "$(stat -c %a "$m/new.ctf")" = 640 ] || fail "a new file is $(stat -c %a "$m/new.ctf") under umask 027"

# ---- 3. The longest legal names (254 and 255 bytes) -----------------------------------
n="$tmp/names"
mkdir -p "$n"
name254="$(printf 'n%.0s' $(seq 250)).ctf"
name255="$(printf 'r%.0s' $(seq 250))".html
[ ${#name254} = 254 ] && [ ${#name255} = 255 ] || fail "name lengths ${#name254} ${#name255}"
expect "copy to a 254-byte name" 0 memtrace copy "$good" "$n/$name254"
cmp -s "$good" "$n/$name254" || fail "the 254-byte copy differs"
expect "copy over a 254-byte name" 0 memtrace copy "$good" "$n/$name254"
expect "report to a 255-byte name" 0 memtrace report "$good" --output "$n/$name255"
[ -s "$n/$name255" ] || fail "no report at the 255-byte name"
[ "$(ls -A "$n" | wc -l)" = 2 ] || fail "names: $(ls -A "$n" | wc -l) entries, want 2"

# ---- 4. Termination signals remove temporary files -----------------------------------
# signal_during NAME SIG DIR CMD...: starts CMD in the background, sends SIG once a
# temporary file shows in DIR (or the command has ended), then wants the signal's status
# (or 0 if it finished first) and no temporary left. `env --default-signal` undoes the
# SIGINT a background job of a script starts with ignored.
signal_during() {
  local name="$1" sig="$2" dir="$3" pid rc=0 i
  shift 3
  env --default-signal="$sig" timeout -s KILL "$limit" "$bin" "$@" >/dev/null 2>"$err" &
  pid=$!
  for i in $(seq 500); do
    ls -A "$dir" 2>/dev/null | grep -q -e '\.tmp-' -e '^\.scratch-' -e 'memprof-oracle-fuzz-' && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.01
  done
  # timeout runs the program as its child: the signal goes to the program itself.
  pkill -"$sig" -P "$pid" 2>/dev/null || true
  wait "$pid" || rc=$?
  local want=$((128 + $(kill -l "$sig")))
  if [ "$rc" != "$want" ] && [ "$rc" != 0 ]; then
    fail "$name: exit $rc, want $want (or 0 if it finished first): $(head -c 300 "$err")"
  else
    echo "ok   $name (exit $rc)"
  fi
  no_temporaries "$dir"
}
s="$tmp/signals"
mkdir -p "$s"
expect "copy --reencode, whole" 0 memtrace copy --reencode "$big" "$tmp/whole.ctf"
echo old >"$tmp/old.ctf"
cp "$tmp/old.ctf" "$s/out.ctf"
for sig in TERM INT HUP; do
  signal_during "SIG$sig during copy --reencode" "$sig" "$s" memtrace copy --reencode "$big" "$s/out.ctf"
  cmp -s "$tmp/old.ctf" "$s/out.ctf" || cmp -s "$tmp/whole.ctf" "$s/out.ctf" ||
    fail "SIG$sig: out.ctf is neither the old file nor a whole copy"
done
signal_during "SIGTERM during events chrome" TERM "$s" events chrome "$ring" "$s/ring.json"
signal_during "SIGQUIT during memtrace report" QUIT "$s" memtrace report "$big" --output "$s/r.html"
signal_during "SIGTERM during corpus gen" TERM "$s/corpus" corpus gen "$s/corpus"
fz="$s/fuzztmp"
mkdir -p "$fz"
# An implementation that takes its time: the run is still going when the signal comes.
TMPDIR="$fz" signal_during "SIGTERM during corpus fuzz" TERM "$fz" corpus fuzz \
  --impl "sleep 0.2; $bin corpus decode {file}" --max-mutants 1000 --max-seconds 30
[ -z "$(ls -A "$fz")" ] || fail "corpus fuzz left $(ls -A "$fz")"

# ---- 5. A write past `ulimit -f` is an I/O error: exit 2, no temporary ---------------
u="$tmp/ulimit"
mkdir -p "$u"
got=0
(ulimit -f 64 && exec timeout "$limit" "$bin" memtrace copy --reencode "$big" "$u/out.ctf") \
  2>"$err" || got=$?
[ "$got" = 2 ] || fail "copy past ulimit -f: exit $got, want 2: $(head -c 300 "$err")"
grep -q "too large" "$err" || fail "copy past ulimit -f: $(head -c 300 "$err")"
[ ! -e "$u/out.ctf" ] || fail "copy past ulimit -f left an output"
no_temporaries "$u"
got=0
(ulimit -f 64 && exec timeout "$limit" "$bin" memtrace dump "$big") >"$u/dump.txt" 2>"$err" || got=$?
[ "$got" = 2 ] || fail "dump past ulimit -f: exit $got, want 2"
grep -q stdout "$err" || fail "dump past ulimit -f: stderr does not name stdout: $(head -c 300 "$err")"
echo "ok   ulimit -f"

# ---- 6. A stdout pipe closed by its reader: status 141, at once, silently ------------
# Each output is megabytes, far more than a pipe holds: the command is always still
# writing when `head` exits.
# A command whose whole output fits in the pipe may finish before the reader closes it: it
# then exits 0 (nothing was lost). `folded` prints everything at its end, so it may.
pipe_closed() {
  local name="$1" may_finish="$2" rc
  shift 2
  timeout "$limit" "$bin" "$@" 2>"$err" | head -1 >"$tmp/first"
  rc="${PIPESTATUS[0]}"
  if [ "$rc" != 141 ] && ! { [ "$may_finish" = may-finish ] && [ "$rc" = 0 ]; }; then
    fail "$name | head -1: exit $rc, want 141: $(head -c 300 "$err")"
  elif [ -s "$err" ]; then
    fail "$name | head -1: not silent: $(head -c 300 "$err")"
  elif [ ! -s "$tmp/first" ]; then
    fail "$name | head -1: no line got through"
  else
    echo "ok   $name | head -1"
  fi
}
pipe_closed "dump --threads 1" streams memtrace dump --threads 1 "$big"
pipe_closed "dump --threads 2" streams memtrace dump --threads 2 "$big"
pipe_closed "dump --json" streams memtrace dump --json "$big"
pipe_closed "folded" may-finish memtrace folded "$big"

# ---- 7. corpus fuzz --out: a new run never replaces or writes through ----------------
f="$tmp/fuzz"
mkdir -p "$f/out"
# An implementation that prints nothing: every mutant diverges, one class.
silent="true {file}"
expect "fuzz, first run" 1 corpus fuzz --impl "$silent" --max-mutants 2 --max-minimize-tests 2 \
  --max-seconds 600 --out "$f/out"
[ -s "$f/out/divergence-1.txt" ] || fail "fuzz: the first run saved no divergence-1.txt"
first_sum="$(cat "$f/out"/divergence-1* | sha256sum)"
expect "fuzz, second run into the same folder" 1 corpus fuzz --impl "$silent" --seed 2 \
  --max-mutants 2 --max-minimize-tests 2 --max-seconds 600 --out "$f/out"
[ "$(cat "$f/out"/divergence-1* | sha256sum)" = "$first_sum" ] ||
  fail "fuzz: the second run changed the first run's reproducers"
[ -s "$f/out/divergence-2.txt" ] || fail "fuzz: the second run saved no divergence-2.txt: $(ls "$f/out")"
mkdir -p "$f/planted"
echo victim >"$f/victim"
ln -s "$f/victim" "$f/planted/divergence-1.txt"
expect "fuzz with a planted divergence-1.txt symlink" 1 corpus fuzz --impl "$silent" \
  --max-mutants 2 --max-minimize-tests 2 --max-seconds 600 --out "$f/planted"
[ "$(cat "$f/victim")" = victim ] || fail "fuzz wrote through a planted symlink"
[ -L "$f/planted/divergence-1.txt" ] || fail "fuzz replaced the planted symlink"
[ -s "$f/planted/divergence-2.txt" ] || fail "fuzz: nothing saved beside the planted link"
no_temporaries "$f/out"
no_temporaries "$f/planted"

cli_done
