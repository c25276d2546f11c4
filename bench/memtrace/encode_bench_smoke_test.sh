#!/usr/bin/env bash
# One very short run of every encode_bench case; fails if any case errors out. Cases 0-2
# read the shared traces (a missing one is a skip, reported in the output, not a
# failure); case 3 always runs, on a small three-domain v3 trace that `memprof-oracle demo`
# writes here, so that the replay, the writer's domain switches and the copy are run.
set -eu
bench=$1
tool=$2
dir=${TEST_TMPDIR:-$(mktemp -d)}
"$tool" demo --out "$dir/demo" --domains 3 --lambda 0.1 --steps 2000 > /dev/null
out=$(MPO_ENCODE_BENCH_TRACE="$dir/demo/trace.ctf" "$bench" --benchmark_min_time=0.01 2>&1)
echo "$out"
if echo "$out" | grep -E "ERROR OCCURRED" | grep -v "trace not found"; then exit 1; fi
for b in BM_EncodeAnchor_Checksum BM_EncodeReplayOnly BM_EncodeTrace BM_EncodeBacktraces \
         BM_CopyInMemory; do
  line=$(echo "$out" | grep -E "^$b/3 " || true)
  if [ -z "$line" ] || echo "$line" | grep -q "ERROR"; then
    echo "$b/3 did not run on the demo trace"
    exit 1
  fi
done
