#!/usr/bin/env bash
# End-to-end checks of the analysis commands' windows and of damaged traces: a window
# past the trace's end, the live-heap timeline under a window, and a real trace cut
# inside a packet (what an out-of-memory kill leaves), read by stats, leaks, compare and
# folded up to the damage, refused with --strict, refused by check and copy.
source tools/cli_test_lib.sh
bin="$1"
T=testdata/memtrace
v2=$T/arrays_major.ocaml5.3.native.r1e-3

# A window starting after the last event is a usage error naming the trace's duration,
# before anything is printed.
check "report --from past the end" 2 "$bin" memtrace report --from 1000 $v2.ctf -o "$tmp/past.html"
grep -q "the trace lasts" "$err" || { fail "report: past-the-end message"; cat "$err"; }
[ ! -e "$tmp/past.html" ] || fail "report --from past the end wrote a page"
for cmd in "stats" "stats --json" "leaks" "compare $v2.ctf" "folded"; do
  check "$cmd --from past the end" 2 "$bin" memtrace $cmd --from 1000 $v2.ctf
  grep -q "after the trace's last event (the trace lasts [0-9.]* s)" "$err" || { fail "$cmd: past-the-end message"; cat "$err"; }
  [ ! -s "$out" ] || fail "$cmd --from past the end printed results"
done
# The live-heap timeline is the true live heap whatever the window: a window changes
# the figures of the blocks allocated in it, not the heap they live in.
check "stats --json, whole trace" 0 "$bin" memtrace stats --json $v2.ctf
cp "$out" "$tmp/whole.json"
check "stats --json, windowed" 0 "$bin" memtrace stats --json --from 0.005 --to 0.015 $v2.ctf
python3 - "$tmp/whole.json" "$out" <<'PY' || fail "a window changed the live-heap timeline"
import json, sys
whole, win = (json.load(open(p)) for p in sys.argv[1:3])
assert win["timeline"] == whole["timeline"] and max(p["live_est_bytes"] for p in win["timeline"]) > 0
assert win["allocated"]["blocks"] < whole["allocated"]["blocks"]
PY

# A trace cut inside a packet (what an out-of-memory kill leaves): every analysis command
# reads the whole packets before the cut, as memtrace's own tools do, says where it
# stopped (stderr, and "damage" in JSON), exits 0; --strict refuses it (exit 1); check
# and copy keep their verdicts.
big="${MPO_SHARED_TESTDATA:-}/memtrace/lists_maps.ocaml4.13.native.r1e-3.ctf"
if [ -n "${MPO_SHARED_TESTDATA:-}" ] && [ -r "$big" ]; then
  cut="$tmp/cut.ctf"
  head -c 80000 "$big" >"$cut"
  check "check: cut trace" 1 "$bin" memtrace check "$cut"
  events=$(sed -n 's/^.*, \([0-9]*\) events, .*$/\1/p' "$out")
  off=$(sed -n 's/^.*truncated: packet header: packet_size at offset \(0x[0-9a-f]*\):.*$/\1/p' "$err")
  [ -n "$events" ] && [ "$events" -gt 0 ] && [ -n "$off" ] || fail "check: cut trace: $(cat "$out" "$err")"
  off=$((off))
  check "copy: cut trace refused" 1 "$bin" memtrace copy "$cut" "$tmp/cut_copy.ctf"
  [ ! -e "$tmp/cut_copy.ctf" ] || fail "a copy of a cut trace was written"
  for cmd in "stats" "stats --json" "leaks" "leaks --json" "compare $big" "compare --json $big" "folded"; do
    check "$cmd: cut trace read up to the damage" 0 "$bin" memtrace $cmd "$cut"
    grep -q "^memprof-oracle: memtrace ${cmd%% *}: warning: $cut: stopped at byte $off (truncated: packet header: packet_size at offset .*): figures cover the .* events before it$" "$err" || { fail "$cmd: damage warning"; cat "$err"; }
    [ -s "$out" ] || fail "$cmd: cut trace: no output"
    check "$cmd --strict: cut trace refused" 1 "$bin" memtrace $cmd --strict "$cut"
    grep -q "truncated: packet header: packet_size at offset" "$err" || { fail "$cmd --strict message"; cat "$err"; }
  done
  for cmd in "stats --json" "leaks --json"; do
    check "$cmd: damage member" 0 "$bin" memtrace $cmd "$cut"
    python3 - "$out" "$off" "$events" <<'PY' || fail "$cmd: damage member"
import json, sys
d = json.load(open(sys.argv[1]))["damage"]
assert d["offset"] == int(sys.argv[2]) and d["events_read"] == int(sys.argv[3]), d
assert d["error"]["code"] == "truncated" and d["message"].startswith("truncated: "), d
PY
    check "$cmd: no damage" 0 "$bin" memtrace $cmd "$big"
    python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["damage"] is None' "$out" || fail "$cmd: clean trace has damage"
  done
  check "report: cut trace read up to the damage" 0 "$bin" memtrace report "$cut" -o "$tmp/cut.html"
  grep -q "^memprof-oracle: memtrace report: warning: $cut: stopped at byte $off " "$err" || { fail "report: damage warning"; cat "$err"; }
  grep -q "\"damage\":{\"offset\":$off,\"events_read\":$events," "$tmp/cut.html" || fail "report: damage member"
  check "report --strict: cut trace refused" 1 "$bin" memtrace report --strict "$cut" -o "$tmp/strict.html"
  [ ! -e "$tmp/strict.html" ] || fail "report --strict wrote a page"
  check "compare --json: damage per trace" 0 "$bin" memtrace compare --json "$big" "$cut"
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["a"]["damage"] is None and d["b"]["damage"]["events_read"] == int(sys.argv[2]), d["b"]' "$out" "$events" || fail "compare --json damage"
  # The figures are those of the events before the cut: the cut trace's allocations are
  # the whole trace's in the time the cut one covers.
  check "stats --json of the cut trace" 0 "$bin" memtrace stats --json "$cut"
  dur=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["trace"]["duration_s"])' "$out")
  cp "$out" "$tmp/cut.json"
  check "stats --json of the whole trace up to the cut" 0 "$bin" memtrace stats --json --to "$dur" "$big"
  python3 - "$tmp/cut.json" "$out" <<'PY' || fail "cut trace figures differ from the whole trace's up to the cut"
import json, sys
cut, whole = (json.load(open(p)) for p in sys.argv[1:3])
strip = lambda d: [(s["site"], s["blocks"], s["samples"]) for s in d["sites"]]
assert cut["allocated"] == whole["allocated"] and strip(cut) == strip(whole), (cut["allocated"], whole["allocated"])
PY
else
  echo "SKIPPED: cut trace checks (set MPO_SHARED_TESTDATA to ../shared/testdata)"
fi
cli_done
