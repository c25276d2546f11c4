# Finds OCaml 5.3 built by ci/build_peers.sh for the real-runtime tests (sourced).
#
# find_ocaml prints the peers folder, or nothing. It looks, never builds (that takes
# ~15 minutes): $MPO_PEERS_DIR (a folder ci/build_peers.sh prints), else
# $HOME/.cache/memprof-oracle-peers/*/ (also the home of the user running the test, since
# Bazel gives tests a HOME of their own). A folder counts only once marked .done-ocaml-5.3.
find_ocaml() {
  local homes=() real_home d h
  if [ -n "${MPO_PEERS_DIR:-}" ] && [ -f "$MPO_PEERS_DIR/.done-ocaml-5.3" ]; then
    echo "$MPO_PEERS_DIR"
    return
  fi
  [ -n "${HOME:-}" ] && homes+=("$HOME")
  real_home=$(getent passwd "$(id -u)" | cut -d: -f6 || true)
  [ -n "$real_home" ] && homes+=("$real_home")
  for h in ${homes[@]+"${homes[@]}"}; do
    for d in "$h"/.cache/memprof-oracle-peers/*/; do
      if [ -f "$d.done-ocaml-5.3" ] && [ -x "$d/ocaml-5.3/bin/ocamlopt" ]; then
        echo "${d%/}"
        return
      fi
    done
  done
}

# compile_ocaml_program ML NAME [OCAMLOPT ARGS...]: with OCaml 5.3 found (else the test says
# SKIPPED and exits 0), compiles ML into $work/NAME (the ARGS before it: libraries). Sets
# peers (the peers folder) and work (a scratch folder).
compile_ocaml_program() {
  peers=$(find_ocaml || true)
  if [ -z "$peers" ]; then
    echo "SKIPPED: OCaml 5.3 not built (bash ci/build_peers.sh ocaml-5.3, or set MPO_PEERS_DIR)"
    exit 0
  fi
  echo "OCaml 5.3 from $peers"
  work=${TEST_TMPDIR:-$(mktemp -d)}
  cp "$1" "$work/$2.ml"
  local name=$2
  shift 2
  (cd "$work" && "$peers/ocaml-5.3/bin/ocamlopt" "$@" "$name.ml" -o "$name")
}
