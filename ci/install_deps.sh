#!/usr/bin/env bash
# Installs every Debian package the project needs. Idempotent and non-interactive:
# does nothing when everything is already there, runs `apt-get update` at most once.
set -euo pipefail

packages=(
  bazel-bootstrap bazel-rules-java          # Bazel 4.2.3 and the rules_java it needs
  g++ clang libclang-rt-14-dev              # compilers, sanitizer and libFuzzer runtimes
  libc++-dev libc++abi-dev                  # LLVM's standard library (ci/libcxx.sh)
  googletest libgtest-dev librapidcheck-dev relacy-dev
  libbenchmark-dev libcli11-dev nlohmann-json3-dev
  zlib1g-dev                                # gzip inputs (core/io/gzip.h)
  clang-format clang-tidy
  gzip python3 python3-jsonschema          # python3-jsonschema: the schema 2 test
  chromium                                  # headless browser for the HTML report test
  nodejs                                    # runs the report page's script (report_cli_test)
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install_deps: all ${#packages[@]} packages present"
  exit 0
fi
echo "install_deps: installing ${missing[*]}"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install_deps: done"
