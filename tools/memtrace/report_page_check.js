// Runs a `memtrace report` page's script under node with a minimal DOM, as a browser would
// (ticks and unticks the "collapse recursion" box), and prints what it drew. Exit 1 unless
// the script finished, drew the flame graph, showed no "[object Object]" but the test
// trace's non-UTF-8 name as text with U+FFFD, held at most MAX_NODES nodes per flame tree
// and no name longer than 256 bytes, and drew the live-heap chart as promised: an axis from
// 0 to the trace's end with round ticks (1, 2 or 5 times a power of ten), a top above every
// step's most, the peak marked (the envelope's highest point), a readout, no "NaN" and no
// size like "1000.00 KiB"; the inverted tree holds the reverses of the tree's stacks (same
// counts) when neither was cut; the live tree sums to the window's live samples; a search
// marks exactly the drawn boxes whose name holds the text, in every flame graph, and a
// cleared one marks none; a click on a column heading sorts the table by it (twice:
// reversed); no site or flame frame is memtrace's tracer (external allocations belong to
// its caller). Run with a small --stack-size: the tree walks must not use the script's
// stack.
//
//   node --stack-size=300 report_page_check.js PAGE MAX_NODES
"use strict";
const fs = require("fs");
const page = fs.readFileSync(process.argv[2], "utf8");
const maxNodes = Number(process.argv[3]);
const data = /<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(page)[1];
const script = /<script>\n([\s\S]*?)<\/script>/.exec(page)[1];
class El {
  constructor(tag) { this.tag = tag; this.children = []; this.attrs = {}; this.style = {}; this.text = ""; this.on = {}; this.checked = false; this.value = ""; }
  getAttribute(k) { return k in this.attrs ? this.attrs[k] : null; }
  fire(t) { for (const f of this.on[t] || []) f(); }
  get textContent() { return this.text; }
  set textContent(v) { this.text = String(v); this.children = []; }
  appendChild(c) { this.children.push(c); return c; }
  setAttribute(k, v) { this.attrs[k] = String(v); }
  addEventListener(t, f) { (this.on[t] = this.on[t] || []).push(f); }
  click() { if (this.on.change) { this.checked = !this.checked; this.fire("change"); } this.fire("click"); }
}
const byId = new Map();
const document = {
  body: new El("body"),
  getElementById(id) { if (!byId.has(id)) byId.set(id, new El("div")); return byId.get(id); },
  createElement: t => new El(t),
  createElementNS: (ns, t) => new El(t),
};
document.getElementById("report-data").textContent = data;
new Function("document", "location", "window", script)(document, {hash: "#collapse-recursion"}, {innerWidth: 1000});
// Runs the page twice: with the box ticked (the collapsed tree), then unticked (stacks).
const flame = document.getElementById("flame");
const collapsedBoxes = Number(flame.attrs["data-boxes"]);
document.getElementById("flame-collapse").click();
const texts = [];
const todo = [...byId.values(), document.body];
while (todo.length) { const e = todo.pop(); texts.push(e.text); todo.push(...e.children); }
const all = texts.join("\n");
function count(t) { let n = 0, depth = 0; const st = [[t, 1]]; while (st.length) { const [x, d] = st.pop(); n++; depth = Math.max(depth, d); for (const c of x.c) st.push([c, d + 1]); } return [n, depth]; }
const d = JSON.parse(data);
const [n1, depth1] = count(d.flame), [n2] = count(d.flame_collapsed), [n3] = count(d.flame_inverted), [n4] = count(d.flame_live);
// Every name the page holds, as text of at most 256 bytes (core/memtrace/report/page_text.h).
let longest = 0;
const names = [d.trace.file, d.trace.executable_name, d.trace.host_name];
for (const s of d.sites.concat(d.leaks)) names.push(s.site, ...s.callers);
for (const t of [d.flame, d.flame_collapsed, d.flame_inverted, d.flame_live]) { const st = [t]; while (st.length) { const x = st.pop(); names.push(x.n); st.push(...x.c); } }
for (const n of names) if (n !== null) longest = Math.max(longest, typeof n === "string" ? Buffer.byteLength(n) : Infinity);
const out = {ok: document.body.attrs["data-report"] === "ok", mode: flame.attrs["data-mode"],
  boxes: Number(flame.attrs["data-boxes"]), collapsedBoxes, depth: Number(flame.attrs["data-depth"]),
  nodes: n1, collapsedNodes: n2, treeDepth: depth1, objectObject: all.includes("[object Object]"),
  replacement: all.includes("bad\uFFFD\uFFFDname"), longest};
// The live-heap chart.
const tl = document.getElementById("timeline").attrs;
function round(step) { const m = step / Math.pow(10, Math.floor(Math.log10(step) + 1e-9)); return [1, 2, 5, 10].some(r => Math.abs(m - r) < 1e-6); }
const chart = [];
if (d.timeline.length) {
  const end = Math.max(d.trace.duration_s, 1e-6), xs = tl["data-x-ticks"].split(",").map(Number);
  const xstep = Number(tl["data-x-step"]), ystep = Number(tl["data-y-step"]);
  const top = Math.max(...d.timeline.map(p => p.max_est_bytes));
  if (Number(tl["data-x-end"]) !== end) chart.push("axis end " + tl["data-x-end"] + " is not the trace's end " + end);
  if (xs[0] !== 0) chart.push("axis starts at " + xs[0]);
  if (xs.some((v, i) => Math.abs(v - i * xstep) > 1e-9 * end) || xs[xs.length - 1] > end * (1 + 1e-9)) chart.push("x ticks " + xs);
  if (!round(xstep) && !round(xstep / 60)) chart.push("x step " + xstep);
  if (!(Number(tl["data-y-top"]) >= top)) chart.push("y top below the envelope");
  if (!round(ystep / Math.pow(1024, Math.floor(Math.log(Math.max(ystep, 1)) / Math.log(1024) + 1e-9)))) chart.push("y step " + ystep);
  if (d.peak !== null && (tl["data-peak"] !== d.peak.t_s + "," + d.peak.est_bytes || top !== d.peak.est_bytes)) chart.push("peak " + tl["data-peak"] + " envelope top " + top);
  if (!document.getElementById("timeline-readout").text.startsWith("At ")) chart.push("no readout");
}
if (all.includes("NaN") || /\b\d{4}\.\d\d [KMGT]iB/.test(all)) chart.push("NaN or a 4-figure size in the text");
out.chart = chart;
// Features beyond the chart: each failure is a line of `features`.
const features = [];
// Every root-to-node path with a count of its own (value less its children's), as text.
function stacks(t, reverse) {
  const out = new Map(); let cut = false; const st = [[t, []]];
  while (st.length) {
    const [x, path] = st.pop();
    if (x.n === "other") cut = true;
    const own = x.v - x.c.reduce((a, c) => a + c.v, 0);
    if (own > 0 && path.length) { const k = (reverse ? path.slice().reverse() : path).join(";"); out.set(k, (out.get(k) || 0) + own); }
    for (const c of x.c) st.push([c, path.concat([c.n])]);
  }
  return cut ? null : out;
}
const fwd = stacks(d.flame, false), inv = stacks(d.flame_inverted, true);
out.inverted = fwd !== null && inv !== null ? "compared" : "cut";
if (d.flame_inverted.v !== d.flame.v) features.push("inverted total " + d.flame_inverted.v + " is not " + d.flame.v);
if (fwd !== null && inv !== null) {
  if (fwd.size !== inv.size) features.push("inverted stacks " + inv.size + " vs " + fwd.size);
  for (const [k, v] of fwd) if (inv.get(k) !== v) { features.push("inverted: stack " + k.slice(0, 80) + " has " + inv.get(k) + " not " + v); break; }
}
if (d.flame_live.v !== d.live.samples) features.push("live tree " + d.flame_live.v + " samples, live " + d.live.samples);
for (const n of names) if (n !== null && /Memprof_tracer\.ext_alloc/.test(n)) { features.push("tracer frame shown: " + n); break; }
// The search, with the name of the heaviest allocation point (the inverted tree's first
// child) and then cleared.
const hosts = ["flame", "flame-inverted", "flame-live"].map(id => document.getElementById(id));
function marked(e) { let n = 0; const st = [e]; while (st.length) { const x = st.pop(); if (x.tag === "rect" && x.attrs.class === "match") n++; st.push(...x.children); } return n; }
// The boxes the page draws from the root (a child narrower than 0.3 of 1100 units is not)
// whose name holds q, in any case.
function drawnWith(t, q) { let n = 0; const st = [t]; while (st.length) { const x = st.pop(); if (x.n.toLowerCase().includes(q)) n++; for (const c of x.c) if (1100 * c.v / (t.v || 1) >= 0.3) st.push(c); } return n; }
const search = document.getElementById("flame-search");
if (d.flame_inverted.c.length) {
  const first = d.flame_inverted.c.find(c => c.n !== "other") || d.flame_inverted.c[0];
  const name = first.n, q = name.slice(0, 40);
  search.value = q.toUpperCase(); search.fire("input");
  const counts = hosts.map(h => [marked(h), Number(h.attrs["data-matches"])]);
  out.search = {query: q, marked: counts.map(c => c[0])};
  const want = [d.flame, d.flame_inverted, d.flame_live].map(t => t.v ? drawnWith(t, q.toLowerCase()) : 0);
  if (counts.some(([m, a], i) => m !== a || m !== want[i])) features.push("search: marked boxes " + counts + " want " + want);
  if (!(counts[1][0] > 0)) features.push("search: " + q + " not marked in the inverted graph " + counts);
  // Only boxes whose name holds the text: the inverted tree's marked samples are at least the name's own.
  if (!(Number(hosts[1].attrs["data-match-samples"]) >= first.v)) features.push("search: inverted samples");
  if (!document.getElementById("search-note").text.includes("boxes")) features.push("search: no note");
  search.value = ""; search.fire("input");
  if (hosts.some(h => marked(h) !== 0)) features.push("search: cleared but still marked");
}
// Sorting: the sites table by blocks (largest first), then again (smallest first).
function columnOf(id, heading) {
  const tbl = document.getElementById(id), rows = tbl.children;
  const i = rows[0].children.findIndex(th => th.text.replace(/ [\u25b2\u25bc]$/, "") === heading);
  return {th: rows[0].children[i], values: () => tbl.children.slice(1).map(r => Number(r.children[i].text.replace(/,/g, ""))), tbl};
}
if (d.sites.length > 1) {
  const col = columnOf("sites", "blocks");
  col.th.click();
  const down = col.values(), sortDown = col.tbl.attrs["data-sort"];
  columnOf("sites", "blocks").th.click();
  const up = columnOf("sites", "blocks").values(), sortUp = col.tbl.attrs["data-sort"];
  out.sort = [sortDown, sortUp];
  if (down.length !== d.sites.length || down.some((v, i) => i > 0 && v > down[i - 1])) features.push("sort: not descending " + down.slice(0, 5));
  if (up.some((v, i) => i > 0 && v < up[i - 1])) features.push("sort: not ascending " + up.slice(0, 5));
  if (sortDown !== "blocks,desc" || sortUp !== "blocks,asc") features.push("sort: data-sort " + sortDown + " " + sortUp);
  const want = d.sites.map(x => x.blocks).sort((a, b) => a - b);
  if (want.join() !== up.join()) features.push("sort: rows lost or changed");
}
out.features = features;
console.log(JSON.stringify(out));
if (chart.length || features.length || n3 > maxNodes || n4 > maxNodes || !out.ok || out.objectObject || !out.replacement || n1 > maxNodes || n2 > maxNodes || longest > 256 || out.mode !== "stacks" || !(out.boxes > 0)) process.exit(1);
