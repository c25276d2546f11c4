#!/usr/bin/env bash
# `memtrace report` in a real browser: headless Chromium loads the page from a file, its
# script runs to the end without an exception (it then marks <body data-report="ok">),
# the console shows no error, and the screenshot is a drawn page (many colours), not a
# blank one. SKIPPED when chromium is not installed (ci/install_deps.sh installs it).
# With MPO_SHARED_TESTDATA set, the largest real trace is rendered too.
# The flame graph's "collapse recursion" box: the page opened as page.html#collapse-recursion
# ticks it as a click does; the script must still finish without a console error, and on
# a recursive trace the picture must change (fewer rows, another screenshot). The three
# flame graphs (allocations, inverted, live) all draw, page.html#search=NAME marks the
# searched function's boxes, and page.html#sort=sites.HEADING sorts a table as a click does.
set -euo pipefail
source tools/cli_test_lib.sh
bin="$1"

browser="$(command -v chromium || command -v chromium-browser || true)"
if [ -z "$browser" ]; then
  echo "SKIPPED: chromium is not installed (apt-get install chromium)"
  exit 0
fi
export HOME="$tmp/home"
mkdir -p "$HOME"

# The number of distinct colours of an 8-bit RGB(A) PNG (non-interlaced), python3 only.
png_colours() {
  python3 - "$1" <<'PY'
import struct, sys, zlib
d = open(sys.argv[1], "rb").read()
assert d[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat, w = 8, b"", 0
while pos < len(d):
    n, kind = struct.unpack(">I4s", d[pos:pos + 8])
    body = d[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
        assert depth == 8 and ctype in (2, 6) and interlace == 0, (depth, ctype, interlace)
        bpp = 3 if ctype == 2 else 4
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
raw, stride = zlib.decompress(idat), w * bpp
prev, colours, i = bytearray(stride), set(), 0
for _ in range(h):
    f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
    i += 1 + stride
    for x in range(stride):
        a = line[x - bpp] if x >= bpp else 0
        b, c = prev[x], prev[x - bpp] if x >= bpp else 0
        if f == 1: line[x] = (line[x] + a) & 255
        elif f == 2: line[x] = (line[x] + b) & 255
        elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    colours.update(bytes(line[x:x + bpp]) for x in range(0, stride, bpp * 4))
    prev = line
print(len(colours))
PY
}

render() {
  local name="$1" trace="$2" page="$tmp/$1.html"
  check "$name: report" 0 "$bin" memtrace report "$trace" -o "$page"
  # shellcheck disable=SC2054 # the comma is in --window-size's value
  local flags=(--headless --no-sandbox --disable-gpu --no-first-run --user-data-dir="$tmp/profile"
    --window-size=1200,1600)
  check "$name: dump-dom" 0 timeout 120 "$browser" "${flags[@]}" --enable-logging=stderr --v=0 \
    --dump-dom "file://$page"
  grep -q '<body data-report="ok">' "$out" || { fail "$name: the page's script did not finish"; tail -5 "$err"; }
  if grep -E 'CONSOLE|Uncaught' "$err" | grep -ciE 'error|uncaught' >/dev/null; then
    fail "$name: console errors"
    grep -E 'CONSOLE|Uncaught' "$err" | head -5
  fi
  check "$name: screenshot" 0 timeout 120 "$browser" "${flags[@]}" --screenshot="$tmp/$name.png" \
    "file://$page"
  [ -s "$tmp/$name.png" ] || { fail "$name: no screenshot"; return; }
  local colours
  colours="$(png_colours "$tmp/$name.png")" || { fail "$name: unreadable PNG"; return; }
  echo "     $name: $colours colours"
  [ "$colours" -ge 20 ] || fail "$name: the screenshot looks blank ($colours colours)"
  [ -z "${REPORT_SHOT_DIR:-}" ] || cp "$tmp/$name.png" "$REPORT_SHOT_DIR/"
  # Every flame graph drew, and #search=NAME (the heaviest allocation point) marks boxes
  # in the inverted graph, each counted in its data-matches.
  local name_q
  name_q="$(python3 - "$page" <<'PY'
import json, re, sys, urllib.parse
d = json.loads(re.search(r'id="report-data">(.*?)</script>', open(sys.argv[1], encoding="utf-8").read(), re.S).group(1))
first = next((c for c in d["flame_inverted"]["c"] if c["n"] != "other"), None)
print(urllib.parse.quote(first["n"][:40]) if first else "")
PY
)"
  [ -n "$name_q" ] || return 0
  check "$name: dump-dom #search" 0 timeout 120 "$browser" "${flags[@]}" --enable-logging=stderr --v=0 \
    --dump-dom "file://$page#search=$name_q"
  if grep -E 'CONSOLE|Uncaught' "$err" | grep -ciE 'error|uncaught' >/dev/null; then
    fail "$name#search: console errors"
  fi
  python3 - "$out" <<'PY' || fail "$name#search: the search did not mark the inverted graph"
import re, sys
dom = open(sys.argv[1], encoding="utf-8").read()
for mode in ("stacks", "inverted"):
    assert re.search(r'data-mode="%s" data-boxes="[1-9]' % mode, dom), mode + " not drawn"
m = re.search(r'<div class="flame" id="flame-inverted"[^>]*data-matches="(\d+)"', dom)
marked = dom.count('class="match"')
assert m and int(m.group(1)) > 0 and marked >= int(m.group(1)), (m and m.group(1), marked)
print("     search: inverted", m.group(1), "boxes marked;", marked, "match classes in all")
PY
  # #sort=TABLE.HEADING clicks a heading as a user does: the rows come out in that order.
  check "$name: dump-dom #sort" 0 timeout 120 "$browser" "${flags[@]}" --enable-logging=stderr --v=0 \
    --dump-dom "file://$page#sort=sites.live%20blocks"
  python3 - "$out" <<'PY' || fail "$name#sort: the sites table is not sorted by live blocks"
import re, sys
dom = open(sys.argv[1], encoding="utf-8").read()
t = re.search(r'<table id="sites" data-sort="([^"]*)">(.*?)</table>', dom, re.S)
assert t and t.group(1) == "live blocks,desc", t and t.group(1)
rows = [re.findall(r'<td class="num">([^<]*)</td>', r) for r in t.group(2).split("<tr>")[2:]]
live = [int(r[3].replace(",", "")) for r in rows]
assert len(live) > 1 and live == sorted(live, reverse=True), live
print("     sort: %d rows by live blocks, %d to %d" % (len(live), live[0], live[-1]))
PY
}

# The flame graph's drawn state in the dumped DOM: "MODE BOXES DEPTH".
flame_state() {
  sed -n 's/.*<div class="flame" id="flame" data-mode="\([a-z]*\)" data-boxes="\([0-9]*\)" data-depth="\([0-9]*\)".*/\1 \2 \3/p' "$1" | head -1
}

# `toggle NAME TRACE same|fewer`: the page with and without the box ticked; with "fewer"
# collapsing must draw fewer rows and another picture, with "same" the same tree.
toggle() {
  local name="$1" trace="$2" want="$3" page="$tmp/$1.toggle.html"
  check "$name: report" 0 "$bin" memtrace report "$trace" -o "$page"
  # Tall enough for the flame graph's section to be on the screenshot, unscrolled.
  # shellcheck disable=SC2054 # the comma is in --window-size's value
  local flags=(--headless --no-sandbox --disable-gpu --no-first-run --user-data-dir="$tmp/profile"
    --window-size=1200,3000)
  local hash state=()
  for hash in "#top" "#collapse-recursion"; do
    check "$name$hash: dump-dom" 0 timeout 120 "$browser" "${flags[@]}" --enable-logging=stderr \
      --v=0 --dump-dom "file://$page$hash"
    grep -q '<body data-report="ok">' "$out" || { fail "$name$hash: the page's script did not finish"; tail -5 "$err"; }
    if grep -E 'CONSOLE|Uncaught' "$err" | grep -ciE 'error|uncaught' >/dev/null; then
      fail "$name$hash: console errors"
      grep -E 'CONSOLE|Uncaught' "$err" | head -5
    fi
    state+=("$(flame_state "$out")")
    # Pictures only where they should differ (each browser start costs seconds).
    [ "$want" = same ] || check "$name$hash: screenshot" 0 timeout 120 "$browser" "${flags[@]}" \
      --screenshot="$tmp/$name$hash.png" "file://$page$hash"
  done
  echo "     $name: flame (mode boxes depth) ${state[0]} -> ${state[1]}"
  read -r m0 b0 d0 <<<"${state[0]}"
  read -r m1 b1 d1 <<<"${state[1]}"
  if [ "$m0" != stacks ] || [ "$m1" != collapsed ]; then
    fail "$name: the box did not switch trees (${state[*]})"
  fi
  if [ "$want" = fewer ]; then
    if [ "${d1:-0}" -eq 0 ] || [ "$d1" -ge "${d0:-0}" ]; then
      fail "$name: collapsing did not take rows away"
    fi
    cmp -s "$tmp/$name#top.png" "$tmp/$name#collapse-recursion.png" &&
      fail "$name: the screenshot did not change"
  else
    [ "$b0 $d0" = "$b1 $d1" ] || fail "$name: no recursion, yet the flame graph changed"
  fi
  if [ -n "${REPORT_SHOT_DIR:-}" ] && [ "$want" = fewer ]; then
    cp "$tmp/$name#collapse-recursion.png" "$REPORT_SHOT_DIR/"
  fi
}

render arrays testdata/memtrace/arrays_major.ocaml5.3.native.r1e-3.ctf
toggle arrays testdata/memtrace/arrays_major.ocaml5.3.native.r1e-3.ctf same
deep="${MPO_SHARED_TESTDATA:-}/memtrace/deep_exn.ocaml5.3.memtrace-head.r1e-3.ctf"
if [ -n "${MPO_SHARED_TESTDATA:-}" ] && [ -r "$deep" ]; then
  toggle deep_exn "$deep" fewer
else
  echo "SKIPPED: collapsing a recursive trace (set MPO_SHARED_TESTDATA to ../shared/testdata)"
fi
big="${MPO_SHARED_TESTDATA:-}/memtrace/examples-ocamlopt.v0.2.3.ctf"
if [ -n "${MPO_SHARED_TESTDATA:-}" ] && [ -r "$big" ]; then
  render examples "$big"
else
  echo "SKIPPED: the large real trace (set MPO_SHARED_TESTDATA to ../shared/testdata)"
fi
cli_done
