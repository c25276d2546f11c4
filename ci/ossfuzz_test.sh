#!/usr/bin/env bash
# Tests the OSS-Fuzz / ClusterFuzzLite build (fuzz/oss-fuzz/build.sh): its source list
# matches the Bazel graph, it builds every target with clang + ASan + libFuzzer without
# Bazel, and each target runs SECONDS (default 3) on its seed corpus zip with its
# dictionary, which libFuzzer must report as loaded. Fails on any crash.
# Usage: ci/ossfuzz_test.sh [SECONDS]. Prints "N passed, N failed" (one per target).
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/lib.sh
seconds="${1:-3}"
if ! command -v clang++ >/dev/null; then
  echo "SKIPPED: ossfuzz_test needs clang++ (with libFuzzer: libclang-rt-14-dev)"
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

# 2. The build, as ClusterFuzzLite's address-sanitizer job runs it.
flags="-O1 -fno-omit-frame-pointer -gline-tables-only -fsanitize=address,fuzzer-no-link"
mkdir -p "$work/out" "$work/build"
start=$SECONDS
CC=clang CXX=clang++ CFLAGS="$flags" CXXFLAGS="$flags" LIB_FUZZING_ENGINE=-fsanitize=fuzzer \
  OUT="$work/out" WORK="$work/build" bash fuzz/oss-fuzz/build.sh
echo "build: $((SECONDS - start)) s"

# 3. Each target on its seeds (a scratch copy: new units never touch the zip's source).
passed=0
failed=0
while read -r _ target _; do
  case "$target" in '') continue ;; esac
  bin="$work/out/$target"
  seeds="$work/seeds/$target"
  mkdir -p "$seeds"
  [ -f "$bin" ] || { echo "FAILED: $target was not built"; failed=$((failed + 1)); continue; }
  [ -f "${bin}_seed_corpus.zip" ] || { echo "FAILED: $target has no seed corpus zip"; failed=$((failed + 1)); continue; }
  python3 -m zipfile -e "${bin}_seed_corpus.zip" "$seeds"
  [ -n "$(ls -A "$seeds")" ] || { echo "FAILED: $target: empty seed corpus zip"; failed=$((failed + 1)); continue; }
  dict_flag=()
  [ -f "$bin.dict" ] && dict_flag=(-dict="$bin.dict")
  log="$work/$target.log"
  if (cd "$work" && "$bin" "${dict_flag[@]}" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
      -print_final_stats=1 -artifact_prefix="$work/$target-" "$seeds") >"$log" 2>&1; then
    if [ -f "$bin.dict" ] && ! grep -qE '^Dictionary: [1-9][0-9]* entries' "$log"; then
      echo "FAILED: $target: libFuzzer did not load $target.dict"
      tail -20 "$log"
      failed=$((failed + 1))
      continue
    fi
    runs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+)/\1/p' "$log")
    rate=$(sed -nE 's/^stat::average_exec_per_sec: *([0-9]+)/\1/p' "$log")
    dict=$(grep -oE '^Dictionary: [0-9]+ entries' "$log" || echo "no dictionary")
    echo "== $target: $runs runs, $rate exec/s, ${dict}"
    passed=$((passed + 1))
  else
    echo "FAILED: $target"
    tail -60 "$log"
    failed=$((failed + 1))
  fi
done < <(grep -v '^#' fuzz/oss-fuzz/sources.txt)
echo "ossfuzz: $passed passed, $failed failed"
if [ "$failed" -ne 0 ]; then
  echo "logs and crash artifacts in $work"
  exit 1
fi
rm -rf "$work"
