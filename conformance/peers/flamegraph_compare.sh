#!/usr/bin/env bash
# `memtrace folded` against memtrace 0.2.3's own flamegraph.exe (bin/flamegraph.ml) on every
# real v1/v2 trace of ../shared/testdata/memtrace: both must give the same stacks, inlined
# frames in the same order.
#
#   bash conformance/peers/flamegraph_compare.sh PEERS_DIR ORACLE_BINARY
#
# PEERS_DIR is what ci/build_peers.sh printed; flamegraph.exe is built there with dune
# when missing (build.sh builds only dump_trace.exe and copy.exe; a few seconds more).
#
# What flamegraph.exe prints: one line "f1;f2;...;fn N" per stack, caller first, frames
# named by defname only, N the sum of the stack's nsamples. Before counting, it drops every
# frame whose name already appeared earlier in the same stack (not only direct recursion),
# and it prints no stack of fewer than two frames; entries with no frame add none, and an
# allocation without frames is not printed. Its lines come from a depth-first walk with
# children in byte order.
#
# flamegraph.exe's stacks lose their innermost tracer frames (see below). Normalisation,
# applied to the oracle's `memtrace folded --functions` (counts are samples,
# its default): each line's frames keep only their first occurrence, lines of fewer than two
# frames and "<no backtrace>" are dropped, counts of the stacks that became equal are summed.
# Both sides are then sorted bytewise (LC_ALL=C sort) and must be identical. Traces whose
# dump_trace run failed (a *.dump_trace.stderr beside them: the 0.2.3 reader dies on them)
# and v3 traces (0.2.3 rejects the version) are skipped.
#
# Prints one line per trace and "flamegraph: N same, N differ"; exit 1 if any differ.
set -uo pipefail
[ $# -eq 2 ] || {
  echo "usage: $0 PEERS_DIR ORACLE_BINARY" >&2
  exit 2
}
peers=$1
oracle=$2
src="$peers/memtrace-0.2.3"
fg="$src/_build/default/bin/flamegraph.exe"
if [ ! -x "$fg" ]; then
  (cd "$src" && dune build --profile release bin/flamegraph.exe) >&2 || {
    echo "flamegraph: building $fg failed" >&2
    exit 2
  }
fi
here=$(cd "$(dirname "$0")" && pwd)
testdata="${MPO_SHARED_TESTDATA:-$here/../../../shared/testdata}/memtrace"
[ -d "$testdata" ] || {
  echo "flamegraph: SKIPPED: $testdata not found"
  exit 0
}
work=$(mktemp -d "${TMPDIR:-/tmp}/mpo-flamegraph.XXXXXX")
trap 'rm -rf "$work"' EXIT

same=0
differ=0
for trace in "$testdata"/*.ctf; do
  name=$(basename "$trace" .ctf)
  [ -e "$testdata/$name.dump_trace.stderr" ] && continue
  # The format version: the u16 at byte 28 of the file.
  version=$(od -An -tu2 -j28 -N2 "$trace" | tr -d ' ')
  [ "$version" = 1 ] || [ "$version" = 2 ] || continue
  if ! "$fg" "$trace" >"$work/real" 2>"$work/real.err"; then
    echo "DIFF $name: flamegraph.exe failed: $(head -c 300 "$work/real.err")"
    differ=$((differ + 1))
    continue
  fi
  if ! "$oracle" memtrace folded --functions "$trace" >"$work/folded" 2>"$work/folded.err"; then
    echo "DIFF $name: memtrace folded failed: $(head -c 300 "$work/folded.err")"
    differ=$((differ + 1))
    continue
  fi
  # The oracle attributes an external allocation to the tracer's caller
  # (core/memtrace/analysis/site_attribution.h); flamegraph.exe keeps memtrace's own tracer
  # frames innermost. They are dropped from its stacks (unless nothing else is left), then
  # stacks of fewer than two frames dropped and equal stacks summed, as on our side.
  awk '
    {
      count = $NF
      stack = substr($0, 1, length($0) - length(count) - 1)
      n = split(stack, frame, ";")
      m = n
      while (m > 1 && frame[m] ~ /^Memtrace(__|\.)Memprof_tracer\.ext_alloc(_slowpath)?$/) m--
      if (m == 1 && frame[1] ~ /^Memtrace(__|\.)Memprof_tracer\.ext_alloc(_slowpath)?$/) m = n
      out = frame[1]
      for (i = 2; i <= m; i++) out = out ";" frame[i]
      if (m >= 2) sum[out] += count
    }
    END { for (s in sum) printf "%s %d\n", s, sum[s] }
  ' "$work/real" | LC_ALL=C sort >"$work/real.sorted"
  awk '
    {
      count = $NF
      stack = substr($0, 1, length($0) - length(count) - 1)
      if (stack == "<no backtrace>") next
      n = split(stack, frame, ";")
      out = ""
      kept = 0
      split("", seen)
      for (i = 1; i <= n; i++)
        if (!(frame[i] in seen)) {
          seen[frame[i]] = 1
          out = out (kept++ ? ";" : "") frame[i]
        }
      if (kept >= 2) sum[out] += count
    }
    END { for (s in sum) printf "%s %d\n", s, sum[s] }
  ' "$work/folded" | LC_ALL=C sort >"$work/ours.sorted"
  if cmp -s "$work/real.sorted" "$work/ours.sorted"; then
    echo "same $name: $(wc -l <"$work/real.sorted") stacks"
    same=$((same + 1))
  else
    echo "DIFF $name:"
    diff "$work/real.sorted" "$work/ours.sorted" | head -6
    differ=$((differ + 1))
  fi
done
echo "flamegraph: $same same, $differ differ"
[ "$differ" -eq 0 ] && [ "$same" -gt 0 ]
