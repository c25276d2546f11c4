#!/usr/bin/env bash
# `events chrome` streams: its peak RSS does not grow with the ring's event count. Two
# rings written by make_big_ring, the second with 8 times the events (about 25,000):
# when the whole JSON document was built in memory, peak RSS grew by about 64 MB
# between them (15 -> 78 MB); streamed it grows by about the mapped file (1 MB).
# Under ASan the base is about 100 MB (shadow, allocator), so the check is on growth.
source tools/cli_test_lib.sh
bin="$1"
maker="$2"
max_growth_kib=$((24 * 1024))
max_peak_kib=$((192 * 1024))
# Freed blocks held in ASan's quarantine would otherwise count as growth.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=4"
peak_of() {  # peak RSS in KiB of `events chrome RING OUT`, or -exit code
  python3 - "$bin" "$1" "$2" <<'PY'
import resource, subprocess, sys
rc = subprocess.call([sys.argv[1], "events", "chrome", sys.argv[2], sys.argv[3]])
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss if rc == 0 else -abs(rc) - 1)
PY
}
mkdir "$tmp/small" "$tmp/large"
small=$(peak_of "$("$maker" "$tmp/small" 77 4 12)" "$tmp/small.json")
large=$(peak_of "$("$maker" "$tmp/large" 77 4 15)" "$tmp/large.json")
echo "peak RSS of events chrome: $small KiB (4 x 2^12 words), $large KiB (4 x 2^15 words)"
[ "$small" -gt 0 ] && [ "$large" -gt 0 ] || fail "events chrome failed"
[ $((large - small)) -le "$max_growth_kib" ] || fail "peak RSS grew by $((large - small)) KiB"
[ "$large" -le "$max_peak_kib" ] || fail "peak RSS $large KiB over $max_peak_kib KiB"
[ "$(stat -c %s "$tmp/large.json")" -gt 2500000 ] || fail "output too small"
tail -c 2 "$tmp/large.json" | grep -q '^]}$' || fail "output not closed"
cli_done
