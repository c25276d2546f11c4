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
.flame { position: relative; overflow-x: hidden; overflow-y: auto; max-height: 900px; }
.flame svg text { fill: #1d2430; pointer-events: none; }
.flame rect { stroke: #fff; stroke-width: .5; cursor: pointer; }
.flame rect.match { fill: #c2188b; }
.flame svg text.match { fill: #fff; }
th.sortable { cursor: pointer; user-select: none; }
th.sortable:hover { color: #23395d; }
#search-bar { position: sticky; top: 0; z-index: 4; display: flex; gap: 10px; align-items: center; }
#flame-search { font: inherit; font-size: 13px; width: 28em; padding: 3px 6px; }
#tip { position: fixed; display: none; background: #1d2430; color: #fff; padding: 6px 8px;
  border-radius: 4px; font-size: 12px; max-width: 600px; word-break: break-all; z-index: 5;
  pointer-events: none; }
.note { color: #5a6475; font-size: 12px; }
.flame-path { margin-left: 1.5em; }
#timeline-readout { font-variant-numeric: tabular-nums; min-height: 1.4em; }
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
<div class="note" id="timeline-readout"></div>
<div class="note" id="timeline-note"></div></section>
<section><h2 id="leaks-title">Never collected, by site (leak candidates)</h2>
<table id="leaks"></table><div class="note" id="leaks-note"></div></section>
<section id="search-bar"><label for="flame-search"><b>Find a function</b></label>
<input type="search" id="flame-search" placeholder="highlights its boxes in every flame graph">
<span class="note" id="search-note"></span></section>
<section><h2>Flame graph of allocations, callers above (click to zoom, hover for details)</h2>
<div><button id="flame-reset">Reset zoom</button>
<label class="note"><input type="checkbox" id="flame-collapse"> collapse recursion</label>
<span class="note flame-path" id="flame-path"></span></div>
<div class="flame" id="flame"></div></section>
<section><h2>Inverted flame graph: where allocations happen, their callers below</h2>
<div><button id="flame-inverted-reset">Reset zoom</button>
<span class="note flame-path" id="flame-inverted-path"></span></div>
<div class="flame" id="flame-inverted"></div></section>
<section><h2 id="flame-live-title">Flame graph of the live objects</h2>
<div><button id="flame-live-reset">Reset zoom</button>
<span class="note flame-path" id="flame-live-path"></span></div>
<div class="flame" id="flame-live"></div></section>
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
  // Three significant figures: "1.50 KiB", "15.0 KiB", "150 KiB", "0.98 MiB" (as the
  // command line prints sizes, analysis_text.h).
  function three(v) { return v < 9.995 ? v.toFixed(2) : v < 99.95 ? v.toFixed(1) : v.toFixed(0); }
  const BYTE_UNITS = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
  function bytes(b) {
    if (b === null || !isFinite(b)) return "?";
    let u = 0, v = Math.abs(b);
    while ((u === 0 ? v >= 1024 : v >= 999.5) && u + 1 < BYTE_UNITS.length) { v /= 1024; u++; }
    return (b < 0 ? "-" : "") + (u === 0 ? v.toFixed(0) : three(v)) + " " + BYTE_UNITS[u];
  }
  // Seconds in human units: "850 us", "12.5 ms", "3.20 s", "2 min 5 s", "1 h 02 min".
  function dur(s) {
    if (s === null || !isFinite(s)) return "?";
    const us = Math.abs(s) * 1e6, sign = s < 0 ? "-" : "";
    if (us < 999.5) return sign + us.toFixed(0) + " us";
    if (us < 999.5e3) return sign + three(us / 1e3) + " ms";
    if (us < 59.95e6) return sign + three(us / 1e6) + " s";
    const t = Math.round(us / 1e6);
    return sign + (t < 3600 ? Math.floor(t / 60) + " min " + t % 60 + " s" :
        Math.floor(t / 3600) + " h " + String(Math.floor(t / 60) % 60).padStart(2, "0") + " min");
  }
  function num(n) { return Number(n).toLocaleString("en-US"); }
  function secs(s) { return s === null ? "end" : dur(s); }
  function siteName(s) { return s.site === null ? "<no backtrace>" : s.site; }

  const t = data.trace;
  const wholeTrace = data.window.from_s === 0 && data.window.to_s === null;
  // When the leak candidates are live: "the end", "the peak (19.4 ms)" or "12.0 ms".
  function when() {
    const at = data.live_at;
    if (at.at === "peak") return data.peak === null ? "the peak (none: no sampled allocation)" : "the peak (" + dur(at.t_s) + ")";
    return at.at === "end" ? "the end" : dur(at.t_s);
  }
  document.getElementById("subtitle").textContent = t.file;
  if (data.damage !== null)
    document.getElementById("damage").textContent = "Damaged trace: stopped at byte " +
        data.damage.offset + " (" + data.damage.message + "); figures cover the " +
        num(data.damage.events_read) + " events before it.";
  const cards = [
    ["executable", t.executable_name], ["host", t.host_name], ["pid", num(t.pid)],
    ["sample rate", String(t.sample_rate)], ["word size", t.word_size + " bits"],
    ["format version", "v" + t.version], ["duration", secs(t.duration_s)],
    ["events in window", num(data.events_in_window)],
    ["window", wholeTrace ? "whole trace" :
        secs(data.window.from_s) + " to " + secs(data.window.to_s)],
    ["allocated (est.)", bytes(data.allocated.est_bytes)],
    ["allocations sampled", num(data.allocated.blocks)],
    ["peak live heap (est.)", data.peak === null ? "none" :
        bytes(data.peak.est_bytes) + " at " + dur(data.peak.t_s)],
    ["live heap at " + when(), bytes(data.live_at.heap.est_bytes)],
    ["leak candidates (est.)", bytes(data.live.est_bytes)]];
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
  // A table whose rows sort on a click on a column heading (numbers largest first, names
  // A to Z; a second click reverses). `cols`: [heading, key of the row's value, format].
  function table(id, cols, rows, max, barKey, live) {
    const tbl = document.getElementById(id);
    let sortBy = -1, descending = true;
    function sortOn(i) {
      descending = sortBy === i ? !descending : i > 0;
      sortBy = i;
      const key = cols[i][1], dir = descending ? -1 : 1;
      const value = r => key === null ? siteName(r).toLowerCase() : r[key];
      rows.sort((a, b) => { const x = value(a), y = value(b); return x < y ? -dir : x > y ? dir : 0; });
      render();
    }
    function render() {
      tbl.textContent = "";
      const tr = el("tr");
      cols.forEach((c, i) => {
        const th = el("th", {class: "sortable", title: "sort by " + c[0]},
                      c[0] + (i === sortBy ? (descending ? " \u25bc" : " \u25b2") : ""));
        th.addEventListener("click", () => sortOn(i));
        tr.appendChild(th);
      });
      tr.appendChild(el("th"));
      tbl.appendChild(tr);
      for (const r of rows) {
        const row = el("tr");
        row.appendChild(siteCell(r));
        for (const c of cols.slice(1)) row.appendChild(el("td", {class: "num"}, c[2](r[c[1]])));
        const bc = el("td", {class: "barcell"});
        const bar = el("div", {class: live ? "bar live" : "bar"});
        bar.style.width = (max > 0 ? 100 * r[barKey] / max : 0) + "%";
        bc.appendChild(bar);
        row.appendChild(bc);
        tbl.appendChild(row);
      }
      // What is shown, for tests and for anyone reading the DOM.
      tbl.setAttribute("data-sort", sortBy < 0 ? "" : cols[sortBy][0] + (descending ? ",desc" : ",asc"));
    }
    render();
  }
  const maxSite = data.sites.reduce((m, s) => Math.max(m, s.est_bytes), 0);
  table("sites", [["site", null], ["est. bytes", "est_bytes", bytes], ["blocks", "blocks", num],
                  ["samples", "samples", num], ["live blocks", "live_blocks", num],
                  ["est. bytes live", "live_est_bytes", bytes]],
        data.sites.slice(), maxSite, "est_bytes", false);
  document.getElementById("sites-note").textContent =
      data.sites.length + " of " + data.sites_total + " sites shown.";
  const maxLeak = data.leaks.reduce((m, s) => Math.max(m, s.live_est_bytes), 0);
  table("leaks", [["site", null], ["est. bytes live", "live_est_bytes", bytes],
                  ["live blocks", "live_blocks", num], ["live samples", "live_samples", num],
                  ["of blocks", "blocks", num]],
        data.leaks.slice(), maxLeak, "live_est_bytes", true);
  document.getElementById("leaks-title").textContent = "Allocated" +
      (wholeTrace ? "" : " in [" + secs(data.window.from_s) + ", " + secs(data.window.to_s) + "]") +
      (data.live_at.at === "end" ? " and never collected" : " and still live at " + when()) +
      ", by site (leak candidates)";
  document.getElementById("leaks-note").textContent = data.leak_sites_total === 0 ?
      "No block allocated in the window is live at " + when() + "." :
      data.leaks.length + " of " + data.leak_sites_total + " sites with live blocks shown.";

  // Round ticks from 0 to `max` (in `unit`s): steps of 1, 2 or 5 times a power of ten.
  function ticks(max, unit, n) {
    const raw = Math.max(max / unit / n, 1e-12);
    const p = Math.pow(10, Math.floor(Math.log10(raw)));
    const step = [1, 2, 5, 10].find(m => m * p >= raw * (1 - 1e-9)) * p;
    const digits = Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
    const out = [];
    for (let i = 0; i * step <= max / unit * (1 + 1e-9); i++)
      out.push({v: i * step * unit, text: (i * step).toFixed(digits)});
    return {step: step * unit, values: out};
  }

  (function timeline() {
    const host = document.getElementById("timeline");
    const readoutEl = document.getElementById("timeline-readout");
    const pts = data.timeline;
    if (!pts.length) { host.appendChild(el("div", {class: "note"}, "No allocations in the trace.")); return; }
    const W = 1100, H = 280, L = 80, R = 20, T = 16, B = 34;
    const svg = svgEl("svg", {viewBox: "0 0 " + W + " " + H, width: "100%"});
    // The axis runs from 0 to the trace's end, in the unit its length reads best in.
    const t1 = Math.max(t.duration_s, 1e-6);
    const tu = t1 < 2e-3 ? [1e-6, "us"] : t1 < 2 ? [1e-3, "ms"] : t1 < 600 ? [1, "s"] : [60, "min"];
    const vtop = Math.max(1, ...pts.map(p => p.max_est_bytes), data.peak ? data.peak.est_bytes : 0);
    let bu = 0;
    while (vtop / Math.pow(1024, bu) >= 1024 && bu + 1 < BYTE_UNITS.length) bu++;
    const yt = ticks(vtop, Math.pow(1024, bu), 5);
    // One round tick at or above the top, so that the peak is never at the frame's edge.
    const last = yt.values[yt.values.length - 1];
    if (last.v < vtop) {
      const n = yt.values.length, digits = last.text.includes(".") ? last.text.split(".")[1].length : 0;
      yt.values.push({v: n * yt.step, text: (n * yt.step / Math.pow(1024, bu)).toFixed(digits)});
    }
    const vmax = yt.values[yt.values.length - 1].v;
    const x = v => L + Math.min(Math.max(v / t1, 0), 1) * (W - L - R);
    const y = v => H - B - (v / vmax) * (H - T - B);
    for (const tk of yt.values) {
      svg.appendChild(svgEl("line", {x1: L, x2: W - R, y1: y(tk.v), y2: y(tk.v), stroke: "#e3e7ee"}));
      const lab = svgEl("text", {x: L - 6, y: y(tk.v) + 4, "text-anchor": "end"});
      lab.textContent = tk.text + " " + BYTE_UNITS[bu];
      svg.appendChild(lab);
    }
    const xt = ticks(t1, tu[0], 8);
    for (const tk of xt.values) {
      svg.appendChild(svgEl("line", {x1: x(tk.v), x2: x(tk.v), y1: H - B, y2: H - B + 4, stroke: "#5a6475"}));
      const lab = svgEl("text", {x: x(tk.v), y: H - 12, "text-anchor": tk.v === 0 ? "start" : "middle"});
      lab.textContent = tk.text + " " + tu[1];
      svg.appendChild(lab);
    }
    svg.appendChild(svgEl("line", {x1: L, x2: W - R, y1: H - B, y2: H - B, stroke: "#5a6475"}));
    const w = data.window;
    let note = "The true live heap: every block allocated and not yet collected, whatever the window. " +
        "Band: the least and the most it held within each step; dot: the peak.";
    if (!wholeTrace) {
      const a = x(w.from_s), b = x(w.to_s === null ? t1 : w.to_s);
      svg.appendChild(svgEl("rect", {x: a, y: T, width: Math.max(b - a, 1), height: H - T - B,
                                     fill: "rgba(240,170,40,.18)"}));
      note += " Shaded: the window (" + secs(w.from_s) + " to " + secs(w.to_s) + ").";
    }
    // The envelope: each step's least and most, so no peak narrower than a step is lost.
    let prev = 0;
    for (const p of pts) {
      const x0 = x(prev), x1 = x(p.t_s);
      svg.appendChild(svgEl("rect", {x: x0, y: y(p.max_est_bytes), width: Math.max(x1 - x0, 1),
        height: Math.max(y(p.min_est_bytes) - y(p.max_est_bytes), 1), fill: "rgba(59,125,224,.28)"}));
      prev = p.t_s;
    }
    svg.appendChild(svgEl("polyline", {
      points: pts.map(p => x(p.t_s) + "," + y(p.live_est_bytes)).join(" "),
      fill: "none", stroke: "#3b7de0", "stroke-width": 2}));
    if (data.live_at.at !== "end") {
      const lx = x(data.live_at.t_s);
      svg.appendChild(svgEl("line", {x1: lx, x2: lx, y1: T, y2: H - B, stroke: "#7a4fc2", "stroke-dasharray": "4 3"}));
      note += " Dashed: the leak candidates' time (" + when() + ").";
    }
    if (data.peak !== null) {
      const px = x(data.peak.t_s), py = y(data.peak.est_bytes);
      svg.appendChild(svgEl("circle", {cx: px, cy: py, r: 4.5, fill: "#d8452b"}));
      const lab = svgEl("text", {x: px + (px > W / 2 ? -8 : 8), y: Math.max(py - 6, T + 8),
                                 "text-anchor": px > W / 2 ? "end" : "start"});
      lab.textContent = "peak " + bytes(data.peak.est_bytes) + " at " + dur(data.peak.t_s);
      svg.appendChild(lab);
    }
    // The hover readout: the step under the pointer, and a cursor line on it.
    const cursor = svgEl("line", {x1: 0, x2: 0, y1: T, y2: H - B, stroke: "#1d2430", "stroke-opacity": ".35"});
    svg.appendChild(cursor);
    function readout(time) {
      let i = pts.findIndex(p => p.t_s >= time);
      if (i < 0) i = pts.length - 1;
      const p = pts[i], from = i > 0 ? pts[i - 1].t_s : 0;
      cursor.setAttribute("x1", x(p.t_s));
      cursor.setAttribute("x2", x(p.t_s));
      readoutEl.textContent = "At " + dur(p.t_s) + ": live heap " + bytes(p.live_est_bytes) +
          " (from " + dur(from) + ": least " + bytes(p.min_est_bytes) + ", most " + bytes(p.max_est_bytes) + ")";
    }
    const overlay = svgEl("rect", {x: L, y: T, width: W - L - R, height: H - T - B, fill: "transparent"});
    overlay.addEventListener("mousemove", ev => {
      const r = svg.getBoundingClientRect();
      readout(((ev.clientX - r.left) / r.width * W - L) / (W - L - R) * t1);
    });
    const rest = data.peak !== null ? data.peak.t_s : t1;
    overlay.addEventListener("mouseleave", () => readout(rest));
    svg.appendChild(overlay);
    readout(rest);
    host.appendChild(svg);
    document.getElementById("timeline-note").textContent = note;
    // What is drawn, for tests and for anyone reading the DOM.
    host.setAttribute("data-x-end", t1);
    host.setAttribute("data-x-ticks", xt.values.map(v => v.v).join(","));
    host.setAttribute("data-x-step", xt.step);
    host.setAttribute("data-y-step", yt.step);
    host.setAttribute("data-y-top", vmax);
    host.setAttribute("data-peak", data.peak === null ? "" : data.peak.t_s + "," + data.peak.est_bytes);
  })();

  // The flame graphs: each an icicle of one tree (root at the top), drawn by the same code.
  const tip = document.getElementById("tip");
  const searchBox = document.getElementById("flame-search");
  const searchNote = document.getElementById("search-note");
  let query = "";
  function matches(name) { return query !== "" && name.toLowerCase().includes(query); }
  function colour(name) {
    let h = 0;
    for (let i = 0; i < name.length; i++) h = (h * 31 + name.charCodeAt(i)) >>> 0;
    return name === "other" ? "hsl(0,0%,78%)" : "hsl(" + (10 + h % 40) + "," + (60 + h % 30) + "%," + (55 + h % 15) + "%)";
  }
  function flameGraph(id, title) {
    const host = document.getElementById(id);
    const pathNote = document.getElementById(id + "-path");
    const ROW = 18, W = 1100;
    let root, parent, depth, focus;
    function draw(f) {
      focus = f;
      host.textContent = "";
      const svg = svgEl("svg", {viewBox: "0 0 " + W + " " + (depth * ROW), width: "100%"});
      const chain = [];
      for (let n = focus; n; n = parent.get(n)) chain.unshift(n);
      const total = focus.v || 1;
      let boxes = 0, hits = 0, hitSamples = 0;
      function box(n, x0, w, row) {
        boxes++;
        const hit = matches(n.n);
        if (hit) { hits++; hitSamples += n.v; }
        const g = svgEl("g");
        const r = svgEl("rect", {x: x0, y: row * ROW, width: Math.max(w, 0.5), height: ROW - 1, fill: colour(n.n)});
        if (hit) r.setAttribute("class", "match");
        g.appendChild(r);
        if (w > 40) {
          const tx = svgEl("text", {x: x0 + 3, y: row * ROW + 13});
          if (hit) tx.setAttribute("class", "match");
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
              " (" + (100 * n.v / (root.v || 1)).toFixed(2) + "% of " + title + ")";
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
        // Heaviest first, "other" (what the bound merged) last.
        let x = x0;
        for (const c of n.c.filter(c => c.n !== "other").concat(n.c.filter(c => c.n === "other"))) {
          const cw = W * c.v / total;
          if (cw >= 0.3) todo.push([c, x, row + 1]);
          x += cw;
        }
      }
      host.appendChild(svg);
      // What is drawn, for tests and for anyone reading the DOM.
      host.setAttribute("data-boxes", boxes);
      host.setAttribute("data-depth", depth);
      host.setAttribute("data-matches", hits);
      host.setAttribute("data-match-samples", hitSamples);
      pathNote.textContent = chain.map(n => n.n).join(" \u2192 ");
    }
    function show(tree, mode) {
      root = tree;
      parent = new Map();
      depth = 0;
      const todo = [[root, 1]];
      while (todo.length) {
        const [n, d] = todo.pop();
        depth = Math.max(depth, d);
        for (const c of n.c) { parent.set(c, n); todo.push([c, d + 1]); }
      }
      host.setAttribute("data-mode", mode);
      if (!root.v) {
        focus = null;
        host.textContent = "";
        host.setAttribute("data-boxes", 0);
        host.setAttribute("data-matches", 0);
        host.appendChild(el("div", {class: "note"}, "No sampled allocations in " + title + "."));
      } else {
        draw(root);
      }
    }
    document.getElementById(id + "-reset").addEventListener("click", () => { if (root.v) draw(root); });
    return {show, redraw: () => { if (focus) draw(focus); }, host};
  }
  const main = flameGraph("flame", "all");
  const inverted = flameGraph("flame-inverted", "all");
  const liveGraph = flameGraph("flame-live", "the live objects");
  const collapse = document.getElementById("flame-collapse");
  collapse.checked = false;
  collapse.addEventListener("change", () => {
    if (collapse.checked) main.show(data.flame_collapsed, "collapsed");
    else main.show(data.flame, "stacks");
    searched();
  });
  main.show(data.flame, "stacks");
  inverted.show(data.flame_inverted, "inverted");
  liveGraph.show(data.flame_live, "live");
  document.getElementById("flame-live-title").textContent = "Flame graph of the objects live at " + when() +
      (wholeTrace ? "" : " (allocated in the window)") + ": " + bytes(data.flame_live.v * data.bytes_per_sample) +
      " estimated";
  // The search: every graph redrawn with the boxes whose name holds the text (any case)
  // marked, and how much of each graph they cover.
  function searched() {
    const parts = [];
    for (const [g, what] of [[main, "allocations"], [inverted, "inverted"], [liveGraph, "live"]]) {
      if (query === "") continue;
      parts.push(what + ": " + g.host.getAttribute("data-matches") + " boxes");
    }
    searchNote.textContent = parts.join(", ");
  }
  searchBox.value = "";
  searchBox.addEventListener("input", () => {
    query = searchBox.value.trim().toLowerCase();
    for (const g of [main, inverted, liveGraph]) g.redraw();
    searched();
  });
  // A link to #collapse-recursion opens the page with the box ticked, as a click would;
  // one to #search=TEXT with TEXT searched; one to #sort=TABLE.HEADING (sites or leaks)
  // with that column's heading clicked once.
  if (location.hash === "#collapse-recursion") collapse.click();
  if (location.hash.startsWith("#sort=")) {
    const spec = decodeURIComponent(location.hash.slice("#sort=".length));
    const dot = spec.indexOf("."), tbl = document.getElementById(spec.slice(0, dot));
    const heading = spec.slice(dot + 1);
    if (dot > 0 && tbl !== null && (tbl.id === "sites" || tbl.id === "leaks"))
      for (const th of tbl.querySelectorAll("th.sortable"))
        if (th.textContent === heading) { th.click(); break; }
  }
  if (location.hash.startsWith("#search=")) {
    searchBox.value = decodeURIComponent(location.hash.slice("#search=".length));
    searchBox.dispatchEvent(new Event("input"));
  }

  document.body.setAttribute("data-report", "ok");
})();
)js";

}  // namespace mpo::memtrace::report
