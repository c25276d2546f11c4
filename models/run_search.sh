#!/usr/bin/env bash
# Runs a Relacy model binary in its search mode (exhaustive or context-bounded
# schedules on the model's smallest configurations): the `<model>_search` tests.
set -euo pipefail
bin="$1"
shift
exec "$bin" --search "$@"
