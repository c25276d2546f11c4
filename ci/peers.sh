#!/usr/bin/env bash
# Differential conformance against the real implementations: the real
# memtrace 0.2.3 reader, the real memtrace HEAD reader and OCaml 5.3's own runtime_events
# consumer, each behind an adapter of conformance/peers/ that prints the corpus's schema 2,
# are checked case by case against the oracle in the matching verdict mode.
#
#   bash ci/peers.sh [ORACLE_BINARY]     (default: builds //tools:memprof-oracle)
#
# 1. builds the peers (ci/build_peers.sh memtrace-0.2.3, plus ocaml-5.3 when
#    MPO_PEERS_OCAML=1 or when it is already in the cache) and the adapters;
# 2. `corpus gen` writes a fresh corpus and `corpus check --impl ADAPTER --as MODE` runs
#    each adapter on it (memtrace-0.2.3, memtrace-head, ocaml-5.3);
# 3. the real files of ../shared/testdata (traces, rings) form a second corpus whose
#    expected streams are `corpus decode --as MODE` of each file, checked the same way:
#    on every valid real file the real reader and the oracle must print the same stream.
# 4. `corpus matrix` of the oracle and every adapter built, printed (and kept in
#    MPO_MATRIX_DIR when set);
# Prints each summary ("N passed, N failed") and a last line "peers: N passed, N failed";
# exits 1 when any case failed. Without ../shared it prints SKIPPED and exits 0.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
source ci/lib.sh

# The real files, found as ci/build_peers.sh finds the peers.
testdata=""
for candidate in ${MPO_SHARED_TESTDATA:+"$MPO_SHARED_TESTDATA"} ${MPO_SHARED:+"$MPO_SHARED/testdata"} \
  "$repo/../shared/testdata"; do
  if [ -d "$candidate/memtrace" ]; then
    testdata=$candidate
    break
  fi
done
peers=$(bash ci/build_peers.sh memtrace-0.2.3)
case "$peers" in
  SKIPPED*)
    echo "$peers"
    echo "SKIPPED: ci/peers.sh needs the real implementations in ../shared/peers"
    exit 0
    ;;
esac
if [ "${MPO_PEERS_OCAML:-0}" = 1 ] || [ -f "$peers/.done-ocaml-5.3" ]; then
  peers=$(bash ci/build_peers.sh memtrace-0.2.3 ocaml-5.3)
fi

oracle=${1:-}
if [ -z "$oracle" ]; then
  bazel build "${BAZEL_QUIET[@]}" //tools:memprof-oracle
  oracle="$(bazel info bazel-bin 2>/dev/null)/tools/memprof-oracle"
fi
oracle=$(cd "$(dirname "$oracle")" && pwd)/$(basename "$oracle")

work=$(mktemp -d "${TMPDIR:-/tmp}/mpo-peers.XXXXXX")
trap 'rm -rf "$work"' EXIT
bash conformance/peers/build.sh "$peers" "$work/bin"
"$oracle" corpus gen "$work/corpus" >/dev/null

# Each adapter and the verdict mode it is held to.
adapters=("memtrace_json_023 memtrace-0.2.3" "memtrace_json_head memtrace-head" "ring_json ocaml-5.3")

# real_corpus MODE DIR: the real testdata files of the format MODE judges, each with the
# oracle's own stream in that mode as its expected output (v3 traces included for
# memtrace-0.2.3, which must reject them as the real reader does). Traces are taken as they
# are; rings are stored gzipped and are written out as <case>.ocaml-5.3.events (OCaml 5.3
# wrote them).
real_corpus() {
  local mode=$1 dir=$2 f name first=1
  mkdir -p "$dir/memtrace" "$dir/ring"
  {
    echo '{"schema":2,"generator":"ci/peers.sh (real testdata)",'
    echo " \"oracle_version\":\"$("$oracle" --version)\",\"cases\":["
    if [ "$mode" = ocaml-5.3 ]; then
      for f in "$testdata"/runtime_events/*/*.events.gz; do
        name=ring/$(basename "$(dirname "$f")").ocaml-5.3.events
        gunzip -c "$f" >"$dir/$name"
        real_case "$name" ring
      done
    else
      for f in "$testdata"/memtrace/*.ctf; do
        if [ "$(stat -c %s "$f")" -gt "$big" ]; then
          same_stream "$f"
          continue
        fi
        name=memtrace/$(basename "$f")
        cp "$f" "$dir/$name"
        real_case "$name" memtrace
      done
    fi
    echo ']}'
  } >"$dir/MANIFEST.json"
}

# same_stream FILE: a real trace too big for corpus check's in-memory comparison
# (examples-ocamlopt: 2 MB of trace, 166 MB of JSON, minutes and 1.2 GB of RAM to compare
# as JSON) is compared byte for byte instead: on a valid trace the adapters print exactly
# the oracle's bytes. Runs in real_corpus's scope (mode, adapter) and prints to stderr,
# since real_corpus's stdout is the manifest.
same_stream() {
  local f=$1 rc=0
  "$oracle" corpus decode --as "$mode" "$f" >"$work/big.expected" 2>/dev/null || rc=$?
  if [ "$rc" -eq 0 ] && "$work/bin/$adapter" "$f" 2>/dev/null | cmp -s - "$work/big.expected"; then
    echo "  PASS $(basename "$f") (byte-identical stream, $(($(stat -c %s "$work/big.expected") >> 20)) MiB)" >&2
    big_passed=$((big_passed + 1))
  else
    echo "  FAIL $(basename "$f"): the stream differs from corpus decode --as $mode (or exit $rc)" >&2
    big_failed=$((big_failed + 1))
  fi
  rm -f "$work/big.expected"
}

# real_case NAME KIND: writes NAME's expected files and prints its manifest entry. The
# expected stream is the mode's (this corpus is only ever checked --as that mode).
real_case() {
  local name=$1 kind=$2 errs=false
  "$oracle" corpus decode --as "$mode" "$dir/$name" >"$dir/$name.expected.jsonl" 2>/dev/null ||
    errs=true
  "$oracle" corpus decode --as "$mode" --text "$dir/$name" >"$dir/$name.expected.txt" 2>/dev/null ||
    true
  [ "$first" = 1 ] || echo ','
  first=0
  printf '{"name":"%s","kind":"%s","file":"%s","expected_jsonl":"%s.expected.jsonl",' \
    "${name%.*}" "$kind" "$name" "$name"
  printf '"expected_text":"%s.expected.txt","expects_error":%s,"note":"real file"}\n' \
    "$name" "$errs"
}

passed=0
failed=0
big=$((1 << 20))
big_passed=0
big_failed=0
# check LABEL CORPUS ADAPTER MODE [OPTION...]: one corpus check, its summary kept in the
# totals.
check() {
  local label=$1 corpus=$2 adapter=$3 mode=$4 log rc=0
  shift 4
  log="$work/$label.log"
  "$oracle" corpus check "$corpus" --impl "$work/bin/$adapter {file}" --as "$mode" -q "$@" \
    >"$log" 2>&1 || rc=$?
  sed "s/^/  /" "$log"
  local summary
  summary=$(tail -n 1 "$log")
  echo "$label ($adapter, --as $mode): $summary (exit $rc)"
  if [[ $summary =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed ]]; then
    passed=$((passed + BASH_REMATCH[1]))
    failed=$((failed + BASH_REMATCH[2]))
  else
    failed=$((failed + 1))
  fi
  [ "$rc" -le 1 ] || failed=$((failed + 1))
}

for entry in "${adapters[@]}"; do
  read -r adapter mode <<<"$entry"
  if [ ! -x "$work/bin/$adapter" ]; then
    echo "SKIPPED: $adapter (--as $mode): OCaml 5.3 not built (MPO_PEERS_OCAML=1 builds it, ~15 min)"
    continue
  fi
  check "corpus-$mode" "$work/corpus" "$adapter" "$mode"
  if [ -n "$testdata" ]; then
    big_passed=0
    big_failed=0
    real_corpus "$mode" "$work/real-$mode"
    if [ $((big_passed + big_failed)) -gt 0 ]; then
      echo "real-$mode, files over 1 MiB: $big_passed passed, $big_failed failed"
      passed=$((passed + big_passed))
      failed=$((failed + big_failed))
    fi
    check "real-$mode" "$work/real-$mode" "$adapter" "$mode"
  else
    echo "SKIPPED: real files for --as $mode: ../shared/testdata not found"
  fi
done
# The conformance matrix of what was built here: the oracle, and each real reader behind
# its adapter in its own mode. MPO_MATRIX_DIR=DIR also keeps it there (MATRIX.md,
# matrix.html): conformance/MATRIX.md is such a copy.
columns=(--column "memprof-oracle=$oracle corpus decode --batch")
for entry in "${adapters[@]}"; do
  read -r adapter mode <<<"$entry"
  [ -x "$work/bin/$adapter" ] && columns+=(--column "real $mode@$mode=$work/bin/$adapter {file}")
done
echo "== corpus matrix"
if (cd "$work" && "$oracle" corpus matrix corpus "${columns[@]}" --html matrix.html >matrix.md); then
  sed "s/^/  /" "$work/matrix.md"
  if [ -n "${MPO_MATRIX_DIR:-}" ]; then
    mkdir -p "$MPO_MATRIX_DIR"
    cp "$work/matrix.md" "$MPO_MATRIX_DIR/MATRIX.md"
    cp "$work/matrix.html" "$MPO_MATRIX_DIR/matrix.html"
  fi
else
  echo "corpus matrix failed"
  failed=$((failed + 1))
fi
echo "peers: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
