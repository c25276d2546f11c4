#!/bin/bash
# Rebuilds the seeds from a generated corpus: make_seeds.sh CORPUS_DIR (from
# `memprof-oracle corpus gen`). Run from the repository root.
set -euo pipefail
src="$1"
dec=fuzz/conformance/corpus/corpus_decode_fuzzer
diff=fuzz/conformance/corpus/json_diff_fuzzer
rm -rf "$dec" "$diff"
mkdir -p "$dec" "$diff"
# Decode seeds: a format byte (0 memtrace, 1 ring, 2 sampler), a release byte, the file.
for f in "$src"/memtrace/*.ctf fuzz/memtrace/corpus/memtrace_reader_fuzzer/*.ctf; do
  [ "$(stat -c %s "$f")" -le 8192 ] || continue
  { printf '\0\0'; cat "$f"; } > "$dec/mt_$(basename "$f")"
done
n=0
for f in fuzz/ring/corpus/ring_consumer_fuzzer/*; do
  n=$((n + 1)); [ $((n % 8)) = 0 ] || continue
  { printf '\1\3'; cat "$f"; } > "$dec/ring_$(basename "$f")"
done
for f in "$src"/sampler/geometric_seed0_*.sampler.json "$src"/sampler/binomial_seed7_*.sampler.json; do
  { printf '\2\0'; cat "$f"; } > "$dec/sampler_$(basename "$f")"
done
# Diff seeds: an expected decode, NUL, the same decode with one value changed.
for f in "$src"/memtrace/v3_event_forms.ctf "$src"/memtrace/v3_bad_unknown_event_code.ctf \
         "$src"/sampler/geometric_seed0_lambda0.5.sampler.json \
         "$src"/ring/start_stop_only.ocaml-5.3.events; do
  e="$f.expected.jsonl"
  { cat "$e"; printf '\0'; sed '0,/[0-9]/s/[0-9]/9/' "$e"; } > "$diff/$(basename "$f")"
done
# A manifest of its first two cases.
python3 -c "import json,sys; m=json.load(open(sys.argv[1])); m['cases']=m['cases'][:2]; print(json.dumps(m))" \
  "$src/MANIFEST.json" > "$diff/manifest"
