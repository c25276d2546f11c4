#!/usr/bin/env bash
# Time and peak RSS of `events chrome` on a large ring written by make_big_ring.
#   bazel build -c opt //tools:memprof-oracle //bench/ring:make_big_ring
#   bench/ring/chrome_bench.sh .bazel/bin/tools/memprof-oracle .bazel/bin/bench/ring/make_big_ring [DOMAINS] [LOG2_WORDS]
# Defaults: 4 domains of 2^20 words (a 32 MiB ring, the size of the issue's 34 MB case).
# The ring and the JSON are written to a temporary directory and removed.
set -euo pipefail
oracle="$1"; maker="$2"; domains="${3:-4}"; log2="${4:-20}"
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
ring=$("$maker" "$dir" 77 "$domains" "$log2")
events=$("$oracle" events dump "$ring" | tail -1)
echo "ring: $(stat -c %s "$ring") bytes, $domains domains of 2^$log2 words; $events"
/usr/bin/time -o "$dir/time.txt" -f "events chrome: %e s wall, %M KiB peak RSS, exit %x" \
  "$oracle" events chrome "$ring" "$dir/out.json"
cat "$dir/time.txt"; echo "json: $(stat -c %s "$dir/out.json") bytes"
