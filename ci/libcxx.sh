#!/usr/bin/env bash
# The library under LLVM's libc++ (what OSS-Fuzz links, and Apple's toolchains ship):
# every fuzz target of fuzz/oss-fuzz/build.sh built with clang++ -stdlib=libc++ and the
# replay main (fuzz/standalone_main.cc) instead of libFuzzer, whose Debian build is tied to
# libstdc++; then each replays its seed corpus zip. A libc++ as old as Debian 12's (14)
# lacks make_unique_for_overwrite, atomic_ref and jthread, which the library only uses
# behind fallbacks (core/base/uninit_array.h, core/ring/mapped_ring.h); this stage keeps
# them honest. Then the program itself, built with libc++ from the same objects, must
# say what the Bazel build (libstdc++) says, byte for byte, on every command of
# ci/stdlib_diff.sh, and pass the program's end-to-end tests (tools/*cli_test.sh);
# without Bazel that part says SKIPPED.
# Prints "libcxx: N passed, N failed" (one per fuzz target, the diff, each end-to-end test).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v clang++ >/dev/null || ! echo '#include <vector>' |
    clang++ -x c++ -std=c++20 -stdlib=libc++ -fsyntax-only - 2>/dev/null; then
  echo "SKIPPED: ci/libcxx.sh needs clang++ and libc++ (libc++-dev, libc++abi-dev)"
  exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags="-stdlib=libc++ -O0 -g0"
clang++ -std=c++20 $flags -c fuzz/standalone_main.cc -o "$work/replay_main.o"
start=$SECONDS
CXX=clang++ CXXFLAGS="$flags" LIB_FUZZING_ENGINE="$work/replay_main.o -stdlib=libc++" \
  OUT="$work/out" WORK="$work/build" bash fuzz/oss-fuzz/build.sh
echo "build: $((SECONDS - start)) s"
passed=0
failed=0
for t in $(grep -v '^#' fuzz/oss-fuzz/sources.txt | awk 'NF { print $2 }'); do
  seeds="$work/seeds/$t"
  mkdir -p "$seeds"
  if [ ! -f "$work/out/${t}_seed_corpus.zip" ]; then
    echo "FAILED: $t has no seed corpus zip"
    failed=$((failed + 1))
    continue
  fi
  python3 -m zipfile -e "$work/out/${t}_seed_corpus.zip" "$seeds"
  if out=$("$work/out/$t" "$seeds" 2>&1); then
    echo "ok $t: ${out##*$'\n'}"
    passed=$((passed + 1))
  else
    echo "FAILED: $t"
    echo "$out" | tail -30
    failed=$((failed + 1))
  fi
done

# The program: its sources from the Bazel graph, the objects above reused.
if command -v bazel >/dev/null; then
  source ci/lib.sh
  bash fuzz/oss-fuzz/gen_sources.sh //tools:memprof-oracle >"$work/program_sources.txt"
  start=$SECONDS
  CXX=clang++ CXXFLAGS="$flags" LIB_FUZZING_ENGINE="-stdlib=libc++" MPO_REUSE_OBJECTS=1 \
    MPO_SOURCES="$work/program_sources.txt" OUT="$work/program" WORK="$work/build" \
    bash fuzz/oss-fuzz/build.sh
  bazel build "${BAZEL_QUIET[@]}" //tools:memprof-oracle
  reference="$(bazel info "${BAZEL_QUIET[@]}" bazel-bin 2>/dev/null)/tools/memprof-oracle"
  echo "program build: $((SECONDS - start)) s"
  start=$SECONDS
  if bash ci/stdlib_diff.sh "$reference" "$work/program/memprof-oracle"; then
    echo "program diff: $((SECONDS - start)) s"
    passed=$((passed + 1))
  else
    echo "FAILED: the libc++ build of memprof-oracle says something else than the Bazel build"
    failed=$((failed + 1))
  fi
  # The program's end-to-end tests (file handling is where the libraries differ most:
  # std::filesystem errors, atomic outputs, full devices, FIFOs).
  for t in cli_test hostile_cli_test progress_cli_test; do
    if out=$(bash "tools/$t.sh" "$work/program/memprof-oracle" 2>&1); then
      echo "ok $t (libc++ program): $(grep -c '^ok' <<<"$out") checks"
      passed=$((passed + 1))
    else
      echo "FAILED: $t with the libc++ program"
      echo "$out" | grep -v '^ok' | tail -30
      failed=$((failed + 1))
    fi
  done
else
  echo "SKIPPED: the program under libc++ (needs bazel for its source list and the reference build)"
fi
echo "libcxx: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
