#!/usr/bin/env bash
# One very short run of every benchmark case; fails if any case errors out (a missing
# shared trace is a skip, reported in the output, not a failure).
set -eu
out=$("$1" --benchmark_min_time=0.01 2>&1)
echo "$out"
if echo "$out" | grep -E "ERROR OCCURRED" | grep -v "trace not found"; then exit 1; fi
echo "$out" | grep -q "BM_Decode/2" || { echo "synthetic decode did not run"; exit 1; }
