#include "core/memtrace/report/report_assets.h"

namespace mpo::memtrace::report {

const char kReportCss[] = R"css(
body { font: 14px/1.4 system-ui, sans-serif; margin: 0; color: #1d2430; background: #f4f6f9; }
header { background: #23395d; color: #fff; padding: 14px 24px; }
header h1 { margin: 0; font-size: 20px; }
header .sub { opacity: .8; font-size: 13px; word-break: break-all; }
main { padding: 12px 24px 40px; max-width: 1400px; }
section { background: #fff; border-radius: 6px; box-shadow: 0 1px 3px rgba(0,0,0,.12);
  margin: 14px 0; padding: 12px 16px; }
h2 { font-size: 16px; margin: 0 0 8px; color: #23395d; }
.cards { display: flex; flex-wrap: wrap; gap: 10px; }
.card { background: #eef2f8; border-radius: 5px; padding: 6px 12px; min-width: 120px; }
.card b { display: block; font-size: 16px; }
.card span { font-size: 12px; color: #5a6475; }
table { border-collapse: collapse; width: 100%; font-size: 13px; }
th, td { text-align: left; padding: 3px 6px; border-bottom: 1px solid #e3e7ee; vertical-align: top; }
th { color: #5a6475; font-weight: 600; }
td.num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
td.site { word-break: break-all; font-family: ui-monospace, monospace; font-size: 12px; }
td.site .callers { color: #7a8496; }
.bar { height: 12px; background: #e0673b; border-radius: 2px; min-width: 1px; }
.bar.live { background: #3b7de0; }
td.barcell { width: 28%; }
svg text { font: 11px system-ui, sans-serif; fill: #5a6475; }
#flame { position: relative; overflow-x: hidden; overflow-y: auto; max-height: 900px; }
#flame svg text { fill: #1d2430; pointer-events: none; }
#flame rect { stroke: #fff; stroke-width: .5; cursor: pointer; }
#tip { position: fixed; display: none; background: #1d2430; color: #fff; padding: 6px 8px;
  border-radius: 4px; font-size: 12px; max-width: 600px; word-break: break-all; z-index: 5;
  pointer-events: none; }
.note { color: #5a6475; font-size: 12px; }
#flame-path { margin-left: 1.5em; }
button { font: inherit; font-size: 12px; }
)css";

const char kReportBody[] = R"html(
<header><h1>memtrace report</h1><div class="sub" id="subtitle"></div>
<div class="sub" id="damage"></div></header>
<main>
<section><h2>Trace</h2><div class="cards" id="info"></div></section>
<section><h2>Top allocation sites (estimated bytes allocated)</h2>
<table id="sites"></table><div class="note" id="sites-note"></div></section>
<section><h2>Live heap over time (estimated)</h2><div id="timeline"></div>
<div class="note" id="timeline-note"></div></section>
<section><h2>Never collected, by site (leak candidates)</h2>
<table id="leaks"></table><div class="note" id="leaks-note"></div></section>
<section><h2>Flame graph of allocations (click to zoom, hover for details)</h2>
<div><button id="flame-reset">Reset zoom</button>
<label class="note"><input type="checkbox" id="flame-collapse"> collapse recursion</label>
<span class="note" id="flame-path"></span></div>
<div id="flame"></div></section>
</main>
<div id="tip"></div>
)html";

const char kReportScript[] = R"js(
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("report-data").textContent);
  const SVG = "http://www.w3.org/2000/svg";
  function el(tag, attrs, text) {
    const e = document.createElement(tag);
    for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function svgEl(tag, attrs) {
    const e = document.createElementNS(SVG, tag);
    for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
    return e;
  }
  function bytes(b) {
    if (b === null || !isFinite(b)) return "?";
    const units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
    let u = 0, v = Math.abs(b);
    while (v >= 1024 && u + 1 < units.length) { v /= 1024; u++; }
    return (b < 0 ? "-" : "") + (u === 0 ? v.toFixed(0) : v.toFixed(2)) + " " + units[u];
  }
  function num(n) { return Number(n).toLocaleString("en-US"); }
  function secs(s) { return s === null ? "end" : Number(s).toFixed(3) + " s"; }
  function siteName(s) { return s.site === null ? "<no backtrace>" : s.site; }

  const t = data.trace;
  document.getElementById("subtitle").textContent = t.file;
  if (data.damage !== null)
    document.getElementById("damage").textContent = "Damaged trace: stopped at byte " +
        data.damage.offset + " (" + data.damage.message + "); figures cover the " +
        num(data.damage.events_read) + " events before it.";
  const cards = [
    ["executable", t.executable], ["host", data.host], ["pid", num(t.pid)],
    ["sample rate", String(t.sample_rate)], ["word size", t.word_size + " bits"],
    ["format version", "v" + t.version], ["duration", secs(t.duration_s)],
    ["events in window", num(data.events_in_window)],
    ["window", data.window.from_s === 0 && data.window.to_s === null ? "whole trace" :
        secs(data.window.from_s) + " to " + secs(data.window.to_s)],
    ["allocated (est.)", bytes(data.allocated.est_bytes)],
    ["allocations sampled", num(data.allocated.blocks)],
    ["live at end (est.)", bytes(data.live_at_end.est_bytes)]];
  const info = document.getElementById("info");
  for (const [k, v] of cards) {
    const c = el("div", {class: "card"});
    c.appendChild(el("b", {}, typeof v === "string" ? v : JSON.stringify(v)));
    c.appendChild(el("span", {}, k));
    info.appendChild(c);
  }

  function siteCell(s) {
    const td = el("td", {class: "site"}, siteName(s));
    if (s.callers.length) td.appendChild(el("div", {class: "callers"}, "\u2190 " + s.callers.join(" \u2190 ")));
    return td;
  }
  function table(id, head, rows, max, barKey, live) {
    const tbl = document.getElementById(id);
    const tr = el("tr");
    for (const h of head) tr.appendChild(el("th", {}, h));
    tbl.appendChild(tr);
    for (const r of rows) {
      const row = el("tr");
      row.appendChild(siteCell(r.s));
      for (const c of r.cells) row.appendChild(el("td", {class: "num"}, c));
      const bc = el("td", {class: "barcell"});
      const bar = el("div", {class: live ? "bar live" : "bar"});
      bar.style.width = (max > 0 ? 100 * r.s[barKey] / max : 0) + "%";
      bc.appendChild(bar);
      row.appendChild(bc);
      tbl.appendChild(row);
    }
  }
  const maxSite = data.sites.reduce((m, s) => Math.max(m, s.est_bytes), 0);
  table("sites", ["site", "est. bytes", "allocs", "samples", "live blocks", ""],
        data.sites.map(s => ({s, cells: [bytes(s.est_bytes), num(s.allocs), num(s.samples), num(s.live_blocks)]})),
        maxSite, "est_bytes", false);
  document.getElementById("sites-note").textContent =
      data.sites.length + " of " + data.sites_total + " sites shown.";
  const maxLeak = data.leaks.reduce((m, s) => Math.max(m, s.est_bytes), 0);
  table("leaks", ["site", "est. bytes live", "blocks", "samples", "of allocated", ""],
        data.leaks.map(s => ({s, cells: [bytes(s.est_bytes), num(s.blocks), num(s.samples), num(s.allocated_blocks)]})),
        maxLeak, "est_bytes", true);
  document.getElementById("leaks-note").textContent = data.leak_sites_total === 0 ?
      "Every block allocated in the window was collected by the end of the trace." :
      data.leaks.length + " of " + data.leak_sites_total + " sites with live blocks shown.";

  (function timeline() {
    const host = document.getElementById("timeline");
    const pts = data.timeline;
    if (!pts.length) { host.appendChild(el("div", {class: "note"}, "No allocations in the trace.")); return; }
    const W = 1100, H = 260, L = 80, R = 16, T = 10, B = 30;
    const svg = svgEl("svg", {viewBox: "0 0 " + W + " " + H, width: "100%"});
    const t0 = 0, t1 = Math.max(...pts.map(p => p.t_s));
    const vmax = Math.max(1, ...pts.map(p => p.live_est_bytes));
    const x = v => L + (t1 > t0 ? (v - t0) / (t1 - t0) : 0.5) * (W - L - R);
    const y = v => H - B - (v / vmax) * (H - T - B);
    for (let i = 0; i <= 4; i++) {
      const v = vmax * i / 4;
      svg.appendChild(svgEl("line", {x1: L, x2: W - R, y1: y(v), y2: y(v), stroke: "#e3e7ee"}));
      const lab = svgEl("text", {x: L - 6, y: y(v) + 4, "text-anchor": "end"});
      lab.textContent = bytes(v);
      svg.appendChild(lab);
    }
    for (let i = 0; i <= 4; i++) {
      const v = t0 + (t1 - t0) * i / 4;
      const lab = svgEl("text", {x: x(v), y: H - 10, "text-anchor": i === 4 ? "end" : i === 0 ? "start" : "middle"});
      lab.textContent = v.toFixed(3) + " s";
      svg.appendChild(lab);
    }
    const w = data.window;
    if (w.from_s !== 0 || w.to_s !== null) {
      const a = x(Math.min(w.from_s, t1)), b = x(w.to_s === null ? t1 : Math.min(w.to_s, t1));
      svg.appendChild(svgEl("rect", {x: a, y: T, width: Math.max(b - a, 1), height: H - T - B,
                                     fill: "rgba(240,170,40,.18)"}));
      document.getElementById("timeline-note").textContent =
          "Every block allocated and not yet collected, whatever the window; shaded: the window (" +
          secs(w.from_s) + " to " + secs(w.to_s) + ").";
    }
    let d = "M" + x(pts[0].t_s) + " " + y(0);
    for (const p of pts) d += " L" + x(p.t_s) + " " + y(p.live_est_bytes);
    d += " L" + x(pts[pts.length - 1].t_s) + " " + y(0) + " Z";
    svg.appendChild(svgEl("path", {d, fill: "rgba(59,125,224,.18)", stroke: "none"}));
    svg.appendChild(svgEl("polyline", {
      points: pts.map(p => x(p.t_s) + "," + y(p.live_est_bytes)).join(" "),
      fill: "none", stroke: "#3b7de0", "stroke-width": 2}));
    host.appendChild(svg);
  })();

  (function flame() {
    const host = document.getElementById("flame");
    const tip = document.getElementById("tip");
    const pathNote = document.getElementById("flame-path");
    const collapse = document.getElementById("flame-collapse");
    const ROW = 18, W = 1100;
    let root, parent, depth;
    function colour(name) {
      let h = 0;
      for (let i = 0; i < name.length; i++) h = (h * 31 + name.charCodeAt(i)) >>> 0;
      return name === "other" ? "hsl(0,0%,78%)" : "hsl(" + (10 + h % 40) + "," + (60 + h % 30) + "%," + (55 + h % 15) + "%)";
    }
    function draw(focus) {
      host.textContent = "";
      const svg = svgEl("svg", {viewBox: "0 0 " + W + " " + (depth * ROW), width: "100%"});
      const chain = [];
      for (let n = focus; n; n = parent.get(n)) chain.unshift(n);
      const total = focus.v || 1;
      let boxes = 0;
      function box(n, x0, w, row) {
        boxes++;
        const g = svgEl("g");
        const r = svgEl("rect", {x: x0, y: row * ROW, width: Math.max(w, 0.5), height: ROW - 1, fill: colour(n.n)});
        g.appendChild(r);
        if (w > 40) {
          const tx = svgEl("text", {x: x0 + 3, y: row * ROW + 13});
          const chars = Math.floor((w - 6) / 6.5);
          tx.textContent = n.n.length > chars ? n.n.slice(0, Math.max(chars - 1, 0)) + "\u2026" : n.n;
          g.appendChild(tx);
        }
        g.addEventListener("click", () => draw(n));
        g.addEventListener("mousemove", ev => {
          tip.style.display = "block";
          tip.style.left = Math.min(ev.clientX + 12, window.innerWidth - 320) + "px";
          tip.style.top = (ev.clientY + 14) + "px";
          tip.textContent = n.n + " \u2014 " + num(n.v) + " samples, est. " + bytes(n.v * data.bytes_per_sample) +
              " (" + (100 * n.v / (root.v || 1)).toFixed(2) + "% of all)";
        });
        g.addEventListener("mouseleave", () => { tip.style.display = "none"; });
        svg.appendChild(g);
      }
      chain.forEach((n, i) => { if (n !== focus) box(n, 0, W, i); });
      // Walks the tree with a list of its own, not the script's stack: a 6,000-deep
      // recursion in the trace must draw.
      const todo = [[focus, 0, chain.length - 1]];
      while (todo.length) {
        const [n, x0, row] = todo.pop();
        box(n, x0, W * n.v / total, row);
        let x = x0;
        for (const c of n.c) { const cw = W * c.v / total; if (cw >= 0.3) todo.push([c, x, row + 1]); x += cw; }
      }
      host.appendChild(svg);
      // What is drawn, for tests and for anyone reading the DOM.
      host.setAttribute("data-boxes", boxes);
      host.setAttribute("data-depth", depth);
      pathNote.textContent = chain.map(n => n.n).join(" \u2192 ");
    }
    // Shows one of the two trees (the writer made both with folded's own rule).
    function show(tree) {
      root = tree;
      parent = new Map();
      depth = 0;
      const todo = [[root, 1]];
      while (todo.length) {
        const [n, d] = todo.pop();
        depth = Math.max(depth, d);
        for (const c of n.c) { parent.set(c, n); todo.push([c, d + 1]); }
      }
      host.setAttribute("data-mode", tree === data.flame ? "stacks" : "collapsed");
      if (!root.v) {
        host.textContent = "";
        host.appendChild(el("div", {class: "note"}, "No sampled allocations in the window."));
      } else {
        draw(root);
      }
    }
    document.getElementById("flame-reset").addEventListener("click", () => { if (root.v) draw(root); });
    collapse.checked = false;
    collapse.addEventListener("change", () => show(collapse.checked ? data.flame_collapsed : data.flame));
    show(data.flame);
    // A link to #collapse-recursion opens the page with the box ticked, as a click would.
    if (location.hash === "#collapse-recursion") collapse.click();
  })();

  document.body.setAttribute("data-report", "ok");
})();
)js";

}  // namespace mpo::memtrace::report
