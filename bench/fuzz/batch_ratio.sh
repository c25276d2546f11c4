#!/usr/bin/env bash
# What the batch protocol buys the kit: the same work with one implementation process per
# input and with one process for all of them (core/corpus/batch_session.h). The
# implementation is the oracle's own decoder, `memprof-oracle corpus decode {file}` against
# `memprof-oracle corpus decode --batch`, so both sides decode exactly the same way.
#   - corpus fuzz: the same seed and number of mutants, no divergence (so no
#     minimization), mutants/s each way;
#   - corpus check: the whole generated corpus each way, wall time, and the anchor of
#     starting `corpus decode` once on every case file in a shell loop.
# Rounds alternate the two ways; medians are printed, then the ratios.
#
#   bazel run -c opt //bench/fuzz:batch_ratio
# or, with any build: bench/fuzz/batch_ratio.sh path/to/memprof-oracle [MUTANTS] [ROUNDS]
set -euo pipefail
bin="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
mutants="${2:-1000}"
rounds="${3:-3}"
dir="$(mktemp -d "${TMPDIR:-/tmp}/batch_ratio.XXXXXX")"
trap 'rm -rf "$dir"' EXIT
source "$(dirname "$0")/kit_bench_lib.sh"

one=() batch=() check_one=() check_batch=() anchor=()
for ((r = 0; r < rounds; r++)); do
  one+=("$(fuzz_rate --impl "$bin corpus decode {file}")")
  batch+=("$(fuzz_rate --batch --impl "$bin corpus decode --batch")")
  check_one+=("$(seconds "$bin" corpus check "$dir/corpus" -q --impl "$bin corpus decode {file}")")
  check_batch+=("$(seconds "$bin" corpus check "$dir/corpus" -q --batch --impl "$bin corpus decode --batch")")
  anchor+=("$(seconds decode_each)")
done
python3 - "$mutants" "$(wc -l <"$dir/files")" "${one[*]}" "${batch[*]}" "${check_one[*]}" \
  "${check_batch[*]}" "${anchor[*]}" <<'PY'
import statistics, sys
mutants, cases = sys.argv[1], sys.argv[2]
one, batch, c1, cb, anchor = ([float(x) for x in a.split()] for a in sys.argv[3:8])
m = statistics.median
print(f"corpus fuzz, {mutants} mutants, no divergence (medians of {len(one)} alternating rounds):")
print(f"  one process per mutant: {m(one):.1f} mutants/s")
print(f"  --batch:                {m(batch):.1f} mutants/s")
print(f"  ratio batch / one-shot: {m(batch) / m(one):.1f}x")
print(f"corpus check of {cases} cases:")
print(f"  one process per case:   {m(c1):.2f} s")
print(f"  --batch:                {m(cb):.2f} s")
print(f"  anchor, corpus decode started once per case file: {m(anchor):.2f} s")
print(f"  ratios to the anchor: one-shot {m(c1) / m(anchor):.2f}x, batch {m(cb) / m(anchor):.2f}x")
PY
