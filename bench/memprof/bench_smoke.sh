#!/usr/bin/env bash
# Runs the benchmark binary briefly; fails if it fails or reports nothing.
set -euo pipefail
out="$("$@")"
echo "$out"
grep -q "BM_Alloc" <<<"$out"
