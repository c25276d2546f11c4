#!/usr/bin/env bash
# Real Gc.Memprof (OCaml 5.3, built from ../shared/peers by ci/build_peers.sh) against the
# project's sampler and engine: memprof_samples.ml profiles a deterministic allocation
# sequence at several rates, memprof_replay replays it on the simulated runtime, and
# every sample must agree (allocation, size, n_samples, source).
#
#   memprof_real_test.sh MEMPROF_REPLAY MEMPROF_SAMPLES_ML
#
# OCaml 5.3 is looked for, never built (that takes ~15 minutes): $MPO_PEERS_DIR (a
# folder ci/build_peers.sh prints), else $HOME/.cache/memprof-oracle-peers/*/ (also the
# home of the user running the test, since Bazel gives tests a HOME of their own). A
# folder counts only once marked .done-ocaml-5.3.
set -euo pipefail

replay=$1
program=$2

# shellcheck source=conformance/runtime/find_ocaml.sh
source "$(dirname "$0")/find_ocaml.sh"

compile_ocaml_program "$program" memprof_samples

failed=0
checked=0
# A minor heap of 4M words holds the whole sequence, so the only minor collections are
# the sequence's own Gc.minor (); a space_overhead of 10^6 keeps their major slices
# from finishing a major cycle (whose end empties the minor heap once more).
for seed in 7 20261121; do
  for lambda in 0.5 0.1 0.01 0.001 1e-4; do
    out="$work/samples_${seed}_${lambda}.txt"
    OCAMLRUNPARAM=s=4M,o=1000000 "$work/memprof_samples" "$lambda" 20000 "$seed" >"$out"
    # The run itself must have sampled something, or agreement would prove nothing.
    if ! grep -q '^sample ' "$out"; then
      echo "FAIL: seed $seed lambda $lambda: OCaml took no sample"
      failed=$((failed + 1))
      continue
    fi
    if "$replay" "$out" "$lambda" 4194304; then
      checked=$((checked + 1))
    else
      echo "FAIL: seed $seed lambda $lambda"
      failed=$((failed + 1))
    fi
  done
done
echo "memprof against $ocaml_release: $checked runs agree, $failed differ"
[ "$failed" -eq 0 ]
