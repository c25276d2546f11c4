#!/usr/bin/env bash
# Time and peak memory of the work-bounded commands at their default budgets (the
# figures their --help quotes), and of the refusals just beyond them.
#
#   bazel run -c opt //bench/cli:cli_budgets
# or, with any build of the program: bench/cli/cli_budgets.sh path/to/memprof-oracle
set -euo pipefail
bin="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
dir="$(mktemp -d "${TMPDIR:-/tmp}/cli_budgets.XXXXXX")"
trap 'rm -rf "$dir"' EXIT

# measure LABEL ARGS...: wall and CPU seconds and peak RSS of one run, from getrusage.
measure() {
  local label="$1"
  shift
  python3 - "$label" "$bin" "$@" <<'PY'
import resource, subprocess, sys, time
label, cmd = sys.argv[1], sys.argv[2:]
start = time.monotonic()
rc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
wall = time.monotonic() - start
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"{label:58s} exit {rc}  wall {wall:7.2f} s  cpu {ru.ru_utime + ru.ru_stime:7.2f} s"
      f"  peak RSS {ru.ru_maxrss / 1024:7.1f} MB")
PY
}

measure "sample --count 10^8 (the default budget)" sample --count 100000000
measure "sample binomial, 2^62 - 2 words at 0.5 (refused)" \
  sample binomial --length 4611686018427387902 --lambda 0.5
measure "memprof-sim --blocks 10^6 --survival 1" memprof-sim --blocks 1000000 --survival 1
measure "memprof-sim --blocks 58000 --lambda 1 --survival 1" \
  memprof-sim --blocks 58000 --lambda 1 --survival 1
measure "memprof-sim --blocks 10^12 (refused)" memprof-sim --blocks 1000000000000
measure "demo --steps 240000 --domains 4" demo --out "$dir/a" --steps 240000 --domains 4
measure "demo --steps 11500 --domains 4 --lambda 1" \
  demo --out "$dir/b" --steps 11500 --domains 4 --lambda 1
measure "demo --steps 10^9 (refused)" demo --out "$dir/c" --steps 1000000000
