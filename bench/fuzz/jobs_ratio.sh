#!/usr/bin/env bash
# What --jobs buys the kit on this machine: corpus fuzz's mutants/s and corpus check's
# wall time with one worker and with one per core, against the anchor of starting the
# implementation once per case file in a shell loop. The implementation is the oracle's
# own decoder (`memprof-oracle corpus decode`), one process per input, so the kit's own
# cost is what the ratios show.
#   - corpus fuzz: the same seed and number of mutants, no divergence, -j 1 and -j N;
#   - corpus check: the whole generated corpus, -j 1 and -j N, and the anchor.
# Rounds alternate; medians are printed, then the ratios.
#
#   bazel run -c opt //bench/fuzz:jobs_ratio
# or, with any build: bench/fuzz/jobs_ratio.sh path/to/memprof-oracle [MUTANTS] [ROUNDS]
set -euo pipefail
bin="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
mutants="${2:-600}"
rounds="${3:-3}"
cores="$(nproc)"
dir="$(mktemp -d "${TMPDIR:-/tmp}/jobs_ratio.XXXXXX")"
trap 'rm -rf "$dir"' EXIT
source "$(dirname "$0")/kit_bench_lib.sh"
impl="$bin corpus decode {file}"

f1=() fn=() c1=() cn=() anchor=()
for ((r = 0; r < rounds; r++)); do
  f1+=("$(fuzz_rate --impl "$impl" -j 1)")
  fn+=("$(fuzz_rate --impl "$impl" -j "$cores")")
  c1+=("$(seconds "$bin" corpus check "$dir/corpus" -q -j 1 --impl "$impl")")
  cn+=("$(seconds "$bin" corpus check "$dir/corpus" -q -j "$cores" --impl "$impl")")
  anchor+=("$(seconds decode_each)")
done
python3 - "$mutants" "$(wc -l <"$dir/files")" "$cores" "${f1[*]}" "${fn[*]}" "${c1[*]}" \
  "${cn[*]}" "${anchor[*]}" <<'PY'
import statistics, sys
mutants, cases, cores = sys.argv[1], sys.argv[2], sys.argv[3]
f1, fn, c1, cn, anchor = ([float(x) for x in a.split()] for a in sys.argv[4:9])
m = statistics.median
print(f"{cores} cores; medians of {len(f1)} alternating rounds")
print(f"corpus fuzz, {mutants} mutants, no divergence:")
print(f"  -j 1: {m(f1):.1f} mutants/s; -j {cores}: {m(fn):.1f} mutants/s; ratio {m(fn) / m(f1):.2f}x")
print(f"corpus check of {cases} cases:")
print(f"  -j 1: {m(c1):.2f} s; -j {cores}: {m(cn):.2f} s")
print(f"  anchor, corpus decode started once per case file: {m(anchor):.2f} s")
print(f"  ratios to the anchor: -j 1 {m(c1) / m(anchor):.2f}x, -j {cores} {m(cn) / m(anchor):.2f}x")
PY
