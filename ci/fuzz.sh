#!/usr/bin/env bash
# The fuzz stage, through the OSS-Fuzz / ClusterFuzzLite build (fuzz/oss-fuzz/build.sh):
# its source list must match the Bazel graph; it builds every target with clang + ASan +
# UBSan + libFuzzer without Bazel, as ClusterFuzzLite would; then each target runs SECONDS
# (default 60) on a scratch copy of its seed corpus zip with its dictionary, which libFuzzer
# must report as loaded. Targets run MPO_FUZZ_JOBS at a time (default: nproc; each libFuzzer
# run is one process). Fails on any crash, leak, timeout or sanitizer report.
# libFuzzer's seed comes from the commit (MPO_FUZZ_SEED overrides it and is printed), so a
# commit's CI run mutates as the run checked before it landed did, rather than on a fresh
# random path each time; a new commit still explores a new one.
# Usage: ci/fuzz.sh [SECONDS]. Prints "fuzz: N passed, N failed" (one per target).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
jobs="${MPO_FUZZ_JOBS:-$(nproc)}"
if [ -z "${MPO_FUZZ_SEED:-}" ]; then
  head=$(git rev-parse HEAD 2>/dev/null || echo 1)
  # 31 bits of the commit hash, never 0 (libFuzzer's "pick a random seed").
  MPO_FUZZ_SEED=$(((16#${head:0:8} % 2147483646) + 1))
fi
case "$MPO_FUZZ_SEED" in
  '' | *[!0-9]*) echo "FAILED: MPO_FUZZ_SEED must be a positive integer"; exit 1 ;;
esac
echo "fuzz seed $MPO_FUZZ_SEED (MPO_FUZZ_SEED=$MPO_FUZZ_SEED bash ci/fuzz.sh $seconds repeats it)"
if ! command -v clang++ >/dev/null; then
  echo "SKIPPED: ci/fuzz.sh needs clang++ (with libFuzzer: libclang-rt-14-dev)"
  exit 0
fi
work=$(mktemp -d)

# 1. The committed source list is what the Bazel graph says today.
bash fuzz/oss-fuzz/gen_sources.sh >"$work/sources.txt"
if ! diff -u fuzz/oss-fuzz/sources.txt "$work/sources.txt"; then
  echo "FAILED: fuzz/oss-fuzz/sources.txt is stale; regenerate it with"
  echo "  fuzz/oss-fuzz/gen_sources.sh > fuzz/oss-fuzz/sources.txt"
  exit 1
fi
# Every dictionary mapping names a real target and a real file.
while read -r target dicts; do
  case "$target" in '#'* | '') continue ;; esac
  grep -qE "^[^ ]+ $target " fuzz/oss-fuzz/sources.txt || { echo "FAILED: dicts.txt names unknown target $target"; exit 1; }
  for d in $dicts; do [ -f "fuzz/dict/$d" ] || { echo "FAILED: missing fuzz/dict/$d"; exit 1; }; done
done <fuzz/oss-fuzz/dicts.txt

# 2. The build, with ClusterFuzzLite's address job's flags plus UBSan (a separate job there).
flags="-O1 -fno-omit-frame-pointer -gline-tables-only -fsanitize=address,undefined,fuzzer-no-link"
flags+=" -fno-sanitize-recover=undefined"
mkdir -p "$work/out" "$work/build"
start=$SECONDS
CC=clang CXX=clang++ CFLAGS="$flags" CXXFLAGS="$flags" LIB_FUZZING_ENGINE=-fsanitize=fuzzer \
  OUT="$work/out" WORK="$work/build" bash fuzz/oss-fuzz/build.sh
echo "build: $((SECONDS - start)) s"

# 3. Each target on its seeds. Writes "$work/$target.verdict" (ok/FAILED lines).
run_target() {
  local target=$1 bin="$work/out/$1" seeds="$work/seeds/$1" log="$work/$1.log"
  mkdir -p "$seeds"
  if [ ! -f "$bin" ]; then echo "FAILED: $target was not built"; return; fi
  if [ ! -f "${bin}_seed_corpus.zip" ]; then echo "FAILED: $target has no seed corpus zip"; return; fi
  python3 -m zipfile -e "${bin}_seed_corpus.zip" "$seeds"
  if [ -z "$(ls -A "$seeds")" ]; then echo "FAILED: $target: empty seed corpus zip"; return; fi
  local dict_flag=()
  [ -f "$bin.dict" ] && dict_flag=(-dict="$bin.dict")
  # New units go into the scratch copy, never the committed seeds.
  if ! (cd "$work" && "$bin" "${dict_flag[@]}" -seed="$MPO_FUZZ_SEED" -max_total_time="$seconds" -timeout=10 \
      -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$work/$target-" "$seeds") \
      >"$log" 2>&1; then
    echo "FAILED: $target"
    tail -60 "$log"
    return
  fi
  if [ -f "$bin.dict" ] && ! grep -qE '^Dictionary: [1-9][0-9]* entries' "$log"; then
    echo "FAILED: $target: libFuzzer did not load $target.dict"
    tail -20 "$log"
    return
  fi
  local runs rate dict
  runs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+)/\1/p' "$log")
  rate=$(sed -nE 's/^stat::average_exec_per_sec: *([0-9]+)/\1/p' "$log")
  dict=$(grep -oE '^Dictionary: [0-9]+ entries' "$log" || echo "no dictionary")
  echo "ok $target: ${seconds}s, $runs runs, $rate exec/s, $dict"
}
targets=$(grep -v '^#' fuzz/oss-fuzz/sources.txt | awk 'NF { print $2 }')
echo "running $(echo "$targets" | wc -w) targets for ${seconds}s each, $jobs at a time"
running=0
for t in $targets; do
  run_target "$t" >"$work/$t.verdict" 2>&1 &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then
    wait -n || true
    running=$((running - 1))
  fi
done
wait || true
passed=0
failed=0
for t in $targets; do
  cat "$work/$t.verdict"
  if grep -q "^ok $t:" "$work/$t.verdict"; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
echo "fuzz: $passed passed, $failed failed"
if [ "$failed" -ne 0 ]; then
  echo "logs and crash artifacts in $work"
  exit 1
fi
rm -rf "$work"
