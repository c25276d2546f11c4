#!/usr/bin/env bash
# The large-trace scaling table: generates traces of ~10 MB and ~100 MB (and
# ~1 GB with --large) with //bench/scaling:make_trace, cached in $MPO_SCALING_DIR
# (default /tmp/mpo-scaling) by size, seed and format version, and runs each command on
# each, printing wall time, user time, throughput and peak RSS (from /usr/bin/time).
# Usage: bench/scaling/run.sh [--large] [--seed N] [--versions "2 3"] [--commands "stats dump"]
# The traces are never committed; delete the cache directory to regenerate them.
set -euo pipefail

large=0
seed=1
versions="3"
commands="check dump dump-json stats folded copy corpus-decode"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --large) large=1 ;;
    --seed) seed="$2"; shift ;;
    --versions) versions="$2"; shift ;;
    --commands) commands="$2"; shift ;;
    *) echo "usage: $0 [--large] [--seed N] [--versions \"2 3\"] [--commands \"stats dump\"]" >&2; exit 2 ;;
  esac
  shift
done

if [[ ! -x /usr/bin/time ]]; then
  echo "SKIPPED: /usr/bin/time (GNU time) is needed for peak RSS" >&2
  exit 0
fi

cd "$(dirname "$0")/../.."
bazel build -c opt //bench/scaling:make_trace //tools:memprof-oracle >&2
bin="$(bazel info -c opt bazel-bin 2>/dev/null)"
gen="$bin/bench/scaling/make_trace"
mpo="$bin/tools/memprof-oracle"

dir="${MPO_SCALING_DIR:-/tmp/mpo-scaling}"
mkdir -p "$dir"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

sizes="10000000 100000000"
[[ $large -eq 1 ]] && sizes="$sizes 1000000000"

# The default budgets (32 Mi backtrace entries decoded, 4 Mi held frames, 2 GiB of
# output) are meant to stop hostile inputs; genuine large traces exceed them, so they are
# lifted here (for `corpus decode` too, which takes the same options).
lift=(--max-frames 1000000000000 --max-held-frames 1000000000000 --max-output-bytes 1000000000000000)

printf '%-6s %-3s %10s %-22s %9s %9s %9s %10s\n' size v events command wall_s user_s MB/s peak_MB
for v in $versions; do
  for size in $sizes; do
    trace="$dir/trace-$size-seed$seed-v$v.ctf"
    events_file="$trace.events"
    if [[ ! -s "$trace" || ! -s "$events_file" ]]; then
      "$gen" "$trace.tmp" "$size" "$seed" "$v" | awk '{print $(NF-1)}' >"$events_file"
      mv "$trace.tmp" "$trace"
    fi
    events="$(cat "$events_file")"
    bytes="$(stat -c %s "$trace")"
    label="$((size / 1000000))MB"
    for cmd in $commands; do
      case "$cmd" in
        check) args=(memtrace check "${lift[@]}" "$trace") ;;
        dump) args=(memtrace dump "${lift[@]}" "$trace") ;;
        dump-json) args=(memtrace dump --json "${lift[@]}" "$trace") ;;
        stats) args=(memtrace stats "${lift[@]}" "$trace") ;;
        folded) args=(memtrace folded "${lift[@]}" "$trace") ;;
        copy) args=(memtrace copy "${lift[@]}" "$trace" "$work/copy.ctf") ;;
        corpus-decode) args=(corpus decode --max-frames 1000000000000 --max-held-frames 1000000000000 "$trace") ;;
      esac
      rc=0
      /usr/bin/time -f '%e %U %M' -o "$work/time" "$mpo" "${args[@]}" >/dev/null 2>"$work/err" || rc=$?
      read -r wall user rss_kb <"$work/time" || true
      # GNU time writes "Command exited with non-zero status N" first on failure.
      if [[ $rc -ne 0 ]]; then
        wall="$(tail -1 "$work/time" | cut -d' ' -f1)"
        user="$(tail -1 "$work/time" | cut -d' ' -f2)"
        rss_kb="$(tail -1 "$work/time" | cut -d' ' -f3)"
        cmd="$cmd(rc=$rc)"
        head -c 300 "$work/err" >&2
      fi
      rm -f "$work/copy.ctf"
      mbs="$(awk -v b="$bytes" -v t="$wall" 'BEGIN { if (t > 0) printf "%.1f", b / 1e6 / t; else print "-" }')"
      printf '%-6s %-3s %10s %-22s %9s %9s %9s %10.1f\n' "$label" "$v" "$events" "$cmd" "$wall" \
        "$user" "$mbs" "$(awk -v k="$rss_kb" 'BEGIN { print k / 1024 }')"
    done
  done
done
