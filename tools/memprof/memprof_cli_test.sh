#!/usr/bin/env bash
# End-to-end checks of `memprof-sim`.
set -euo pipefail
bin="$1"

out="$("$bin" memprof-sim --lambda 1 --blocks 2000 --json)"
echo "$out"
# At λ = 1 every word is a sample.
python3 - "$out" <<'PY'
import json, sys
r = json.loads(sys.argv[1])
assert r["balanced"] is True
assert r["samples"]["minor"] == r["words"]["minor"], r
assert r["samples"]["major"] == r["words"]["major"], r
PY

# Deterministic for a seed.
a="$("$bin" memprof-sim --lambda 0.01 --blocks 5000 --seed 7 --json)"
b="$("$bin" memprof-sim --lambda 0.01 --blocks 5000 --seed 7 --json)"
[ "$a" = "$b" ]

# OCaml's error for a bad rate; exit code 2 (invalid argument).
set +e
err="$("$bin" memprof-sim --lambda 2 2>&1)"
code=$?
set -e
[ "$code" -eq 2 ] || { echo "exit $code"; exit 1; }
grep -q "Gc.Memprof.start" <<<"$err"
echo OK
