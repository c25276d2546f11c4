#!/usr/bin/env bash
# End-to-end: `demo` through the real program. The same seed gives the same trace bytes;
# the trace passes `memtrace check`, the ring passes `events dump`; bad options exit 2.
set -eo pipefail
source tools/cli_test_lib.sh
bin="$(abs_path "$1")"
golden="$(abs_path "$2")"

# The golden decode of a small run (regenerate: see testdata/tracer/BUILD).
"$bin" demo --out "$tmp/g" --seed 3 --steps 300 --domains 2 --lambda 0.01 > /dev/null
"$bin" memtrace dump "$tmp/g/trace.ctf" > "$tmp/g.dump"
diff -u "$golden" "$tmp/g.dump" | head -20
cmp -s "$golden" "$tmp/g.dump"

"$bin" demo --out "$tmp/a" --seed 11 --steps 4000 --domains 3 > "$tmp/a.txt"
cat "$tmp/a.txt"
grep -q "all checks passed" "$tmp/a.txt"
grep -q "Top allocation sites" "$tmp/a.txt"
grep -q "GC phase time per domain" "$tmp/a.txt"
# One attribution rule: the demo's top site (and caller) is `memtrace stats --callers 1`'s.
"$bin" memtrace stats --json --top 1 --callers 1 "$tmp/a/trace.ctf" > "$tmp/a.json"
want_site="$(python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["sites"][0]; print(" <- ".join([s["site"]] + s["callers"]), s["samples"])' "$tmp/a.json")"
got_site="$(sed -n '/^Top allocation sites/{n;n;p;q}' "$tmp/a.txt" | awk '{s=$2; $1=$2=$3=$4=$5=""; sub(/^ +/, ""); print $0, s}')"
[ "$got_site" = "$want_site" ] || { echo "demo site '$got_site' != stats '$want_site'"; exit 1; }
"$bin" demo --out "$tmp/b" --seed 11 --steps 4000 --domains 3 > /dev/null
cmp "$tmp/a/trace.ctf" "$tmp/b/trace.ctf"
ring_a="$(ls "$tmp"/a/*.events)"
ring_b="$(ls "$tmp"/b/*.events)"
cmp "$ring_a" "$ring_b"
"$bin" demo --out "$tmp/c" --seed 12 --steps 4000 --domains 3 > /dev/null
if cmp -s "$tmp/a/trace.ctf" "$tmp/c/trace.ctf"; then
  echo "different seeds gave the same trace"; exit 1
fi

"$bin" memtrace check "$tmp/a/trace.ctf"
"$bin" events dump "$ring_a" > "$tmp/dump.txt"
"$bin" events dump "$tmp/a" 4242 | cmp - "$tmp/dump.txt"
grep -q "major_memprof_clean\|minor_memprof_clean" "$tmp/dump.txt" || { head "$tmp/dump.txt"; exit 1; }

# memtrace 0.2.3's format on request.
"$bin" demo --out "$tmp/v2" --format-version 2 --steps 2000 --domains 2 | grep -q "all checks passed"
"$bin" memtrace check "$tmp/v2/trace.ctf"

# A ring that wraps: events are lost, exactly the reported words.
"$bin" demo --out "$tmp/wrap" --ring-log2-words 8 --steps 2000 --domains 2 > "$tmp/wrap.txt"
grep -q "all checks passed" "$tmp/wrap.txt"
grep -q "words lost" "$tmp/wrap.txt"
if grep -q " 0 words lost" "$tmp/wrap.txt"; then echo "the ring did not wrap"; exit 1; fi
# Its report says the GC table covers only what the ring kept; a whole ring's does not.
grep -q "^  partial: the ring lost [1-9][0-9]* words, so these counts and times are lower bounds" "$tmp/wrap.txt" ||
  { echo "lossy ring: GC table not qualified"; exit 1; }
grep -q "all checks passed (the lost words are counted exactly; the GC table is partial)" "$tmp/wrap.txt" ||
  { echo "lossy ring: verdict not qualified"; exit 1; }
if grep -q "partial" "$tmp/a.txt"; then echo "a whole ring called partial"; exit 1; fi
# A 64-word ring wraps many times and pads before events that would straddle its end:
# the word count holds only when padding is counted on both sides.
"$bin" demo --out "$tmp/wrap6" --ring-log2-words 6 --steps 2000 --domains 2 > "$tmp/wrap6.txt"
grep -q "all checks passed" "$tmp/wrap6.txt" || { grep FAILED "$tmp/wrap6.txt"; exit 1; }

# A planted <pid>.events link is replaced, never written through (the ring file is
# unlinked and created with O_EXCL|O_NOFOLLOW); the victim keeps its bytes.
mkdir -p "$tmp/planted"
printf 'victim bytes\n' > "$tmp/victim"
ln -s "$tmp/victim" "$tmp/planted/4242.events"
"$bin" demo --out "$tmp/planted" --steps 500 --domains 2 | grep -q "all checks passed"
[ "$(cat "$tmp/victim")" = "victim bytes" ] || { echo "wrote through the planted link"; exit 1; }
[ -f "$tmp/planted/4242.events" ] && [ ! -L "$tmp/planted/4242.events" ] ||
  { echo "the ring is not a regular file of its own"; exit 1; }

# No arguments: writes ./memprof-oracle-demo under the working directory.
(cd "$tmp" && "$bin" demo --steps 1000 > "$tmp/default.txt")
[ -f "$tmp/memprof-oracle-demo/trace.ctf" ]

check "no domains" 2 "$bin" demo --out "$tmp/bad" --domains 0
grep -q -- "--domains" "$err" || fail "the --domains message: $(cat "$err")"
cli_done
