#!/usr/bin/env bash
# `memtrace dump` with --threads 1 and 2 (and optionally an older binary without the
# option), whole process, alternating runs: prints each run's wall and user seconds, the
# median wall and user time of each variant, the min-max wall range, and the median of the
# per-round ratios. The load average and core count are printed first (figures taken on a
# loaded machine say little about two threads).
# Usage: bench/scaling/dump_threads.sh BIN TRACE [ROUNDS (default 7)] [OLD_BIN]
# The outputs are also compared byte for byte (cmp of their sha256) once.
set -euo pipefail

if [[ $# -lt 2 ]]; then
  echo "usage: $0 BIN TRACE [ROUNDS] [OLD_BIN]" >&2
  exit 2
fi
bin="$1"
trace="$2"
rounds="${3:-7}"
old="${4:-}"
if [[ ! -x /usr/bin/time ]]; then
  echo "SKIPPED: /usr/bin/time (GNU time) is needed" >&2
  exit 0
fi
if [[ ! -s "$trace" ]]; then
  echo "SKIPPED: no trace at $trace (bench/scaling/run.sh makes them; ../shared has real ones)" >&2
  exit 0
fi
lift=(--max-frames 1000000000000 --max-held-frames 1000000000000 --max-output-bytes 1000000000000000)
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

echo "nproc $(nproc), load average $(cut -d' ' -f1-3 /proc/loadavg), $(date -u '+%Y-%m-%d %H:%M UTC')" >&2
one="$("$bin" memtrace dump "${lift[@]}" --threads 1 "$trace" | sha256sum)"
two="$("$bin" memtrace dump "${lift[@]}" --threads 2 "$trace" | sha256sum)"
[[ "$one" == "$two" ]] || { echo "FAIL: --threads 1 and 2 differ" >&2; exit 1; }

variants="t1 t2"
[[ -n "$old" ]] && variants="old $variants"
for ((i = 0; i < rounds; i++)); do
  for v in $variants; do
    case "$v" in
      old) cmd=("$old" memtrace dump "${lift[@]}" "$trace") ;;
      t1) cmd=("$bin" memtrace dump "${lift[@]}" --threads 1 "$trace") ;;
      t2) cmd=("$bin" memtrace dump "${lift[@]}" --threads 2 "$trace") ;;
    esac
    /usr/bin/time -f '%e %U' -o "$work/time" "${cmd[@]}" >/dev/null
    read -r wall user <"$work/time"
    echo "$i $v $wall $user" | tee -a "$work/runs" >&2
  done
done
awk -v variants="$variants" '
  { wall[$2, $1] = $3; user[$2, $1] = $4; n = $1 + 1 }
  function median(a, k,   i, j, t) {
    for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
    return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
  }
  END {
    split(variants, vs, " ")
    for (x in vs) {
      for (i = 0; i < n; i++) { w[i + 1] = wall[vs[x], i]; u[i + 1] = user[vs[x], i] }
      m = median(w, n)
      printf "%s median wall %.3f s (range %.2f-%.2f), median user %.3f s\n", vs[x], m, w[1], w[n], median(u, n)
    }
    for (i = 0; i < n; i++) r[i + 1] = wall["t2", i] / wall["t1", i]
    printf "median per-round ratio t2/t1 %.3f\n", median(r, n)
    if (variants ~ /old/) {
      for (i = 0; i < n; i++) r[i + 1] = wall["t2", i] / wall["old", i]
      printf "median per-round ratio t2/old %.3f\n", median(r, n)
    }
  }' "$work/runs"
