#!/usr/bin/env bash
# End-to-end checks of the command-line program: outputs and exit codes.
set -u
bin="$1"
fail=0
check() {  # check NAME EXPECTED_EXIT COMMAND...
  local name="$1" want="$2"; shift 2
  "$@" >/tmp/cli_out.$$ 2>/tmp/cli_err.$$; local got=$?
  if [ "$got" != "$want" ]; then
    echo "FAIL $name: exit $got, want $want"; cat /tmp/cli_err.$$; fail=1
  else echo "ok   $name"; fi
}
check "sample defaults" 0 "$bin" sample
check "sample lambda=1 gives ones" 0 "$bin" sample --lambda 1 --count 5
[ "$(tr -d '\n' </tmp/cli_out.$$)" = "11111" ] || { echo "FAIL lambda=1 output"; fail=1; }
check "sample binomial json" 0 "$bin" sample binomial --lambda 1 --length 7 --count 2 --json
grep -q '"draws":\[7,7\]' /tmp/cli_out.$$ || { echo "FAIL binomial json output"; fail=1; }
# The first geometric vector of testdata/sampler: seed 0, lambda 0.5, index 1..3.
check "sample matches vector" 0 "$bin" sample --seed 0 --lambda 0.5 --count 3
want=$(awk -F, '$1==0 && $2=="0.5" && $3>=1 && $3<=3 {print $4}' testdata/sampler/geometric.csv | tr -d '\n')
[ "$(tr -d '\n' </tmp/cli_out.$$)" = "$want" ] || { echo "FAIL vector output"; fail=1; }
check "sample rejects lambda 2" 2 "$bin" sample --lambda 2
grep -q "invalid argument: lambda: Gc.Memprof.start" /tmp/cli_err.$$ || { echo "FAIL lambda message"; cat /tmp/cli_err.$$; fail=1; }
check "sample rejects nan" 2 "$bin" sample --lambda nan
check "unknown subcommand" 2 "$bin" frobnicate
rm -f /tmp/cli_out.$$ /tmp/cli_err.$$
exit $fail
