#!/usr/bin/env bash
# Side-by-side whole-process benchmark of memprof-oracle against the real memtrace 0.2.3
#: check, dump, copy and start-up, on real traces from ../shared/testdata,
# traces written by the real memtrace 0.2.3 writer during this run, and a large trace
# written by the project. See README.md beside this script for what each row compares.
#
#   bash bench/peers/run.sh            (at least PAIRS=7 pairs per row; more for short runs)
#   BASE=OLD_BINARY bash bench/peers/run.sh
#                                      (before/after: the copy rows of the three traces
#                                       and the large one, and start-up, OLD_BINARY and the new
#                                       build and the real program in rotating rounds; see
#                                       before_after.py)
#
# Prints "SKIPPED: ..." and exits 0 when ../shared (the peers and their testdata) is not
# there. Nothing it generates is kept: every trace lives in a temporary folder.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
pairs=${PAIRS:-7}
# Demo workload for the large trace (memtrace v2 so that memtrace 0.2.3 can read it).
large_args=(${LARGE_DEMO_ARGS:---format-version 2 --domains 1 --lambda 0.5 --steps 400000 --max-steps 10000000})

shared=""
for candidate in ${MPO_SHARED:+"$MPO_SHARED"} "$repo/../shared"; do
  if [ -f "$candidate/peers/build.sh" ] && [ -d "$candidate/testdata/memtrace" ]; then
    shared=$(cd "$candidate" && pwd)
    break
  fi
done
if [ -z "$shared" ]; then
  echo "SKIPPED: ../shared not found (the real memtrace sources and reference traces live there)"
  exit 0
fi
testdata="$shared/testdata/memtrace"

work=$(mktemp -d "${TMPDIR:-/tmp}/mpo-bench-peers.XXXXXX")
trap 'rm -rf "$work"' EXIT

echo "== building memprof-oracle (bazel build -c opt)" >&2
(cd "$repo" && bazel build -c opt --noshow_progress //tools:memprof-oracle >&2)
# A private copy, so that a rebuild in this checkout during the run cannot change it.
cp "$repo/.bazel/bin/tools/memprof-oracle" "$work/memprof-oracle"
ours="$work/memprof-oracle"

echo "== building the real memtrace 0.2.3 (ci/build_peers.sh)" >&2
peers=$(MPO_SHARED="$shared" bash "$repo/ci/build_peers.sh" memtrace-0.2.3)
case "$peers" in
  SKIPPED*)
    echo "$peers"
    exit 0
    ;;
esac
dump_trace="$peers/memtrace-0.2.3/_build/default/bin/dump_trace.exe"
bash "$repo/conformance/peers/build.sh" "$peers" "$work/peers"

echo "== preparing traces" >&2
# Traces like the table's lists_maps and hashtbl_strings (OCaml 4.13, rate 1e-2), written now
# by the real memtrace 0.2.3 writer through this project's own workload program; the round
# counts give about 120 k and 210 k events.
MEMTRACE="$work/lists_maps.r1e-2.ctf" MEMTRACE_RATE=1e-2 \
  "$work/peers/workload" lists_maps 26 >/dev/null
MEMTRACE="$work/hashtbl_strings.r1e-2.ctf" MEMTRACE_RATE=1e-2 \
  "$work/peers/workload" hashtbl_strings 228 >/dev/null
# The empty trace for start-up: the real writer's header and info packet, no events.
MEMTRACE="$work/empty.ctf" "$work/peers/workload" lists_maps 0 >/dev/null
# The large trace, written by the project.
"$ours" demo --out "$work/large" "${large_args[@]}" >/dev/null

traces=(
  "lists_maps 4.13 r1e-3 (testdata)=$testdata/lists_maps.ocaml4.13.native.r1e-3.ctf"
  "lists_maps 4.13 r1e-2 (real writer, this run)=$work/lists_maps.r1e-2.ctf"
  "hashtbl_strings 4.13 r1e-2 (real writer, this run)=$work/hashtbl_strings.r1e-2.ctf"
  "test-ocamlopt v2 (testdata)=$testdata/test-ocamlopt.v0.2.3.ctf"
  "examples-ocamlopt v1 (testdata)=$testdata/examples-ocamlopt.v0.2.3.ctf"
  "large (memprof-oracle demo, v2)=$work/large/trace.ctf"
)

echo
measured=$(git -C "$repo" log -1 --format=%h -- core tools third_party BUILD WORKSPACE)
dirty=$(git -C "$repo" diff --quiet HEAD -- core tools || echo ', with uncommitted changes')
echo "memprof-oracle at $(git -C "$repo" rev-parse --short HEAD) (core/ and tools/ last changed in $measured$dirty), opt build;" \
  "memtrace 0.2.3 (OCaml $(ocamlopt -version)); $pairs alternating pairs per row or more (see the pairs column)"
echo "large trace: memprof-oracle demo ${large_args[*]}"
echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| trace | size | contents |"
echo "|---|---|---|"
args=()
for t in "${traces[@]}"; do
  label=${t%%=*}
  path=${t#*=}
  counts=$("$work/peers/decode_bare" "$path" | sed -E 's/^events=([0-9]+) frames=([0-9]+) .*/\1 events, \2 frames/')
  echo "| $label | $(numfmt --to=iec --suffix=B "$(stat -c %s "$path")") | $counts |"
  args+=(--trace "$t")
done
echo
if [ -n "${BASE:-}" ]; then
  cp "$BASE" "$work/memprof-oracle-base"
  echo "before: $BASE (a copy); after: this checkout's build"
  echo
  python3 "$repo/bench/peers/before_after.py" --ours "$ours" --base "$work/memprof-oracle-base" \
    --peers "$work/peers" --work "$work" --pairs "$pairs" --tiny "$work/empty.ctf" \
    --trace "${traces[1]}" --trace "${traces[2]}" --trace "${traces[4]}" --trace "${traces[5]}"
  echo
  echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
  exit 0
fi
python3 "$repo/bench/peers/pairs.py" --ours "$ours" --peers "$work/peers" \
  --dump-trace "$dump_trace" --work "$work" --pairs "$pairs" --tiny "$work/empty.ctf" \
  "${args[@]}"
echo
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
