#!/usr/bin/env bash
# Runs every ring benchmark briefly so that the binary cannot rot.
set -euo pipefail
"$1" --benchmark_min_time=0.01 > "${TEST_TMPDIR:-/tmp}/ring_bench.txt"
grep -q BM_Consumer_ReadRing "${TEST_TMPDIR:-/tmp}/ring_bench.txt"
