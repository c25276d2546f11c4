#!/usr/bin/env bash
# End-to-end checks of `events record` and of `events tail` (PID via
# OCAML_RUNTIME_EVENTS_DIR, --follow FILE, and the reason it always gives for stopping),
# against the project's own producer (tail_producer_for_test, which takes its ring
# settings from the environment as an OCaml 5 program does). Nothing here asserts a
# duration: waits are bounded loops on observable state, and the limits given to the
# commands only end runs that would otherwise go on.
set -euo pipefail
source tools/cli_test_lib.sh
bin=$(abs_path "$1")
producer=$(abs_path "$2")

# Waits (bounded) until a command succeeds.
wait_for() {
  local i
  for i in $(seq 400); do
    if "$@"; then return 0; fi
    sleep 0.05
  done
  return 1
}

# ---- record: the program's status, the ring, the exports ----
rec="$tmp/rec"
check "record a producer" 3 "$bin" events record --out "$rec" --interval-ms 10 -- "$producer" 40 5 3
pid=$(sed -n 's/^program: .* (pid \([0-9]*\)) exited with status 3$/\1/p' "$out")
[ -n "$pid" ] || { fail "record: no program line"; cat "$out"; }
for f in "$pid.events" "$pid.chrome.json" "$pid.stats.txt"; do
  [ -s "$rec/$f" ] || fail "record: $f missing"
  grep -q "$rec/$f" "$out" || [ "$f" = "$pid.events" ] || fail "record: $f not announced"
done
grep -q '^followed: the process exited (' "$out" || { fail "record: why it stopped"; cat "$out"; }
python3 - "$rec/$pid.chrome.json" <<'PY' || fail "record: chrome JSON"
import json, sys
d = json.load(open(sys.argv[1]))
counters = [e for e in d["traceEvents"] if e.get("ph") == "C"]
assert len(counters) == 40, len(counters)
PY
grep -Eq '^  counter +40$' "$rec/$pid.stats.txt" || { fail "record: stats"; cat "$rec/$pid.stats.txt"; }
cmp -s <(sed -n '/^stats: /,$p' "$out" | tail -n +2) "$rec/$pid.stats.txt" || fail "record: printed stats differ from the file"
# The ring it leaves is the program's: the same events as `events dump` reads.
check "record: dump the ring" 0 "$bin" events dump "$rec/$pid.events"
[ "$(grep -c ' counter ' "$out")" = 40 ] || fail "record: ring counters"

# --format fuchsia: the same run exported as FXT (<pid>.fxt), Perfetto's native format.
check "record --format fuchsia" 0 "$bin" events record --out "$rec" --format fuchsia --interval-ms 10 -- "$producer" 40 0 0
fpid=$(sed -n 's/^program: .* (pid \([0-9]*\)) exited with status 0$/\1/p' "$out")
[ -n "$fpid" ] || { fail "record fuchsia: no program line"; cat "$out"; }
grep -qx "fuchsia: $rec/$fpid.fxt" "$out" || { fail "record fuchsia: not announced"; cat "$out"; }
[ "$(head -c 8 "$rec/$fpid.fxt" | od -An -tx1 | tr -d ' \n')" = 1000044678541600 ] || fail "record fuchsia: no FXT magic"
[ -e "$rec/$fpid.chrome.json" ] && fail "record fuchsia: a chrome export too"
[ -s "$rec/$fpid.stats.txt" ] || fail "record fuchsia: no stats"
check "record --format json" 2 "$bin" events record --out "$rec" --format json -- "$producer" 1 0 0
# --ring-size N reaches the program as OCAMLRUNPARAM's e=N (after what it already had,
# so it wins): 2 domains of 2^12 instead of 2^10 words are 2 * 3072 * 8 bytes more.
ring_bytes() {  # ARGS... -> size of the ring left by `events record ARGS -- producer`
  "$bin" events record --out "$rec" --interval-ms 10 "$@" -- "$producer" 5 0 0 > "$tmp/rs.out" 2>&1 || return 1
  local p
  p=$(sed -n 's/^program: .* (pid \([0-9]*\)) exited with status 0$/\1/p' "$tmp/rs.out")
  stat -c %s "$rec/$p.events"
}
small=$(ring_bytes) || fail "record: default ring"
big=$(ring_bytes --ring-size 12) || fail "record --ring-size 12"
[ $((big - small)) = 49152 ] || fail "record --ring-size 12: $small -> $big bytes"
kept=$(OCAMLRUNPARAM=s=32k,e=6 ring_bytes --ring-size 12) || fail "record --ring-size with OCAMLRUNPARAM"
[ "$kept" = "$big" ] || fail "record --ring-size does not override OCAMLRUNPARAM's e: $kept"
kept=$(CAMLRUNPARAM=e=12 ring_bytes) || fail "record with CAMLRUNPARAM"
[ "$kept" = "$big" ] || fail "record without --ring-size changed CAMLRUNPARAM's e: $kept"
for bad in 3 27 -1 '' 12x 0x10 1e1 18446744073709551617; do
  check "record --ring-size '$bad'" 2 "$bin" events record --out "$rec" --ring-size "$bad" -- "$producer" 1 0 0
done

# A ring of 16 words and 5000 events: the producer overwrites what was not read yet,
# and every word is either read or counted lost.
check "record: lost events" 0 "$bin" events record --out "$rec" --interval-ms 50 -- "$producer" 5000 0 0 4
grep -Eq '^followed: .*, [1-9][0-9]* lost words\)$' "$out" || { fail "record: lost words not counted"; cat "$out"; }

check "record: a program that writes no ring" 1 "$bin" events record --out "$rec" -- /bin/true
grep -q 'no ring' "$err" || fail "record: no-ring message"
check "record: no such program" 127 "$bin" events record --out "$rec" -- "$tmp/absent-program"
grep -q 'cannot run' "$err" || fail "record: cannot-run message"
# That one message only: no second one about a ring it could never write.
[ "$(wc -l < "$err")" = 1 ] || { fail "record: more than the cannot-run message"; cat "$err"; }
[ -s "$out" ] && fail "record: output for a program that never ran"
check "record: a directory as the program" 126 "$bin" events record --out "$rec" -- "$tmp"
grep -q 'cannot run' "$err" && [ "$(wc -l < "$err")" = 1 ] || { fail "record: directory: messages"; cat "$err"; }
# A program that runs and exits 127 itself is not taken for one that could not run.
check "record: a program exiting 127" 127 "$bin" events record --out "$rec" -- sh -c 'exit 127'
grep -q 'no ring' "$err" || { fail "record: exit 127: no-ring message"; cat "$err"; }
check "record: no program" 2 "$bin" events record --out "$rec"
check "record: --max-seconds -1" 2 "$bin" events record --max-seconds -1 -- "$producer" 1 0 0
check "record: --out is a file" 2 "$bin" events record --out "$rec/$pid.events" -- "$producer" 1 0 0
# A program that would run for ~1000 s: stopped at --max-seconds (SIGTERM: 128 + 15),
# its ring still exported.
check "record: --max-seconds stops the program" 143 "$bin" events record --out "$rec" --max-seconds 0.3 --interval-ms 10 -- "$producer" 100000 10 0
grep -q 'stopped at --max-seconds' "$out" || { fail "record: --max-seconds reason"; cat "$out"; }
grep -q 'killed by signal 15' "$out" || fail "record: signal not reported"
grep -q '^chrome: ' "$out" || fail "record: no export after --max-seconds"

# Ctrl-C (SIGINT to the recorder alone here): the program is terminated, its ring
# still read and exported.
"$bin" events record --out "$tmp/intrec" --interval-ms 10 -- "$producer" 100000 10 0 \
  >"$tmp/intrec.out" 2>"$tmp/intrec.err" &
recpid=$!
wait_for sh -c 'ls "$0"/*.events >/dev/null 2>&1' "$tmp/intrec" || fail "record: no ring before SIGINT"
kill -INT "$recpid"
rc=0
wait "$recpid" || rc=$?
[ "$rc" = 143 ] || { fail "record interrupted: exit $rc, want 143"; cat "$tmp/intrec.out" "$tmp/intrec.err"; }
grep -q 'interrupted (SIGINT): the program was terminated' "$tmp/intrec.out" || fail "record: interrupted reason"
grep -q '^chrome: ' "$tmp/intrec.out" || fail "record: no export after SIGINT"

# SIGTERM and SIGHUP to the recorder are passed on to the program, which is waited for:
# the recorder exits with the program's status and still exports its ring.
for sig in TERM HUP; do
  "$bin" events record --out "$tmp/sig$sig" --interval-ms 10 -- "$producer" 100000 10 0 \
    >"$tmp/sig$sig.out" 2>"$tmp/sig$sig.err" &
  recpid=$!
  wait_for sh -c 'ls "$0"/*.events >/dev/null 2>&1' "$tmp/sig$sig" || fail "record: no ring before SIG$sig"
  kill -"$sig" "$recpid"
  rc=0
  wait "$recpid" || rc=$?
  want=$((128 + $(kill -l "$sig")))
  [ "$rc" = "$want" ] || { fail "record, SIG$sig: exit $rc, want $want"; cat "$tmp/sig$sig.out" "$tmp/sig$sig.err"; }
  grep -q "interrupted (SIG$sig): passed on to the program" "$tmp/sig$sig.out" ||
    fail "record, SIG$sig: reason: $(cat "$tmp/sig$sig.out")"
  grep -q "was killed by signal $(kill -l "$sig")" "$tmp/sig$sig.out" || fail "record, SIG$sig: the program did not get it"
  grep -q '^chrome: ' "$tmp/sig$sig.out" || fail "record: no export after SIG$sig"
done

# Rings an earlier process left under the next pids are never removed or taken for the
# program's: record runs the program under a pid with no ring there.
keep="$tmp/keep"
mkdir -p "$keep"
last=$(cat /proc/sys/kernel/ns_last_pid 2>/dev/null || echo 0)
if [ "$last" -gt 0 ]; then
  for i in $(seq 1 8); do echo "earlier ring" >"$keep/$((last + i)).events"; done
  check "record beside earlier rings" 3 "$bin" events record --out "$keep" --interval-ms 10 -- "$producer" 40 5 3
  for i in $(seq 1 8); do
    [ "$(cat "$keep/$((last + i)).events" 2>/dev/null)" = "earlier ring" ] ||
      fail "record removed or replaced $((last + i)).events"
  done
  grep -q '^chrome: ' "$out" || fail "record beside earlier rings: no export: $(cat "$out")"
else
  echo "SKIPPED: no /proc/sys/kernel/ns_last_pid"
fi

# ---- tail PID finds the ring through OCAML_RUNTIME_EVENTS_DIR ----
mkdir -p "$tmp/env"
gzip -dc testdata/ring/single/3995.events.gz > "$tmp/env/3995.events"
check "tail PID in \$OCAML_RUNTIME_EVENTS_DIR" 0 env OCAML_RUNTIME_EVENTS_DIR="$tmp/env" "$bin" events tail 3995 --max-seconds 5
cmp -s <(grep -v '^#' testdata/ring/single/consumer_dump.txt) "$out" || fail "tail PID: output"
grep -q 'process 3995 not found' "$err" || { fail "tail PID: reason"; cat "$err"; }
check "tail PID without the variable looks in ." 2 env -u OCAML_RUNTIME_EVENTS_DIR "$bin" events tail 3995
grep -q '3995.events (process 3995 not found)' "$err" || { fail "tail: no ring, no process: why"; cat "$err"; }
check "tail --follow and PID" 2 "$bin" events tail --follow "$tmp/env/3995.events" 3995
check "tail with nothing to follow" 2 "$bin" events tail

# ---- tail --follow FILE: stops at the ring's end marker, when the file goes, at
# --max-seconds, at Ctrl-C ----
# OCaml's ring ends with ring_stop: following it ends there, with the whole ring read
# (--max-seconds only bounds a failure).
check "tail --follow stops at ring_stop" 0 "$bin" events tail --follow "$tmp/env/3995.events" --max-seconds 60 --interval-ms 20
cmp -s <(grep -v '^#' testdata/ring/single/consumer_dump.txt) "$out" || fail "tail --follow: output"
grep -q 'the ring ended (ring_stop read)' "$err" || { fail "tail --follow: ring_stop reason"; cat "$err"; }
# A producer that stops its ring while tail follows it (the file is kept): every event,
# then the end marker's reason.
mkdir -p "$tmp/stops"
( OCAML_RUNTIME_EVENTS_START=1 OCAML_RUNTIME_EVENTS_PRESERVE=1 OCAML_RUNTIME_EVENTS_DIR="$tmp/stops" \
    "$producer" 30 20 0 & echo $! > "$tmp/stops.pid" )
stopspid=$(cat "$tmp/stops.pid")
wait_for test -s "$tmp/stops/$stopspid.events" || fail "stopping producer wrote no ring"
check "tail --follow a ring that stops" 0 "$bin" events tail --follow "$tmp/stops/$stopspid.events" --max-seconds 60 --interval-ms 10
[ "$(grep -c ' counter minor_promoted #4 ' "$out")" = 30 ] || { fail "tail --follow stopping: counters"; cat "$out"; }
# ring_stop ends its own ring (0); the counters are in ring 1, and a poll that finds both
# rings full delivers ring 0's events first, as OCaml's consumer does.
grep '^0 ' "$out" | tail -1 | grep -q 'lifecycle ring_stop' ||
  { fail "tail --follow stopping: ring 0 not ended by ring_stop"; grep -n lifecycle "$out"; }
grep -q 'the ring ended (ring_stop read)' "$err" || { fail "tail --follow stopping: reason"; cat "$err"; }

# A producer that is not our child and would run ~1000 s; the file is removed under tail.
mkdir -p "$tmp/live"
( OCAML_RUNTIME_EVENTS_START=1 OCAML_RUNTIME_EVENTS_DIR="$tmp/live" "$producer" 100000 10 0 &
  echo $! > "$tmp/live.pid" )
livepid=$(cat "$tmp/live.pid")
ring="$tmp/live/$livepid.events"
wait_for test -s "$ring" || fail "producer wrote no ring"
"$bin" events tail --follow "$ring" --interval-ms 10 >"$tmp/follow.out" 2>"$tmp/follow.err" &
tailpid=$!
wait_for grep -q ' counter minor_promoted #4 2$' "$tmp/follow.out" || fail "tail --follow: no live events"
rm -f "$ring"
rc=0
wait "$tailpid" || rc=$?
kill "$livepid" 2>/dev/null || true
[ "$rc" = 0 ] || fail "tail --follow of a removed file: exit $rc"
grep -q 'the file is gone' "$tmp/follow.err" || { fail "tail --follow: file-gone reason"; cat "$tmp/follow.err"; }
awk '/ counter /{print $NF}' "$tmp/follow.out" | awk 'NR-1 != $1 {bad=1} END {exit bad}' || fail "tail --follow: counters out of order"

# --max-seconds and SIGINT on a ring that has not ended: a producer that runs on.
mkdir -p "$tmp/runs"
( OCAML_RUNTIME_EVENTS_START=1 OCAML_RUNTIME_EVENTS_DIR="$tmp/runs" "$producer" 100000 10 0 &
  echo $! > "$tmp/runs.pid" )
runspid=$(cat "$tmp/runs.pid")
wait_for test -s "$tmp/runs/$runspid.events" || fail "running producer wrote no ring"
check "tail --follow --max-seconds" 0 "$bin" events tail --follow "$tmp/runs/$runspid.events" --max-seconds 0.3 --interval-ms 20
grep -q 'max-seconds' "$err" || fail "tail --follow: --max-seconds reason"
grep -q ' counter minor_promoted #4 0$' "$out" || fail "tail --follow --max-seconds: output"
# SIGINT: tail finishes its output and says it was interrupted (exit 0).
"$bin" events tail --follow "$tmp/runs/$runspid.events" --interval-ms 10 >"$tmp/int.out" 2>"$tmp/int.err" &
tailpid=$!
wait_for test -s "$tmp/int.out" || fail "tail --follow: no output before SIGINT"
kill -INT "$tailpid"
rc=0
wait "$tailpid" || rc=$?
kill "$runspid" 2>/dev/null || true
[ "$rc" = 0 ] || fail "tail interrupted: exit $rc"
grep -q 'interrupted (SIGINT)' "$tmp/int.err" || { fail "tail: interrupted reason"; cat "$tmp/int.err"; }
awk '/ counter /{print $NF}' "$tmp/int.out" | awk 'NR-1 != $1 {bad=1} END {exit bad || NR == 0}' || fail "tail interrupted: output"
cli_done
