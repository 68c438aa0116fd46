// clusterperf explore: the page script. Reads the parameters from /api/model, posts the
// current values to /api/eval on every change (one request in flight; the latest values win)
// and shows the answer: tables, bottleneck, best configuration, charts (SVG drawn by the
// server). window.cpExplore exposes the state and the measured update latencies (ms, from the
// request to the rendered chart) for the browser tests. Gantt charts (tpn) are drawn here by
// gantt.js, with grouping and zoom.
"use strict";
(function () {
  // bestDelay: ms of quiet after an update before the slow best-configuration search starts
  const st = { params: [], values: {}, seq: 0, done: 0, inflight: false, pending: false, latencies: [], fetches: [], last: null, error: "", bestDelay: 300, bestAbort: null };
  window.cpExplore = st;
  // the per-server token the server put in the page: the API answers requests carrying it
  const TOKEN_HEADER = "X-Clusterperf-Token";
  const tokenMeta = document.querySelector('meta[name="clusterperf-token"]');
  const token = tokenMeta ? tokenMeta.content : "";
  const $ = (id) => document.getElementById(id);
  const el = (tag, attrs, text) => {
    const e = document.createElement(tag);
    for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  };

  function control(p) {
    const div = el("div", { class: "param", id: "param-" + p.id });
    const lab = el("label", { for: "num-" + p.id }, p.label + (p.unit ? " (" + p.unit + ")" : ""));
    const row = el("div", { class: "row" });
    const range = el("input", { type: "range", id: "range-" + p.id, min: p.min, max: p.max, step: p.step || "any", value: p.value, "aria-label": p.label });
    // shown to 8 significant digits (0.05 rather than 0.05000000000000001); the exact default
    // is sent until the user types a value
    const num = el("input", { type: "number", id: "num-" + p.id, min: p.min, max: p.max, step: p.integer ? 1 : "any", value: +p.value.toPrecision(8) });
    const set = (v, from) => {
      if (v === "" || isNaN(Number(v))) return;
      st.values[p.id] = Number(v);
      if (from !== range) range.value = v;
      if (from !== num) num.value = v;
      div.classList.toggle("changed", Number(v) !== p.value);
      update();
    };
    range.addEventListener("input", () => set(range.value, range));
    num.addEventListener("change", () => set(num.value, num));
    row.append(range, num);
    div.append(lab, row);
    return div;
  }

  function table(t) {
    const frag = document.createDocumentFragment();
    if (t.title) frag.append(el("h3", {}, t.title));
    const tab = el("table");
    const tr = el("tr");
    for (const c of t.columns) tr.append(el("th", {}, c));
    const head = el("thead");
    head.append(tr);
    tab.append(head);
    const tb = el("tbody");
    const hl = new Set(t.highlight || []);
    t.rows.forEach((r, i) => {
      const row = el("tr", hl.has(i) ? { class: "hl" } : {});
      for (const c of r) row.append(el("td", {}, c));
      tb.append(row);
    });
    tab.append(tb);
    frag.append(tab);
    return frag;
  }

  function render(r) {
    $("bottleneck").textContent = r.bottleneck || "–";
    $("best-label").textContent = r.best_label || "Best configuration";
    $("best").textContent = r.best || "–";
    $("method").textContent = r.method;
    // An approximation's error estimate (the contract's error_estimate): its rel_error in
    // the method line, what it was measured against on hover.
    const ee = r.error_estimate;
    const hasEE = !r.exact && ee && typeof ee.rel_error === "number";
    $("exact").textContent = r.exact ? "exact" : "approximate" + (hasEE ? ", error estimate " + (100 * ee.rel_error).toPrecision(2) + " %" : "");
    $("exact").title = hasEE ? (ee.against || "") : "";
    const w = $("warnings");
    w.replaceChildren(...(r.warnings || []).map((s) => el("p", { class: "warn" }, s)));
    const charts = $("charts");
    charts.replaceChildren(...r.charts.map((c) => {
      const f = el("figure", { id: "chart-" + c.id, class: "chart" });
      if (c.spans && c.spans.length) window.cpGantt.draw(f, c);
      else f.innerHTML = c.svg;
      return f;
    }));
    const tabs = $("tables");
    tabs.replaceChildren(...r.tables.map(table));
    $("notes").replaceChildren(...(r.notes || []).map((s) => el("li", {}, s)));
  }

  async function update() {
    if (st.inflight) { st.pending = true; return; }
    st.inflight = true;
    const seq = ++st.seq;
    const t0 = performance.now();
    try {
      const resp = await fetch("api/eval", { method: "POST", headers: { "Content-Type": "application/json", [TOKEN_HEADER]: token }, body: JSON.stringify({ values: st.values }) });
      const body = await resp.json();
      st.fetches.push(performance.now() - t0); // request, server, JSON: the rest is drawing
      if (!resp.ok) {
        st.error = body.error || resp.statusText;
        $("error").textContent = st.error;
        $("error").hidden = false;
      } else {
        st.error = "";
        $("error").hidden = true;
        render(body);
        // force layout of the new charts so that the time includes rendering them
        document.querySelectorAll("#charts svg").forEach((s) => s.getBoundingClientRect());
        st.last = body;
        clearTimeout(st.bestTimer);
        if (st.bestAbort) st.bestAbort.abort();
        if (body.best_pending) st.bestTimer = setTimeout(() => bestSearch(seq), st.bestDelay);
      }
      const ms = performance.now() - t0;
      st.latencies.push(ms);
      $("latency").textContent = ms.toFixed(1) + " ms";
    } catch (e) {
      console.error("clusterperf explore: update failed:", e);
      st.error = String(e);
      $("error").textContent = "request failed: " + st.error;
      $("error").hidden = false;
    } finally {
      st.inflight = false;
      st.done = seq;
      document.body.dataset.done = String(seq);
      if (st.pending) { st.pending = false; update(); }
    }
  }

  // the slow best-configuration search (tpn allocations), after the point is drawn; a newer
  // update's answer wins
  async function bestSearch(seq) {
    if (seq !== st.seq) return;
    st.bestDone = 0;
    const ctl = new AbortController();
    st.bestAbort = ctl;
    try {
      const resp = await fetch("api/best", { method: "POST", headers: { "Content-Type": "application/json", [TOKEN_HEADER]: token }, body: JSON.stringify({ values: st.values }), signal: ctl.signal });
      const body = await resp.json();
      if (seq !== st.seq) return;
      $("best").textContent = resp.ok ? body.best : "no allocation advice: " + body.error;
      st.bestDone = seq;
    } catch (e) {
      if (e.name !== "AbortError") $("best").textContent = "no allocation advice: " + e;
    }
  }

  async function download(path, fallback) {
    const resp = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json", [TOKEN_HEADER]: token }, body: JSON.stringify({ values: st.values }) });
    if (!resp.ok) {
      const b = await resp.json();
      $("error").textContent = b.error;
      $("error").hidden = false;
      return;
    }
    const blob = await resp.blob();
    const m = /filename="([^"]+)"/.exec(resp.headers.get("Content-Disposition") || "");
    const a = el("a", { href: URL.createObjectURL(blob), download: m ? m[1] : fallback });
    document.body.append(a);
    a.click();
    a.remove();
  }

  async function init() {
    const resp = await fetch("api/model", { headers: { [TOKEN_HEADER]: token } });
    const m = await resp.json();
    st.params = m.params;
    document.title = m.name + " · clusterperf explore";
    $("title").textContent = m.name;
    $("kind").textContent = m.kind;
    const groups = new Map();
    for (const p of m.params) {
      st.values[p.id] = p.value;
      if (!groups.has(p.group)) {
        const fs = el("fieldset");
        fs.append(el("legend", {}, p.group));
        groups.set(p.group, fs);
      }
      groups.get(p.group).append(control(p));
    }
    $("controls").replaceChildren(...groups.values());
    $("save").addEventListener("click", () => download("api/save", "model.yaml"));
    $("export").addEventListener("click", () => download("api/report", "report.html"));
    $("reset").addEventListener("click", () => {
      for (const p of st.params) {
        st.values[p.id] = p.value;
        $("range-" + p.id).value = p.value;
        $("num-" + p.id).value = p.value;
        $("param-" + p.id).classList.remove("changed");
      }
      update();
    });
    update();
  }
  init();
})();
