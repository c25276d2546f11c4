// Runs a `memtrace report` page's script under node with a minimal DOM, as a browser would
// (ticks and unticks the "collapse recursion" box), and prints what it drew. Exit 1 unless
// the script finished, drew the flame graph, showed no "[object Object]" but the test
// trace's non-UTF-8 name as text with U+FFFD, held at most MAX_NODES nodes per flame tree
// and no name longer than 256 bytes, and drew the live-heap chart as promised: an axis from
// 0 to the trace's end with round ticks (1, 2 or 5 times a power of ten), a top above every
// step's most, the peak marked (the envelope's highest point), a readout, no "NaN" and no
// size like "1000.00 KiB". Run with a small --stack-size: the tree walks must not use the
// script's stack.
//
//   node --stack-size=300 report_page_check.js PAGE MAX_NODES
"use strict";
const fs = require("fs");
const page = fs.readFileSync(process.argv[2], "utf8");
const maxNodes = Number(process.argv[3]);
const data = /<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(page)[1];
const script = /<script>\n([\s\S]*?)<\/script>/.exec(page)[1];
class El {
  constructor(tag) { this.tag = tag; this.children = []; this.attrs = {}; this.style = {}; this.text = ""; this.on = {}; this.checked = false; }
  get textContent() { return this.text; }
  set textContent(v) { this.text = String(v); this.children = []; }
  appendChild(c) { this.children.push(c); return c; }
  setAttribute(k, v) { this.attrs[k] = String(v); }
  addEventListener(t, f) { (this.on[t] = this.on[t] || []).push(f); }
  click() { this.checked = !this.checked; for (const f of this.on.change || []) f(); }
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
const [n1, depth1] = count(d.flame), [n2] = count(d.flame_collapsed);
// Every name the page holds, as text of at most 256 bytes (core/memtrace/report/page_text.h).
let longest = 0;
const names = [d.trace.file, d.trace.executable, d.host];
for (const s of d.sites.concat(d.leaks)) names.push(s.site, ...s.callers);
for (const t of [d.flame, d.flame_collapsed]) { const st = [t]; while (st.length) { const x = st.pop(); names.push(x.n); st.push(...x.c); } }
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
console.log(JSON.stringify(out));
if (chart.length || !out.ok || out.objectObject || !out.replacement || n1 > maxNodes || n2 > maxNodes || longest > 256 || out.mode !== "stacks" || !(out.boxes > 0)) process.exit(1);
