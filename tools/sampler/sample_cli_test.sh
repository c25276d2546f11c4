#!/usr/bin/env bash
# `sample geometric` against the corpus decoder and the published vectors: corpus decode
# lists the draws from a fresh seed, index 0 first, as plain `sample` does; `--as-profile`
# is the same sequence without the draw that starting the profile consumes.
source tools/cli_test_lib.sh
bin="$1"
for seed in 0 1 7 18446744073709551615; do
  for lambda in 0 1e-6 1e-4 0.01 0.5 1; do
    tag="seed $seed lambda $lambda"
    req="$tmp/req.sampler.json"
    printf '{"seed": %s, "lambda": %s, "mode": "geometric", "count": 151}\n' "$seed" "$lambda" >"$req"
    check "corpus decode $tag" 0 "$bin" corpus decode --text "$req"
    cp "$out" "$tmp/decoded"
    check "sample $tag" 0 "$bin" sample --seed "$seed" --lambda "$lambda" --count 151
    [ "$(wc -l <"$out")" = 151 ] || fail "$tag: sample printed $(wc -l <"$out") draws"
    cmp -s "$out" "$tmp/decoded" || fail "$tag: sample differs from corpus decode"
    check "sample --as-profile $tag" 0 "$bin" sample --seed "$seed" --lambda "$lambda" --count 150 --as-profile
    tail -n +2 "$tmp/decoded" | cmp -s - "$out" || fail "$tag: --as-profile is not corpus decode without its first draw"
    # The JSON Lines view lists the same draws.
    check "corpus decode --json $tag" 0 "$bin" corpus decode "$req"
    python3 -c "import json,sys; print('\n'.join(str(json.loads(l)['value']) for l in open(sys.argv[1]).read().splitlines()[1:-1]))" "$out" |
      cmp -s - "$tmp/decoded" || fail "$tag: corpus decode's records differ from its text"
  done
done
# The default listing is the vector file's, index 0 included, for every published vector.
vectors=testdata/sampler/geometric.csv
for key in $(awk -F, 'NR > 1 {print $1 "," $2}' "$vectors" | sort -u); do
  seed=${key%,*} lambda=${key#*,}
  check "sample vector $key" 0 "$bin" sample --seed "$seed" --lambda "$lambda" --count 1024
  awk -F, -v s="$seed" -v l="$lambda" 'NR > 1 && $1 == s && $2 == l {print $4}' "$vectors" >"$tmp/want"
  [ "$(wc -l <"$tmp/want")" = 1024 ] || fail "vector $key: $(wc -l <"$tmp/want") rows in $vectors"
  cmp -s "$out" "$tmp/want" || fail "vector $key: sample differs from $vectors"
done
check "sample --help documents the views" 0 "$bin" sample --help
grep -q -- "--as-profile" "$out" || fail "--help does not mention --as-profile"
# Help is wrapped to the terminal: a phrase may span lines.
tr -s ' \n' ' ' <"$out" | grep -q "starting a profile consumes" ||
  fail "--help does not say what the first draw is"
cli_done
