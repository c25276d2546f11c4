#!/usr/bin/env bash
# CI stage: the project against the real implementations of ../shared/peers.
#   - ci/peers.sh: the real memtrace 0.2.3 and HEAD readers and OCaml 5.3's consumer, behind
#     the adapters of conformance/peers/, checked case by case in each verdict mode;
#   - conformance/peers/flamegraph_compare.sh: `memtrace folded` gives the stacks of memtrace
#     0.2.3's own flamegraph.exe on every real v1/v2 trace (inlined frames' order included);
#   - //conformance/runtime/...: real Gc.Memprof against the sampler and engine, and
#     `events record` of a real OCaml 5.3 program;
#   - `corpus fuzz` of the real 0.2.3 and HEAD readers and OCaml 5.3's consumer: a fixed
#     seed (a fixed number of mutants, so the run is the same on any machine) and a
#     rotating one (printed, for replay), each with 0 undeclared divergences
#     (core/corpus/fuzz/known_peer_bugs.txt lists the references' bugs the oracle does
#     not copy).
# The peers are built once per machine and cached (ci/build_peers.sh); ci/all.sh starts
# the OCaml 5.3 build in the background before the lint stage, and the call below waits
# for it (the build holds a lock) instead of starting another. Without ../shared: SKIPPED.
set -uo pipefail
cd "$(dirname "$0")/.."
source ci/lib.sh
if ! peers=$(bash ci/build_peers.sh memtrace-0.2.3 ocaml-5.3); then
  echo "building the peers failed (logs: \$HOME/.cache/memprof-oracle-peers/*/ocaml-5.3.*.log)"
  [ -n "${MPO_PEERS_BUILD_LOG:-}" ] && tail -40 "$MPO_PEERS_BUILD_LOG"
  exit 1
fi
case "$peers" in
  SKIPPED*)
    echo "$peers"
    exit 0
    ;;
esac
rc=0
MPO_PEERS_OCAML=1 bash ci/peers.sh || rc=1
bazel_test //conformance/runtime/... --test_env=MPO_PEERS_DIR="$peers" || rc=1

# The build the test stage made (an optimized one would cost minutes more than it saves).
bazel build "${BAZEL_QUIET[@]}" //tools:memprof-oracle || exit 1
work=$(mktemp -d "${TMPDIR:-/tmp}/mpo-real-peers.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp "$(bazel info "${BAZEL_QUIET[@]}" bazel-bin 2>/dev/null)/tools/memprof-oracle" "$work/"
bash conformance/peers/build.sh "$peers" "$work/bin" >/dev/null
bash conformance/peers/flamegraph_compare.sh "$peers" "$work/memprof-oracle" || rc=1
rotating=$(date +%s)
# adapter, mode, fixed-seed mutants, rotating-seed mutants
for run in "memtrace_json_023 memtrace-0.2.3 1500 200" "memtrace_json_head memtrace-head 500 100" \
  "ring_json ocaml-5.3 200 60"; do
  read -r adapter mode fixed rot <<<"$run"
  for seed_count in "20261122 $fixed" "$rotating $rot"; do
    read -r seed count <<<"$seed_count"
    echo "== corpus fuzz --as $mode --seed $seed --max-mutants $count ($adapter)"
    log="$work/fuzz-$mode-$seed.log"
    if ! "$work/memprof-oracle" corpus fuzz --impl "$work/bin/$adapter {file}" --as "$mode" \
      --seed "$seed" --max-mutants "$count" --max-seconds 600 --timeout 10 \
      --declared core/corpus/fuzz/known_peer_bugs.txt --out "$work/fuzz-$mode-$seed" >"$log" 2>&1; then
      rc=1
      grep -E "^FAIL" "$log" | head -20
    fi
    # The counts are of mutants, not tests: kept out of CI's "N passed, N failed" tally.
    tail -1 "$log" | sed 's/^/   mutants: /'
  done
done
exit "$rc"
