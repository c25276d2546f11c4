#!/usr/bin/env bash
# Compiles the OCaml peer programs of this folder against the memtrace 0.2.3 library that
# ci/build_peers.sh built, with the same compiler (Debian's OCaml 4.13) and no network.
#
#   bash conformance/peers/build.sh PEERS_DIR OUT_DIR
#
# PEERS_DIR is the folder ci/build_peers.sh printed; the programs land in OUT_DIR as
# decode_bare, decode_locations, decode_encode and workload. The library is linked from
# dune's build tree directly (objects under _build/default/src), so nothing is added to the
# shared, cached peers folder.
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
for prog in decode_bare decode_locations decode_encode workload; do
  cp "$here/$prog.ml" "$work/"
  # -g as dune's default profile compiles memtrace's own tools, for like-for-like code.
  (cd "$work" && ocamlopt -g -I "$lib/.memtrace.objs/byte" -I "$lib/.memtrace.objs/native" \
    -I +threads unix.cmxa threads.cmxa "$lib/memtrace.cmxa" "$prog.ml" -o "$out/$prog")
done
echo "conformance/peers/build.sh: built decode_bare decode_locations decode_encode workload in $out" >&2
