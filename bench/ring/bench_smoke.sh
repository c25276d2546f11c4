#!/usr/bin/env bash
# Runs every ring benchmark briefly so that the binary cannot rot.
set -euo pipefail
"$1" --benchmark_min_time=0.01 > "${TEST_TMPDIR:-/tmp}/ring_bench.txt"
grep -q BM_Consumer_ReadRing "${TEST_TMPDIR:-/tmp}/ring_bench.txt"
"$2" --benchmark_min_time=0.01 > "${TEST_TMPDIR:-/tmp}/view_bench.txt"
grep -q BM_View_JsonLines "${TEST_TMPDIR:-/tmp}/view_bench.txt"
if grep -q ERROR "${TEST_TMPDIR:-/tmp}/view_bench.txt"; then cat "${TEST_TMPDIR:-/tmp}/view_bench.txt"; exit 1; fi
