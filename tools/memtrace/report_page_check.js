// Runs a `memtrace report` page's script under node with a minimal DOM, as a browser would
// (ticks and unticks the "collapse recursion" box), and prints what it drew. Exit 1 unless
// the script finished, drew the flame graph, showed no "[object Object]" but the test
// trace's non-UTF-8 name as text with U+FFFD, held at most MAX_NODES nodes per flame tree
// and no name longer than 256 bytes. Run with a small --stack-size: the tree walks must not
// use the script's stack.
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
console.log(JSON.stringify(out));
if (!out.ok || out.objectObject || !out.replacement || n1 > maxNodes || n2 > maxNodes || longest > 256 || out.mode !== "stacks" || !(out.boxes > 0)) process.exit(1);
