#!/usr/bin/env bash
# Builds the real reference implementations (the "peers") from ../shared/peers, once per
# version of their sources, and prints the folder that holds them.
#
#   bash ci/build_peers.sh [memtrace-0.2.3] [ocaml-5.3] [ocaml-5.0.0] [ocaml-5.1.1]
#                          [ocaml-5.2.0] [ocaml-trunk]          (no target: memtrace-0.2.3)
#
# The build lives in $HOME/.cache/memprof-oracle-peers/<key>/, where <key> is the SHA-256
# of the source archives and of build.sh: a finished build is reused as long as none of them
# changes, and a new set of sources gets a new folder rather than a half-updated old one.
# Each target is marked finished only after build.sh succeeded for it, and a lock keeps two
# runs on the same machine from building into the same folder at once.
#
# The peers are found in $MPO_SHARED/peers, else ../shared/peers beside this checkout.
# Without them the script prints a line starting "SKIPPED: ../shared/peers
# not found" instead of the path and exits 0; a failed build exits non-zero.
#
# Only the path goes to stdout; progress and build.sh's own messages go to stderr.
# Cost measured here (2026-11-22, 2 cores at load ~8): memtrace-0.2.3 30 s including apt,
# ocaml-5.3 (with memtrace HEAD) 844 s; both together take 1.1 GB; a rerun takes 0.1 s.
# ocaml-5.0.0 took 2125 s, ocaml-5.1.1 1829 s (2026-11-28, with three other developers' builds).
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(memtrace-0.2.3)
for t in "${targets[@]}"; do
  case "$t" in
    memtrace-0.2.3 | ocaml-5.3 | ocaml-5.0.0 | ocaml-5.1.1 | ocaml-5.2.0 | ocaml-trunk) ;;
    *)
      echo "build_peers: unknown target '$t' (known: memtrace-0.2.3, ocaml-5.3," \
        "ocaml-5.0.0, ocaml-5.1.1, ocaml-5.2.0, ocaml-trunk)" >&2
      exit 2
      ;;
  esac
done

peers=""
for candidate in ${MPO_SHARED:+"$MPO_SHARED/peers"} "$repo/../shared/peers"; do
  if [ -f "$candidate/build.sh" ]; then
    peers=$(cd "$candidate" && pwd)
    break
  fi
done
if [ -z "$peers" ]; then
  echo "SKIPPED: ../shared/peers not found (looked in \$MPO_SHARED/peers and $repo/../shared/peers)"
  exit 0
fi

# The key covers every archive, not only the requested ones, so that one folder can hold
# both targets (build.sh skips what a folder already holds).
key=$(cd "$peers" && sha256sum build.sh ./*.tar.gz | sha256sum | cut -c1-16)
cache_root="${XDG_CACHE_HOME:-$HOME/.cache}/memprof-oracle-peers"
dest="$cache_root/$key"
mkdir -p "$dest"

# Installs Debian packages only when a command they provide is missing; run once per
# target at most. build.sh would install the OCaml packages itself, but doing it here
# first also covers the C toolchain that the OCaml 5.3 build needs.
need_packages() {
  local missing=() pair cmd pkg
  for pair in "$@"; do
    cmd=${pair%%=*}
    pkg=${pair#*=}
    command -v "$cmd" >/dev/null 2>&1 || missing+=("$pkg")
  done
  [ ${#missing[@]} -gt 0 ] || return 0
  echo "build_peers: installing ${missing[*]}" >&2
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq >&2
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# Waits for any other run building into the same folder; the lock is released on exit.
# A run whose targets are all built already takes no lock, so that it does not wait for
# another run building other targets (the other OCaml releases take an hour together).
all_done=1
for t in "${targets[@]}"; do
  [ -f "$dest/.done-$t" ] || all_done=0
done
if [ "$all_done" = 0 ]; then
  exec 9>"$dest.lock"
  flock 9
fi

for t in "${targets[@]}"; do
  if [ -f "$dest/.done-$t" ]; then
    echo "build_peers: $t already built in $dest" >&2
    continue
  fi
  case "$t" in
    memtrace-0.2.3) need_packages ocamlopt=ocaml-nox dune=ocaml-dune ;;
    ocaml-*) need_packages gcc=gcc make=make ;;
  esac
  echo "build_peers: building $t into $dest (build.sh from $peers)" >&2
  start=$SECONDS
  bash "$peers/build.sh" "$dest" "$t" >&2
  touch "$dest/.done-$t"
  echo "build_peers: $t built in $((SECONDS - start)) s" >&2
done
echo "$dest"
