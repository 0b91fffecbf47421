// The general board's front end: draws the Python-side `view` on the `geometry` of any game's layout
// (hex-pointy, hex-flat, square) and reports clicks, hovers and button presses with model.send. It decides
// nothing about the rules and never names a server path; it loads nothing from outside the page: downloads
// and exports are made in the page (blob URLs), uploads are read from a file the user picks.

const SVG = "http://www.w3.org/2000/svg";
const FALLBACK = ["#e7e1cf", "#cfd8c4", "#d6cfe0", "#c9dbe6", "#e6d3c5"];
const MARK_COLOURS = ["#f5b700", "#e3001b", "#3ddc84", "#8e44ad", "#00a3cc", "#ff6f00", "#6d4c41", "#c2185b"];
const SIGNS = ["", "!", "?", "!!", "??", "!?", "?!"];
const SHAPES = { green: "#15781b", red: "#c62828", blue: "#1565c0", yellow: "#e0a800" };
// the exported picture's own style (the page's stylesheet does not travel with a saved file)
const EXPORT_STYLE = `.gb-cell{stroke:#777;stroke-width:.03}.gb-disc{stroke:#555;stroke-width:.04}
.gb-letter{text-anchor:middle;font-weight:bold;font-family:monospace}.gb-badge{fill:#111;font-family:monospace;text-anchor:middle}
.gb-coord{fill:#555;font-family:sans-serif}.gb-facing{fill:#f5b700;stroke:#333;stroke-width:.03}
.gb-ring{fill:none;stroke-width:.08}.gb-dot{fill:rgba(26,158,58,.75)}.gb-buy{stroke:#1565c0;stroke-width:.1;fill:none}
.gb-odds{text-anchor:middle;fill:#b00020;font-weight:bold}.gb-odds-bg{fill:#fffbe6;stroke:#d0021b;stroke-width:.04}
.gb-doom{stroke:#d0021b;stroke-width:.08}.gb-markring{fill:none;stroke-width:.07}`;

function el(tag, attrs = {}, parent = null, text = null, ns = null) {
  const e = ns ? document.createElementNS(ns, tag) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== null) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}
const sv = (tag, attrs, parent, text = null) => el(tag, attrs, parent, text, SVG);

function inkOn(colour) {
  // black or white, whichever is farther in WCAG contrast from a "#rgb"/"#rrggbb" ground (at least 4.58:1 on any
  // ground); "" when the colour is not one of those (the stylesheet's theme colour then)
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(colour || "");
  if (!m) return "";
  const h = m[1].length === 3 ? [...m[1]].map((c) => c + c).join("") : m[1];
  const lin = [0, 2, 4].map((i) => { const v = parseInt(h.slice(i, i + 2), 16) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
  const l = 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2];
  return (l + 0.05) * (l + 0.05) > 1.05 * 0.05 ? "#000" : "#fff";
}

function heatColour(v) {
  // blue (negative) .. transparent .. red (positive); |v| <= 1
  const a = Math.min(1, Math.abs(v)) * 0.65;
  return v >= 0 ? `rgba(220,40,30,${a})` : `rgba(30,90,220,${a})`;
}

function fmt(x) {
  if (x === null || x === undefined) return "–";
  const a = Math.abs(x);
  return (x >= 0 ? "+" : "−") + (a >= 100 ? a.toFixed(0) : a.toFixed(1));
}

function saveLink(row, name, blob) {
  // a visible "save NAME" link in the panel (a click saves it again), clicked once for the user
  const url = URL.createObjectURL(blob);
  for (const old of row.querySelectorAll(".gb-download-link")) { URL.revokeObjectURL(old.href); old.remove(); }
  const a = el("a", { href: url, download: name, class: "gb-download-link" }, row, `save ${name}`);
  a.click();
}

// A click's view arrives as a patch of the view the page holds (board.py view_patch): the fields that changed, and
// the changed items of the long lists by index. It applies only to the view of seq `base`; any other (a lost or
// reordered message) gives null, and the page asks the kernel for the whole view instead.
function applyPatch(view, p) {
  if (!view || view.seq !== p.base) return null;
  const next = { ...view };
  for (const k of p.drop || []) delete next[k];
  Object.assign(next, p.set || {});
  for (const [k, l] of Object.entries(p.lists || {})) {
    const arr = (view[k] || []).slice(0, l.n);
    for (const [i, item] of l.at) arr[i] = item;
    if (arr.length !== l.n) return null;
    for (let i = 0; i < l.n; i++) if (arr[i] === undefined) return null;
    next[k] = arr;
  }
  next.seq = p.seq;
  return next;
}

// once per model (every render of the board shares it): patches become the model's view; a mismatch asks for the
// whole view once, and later patches wait for it
function initialize({ model }) {
  let waiting = false, applying = false;
  // counts for the benchmark and the tests, and a lost message's effect (the view's seq forgotten, so the next
  // patch cannot apply); a page-side attribute of the model (renders get their own proxy of it), never sent
  const stats = { patches: 0, fulls: 0, asked: 0 };
  stats.forget = () => {
    applying = true;
    try { model.set("view", { ...model.get("view"), seq: -1 }); } finally { applying = false; }
  };
  model.set("gb_patching", stats);
  model.on("change:view", () => { if (!applying) { waiting = false; stats.fulls += 1; } });
  model.on("msg:custom", (msg) => {
    if (!msg || msg.kind !== "view-patch") return;
    if (waiting) return;
    const next = applyPatch(model.get("view"), msg);
    if (!next) { waiting = true; stats.asked += 1; model.send({ type: "full" }); return; }
    applying = true;
    try { model.set("view", next); } finally { applying = false; }
    stats.patches += 1;
  });
}

// a part's own class plus the game's alias for it (GameDef.board_aliases: TerraFeud's page knew its cells as tf-hex)
let ALIASES = {};
const A = (part, cls) => (ALIASES[part] ? `${cls} ${ALIASES[part]}` : cls);

function render({ model, el: root }) {
  root.classList.add("gb-root");
  root.setAttribute("tabindex", "0");
  // for the benchmark and the browser tests: the patches applied, the whole views received and asked for; the view
  // held; and a lost message's effect (the view's seq forgotten, so the next patch cannot apply)
  root.gbPatchStats = () => { const p = model.get("gb_patching") || {}; return { patches: p.patches, fulls: p.fulls, asked: p.asked }; };
  root.gbView = () => model.get("view");
  root.gbForget = () => model.get("gb_patching").forget();
  const head = el("div", { class: "gb-head" }, root);
  const title = el("span", { class: "gb-title" }, head);
  const turn = el("span", { class: "gb-turn" }, head);
  const busy = el("span", { class: "gb-busy" }, head);
  const status = el("div", { class: "gb-status", role: "status" }, root);
  const body = el("div", { class: "gb-body" }, root);
  const boardCol = el("div", { class: "gb-board" }, body);
  const evalBar = el("div", { class: "gb-evalbar", title: "static evaluation" }, boardCol);
  const evalFill = el("div", { class: "gb-evalfill" }, evalBar);
  const evalText = el("span", { class: "gb-evaltext" }, evalBar);
  const boardBox = el("div", { class: "gb-svgbox" }, boardCol);
  const panel = el("div", { class: "gb-panel" }, body);
  const message = el("div", { class: "gb-message", role: "alert" }, panel);
  const hover = el("div", { class: "gb-hover" }, panel);
  const cardsBox = el("div", { class: "gb-cards" }, panel);
  const buttons = el("div", { class: "gb-buttons" }, panel);
  const controls = el("div", { class: "gb-controls" }, panel);
  const mk = (label, type, extra = {}, parent = controls) => {
    const b = el("button", { class: "gb-btn", "data-action": type }, parent, label);
    b.addEventListener("click", () => model.send({ type, ...extra }));
    return b;
  };
  const undoBtn = mk("Undo", "undo");
  const redoBtn = mk("Redo", "redo");
  const rollBtn = mk("Roll", "roll");
  mk("Agent move", "agent_move");
  mk("Evaluate", "evaluate");
  // multi-step actions given as one (GameDef.action_modes: TerraFeud's Order): a button that switches its mode
  const modeBox = el("span", { class: "gb-modes" }, controls);
  const view2 = el("div", { class: "gb-controls" }, panel);
  const flipBtn = el("button", { class: "gb-btn", "data-action": "flip" }, view2, "Flip");
  const coordBox = el("label", { class: "gb-auto" }, view2);
  const coordIn = el("input", { type: "checkbox", class: "gb-coords-toggle" }, coordBox);
  coordIn.checked = true;
  coordBox.appendChild(document.createTextNode(" coordinates"));
  const overlayBox = el("span", { class: "gb-overlays" }, view2);  // the game's own layers (GameDef.overlays)
  const autoBox = el("label", { class: "gb-auto" }, view2);
  const auto = el("input", { type: "checkbox" }, autoBox);
  autoBox.appendChild(document.createTextNode(" roll automatically"));
  auto.addEventListener("change", () => model.send({ type: "auto_roll", on: auto.checked }));
  const evalLine = el("div", { class: "gb-eval" }, panel);
  const graph = el("div", { class: "gb-graph" }, panel);
  const diffBox = el("div", { class: "gb-diff" }, panel);
  const checkLine = el("div", { class: "gb-check" }, panel);
  const linesBox = el("div", { class: "gb-lines" }, panel);
  const moves = el("ol", { class: "gb-moves" }, panel);
  const tree = el("div", { class: "gb-row gb-treeops" }, panel);
  el("button", { class: "gb-btn", "data-action": "promote" }, tree, "Promote").addEventListener("click", () =>
    model.send({ type: "promote", id: (model.get("view") || {}).node || 0 }));
  el("button", { class: "gb-btn", "data-action": "delete" }, tree, "Delete move").addEventListener("click", () =>
    model.send({ type: "delete", id: (model.get("view") || {}).node || 0 }));
  const mainBtn = mk("Back to main line", "main_line", {}, tree);
  const anaBox = el("label", { class: "gb-auto" }, tree);
  const anaIn = el("input", { type: "checkbox", class: "gb-analysis-toggle" }, anaBox);
  anaBox.appendChild(document.createTextNode(" analysis"));
  anaIn.addEventListener("change", () => model.send({ type: "analysis", on: anaIn.checked }));
  mk("Clear drawings", "clear_shapes", {}, tree);
  // the position editor (games declaring GameDef.edit_palette): pick a piece, click cells, Done plays on
  const editRow = el("div", { class: "gb-row gb-editrow" }, panel);
  const editBtn = mk("Edit position", "edit", {}, editRow);
  const editBar = el("div", { class: "gb-editor" }, panel);
  const ann = el("div", { class: "gb-row gb-annotate" }, panel);
  const signSel = el("select", { class: "gb-sign", title: "a sign on the current move" }, ann);
  for (const s of SIGNS) el("option", { value: s }, signSel, s || "no sign");
  const noteIn = el("input", { type: "text", placeholder: "note on this move", class: "gb-note" }, ann);
  el("button", { class: "gb-btn", "data-action": "annotate" }, ann, "Annotate").addEventListener("click", () =>
    model.send({ type: "annotate", sign: signSel.value, comment: noteIn.value }));

  // new game, agents, heat, rule diff, scenarios, records, export
  const tools = el("details", { class: "gb-tools" }, panel);
  el("summary", {}, tools, "Game, agents, heat, rule diff, scenarios, files");
  const ng = el("div", { class: "gb-row" }, tools);
  const rulesIn = el("input", { type: "text", placeholder: "rules k=v,...", class: "gb-rules" }, ng);
  const seedIn = el("input", { type: "text", placeholder: "seed", size: "6" }, ng);
  // every rule of the game as a field (geometry.rule_fields, from its RulesSpec); a changed one joins the box's k=v
  const ruleForm = el("div", { class: "gb-rule-form" }, tools);
  const ruleToggle = el("button", { class: "gb-btn gb-rule-toggle", "aria-expanded": "false" }, ng, "every rule ▸");
  const ruleBox = el("div", { class: "gb-rule-fields", style: "display:none" }, ruleForm);
  ruleToggle.addEventListener("click", () => {
    const open = ruleBox.style.display === "none";
    ruleBox.style.display = open ? "" : "none";
    ruleToggle.setAttribute("aria-expanded", String(open));
    ruleToggle.textContent = open ? "every rule ▾" : "every rule ▸";
  });
  let ruleInputs = [], builtRules = "";
  function buildRules() {
    ruleBox.innerHTML = "";
    ruleInputs = [];
    for (const f of geo.rule_fields || []) {
      const row = el("label", { class: "gb-rule-field", title: f.title }, ruleBox, `${f.name} `);
      let inp;
      if (f.choices && f.choices.length) {
        inp = el("select", { class: `gb-rule-${f.name}` }, row);
        for (const c of f.choices) el("option", { value: c }, inp, c);
      } else {
        inp = el("input", { type: "text", size: "8", class: `gb-rule-${f.name}` }, row);
      }
      inp.value = f.value;
      ruleInputs.push([f, inp]);
    }
  }
  el("button", { class: "gb-btn", "data-action": "new_game" }, ng, "New game").addEventListener("click", () => {
    const parts = ruleInputs.filter(([f, inp]) => inp.value.trim() !== f.default).map(([f, inp]) => `${f.name}=${inp.value.trim()}`);
    if (rulesIn.value.trim()) parts.push(rulesIn.value.trim());
    model.send({ type: "new_game", rules: parts.join(","), seed: seedIn.value.trim() });
  });
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
  el("button", { class: "gb-btn", "data-action": "compare" }, dr, "Compare").addEventListener("click", () =>
    model.send({ type: "compare", change: diffIn.value }));
  const sr = el("div", { class: "gb-row" }, tools);
  el("button", { class: "gb-btn" }, sr, "List scenarios").addEventListener("click", () => model.send({ type: "catalog" }));
  el("button", { class: "gb-btn" }, sr, "◀ check").addEventListener("click", () => model.send({ type: "check", delta: -1 }));
  el("button", { class: "gb-btn" }, sr, "check ▶").addEventListener("click", () => model.send({ type: "check", delta: 1 }));
  const picker = el("select", { class: "gb-picker", size: "6" }, tools);
  picker.addEventListener("change", () => model.send({ type: "pick_scenario", name: picker.value }));
  const batchPicker = el("select", { class: "gb-batch", size: "6", title: "the games of the batch opened with Board.from_batch" }, tools);
  batchPicker.addEventListener("change", () => model.send({ type: "pick_game", game_id: Number(batchPicker.value) }));
  const cp = el("div", { class: "gb-row" }, tools);
  const clip = el("textarea", { class: "gb-clip", rows: "3", placeholder: "copied moves or position; paste moves or a position here" }, cp);
  mk("Copy moves", "copy", { what: "moves" }, cp);
  mk("Copy position", "copy", { what: "position" }, cp);
  el("button", { class: "gb-btn", "data-action": "paste" }, cp, "Paste").addEventListener("click", () =>
    model.send({ type: "paste", text: clip.value }));
  const fr = el("div", { class: "gb-row" }, tools);
  mk("Download record", "download", { kind: "record" }, fr);
  mk("Download scenario", "download", { kind: "scenario" }, fr);
  const upKind = el("select", { class: "gb-upload-kind", title: "what the uploaded file is" }, fr);
  el("option", { value: "record" }, upKind, "record (.json)");
  el("option", { value: "scenario" }, upKind, "scenario (.yaml)");
  const upIn = el("input", { type: "file", accept: ".json,.yaml,.yml", class: "gb-upload" }, fr);
  upIn.addEventListener("change", () => {
    const f = upIn.files && upIn.files[0];
    if (!f) return;
    if (f.size > 512 * 1024) { message.textContent = `${f.name}: larger than 512 kB`; return; }
    f.text().then((text) => model.send({ type: "upload", kind: upKind.value, name: f.name, text }));
    upIn.value = "";
  });
  el("button", { class: "gb-btn", "data-action": "export-svg" }, fr, "Export SVG").addEventListener("click", () => exportSvg());
  el("button", { class: "gb-btn", "data-action": "export-png" }, fr, "Export PNG").addEventListener("click", () => exportPng());
  const legend = el("details", { class: "gb-legend" }, panel);
  el("summary", {}, legend, "Legend");
  const legendBody = el("div", { class: "gb-legend-body" }, legend);

  let svg = null, cellEls = {}, layers = {}, geo = null, groupOpen = null, cardOpen = null;
  let flipped = false, bbox = null, lastHover = "", hoverTimer = null, obs = null;
  let attackHover = "";  // the cell under the pointer, whose attackers' lines are drawn
  const uid = Math.random().toString(36).slice(2, 8);

  function P(x, y) {
    return flipped ? [bbox[0] + bbox[2] - x, bbox[1] + bbox[3] - y] : [x, y];
  }
  function pts(points) {
    return points.split(" ").map((p) => P(...p.split(",").map(Number)).map((v) => v.toFixed(3)).join(",")).join(" ");
  }

  function build() {
    geo = model.get("geometry");
    if (!geo || !geo.cells) { geo = null; return; }  // not synced yet (a progressively rendered page): change:geometry builds
    ALIASES = geo.aliases || {};
    for (const [part, node] of [["root", root], ["legend", legend]]) if (ALIASES[part]) node.classList.add(ALIASES[part]);
    const rf = JSON.stringify(geo.rule_fields || []);
    if (rf !== builtRules) { builtRules = rf; buildRules(); }  // a new game's rules (a flip keeps the edits)
    for (const [part, node, cls] of [["status", status, "gb-status"], ["message", message, "gb-message"],
      ["moves", moves, "gb-moves"], ["undo", undoBtn, "gb-btn"]]) node.setAttribute("class", A(part, cls));
    boardBox.innerHTML = "";
    cellEls = {};
    pieceEls = {};
    gen += 1;
    obs = geo.cells.length ? null : el("pre", { class: "gb-observation", "aria-label": "observation" }, boardBox);
    const vb = geo.viewbox;
    bbox = vb;
    svg = sv("svg", { viewBox: vb.join(" "), class: A("svg", `gb-svg gb-${geo.shape}`), role: "img",
      "aria-label": "board" }, boardBox);
    const defs = sv("defs", {}, svg);
    for (const [name, colour] of Object.entries(SHAPES)) {
      const m = sv("marker", { id: `gb-head-${name}-${uid}`, viewBox: "0 0 10 10", refX: "5", refY: "5", markerWidth: "3",
        markerHeight: "3", orient: "auto-start-reverse" }, defs);
      sv("path", { d: "M0,0L10,5L0,10z", fill: colour }, m);
    }
    const [cells, heat, coords, marks, pieces, over, shapes] = ["cells", "heat", "coords", "marks", "pieces", "over", "shapes"].map(
      (n) => sv("g", { class: `gb-layer-${n}` }, svg));
    layers = { cells, heat, coords, marks, pieces, over, shapes };
    const s = geo.size;
    for (const c of geo.cells) {
      const poly = sv("polygon", { points: pts(c.points), class: A("cell", "gb-cell"), "data-cell": c.name }, cells);
      if (geo.shape.startsWith("hex")) poly.setAttribute("data-hex", c.name);  // as TerraFeud's board names its cells
      sv("title", {}, poly, c.name);
      const [x, y] = P(c.x, c.y);
      const coord = sv("text", { x: x - s * 0.82, y: y - s * 0.5, "font-size": s * 0.34, class: A("coord", "gb-coord") }, coords, c.name);
      cellEls[c.name] = { poly, c, x, y, coord };
    }
    coords.style.display = coordIn.checked ? "" : "none";
    const cellAt = (ev) => {
      const t = document.elementFromPoint(ev.clientX, ev.clientY);
      const c = t && t.closest ? t.closest("[data-cell]") : null;
      return c ? c.getAttribute("data-cell") : null;
    };
    let down = null;
    svg.addEventListener("contextmenu", (ev) => ev.preventDefault());
    svg.addEventListener("pointerdown", (ev) => { down = { cell: cellAt(ev), button: ev.button, shift: ev.shiftKey, alt: ev.altKey }; });
    svg.addEventListener("pointerup", (ev) => {
      const start = down;
      down = null;
      const cell = cellAt(ev);
      if (!start || !start.cell || !cell) return;
      if (start.button === 2) {  // right button: an arrow (or a circle on one cell), colour by modifier
        const colour = start.shift ? "red" : start.alt ? "blue" : ev.ctrlKey ? "yellow" : "green";
        model.send({ type: "shape", from: start.cell, to: cell, colour });
      } else if (start.button === 0) {
        if (cell === start.cell) model.send({ type: "click", cell });
        else model.send({ type: "drag", from: start.cell, to: cell });  // a piece dragged to its target
      }
    });
    svg.addEventListener("mouseleave", () => { attackHover = ""; hoverAttackers(model.get("view")); });
    svg.addEventListener("mouseover", (ev) => {
      const t = ev.target.closest ? ev.target.closest("[data-cell]") : null;
      const v = model.get("view");
      if (!t || !v) return;
      const cell = t.getAttribute("data-cell");
      const p = v.previews && v.previews[cell];
      for (const old of svg.querySelectorAll(".gb-preview-death, .gb-preview-damage")) old.remove();
      attackHover = cell;
      hoverAttackers(v);
      pinned = "";
      if (p) {
        clearTimeout(hoverTimer);  // a "why" asked for the cell before must not replace this preview
        lastHover = cell;
        pinned = p.text;
        hover.textContent = p.text;
        previewDeaths(p);
        return;
      }
      // an unlit cell: ask the game why (once the pointer rests there)
      if (cell === lastHover) return;
      lastHover = cell;
      clearTimeout(hoverTimer);
      hoverTimer = setTimeout(() => model.send({ type: "why", cell }), 120);
    });
    seatSel.innerHTML = "";
    heatSeat.innerHTML = "";
    geo.players.forEach((p, i) => {
      el("option", { value: String(i) }, seatSel, p);
      el("option", { value: String(i) }, heatSeat, p);
    });
    overlayBox.innerHTML = "";
    for (const o of geo.overlays || []) {
      const lab = el("label", { class: "gb-auto", title: o.words }, overlayBox);
      const box = el("input", { type: "checkbox", class: "gb-overlay", "data-overlay": o.name }, lab);
      box.checked = ((model.get("view") || {}).overlays || []).includes(o.name);
      box.addEventListener("change", () => model.send({ type: "overlay", name: o.name, on: box.checked }));
      lab.appendChild(document.createTextNode(" " + o.name));
    }
    heatSel.innerHTML = "";
    el("option", { value: "" }, heatSel, "no heat layer");
    for (const h of geo.heat_layers) el("option", { value: h }, heatSel, h);
    draw();
  }

  flipBtn.addEventListener("click", () => { flipped = !flipped; root.classList.toggle("gb-flipped", flipped); build(); });
  coordIn.addEventListener("change", () => { if (layers.coords) layers.coords.style.display = coordIn.checked ? "" : "none"; });

  function terrainFill(cls) {
    for (const l of geo.legend) if (l.cls === cls) return l.colour;
    if (!cls) return null;
    let h = 0;
    for (const ch of cls) h = (h * 31 + ch.charCodeAt(0)) % 997;
    return FALLBACK[h % FALLBACK.length];
  }

  const markColour = {};
  function colourOfMark(m) {
    if (!(m in markColour)) markColour[m] = MARK_COLOURS[Object.keys(markColour).length % MARK_COLOURS.length];
    return markColour[m];
  }

  let editSeat = null;  // the seat whose pieces the editor's palette shows (games with many seats)
  function drawEditor(v) {
    editRow.style.display = geo.can_edit && !(v.editor && v.editor.pieces) ? "" : "none";
    editBar.innerHTML = "";
    const ed = v.editor || {};
    root.classList.toggle("gb-editing", !!ed.pieces);
    if (!ed.pieces) return;
    // many seats (big chess: up to 25): a seat select, and that seat's pieces (plus the pieces of no seat)
    const owners = [...new Set(ed.pieces.map((p) => p.owner).filter((o) => o >= 0))];
    const cur = ed.pieces.find((p) => p.code === ed.piece);
    if (editSeat === null || !owners.includes(editSeat)) editSeat = cur && cur.owner >= 0 ? cur.owner : (owners[0] ?? -1);
    if (owners.length > 2) {
      const ss = el("select", { class: "gb-edit-seat", title: "whose pieces the palette shows" }, editBar);
      owners.forEach((o) => { const op = el("option", { value: String(o) }, ss, geo.players[o] || String(o)); if (o === editSeat) op.selected = true; });
      ss.addEventListener("change", () => { editSeat = Number(ss.value); drawEditor(v); });
    }
    const pal = el("div", { class: "gb-row gb-edit-palette" }, editBar);
    const shown = owners.length > 2 ? ed.pieces.filter((p) => p.owner < 0 || p.owner === editSeat) : ed.pieces;
    for (const p of [...shown, { code: "", owner: -1, words: "remove" }]) {
      const b = el("button", { class: "gb-btn gb-edit-piece" + (p.code === ed.piece ? " gb-on" : ""), "data-piece": p.code,
        "data-owner": String(p.owner), title: p.words }, pal, p.code.length <= 3 ? (p.code || "✕") : p.words.slice(0, 22));
      if (p.owner >= 0) { b.style.background = geo.colours[p.owner] || ""; b.style.color = geo.inks[p.owner] || ""; }
      b.addEventListener("click", () => model.send({ type: "edit_piece", piece: p.code }));
    }
    // what else a click sets (The Cursed Lands' hit points, big chess's facing and level): GameDef.edit_options
    if ((ed.options || []).length || ed.first) {
      const orow = el("div", { class: "gb-row gb-edit-options" }, editBar);
      for (const o of ed.options || []) {
        const lab = el("label", { class: "gb-auto" }, orow, `${o.words} `);
        const sel = el("select", { class: "gb-edit-option", "data-option": o.name }, lab);
        for (const c of o.choices) { const op = el("option", { value: c }, sel, c); if (c === o.value) op.selected = true; }
        sel.addEventListener("change", () => model.send({ type: "edit_option", name: o.name, value: sel.value }));
      }
      if (ed.first) el("span", { class: "gb-edit-first" }, orow, `from ${ed.first}: click the second cell`);
    }
    const row = el("div", { class: "gb-row" }, editBar);
    const tm = el("select", { class: "gb-edit-tomove", title: "the seat to move" }, row);
    geo.players.forEach((p, i) => { const o = el("option", { value: String(i) }, tm, `${p} to move`); if (i === ed.to_move) o.selected = true; });
    tm.addEventListener("change", () => model.send({ type: "edit_to_move", seat: Number(tm.value) }));
    mk("Clear board", "edit_clear", {}, row);
    mk("Done", "edit_done", {}, row);
    mk("Cancel", "edit_cancel", {}, row);
    if (ed.error) el("div", { class: "gb-edit-error" }, editBar, ed.error);
  }

  function drawModes(v) {
    modeBox.innerHTML = "";
    for (const m of v.modes || []) {
      const b = el("button", { class: "gb-btn gb-mode" + (m.on ? " gb-on" : ""), "data-action": "mode", "data-mode": m.name,
        "aria-pressed": String(!!m.on), title: m.words }, modeBox, m.label);
      b.disabled = !m.available && !m.on;
      b.addEventListener("click", () => model.send({ type: "mode", name: m.name, on: !m.on }));
    }
  }

  let seatsKey = null, pinned = "";  // pinned: the preview of the lit cell under the pointer
  // the pieces that attack the hovered cell (State.attackers, every seat's, by the game's rules): a line from each,
  // in its seat's colour; draw() calls it again, so a view arriving under the pointer keeps them
  function hoverAttackers(v) {
    if (!layers.over) return;
    for (const old of layers.over.querySelectorAll(".gb-hover-attacker")) old.remove();
    const to = attackHover && cellEls[attackHover];
    if (!to || !v) return;
    for (const [a, seat] of (v.attackers || {})[attackHover] || []) {
      const from = cellEls[a];
      const i = (geo.players || []).indexOf(seat);
      if (from) sv("line", { x1: from.x, y1: from.y, x2: to.x, y2: to.y, class: "gb-hover-attacker", "data-from": a,
        "data-to": attackHover, "data-seat": seat, stroke: i >= 0 ? geo.colours[i] : "" }, layers.over);
    }
  }
  // what the hovered action would remove, wherever it is (a coordinated attack's victims), marked while hovered;
  // draw() calls it again, so a view arriving while the pointer rests on a lit cell keeps the marks
  function previewDeaths(p) {
    if (!layers.over) return;
    for (const old of layers.over.querySelectorAll(".gb-preview-death")) old.remove();
    const first = layers.over.firstChild;  // under the targets, as they were drawn before them
    for (const r of (p && p.removed) || []) {
      const ce = cellEls[r];
      if (ce) layers.over.insertBefore(sv("circle", { cx: ce.x, cy: ce.y, r: geo.size * 0.75, class: "gb-preview-death",
        "data-cell": r, "data-hex": r }), first);
    }
    for (const old of layers.over.querySelectorAll(".gb-preview-damage")) old.remove();
    for (const [r, n] of Object.entries((p && p.damage) || {})) damageMark(r, n, "gb-preview-damage");
  }

  // Incremental redraw: a click changes a few cells and a few panel parts, so each part is redrawn only when
  // the view's data it is drawn from changed (its key), and each piece only when its own glyph did. Rebuilding
  // every element on every view made the browser restyle and lay out the whole board and panel per click.
  let gen = 0;  // bumped by build() (a new layout or a flip): every part is drawn afresh after it
  let pieceEls = {};  // cell -> {key, node}: the drawn piece (or lone badge) of each cell
  function changed(node, ...parts) {
    const key = gen + "|" + JSON.stringify(parts);
    if (node.__gbKey === key) return false;
    node.__gbKey = key;
    return true;
  }
  function setText(node, text) { if (node.textContent !== text) node.textContent = text; }
  function setAttr(node, name, value) { if (node.getAttribute(name) !== value) node.setAttribute(name, value); }

  function drawPiece(g, x, y) {
    // one cell's piece (disc, facing, letter, badges) or its lone badge; null when the cell has neither
    const s = geo.size;
    if (g.piece) {
      const col = geo.colours[g.owner] || "#888", ink = geo.inks[g.owner] || "#fff";
      const grp = sv("g", { class: A("piece", "gb-piece"), "data-cell": g.cell, "data-owner": String(g.owner),
        "data-piece": g.piece });
      if (geo.shape.startsWith("hex")) grp.setAttribute("data-hex", g.cell);
      sv("circle", { cx: x, cy: y - s * 0.08, r: s * 0.5, fill: col, class: "gb-disc" }, grp);
      if (g.facing !== null && g.facing !== undefined) {
        // facing: degrees clockwise from north (0 = N, 90 = E), an arrowhead at the disc's rim
        const a = ((g.facing + (flipped ? 180 : 0)) - 90) * Math.PI / 180, r = s * 0.5, cy = y - s * 0.08;
        const tip = [x + Math.cos(a) * r * 1.4, cy + Math.sin(a) * r * 1.4];
        const l = [x + Math.cos(a + 0.5) * r, cy + Math.sin(a + 0.5) * r];
        const rr = [x + Math.cos(a - 0.5) * r, cy + Math.sin(a - 0.5) * r];
        sv("polygon", { points: `${tip.join(",")} ${l.join(",")} ${rr.join(",")}`, class: "gb-facing" }, grp);
      }
      sv("text", { x, y: y + s * 0.1, "font-size": s * 0.52, fill: ink, class: "gb-letter" }, grp, g.piece);
      if (g.badges.length) {
        // badges under the disc, never over it
        sv("text", { x, y: y + s * 0.78, "font-size": s * 0.28, class: "gb-badge" }, grp, g.badges.slice(0, 3).join(" "));
      }
      return grp;
    }
    if (g.badges.length) return sv("text", { x, y: y + s * 0.12, "font-size": s * 0.3, class: "gb-badge" }, null, g.badges[0]);
    return null;
  }

  function draw() {
    const t0 = performance.now();
    const v = model.get("view");
    if (!geo || !v || !v.glyphs) return;
    // a person playing the second seat against an agent on the first sees their own side at the bottom
    const agents = Object.keys(v.agents || {}).sort().join("|");
    if (agents !== seatsKey) {
      const was = seatsKey;
      seatsKey = agents;
      const humans = (geo.players || []).filter((p) => !(v.agents || {})[p]);
      const want = humans.length === 1 && geo.players.length === 2 && humans[0] === geo.players[1];
      if (was !== null && want !== flipped) { flipped = want; root.classList.toggle("gb-flipped", flipped); build(); return; }
    }
    setText(title, v.title + (v.scenario ? ` — ${v.scenario}` : "") + (v.rules ? ` (${v.rules})` : ""));
    setText(status, v.status);
    setAttr(status, "data-to-move", v.over ? "" : (v.to_move_name || ""));
    setText(message, v.message || "");
    setAttr(message, "class", A("message", `gb-message gb-${v.level || "info"}`));
    // the lit cell under the pointer: its preview in this view (another selection previews another action there)
    if (pinned) pinned = (v.previews && v.previews[lastHover] && v.previews[lastHover].text) || "";
    setText(hover, pinned || (v.hover && v.hover.text) || "");
    setText(busy, model.get("busy") || "");
    undoBtn.disabled = !v.can_undo;
    redoBtn.disabled = !v.can_redo;
    rollBtn.disabled = !v.chance;
    auto.checked = !!v.auto_roll;
    setText(evalLine, v.evaluation || "");
    setText(checkLine, v.check || "");
    if (changed(turn, v.over, v.to_move_index, v.status, v.to_move)) drawTurn(v);
    if (changed(editBar, v.editor, geo.can_edit)) drawEditor(v);
    if (changed(modeBox, v.modes)) drawModes(v);
    if (obs) setText(obs, v.observation || "");
    const s = geo.size;
    const lit = new Set(v.lit), sel = new Set(v.selection);
    const removed = new Set();
    for (const p of Object.values(v.previews || {})) for (const r of p.removed) removed.add(r);
    const used = { seats: new Set(), terrain: new Set(), marks: new Set() };
    const drawn = new Set();
    for (const g of v.glyphs) {
      const ce = cellEls[g.cell];
      if (!ce) continue;
      const fill = terrainFill(g.terrain);
      if (g.terrain) used.terrain.add(g.terrain);
      const cls = A("cell", `gb-cell t-${g.terrain || "none"}`) + (lit.has(g.cell) ? " gb-lit" : "")
        + (sel.has(g.cell) ? " " + A("selected", "gb-sel") : "");
      if (ce.cls !== cls) { ce.poly.setAttribute("class", cls); ce.cls = cls; }
      if (ce.fill !== (fill || "")) {  // the cell's name in black or white on its terrain (WCAG AA), else the theme's text
        ce.poly.style.fill = fill || ""; ce.fill = fill || ""; ce.coord.style.fill = inkOn(fill);
      }
      for (const m of g.marks.slice(0, 2)) used.marks.add(m);
      if (g.piece) used.seats.add(g.owner);
      drawn.add(g.cell);
      const key = JSON.stringify([g.piece, g.owner, g.facing, g.badges]);
      const had = pieceEls[g.cell];
      if (had && had.key === key) continue;
      const node = drawPiece(g, ce.x, ce.y);
      if (had && had.node) {
        if (node) had.node.replaceWith(node); else had.node.remove();
      } else if (node) layers.pieces.appendChild(node);
      pieceEls[g.cell] = { key, node };
    }
    for (const [cell, had] of Object.entries(pieceEls)) {  // a cell the view no longer lists
      if (!drawn.has(cell)) { if (had.node) had.node.remove(); delete pieceEls[cell]; }
    }
    const last = v.last || { cells: [], removed: [] };
    if (changed(layers.marks, v.glyphs.map((g) => g.marks.slice(0, 2)), v.buy_cells, last.cells)) drawMarks(v);
    if (changed(layers.heat, v.heat)) {
      layers.heat.innerHTML = "";
      for (const g of v.glyphs) {
        const ce = cellEls[g.cell];
        if (ce && v.heat && v.heat[g.cell] !== undefined) {
          sv("polygon", { points: pts(ce.c.points), fill: heatColour(v.heat[g.cell]), class: "gb-heatcell" }, layers.heat);
        }
      }
    }
    if (changed(layers.over, v.lit, v.selection, v.targets, v.previews, last, v.blocks, v.attack_lines)) {
      layers.over.innerHTML = "";
      for (const g of v.glyphs) {
        const ce = cellEls[g.cell];
        if (!ce || !lit.has(g.cell)) continue;
        const { x, y } = ce;
        const dest = v.selection.length > 0;  // a target of the selection (not a piece that can start a move)
        const t = sv("circle", { cx: x, cy: y, r: s * (g.piece ? 0.7 : 0.2), class: g.piece ? (dest ? "gb-target gb-ring" : "gb-target gb-ring gb-source") : "gb-target gb-dot",
          "data-cell": g.cell }, layers.over);
        if (dest) {
          t.setAttribute("class", A("dest", t.getAttribute("class")));
          t.setAttribute("data-target", (v.targets || {})[g.cell] || "move");
          if (geo.shape.startsWith("hex")) t.setAttribute("data-hex", g.cell);
        }
        if (removed.has(g.cell)) {
          sv("line", { x1: x - s * 0.5, y1: y - s * 0.5, x2: x + s * 0.5, y2: y + s * 0.5, class: "gb-doom" }, layers.over);
        }
      }
      // odds on the targets (Pole's n/36): the chance of the result, never the strike of a certain one
      for (const [cell, p] of Object.entries(v.previews || {})) {
        for (const [tc, odds] of Object.entries(p.odds || {})) {
          const ce = cellEls[tc];
          if (!ce) continue;
          const { x, y } = ce;
          sv("rect", { x: x - s * 0.78, y: y + s * 0.3, width: s * 1.56, height: s * 0.5, rx: s * 0.1, class: "gb-odds-bg" }, layers.over);
          sv("text", { x, y: y + s * 0.68, "font-size": s * 0.42, class: "gb-odds", "data-odds-for": cell }, layers.over, odds);
        }
      }
      drawLast(v);
    }
    previewDeaths(pinned ? v.previews[lastHover] : null);
    hoverAttackers(v);
    if (changed(layers.shapes, v.shapes)) drawShapes(v);
    if (changed(linesBox, v.lines)) drawLines(v);
    mainBtn.disabled = !!v.is_main;
    if (changed(graph, v.eval)) drawEval(v);
    if (changed(buttons, v.buttons, v.palette, v.pattern, v.actions)) drawButtons(v);
    drawMoves(v);
    if (changed(diffBox, v.diff)) drawDiff(v);
    drawCatalog();
    const odds = !!(v.previews && Object.values(v.previews).some((p) => Object.keys(p.odds || {}).length));
    if (changed(legendBody, [...used.terrain], [...used.marks], v.to_move_index, v.legend, odds, (v.attack_lines || []).length > 0,
      Object.keys(v.attackers || {}).length > 0, (v.buy_cells || []).length > 0,
      last.cells.length > 0, last.removed.length > 0, Object.keys(last.damaged || {}).length > 0, !!((v.shapes || {}).arrows || (v.shapes || {}).circles), v.heat_layer,
      v.heat_player, v.heat_scale)) drawLegend(v, used);
    // what the last view cost the page (read by `python -m workbench.widget.bench --page`)
    const stamp = { seq: v.seq, ms: performance.now() - t0, at: performance.now(), painted: 0 };
    root.gbDrawn = stamp;
    // and when the browser has restyled, laid out and painted it: a task queued from the next frame's callback
    requestAnimationFrame(() => setTimeout(() => { stamp.painted = performance.now(); }, 0));
  }

  function drawMarks(v) {
    // the game's marks as rings, the purchase crosses (big chess's cells next to the King), the last move's cells
    layers.marks.innerHTML = "";
    const s = geo.size;
    for (const g of v.glyphs) {
      const ce = cellEls[g.cell];
      if (!ce) continue;
      g.marks.slice(0, 2).forEach((m, k) => {
        sv("circle", { cx: ce.x, cy: ce.y, r: s * (0.8 - 0.1 * k), class: `gb-markring m-${m}`, stroke: colourOfMark(m),
          "stroke-dasharray": k ? "0.1,0.06" : "", "data-mark": m, "data-cell": g.cell }, layers.marks);
      });
    }
    for (const cell of v.buy_cells || []) {
      const ce = cellEls[cell];
      if (!ce) continue;
      const { x, y } = ce, d = s * 0.45;
      sv("path", { d: `M${x - d},${y - d}L${x + d},${y + d}M${x + d},${y - d}L${x - d},${y + d}`, class: "gb-buy" }, layers.marks);
    }
    for (const p of ((v.last || {}).cells || []).map((c) => cellEls[c]).filter(Boolean)) {
      sv("circle", { cx: p.x, cy: p.y, r: s * 0.9, class: "gb-lastcell" }, layers.marks);
    }
  }

  // "−2" over a piece that loses hit points and survives (State.action_effects' damage): hovered, or the last move's
  function damageMark(cell, n, cls) {
    const ce = cellEls[cell];
    if (!ce) return;
    const s = geo.size;
    sv("text", { x: ce.x + s * 0.45, y: ce.y - s * 0.45, "font-size": s * 0.5, class: cls, "data-cell": cell,
      "data-damage": String(n) }, layers.over, `−${n}`);
  }

  function drawLast(v) {
    // the last move: its cells joined (the attacker's line), and a cross where it (or its roll) removed a piece
    const last = v.last || { cells: [], removed: [] };
    const s = geo.size;
    const pts3 = last.cells.map((c) => cellEls[c]).filter(Boolean);  // (their circles: drawMarks)
    if (pts3.length > 1) {
      sv("polyline", { points: pts3.map((p) => `${p.x},${p.y}`).join(" "), class: "gb-lastline" }, layers.over);
    }
    for (const [c, n] of Object.entries(last.damaged || {})) damageMark(c, n, "gb-damaged");
    for (const c of last.removed) {
      const p = cellEls[c];
      if (!p) continue;
      const d = s * 0.4;
      sv("path", { d: `M${p.x - d},${p.y - d}L${p.x + d},${p.y + d}M${p.x + d},${p.y - d}L${p.x - d},${p.y + d}`,
        class: "gb-died", "data-died": c }, layers.over);
    }
    // a refused click: the cells that block it (State.explain_cells); a threat: its attackers' lines (State.attack_lines)
    for (const c of v.blocks || []) {
      const p = cellEls[c];
      if (p) sv("circle", { cx: p.x, cy: p.y, r: s * 0.8, class: "gb-why-block", "data-cell": c, "data-hex": c }, layers.over);
    }
    for (const [a, b, seat] of v.attack_lines || []) {
      const P1 = cellEls[a], P2 = cellEls[b];
      if (P1 && P2) sv("line", { x1: P1.x, y1: P1.y, x2: P2.x, y2: P2.y, class: "gb-attacker-line", "data-from": a, "data-to": b,
        "data-seat": seat }, layers.over);
    }
  }

  function drawShapes(v) {
    layers.shapes.innerHTML = "";
    const sh = v.shapes || {};
    const s = geo.size;
    for (const [a, b, colour] of sh.arrows || []) {
      const A = cellEls[a], B = cellEls[b];
      if (!A || !B) continue;
      const dx = B.x - A.x, dy = B.y - A.y, len = Math.hypot(dx, dy) || 1;
      sv("line", { x1: A.x, y1: A.y, x2: B.x - (dx / len) * s * 0.35, y2: B.y - (dy / len) * s * 0.35, class: "gb-arrow",
        stroke: SHAPES[colour] || SHAPES.green, "stroke-width": s * 0.2, "marker-end": `url(#gb-head-${colour}-${uid})`,
        "data-shape": `${a}-${b}` }, layers.shapes);
    }
    for (const [c, colour] of sh.circles || []) {
      const C = cellEls[c];
      if (C) sv("circle", { cx: C.x, cy: C.y, r: s * 0.85, class: "gb-circle", stroke: SHAPES[colour] || SHAPES.green,
        "stroke-width": s * 0.1, fill: "none", "data-shape": c }, layers.shapes);
    }
  }

  function drawLines(v) {
    linesBox.innerHTML = "";
    const seen = (v.lines || []).find((l) => l.view);
    if (seen) el("div", { class: "gb-lines-view" }, linesBox, `scores: ${seen.view}`);  // one seat's view, every line
    for (const l of v.lines || []) {
      if (l.error) { el("div", { class: "gb-line" }, linesBox, l.error); continue; }
      const forced = (l.words || "").includes("by force");
      const head = l.score === null || l.score === undefined ? "" : (forced ? l.words : `${fmt(l.score)} ${l.unit}`) + ": ";
      el("div", { class: "gb-line", title: `${l.words || ""} (${l.by || "search"}, depth ${l.depth}` +
        (l.proposed_by && l.proposed_by !== l.by ? `; move proposed by ${l.proposed_by})` : ")") }, linesBox,
        `${head}${l.moves.join(" ")}`);
    }
  }

  function drawTurn(v) {
    turn.innerHTML = "";
    if (v.over) { el("span", { class: "gb-turn-text" }, turn, "game over"); return; }
    const idx = v.to_move_index;
    if (idx >= 0 && geo.colours[idx]) el("span", { class: "gb-swatch", style: `background:${geo.colours[idx]}` }, turn);
    el("span", { class: "gb-turn-text" }, turn, " " + (v.status.split(" · ")[1] || v.to_move));
  }

  function drawEval(v) {
    const e = v.eval || {};
    const pts2 = e.points || [];
    const top = Math.max(1, ...pts2.map((p) => Math.abs(p[1])), Math.abs(e.here || 0));
    const here = e.here;
    const share = here === null || here === undefined ? 50 : 50 + 50 * Math.tanh((here / top) * 1.5);
    evalFill.style.width = `${share.toFixed(1)}%`;
    evalFill.style.background = geo.colours[0] || "#eee";
    // the rest of the bar: the one opposing team's colour, or grey where several sides oppose the first seat
    evalBar.style.background = e.against === undefined ? (geo.colours[1] || "#333") : e.against >= 0 ? geo.colours[e.against] : "#9e9e9e";
    evalText.textContent = `${e.seat || ""} ${fmt(here)} ${e.unit || ""}`;
    evalText.title = e.view || "";
    graph.innerHTML = "";
    if (pts2.length < 2) return;
    const w = 300, h = 60, x0 = pts2[0][0], x1 = pts2[pts2.length - 1][0] || 1;
    const X = (p) => ((p - x0) / Math.max(1, x1 - x0)) * (w - 8) + 4, Y = (q) => h / 2 - (q / top) * (h / 2 - 4);
    const g = sv("svg", { viewBox: `0 0 ${w} ${h}`, class: "gb-graphsvg", role: "img",
      "aria-label": `evaluation in ${e.unit}` }, graph);
    sv("line", { x1: 0, x2: w, y1: h / 2, y2: h / 2, class: "gb-zero" }, g);
    sv("polyline", { points: pts2.map((p) => `${X(p[0]).toFixed(1)},${Y(p[1]).toFixed(1)}`).join(" "), class: "gb-curve" }, g);
    for (const sw of e.swings || []) {  // a move after which the evaluation jumps: a bar on the graph
      sv("line", { x1: X(sw.ply), x2: X(sw.ply), y1: 2, y2: h - 2, class: "gb-swing", "data-node": String(sw.id) }, g);
    }
    for (const p of pts2) {
      const dot = sv("circle", { cx: X(p[0]), cy: Y(p[1]), r: p[0] === e.current ? 3.5 : 2,
        class: "gb-gpoint" + (p[0] === e.current ? " gb-gcur" : ""), "data-node": String(p[2]) }, g);
      sv("title", {}, dot, `move ${p[0]}: ${e.seat} ${fmt(p[1])} ${e.unit}`);
      dot.addEventListener("click", () => model.send({ type: "goto", node: p[2] }));
    }
    sv("text", { x: 4, y: 10, class: "gb-gunit", "font-size": 9 }, g, `${e.view || e.seat + "'s view"}, ${e.unit} (±${fmt(top).slice(1)})`);
  }

  function drawButtons(v) {
    buttons.innerHTML = "";
    cardsBox.innerHTML = "";
    let list = v.buttons || [];
    // more legal actions than a view lists (the board's declared cap): how many, and how one is chosen
    if (v.actions && v.actions.words) el("div", { class: "gb-many-actions" }, buttons, v.actions.words);
    const cards = v.palette || [];
    if (cards.length) {
      // purchases as cards: the King first, then by price; one click plays a card with a single choice
      const inCards = new Set();
      for (const c of cards) for (const i of c.indexes) inCards.add(i);
      if (cardOpen && !cards.some((c) => c.card === cardOpen)) cardOpen = null;
      if (cardOpen) {
        const c = cards.find((k) => k.card === cardOpen);
        el("button", { class: "gb-btn gb-back" }, cardsBox, `◀ ${c.card}`).addEventListener("click", () => { cardOpen = null; drawButtons(v); });
        for (const i of c.indexes) {
          const b = list.find((x) => x.index === i);
          if (b) choice(b, b.text.split(":").pop(), cardsBox);
        }
      } else {
        for (const c of cards) {
          const card = el("button", { class: "gb-card" + (c.first ? " gb-card-first" : ""), "data-card": c.card,
            title: `${c.card}: ${c.price} — ${c.indexes.length} choice${c.indexes.length > 1 ? "s" : ""}` }, cardsBox);
          el("span", { class: "gb-card-name" }, card, c.card);
          el("span", { class: "gb-card-price" }, card, String(c.price));
          if (c.indexes.length > 1) el("span", { class: "gb-card-n" }, card, `×${c.indexes.length}`);
          card.addEventListener("mouseenter", () => {
            if (c.pattern && (v.pattern || {}).card !== c.pattern) model.send({ type: "pattern", card: c.pattern });
          });
          card.addEventListener("click", () => {
            if (c.indexes.length === 1) model.send({ type: "choose", index: c.indexes[0] });
            else { cardOpen = c.card; drawButtons(v); }
          });
        }
      }
      list = list.filter((b) => !inCards.has(b.index));
      const pat = v.pattern || {};
      if (pat.svg && cards.some((c) => c.pattern === pat.card)) {
        // the card's pattern diagram (the game's own drawing, parsed as SVG, never as HTML)
        const doc = new DOMParser().parseFromString(pat.svg, "image/svg+xml");
        const box = el("div", { class: "gb-pattern", "data-card": pat.card }, cardsBox);
        if (doc.documentElement && doc.documentElement.nodeName === "svg") box.appendChild(document.importNode(doc.documentElement, true));
      }
    }
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
    for (const b of list) choice(b, b.label || b.text);  // the game's words where it names a choice (a promotion)
  }

  function choice(b, label, parent = buttons) {
    // the hint's words after its notation (the button shows the notation already); a choice the game names (a
    // promotion's label) keeps its own words, its sentence on hover
    const said = (b.hint || "").startsWith(`${b.text}: `) ? b.hint.slice(b.text.length + 2) : (b.hint || "");
    const btn = el("button", { class: A("choice", "gb-btn gb-choice"), title: b.hint || b.text, "data-text": b.text }, parent,
      said && said !== b.text && !b.label ? `${label} — ${said.replace(/ \(.*\)$/, "").slice(0, 80)}` : label);
    btn.addEventListener("click", () => model.send({ type: "choose", index: b.index }));
    btn.addEventListener("mouseenter", () => { hover.textContent = b.hint || b.text; });
  }

  function drawMoves(v) {
    // one line per turn (a turn's actions and rolls together), numbered by the game's turns; variations indented.
    // Only the turns whose moves changed are rebuilt (a move adds one, an undo changes two): a long game's list
    // is not redrawn on every click.
    const turns = [];
    let key = null;
    for (const r of v.moves || []) {
      const k = `${r.depth}|${r.turn}`;
      if (k !== key || !turns.length) { turns.push([]); key = k; }
      turns[turns.length - 1].push(r);
    }
    let cur = null;
    turns.forEach((rows, i) => {
      const k = gen + "|" + JSON.stringify(rows);
      const old = moves.children[i];
      if (old && old.__gbKey === k) { if (rows.some((r) => r.current)) cur = old.querySelector(".gb-current"); return; }
      const li = turnRow(rows);
      li.__gbKey = k;
      if (old) old.replaceWith(li); else moves.appendChild(li);
      if (rows.some((r) => r.current)) cur = li.querySelector(".gb-current");
    });
    while (moves.children.length > turns.length) moves.lastChild.remove();
    const curId = cur ? cur.getAttribute("data-node") : null;
    if (cur && curId !== moves.__gbCurrent) cur.scrollIntoView({ block: "nearest" });  // only when the current move moved
    moves.__gbCurrent = curId;
  }

  function turnRow(rows) {
    const r0 = rows[0];
    const li = el("li", { class: "gb-turnrow" + (r0.depth ? " gb-variation" : ""), style: `margin-left:${r0.depth * 1.2}em` });
    el("span", { class: "gb-turnno" }, li, `${r0.turn}.`);
    for (const r of rows) {
      const span = el("span", { class: A("move", "gb-move") + (r.chance ? " gb-roll" : "") + (r.current ? " gb-current" : "")
        + (r.future ? " " + A("future", "gb-future") : ""),
        "data-node": String(r.id), title: `${r.player}: ${r.words || r.text}${r.comment ? " — " + r.comment : ""}` }, li);
      el("span", { class: A("move-text", "gb-move-text") }, span, r.chance ? (r.words || r.text) : r.text);
      if (!r.chance && r.sign) el("span", { class: "gb-sign" }, span, r.sign);
      // the agent's own search value of the move it played (its seat's view), as the old board's "~" scores
      if (r.eval_kind === "search" && r.eval !== null && r.eval !== undefined) {
        el("span", { class: "gb-score", title: `${r.player}'s agent's own search value, its view (${geo.unit || ""})` }, span,
          ` ~${Math.abs(r.eval) >= 1e4 ? (r.eval > 0 ? "win" : "loss") : fmt(r.eval)}`);
      }
      if (!r.chance && r.words && r.words !== r.text) el("span", { class: "gb-words" }, span, ` (${r.words.slice(0, 160)})`);
      if (r.comment) el("span", { class: "gb-comment" }, span, ` {${r.comment.slice(0, 80)}}`);
      span.addEventListener("click", (ev) => { ev.stopPropagation(); model.send({ type: "goto", node: r.id }); });
      if (r.result) el("span", { class: "gb-result" }, li, ` — ${r.result}`);
    }
    return li;
  }

  function drawDiff(v) {
    diffBox.innerHTML = "";
    const d = v.diff;
    if (!d) return;
    el("div", {}, diffBox, `${d.change}: +${d.n_added} / −${d.n_removed} legal actions (same ${d.same})`);
    if (d.added.length) el("div", { class: "gb-added" }, diffBox, "+ " + d.added.join(" "));
    if (d.removed.length) el("div", { class: "gb-removed" }, diffBox, "− " + d.removed.join(" "));
    for (const o of d.outcomes || []) {
      el("div", { class: "gb-outcome" + (o.same ? "" : " gb-changed") }, diffBox, `${o.what}: ${o.now} → ${o.then}`);
    }
    if (d.svg) {  // the position under the variant (the workbench's own picture, parsed as SVG only)
      const doc = new DOMParser().parseFromString(d.svg, "image/svg+xml");
      const box = el("div", { class: "gb-variant" }, diffBox);
      if (doc.documentElement && doc.documentElement.nodeName === "svg") box.appendChild(document.importNode(doc.documentElement, true));
    }
  }

  function drawBatch() {
    const rows = model.get("batch") || [];
    batchPicker.style.display = rows.length ? "" : "none";
    if (rows.length && !tools.open) tools.open = true;
    if (batchPicker.options.length === rows.length) return;
    batchPicker.innerHTML = "";
    for (const r of rows) {
      el("option", { value: String(r.game_id) }, batchPicker,
        `game ${r.game_id} · ${r.cell || "default"} · ${r.winner} (${r.victory}) · ${r.plies} plies · ${r.agents}`);
    }
  }

  function drawCatalog() {
    const rows = model.get("catalog") || [];
    if (picker.options.length === rows.length) return;
    picker.innerHTML = "";
    for (const r of rows) el("option", { value: r.name }, picker, `${r.verdict} · ${r.name} — ${r.title}`);
  }

  function legendRow(kind, swatch, words, extra = {}) {
    const row = el("div", { class: `gb-legend-row gb-legend-${kind}`, ...extra }, legendBody);
    if (swatch) el("span", { class: "gb-swatch", style: swatch }, row);
    row.appendChild(document.createTextNode(" " + words));
    return row;
  }

  function drawLegend(v, used) {
    // everything drawn now: seats and teams, terrain, marks, badges, the heat layer's scale
    legendBody.innerHTML = "";
    const teams = geo.teams || [];
    geo.players.forEach((p, i) => {
      const team = teams.find((t) => t.includes(p));
      const words = p + (team && team.length > 1 ? ` (team ${team.join(" & ")})` : "") + (i === v.to_move_index ? " — to move" : "");
      legendRow("seat", `background:${geo.colours[i]}`, words, { "data-colour": geo.colours[i] });
    });
    for (const l of geo.legend) {
      if (used.terrain.has(l.cls)) legendRow("terrain", `background:${l.colour}`, l.words, { "data-colour": l.colour });
    }
    for (const m of used.marks) {
      const words = (v.legend || []).find((x) => x.sign === m);
      legendRow("mark", `border:2px solid ${colourOfMark(m)};border-radius:50%`, `${m}${words && words.words ? ": " + words.words : ""}`,
        { "data-colour": colourOfMark(m) });
    }
    for (const b of v.legend || []) {
      if (b.kind === "badge") legendRow("badge", "", `${b.sign}${b.words ? " — " + b.words : ""}`);
    }
    if (v.previews && Object.values(v.previews).some((p) => Object.keys(p.odds || {}).length)) {
      legendRow("odds", "background:#fffbe6;border-color:#d0021b", "n/36: the chance the attack removes that piece");
    }
    if ((v.attack_lines || []).length) legendRow("attack-lines", "border-top:2px dashed #ff1744", "dashed red line: a piece that attacks the game's key piece");
    if (Object.keys(v.attackers || {}).length) legendRow("attackers", "border-top:2px solid #555", "hover a piece: a line from each piece that attacks it, in its seat's colour");
    if ((v.buy_cells || []).length) legendRow("buy", "border:2px solid #1565c0", "blue cross: a purchase can be placed here");
    const last = v.last || { cells: [], removed: [] };
    if (last.cells.length) legendRow("last", "background:rgba(245,183,0,.35)", "the last move's cells (dashed: its line)");
    if (Object.keys(last.damaged || {}).length) legendRow("damaged", "color:#b00020", "−n: hit points the last move took from a piece that survives (hover a target: what it would take)");
    if (last.removed.length) legendRow("died", "border:2px solid #8b0000", "dark red cross: removed by the last move or its roll");
    if ((v.shapes || {}).arrows || (v.shapes || {}).circles) legendRow("shape", "background:#15781b", "your drawings (right-drag; shift red, alt blue, ctrl yellow)");
    if (v.heat_layer) {
      const row = legendRow("heat", "background:linear-gradient(90deg, rgba(30,90,220,.65), transparent, rgba(220,40,30,.65));width:5em",
        `${v.heat_layer} for ${geo.players[v.heat_player]}: ${(v.heat_scale || [0, 0]).map((x) => fmt(x)).join(" … ")}`);
      row.setAttribute("data-scale", (v.heat_scale || []).join(","));
    }
  }

  function exportText() {
    const clone = svg.cloneNode(true);
    clone.setAttribute("xmlns", SVG);
    const style = document.createElementNS(SVG, "style");
    style.textContent = EXPORT_STYLE;
    clone.insertBefore(style, clone.firstChild);
    if (!coordIn.checked) clone.querySelector(".gb-layer-coords")?.remove();
    for (const p of clone.querySelectorAll("polygon.gb-cell")) if (!p.style.fill) p.style.fill = "#ece6d6";
    if (obs) {  // a game without cells: the picture is its observation text, one line per row
      const lines = obs.textContent.split("\n");
      const w = Math.max(8, ...lines.map((l) => l.length)) * 0.62 + 1, h = lines.length * 1.25 + 1;
      clone.setAttribute("viewBox", `0 0 ${w} ${h}`);
      lines.forEach((line, i) => {
        sv("text", { x: 0.5, y: 1.5 + i * 1.25, "font-size": 1, "font-family": "monospace", fill: "#1a1a1a",
          style: "white-space: pre", class: "gb-observation-line" }, clone, line);
      });
      return [new XMLSerializer().serializeToString(clone), [0, 0, w, h]];
    }
    return [new XMLSerializer().serializeToString(clone), bbox];
  }
  function exportSvg() {
    saveLink(fr, `${(model.get("view") || {}).game || "board"}-position.svg`, new Blob([exportText()[0]], { type: "image/svg+xml" }));
  }
  function exportPng() {
    const [text, box] = exportText();
    const url = URL.createObjectURL(new Blob([text], { type: "image/svg+xml" }));
    const img = new Image();
    img.onload = () => {
      const c = document.createElement("canvas");
      c.width = 1200;
      c.height = Math.round(1200 * box[3] / box[2]);
      const ctx = c.getContext("2d");
      ctx.fillStyle = "#fff";
      ctx.fillRect(0, 0, c.width, c.height);
      ctx.drawImage(img, 0, 0, c.width, c.height);
      URL.revokeObjectURL(url);
      c.toBlob((blob) => saveLink(fr, `${(model.get("view") || {}).game || "board"}-position.png`, blob), "image/png");
    };
    img.src = url;
  }

  function showClipboard() {
    const c = model.get("clipboard") || {};
    if (c.text !== undefined) { clip.value = c.text; tools.open = true; clip.select(); }
  }

  function saveDownload() {
    const d = model.get("download") || {};
    if (d.name && d.text) {
      const type = d.name.endsWith(".svg") ? "image/svg+xml" : d.name.endsWith(".json") ? "application/json" : "text/yaml";
      saveLink(fr, d.name, new Blob([d.text], { type }));
    }
  }

  // keyboard stepping: ← → through the line, Home / End, Esc clears the selection, f flips
  // keyboard stepping: presses made while the kernel is busy are queued into one "nav" message with a count
  let navQueue = null, navTimer = null;
  const nav = (to) => {
    if (navQueue && navQueue.to !== to) { model.send(navQueue); navQueue = null; }
    navQueue = navQueue ? { ...navQueue, count: navQueue.count + 1 } : { type: "nav", to, count: 1 };
    clearTimeout(navTimer);
    navTimer = setTimeout(() => { if (navQueue) model.send(navQueue); navQueue = null; }, 40);
  };
  root.addEventListener("keydown", (ev) => {
    if (ev.target && ["INPUT", "SELECT", "TEXTAREA"].includes(ev.target.tagName)) return;
    const v = model.get("view") || {};
    const send = (m) => { ev.preventDefault(); model.send(m); };
    if (ev.key === "ArrowLeft" && (v.can_undo || navQueue)) { ev.preventDefault(); nav("back"); }
    else if (ev.key === "ArrowRight" && (v.can_redo || navQueue)) { ev.preventDefault(); nav("forward"); }
    else if (ev.key === "Home") { ev.preventDefault(); nav("home"); }
    else if (ev.key === "End" && v.can_redo) { ev.preventDefault(); nav("end"); }
    else if (ev.key === "Escape") send({ type: "cancel" });
    else if (ev.key === "f") { ev.preventDefault(); flipBtn.click(); }
  });

  model.on("change:geometry", build);
  model.on("change:view", draw);
  model.on("change:busy", () => { busy.textContent = model.get("busy") || ""; root.classList.toggle("gb-is-busy", !!model.get("busy")); });
  model.on("change:catalog", drawCatalog);
  model.on("change:download", saveDownload);
  model.on("change:batch", drawBatch);
  model.on("change:clipboard", showClipboard);
  build();
  drawBatch();
  return () => {
    model.off("change:geometry", build);
    model.off("change:view", draw);
    model.off("change:catalog", drawCatalog);
    model.off("change:download", saveDownload);
  };
}

export default { initialize, render };
