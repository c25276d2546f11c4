#!/usr/bin/env bash
# Compiles the OCaml peer programs of this folder against the memtrace 0.2.3 library that
# ci/build_peers.sh built, with the same compiler (Debian's OCaml 4.13) and no network.
#
#   bash conformance/peers/build.sh PEERS_DIR OUT_DIR
#
# PEERS_DIR is the folder ci/build_peers.sh printed; the programs land in OUT_DIR as
# decode_bare, decode_locations, decode_encode, workload and memtrace_json_023. The library
# is linked from dune's build tree directly (objects under _build/default/src), so nothing
# is added to the shared, cached peers folder.
#
# When PEERS_DIR also holds OCaml 5.3 and memtrace HEAD (`ci/build_peers.sh ... ocaml-5.3`),
# memtrace_json_head and ring_json are built with that compiler too; otherwise a line
# "SKIPPED: ..." says why. What they share (schema_json.ml, memtrace_records.ml,
# memtrace_values.ml) is compiled once per compiler, in separate folders, since the two
# compilers' object files cannot be mixed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
peers=${1:?usage: build.sh PEERS_DIR OUT_DIR}
out=${2:?usage: build.sh PEERS_DIR OUT_DIR}
lib="$peers/memtrace-0.2.3/_build/default/src"
if [ ! -f "$lib/memtrace.cmxa" ]; then
  echo "conformance/peers/build.sh: no memtrace 0.2.3 library in $lib (run ci/build_peers.sh)" >&2
  exit 1
fi
mkdir -p "$out"
work=$(mktemp -d "${TMPDIR:-/tmp}/mpo-peer-progs.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/4.13" "$work/5.3"
cp "$here"/*.ml "$work/4.13/"
cp "$here"/*.ml "$work/5.3/"
compile_023() {
  # -g as dune's default profile compiles memtrace's own tools, for like-for-like code.
  (cd "$work/4.13" && ocamlopt -g -I "$lib/.memtrace.objs/byte" -I "$lib/.memtrace.objs/native" \
    -I +threads unix.cmxa threads.cmxa "$lib/memtrace.cmxa" "$@")
}
for prog in decode_bare decode_locations decode_encode workload; do
  compile_023 "$prog.ml" -o "$out/$prog"
done
compile_023 schema_json.ml memtrace_records.ml memtrace_values.ml memtrace_json_023.ml -o "$out/memtrace_json_023"
built="decode_bare decode_locations decode_encode workload memtrace_json_023"

ocamlopt53="$peers/ocaml-5.3/bin/ocamlopt"
head="$peers/memtrace-head"
if [ -x "$ocamlopt53" ] && [ -f "$head/memtrace.cmxa" ]; then
  (cd "$work/5.3" && "$ocamlopt53" -g -I "$head" -I +unix -I +threads unix.cmxa threads.cmxa \
    memtrace.cmxa schema_json.ml memtrace_records.ml memtrace_values.ml memtrace_json_head.ml \
    -o "$out/memtrace_json_head")
  (cd "$work/5.3" && "$ocamlopt53" -g -I +unix -I +runtime_events unix.cmxa runtime_events.cmxa \
    schema_json.ml ring_json.ml -o "$out/ring_json")
  built="$built memtrace_json_head ring_json"
else
  echo "SKIPPED: memtrace_json_head and ring_json: no OCaml 5.3 + memtrace HEAD in $peers" \
    "(run: bash ci/build_peers.sh memtrace-0.2.3 ocaml-5.3)"
fi
echo "conformance/peers/build.sh: built $built in $out" >&2
