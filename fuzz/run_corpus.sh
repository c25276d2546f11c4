#!/usr/bin/env bash
# Runs a fuzz target binary over its seed corpus (the replay main, or libFuzzer itself
# under --config=libfuzzer, which then executes each file once).
set -euo pipefail
# -runs=0 makes libFuzzer execute the given inputs once and stop; the replay main
# ignores it.
bin="$1"
shift
exec "$bin" -runs=0 "$@"
