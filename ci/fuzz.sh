#!/usr/bin/env bash
# Runs every libFuzzer target (tag fuzz_target) for a bounded time on a copy of its seed
# corpus. Usage: ci/fuzz.sh [SECONDS_PER_TARGET] (default 60). Fails on any crash.
set -uo pipefail
cd "$(dirname "$0")/.."
source ci/lib.sh
seconds="${1:-60}"
targets=$(bazel query "${BAZEL_QUIET[@]}" 'attr(tags, "fuzz_target", kind("cc_binary", //fuzz/...))' 2>/dev/null)
[ -n "$targets" ] || { echo "no fuzz targets found"; exit 1; }
bazel build "${BAZEL_QUIET[@]}" --config=libfuzzer $targets || exit 1
bin_dir=$(bazel info "${BAZEL_QUIET[@]}" --config=libfuzzer bazel-bin 2>/dev/null)
work=$(mktemp -d)
passed=0
failed=0
for t in $targets; do
  pkg=${t#//}; pkg=${pkg%%:*}; name=${t##*:}
  seeds="$pkg/corpus/$name"
  scratch="$work/$name"
  mkdir -p "$scratch"
  # New units go into the first directory: a scratch one, never the committed seeds.
  echo "== $t: ${seconds}s on $(ls "$seeds" | wc -l) seeds"
  if "$bin_dir/$pkg/$name" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 \
      -print_final_stats=1 -artifact_prefix="$work/$name-" "$scratch" "$seeds" >"$work/$name.log" 2>&1; then
    passed=$((passed + 1))
    grep -E "stat::number_of_executed_units|Done [0-9]+ runs" "$work/$name.log" | tail -2
  else
    failed=$((failed + 1))
    tail -60 "$work/$name.log"
    echo "FAILED: $t (artifacts in $work)"
  fi
done
echo "fuzz: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
