// The general board's front end: draws the Python-side `view` on the `geometry` of any game's layout
// (hex-pointy, hex-flat, square) and reports clicks and button presses with model.send. It decides
// nothing about the rules and never names a server path; it loads nothing from outside the page.

const SVG = "http://www.w3.org/2000/svg";
const FALLBACK = ["#e7e1cf", "#cfd8c4", "#d6cfe0", "#c9dbe6", "#e6d3c5"];

function el(tag, attrs = {}, parent = null, text = null, ns = null) {
  const e = ns ? document.createElementNS(ns, tag) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== null) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}
const sv = (tag, attrs, parent, text = null) => el(tag, attrs, parent, text, SVG);

function heatColour(v) {
  // blue (negative) .. transparent .. red (positive); |v| <= 1
  const a = Math.min(1, Math.abs(v)) * 0.65;
  return v >= 0 ? `rgba(220,40,30,${a})` : `rgba(30,90,220,${a})`;
}

function render({ model, el: root }) {
  root.classList.add("gb-root");
  const head = el("div", { class: "gb-head" }, root);
  const title = el("span", { class: "gb-title" }, head);
  const busy = el("span", { class: "gb-busy" }, head);
  const status = el("div", { class: "gb-status", role: "status" }, root);
  const body = el("div", { class: "gb-body" }, root);
  const boardBox = el("div", { class: "gb-board" }, body);
  const panel = el("div", { class: "gb-panel" }, body);
  const message = el("div", { class: "gb-message" }, panel);
  const buttons = el("div", { class: "gb-buttons" }, panel);
  const hover = el("div", { class: "gb-hover" }, panel);
  const controls = el("div", { class: "gb-controls" }, panel);
  const mk = (label, type, extra = {}) => {
    const b = el("button", { class: "gb-btn", "data-action": type }, controls, label);
    b.addEventListener("click", () => model.send({ type, ...extra }));
    return b;
  };
  const undoBtn = mk("Undo", "undo");
  const redoBtn = mk("Redo", "redo");
  const rollBtn = mk("Roll", "roll");
  mk("Agent move", "agent_move");
  mk("Evaluate", "evaluate");
  const autoBox = el("label", { class: "gb-auto" }, controls);
  const auto = el("input", { type: "checkbox" }, autoBox);
  autoBox.appendChild(document.createTextNode(" roll automatically"));
  auto.addEventListener("change", () => model.send({ type: "auto_roll", on: auto.checked }));
  const evalLine = el("div", { class: "gb-eval" }, panel);
  const diffBox = el("div", { class: "gb-diff" }, panel);
  const checkLine = el("div", { class: "gb-check" }, panel);
  const moves = el("ol", { class: "gb-moves" }, panel);

  // new game, agents, heat, rule diff, scenarios
  const tools = el("details", { class: "gb-tools" }, panel);
  el("summary", {}, tools, "Game, agents, heat, rule diff, scenarios");
  const ng = el("div", { class: "gb-row" }, tools);
  const rulesIn = el("input", { type: "text", placeholder: "rules k=v,...", class: "gb-rules" }, ng);
  const seedIn = el("input", { type: "text", placeholder: "seed", size: "6" }, ng);
  el("button", { class: "gb-btn" }, ng, "New game").addEventListener("click", () =>
    model.send({ type: "new_game", rules: rulesIn.value, seed: seedIn.value.trim() }));
  const ag = el("div", { class: "gb-row" }, tools);
  const seatSel = el("select", { class: "gb-seat" }, ag);
  const specIn = el("input", { type: "text", value: "greedy", size: "16", class: "gb-spec" }, ag);
  el("button", { class: "gb-btn" }, ag, "Set agent").addEventListener("click", () =>
    model.send({ type: "agent", seat: Number(seatSel.value), spec: specIn.value }));
  el("button", { class: "gb-btn" }, ag, "Human").addEventListener("click", () =>
    model.send({ type: "agent", seat: Number(seatSel.value), spec: "" }));
  const hr = el("div", { class: "gb-row" }, tools);
  const heatSel = el("select", { class: "gb-heat" }, hr);
  const heatSeat = el("select", { class: "gb-heat-seat" }, hr);
  const sendHeat = () => model.send({ type: "heat", layer: heatSel.value, player: Number(heatSeat.value) });
  heatSel.addEventListener("change", sendHeat);
  heatSeat.addEventListener("change", sendHeat);
  const dr = el("div", { class: "gb-row" }, tools);
  const diffIn = el("input", { type: "text", placeholder: "variant k=v (rule-change diff)", class: "gb-diffin" }, dr);
  el("button", { class: "gb-btn" }, dr, "Compare").addEventListener("click", () =>
    model.send({ type: "compare", change: diffIn.value }));
  const sr = el("div", { class: "gb-row" }, tools);
  el("button", { class: "gb-btn" }, sr, "List scenarios").addEventListener("click", () => model.send({ type: "catalog" }));
  el("button", { class: "gb-btn" }, sr, "◀ check").addEventListener("click", () => model.send({ type: "check", delta: -1 }));
  el("button", { class: "gb-btn" }, sr, "check ▶").addEventListener("click", () => model.send({ type: "check", delta: 1 }));
  const picker = el("select", { class: "gb-picker", size: "6" }, tools);
  picker.addEventListener("change", () => model.send({ type: "pick_scenario", name: picker.value }));
  const legend = el("details", { class: "gb-legend" }, panel);
  el("summary", {}, legend, "Legend");

  let svg = null, cellEls = {}, layers = {}, geo = null, groupOpen = null;

  function build() {
    geo = model.get("geometry");
    boardBox.innerHTML = "";
    cellEls = {};
    const vb = geo.viewbox;
    svg = sv("svg", { viewBox: vb.join(" "), class: `gb-svg gb-${geo.shape}`, role: "img" }, boardBox);
    const [cells, heat, marks, pieces, over] = ["cells", "heat", "marks", "pieces", "over"].map(
      (n) => sv("g", { class: `gb-layer-${n}` }, svg));
    layers = { cells, heat, marks, pieces, over };
    for (const c of geo.cells) {
      const poly = sv("polygon", { points: c.points, class: "gb-cell", "data-cell": c.name }, cells);
      sv("title", {}, poly, c.name);
      cellEls[c.name] = { poly, c };
    }
    svg.addEventListener("click", (ev) => {
      const t = ev.target.closest ? ev.target.closest("[data-cell]") : null;
      if (t) model.send({ type: "click", cell: t.getAttribute("data-cell") });
    });
    svg.addEventListener("mouseover", (ev) => {
      const t = ev.target.closest ? ev.target.closest("[data-cell]") : null;
      const v = model.get("view");
      if (!t || !v || !v.previews) return;
      const p = v.previews[t.getAttribute("data-cell")];
      hover.textContent = p ? p.text : "";
    });
    seatSel.innerHTML = "";
    heatSeat.innerHTML = "";
    geo.players.forEach((p, i) => {
      el("option", { value: String(i) }, seatSel, p);
      el("option", { value: String(i) }, heatSeat, p);
    });
    heatSel.innerHTML = "";
    el("option", { value: "" }, heatSel, "no heat layer");
    for (const h of geo.heat_layers) el("option", { value: h }, heatSel, h);
    legend.querySelectorAll("div").forEach((d) => d.remove());
    for (const l of geo.legend) {
      const row = el("div", { class: "gb-legend-row" }, legend);
      el("span", { class: "gb-swatch", style: `background:${l.colour}` }, row);
      row.appendChild(document.createTextNode(" " + l.words));
    }
    draw();
  }

  function terrainFill(cls) {
    for (const l of geo.legend) if (l.cls === cls) return l.colour;
    if (!cls) return null;
    let h = 0;
    for (const ch of cls) h = (h * 31 + ch.charCodeAt(0)) % 997;
    return FALLBACK[h % FALLBACK.length];
  }

  function draw() {
    const v = model.get("view");
    if (!geo || !v || !v.glyphs) return;
    title.textContent = v.title + (v.scenario ? ` — ${v.scenario}` : "") + (v.rules ? ` (${v.rules})` : "");
    status.textContent = v.status;
    message.textContent = v.message || "";
    message.className = `gb-message gb-${v.level || "info"}`;
    busy.textContent = model.get("busy") || "";
    undoBtn.disabled = !v.can_undo;
    redoBtn.disabled = !v.can_redo;
    rollBtn.disabled = !v.chance;
    auto.checked = !!v.auto_roll;
    evalLine.textContent = v.evaluation || "";
    checkLine.textContent = v.check || "";
    const s = geo.size;
    for (const k of ["heat", "marks", "pieces", "over"]) layers[k].innerHTML = "";
    const lit = new Set(v.lit), sel = new Set(v.selection);
    const removed = new Set();
    for (const p of Object.values(v.previews || {})) for (const r of p.removed) removed.add(r);
    for (const g of v.glyphs) {
      const ce = cellEls[g.cell];
      if (!ce) continue;
      const fill = terrainFill(g.terrain);
      ce.poly.setAttribute("class", `gb-cell t-${g.terrain || "none"}` + (lit.has(g.cell) ? " gb-lit" : "")
        + (sel.has(g.cell) ? " gb-sel" : ""));
      ce.poly.style.fill = fill || "";
      const { x, y } = ce.c;
      if (g.marks.length) {
        const m = g.marks.join(" ");
        if (/fresh|done|shadow|attacker|target|flag|camp/.test(m)) {
          sv("circle", { cx: x + s * 0.55, cy: y - s * 0.55, r: s * 0.12, class: `gb-mark m-${g.marks[0]}`, "data-cell": g.cell }, layers.marks);
        }
      }
      if (g.piece) {
        const col = geo.colours[g.owner] || "#888", ink = geo.inks[g.owner] || "#fff";
        const grp = sv("g", { class: "gb-piece", "data-cell": g.cell, "data-owner": String(g.owner) }, layers.pieces);
        sv("circle", { cx: x, cy: y, r: s * 0.62, fill: col, class: "gb-disc" }, grp);
        if (g.facing !== null && g.facing !== undefined) {
          // facing: degrees clockwise from north (0 = N, 90 = E), an arrowhead at the disc's rim
          const a = (g.facing - 90) * Math.PI / 180, r = s * 0.62;
          const tip = [x + Math.cos(a) * r * 1.35, y + Math.sin(a) * r * 1.35];
          const l = [x + Math.cos(a + 0.5) * r, y + Math.sin(a + 0.5) * r];
          const rr = [x + Math.cos(a - 0.5) * r, y + Math.sin(a - 0.5) * r];
          sv("polygon", { points: `${tip.join(",")} ${l.join(",")} ${rr.join(",")}`, class: "gb-facing" }, grp);
        }
        sv("text", { x, y: y + s * 0.22, "font-size": s * 0.62, fill: ink, class: "gb-letter" }, grp, g.piece);
        g.badges.slice(0, 3).forEach((b, i) => {
          sv("text", { x: x - s * 0.8, y: y - s * 0.55 + i * s * 0.42, "font-size": s * 0.34, class: "gb-badge" }, grp, b);
        });
      } else if (g.badges.length) {
        sv("text", { x, y: y + s * 0.12, "font-size": s * 0.32, class: "gb-badge gb-center" }, layers.pieces, g.badges[0]);
      }
      if (v.heat && v.heat[g.cell] !== undefined) {
        sv("polygon", { points: ce.c.points, fill: heatColour(v.heat[g.cell]), class: "gb-heatcell" }, layers.heat);
      }
      if (lit.has(g.cell)) {
        sv("circle", { cx: x, cy: y, r: s * (g.piece ? 0.78 : 0.22), class: g.piece ? (v.selection.length ? "gb-target gb-ring" : "gb-target gb-ring gb-source") : "gb-target gb-dot",
          "data-cell": g.cell }, layers.over);
      }
      if (removed.has(g.cell) && lit.has(g.cell)) {
        sv("line", { x1: x - s * 0.5, y1: y - s * 0.5, x2: x + s * 0.5, y2: y + s * 0.5, class: "gb-doom" }, layers.over);
      }
    }
    // odds and other preview labels on the targets (Pole's n/36)
    for (const [cell, p] of Object.entries(v.previews || {})) {
      for (const [tc, odds] of Object.entries(p.odds || {})) {
        const ce = cellEls[tc];
        if (!ce) continue;
        const { x, y } = ce.c;
        sv("rect", { x: x - s * 0.78, y: y + s * 0.3, width: s * 1.56, height: s * 0.5, rx: s * 0.1, class: "gb-odds-bg" }, layers.over);
        sv("text", { x, y: y + s * 0.68, "font-size": s * 0.42, class: "gb-odds", "data-odds-for": cell }, layers.over, odds);
      }
    }
    // purchase cells next to the King (big chess): a blue cross on lit empty cells when buys are offered
    const buyLit = v.buy_cells || [];
    for (const cell of buyLit) {
      const ce = cellEls[cell];
      if (!ce) continue;
      const { x, y } = ce.c, d = s * 0.45;
      sv("path", { d: `M${x - d},${y - d}L${x + d},${y + d}M${x + d},${y - d}L${x - d},${y + d}`, class: "gb-buy" }, layers.marks);
    }
    drawButtons(v);
    drawMoves(v);
    drawDiff(v);
    drawCatalog();
  }

  function drawButtons(v) {
    buttons.innerHTML = "";
    const list = v.buttons || [];
    const groups = new Map();
    for (const b of list) {
      const k = b.group || b.text;
      if (!groups.has(k)) groups.set(k, []);
      groups.get(k).push(b);
    }
    const grouped = list.length > 24 && groups.size < list.length;
    if (grouped && groupOpen && groups.has(groupOpen)) {
      el("button", { class: "gb-btn gb-back" }, buttons, "◀ " + groupOpen).addEventListener("click", () => { groupOpen = null; drawButtons(v); });
      for (const b of groups.get(groupOpen)) choice(b, b.text.slice(groupOpen.length) || b.text);
      return;
    }
    groupOpen = null;
    if (grouped) {
      for (const [k, bs] of groups) {
        const btn = el("button", { class: "gb-btn gb-choice gb-group", title: `${bs.length} choices` }, buttons, `${k} (${bs.length})`);
        btn.addEventListener("click", () => { groupOpen = k; drawButtons(v); });
      }
      return;
    }
    for (const b of list) choice(b, b.text);
  }

  function choice(b, label) {
    const btn = el("button", { class: "gb-btn gb-choice", title: b.hint || b.text, "data-text": b.text }, buttons,
      b.hint && b.hint !== b.text ? `${label} — ${b.hint.replace(/ \(.*\)$/, "").slice(0, 80)}` : label);
    btn.addEventListener("click", () => model.send({ type: "choose", index: b.index }));
    btn.addEventListener("mouseenter", () => { hover.textContent = b.hint || b.text; });
  }

  function drawMoves(v) {
    moves.innerHTML = "";
    let cur = null;
    for (const r of v.moves || []) {
      const li = el("li", { class: "gb-move" + (r.chance ? " gb-roll" : "") + (r.current ? " gb-current" : ""),
        style: `margin-left:${r.depth}em`, "data-node": String(r.id) }, moves, `${r.player}: ${r.text}`);
      li.addEventListener("click", () => model.send({ type: "goto", node: r.id }));
      if (r.current) cur = li;
    }
    if (cur) cur.scrollIntoView({ block: "nearest" });
  }

  function drawDiff(v) {
    diffBox.innerHTML = "";
    const d = v.diff;
    if (!d) return;
    el("div", {}, diffBox, `${d.change}: +${d.n_added} / −${d.n_removed} (same ${d.same})`);
    if (d.added.length) el("div", { class: "gb-added" }, diffBox, "+ " + d.added.join(" "));
    if (d.removed.length) el("div", { class: "gb-removed" }, diffBox, "− " + d.removed.join(" "));
  }

  function drawCatalog() {
    const rows = model.get("catalog") || [];
    if (picker.options.length === rows.length) return;
    picker.innerHTML = "";
    for (const r of rows) el("option", { value: r.name }, picker, `${r.verdict} · ${r.name} — ${r.title}`);
  }

  model.on("change:geometry", build);
  model.on("change:view", draw);
  model.on("change:busy", () => { busy.textContent = model.get("busy") || ""; root.classList.toggle("gb-is-busy", !!model.get("busy")); });
  model.on("change:catalog", drawCatalog);
  build();
}

export default { render };
