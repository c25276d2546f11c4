#!/usr/bin/env bash
# End-to-end checks of the command-line program: outputs and exit codes.
source tools/cli_test_lib.sh
bin="$1"
check "sample defaults" 0 "$bin" sample
check "sample lambda=1 gives ones" 0 "$bin" sample --lambda 1 --count 5
[ "$(tr -d '\n' <"$out")" = "11111" ] || fail "lambda=1 output"
check "sample binomial json" 0 "$bin" sample binomial --lambda 1 --length 7 --count 2 --json
grep -q '"draws":\[7,7\]' "$out" || fail "binomial json output"
# The first geometric vector of testdata/sampler: seed 0, lambda 0.5. A fresh listing
# starts at index 0 (the draw starting the profile consumes); --as-profile at index 1.
check "sample matches vector" 0 "$bin" sample --seed 0 --lambda 0.5 --count 3
want=$(awk -F, '$1==0 && $2=="0.5" && $3>=0 && $3<=2 {print $4}' testdata/sampler/geometric.csv | tr -d '\n')
[ "$(tr -d '\n' <"$out")" = "$want" ] || fail "vector output"
check "sample --as-profile matches vector" 0 "$bin" sample --seed 0 --lambda 0.5 --count 3 --as-profile
want=$(awk -F, '$1==0 && $2=="0.5" && $3>=1 && $3<=3 {print $4}' testdata/sampler/geometric.csv | tr -d '\n')
[ "$(tr -d '\n' <"$out")" = "$want" ] || fail "vector output, as profile"
check "sample rejects lambda 2" 2 "$bin" sample --lambda 2
grep -q -- "--lambda: '2' is not a finite number in \[0, 1\]" "$err" || { fail "lambda message"; cat "$err"; }
check "sample rejects nan" 2 "$bin" sample --lambda nan
check "unknown subcommand" 2 "$bin" frobnicate
cli_done
