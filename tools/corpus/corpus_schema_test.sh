#!/usr/bin/env bash
# Every expected stream `corpus gen` writes is valid against core/corpus/schema2.json (the
# machine-readable form of SCHEMA.md's records), checked by Debian's python3-jsonschema;
# lines that break the schema's rules (signedness, members, types) are refused.
set -euo pipefail
bin=$1
schema=$2
validator=$3
corpus="$TEST_TMPDIR/corpus"
"$bin" corpus gen "$corpus" >/dev/null
# Debian's interpreter, where python3-jsonschema is installed (ci/install_deps.sh),
# whatever python3 comes first on PATH.
exec /usr/bin/python3 "$validator" "$schema" "$corpus"
