// HexBoard front end: draws the Python-side `view` on the `geometry` from viz.layout and reports
// clicks and button presses with model.send. It decides nothing about the rules, and it never names
// a server path: files come and go through the browser (upload, download) or the scenario picker.

const SVG = "http://www.w3.org/2000/svg";
const PIECE_NAMES = { F: "feudal", K: "knight", P: "pikeman", C: "cavalry", A: "archer", I: "infantryman" };
const OVERLAYS = { zones: "pikeman zones", markers: "archer markers", aura: "feudal aura", last: "last move" };
// The move list's numbers: where each came from (controller.move_rows' eval_kind).
const EVAL_MARKS = { search: "", settled: "~", static: "°" };
const EVAL_TITLES = {
  search: "the agent's search score for the move it played (White's view, material units)",
  settled: "~ the agent's move, scored by settling the captures after it (this agent reports no score)",
  static: "° static one-ply evaluation after this move (White's view, material units), not a search",
};
const EVAL_NOTES = {
  search: "plain = the agent's search score for its move",
  settled: "~ = the agent's move scored after the captures it allows (the agent reports no score)",
  static: "° = static one-ply evaluation after the move (no search)",
};
const HEATS = { "": "no heat map", zone_control: "zone control", threat: "threat" };
// Colours of the static pictures (viz/scene.py COLOURS), so the board and the pictures read alike.
const TERRAIN = {
  land: "#ece3c6", river: "#6fa8dc", ford: "#a9d5f3", bridge: "#8b5a2b", castle: "#bdbdbd",
  hill: "#b5d7a6", swamp: "#76a5af", winter_river: "#eaf4fb", winter_ford: "#d6e9f6",
};
// Highlight kinds: one colour each, drawn above the pieces so an occupied destination shows.
const TARGETS = {
  move: ["#1a9e3a", "move"], stop: ["#ff8c00", "move that must stop here (W2)"],
  attack: ["#e3001b", "attack (takes the piece)"], mine: ["#222222", "step on an enemy mine"],
  shot: ["#6a00f4", "archer shot: marks this hex"], castle: ["#0064dc", "castling (swap)"],
  order: ["#d000b0", "Order: infantry step"],
};
const VIRIDIS = ["#440154", "#3b528b", "#21918c", "#5ec962", "#fde725"];
// Right-click drawings (saved in the record): plain right-drag green, with Shift red, Alt blue, Ctrl yellow.
const SHAPES = { green: "#15781b", red: "#c8102e", blue: "#003088", yellow: "#e68f00" };
const DEATH = "#d0021b";

function svgEl(tag, attrs = {}, parent = null, text = null) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== null) e.textContent = text;
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

function viridis(t) {
  t = Math.max(0, Math.min(1, t));
  const x = t * (VIRIDIS.length - 1);
  const i = Math.min(VIRIDIS.length - 2, Math.floor(x));
  const f = x - i;
  const a = VIRIDIS[i], b = VIRIDIS[i + 1];
  const ch = (s, k) => parseInt(s.slice(1 + 2 * k, 3 + 2 * k), 16);
  const mix = [0, 1, 2].map((k) => Math.round(ch(a, k) + f * (ch(b, k) - ch(a, k))));
  return `rgb(${mix.join(",")})`;
}

function render({ model, el }) {
  const geo = model.get("geometry");
  const names = geo.names;
  const index = Object.fromEntries(names.map((n, i) => [n, i]));
  const W = geo.width, H = geo.height;
  const size = geo.size;
  const root = htmlEl("div", { class: "tf-root", tabindex: "0" }, el);
  const grid = htmlEl("div", { class: "tf-grid" }, root);
  let pending = ""; // what the page asked for and waits on (busy sign until the next view)
  let inFlight = 0; // messages sent and not yet answered by a redraw (keys queue behind them)
  let navQueue = null; // {to, count}: arrow-key presses waiting for the board to answer

  const send = (msg, busyText = "") => {
    if (busyText) { pending = busyText; showBusy(); }
    inFlight += 1;
    model.send(msg);
  };
  const nav = (to) => {
    // Presses that arrive while the kernel works are added up, then sent as one (none is lost).
    if (navQueue && navQueue.to === to && (to === "back" || to === "forward")) navQueue.count += 1;
    else { flushNav(); navQueue = { to, count: 1 }; }
    if (inFlight === 0) flushNav();
  };
  function flushNav() {
    if (!navQueue) return;
    const q = navQueue;
    navQueue = null;
    send({ type: "nav", to: q.to, count: q.count });
  }

  // ---------------------------------------------------------------- the board
  const boardCol = htmlEl("div", { class: "tf-board-col" }, grid);
  const boardRow = htmlEl("div", { class: "tf-board-row" }, boardCol);
  const evalBar = htmlEl("div", { class: "tf-evalbar", title: "evaluation (White's view, material units)" }, boardRow);
  const evalFill = htmlEl("div", { class: "tf-evalbar-white" }, evalBar);
  const evalText = htmlEl("div", { class: "tf-evalbar-text" }, evalBar);
  const boardBox = htmlEl("div", { class: "tf-board" }, boardRow);
  const svg = svgEl("svg", { class: "tf-svg", viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: "xMidYMid meet" }, boardBox);
  const defs = svgEl("defs", {}, svg);
  const markerColours = [["last", "#c0392b"], ["shot", TARGETS.shot[0]], ["best", "#0050c8"], ["gained", "#0a8f3c"], ["lost", "#d01010"],
    ["step", TARGETS.order[0]], ["attacker", "#ff1744"], ["path", "#ff8c00"], ...Object.entries(SHAPES).map(([k, c]) => [`shape-${k}`, c])];
  for (const [id, colour] of markerColours) {
    const m = svgEl("marker", { id: `tf-arrow-${id}`, viewBox: "0 0 10 10", refX: "7", refY: "5", markerWidth: "3.2", markerHeight: "3.2", orient: "auto-start-reverse" }, defs);
    svgEl("path", { d: "M 0 0 L 10 5 L 0 10 z", fill: colour }, m);
  }
  const layers = {};
  for (const name of ["hexes", "heat", "zones", "signs", "aura", "names", "why", "deaths", "pieces", "markers", "targets",
    "preview", "order", "threat", "arrows", "shapes", "drag", "coords"]) {
    layers[name] = svgEl("g", { class: `tf-layer-${name}` }, svg);
  }
  const hoverLine = htmlEl("div", { class: "tf-hover", role: "status" }, boardCol);
  const legendBox = htmlEl("details", { class: "tf-legend-box" }, boardCol);
  htmlEl("summary", {}, legendBox, "Legend");
  const legend = htmlEl("div", { class: "tf-legend" }, legendBox);

  let flipped = false;
  const P = ([x, y]) => (flipped ? [W - x, H - y] : [x, y]);
  const centre = (h) => P(geo.centres[index[h]]);
  const points = (h, scale = 1) => {
    const [cx, cy] = centre(h);
    return geo.corners[index[h]].map((p) => {
      const [x, y] = P(p);
      return `${cx + (x - cx) * scale},${cy + (y - cy) * scale}`;
    }).join(" ");
  };
  const hexAt = (ev) => {
    const hit = document.elementFromPoint(ev.clientX, ev.clientY);
    const t = hit && hit.closest ? hit.closest("[data-hex]") : null;
    return t ? t.getAttribute("data-hex") : null;
  };
  let press = null; // a pointer held down: {hex, button, x, y, moved}
  let suppressClick = false;
  svg.addEventListener("contextmenu", (ev) => ev.preventDefault());
  svg.addEventListener("pointerdown", (ev) => {
    const h = hexAt(ev);
    if (!h) return;
    press = { hex: h, button: ev.button, x: ev.clientX, y: ev.clientY, moved: false, shift: ev.shiftKey, alt: ev.altKey, ctrl: ev.ctrlKey };
  });
  svg.addEventListener("pointermove", (ev) => {
    if (!press) return;
    if (Math.hypot(ev.clientX - press.x, ev.clientY - press.y) > 6) press.moved = true;
    if (press.moved && press.button === 0) drawDragGhost(press.hex, ev);
  });
  svg.addEventListener("pointerup", (ev) => {
    const p = press;
    press = null;
    layers.drag.replaceChildren();
    if (!p) return;
    const h = hexAt(ev);
    if (p.button === 2) {
      const colour = p.shift ? "red" : p.alt ? "blue" : p.ctrl ? "yellow" : "green";
      if (h) send({ type: "shape", from: p.hex, to: h, colour });
      return;
    }
    if (p.button === 0 && p.moved && h && h !== p.hex) {
      suppressClick = true; // the click the browser may fire after this drop is not a click on a hex
      setTimeout(() => { suppressClick = false; }, 60);
      send({ type: "drag", from: p.hex, to: h });
    }
  });
  svg.addEventListener("click", (ev) => {
    root.focus({ preventScroll: true });
    if (suppressClick) { suppressClick = false; return; }
    const target = ev.target.closest("[data-hex]");
    if (target) send({ type: "click", hex: target.getAttribute("data-hex") });
  });
  function drawDragGhost(h, ev) {
    const v = model.get("view");
    const letter = (v.pieces || {})[h];
    layers.drag.replaceChildren();
    if (!letter) return;
    const pt = svg.createSVGPoint();
    pt.x = ev.clientX; pt.y = ev.clientY;
    const m = svg.getScreenCTM();
    if (!m) return;
    const q = pt.matrixTransform(m.inverse());
    const white = letter === letter.toUpperCase();
    const g = svgEl("g", { class: `tf-piece tf-drag ${white ? "tf-white" : "tf-black"}` }, layers.drag);
    svgEl("circle", { cx: q.x, cy: q.y, r: size * 0.56, opacity: 0.8 }, g);
    svgEl("text", { x: q.x, y: q.y + size * 0.2 }, g, letter.toUpperCase());
  }
  // Hover: a lit hex previews what the move does; an unlit one says why the selected piece cannot go there.
  svg.addEventListener("mouseover", (ev) => {
    const t = ev.target.closest("[data-hex]");
    showHover(t ? t.getAttribute("data-hex") : null);
  });
  svg.addEventListener("mouseleave", () => showHover(null));

  // ---------------------------------------------------------------- the side panel
  // Two parts: the top (status, messages, moves) sits beside the board when there is room and above it
  // otherwise; the rest (analysis, rules, sections) beside or below. Either way the top stays in sight.
  const panel = htmlEl("div", { class: "tf-panel tf-panel-top" }, grid);
  const rest = htmlEl("div", { class: "tf-panel tf-panel-rest" }, grid);
  const status = htmlEl("div", { class: "tf-status" }, panel);
  const result = htmlEl("div", { class: "tf-result" }, panel);
  const busy = htmlEl("div", { class: "tf-busy", role: "status" }, panel);
  const message = htmlEl("div", { class: "tf-message", role: "status" }, panel);
  const choices = htmlEl("div", { class: "tf-choices" }, panel);
  const rulesBox = htmlEl("div", { class: "tf-rules" }, panel);

  const section = (title, open = false) => {
    const d = htmlEl("details", { class: "tf-section" }, rest);
    if (open) d.open = true;
    htmlEl("summary", {}, d, title);
    return d;
  };
  const row = (parent, cls = "") => htmlEl("div", { class: `tf-row ${cls}` }, parent);
  const button = (parent, text, type, extra = () => ({}), busyText = "", title = "") => {
    const b = htmlEl("button", { class: `tf-btn tf-btn-${type}`, type: "button" }, parent, text);
    if (title) b.title = title;
    b.addEventListener("click", () => send({ type, ...extra() }, busyText));
    return b;
  };
  const select = (parent, options, cls) => {
    const s = htmlEl("select", { class: cls }, parent);
    for (const [value, label] of options) htmlEl("option", { value }, s, label);
    return s;
  };

  const markersLine = htmlEl("div", { class: "tf-markers-text" }, panel);
  const play = row(panel, "tf-play");
  const undoBtn = button(play, "◀ Undo", "undo", () => ({}), "", "take back (←)");
  const redoBtn = button(play, "Redo ▶", "redo", () => ({}), "", "replay (→)");
  const orderBtn = button(play, "Order", "order");
  const passBtn = button(play, "Pass", "pass");
  button(play, "Cancel", "cancel");
  button(play, "Flip board", "flip");
  button(play, "Evaluate", "analyse", () => ({}), "evaluating…", "the agent's evaluation and best move");

  const movesHead = htmlEl("div", { class: "tf-heading" }, panel, "Moves (click one; ← → step, Home/End)");
  const moves = htmlEl("div", { class: "tf-moves" }, panel);
  const treeRow = row(panel, "tf-tree");
  const promoteBtn = htmlEl("button", { class: "tf-btn tf-btn-promote", type: "button", title: "move this variation one level up (toward the main line)" }, treeRow, "Promote");
  const deleteBtn = htmlEl("button", { class: "tf-btn tf-btn-delete", type: "button", title: "delete this move and the moves after it" }, treeRow, "Delete move");
  const mainBtn = button(treeRow, "Back to main line", "main_line");
  promoteBtn.addEventListener("click", () => send({ type: "promote", id: model.get("view").node }));
  deleteBtn.addEventListener("click", () => send({ type: "delete", id: model.get("view").node }));
  const evalNote = htmlEl("div", { class: "tf-eval-note" }, rest);
  const destroyed = htmlEl("div", { class: "tf-destroyed" }, rest);
  const analysisBox = htmlEl("div", { class: "tf-analysis" }, rest);
  const anaRow = row(rest, "tf-ana");
  const anaLbl = htmlEl("label", { class: "tf-check-label" }, anaRow);
  const anaBox = htmlEl("input", { type: "checkbox", class: "tf-analysis-on" }, anaLbl);
  anaLbl.appendChild(document.createTextNode("continuous analysis (best lines)"));
  anaBox.addEventListener("change", () => send({ type: "analysis", on: anaBox.checked }));
  const linesBox = htmlEl("ol", { class: "tf-lines" }, rest);
  const graphBox = htmlEl("div", { class: "tf-graph" }, rest);

  rest.appendChild(rulesBox); // the rules line below the moves: the moves stay near the top
  // What changes under a rule value (the same engine query as `check --compare`).
  const cmp = section("What changes under a rule", true);
  const cmpRow = row(cmp);
  const cmpText = htmlEl("input", { type: "text", class: "tf-compare-text", list: "tf-compare-presets", placeholder: "castling=sacrifice" }, cmpRow);
  const presets = htmlEl("datalist", { id: "tf-compare-presets" }, cmpRow);
  button(cmpRow, "Compare", "compare", () => ({ change: cmpText.value }), "comparing…");
  const oneClick = row(cmp, "tf-compare-buttons"); // one button per toggle: its other value, from this game's rules
  const diffBox = htmlEl("div", { class: "tf-diff" }, cmp);

  // New game: every rule of RulesConfig, prefilled with the game's own rules.
  const ng = section("New game (rules)");
  const ruleInputs = {};
  const ruleGrid = htmlEl("div", { class: "tf-rule-grid" }, ng);
  for (const f of geo.rule_fields || []) {
    const lbl = htmlEl("label", { class: "tf-rule" }, ruleGrid, f.name.replace(/_/g, " ") + " ");
    if (f.title) lbl.title = f.title;
    const input = f.values
      ? select(lbl, f.values.map((v) => [String(v), String(v)]), `tf-rule-${f.name}`)
      : htmlEl("input", { type: "text", class: `tf-rule-${f.name}`, placeholder: f.default === null ? "none" : String(f.default) }, lbl);
    ruleInputs[f.name] = input;
  }
  const ng2 = row(ng);
  const other = htmlEl("input", { type: "text", class: "tf-other", placeholder: "more rules: name=value …" }, ng2);
  const seed = htmlEl("input", { type: "text", class: "tf-seed", placeholder: "fresh terrain", title: "terrain seed: empty draws fresh hill and swamp" }, ng2);
  button(ng2, "New game", "new_game", () => {
    const rules = {};
    for (const f of geo.rule_fields || []) {
      const v = ruleInputs[f.name].value.trim();
      if (v !== "" && v !== String(f.default)) rules[f.name] = v;
    }
    return { rules, other: other.value, seed: seed.value.trim() };
  }, "starting…");

  const agSec = section("Agent");
  const ag = row(agSec);
  const agentName = select(ag, [["", "none (two humans)"]], "tf-agent-name");
  const agentParams = htmlEl("input", { type: "text", class: "tf-agent-params", placeholder: "depth=3,nodes=6000" }, ag);
  const agentSide = select(ag, [["black", "plays black"], ["white", "plays white"]], "tf-agent-side");
  const agentSpec = () =>
    agentName.value && agentParams.value.trim() ? `${agentName.value}:${agentParams.value.trim()}` : agentName.value;
  button(ag, "Play against", "agent", () => ({ name: agentSpec(), side: agentSide.value }));
  agentName.addEventListener("change", () => {
    const def = (model.get("view").default_agent || "").split(":");
    agentParams.value = agentName.value === def[0] ? def[1] || "" : "";
  });

  const ovSec = section("Overlays and heat maps", true);
  const ov = row(ovSec);
  const overlayBoxes = {};
  for (const [name, label] of Object.entries(OVERLAYS)) {
    const lbl = htmlEl("label", { class: "tf-check-label" }, ov);
    const box = htmlEl("input", { type: "checkbox", class: `tf-ov-${name}` }, lbl);
    lbl.appendChild(document.createTextNode(label)); // the box before its words, so each reads as one
    box.addEventListener("change", () => send({ type: "overlay", name, on: box.checked }, "drawing…"));
    overlayBoxes[name] = box;
  }
  const hv = row(ovSec);
  const heatKind = select(hv, Object.entries(HEATS), "tf-heat-kind");
  const heatSide = select(hv, [["white", "White"], ["black", "Black"]], "tf-heat-side");
  const sendHeat = () => send({ type: "heat", kind: heatKind.value, side: heatSide.value }, "computing the heat map…");
  heatKind.addEventListener("change", sendHeat);
  heatSide.addEventListener("change", sendHeat);
  const heatLegend = htmlEl("div", { class: "tf-heat-legend" }, ovSec);

  const txSec = section("Position or moves as text");
  const clip = htmlEl("textarea", { class: "tf-clip", rows: "3", placeholder: "paste a move list (f3-f5 f9-f7 …) or a position (JSON), then Paste" }, txSec);
  const txRow = row(txSec);
  button(txRow, "Copy moves", "copy", () => ({ what: "moves" }));
  button(txRow, "Copy position", "copy", () => ({ what: "position" }));
  button(txRow, "Paste", "paste", () => ({ text: clip.value }), "reading…");

  const scSec = section("Scenarios and records", true);
  const scSearch = htmlEl("input", { type: "search", class: "tf-picker-search", placeholder: "search scenarios (file or title)" }, row(scSec));
  const sc = row(scSec);
  const picker = select(sc, [], "tf-picker");
  button(sc, "Load scenario", "pick_scenario", () => ({ name: picker.value }), "loading…");
  button(sc, "Run all checks", "catalog", () => ({ verdicts: true }), "running every scenario's checks…");
  let catalogSig = "";
  const fillPicker = (v) => {
    const q = scSearch.value.trim().toLowerCase();
    const rows = (model.get("catalog") || []).filter((r) => !q || r.name.toLowerCase().includes(q) || (r.title || "").toLowerCase().includes(q));
    const src = v.scenario_source;
    const listed = rows.some((r) => r.name === src);
    const sig = JSON.stringify([q, rows, src]);
    if (sig === catalogSig) return;
    catalogSig = sig;
    picker.replaceChildren();
    if (src && !listed) htmlEl("option", { value: "", class: "tf-picker-upload" }, picker, `(shown: ${src}, not a listed file)`);
    else if (!src) htmlEl("option", { value: "" }, picker, rows.length ? "— pick a scenario —" : "no scenario matches");
    for (const r of rows) {
      const verdict = r.verdict ? ` [${r.verdict}]` : "";
      htmlEl("option", { value: r.name, title: r.name }, picker, `${r.title}${verdict} · ${r.name}`);
    }
    picker.value = src && listed ? src : "";
  };
  scSearch.addEventListener("input", () => fillPicker(model.get("view")));
  const upRow = row(scSec);
  const upload = (label, kind, accept) => {
    const lbl = htmlEl("label", { class: "tf-upload" }, upRow, label + " ");
    const input = htmlEl("input", { type: "file", accept, class: `tf-upload-${kind}` }, lbl);
    input.addEventListener("change", () => {
      const file = input.files[0];
      if (!file) return;
      if (file.size > geo.max_file_bytes) {
        showLocal(`${file.name}: ${file.size} bytes; the board reads files up to ${geo.max_file_bytes} bytes`, "error");
        return;
      }
      file.text().then((text) => send({ type: "upload", kind, name: file.name, text }, "reading…"));
      input.value = "";
    });
  };
  upload("Upload scenario", "scenario", ".yaml,.yml");
  upload("Upload record", "record", ".json");
  const dlRow = row(scSec);
  button(dlRow, "Download record", "download", () => ({ kind: "record" }));
  const scenario = htmlEl("div", { class: "tf-scenario" }, scSec);
  const stepRow = row(scSec);
  button(stepRow, "◀ step", "step", () => ({ delta: -1 }));
  button(stepRow, "step ▶", "step", () => ({ delta: 1 }));
  const checks = htmlEl("ol", { class: "tf-checks" }, scSec);

  const edSec = section("Position editor");
  const ed = row(edSec);
  button(ed, "Edit", "edit");
  button(ed, "Done", "edit_done");
  button(ed, "Cancel edits", "edit_cancel", () => ({}), "", "leave the editor and discard the edits");
  button(ed, "Clear board", "edit_clear");
  button(ed, "Download scenario", "download", () => ({ kind: "scenario" }));
  const palette = row(edSec, "tf-palette");
  const paletteBtns = {};
  for (const p of ["F", "K", "P", "C", "A", "I", "f", "k", "p", "c", "a", "i", "", "marker"]) {
    const white = p === p.toUpperCase();
    const label = p === "" ? "✕ remove" : p === "marker" ? "⊕ marker" : `${white ? "White" : "Black"} ${PIECE_NAMES[p.toUpperCase()]}`;
    const b = htmlEl("button", { class: "tf-btn tf-btn-edit_piece", type: "button" }, palette);
    if (p && p !== "marker") htmlEl("span", { class: `tf-chip ${white ? "tf-chip-white" : "tf-chip-black"}` }, b, p.toUpperCase());
    htmlEl("span", {}, b, label);
    b.addEventListener("click", () => send({ type: "edit_piece", piece: p }));
    paletteBtns[p] = b;
  }
  const editSide = select(palette, [["white", "White to move"], ["black", "Black to move"]], "tf-edit-side");
  editSide.addEventListener("change", () => send({ type: "edit_to_move", side: editSide.value }));
  const exportBox = htmlEl("textarea", { class: "tf-export", rows: "6", readonly: "" }, edSec);

  // Arrow keys step through the move list (the board takes focus when clicked).
  root.addEventListener("keydown", (ev) => {
    if (ev.target.tagName === "INPUT" || ev.target.tagName === "TEXTAREA" || ev.target.tagName === "SELECT") return;
    const keys = { ArrowLeft: "back", ArrowRight: "forward", Home: "home", End: "end" };
    if (keys[ev.key]) { nav(keys[ev.key]); ev.preventDefault(); }
  });

  function showBusy() {
    const text = model.get("busy") || pending;
    busy.textContent = text ? `⏳ ${text}` : "";
    busy.style.display = text ? "" : "none";
    root.classList.toggle("tf-is-busy", !!text);
  }
  function showLocal(text, level) {
    message.textContent = text;
    message.className = `tf-message tf-${level}`;
  }

  // ---------------------------------------------------------------- drawing helpers
  function arrow(layer, a, b, cls, marker, dash = null, endInset = 0.3) {
    const [x1, y1] = centre(a);
    const [x2, y2] = centre(b);
    const d = Math.hypot(x2 - x1, y2 - y1) || 1;
    const s = 0.3 * size, e = endInset * size;
    const attrs = {
      x1: x1 + ((x2 - x1) / d) * s, y1: y1 + ((y2 - y1) / d) * s, x2: x2 - ((x2 - x1) / d) * e, y2: y2 - ((y2 - y1) / d) * e,
      class: cls, "marker-end": `url(#tf-arrow-${marker})`,
    };
    if (dash) attrs["stroke-dasharray"] = dash;
    return svgEl("line", attrs, layer);
  }

  function drawLegend(v) {
    legend.replaceChildren();
    const item = (draw, text, cls = "") => {
      const span = htmlEl("span", { class: `tf-key ${cls}` }, legend);
      const s = svgEl("svg", { width: 22, height: 22, viewBox: "0 0 22 22" }, span);
      draw(s);
      htmlEl("span", {}, span, text);
    };
    const hex = (fill) => (s) => svgEl("polygon", { points: "6,2 16,2 21,11 16,20 6,20 1,11", fill, stroke: "#3a3a3a" }, s);
    const winter = v.winter;
    htmlEl("b", {}, legend, "Terrain: ");
    item(hex(TERRAIN.land), "land");
    item(hex(winter ? TERRAIN.winter_river : TERRAIN.river), winter ? "river (ice: land in winter)" : "river");
    item(hex(winter ? TERRAIN.winter_ford : TERRAIN.ford), "ford");
    item(hex(TERRAIN.bridge), "bridge");
    item(hex(TERRAIN.castle), "castle (thick edge: centre)");
    item((s) => { hex(TERRAIN.hill)(s); svgEl("text", { x: 11, y: 15, class: "tf-key-sign" }, s, "▲"); }, "hill (owner letter)");
    item((s) => { hex(TERRAIN.swamp)(s); svgEl("text", { x: 11, y: 15, class: "tf-key-sign" }, s, "≈"); }, "swamp (owner letter)");
    htmlEl("br", {}, legend);
    htmlEl("b", {}, legend, "Pieces: ");
    for (const [l, n] of Object.entries(PIECE_NAMES)) item((s) => {
      svgEl("circle", { cx: 11, cy: 11, r: 9, fill: "#fbfbf8", stroke: "#1a1a1a" }, s);
      svgEl("text", { x: 11, y: 15, class: "tf-key-letter" }, s, l);
    }, n);
    htmlEl("br", {}, legend);
    htmlEl("b", {}, legend, "Highlights: ");
    for (const [kind, [colour, text]] of Object.entries(TARGETS)) item((s) => {
      svgEl("circle", { cx: 11, cy: 11, r: 8, fill: kind === "move" ? colour : "none", stroke: colour, "stroke-width": 3 }, s);
    }, text);
    item((s) => svgEl("line", { x1: 2, y1: 11, x2: 18, y2: 11, stroke: "#c0392b", "stroke-width": 3, "marker-end": "url(#tf-arrow-last)" }, s), "last move");
    item((s) => svgEl("line", { x1: 2, y1: 11, x2: 18, y2: 11, stroke: TARGETS.shot[0], "stroke-width": 3, "stroke-dasharray": "2 4", "marker-end": "url(#tf-arrow-shot)" }, s), "last move: a shot");
    item((s) => {
      svgEl("circle", { cx: 11, cy: 11, r: 9, fill: "none", stroke: DEATH, "stroke-width": 2.5, "stroke-dasharray": "3 2" }, s);
      svgEl("path", { d: "M7 7 L15 15 M15 7 L7 15", stroke: DEATH, "stroke-width": 2.5 }, s);
    }, "died in the last move");
    item((s) => svgEl("line", { x1: 2, y1: 11, x2: 18, y2: 11, stroke: "#ff1744", "stroke-width": 2, "marker-end": "url(#tf-arrow-attacker)" }, s), "attacker of a feudal");
    item((s) => {
      svgEl("circle", { cx: 11, cy: 11, r: 8, fill: "none", stroke: "#ff8c00", "stroke-width": 3 }, s);
    }, "what blocks a move (hover an unlit hex)");
    item((s) => {
      svgEl("circle", { cx: 11, cy: 11, r: 6, fill: "none", stroke: "#111", "stroke-width": 3 }, s);
      svgEl("path", { d: "M5 5 L17 17 M17 5 L5 17", stroke: "#111", "stroke-width": 2 }, s);
    }, "archer marker (ring round the piece, cross badge)");
    item((s) => svgEl("circle", { cx: 11, cy: 11, r: 9, fill: "none", stroke: "#ff1744", "stroke-width": 3, "stroke-dasharray": "3 2" }, s), "feudal under threat");
    item((s) => {
      svgEl("circle", { cx: 11, cy: 11, r: 9, fill: "rgba(255, 23, 68, 0.25)", stroke: "#ff1744", "stroke-width": 3 }, s);
      svgEl("path", { d: "M6 6 L16 16 M16 6 L6 16", stroke: "#ff1744", "stroke-width": 3 }, s);
    }, "feudal lost (game over)");
    item((s) => svgEl("line", { x1: 2, y1: 11, x2: 18, y2: 11, stroke: "#0050c8", "stroke-width": 3, "marker-end": "url(#tf-arrow-best)" }, s), "agent's best move");
    item((s) => svgEl("line", { x1: 2, y1: 11, x2: 18, y2: 11, stroke: "#0a8f3c", "stroke-width": 3 }, s), "gained under the rule");
    item((s) => svgEl("line", { x1: 2, y1: 11, x2: 18, y2: 11, stroke: "#d01010", "stroke-width": 3, "stroke-dasharray": "3 2" }, s), "lost under the rule (the only red dashes)");
    item((s) => svgEl("line", { x1: 2, y1: 11, x2: 18, y2: 11, stroke: SHAPES.green, "stroke-width": 3, opacity: 0.7 }, s), "your drawings (right-drag; Shift red, Alt blue, Ctrl yellow)");
  }

  function drawWhy(why, cls, layer = layers.why) {
    if (!why) return;
    for (const h of why.zone || []) svgEl("polygon", { points: points(h, 0.86), class: `${cls}-zone`, "data-hex": h }, layer);
    const path = why.path || [];
    if (path.length > 1) {
      const pts = path.map((h) => centre(h).join(",")).join(" ");
      svgEl("polyline", { points: pts, class: `${cls}-path`, "marker-end": "url(#tf-arrow-path)" }, layer);
    }
    for (const h of why.blocks || []) {
      const [x, y] = centre(h);
      svgEl("circle", { cx: x, cy: y, r: size * 0.9, class: `${cls}-block`, "data-hex": h }, layer);
    }
  }

  function showHover(h) {
    layers.preview.replaceChildren();
    const v = model.get("view");
    let text = "";
    if (h && v.previews && v.previews[h]) {
      const p = v.previews[h];
      for (const [d, letter] of p.removed) {
        const [x, y] = centre(d);
        const g = svgEl("g", { class: "tf-preview-death", "data-hex": d }, layers.preview);
        svgEl("circle", { cx: x, cy: y, r: size * 0.8 }, g);
        const q = size * 0.45;
        svgEl("path", { d: `M${x - q},${y - q} L${x + q},${y + q} M${x - q},${y + q} L${x + q},${y - q}` }, g);
        svgEl("title", {}, g, `${letter} dies`);
      }
      for (const m of p.marks) {
        const [x, y] = centre(m);
        svgEl("circle", { cx: x, cy: y, r: size * 0.5, class: "tf-preview-mark", "data-hex": m }, layers.preview);
      }
      if (p.castle && v.selected) {
        arrow(layers.preview, v.selected, h, "tf-preview-castle", "best");
        arrow(layers.preview, h, v.selected, "tf-preview-castle", "best");
      }
      if (p.ends || p.threat) {
        const [x, y] = centre(h);
        const g = svgEl("g", { class: `tf-preview-${p.ends ? "win" : "threat"}`, "data-hex": h }, layers.preview);
        svgEl("rect", { x: x - size * 1.1, y: y - size * 1.55, width: size * 2.2, height: size * 0.62, rx: 4 }, g);
        svgEl("text", { x, y: y - size * 1.1 }, g, p.ends ? "wins" : "threat");
      }
      text = `${h}: ${p.text || "a plain move: nothing else changes"}`;
    } else if (h && v.reasons && v.reasons[h]) {
      drawWhy(v.reasons[h], "tf-hover-why", layers.preview);
      text = `${h}: ${v.reasons[h].text}`;
    }
    hoverLine.textContent = text;
    hoverLine.style.visibility = text ? "visible" : "hidden";
  }

  function drawMoves(v) {
    moves.replaceChildren();
    const line = v.line || [];
    if (v.rows_before) {
      const more = htmlEl("div", { class: "tf-more" }, moves, `… ${v.rows_before} earlier moves (Home goes to the start)`);
      more.addEventListener("click", () => nav("home"));
    }
    let block = null, depth = -1;
    for (const m of line) {
      if (!block || m.depth !== depth || m.starts) {
        depth = m.depth;
        block = htmlEl("div", { class: `tf-line tf-depth-${Math.min(depth, 4)}` }, moves);
        block.style.marginLeft = `${depth * 1.2}em`;
        if (depth) htmlEl("span", { class: "tf-var-mark" }, block, "↳ ");
      }
      const white = m.ply % 2 === 1;
      if (white || block.childElementCount <= (depth ? 1 : 0)) htmlEl("span", { class: "tf-num" }, block, `${Math.ceil(m.ply / 2)}.${white ? "" : ".."}`);
      const span = htmlEl("span", { class: `tf-move tf-${m.kind}`, "data-ply": String(m.ply), "data-node": String(m.id) }, block);
      htmlEl("span", { class: "tf-move-text" }, span, m.text);
      if (m.kind === "current") span.classList.add("tf-current");
      if (m.kind === "future") span.classList.add("tf-future");
      if (m.note) htmlEl("span", { class: "tf-note", title: "what this move did (from the engine)" }, span, ` ${m.note}`);
      if (m.eval !== undefined) {
        const mark = EVAL_MARKS[m.eval_kind] || "";
        const ev = htmlEl("span", { class: `tf-eval tf-eval-${m.eval_kind}` }, span, ` ${m.eval > 0 ? "+" : ""}${m.eval}${mark}`);
        ev.title = EVAL_TITLES[m.eval_kind] || "";
      }
      span.addEventListener("click", () => send({ type: "node", id: m.id }));
      block.appendChild(document.createTextNode(" "));
    }
    if (v.rows_after) {
      const more = htmlEl("div", { class: "tf-more" }, moves, `… ${v.rows_after} later moves (End goes to the end of this line)`);
      more.addEventListener("click", () => nav("end"));
    }
    const cur = moves.querySelector(".tf-current");
    if (cur) {
      const top = cur.offsetTop - moves.offsetTop;
      if (top < moves.scrollTop || top > moves.scrollTop + moves.clientHeight - 20) moves.scrollTop = Math.max(0, top - moves.clientHeight / 2);
    }
    promoteBtn.disabled = !v.in_variation;
    mainBtn.disabled = !v.in_variation;
    deleteBtn.disabled = !v.can_undo;
  }

  function drawEvalBar(v) {
    const e = v.eval_bar;
    evalBar.style.visibility = e ? "visible" : "hidden";
    if (!e) return;
    const t = 1 / (1 + Math.exp(-e.eval / 3)); // 0..1: White's share of the bar
    evalFill.style.height = `${Math.round(t * 100)}%`;
    evalText.textContent = `${e.eval > 0 ? "+" : ""}${Number(e.eval).toFixed(1)}`;
    evalBar.title = `evaluation ${e.eval} for White (${e.source}; material units)`;
    evalBar.classList.toggle("tf-flipped", !!v.flipped);
  }

  function drawGraph(v) {
    graphBox.replaceChildren();
    const g = v.eval_graph;
    graphBox.style.display = g ? "" : "none";
    if (!g) return;
    const Wg = 300, Hg = 70, span = Math.max(1, g.last - g.first);
    const X = (ply) => ((ply - g.first) / span) * Wg;
    const Y = (val) => Hg / 2 - (Math.max(-10, Math.min(10, val)) / 10) * (Hg / 2 - 3);
    const s = svgEl("svg", { class: "tf-graph-svg", viewBox: `0 0 ${Wg} ${Hg}`, preserveAspectRatio: "none" }, graphBox);
    svgEl("rect", { x: 0, y: 0, width: Wg, height: Hg, class: "tf-graph-bg" }, s);
    const pts = g.points.map(([p, val]) => `${X(p).toFixed(1)},${Y(val).toFixed(1)}`);
    svgEl("polygon", { points: `0,${Hg / 2} ${pts.join(" ")} ${X(g.points[g.points.length - 1][0]).toFixed(1)},${Hg / 2}`, class: "tf-graph-area" }, s);
    svgEl("polyline", { points: pts.join(" "), class: "tf-graph-line" }, s);
    svgEl("line", { x1: 0, y1: Hg / 2, x2: Wg, y2: Hg / 2, class: "tf-graph-zero" }, s);
    for (const sw of g.swings) {
      const val = (g.points.find(([p]) => p === sw.ply) || [0, 0])[1];
      const c = svgEl("circle", { cx: X(sw.ply), cy: Y(val), r: 3.5, class: "tf-graph-swing", "data-ply": String(sw.ply) }, s);
      svgEl("title", {}, c, `${sw.text}: ${sw.change > 0 ? "+" : ""}${sw.change} (a large swing)`);
    }
    svgEl("line", { x1: X(g.ply), y1: 0, x2: X(g.ply), y2: Hg, class: "tf-graph-now" }, s);
    s.addEventListener("click", (ev) => {
      const box = s.getBoundingClientRect();
      const ply = Math.round(g.first + ((ev.clientX - box.left) / box.width) * span);
      send({ type: "goto", ply });
    });
    const note = htmlEl("div", { class: "tf-graph-note" }, graphBox,
      `Evaluation over the line (White up); ${g.swings.length} large swing${g.swings.length === 1 ? "" : "s"} marked; click to go there`);
    note.title = "static evaluation after each move (an agent's own score for its moves)";
  }

  function drawLines(v) {
    linesBox.replaceChildren();
    anaBox.checked = !!v.analysing;
    const L = v.lines;
    linesBox.style.display = L && L.lines && L.lines.length ? "" : "none";
    if (!L || !L.lines) return;
    for (const ln of L.lines) {
      const li = htmlEl("li", { class: "tf-line-best" }, linesBox);
      htmlEl("b", {}, li, `${ln.eval > 0 ? "+" : ""}${Number(ln.eval).toFixed(2)} `);
      htmlEl("span", { class: "tf-line-moves" }, li, ln.moves.join(" "));
      htmlEl("span", { class: "tf-line-depth" }, li, ` · depth ${ln.depth} · ${ln.nodes.toLocaleString("en")} nodes`);
    }
  }

  // ---------------------------------------------------------------- drawing a view
  function draw() {
    const v = model.get("view");
    pending = "";
    inFlight = Math.max(0, inFlight - 1);
    showBusy();
    flipped = !!v.flipped;
    for (const layer of Object.values(layers)) layer.replaceChildren();
    svg.classList.toggle("tf-winter", !!v.winter);
    svg.classList.toggle("tf-editing", !!v.editing);
    const pieces = v.pieces || {};
    for (const h of names) {
      const t = v.terrain[h];
      let fill = TERRAIN[t.kind] || TERRAIN.land;
      if (v.winter && (t.kind === "river" || t.kind === "ford")) fill = TERRAIN[`winter_${t.kind}`];
      else if (t.castle >= 0 && t.kind === "land") fill = TERRAIN.castle;
      else if (t.hill) fill = TERRAIN.hill;
      else if (t.swamp >= 0) fill = TERRAIN.swamp;
      const cls = ["tf-hex", `tf-${t.kind}`];
      if (t.hill) cls.push("tf-hill");
      if (t.swamp >= 0) cls.push("tf-swamp");
      if (t.castle >= 0) cls.push(t.castle === 0 ? "tf-castle-white" : "tf-castle-black");
      if (v.selected === h) cls.push("tf-selected");
      svgEl("polygon", { points: points(h), "data-hex": h, class: cls.join(" "), fill }, layers.hexes);
      const [x, y] = centre(h);
      if (!pieces[h]) svgEl("text", { x, y: y + size * 0.62, class: "tf-name" }, layers.names, h);
    }
    for (const [h, [kind, side]] of Object.entries(v.owners || {})) {
      const [x, y] = centre(h);
      const g = svgEl("g", { class: `tf-owner tf-owner-${side}`, "data-hex": h, "data-owner": side }, layers.signs);
      svgEl("title", {}, g, `${side}'s ${kind} on ${h}`);
      svgEl("text", { x: x - size * 0.45, y: y - size * 0.45, class: `tf-sign tf-sign-${kind}` }, g, kind === "hill" ? "▲" : "≈");
      svgEl("circle", { cx: x + size * 0.42, cy: y - size * 0.55, r: size * 0.2, class: `tf-owner-disc tf-owner-${side}` }, g);
      svgEl("text", { x: x + size * 0.42, y: y - size * 0.47, class: `tf-owner-letter tf-owner-${side}` }, g, side === "white" ? "W" : "B");
    }
    for (const [x0, y0, text] of geo.coords || []) {
      const [x, y] = P([x0, y0]);
      svgEl("text", { x, y: y + size * 0.12, class: "tf-coord" }, layers.coords, text);
    }
    // heat map: one at a time, colours from viridis (as the static pictures), a scale in the panel
    heatLegend.replaceChildren();
    if (v.heat && v.heat.values) {
      const top = v.heat.max || 1;
      v.heat.values.forEach((val, i) => {
        if (val > 0) svgEl("polygon", { points: points(names[i]), fill: viridis(val / top), class: "tf-heat", "data-hex": names[i], "data-value": String(val) }, layers.heat);
      });
      htmlEl("div", { class: "tf-heat-label" }, heatLegend, v.heat.label);
      const bar = htmlEl("div", { class: "tf-colourbar" }, heatLegend);
      bar.style.background = `linear-gradient(to right, ${VIRIDIS.join(",")})`;
      const ticks = htmlEl("div", { class: "tf-ticks" }, heatLegend);
      // the gradient maps val / top, so its left end is 0 (it read "1": the smallest count, not the colour's value)
      htmlEl("span", {}, ticks, "0");
      htmlEl("span", {}, ticks, String(Math.round(top / 2 * 10) / 10));
      htmlEl("span", {}, ticks, String(top));
      htmlEl("div", { class: "tf-heat-note" }, heatLegend, "hexes without colour: 0");
    }
    (v.zones || []).forEach((zone, side) => {
      for (const h of zone) svgEl("polygon", { points: points(h, 0.8), class: `tf-zone tf-zone-${side ? "black" : "white"}`, "data-hex": h }, layers.zones);
    });
    (v.aura || []).forEach((hexes, side) => {
      for (const h of hexes) {
        const [x, y] = centre(h);
        svgEl("circle", { cx: x, cy: y + size * 0.6, r: 3, class: `tf-aura tf-aura-${side ? "black" : "white"}`, "data-hex": h }, layers.aura);
      }
    });
    for (const h of v.aura_ready || []) svgEl("polygon", { points: points(h, 0.9), class: "tf-aura-ready", "data-hex": h }, layers.aura);
    const r = size;
    const vacated = new Set((v.order_from || []).map(([a]) => a));
    for (const [h, letter] of Object.entries(pieces)) {
      const [x, y] = centre(h);
      const white = letter === letter.toUpperCase();
      const g = svgEl("g", { class: `tf-piece ${white ? "tf-white" : "tf-black"}`, "data-hex": h, "data-piece": letter }, layers.pieces);
      if (vacated.has(h)) g.setAttribute("opacity", "0.3");
      if (letter.toUpperCase() === "F") svgEl("circle", { cx: x, cy: y, r: r * 0.66, class: "tf-feudal-ring" }, g);
      svgEl("circle", { cx: x, cy: y, r: r * 0.56 }, g);
      svgEl("text", { x, y: y + r * 0.2 }, g, letter.toUpperCase());
      svgEl("title", {}, g, `${white ? "white" : "black"} ${PIECE_NAMES[letter.toUpperCase()]} on ${h}`);
    }
    // archer markers: a ring outside the piece's disc and a cross badge in the corner, so the piece stays readable
    if (v.overlays.markers || v.editing) for (const [a, t, side] of v.markers || []) {
      const [x1, y1] = centre(a);
      const [x2, y2] = centre(t);
      const colour = side ? "black" : "white";
      const d = Math.hypot(x2 - x1, y2 - y1) || 1;
      const ux = (x2 - x1) / d, uy = (y2 - y1) / d;
      svgEl("line", { x1: x1 + ux * r * 0.6, y1: y1 + uy * r * 0.6, x2: x2 - ux * r * 0.85, y2: y2 - uy * r * 0.85, class: `tf-marker-line tf-marker-${colour}` }, layers.markers);
      const ultimatum = (v.pending || []).includes(t);
      const g = svgEl("g", { class: `tf-marker tf-marker-${colour}${ultimatum ? " tf-ultimatum" : ""}`, "data-hex": t, "data-archer": a }, layers.markers);
      const rr = pieces[t] ? r * 0.74 : r * 0.4;
      svgEl("circle", { cx: x2, cy: y2, r: rr, class: "tf-marker-edge" }, g);
      svgEl("circle", { cx: x2, cy: y2, r: rr }, g);
      const bx = x2 - r * 0.62, by = y2 - r * 0.55, q = r * 0.16;
      svgEl("circle", { cx: bx, cy: by, r: r * 0.24, class: "tf-marker-badge" }, g);
      svgEl("path", { d: `M${bx - q},${by - q} L${bx + q},${by + q} M${bx - q},${by + q} L${bx + q},${by - q}`, class: "tf-marker-cross" }, g);
      svgEl("title", {}, g, `${colour} archer on ${a} marks ${t}${ultimatum ? " (ultimatum: the piece must leave or die)" : pieces[t] ? "" : " (a mine)"}`);
    }
    // destinations: a dot on an empty hex, a ring round an occupied one, both above the pieces
    for (const [h, cls] of Object.entries(v.targets || {})) {
      const [x, y] = centre(h);
      const colour = (TARGETS[cls] || TARGETS.move)[0];
      const g = svgEl("g", { class: `tf-target tf-target-${cls}`, "data-hex": h, "data-target": cls }, layers.targets);
      if (pieces[h] || cls === "attack" || cls === "castle") {
        svgEl("circle", { cx: x, cy: y, r: r * 0.74, fill: "none", stroke: "#fff", "stroke-width": 6 }, g);
        svgEl("circle", { cx: x, cy: y, r: r * 0.74, fill: "none", stroke: colour, "stroke-width": 4 }, g);
        if (cls === "castle") svgEl("text", { x: x + r * 0.55, y: y - r * 0.45, class: "tf-badge", fill: colour }, g, "⇄");
      } else {
        svgEl("circle", { cx: x, cy: y, r: r * 0.3, fill: colour, stroke: "#fff", "stroke-width": 2, opacity: cls === "shot" ? 0.9 : 1 }, g);
        if (cls === "shot") svgEl("path", { d: `M${x - r * 0.5},${y} L${x + r * 0.5},${y} M${x},${y - r * 0.5} L${x},${y + r * 0.5}`, stroke: colour, "stroke-width": 2 }, g);
      }
      svgEl("title", {}, g, `${h}: ${(TARGETS[cls] || TARGETS.move)[1]}`);
    }
    // an Order in progress: each chosen infantryman drawn on its step, with the step's arrow
    for (const [a, b] of v.order_from || []) {
      arrow(layers.order, a, b, "tf-order-arrow", "step");
      const [x, y] = centre(b);
      const g = svgEl("g", { class: "tf-order-ghost", "data-hex": b }, layers.order);
      const white = v.to_move === "white";
      svgEl("circle", { cx: x, cy: y, r: r * 0.56, class: white ? "tf-ghost-white" : "tf-ghost-black" }, g);
      svgEl("text", { x, y: y + r * 0.2, class: white ? "tf-ghost-letter-white" : "tf-ghost-letter-black" }, g, "I");
      const [ox, oy] = centre(a);
      svgEl("circle", { cx: ox, cy: oy, r: r * 0.56, class: "tf-order-vacated" }, layers.order);
    }
    // a feudal under threat (W10), and the lost feudal at the end of a game
    for (const h of v.threatened_hexes || []) {
      const [x, y] = centre(h);
      const g = svgEl("g", { class: "tf-threat-mark", "data-hex": h }, layers.threat);
      svgEl("circle", { cx: x, cy: y, r: r * 0.82 }, g);
      svgEl("text", { x: x + r * 0.62, y: y - r * 0.5, class: "tf-threat-badge" }, g, "!");
      svgEl("title", {}, g, `feudal on ${h} under threat`);
    }
    if (v.lost_feudal && v.lost_feudal.hex) {
      const [x, y] = centre(v.lost_feudal.hex);
      const g = svgEl("g", { class: "tf-mated", "data-hex": v.lost_feudal.hex }, layers.threat);
      svgEl("circle", { cx: x, cy: y, r: r * 0.82 }, g);
      svgEl("path", { d: `M${x - r * 0.5},${y - r * 0.5} L${x + r * 0.5},${y + r * 0.5} M${x - r * 0.5},${y + r * 0.5} L${x + r * 0.5},${y - r * 0.5}` }, g);
      svgEl("title", {}, g, `${v.lost_feudal.side} feudal lost (${v.lost_feudal.victory})`);
    }
    for (const [a, b, kind] of v.last || []) {
      // a shot: purple dots (not a lost action), stopping at the target's edge so its letter stays readable
      if (kind === "shot") arrow(layers.arrows, a, b, "tf-shot-arrow", "shot", "2 5", pieces[b] ? 0.95 : 0.3);
      else arrow(layers.arrows, a, b, "tf-last-arrow", "last");
    }
    // where pieces died in the last move: a red cross ring and the dead piece's letter, until the next move
    for (const [h, letter, cause] of v.deaths || []) {
      const [x, y] = centre(h);
      const g = svgEl("g", { class: "tf-death", "data-hex": h, "data-piece": letter }, pieces[h] ? layers.markers : layers.deaths);
      svgEl("circle", { cx: x, cy: y, r: r * 0.8, class: "tf-death-ring" }, g);
      const bx = x + r * 0.6, by = y + r * 0.5;
      svgEl("circle", { cx: bx, cy: by, r: r * 0.3, class: "tf-death-badge" }, g);
      svgEl("text", { x: bx, y: by + r * 0.12, class: "tf-death-letter" }, g, letter.toUpperCase());
      if (!pieces[h]) {
        const q = r * 0.35;
        svgEl("path", { d: `M${x - q},${y - q} L${x + q},${y + q} M${x - q},${y + q} L${x + q},${y - q}`, class: "tf-death-cross" }, g);
      }
      svgEl("title", {}, g, `${letter === letter.toUpperCase() ? "white" : "black"} ${PIECE_NAMES[letter.toUpperCase()]} died on ${h} (${cause.replace(/_/g, " ")})`);
    }
    // every attacker of a threatened or mated feudal: a line from it to the feudal
    for (const [a, f] of v.attack_lines || []) {
      const ln = arrow(layers.threat, a, f, "tf-attacker-line", "attacker", null, 0.9); // ends at the feudal's ring
      ln.setAttribute("data-from", a);
      ln.setAttribute("data-to", f);
    }
    // the last refused move: the hexes that block it, its path and the zone involved
    drawWhy(v.illegal, "tf-why");
    // the user's arrows and circles (right-click, right-drag)
    for (const [a, b, c] of (v.shapes || {}).arrows || []) {
      const ln = arrow(layers.shapes, a, b, `tf-shape-arrow tf-shape-${c}`, `shape-${c}`);
      ln.setAttribute("data-from", a);
    }
    for (const [h, c] of (v.shapes || {}).circles || []) {
      const [x, y] = centre(h);
      svgEl("circle", { cx: x, cy: y, r: r * 0.86, class: `tf-shape-circle tf-shape-${c}`, "data-hex": h }, layers.shapes);
    }
    if (v.lines && v.lines.lines) v.lines.lines.slice(0, 1).forEach((ln) => { for (const [a, b] of ln.arrow) arrow(layers.arrows, a, b, "tf-best-arrow", "best"); });
    if (v.analysis) for (const [a, b] of v.analysis.arrows) arrow(layers.arrows, a, b, "tf-best-arrow", "best");
    if (v.diff) {
      for (const x of v.diff.gained) for (const [a, b] of x.arrows) arrow(layers.arrows, a, b, "tf-gained-arrow", "gained");
      for (const x of v.diff.lost) for (const [a, b] of x.arrows) arrow(layers.arrows, a, b, "tf-lost-arrow", "lost", "4 3");
    }

    // panel
    if (v.editing) status.textContent = `Editing the position · ${v.to_move} to move when done`;
    else if (v.terminal) status.textContent = `Game over after ply ${v.ply}`;
    else status.textContent = `${v.to_move === "white" ? "White" : "Black"} to move · ply ${v.ply}` +
      (v.threatened && v.threatened.length ? ` · ${v.threatened.join(" and ")} feudal under threat` : "") +
      ((v.pending || []).length ? ` · ultimatum on ${v.pending.join(", ")}: move it or lose it` : "");
    status.setAttribute("data-to-move", v.to_move);
    markersLine.textContent = v.markers_text ? `Markers: ${v.markers_text}` : "";
    markersLine.style.display = v.markers_text ? "" : "none";
    if (v.note) status.title = v.note;
    result.textContent = v.result ? `${v.result}${v.lost_feudal && v.lost_feudal.hex ? ` · ${v.lost_feudal.side} feudal on ${v.lost_feudal.hex} lost` : ""}` : "";
    result.style.display = v.result ? "" : "none";
    message.textContent = v.message || "";
    message.className = `tf-message tf-${v.level || "info"}`;
    message.style.display = v.message ? "" : "none";
    const ar = v.active_rules || {};
    rulesBox.replaceChildren();
    htmlEl("b", {}, rulesBox, "Rules: ");
    htmlEl("span", { class: "tf-rules-season" }, rulesBox, `${ar.season} · terrain ${ar.terrain} (seed ${ar.seed})`);
    for (const t of ar.hexes || []) htmlEl("span", { class: "tf-rules-hex" }, rulesBox, ` · ${t}`);
    htmlEl("div", { class: "tf-rules-toggles" }, rulesBox, (ar.toggles || []).length ? `changed: ${ar.toggles.join(", ")}` : "all other rules as in the rulebook");
    choices.replaceChildren();
    (v.choices || []).forEach((c, i) => {
      const b = htmlEl("button", { class: "tf-btn tf-choice", type: "button" }, choices, `promote to ${c}`);
      b.addEventListener("click", () => send({ type: "choose", index: i }));
    });
    undoBtn.disabled = !v.can_undo;
    redoBtn.disabled = !v.can_redo;
    orderBtn.disabled = !v.can_order;
    passBtn.disabled = !v.can_pass;
    drawMoves(v);
    const line = v.line || [];
    const kinds = new Set(line.filter((m) => m.eval !== undefined).map((m) => m.eval_kind));
    evalNote.textContent = kinds.size
      ? "Numbers: White's view in material units (infantryman 1, knight 4.5). " +
        ["search", "settled", "static"].filter((k) => kinds.has(k)).map((k) => EVAL_NOTES[k]).join("; ")
      : "";
    evalNote.style.display = kinds.size ? "" : "none";
    const dw = v.destroyed.white.join(" ") || "-";
    const db = v.destroyed.black.join(" ") || "-";
    destroyed.textContent = `Destroyed: white ${dw} · black ${db}`;
    analysisBox.textContent = v.analysis ? `Evaluation: ${v.analysis.text}` : "";
    analysisBox.style.display = v.analysis ? "" : "none";
    diffBox.replaceChildren();
    if (v.diff) {
      htmlEl("div", {}, diffBox, `Under ${v.diff.change}: ${v.diff.before} → ${v.diff.after} legal actions`);
      const list = (items, cls, word) => {
        const d = htmlEl("div", { class: cls }, diffBox, `${word} (${items.length}): `);
        d.appendChild(document.createTextNode(items.slice(0, 12).map((x) => x.text).join(", ") + (items.length > 12 ? " …" : "") || "none"));
      };
      list(v.diff.gained, "tf-diff-gained", "gained");
      list(v.diff.lost, "tf-diff-lost", "lost");
    }
    if (!presets.children.length) {
      for (const p of ["castling=sacrifice", "season=winter", "archer_melee=true", "mate_defence=any", "pike_cavalry_mutual=true"]) htmlEl("option", { value: p }, presets);
    }
    for (const name of Object.keys(OVERLAYS)) overlayBoxes[name].checked = !!v.overlays[name];
    heatKind.value = v.heat_kind || "";
    heatSide.value = v.heat_side || "white";
    // the new-game controls show the game's own rules whenever the game changes
    const sig = JSON.stringify([v.rules, v.seed]);
    if (sig !== root.dataset.rulesSig) {
      root.dataset.rulesSig = sig;
      oneClick.replaceChildren();
      for (const f of geo.rule_fields || []) {
        if (!f.values) continue;
        const now = String(v.rules[f.name]);
        const other = f.values.find((x) => String(x) !== now);
        if (other === undefined) continue;
        const change = `${f.name}=${other}`;
        const b = htmlEl("button", { class: "tf-btn tf-compare-btn", type: "button", "data-change": change }, oneClick, change);
        b.title = `this position's legal actions under ${change}: gained in green, lost in red`;
        b.addEventListener("click", () => { cmpText.value = change; send({ type: "compare", change }, "comparing…"); });
      }
      for (const f of geo.rule_fields || []) {
        let val = v.rules[f.name];
        if (Array.isArray(val)) val = val.join(",");
        ruleInputs[f.name].value = val === null || val === undefined ? "" : String(val);
      }
    }
    const known = ["", ...(v.agents || [])];
    if (agentName.options.length !== known.length) {
      agentName.replaceChildren();
      for (const o of known) htmlEl("option", { value: o }, agentName, o === "" ? "none (two humans)" : o);
    }
    if (v.agent && v.agent.name) {
      const [base, params] = v.agent.name.split(":");
      agentName.value = base;
      agentParams.value = params || "";
      agentSide.value = v.agent.side;
    }
    fillPicker(v);
    const s = v.scenario || {};
    scenario.textContent = s.title ? `${s.title} · position ${s.index + 1} of ${s.count}` : "";
    checks.replaceChildren();
    for (const c of s.checks || []) {
      const li = htmlEl("li", { class: `tf-check tf-check-${c.status}`, "data-check": String(c.index) }, checks);
      htmlEl("span", { class: "tf-check-status" }, li, c.status === "pass" ? "✓ pass" : c.status === "fail" ? "✗ fail" : c.status === "empty" ? "○ empty" : `! ${c.status}`);
      htmlEl("span", {}, li, ` check ${c.index} (line ${c.line}): ${c.asserts}`);
      if (c.message) htmlEl("div", { class: "tf-check-message" }, li, c.message);
      li.addEventListener("click", () => send({ type: "check", index: c.index }));
    }
    palette.style.display = v.editing ? "" : "none";
    if (v.editing) edSec.open = true;
    for (const [p, b] of Object.entries(paletteBtns)) b.classList.toggle("tf-active", v.edit_piece === p);
    if (v.editing) editSide.value = v.to_move;
    drawLegend(v);
    drawEvalBar(v);
    drawGraph(v);
    drawLines(v);
    showHover(null);
    if (inFlight === 0) flushNav();
  }

  function drawClipboard() {
    const c = model.get("clipboard") || {};
    if (c.text !== undefined) { clip.value = c.text; txSec.open = true; clip.select(); }
  }

  function drawExport() {
    exportBox.value = model.get("export_text") || "";
    exportBox.style.display = exportBox.value ? "" : "none";
  }

  function saveDownload() {
    const d = model.get("download") || {};
    if (!d.name) return;
    const url = URL.createObjectURL(new Blob([d.text], { type: d.name.endsWith(".json") ? "application/json" : "text/yaml" }));
    const a = htmlEl("a", { href: url, download: d.name, class: "tf-download-link" }, dlRow, `save ${d.name}`);
    for (const old of dlRow.querySelectorAll(".tf-download-link")) if (old !== a) old.remove();
    a.click();
  }

  model.on("change:view", draw);
  model.on("change:export_text", drawExport);
  model.on("change:busy", showBusy);
  model.on("change:download", saveDownload);
  model.on("change:clipboard", drawClipboard);
  const drawCatalog = () => fillPicker(model.get("view"));
  model.on("change:catalog", drawCatalog);
  draw();
  drawExport();
  return () => {
    model.off("change:view", draw);
    model.off("change:export_text", drawExport);
    model.off("change:busy", showBusy);
    model.off("change:download", saveDownload);
    model.off("change:clipboard", drawClipboard);
    model.off("change:catalog", drawCatalog);
  };
}

export default { render };
