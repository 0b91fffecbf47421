// HexBoard front end: draws the Python-side `view` on the `geometry` from viz.layout and reports
// clicks and button presses with model.send. It decides nothing about the rules.

const SVG = "http://www.w3.org/2000/svg";
const PIECE_NAMES = { F: "feudal", K: "knight", P: "pikeman", C: "cavalry", A: "archer", I: "infantryman" };
const OVERLAYS = ["zones", "markers", "aura", "zone_control", "threat"];

function svgEl(tag, attrs = {}, parent = null) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

function htmlEl(tag, attrs = {}, parent = null, text = null) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== null) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}

// Hex names in board order, rebuilt from the same rule as the engine (files a..l without j).
function hexNames() {
  const out = [];
  const files = "abcdefghikl";
  for (let q = 0; q < 11; q++) {
    const n = 11 - Math.abs(q - 5);
    for (let r = 1; r <= n; r++) out.push(files[q] + r);
  }
  return out;
}

function heatColour(v) {
  // Translucent red for positive values, blue for negative ones (values arrive scaled to -1..1).
  if (v < 0) return `rgba(40, 90, 220, ${Math.min(0.45, -v * 0.45)})`;
  return `rgba(230, 60, 30, ${Math.min(0.45, v * 0.45)})`;
}

function render({ model, el }) {
  const names = hexNames();
  const index = Object.fromEntries(names.map((n, i) => [n, i]));
  const root = htmlEl("div", { class: "tf-root" }, el);

  // ---------------------------------------------------------------- the board
  const geo = model.get("geometry");
  const svg = svgEl("svg", {
    class: "tf-svg",
    width: geo.width,
    height: geo.height,
    viewBox: `0 0 ${geo.width} ${geo.height}`,
  }, root);
  const layers = {};
  for (const name of ["hexes", "heat", "zones", "aura", "last", "targets", "markers", "pieces", "labels"]) {
    layers[name] = svgEl("g", { class: `tf-layer-${name}` }, svg);
  }
  const centre = (h) => geo.centres[index[h]];
  const size = geo.corners[0][0][0] - geo.centres[0][0]; // centre to corner: the first corner points east
  const points = (h) => geo.corners[index[h]].map((p) => p.join(",")).join(" ");
  const polys = {};
  names.forEach((h) => {
    polys[h] = svgEl("polygon", { points: points(h), "data-hex": h, class: "tf-hex" }, layers.hexes);
    const [x, y] = centre(h);
    const label = svgEl("text", { x, y: y - size * 0.62, class: "tf-label" }, layers.labels);
    label.textContent = h;
  });
  svg.addEventListener("click", (ev) => {
    const target = ev.target.closest("[data-hex]");
    if (target) model.send({ type: "click", hex: target.getAttribute("data-hex") });
  });

  // ---------------------------------------------------------------- the side panel
  const panel = htmlEl("div", { class: "tf-panel" }, root);
  const status = htmlEl("div", { class: "tf-status" }, panel);
  const result = htmlEl("div", { class: "tf-result" }, panel);
  const message = htmlEl("div", { class: "tf-message" }, panel);
  const choices = htmlEl("div", { class: "tf-choices" }, panel);

  const row = (cls) => htmlEl("div", { class: `tf-row ${cls}` }, panel);
  const button = (parent, text, type, extra = () => ({})) => {
    const b = htmlEl("button", { class: `tf-btn tf-btn-${type}`, type: "button" }, parent, text);
    b.addEventListener("click", () => model.send({ type, ...extra() }));
    return b;
  };
  const select = (parent, options, cls) => {
    const s = htmlEl("select", { class: cls }, parent);
    for (const o of options) htmlEl("option", { value: o }, s, o === "" ? "none" : o);
    return s;
  };

  const play = row("tf-play");
  const undoBtn = button(play, "Undo", "undo");
  const redoBtn = button(play, "Redo", "redo");
  const orderBtn = button(play, "Order", "order");
  const passBtn = button(play, "Pass", "pass");
  button(play, "Cancel", "cancel");

  htmlEl("div", { class: "tf-heading" }, panel, "Moves");
  const moves = htmlEl("ol", { class: "tf-moves" }, panel);
  const destroyed = htmlEl("div", { class: "tf-destroyed" }, panel);

  htmlEl("div", { class: "tf-heading" }, panel, "New game");
  const ng = row("tf-new");
  const season = select(ng, ["summer", "winter"], "tf-season");
  const terrain = select(ng, ["rolled", "fixed"], "tf-terrain");
  const hillLbl = htmlEl("label", {}, ng, "hill");
  const hill = htmlEl("input", { type: "checkbox", class: "tf-hill" }, hillLbl);
  hill.checked = true;
  const swampLbl = htmlEl("label", {}, ng, "swamp");
  const swamp = htmlEl("input", { type: "checkbox", class: "tf-swamp" }, swampLbl);
  swamp.checked = true;
  const ng2 = row("tf-new2");
  const other = htmlEl("input", { type: "text", class: "tf-other", placeholder: "castling=sacrifice draw_after=80" }, ng2);
  const seed = htmlEl("input", { type: "number", class: "tf-seed", value: "0", title: "seed" }, ng2);
  button(ng2, "New game", "new_game", () => ({
    season: season.value, terrain: terrain.value, hill: hill.checked, swamp: swamp.checked,
    other: other.value, seed: seed.value,
  }));

  htmlEl("div", { class: "tf-heading" }, panel, "Agent");
  const ag = row("tf-agent");
  const agentName = select(ag, [""], "tf-agent-name"); // filled from view.agents (workbench.agents.AGENTS)
  const agentParams = htmlEl("input", { type: "text", class: "tf-agent-params", placeholder: "depth=3,nodes=8000" }, ag);
  const agentSide = select(ag, ["black", "white"], "tf-agent-side");
  // The agent's text form, as `simulate` uses it: "alphabeta:depth=3,nodes=8000".
  const agentSpec = () =>
    agentName.value && agentParams.value.trim() ? `${agentName.value}:${agentParams.value.trim()}` : agentName.value;
  button(ag, "Play against", "agent", () => ({ name: agentSpec(), side: agentSide.value }));

  htmlEl("div", { class: "tf-heading" }, panel, "Overlays");
  const ov = row("tf-overlays");
  const overlayBoxes = {};
  for (const name of OVERLAYS) {
    const lbl = htmlEl("label", {}, ov, name.replace("_", " "));
    const box = htmlEl("input", { type: "checkbox", class: `tf-ov-${name}` }, lbl);
    box.addEventListener("change", () => model.send({ type: "overlay", name, on: box.checked }));
    overlayBoxes[name] = box;
  }
  const heatSide = select(ov, ["white", "black"], "tf-heat-side");
  heatSide.addEventListener("change", () => model.send({ type: "heat_side", side: heatSide.value }));

  htmlEl("div", { class: "tf-heading" }, panel, "Files (paths on the server)");
  const fl = row("tf-files");
  const path = htmlEl("input", { type: "text", class: "tf-path", placeholder: "scenarios/rulings/01.yaml or game.json" }, fl);
  const fl2 = row("tf-files2");
  const withPath = () => ({ path: path.value });
  button(fl2, "Load scenario", "load_scenario", withPath);
  button(fl2, "◀", "step", () => ({ delta: -1 }));
  button(fl2, "▶", "step", () => ({ delta: 1 }));
  button(fl2, "Save record", "save_record", withPath);
  button(fl2, "Load record", "load_record", withPath);
  const scenario = htmlEl("div", { class: "tf-scenario" }, panel);

  htmlEl("div", { class: "tf-heading" }, panel, "Position editor");
  const ed = row("tf-editor");
  button(ed, "Edit", "edit");
  button(ed, "Done", "edit_done");
  button(ed, "Export YAML", "export", withPath);
  const palette = row("tf-palette");
  const paletteBtns = {};
  for (const p of ["F", "K", "P", "C", "A", "I", "f", "k", "p", "c", "a", "i", "", "marker"]) {
    const label = p === "" ? "remove" : p;
    const b = button(palette, label, "edit_piece", () => ({ piece: p }));
    b.title = p === "" || p === "marker" ? label : `${p === p.toUpperCase() ? "white" : "black"} ${PIECE_NAMES[p.toUpperCase()]}`;
    paletteBtns[p] = b;
  }
  const editSide = select(palette, ["white", "black"], "tf-edit-side");
  editSide.addEventListener("change", () => model.send({ type: "edit_to_move", side: editSide.value }));
  const exportBox = htmlEl("textarea", { class: "tf-export", rows: "6", readonly: "" }, panel);

  // ---------------------------------------------------------------- drawing a view
  function draw() {
    const v = model.get("view");
    for (const layer of ["heat", "zones", "aura", "last", "targets", "markers", "pieces"]) layers[layer].replaceChildren();
    svg.classList.toggle("tf-winter", !!v.winter);
    svg.classList.toggle("tf-editing", !!v.editing);
    for (const h of names) {
      const t = v.terrain[h];
      const cls = ["tf-hex", `tf-${t.kind}`];
      if (t.hill) cls.push("tf-hill");
      if (t.swamp >= 0) cls.push("tf-swamp");
      if (t.castle >= 0) cls.push(t.castle === 0 ? "tf-castle-white" : "tf-castle-black");
      if (v.selected === h) cls.push("tf-selected");
      polys[h].setAttribute("class", cls.join(" "));
    }
    if (v.heat && v.heat.values) {
      v.heat.values.forEach((val, i) => {
        if (val) svgEl("polygon", { points: points(names[i]), fill: heatColour(val), class: "tf-heat", "data-hex": names[i] }, layers.heat);
      });
    }
    (v.zones || []).forEach((zone, side) => {
      for (const h of zone) svgEl("polygon", { points: points(h), class: `tf-zone tf-zone-${side ? "black" : "white"}`, "data-hex": h }, layers.zones);
    });
    (v.aura || []).forEach((hexes, side) => {
      for (const h of hexes) {
        const [x, y] = centre(h);
        svgEl("circle", { cx: x, cy: y, r: 4, class: `tf-aura tf-aura-${side ? "black" : "white"}`, "data-hex": h }, layers.aura);
      }
    });
    for (const h of v.aura_ready || []) {
      svgEl("polygon", { points: points(h), class: "tf-aura-ready", "data-hex": h }, layers.aura);
    }
    if (v.last) for (const h of v.last) svgEl("polygon", { points: points(h), class: "tf-last", "data-hex": h }, layers.last);
    const r = size;
    for (const [h, cls] of Object.entries(v.targets || {})) {
      const [x, y] = centre(h);
      svgEl("circle", { cx: x, cy: y, r: r * 0.42, class: `tf-target tf-target-${cls}`, "data-hex": h, "data-target": cls }, layers.targets);
    }
    for (const [a, t, side] of v.markers || []) {
      const [x1, y1] = centre(a);
      const [x2, y2] = centre(t);
      svgEl("line", { x1, y1, x2, y2, class: `tf-marker-line tf-marker-${side ? "black" : "white"}` }, layers.markers);
      const d = r * 0.3;
      const g = svgEl("g", { class: `tf-marker tf-marker-${side ? "black" : "white"}`, "data-hex": t }, layers.markers);
      svgEl("line", { x1: x2 - d, y1: y2 - d, x2: x2 + d, y2: y2 + d }, g);
      svgEl("line", { x1: x2 - d, y1: y2 + d, x2: x2 + d, y2: y2 - d }, g);
    }
    for (const [h, letter] of Object.entries(v.pieces || {})) {
      const [x, y] = centre(h);
      const white = letter === letter.toUpperCase();
      const g = svgEl("g", { class: `tf-piece ${white ? "tf-white" : "tf-black"}`, "data-hex": h, "data-piece": letter }, layers.pieces);
      svgEl("circle", { cx: x, cy: y, r: r * 0.62 }, g);
      const t = svgEl("text", { x, y: y + r * 0.22 }, g);
      t.textContent = letter.toUpperCase();
      const title = svgEl("title", {}, g);
      title.textContent = `${white ? "white" : "black"} ${PIECE_NAMES[letter.toUpperCase()]} on ${h}`;
      if ((v.pending || []).includes(h)) g.classList.add("tf-ultimatum");
    }

    // panel
    status.textContent = v.editing
      ? `Editing position: ${v.to_move} to move`
      : `${v.to_move === "white" ? "White" : "Black"} to move · ply ${v.ply}` +
        (v.threatened && v.threatened.length ? ` · feudal under threat: ${v.threatened.join(", ")}` : "");
    status.setAttribute("data-to-move", v.to_move);
    result.textContent = v.result || "";
    result.style.display = v.result ? "" : "none";
    message.textContent = v.message || "";
    choices.replaceChildren();
    (v.choices || []).forEach((c, i) => {
      const b = htmlEl("button", { class: "tf-btn tf-choice", type: "button" }, choices, c);
      b.addEventListener("click", () => model.send({ type: "choose", index: i }));
    });
    undoBtn.disabled = !v.can_undo;
    redoBtn.disabled = !v.can_redo;
    orderBtn.disabled = !v.can_order;
    passBtn.disabled = !v.can_pass;
    moves.replaceChildren();
    for (let i = 0; i < v.moves.length; i += 2) {
      const li = htmlEl("li", {}, moves, v.moves[i] + (i + 1 < v.moves.length ? `   ${v.moves[i + 1]}` : ""));
      li.setAttribute("data-ply", String(i + 1));
    }
    moves.scrollTop = moves.scrollHeight;
    const dw = v.destroyed.white.join(" ") || "-";
    const db = v.destroyed.black.join(" ") || "-";
    destroyed.textContent = `Destroyed: white ${dw} · black ${db}`;
    for (const name of OVERLAYS) overlayBoxes[name].checked = !!v.overlays[name];
    if (v.heat && v.heat.error) message.textContent = v.heat.error;
    const known = ["", ...(v.agents || [])];
    if (agentName.options.length !== known.length) {
      agentName.replaceChildren();
      for (const o of known) htmlEl("option", { value: o }, agentName, o === "" ? "none" : o);
    }
    if (v.agent && v.agent.name) {
      const [base, params] = v.agent.name.split(":");
      agentName.value = base;
      agentParams.value = params || "";
      agentSide.value = v.agent.side;
    }
    const s = v.scenario || {};
    scenario.textContent = s.title ? `${s.title} · position ${s.index + 1} of ${s.count}` : "";
    palette.style.display = v.editing ? "" : "none";
    for (const [p, b] of Object.entries(paletteBtns)) b.classList.toggle("tf-active", v.edit_piece === p);
    if (v.editing) editSide.value = v.to_move;
  }

  function drawExport() {
    exportBox.value = model.get("export_text") || "";
    exportBox.style.display = exportBox.value ? "" : "none";
  }

  model.on("change:view", draw);
  model.on("change:export_text", drawExport);
  draw();
  drawExport();
  return () => {
    model.off("change:view", draw);
    model.off("change:export_text", drawExport);
  };
}

export default { render };
