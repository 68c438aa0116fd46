// clusterperf explore: the Gantt chart of a Petri-net program (tpn), drawn in the page so that
// its rows can be grouped — by node (the workstation a process runs on) or by name prefix
// (W0 … W47 → W) — groups collapsed and expanded, and time zoomed (+/−, pan, drag across a
// range, reset) without a request to the server. Each chart's view (grouping, collapsed
// groups, time window) survives the updates that follow a slider move. window.cpGantt exposes
// the views for the browser tests.
"use strict";
(function () {
  // report's palette (report.Color): a span's colour is its description's (report.KindColours)
  const palette = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442", "#882255", "#787878", "#665500", "#332288"];
  const NS = "http://www.w3.org/2000/svg";
  const views = {}; // chart id → { by, collapsed: {group: bool}, collapseAll, win: null | [t0, t1] }
  window.cpGantt = { views, draw, prefix };

  // prefix is a process name without its trailing index: "W12" → "W", "rank_3" → "rank",
  // "p[7]" → "p"; a name without one is its own prefix.
  function prefix(name) {
    const m = /^(.*?)[\s_.\-[(]*\d+[\])]*$/.exec(name);
    return m && m[1] ? m[1] : name;
  }

  function niceTicks(lo, hi, n) {
    if (!(hi > lo)) hi = lo + 1;
    const raw = (hi - lo) / n;
    const mag = Math.pow(10, Math.floor(Math.log10(raw)));
    let step = mag;
    for (const m of [1, 2, 5, 10]) if (m * mag >= raw) { step = m * mag; break; }
    const out = [];
    for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(+v.toPrecision(12));
    return out;
  }
  const tick = (v) => (v === 0 ? "0" : String(+v.toPrecision(4)));

  function svgEl(tag, attrs, text) {
    const e = document.createElementNS(NS, tag);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function view(c, procs) {
    if (!views[c.id]) {
      const nodes = new Set(procs.map((p) => p.node));
      const many = procs.length > 16;
      views[c.id] = { by: many ? (nodes.size > 1 ? "node" : "prefix") : "none", collapsed: {}, collapseAll: procs.length > 32, win: null };
    }
    return views[c.id];
  }

  // layout returns the rows to draw: per process, or per group a header (with the bars of all
  // its processes overlaid when collapsed) followed by its processes when expanded.
  function layout(procs, v) {
    if (v.by === "none") return procs.map((p) => ({ label: p.name, bars: p.bars }));
    const key = v.by === "node" ? (p) => p.node || "(no node)" : (p) => prefix(p.name);
    const groups = new Map();
    for (const p of procs) {
      const k = key(p);
      if (!groups.has(k)) groups.set(k, []);
      groups.get(k).push(p);
    }
    const out = [];
    for (const [k, ps] of groups) {
      const closed = k in v.collapsed ? v.collapsed[k] : v.collapseAll;
      out.push({ label: (closed ? "▸ " : "▾ ") + k + " (" + ps.length + ")", group: k, closed, bars: closed ? ps.flatMap((p) => p.bars) : [] });
      if (!closed) for (const p of ps) out.push({ label: p.name, bars: p.bars, indent: true });
    }
    return out;
  }

  function draw(fig, c) {
    const procs = [];
    const byName = new Map();
    let tmax = 0;
    for (const b of c.spans) {
      if (!byName.has(b.row)) {
        const p = { name: b.row, node: b.group || "", bars: [] };
        byName.set(b.row, p);
        procs.push(p);
      }
      byName.get(b.row).bars.push(b);
      tmax = Math.max(tmax, b.end);
    }
    const v = view(c, procs);
    const full = niceTicks(0, tmax, 6);
    const xmax = Math.max(tmax, full[full.length - 1]);
    let [x0, x1] = v.win || [0, xmax];
    const rows = layout(procs, v);
    const kinds = [...new Set(c.spans.map((b) => b.kind))].sort();
    const colour = Object.fromEntries(c.spans.map((b) => [b.kind, palette[(b.color || 0) % palette.length]]));

    const W = 760, L = 130, R = 16, T = 28, rowH = 16;
    const legendH = 18 * Math.ceil(kinds.length / 3);
    const B = 44 + legendH;
    const H = T + rowH * rows.length + B;
    const px = (x) => L + ((x - x0) / (x1 - x0)) * (W - L - R);
    const svg = svgEl("svg", { xmlns: NS, width: W, height: H, viewBox: `0 0 ${W} ${H}`, "font-family": "sans-serif", "font-size": 12 });
    svg.append(svgEl("text", { x: L, y: 18, "font-weight": "bold" }, c.title));
    const clipID = "clip-" + c.id;
    const defs = svgEl("defs", {});
    const cp = svgEl("clipPath", { id: clipID });
    cp.append(svgEl("rect", { x: L, y: T, width: W - L - R, height: H - T - B }));
    defs.append(cp);
    svg.append(defs);
    svg.append(svgEl("rect", { x: L, y: T, width: W - L - R, height: H - T - B, fill: "none", stroke: "#999" }));
    for (const t of niceTicks(x0, x1, 6)) {
      if (t < x0 || t > x1) continue;
      svg.append(svgEl("line", { x1: px(t), x2: px(t), y1: T, y2: H - B, stroke: "#eee" }));
      svg.append(svgEl("text", { x: px(t), y: H - B + 15, "text-anchor": "middle" }, tick(t)));
    }
    svg.append(svgEl("text", { x: (L + W - R) / 2, y: H - B + 31, "text-anchor": "middle" }, c.x_label));
    const bars = svgEl("g", { "clip-path": `url(#${clipID})` });
    rows.forEach((r, i) => {
      const y = T + rowH * i;
      if (r.group !== undefined) {
        svg.append(svgEl("rect", { x: 2, y, width: W - 4, height: rowH, fill: "#f1f4f8" }));
        const head = svgEl("g", { class: "ghead", "data-group": r.group, role: "button" });
        head.append(svgEl("text", { x: 4, y: y + rowH - 4, "font-weight": "600" }, r.label));
        head.addEventListener("click", () => {
          v.collapsed[r.group] = !r.closed;
          draw(fig, c);
        });
        svg.append(head);
      } else {
        svg.append(svgEl("text", { x: L - 6, y: y + rowH - 4, "text-anchor": "end" }, r.label));
      }
      for (const b of r.bars) {
        if (b.end < x0 || b.start > x1) continue;
        const a = { x: px(b.start).toFixed(2), y: (y + rowH * (b.thin ? 0.1 : 0.15)).toFixed(1), width: Math.max(0.5, px(b.end) - px(b.start)).toFixed(2), height: (rowH * (b.thin ? 0.3 : 0.7)).toFixed(1), fill: colour[b.kind] };
        if (r.closed) a["fill-opacity"] = 0.35;
        bars.append(svgEl("rect", a));
      }
    });
    svg.append(bars);
    kinds.forEach((k, i) => {
      const x = L + (i % 3) * 210, y = H - legendH + Math.floor(i / 3) * 18 + 4;
      svg.append(svgEl("line", { x1: x, x2: x + 22, y1: y, y2: y, stroke: colour[k], "stroke-width": 3 }));
      svg.append(svgEl("text", { x: x + 27, y: y + 4 }, k));
    });
    // drag across the plot to zoom into a time range
    const sel = svgEl("rect", { y: T, height: H - T - B, fill: "#0072B2", "fill-opacity": 0.15, visibility: "hidden" });
    svg.append(sel);
    const toX = (ev) => {
      const r = svg.getBoundingClientRect();
      return Math.min(W - R, Math.max(L, ((ev.clientX - r.left) * W) / r.width));
    };
    let start = null;
    svg.addEventListener("mousedown", (ev) => {
      const x = toX(ev);
      if (x > L && ev.button === 0) { start = x; sel.setAttribute("x", x); sel.setAttribute("width", 0); sel.setAttribute("visibility", "visible"); ev.preventDefault(); }
    });
    svg.addEventListener("mousemove", (ev) => {
      if (start === null) return;
      const x = toX(ev);
      sel.setAttribute("x", Math.min(start, x));
      sel.setAttribute("width", Math.abs(x - start));
    });
    const end = (ev) => {
      if (start === null) return;
      const x = toX(ev);
      const a = Math.min(start, x), b = Math.max(start, x);
      start = null;
      sel.setAttribute("visibility", "hidden");
      if (b - a < 4) return;
      const inv = (p) => x0 + ((p - L) / (W - L - R)) * (x1 - x0);
      setWin(inv(a), inv(b));
    };
    svg.addEventListener("mouseup", end);
    svg.addEventListener("mouseleave", end);

    function setWin(a, b) {
      const minW = xmax / 1e4;
      if (b - a < minW) { const m = (a + b) / 2; a = m - minW / 2; b = m + minW / 2; }
      if (a <= 0 && b >= xmax) v.win = null;
      else v.win = [Math.max(0, a), Math.min(xmax, b)];
      draw(fig, c);
    }
    const tools = document.createElement("div");
    tools.className = "gantt-tools";
    const btn = (label, title, fn, id) => {
      const e = document.createElement("button");
      e.type = "button";
      e.textContent = label;
      e.title = title;
      if (id) e.id = id;
      e.addEventListener("click", fn);
      tools.append(e);
    };
    const lab = document.createElement("label");
    lab.textContent = "rows ";
    const pick = document.createElement("select");
    pick.id = "gantt-group-" + c.id;
    for (const [val, text] of [["none", "one per process"], ["node", "grouped by node"], ["prefix", "grouped by name prefix"]]) {
      const o = document.createElement("option");
      o.value = val;
      o.textContent = text;
      pick.append(o);
    }
    pick.value = v.by;
    pick.addEventListener("change", () => { v.by = pick.value; v.collapsed = {}; draw(fig, c); });
    lab.append(pick);
    tools.append(lab);
    btn("expand all", "show every process", () => { v.collapsed = {}; v.collapseAll = false; draw(fig, c); }, "gantt-expand-" + c.id);
    btn("collapse all", "one row per group", () => { v.collapsed = {}; v.collapseAll = true; draw(fig, c); }, "gantt-collapse-" + c.id);
    const span = x1 - x0, mid = (x0 + x1) / 2;
    btn("+", "zoom in (or drag across the chart)", () => setWin(mid - span / 4, mid + span / 4), "gantt-zoomin-" + c.id);
    btn("−", "zoom out", () => setWin(mid - span, mid + span), "gantt-zoomout-" + c.id);
    btn("◀", "earlier", () => { const a = Math.max(0, x0 - span / 4); setWin(a, a + span); });
    btn("▶", "later", () => { const b = Math.min(xmax, x1 + span / 4); setWin(b - span, b); });
    btn("reset", "whole run", () => { v.win = null; draw(fig, c); }, "gantt-reset-" + c.id);
    const win = document.createElement("span");
    win.className = "win";
    win.textContent = `${tick(x0)} – ${tick(x1)} s of ${tick(tmax)} s · ${rows.length} rows`;
    tools.append(win);
    fig.classList.add("gantt");
    fig.dataset.rows = String(rows.length);
    fig.dataset.window = JSON.stringify([x0, x1]);
    fig.replaceChildren(tools, svg);
  }
})();
