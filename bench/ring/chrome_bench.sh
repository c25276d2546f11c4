#!/usr/bin/env bash
# Speed and peak RSS of the timeline exports, `events chrome` (JSON) and `events fuchsia`
# (FXT), on a large multi-domain ring written by make_big_ring.
#   bazel build -c opt //tools:memprof-oracle //bench/ring:make_big_ring
#   bench/ring/chrome_bench.sh .bazel/bin/tools/memprof-oracle .bazel/bin/bench/ring/make_big_ring [DOMAINS] [LOG2_WORDS] [RUNS]
# Defaults: 4 domains of 2^20 words (a 32 MiB ring, the size of the issue's 34 MB case),
# 3 runs of each export (the best is reported: the machine is shared). Speed is the
# ring's size and event count over wall time, and over user CPU time (steadier on a
# loaded machine); each export reads the ring twice (a scan
# for the time origin and pid, then the writing pass), both passes counted.
# The ring and the outputs are written to a temporary directory and removed.
set -euo pipefail
oracle="$1"; maker="$2"; domains="${3:-4}"; log2="${4:-20}"; runs="${5:-3}"
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
ring=$("$maker" "$dir" 77 "$domains" "$log2")
ring_bytes=$(stat -c %s "$ring")
events=$("$oracle" events dump "$ring" | tail -1 | sed 's/.*total_events=//')
echo "ring: $ring_bytes bytes, $domains domains of 2^$log2 words; $events events"
for format in chrome fuchsia; do
  best=""
  for _ in $(seq "$runs"); do
    /usr/bin/time -o "$dir/time.txt" -f "%e %U %M %x" "$oracle" events "$format" "$ring" "$dir/out"
    read -r wall user rss code < "$dir/time.txt"
    [ "$code" = 0 ] || { echo "events $format failed: exit $code"; exit 1; }
    if [ -z "$best" ] || awk -v a="$wall" -v b="${best%% *}" 'BEGIN { exit !(a < b) }'; then
      best="$wall $user $rss"
    fi
  done
  read -r wall user rss <<< "$best"
  awk -v f="$format" -v w="$wall" -v u="$user" -v r="$rss" -v b="$ring_bytes" -v e="$events" \
      -v o="$(stat -c %s "$dir/out")" 'BEGIN {
    if (w < 0.01) w = 0.01
    if (u < 0.01) u = 0.01
    printf "events %-7s: %.2f s wall, %.2f s user (best run); by wall: %.1f MB/s of ring, %.0f events/s; by user CPU: %.1f MB/s, %.0f events/s; %d KiB peak RSS; output %d bytes\n",
      f, w, u, b / w / 1e6, e / w, b / u / 1e6, e / u, r, o }'
done
