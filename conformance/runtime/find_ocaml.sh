# Finds OCaml 5.3 built by ci/build_peers.sh for the real-runtime tests (sourced).
# MPO_OCAML_RELEASE names another release ci/build_peers.sh builds (ocaml-trunk, ...):
# conformance/releases/run_releases.sh runs a test with it; CI never sets it.
#
# find_ocaml prints the peers folder, or nothing. It looks, never builds (that takes
# ~15 minutes): $MPO_PEERS_DIR (a folder ci/build_peers.sh prints), else
# $HOME/.cache/memprof-oracle-peers/*/ (also the home of the user running the test, since
# Bazel gives tests a HOME of their own). A folder counts only once marked .done-ocaml-5.3.
ocaml_release=${MPO_OCAML_RELEASE:-ocaml-5.3}
find_ocaml() {
  local homes=() real_home d h
  if [ -n "${MPO_PEERS_DIR:-}" ] && [ -f "$MPO_PEERS_DIR/.done-$ocaml_release" ]; then
    echo "$MPO_PEERS_DIR"
    return
  fi
  [ -n "${HOME:-}" ] && homes+=("$HOME")
  real_home=$(getent passwd "$(id -u)" | cut -d: -f6 || true)
  [ -n "$real_home" ] && homes+=("$real_home")
  for h in ${homes[@]+"${homes[@]}"}; do
    for d in "$h"/.cache/memprof-oracle-peers/*/; do
      if [ -f "$d.done-$ocaml_release" ] && [ -x "$d/$ocaml_release/bin/ocamlopt" ]; then
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
    echo "SKIPPED: $ocaml_release not built (bash ci/build_peers.sh $ocaml_release, or set MPO_PEERS_DIR)"
    exit 0
  fi
  echo "$ocaml_release from $peers"
  work=${TEST_TMPDIR:-$(mktemp -d)}
  cp "$1" "$work/$2.ml"
  local name=$2
  shift 2
  (cd "$work" && "$peers/$ocaml_release/bin/ocamlopt" "$@" "$name.ml" -o "$name")
}
