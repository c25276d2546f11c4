#!/usr/bin/env bash
# OSS-Fuzz / ClusterFuzzLite build of every libFuzzer target of fuzz/, without Bazel.
#
# Honours the OSS-Fuzz contract: $CC $CXX $CFLAGS $CXXFLAGS (sanitizer and coverage
# flags), $LIB_FUZZING_ENGINE (linked into each target), $OUT (where targets go) and
# $WORK (scratch; a temporary folder when unset). For each target listed in sources.txt
# it writes $OUT/<target>, $OUT/<target>_seed_corpus.zip (from fuzz/<pkg>/corpus/<target>)
# and, where dicts.txt names dictionaries, $OUT/<target>.dict.
# MPO_BUILD_JOBS bounds parallel compiles (default: nproc). For ci/libcxx.sh, which also
# builds the program with the fuzz targets' objects: MPO_SOURCES names another list in
# sources.txt's format, and MPO_REUSE_OBJECTS=1 keeps objects already in $WORK.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
: "${CXX:=clang++}"
: "${CXXFLAGS:=}"
: "${LIB_FUZZING_ENGINE:?set LIB_FUZZING_ENGINE (e.g. -fsanitize=fuzzer)}"
: "${OUT:?set OUT to the output folder}"
work="${WORK:-$(mktemp -d)}/memprof-oracle"
jobs="${MPO_BUILD_JOBS:-$(nproc)}"
list="${MPO_SOURCES:-$here/sources.txt}"
mkdir -p "$OUT" "$work"

# What the Bazel build gives these sources: C++20, the repository root as include path,
# the sampler's bit-exact floating point (core/sampler/BUILD), without the vector-ABI
# notes (as core/sampler/BUILD); harmless for the other files.
export MPO_FLAGS="-std=c++20 -I$root -ffp-contract=off -fno-fast-math -Wno-psabi -pthread"
export MPO_ROOT="$root" MPO_OBJ="$work" MPO_REUSE_OBJECTS="${MPO_REUSE_OBJECTS:-0}" CXX CXXFLAGS

compile_one() {
  local src=$1
  local obj="$MPO_OBJ/${src//\//__}.o"
  [ "$MPO_REUSE_OBJECTS" = 1 ] && [ -f "$obj" ] && return
  # shellcheck disable=SC2086 # the flag variables are lists of words by contract
  "$CXX" $CXXFLAGS $MPO_FLAGS -c "$MPO_ROOT/$src" -o "$obj"
}
export -f compile_one

sources=$(grep -v '^#' "$list" | cut -d' ' -f3- | tr ' ' '\n' | sort -u)
echo "compiling $(echo "$sources" | wc -l) sources with $jobs jobs"
echo "$sources" | xargs -P "$jobs" -I{} bash -c 'compile_one "$1"' _ {}

built=0
while read -r pkg target srcs; do
  case "$pkg" in '#'* | '') continue ;; esac
  objs=()
  for s in $srcs; do objs+=("$work/${s//\//__}.o"); done
  # shellcheck disable=SC2086 # the flag variables are lists of words by contract
  "$CXX" $CXXFLAGS "${objs[@]}" $LIB_FUZZING_ENGINE -pthread -lz -o "$OUT/$target"
  seeds="$root/$pkg/corpus/$target"
  rm -f "$OUT/${target}_seed_corpus.zip"
  if [ -d "$seeds" ]; then
    # zip is in the OSS-Fuzz builder image; Python's zipfile stands in where it is not.
    if command -v zip >/dev/null; then
      (cd "$seeds" && zip -q -r "$OUT/${target}_seed_corpus.zip" .)
    else
      (cd "$seeds" && python3 -m zipfile -c "$OUT/${target}_seed_corpus.zip" ./*)
    fi
  fi
  dicts=$(awk -v t="$target" '$1 == t { $1 = ""; print }' "$here/dicts.txt")
  rm -f "$OUT/$target.dict"
  for d in $dicts; do cat "$root/fuzz/dict/$d" >>"$OUT/$target.dict"; done
  built=$((built + 1))
done <"$list"
echo "built $built targets into $OUT"
