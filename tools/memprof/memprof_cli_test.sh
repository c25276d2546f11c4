#!/usr/bin/env bash
# End-to-end checks of `memprof-sim`.
set -eo pipefail
source tools/cli_test_lib.sh
bin="$1"

json="$("$bin" memprof-sim --lambda 1 --blocks 2000 --json)"
echo "$json"
# At λ = 1 every word is a sample.
python3 - "$json" <<'PY'
import json, sys
r = json.loads(sys.argv[1])
assert r["balanced"] is True
assert r["samples"]["minor"] == r["words"]["minor"], r
assert r["samples"]["major"] == r["words"]["major"], r
PY

# Deterministic for a seed.
a="$("$bin" memprof-sim --lambda 0.01 --blocks 5000 --seed 7 --json)"
b="$("$bin" memprof-sim --lambda 0.01 --blocks 5000 --seed 7 --json)"
[ "$a" = "$b" ] || fail "not deterministic for a seed"

# A rate outside [0, 1] is a usage error (exit code 2) naming the option.
check "a bad rate" 2 "$bin" memprof-sim --lambda 2
grep -q -- "--lambda" "$err" || fail "the bad rate's message: $(cat "$err")"
cli_done
