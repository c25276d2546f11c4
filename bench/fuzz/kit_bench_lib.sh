# Shared by the kit's benchmarks (sourced): a generated corpus in $dir/corpus, the list of
# its case files in $dir/files, and the timing helpers. The caller sets bin (the program),
# mutants and dir before sourcing.

"$bin" corpus gen "$dir/corpus" >/dev/null
python3 -c "
import json, sys
m = json.load(open(sys.argv[1] + '/MANIFEST.json'))
print('\n'.join(sys.argv[1] + '/' + c['file'] for c in m['cases']))" "$dir/corpus" >"$dir/files"

# fuzz_rate ARGS...: mutants/s of one run without divergence, from its summary line.
fuzz_rate() {
  "$bin" corpus fuzz --seed 11 --max-mutants "$mutants" --max-seconds 86400 "$@" \
    >"$dir/out" 2>&1 || true
  grep -q ' 0 failed' "$dir/out" || { cat "$dir/out" >&2; exit 1; }
  tail -1 "$dir/out" | sed -E 's/.* ([0-9.]+) mutants\/s.*/\1/'
}
# seconds CMD...: wall time of one command.
seconds() {
  local t0 t1
  t0=$(date +%s.%N)
  "$@" >"$dir/out" 2>&1 || { cat "$dir/out" >&2; exit 1; }
  t1=$(date +%s.%N)
  python3 -c "import sys; print(float(sys.argv[2]) - float(sys.argv[1]))" "$t0" "$t1"
}
# decode_each: the anchor, `corpus decode` started once on every case file.
decode_each() {
  local f
  while read -r f; do
    "$bin" corpus decode "$f" >/dev/null 2>&1 || true
  done <"$dir/files"
}
