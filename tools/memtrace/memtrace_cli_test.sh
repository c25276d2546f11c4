#!/usr/bin/env bash
# End-to-end checks of `memtrace dump|check|copy|diff|stats|leaks|compare`: outputs and
# exit codes, on the repository's copies of real traces (testdata/memtrace).
source tools/cli_test_lib.sh
bin="$1"
T=testdata/memtrace
v2=$T/arrays_major.ocaml5.3.native.r1e-3
v3=$T/rate_one.ocaml5.3.memtrace-head.r1
bad=$T/long_columns.ocaml4.13.bc.r1e-3

check "dump is memtrace's dump_trace" 0 "$bin" memtrace dump $v2.ctf
cmp -s "$out" $v2.dump_trace.txt || fail "dump_trace text differs"
check "dump of v3 is HEAD's dump_trace" 0 "$bin" memtrace dump $v3.ctf
head -1 "$out" | grep -Eq '^0000000625 0000000000 alloc 2 len=1 dom=0    0: ' || { fail "v3 dump_trace line"; head -1 "$out"; }
check "dump --oracle is the golden" 0 "$bin" memtrace dump --oracle $v3.ctf
cmp -s "$out" $v3.oracle_dump.txt || fail "oracle text differs"
check "dump --json" 0 "$bin" memtrace dump --json $v3.ctf
# Schema 2 (core/corpus/SCHEMA.md): header, records, trailer counting them.
python3 -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1])]' "$out" || fail "json lines do not parse"
[ "$(grep -c '^{"kind":"\(alloc\|promote\|collect\)",' "$out")" = "$(grep -c '^ev ' $v3.oracle_dump.txt)" ] || fail "json event count"
head -1 "$out" | grep -q '^{"schema":2,"format":"memtrace","info":{"version":3,' || fail "json header"
[ "$(tail -1 "$out")" = "{\"kind\":\"end_of_stream\",\"error\":null,\"records\":$(($(wc -l <"$out") - 2))}" ] || { fail "json trailer"; tail -1 "$out"; }
[ "$(grep -c '^{"kind":"location",' "$out")" = "$(grep '^locations ' $v3.oracle_dump.txt | cut -d' ' -f2)" ] || fail "json location count"
check "dump --json --no-backtraces" 0 "$bin" memtrace dump --json --no-backtraces $v3.ctf
! grep -q 'location\|backtrace' "$out" || fail "no-backtraces json has locations"
check "dump --json of a bad trace" 1 "$bin" memtrace dump --json $bad.ctf
tail -1 "$out" | grep -q '^{"kind":"end_of_stream","error":{"code":"corrupt","check":"location: filename MTF index","offset":348,"bit":6},"records":0}$' || { fail "bad trace json trailer"; tail -1 "$out"; }
check "dump --no-backtraces" 0 "$bin" memtrace dump --no-backtraces $v2.ctf
[ "$(wc -l <"$out")" = "$(wc -l <$v2.dump_trace.txt)" ] || fail "no-backtraces line count"
check "dump of a bad trace" 1 "$bin" memtrace dump --oracle $bad.ctf
cmp -s "$out" $bad.oracle_dump.txt || fail "partial oracle text differs"
grep -q "corrupt: location: filename MTF index at offset 0x15c (bit 6)" "$err" || { fail "bad trace message"; cat "$err"; }

check "check valid" 0 "$bin" memtrace check $v2.ctf
grep -q "913 events.*: ok" "$out" || { fail "check summary"; cat "$out"; }
check "check invalid" 1 "$bin" memtrace check $bad.ctf
check "check --keep-going" 1 "$bin" memtrace check --keep-going $bad.ctf
grep -q "1 bad packets: INVALID" "$out" || { fail "keep-going summary"; cat "$out"; }
check "check missing file" 2 "$bin" memtrace check "$tmp/nonexistent.ctf"

check "copy v3 is byte-identical" 0 "$bin" memtrace copy $v3.ctf "$tmp/copy3.ctf"
cmp -s "$tmp/copy3.ctf" $v3.ctf || fail "v3 copy differs"
check "copy v2 is byte-identical" 0 "$bin" memtrace copy $v2.ctf "$tmp/copy2.ctf"
cmp -s "$tmp/copy2.ctf" $v2.ctf || fail "v2 copy differs"
# --reencode writes the same bytes without the identity copy.
check "copy --reencode is byte-identical" 0 "$bin" memtrace copy --reencode $v2.ctf "$tmp/re2.ctf"
cmp -s "$tmp/re2.ctf" $v2.ctf || fail "v2 copy --reencode differs"
check "copy to v3" 0 "$bin" memtrace copy --format-version 3 $v2.ctf "$tmp/v2to3.ctf"
check "copy --reencode to v3" 0 "$bin" memtrace copy --reencode --format-version 3 $v2.ctf "$tmp/re3.ctf"
cmp -s "$tmp/re3.ctf" "$tmp/v2to3.ctf" || fail "v3 conversions differ"
check "diff of a conversion is empty" 0 "$bin" memtrace diff $v2.ctf "$tmp/v2to3.ctf"
check "copy bad version" 2 "$bin" memtrace copy --format-version 4 $v2.ctf "$tmp/x.ctf"
check "diff different traces" 1 "$bin" memtrace diff $v2.ctf $v3.ctf
grep -q "^info: sample_rate: 0.001 | 1$" "$out" || { fail "diff output"; cat "$out"; }

check "stats" 0 "$bin" memtrace stats --top 2 $v2.ctf
grep -q "460 allocs (78 minor, 382 major, 0 external), 56 promotes, 397 collects" "$out" || { fail "stats totals"; cat "$out"; }
grep -q "top allocation sites by estimated bytes" "$out" || fail "stats sites"
check "no memtrace subcommand" 2 "$bin" memtrace

# One policy for a backtrace entry whose code no location event defined: every command
# fails with the typed error at the event that first uses it (exit 1).
und="$tmp/undefined.ctf"
"$bin" memtrace dump --json $v3.ctf >"$tmp/v3.jsonl"
code=$(sed -n 2p "$tmp/v3.jsonl" | python3 -c 'import json,sys; print(json.load(sys.stdin)["code"])')
# Rename the code's location event (its first 8 bytes in the file) to another code.
python3 - $v3.ctf "$und" "$code" <<'PY'
import sys
data = bytearray(open(sys.argv[1], "rb").read())
at = data.find(int(sys.argv[3], 16).to_bytes(8, "little"))
assert at > 0
data[at + 5] ^= 0x20
open(sys.argv[2], "wb").write(data)
PY
check "dump --json: undefined code" 1 "$bin" memtrace dump --json "$und"
off=$(tail -1 "$out" | python3 -c 'import json,sys; e=json.load(sys.stdin)["error"]; assert e["check"]=="backtrace: location code"; print("0x%x" % e["offset"])') || fail "undefined code trailer"
want="corrupt: backtrace: location code at offset $off"
grep -q "$want" "$err" || { fail "dump --json message"; cat "$err"; }
for cmd in "dump" "dump --oracle" "check" "check --keep-going" "stats" "folded"; do
  check "$cmd: undefined code" 1 "$bin" memtrace $cmd "$und"
  grep -q "$want" "$err" || { fail "$cmd message"; cat "$err"; }
  ! grep -q "<undefined\|<unknown" "$out" || fail "$cmd printed a placeholder"
done
check "diff: undefined code" 1 "$bin" memtrace diff $v3.ctf "$und"
grep -q "memtrace diff: $und: $want" "$err" || { fail "diff message"; cat "$err"; }

# The analysis commands (stats --json, leaks, compare, diff --json), against a model
# computed here from the golden oracle dumps (every event, backtrace and location as the
# real reader saw them): estimated bytes = samples / rate * word_size / 8, a site is the
# innermost frame (the last frame of the last entry with frames: a location's inlined
# frames are stored outermost first) and its callers the frames before it, nearest first.
model="$tmp/model.py"
cat >"$model" <<'PY'
import json, sys

def load(path):
    info, evs, locs = {}, [], {}
    for line in open(path):
        p = line.split()
        if line.startswith("info.sample_rate"): info["rate"] = float(p[1])
        elif line.startswith("info.word_size"): info["ws"] = int(p[1])
        elif p and p[0] == "ev":
            f = dict(x.split("=", 1) for x in p[2:] if "=" in x)
            kind = [x for x in p[2:] if x in ("alloc", "promote", "collect")][0]
            evs.append({"dt": int(f["dt"]), "kind": kind, "id": int(f["id"]),
                        "len": int(f.get("len", 0)), "ns": int(f.get("nsamples", 0)), "bt": []})
        elif p and p[0] == "bt":
            evs[-1]["bt"] = p[1].split(",") if len(p) > 1 else []
        elif p and p[0] == "loc":
            text = line.rstrip("\n").split(" ", 3)[3] if int(p[2]) > 0 else ""
            locs[p[1]] = text.split(" | ") if text else []
    return info, evs, locs

def analyse(path, lo=0, hi=float("inf"), callers=0):
    info, evs, locs = load(path)
    per = 1 / info["rate"] * info["ws"] / 8
    # live: allocated in the window and never collected (a collection after the window
    # counts); heap: every block not collected, window or not (the timeline's figure).
    sites, live, heap, tot = {}, {}, {}, [0, 0, 0]
    for e in evs:
        if e["kind"] == "alloc":
            heap[e["id"]] = e["ns"]
        elif e["kind"] == "collect":
            heap.pop(e["id"], None)
            live.pop(e["id"], None)
        if not lo <= e["dt"] <= hi: continue
        if e["kind"] == "alloc":
            key = tuple(f for c in reversed(e["bt"]) for f in reversed(locs[c]))[:callers + 1]
            s = sites.setdefault(key, [0, 0, 0])
            for t in (s, tot):
                t[0] += 1; t[1] += e["ns"]; t[2] += e["len"]
            live[e["id"]] = (key, e["ns"], e["len"])
    leaks = {}
    for key, ns, ln in live.values():
        l = leaks.setdefault(key, [0, 0, 0]); l[0] += 1; l[1] += ns; l[2] += ln
    return per, tot, sites, leaks, sum(heap.values())

def name(site):
    return (site["site"],) + tuple(site["callers"]) if site["site"] is not None else ()

what, path = sys.argv[1], sys.argv[2]
got = json.load(open(sys.argv[3]))
lo, hi, callers = float(sys.argv[4]) * 1e6, float(sys.argv[5]) * 1e6, int(sys.argv[6])
per, tot, sites, leaks, heap = analyse(path, lo, hi, callers)
if what == "stats":
    assert got["allocated"] == {"blocks": tot[0], "samples": tot[1], "words": tot[2],
                                "est_bytes": tot[1] * per}, got["allocated"]
    assert got["sites_total"] == len(sites)
    assert len(got["sites"]) == min(len(sites), 3)
    want = sorted(((-v[1], k) for k, v in sites.items()))[:3]
    for (neg, key), s in zip(want, got["sites"]):
        assert name(s) == key, (name(s), key)
        assert s["est_bytes"] == -neg * per and s["blocks"] == sites[key][0], s
    assert got["live_at_end"]["blocks"] == sum(v[0] for v in leaks.values())
    assert got["timeline"][-1]["live_est_bytes"] == heap * per
elif what == "leaks":
    assert got["sites_with_live_blocks"] == len(leaks)
    assert {name(s): [s["live_blocks"], s["live_samples"], s["live_words"]]
            for s in got["sites"]} == {k: v for k, v in leaks.items()}, got["sites"]
    assert all(s["live_est_bytes"] == s["live_samples"] * per for s in got["sites"])
    assert all(s["blocks"] == sites[name(s)][0] and s["est_bytes"] == sites[name(s)][1] * per
               for s in got["sites"]), got["sites"]
elif what == "compare":
    per_b, tot_b, sites_b, _, _ = analyse(sys.argv[7], lo, hi, callers)
    assert got["change_est_bytes"] == tot_b[1] * per_b - tot[1] * per, got
    keys = set(sites) | set(sites_b)
    assert len(got["sites"]) == len(keys)
    for s in got["sites"]:
        k = name(s)
        a, b = sites.get(k, [0, 0, 0])[1] * per, sites_b.get(k, [0, 0, 0])[1] * per_b
        assert (s["a_est_bytes"], s["b_est_bytes"]) == (a, b), s
        assert (s["a_blocks"], s["b_blocks"]) == \
            (sites.get(k, [0])[0], sites_b.get(k, [0])[0]), s
        want = "new" if k not in sites else "gone" if k not in sites_b else \
            "grew" if b > a else "shrank" if b < a else "same"
        assert s["status"] == want, s
        # Sampling noise: each count Poisson, so var(est) = samples * per^2.
        sa, sb = sites.get(k, [0, 0, 0])[1], sites_b.get(k, [0, 0, 0])[1]
        var = sa * per * per + sb * per_b * per_b
        z = (b - a) / var ** 0.5 if var > 0 else 0
        assert abs(s["z"] - z) <= 1e-9 * max(1, abs(z)), (s, z)
        assert s["within_noise"] == (want != "same" and abs(z) < 2), s
    assert got["within_noise"] == sum(s["within_noise"] for s in got["sites"]), got
print("model agrees")
PY
inf=1e9
check "stats --json" 0 "$bin" memtrace stats --json --top 3 $v2.ctf
python3 "$model" stats $v2.oracle_dump.txt "$out" 0 $inf 0 || fail "stats --json disagrees with the model"
check "stats --json --callers 1 --from --to" 0 "$bin" memtrace stats --json --top 3 --callers 1 --from 0.005 --to 0.015 $v2.ctf
python3 "$model" stats $v2.oracle_dump.txt "$out" 0.005 0.015 1 || fail "windowed stats disagree with the model"
check "stats --json v3" 0 "$bin" memtrace stats --json --top 3 $v3.ctf
python3 "$model" stats $v3.oracle_dump.txt "$out" 0 $inf 0 || fail "v3 stats disagree with the model"
check "stats --by words" 0 "$bin" memtrace stats --by words --top 1 $v2.ctf
grep -q "top allocation sites by words (of " "$out" || fail "stats --by words title"
# --by takes folded's values: samples rank as estimated bytes do (one constant apart).
check "stats --by samples" 0 "$bin" memtrace stats --by samples --top 1 $v2.ctf
grep -q "top allocation sites by samples (of " "$out" || fail "stats --by samples title"
"$bin" memtrace stats --json --top 5 $v2.ctf > "$tmp/by_bytes.json"
check "stats --by samples --json" 0 "$bin" memtrace stats --json --by samples --top 5 $v2.ctf
python3 - "$tmp/by_bytes.json" "$out" <<'PY' || fail "stats --by samples ranks differently from bytes"
import json, sys
b, s = (json.load(open(p)) for p in sys.argv[1:3])
assert (b["by"], s["by"]) == ("bytes", "samples"), (b["by"], s["by"])
assert b["sites"] == s["sites"] and len(s["sites"]) == 5
assert [x["samples"] for x in s["sites"]] == sorted((x["samples"] for x in s["sites"]), reverse=True)
PY
check "leaks --json" 0 "$bin" memtrace leaks --json --top 1000 $v2.ctf
python3 "$model" leaks $v2.oracle_dump.txt "$out" 0 $inf 0 || fail "leaks disagree with the model"
check "leaks --json window" 0 "$bin" memtrace leaks --json --top 1000 --from 0.002 --to 0.01 $v2.ctf
python3 "$model" leaks $v2.oracle_dump.txt "$out" 0.002 0.01 0 || fail "windowed leaks disagree with the model"
check "leaks text" 0 "$bin" memtrace leaks --top 2 $v2.ctf
head -1 "$out" | grep -Eq "^$v2.ctf: [0-9]+ blocks \([0-9]+ samples, [0-9]+ words, est\. [0-9.]+ [KM]iB\) allocated and never collected, at [0-9]+ sites$" || { fail "leaks headline"; cat "$out"; }
check "compare --json" 0 "$bin" memtrace compare --json --top 1000 $v2.ctf $v3.ctf
python3 "$model" compare $v2.oracle_dump.txt "$out" 0 $inf 0 $v3.oracle_dump.txt || fail "compare disagrees with the model"
check "compare a trace with its copy" 0 "$bin" memtrace compare $v2.ctf "$tmp/v2to3.ctf"
grep -q "^change: 0 B; sites: 0 grew, 0 shrank, 0 new, 0 gone, [1-9][0-9]* same$" "$out" || { fail "compare with a copy"; cat "$out"; }
check "diff --json equal" 0 "$bin" memtrace diff --json $v2.ctf "$tmp/v2to3.ctf"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["equal"] and d["difference"] is None' "$out" || fail "diff --json equal"
check "diff --json different" 1 "$bin" memtrace diff --json $v2.ctf $v3.ctf
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["difference"]=={"where":"info","field":"sample_rate","a":"0.001","b":"1"}, d' "$out" || fail "diff --json difference"
check "--to before --from" 2 "$bin" memtrace stats --from 2 --to 1 $v2.ctf
grep -q "to is not after --from" "$err" || { fail "window message"; cat "$err"; }
check "--from equal to --to" 2 "$bin" memtrace leaks --from 0.01 --to 0.01 $v2.ctf
grep -q "to is not after --from" "$err" || { fail "empty window message"; cat "$err"; }
check "--from nan" 2 "$bin" memtrace leaks --from nan $v2.ctf
check "--callers 65" 2 "$bin" memtrace stats --callers 65 $v2.ctf
for cmd in "leaks" "leaks --json" "stats --json"; do
  check "$cmd: bad trace" 1 "$bin" memtrace $cmd $bad.ctf
  grep -q "corrupt: location: filename MTF index" "$err" || { fail "$cmd: bad trace message"; cat "$err"; }
  check "$cmd: undefined code" 1 "$bin" memtrace $cmd "$und"
  grep -q "$want" "$err" || { fail "$cmd: undefined code message"; cat "$err"; }
done
check "compare: undefined code" 1 "$bin" memtrace compare $v3.ctf "$und"
grep -q "memtrace compare: $und: $want" "$err" || { fail "compare message"; cat "$err"; }
check "leaks: missing file" 2 "$bin" memtrace leaks "$tmp/nonexistent.ctf"

cli_done
