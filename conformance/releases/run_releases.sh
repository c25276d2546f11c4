#!/usr/bin/env bash
# Every OCaml 5 release the oracle names, against its own runtime_events consumer: builds
# each release from ../shared/peers (ci/build_peers.sh, cached), records rings with its
# runtime, reads each ring with that release's consumer (ring_text.ml, compiled by the
# release) and with `memprof-oracle events dump FILE --as MODE`, and compares the text.
#
#   bash conformance/releases/run_releases.sh [--oracle BIN] [--replay BIN] [--out FILE.md]
#                                             [RELEASE...]
#
# RELEASE: ocaml-5.0.0 ocaml-5.1.1 ocaml-5.2.0 ocaml-5.3 ocaml-trunk (the default: all).
# --oracle: a memprof-oracle binary (default: bazel build //tools:memprof-oracle).
# --replay: conformance/runtime's memprof_replay (default: bazel build
#   //conformance/runtime:memprof_replay). With it, the releases that have Gc.Memprof (5.3
#   and trunk) also run conformance/runtime/memprof_real_test.sh: real Gc.Memprof against
#   the oracle's sampler and engine.
# --out: where the Markdown results table goes (default: stdout only).
# --keep: keep the work folder (rings, both texts, logs) and print its path.
#
# Rings per release (conformance/runtime/events_workload.ml, user_workload.ml here):
#   one_domain     30 rounds in 1 domain (3 full majors)
#   domains        9 rounds in 3 domains (no full major)
#   domains_major  10 rounds in 3 domains: a full major with 3 domains writes some 70000
#                  events, so the default ring (2^16 words) wraps: lost words
#   wrapped        20 rounds in 2 domains, rings of 2^10 words (OCAMLRUNPARAM=e=10)
#   user        user events of every type from 2 domains (5.1 on)
#   user_wrapped the same, 40 rounds, 1 domain, rings of 2^9 words (5.1 on)
# Each file is named <case>.ocaml-5.N.events (trunk: 5.4), which gives `events dump` the
# release's names. Modes: ocaml-5.0, ocaml-5.1, ocaml-5.2, ocaml-5.3; trunk's consumer
# delivers as 5.3's (conformance/VERDICTS.md), so trunk is read --as ocaml-5.3.
#
# A file agrees when both texts are identical; differs otherwise, unless every differing
# line is a ring_stop whose data the release read from stale buffer memory (declared in
# conformance/VERDICTS.md): then "declared", with where that word came from. Exits 1 when
# any file differs. A release that does not build is reported as such, not fatal.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
here="$repo/conformance/releases"
oracle=""
replay=""
out=""
keep=0
releases=()
while [ $# -gt 0 ]; do
  case "$1" in
    --oracle) oracle=$2; shift 2 ;;
    --replay) replay=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    -h | --help) sed -n '2,25p' "$0"; exit 0 ;;
    ocaml-5.0.0 | ocaml-5.1.1 | ocaml-5.2.0 | ocaml-5.3 | ocaml-trunk) releases+=("$1"); shift ;;
    *) echo "run_releases: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ ${#releases[@]} -gt 0 ] || releases=(ocaml-5.0.0 ocaml-5.1.1 ocaml-5.2.0 ocaml-5.3 ocaml-trunk)

if [ -z "$oracle" ]; then
  (cd "$repo" && bazel build --noshow_progress //tools:memprof-oracle >&2) || exit 2
  oracle="$repo/.bazel/bin/tools/memprof-oracle"
  [ -x "$oracle" ] || oracle="$(cd "$repo" && bazel info bazel-bin 2>/dev/null)/tools/memprof-oracle"
fi
[ -x "$oracle" ] || { echo "run_releases: no oracle binary at $oracle" >&2; exit 2; }
if [ -z "$replay" ]; then
  (cd "$repo" && bazel build --noshow_progress //conformance/runtime:memprof_replay >&2) || exit 2
  replay="$(cd "$repo" && bazel info bazel-bin 2>/dev/null)/conformance/runtime/memprof_replay"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/mpo-releases.XXXXXX")
if [ "$keep" = 1 ]; then
  echo "run_releases: work folder $work" >&2
else
  trap 'rm -rf "$work"' EXIT
fi
rows=()
failed=0

# minor release number (5.N) of a target, as the oracle names releases.
minor_of() {
  case "$1" in
    ocaml-5.0.0) echo 0 ;; ocaml-5.1.1) echo 1 ;; ocaml-5.2.0) echo 2 ;;
    ocaml-5.3) echo 3 ;; ocaml-trunk) echo 4 ;;
  esac
}

# why_ring_stop RELEASE_TXT ORACLE_TXT: "declared: ..." when every differing line is a
# ring_stop given data by the release and none by the oracle, else nothing. Says whether
# each such word is the third word of the last message of 3 or more words delivered
# before it in the same poll (what a stack buffer reused across messages would hold).
why_ring_stop() {
  paste -d '\n' "$1" "$2" | awk '
    function third(f,   n, b) {
      # The third ring word of a delivered message, when the text shows it.
      if (f[3] == "counter" || f[3] == "user_int") return f[6]
      if (f[3] == "lifecycle") return f[6] == "none" ? "" : f[6]
      if (f[3] == "alloc") { b = f[4]; gsub(/[\[\]]/, "", b); split(b, n, ";"); return n[1] }
      if (f[3] == "user_custom") return "?"
      return "-"
    }
    NR % 2 == 1 { rel = $0; next }
    {
      n = split(rel, f, " ")
      if (rel == $0) {
        t = third(f)
        if (t != "-" && f[2] !~ /^#/) last = t
        next
      }
      split($0, g, " ")
      if (f[3] != "lifecycle" || f[4] != "ring_stop" || g[4] != "ring_stop" || g[6] != "none") {
        bad = 1; exit
      }
      stops++
      if (f[6] == last) stale++
    }
    END {
      if (bad || stops == 0) exit 1
      printf "declared: %d ring_stop given data (%d equal to the 3rd word of the last 3-word-or-longer message before it)", stops, stale
    }'
}

record_and_compare() {
  local release=$1 prefix=$2 minor=$3 mode=$4 bin=$5
  local cases=(one_domain domains domains_major wrapped)
  [ "$minor" -ge 1 ] && cases+=(user user_wrapped)
  local c dir file rel ora why status n
  for c in "${cases[@]}"; do
    dir="$work/$release/$c"
    mkdir -p "$dir"
    local prog args param=""
    case "$c" in
      one_domain) prog=events_workload args="30 1 0" ;;
      domains) prog=events_workload args="9 3 0" ;;
      domains_major) prog=events_workload args="10 3 0" ;;
      wrapped) prog=events_workload args="20 2 0" param=e=10 ;;
      user) prog=user_workload args="20 2" ;;
      user_wrapped) prog=user_workload args="40 1" param=e=9 ;;
    esac
    # shellcheck disable=SC2086
    if ! (cd "$dir" && OCAML_RUNTIME_EVENTS_START=1 OCAML_RUNTIME_EVENTS_DIR="$dir" \
      OCAML_RUNTIME_EVENTS_PRESERVE=1 OCAMLRUNPARAM="$param" "$bin/$prog" $args >"$dir/prog.out" 2>&1); then
      rows+=("| $release | $c | — | differ | the recording program failed: $(head -c 200 "$dir/prog.out" | tr '\n' ' ') |")
      failed=1
      continue
    fi
    n=$(find "$dir" -maxdepth 1 -name '*.events' | head -1)
    if [ -z "$n" ]; then
      rows+=("| $release | $c | — | differ | no ring file written |")
      failed=1
      continue
    fi
    file="$dir/$c.ocaml-5.$minor.events"
    mv "$n" "$file"
    rel="$dir/release.txt"
    ora="$dir/oracle.txt"
    "$bin/ring_text" "$file" >"$rel" 2>"$dir/release.err"
    local rrc=$?
    "$oracle" events dump "$file" --as "$mode" >"$ora" 2>"$dir/oracle.err"
    local orc=$?
    local events
    events=$(grep -vc '^#' "$rel")
    if [ $rrc -ne 0 ] || [ $orc -ne 0 ]; then
      status=differ
      why="exit status: release $rrc, oracle $orc ($(head -c 160 "$dir/release.err" "$dir/oracle.err" | tr '\n' ' '))"
      failed=1
    elif cmp -s "$rel" "$ora"; then
      status=agree
      why="identical text ($(tail -1 "$rel" | sed 's/^# //'))"
    elif why=$(why_ring_stop "$rel" "$ora"); then
      status=declared
    else
      status=differ
      local first
      first=$(diff "$rel" "$ora" | grep -m2 '^[<>]' | tr '\n' ' ' | cut -c1-220)
      why="first difference (< release, > oracle): ${first//|/\\|}"
      failed=1
    fi
    rows+=("| $release | \`$c.ocaml-5.$minor.events\` | $events | $status | $why |")
    echo "run_releases: $release $c: $status" >&2
  done
}

for release in "${releases[@]}"; do
  minor=$(minor_of "$release")
  echo "run_releases: building $release (cached after the first time)" >&2
  if ! peers=$(bash "$repo/ci/build_peers.sh" "$release" 2>"$work/build-$release.log") || [[ "$peers" == SKIPPED* ]]; then
    rows+=("| $release | — | — | not built | $(tail -3 "$work/build-$release.log" | tr '\n' ' ' | cut -c1-300) $peers |")
    failed=1
    continue
  fi
  prefix="$peers/$release"
  bin="$work/$release/bin"
  mkdir -p "$bin"
  cp "$repo/conformance/runtime/events_workload.ml" "$here"/ring_text.ml "$here"/user_workload.ml "$bin/"
  if [ "$minor" -ge 1 ]; then
    cp "$here/user_events_51.ml" "$bin/user_events.ml"
  else
    cp "$here/user_events_50.ml" "$bin/user_events.ml"
  fi
  if ! (cd "$bin" && "$prefix/bin/ocamlopt" events_workload.ml -o events_workload &&
    "$prefix/bin/ocamlopt" -I +unix -I +runtime_events unix.cmxa runtime_events.cmxa \
      user_events.ml ring_text.ml -o ring_text &&
    if [ "$minor" -ge 1 ]; then
      "$prefix/bin/ocamlopt" -I +runtime_events runtime_events.cmxa user_workload.ml -o user_workload
    fi) >"$work/compile-$release.log" 2>&1; then
    rows+=("| $release | — | — | not compiled | $(tail -3 "$work/compile-$release.log" | tr '\n' ' ' | cut -c1-300) |")
    failed=1
    continue
  fi
  mode=ocaml-5.$minor
  [ "$minor" -ge 4 ] && mode=ocaml-5.3
  record_and_compare "$release" "$prefix" "$minor" "$mode" "$bin"
  if [ "$minor" -ge 3 ]; then
    mkdir -p "$work/$release/memprof"
    log="$work/$release/memprof.log"
    if MPO_OCAML_RELEASE=$release MPO_PEERS_DIR=$peers TEST_TMPDIR="$work/$release/memprof" \
      bash "$repo/conformance/runtime/memprof_real_test.sh" "$replay" \
      "$repo/conformance/runtime/memprof_samples.ml" >"$log" 2>&1; then
      status=agree
    else
      status=differ
      failed=1
    fi
    rows+=("| $release | Gc.Memprof (\`conformance/runtime/memprof_real_test.sh\`) | — | $status | $(tail -1 "$log") |")
    echo "run_releases: $release Gc.Memprof: $status" >&2
  fi
done

{
  echo "Run $(date -u +%Y-%m-%d) by \`conformance/releases/run_releases.sh\` ($("$oracle" --version))."
  echo
  echo "| release | file | events (release) | result | why |"
  echo "|---|---|---|---|---|"
  printf '%s\n' "${rows[@]}"
} >"$work/results.md"
cat "$work/results.md"
[ -n "$out" ] && cp "$work/results.md" "$out"
exit "$failed"
