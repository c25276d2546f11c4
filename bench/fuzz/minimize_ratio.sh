#!/usr/bin/env bash
# corpus fuzz throughput where minimization costs most: an implementation with a bug, so
# that divergence classes keep appearing. The implementation is the oracle's own decoder
# (`memprof-oracle corpus decode {file}`) behind a wrapper that changes one number of its
# stream (every allocation of length 3 reported as 4). The same seed and mutants are
# fuzzed twice: with the default minimization and with --max-minimize-tests 0; the ratio
# of their mutants/s is what minimization leaves of the throughput.
#
#   bazel run -c opt //bench/fuzz:minimize_ratio
# or, with any build: bench/fuzz/minimize_ratio.sh path/to/memprof-oracle [MUTANTS] [SEED]
set -euo pipefail
bin="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
mutants="${2:-400}"
seed="${3:-7}"
dir="$(mktemp -d "${TMPDIR:-/tmp}/minimize_ratio.XXXXXX")"
trap 'rm -rf "$dir"' EXIT
cat >"$dir/buggy.sh" <<SH
#!/usr/bin/env bash
"$bin" corpus decode "\$1" | sed 's/"length":3,/"length":4,/'
exit "\${PIPESTATUS[0]}"
SH
chmod +x "$dir/buggy.sh"

# rate ARGS...: the run's mutants/s and divergence classes, from its summary line.
rate() {
  "$bin" corpus fuzz --impl "$dir/buggy.sh {file}" --seed "$seed" --max-mutants "$mutants" \
    --max-seconds 86400 "$@" >"$dir/out" 2>&1 || true
  tail -1 "$dir/out" | sed -E 's/.* ([0-9.]+) mutants\/s, ([0-9]+) divergence classes\)$/\1 \2/'
}
read -r with classes_with < <(rate)
read -r without classes_without < <(rate --max-minimize-tests 0)
echo "seed $seed, $mutants mutants, impl: corpus decode with one number changed"
echo "default minimization:   $with mutants/s ($classes_with divergence classes)"
echo "--max-minimize-tests 0: $without mutants/s ($classes_without divergence classes)"
python3 -c "import sys; print(f'ratio: {float(sys.argv[1]) / float(sys.argv[2]):.2f}')" "$with" "$without"
