(el) => {
  // every text the board draws, with its WCAG contrast against what it is drawn on (colours composited)
  const parse = (c) => { const m = (c || "").match(/[0-9.]+/g); if (!m || c === "none") return null;
    return [+m[0], +m[1], +m[2], m.length > 3 ? +m[3] : 1]; };
  const over = (top, under) => top[3] >= 1 ? top.slice(0, 3) : top.slice(0, 3).map((v, i) => v * top[3] + under[i] * (1 - top[3]));
  const lum = (c) => { const l = c.map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * l[0] + 0.7152 * l[1] + 0.0722 * l[2]; };
  const ratio = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
  const opacity = (n) => { let o = 1; for (let e = n; e && e.nodeType === 1; e = e.parentElement) o *= +getComputedStyle(e).opacity; return o; };
  const ground = (n) => {  // an HTML element's ground: the backgrounds from the page down to it, composited
    const chain = [];
    for (let e = n; e && e.nodeType === 1; e = e.parentElement) chain.push(parse(getComputedStyle(e).backgroundColor));
    let g = [255, 255, 255];
    for (const c of chain.reverse()) if (c && c[3] > 0) g = over(c, g);
    return g;
  };
  const svgGround = (t) => {  // an SVG text's ground: its halo, its disc or its label box, else the cell under it
    const cs = getComputedStyle(t);
    if (cs.paintOrder.startsWith("stroke") && parse(cs.stroke) && parseFloat(cs.strokeWidth) > 0) return over(parse(cs.stroke), ground(t.ownerSVGElement));
    const disc = t.parentElement.querySelector(":scope > .gb-disc");
    if (disc) return over(parse(getComputedStyle(disc).fill), ground(t.ownerSVGElement));
    const box = t.previousElementSibling;
    if (box && box.tagName === "rect") return over(parse(getComputedStyle(box).fill), ground(t.ownerSVGElement));
    const own = t.classList.contains("gb-coord") && t.ownerSVGElement.querySelector(`polygon.gb-cell[data-cell="${CSS.escape(t.textContent)}"]`);
    if (own) return over(parse(getComputedStyle(own).fill), ground(t.ownerSVGElement));  // a cell's name on its cell
    const r = t.getBoundingClientRect();
    const hit = document.elementsFromPoint(r.left + r.width / 2, r.top + r.height / 2).find((e) => e.matches && e.matches("polygon.gb-cell"));
    const fill = hit ? parse(getComputedStyle(hit).fill) : null;
    return fill ? over(fill, ground(t.ownerSVGElement)) : ground(t.ownerSVGElement);
  };
  const out = [];
  for (const n of el.querySelectorAll("*")) {
    const own = [...n.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim());
    if (!own || n.closest("title, option, style, .gb-pattern, .gb-variant") || n.tagName === "title") continue;
    const r = n.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    if (n.disabled || n.closest("button:disabled")) continue;  // WCAG exempts disabled controls
    const cs = getComputedStyle(n);
    if (cs.visibility === "hidden" || cs.display === "none") continue;
    const svgText = n instanceof SVGElement;
    const g = svgText ? svgGround(n) : ground(n);
    const fg = over([...parse(svgText ? cs.fill : cs.color).slice(0, 3), parse(svgText ? cs.fill : cs.color)[3] * opacity(n)], g);
    const what = (n.getAttribute("class") || n.tagName.toLowerCase()) + ": " + n.textContent.trim().slice(0, 24);
    out.push([what, Math.round(ratio(fg, g) * 100) / 100, fg.map(Math.round), g.map(Math.round)]);
  }
  return out;
}
