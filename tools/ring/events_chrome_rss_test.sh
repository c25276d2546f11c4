#!/usr/bin/env bash
# `events chrome` streams: its peak RSS does not grow with the ring's event count. A
# 5 MiB ring of about 100,000 events took 298 MB when the whole JSON document was built
# in memory; streamed it takes about 10 MB. The limit leaves room for sanitizers.
source tools/cli_test_lib.sh
bin="$1"
maker="$2"
limit_kib=$((96 * 1024))
ring=$("$maker" "$tmp" 77 4 17)
peak=$(python3 - "$bin" "$ring" "$tmp/out.json" <<'PY'
import resource, subprocess, sys
rc = subprocess.call([sys.argv[1], "events", "chrome", sys.argv[2], sys.argv[3]])
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss if rc == 0 else -rc)
PY
)
echo "peak RSS of events chrome: $peak KiB (limit $limit_kib KiB)"
[ "$peak" -gt 0 ] || fail "events chrome failed: $peak"
[ "$peak" -le "$limit_kib" ] || fail "peak RSS $peak KiB over $limit_kib KiB"
[ "$(stat -c %s "$tmp/out.json")" -gt 10000000 ] || fail "output too small"
tail -c 2 "$tmp/out.json" | grep -q '^]}$' || fail "output not closed"
cli_done
