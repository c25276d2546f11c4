#!/usr/bin/env bash
# Runs a fuzz target binary over its seed corpus (the replay main, or libFuzzer itself
# under --config=libfuzzer, which then executes each file once).
set -euo pipefail
exec "$@"
