"""Pictures of any protocol game: the board as SVG and matplotlib, heat layers and batch maps.

A game declares its ``Layout`` (cells, shape) and each state its ``glyphs()`` (terrain class, piece
letter, owner, badges, facing); this module only paints what they say, so a square board, an
offset-hex board and a rectangle with portals are drawn by the same code. Colours: terrain from the
game's ``legend`` (style class -> colour), seats from one palette of 25 (big chess has up to 25
players), heat from one sequential map with its colour bar starting at 0.
"""

from __future__ import annotations

import html
import math
from collections.abc import Mapping, Sequence
from typing import Any

from workbench.core import palette
from workbench.core.protocol import GameDef, Glyph, Layout, Pattern, State

# Seat colours: the one palette of workbench.core.palette (the board and the report read it too).
SEAT_COLOURS = palette.SEAT_COLOURS
DEFAULT_TERRAIN = "#ece6d6"
VOID = "#ffffff"


MARK_COLOURS = {"fresh": "#1e8449", "attacker": "#d35400", "target": "#c0392b", "last": "#2471a3"}
MARK_DASH = {"fresh": "3,2", "attacker": "6,2", "target": "1,0"}


def mark_colour(mark: str) -> str:
    """The ring colour of a glyph mark (fresh pieces green, an attack's cells orange and red)."""
    return MARK_COLOURS.get(mark, "#7d3c98")


def seat_colour(player: int | None, labels: Sequence[str] | int = 2) -> str:
    """The fill of a piece of ``player`` (its seat's name may name its colour: Pole's Red)."""
    return palette.seat_colour(player, labels)


def _ink(fill: str) -> str:
    r, g, b = (int(fill[i:i + 2], 16) for i in (1, 3, 5))
    return "#111111" if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "#ffffff"


def _terrain_colours(game: GameDef) -> dict[str, str]:
    return {cls: colour for cls, colour, _ in game.legend}


def _glyphs_on(layout: Layout, state: State | None) -> dict[int, Glyph]:
    """The state's glyphs by cell; ``ValueError`` when one names a cell the layout lacks (the state's board is
    not the one of the rules passed: a 4-player board drawn with the default rules), never a cropped picture."""
    if state is None:
        return {}
    glyphs = {g.cell: g for g in state.glyphs()}
    ids = {c.id for c in layout.cells}
    stray = [c for c in glyphs if c not in ids]
    if stray:
        raise ValueError(f"the state has cell {stray[0]} that this layout ({len(ids)} cells) lacks: pass the state's rules")
    return glyphs


def _frame(layout: Layout, scale: float, margin: float) -> tuple[float, float, float, float]:
    xs = [c.x for c in layout.cells] or [0.0]
    ys = [c.y for c in layout.cells] or [0.0]
    pad = layout.size
    return min(xs) - pad, min(ys) - pad, (max(xs) - min(xs) + 2 * pad) * scale + 2 * margin, \
        (max(ys) - min(ys) + 2 * pad) * scale + 2 * margin


def heat_colour(value: float, top: float) -> str:
    """A value on the one sequential scale (white at 0, deep red at ``top``); a negative value (a signed
    layer such as control, where minus is the enemy's) on the mirrored blue scale, white still at 0."""
    t = 0.0 if top <= 0 else max(-1.0, min(1.0, value / top))
    if t < 0:
        r, g, b = int(255 + 200 * t), int(255 + 140 * t), 255
    else:
        r, g, b = 255, int(255 - 180 * t), int(255 - 200 * t)
    return f"#{r:02x}{g:02x}{b:02x}"


def board_svg(game: GameDef, state: State, rules: Any = None, heat: Mapping[int, float] | None = None,
              marks: Sequence[int] = (), scale: float = 28.0, margin: float = 18.0, title: str = "") -> str:
    """The position as a standalone SVG: cells with terrain, pieces with owner, badges, facing, names.

    ``heat`` colours cells by value (a layer from ``state.heat``); ``marks`` rings cells (the last
    move, a death). Every cell element carries ``data-cell`` with its name, as the board's page does.
    """
    layout = game.state_layout(state)  # the position's own board (a scenario's 7x7 big chess board)
    if not layout.cells:  # a game without cells (many OpenSpiel games): its observation text, as its board shows it
        return _text_svg(state.observation_string(), title, margin)
    colours = _terrain_colours(game)
    glyphs = _glyphs_on(layout, state)
    labels = game.state_info(state).labels
    x0, y0, width, height = _frame(layout, scale, margin)
    top = max((abs(v) for v in heat.values()), default=0.0) if heat else 0.0

    def pt(x: float, y: float) -> tuple[float, float]:
        return (margin + (x - x0) * scale, margin + (y - y0) * scale)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height + (18 if title else 0):.0f}" '
           f'viewBox="0 0 {width:.0f} {height + (18 if title else 0):.0f}" font-family="sans-serif">']
    if title:
        out.append(f'<text x="{margin}" y="14" font-size="13">{html.escape(title)}</text>')
        out.append('<g transform="translate(0,18)">')
    for cell in layout.cells:
        g = glyphs.get(cell.id, Glyph(cell.id))
        fill = colours.get(g.terrain, VOID if g.terrain == "void" else DEFAULT_TERRAIN)
        if heat is not None:
            fill = heat_colour(heat.get(cell.id, 0.0), top)
        points = " ".join(f"{a:.1f},{b:.1f}" for a, b in (pt(x, y) for x, y in layout.polygon(cell)))
        stroke = "#d35400" if cell.id in marks else "#8a8474"
        width_ = 2.5 if cell.id in marks else 0.8
        out.append(f'<polygon data-cell="{html.escape(cell.name)}" class="cell {html.escape(g.terrain)}" '
                   f'points="{points}" fill="{fill}" stroke="{stroke}" stroke-width="{width_}"/>')
        cx, cy = pt(cell.x, cell.y)
        for k, mark in enumerate(g.marks[:3]):  # fresh, attacker, target...: one ring each, inside the cell
            ring = layout.size * scale * (0.86 - 0.12 * k)
            out.append(f'<circle class="mark {html.escape(mark)}" data-mark="{html.escape(mark)}" cx="{cx:.1f}" '
                       f'cy="{cy:.1f}" r="{ring:.1f}" fill="none" stroke="{mark_colour(mark)}" stroke-width="2" '
                       f'stroke-dasharray="{MARK_DASH.get(mark, "4,2")}"/>')
        out.append(f'<text x="{cx - layout.size * scale * 0.55:.1f}" y="{cy - layout.size * scale * 0.45:.1f}" '
                   f'font-size="{max(6.0, scale * 0.22):.1f}" fill="#6b6557">{html.escape(cell.name)}</text>')
        if g.piece:
            r = layout.size * scale * 0.52
            piece_fill = seat_colour(g.owner, labels)
            out.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}" fill="{piece_fill}" stroke="#222" '
                       'stroke-width="1"/>')
            if g.facing is not None:
                a = math.radians(g.facing)
                # degrees clockwise from north (Glyph.facing), as the board's page draws it
                out.append(f'<line class="facing" data-facing="{g.facing:g}" x1="{cx:.1f}" y1="{cy:.1f}" '
                           f'x2="{cx + r * math.sin(a):.1f}" y2="{cy - r * math.cos(a):.1f}" stroke="#d35400" '
                           'stroke-width="2.5"/>')
            out.append(f'<text x="{cx:.1f}" y="{cy + r * 0.38:.1f}" font-size="{r * 1.05:.1f}" text-anchor="middle" '
                       f'fill="{_ink(piece_fill)}" font-weight="bold">{html.escape(g.piece)}</text>')
        for k, badge in enumerate(g.badges[:4]):
            bx = cx + layout.size * scale * (0.15 if k % 2 else -0.55)
            by = cy + layout.size * scale * (0.62 if k < 2 else -0.2)
            out.append(f'<text x="{bx:.1f}" y="{by:.1f}" font-size="{max(6.0, scale * 0.24):.1f}" '
                       f'fill="#7b241c">{html.escape(badge)}</text>')
    if title:
        out.append("</g>")
    out.append("</svg>")
    return "".join(out)


def _text_svg(text: str, title: str, margin: float) -> str:
    """A text-only position as a picture: one dark monospace ``<text>`` per row of its observation, on white, so a
    rulebook's picture of it is not blank."""
    rows = text.splitlines() or [""]
    line, char = 20.0, 9.6  # 16 px monospace: row height and advance
    width = max(len(title) * 7.0 if title else 0.0, max(len(r) for r in rows) * char) + 2 * margin
    top = margin + (18 if title else 0)
    height = top + line * len(rows) + margin
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
           f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="sans-serif">',
           f'<rect width="{width:.0f}" height="{height:.0f}" fill="#ffffff"/>']
    if title:
        out.append(f'<text x="{margin}" y="14" font-size="13" fill="#1a1a1a">{html.escape(title)}</text>')
    for k, row in enumerate(rows):
        out.append(f'<text class="observation" x="{margin}" y="{top + line * (k + 0.8):.1f}" font-size="16" '
                   f'font-family="monospace" fill="#1a1a1a" xml:space="preserve">{html.escape(row)}</text>')
    out.append("</svg>")
    return "".join(out)


def draw_board(ax: Any, game: GameDef, state: State | None = None, rules: Any = None,
               values: Mapping[int, float] | Sequence[float] | None = None, label: str = "", cmap: str = "Reds",
               integer: bool = False, badges: bool = True, legend: bool = False, names: bool = False) -> Any:
    """The board on a matplotlib axis; with ``values`` a heat map whose colour bar starts at 0.

    ``values`` is cell id -> value or one value per cell in layout order; a layer with negative values
    (control: minus is the enemy's) gets a diverging map centred on 0 (``RdBu_r``), so 0 stays white and
    on the bar. ``badges`` writes each glyph's badges (HP, marks, faction, flag) small under its cell's
    piece, and marks are rings; ``legend`` adds the game's terrain legend; ``names`` writes each cell's
    name in its corner (useful on heat maps without pieces). Returns the colour bar (or None).
    """
    import matplotlib as mpl
    from matplotlib.patches import Circle, Patch, Polygon

    layout = game.layout(rules)
    colours = _terrain_colours(game)
    glyphs = _glyphs_on(layout, state)
    labels = game.info(rules).labels
    if values is not None and not isinstance(values, Mapping):
        values = {c.id: float(v) for c, v in zip(layout.cells, values, strict=True)}
    top = max(values.values(), default=0.0) if values else 0.0
    low = min(values.values(), default=0.0) if values else 0.0
    if low < 0:
        m = max(abs(low), abs(top))
        norm = mpl.colors.Normalize(vmin=-m, vmax=m)
        colormap = mpl.colormaps["RdBu_r" if cmap == "Reds" else cmap]
    else:
        norm = mpl.colors.Normalize(vmin=0.0, vmax=top if top > 0 else 1.0)
        colormap = mpl.colormaps[cmap]
    size = layout.size
    for cell in layout.cells:
        g = glyphs.get(cell.id, Glyph(cell.id))
        face = colormap(norm(values.get(cell.id, 0.0))) if values is not None else colours.get(g.terrain, DEFAULT_TERRAIN)
        ax.add_patch(Polygon(layout.polygon(cell), closed=True, facecolor=face, edgecolor="#8a8474", linewidth=0.5))
        if names:
            ax.text(cell.x - layout.size * 0.9, cell.y - layout.size * 0.9, cell.name, ha="left", va="top",
                    fontsize=4, color="#6b6557")
        if g.piece:
            ax.text(cell.x, cell.y - 0.08 * size, g.piece, ha="center", va="center", fontsize=7, fontweight="bold",
                    color=_ink(seat_colour(g.owner, labels)),
                    bbox={"boxstyle": "circle,pad=0.2", "facecolor": seat_colour(g.owner, labels), "edgecolor": "#222"})
            if g.facing is not None:  # an arrowhead at the disc's rim, pointing where the piece faces
                a = math.radians(g.facing)
                ux, uy = math.sin(a), -math.cos(a)  # clockwise from north; y grows downwards
                tip = (cell.x + ux * 0.78 * size, cell.y + uy * 0.78 * size)
                base = (cell.x + ux * 0.5 * size, cell.y + uy * 0.5 * size)
                ax.add_patch(Polygon([tip, (base[0] - uy * 0.2 * size, base[1] + ux * 0.2 * size),
                                      (base[0] + uy * 0.2 * size, base[1] - ux * 0.2 * size)], closed=True,
                                     facecolor="#d35400", edgecolor="#222", linewidth=0.3, zorder=4, gid="facing"))
        if badges and g.badges:
            text = " ".join(g.badges[:4])
            ax.text(cell.x, cell.y + 0.62 * size if g.piece else cell.y, text, ha="center", va="center",
                    fontsize=4.5, color="#7b241c" if values is None else "#222222")
        for k, mark in enumerate(g.marks[:3]):
            ax.add_patch(Circle((cell.x, cell.y), layout.size * (0.86 - 0.12 * k), fill=False, linewidth=1.4,
                                edgecolor=mark_colour(mark), linestyle="--" if mark != "target" else "-"))
    if legend and colours:
        handles = [Patch(facecolor=colour, edgecolor="#8a8474", label=words) for _, colour, words in game.legend]
        ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=2, fontsize=6, frameon=False)
    xs = [c.x for c in layout.cells] or [0.0]
    ys = [c.y for c in layout.cells] or [0.0]
    ax.set_xlim(min(xs) - layout.size * 1.2, max(xs) + layout.size * 1.2)
    ax.set_ylim(max(ys) + layout.size * 1.2, min(ys) - layout.size * 1.2)  # y grows downwards, as on the page
    ax.set_aspect("equal")
    ax.axis("off")
    if values is None:
        return None
    sm = mpl.cm.ScalarMappable(norm=norm, cmap=colormap)
    bar = ax.figure.colorbar(sm, ax=ax, fraction=0.04, pad=0.02)
    if integer:
        from matplotlib.ticker import MaxNLocator

        bar.locator = MaxNLocator(integer=True)
        bar.update_ticks()
    bar.set_label(label)
    return bar


def cell_counts(game: GameDef, names: Sequence[str], rules: Any = None) -> dict[int, float]:
    """Counts per cell of a column of cell names (where princes died, where tiles were laid)."""
    index = {c.name: c.id for c in game.layout(rules).cells}
    out: dict[int, float] = {}
    for name in names:
        if name in index:
            out[index[name]] = out.get(index[name], 0.0) + 1.0
    return out



def rule_cell_counts(events: Any, rule: str, names: Mapping[str, int] | None = None) -> dict[int, float]:
    """Per cell, how often ``rule`` fired at it in an events table (its ``rules`` column: ``rule@cell,...``).

    ``rule`` may end in ``*`` to pool every rule with that prefix (``tiles_placed_*``). A cell is written
    by its id (stored batches) or by its name (``h1``, a fresh batch); ``names`` maps names to ids (the
    game's layout), so both read the same.
    """
    out: dict[int, float] = {}
    prefix = rule[:-1] if rule.endswith("*") else None
    for text in events["rules"].dropna():
        for item in str(text).split(","):
            name, _, cell = item.partition("@")
            if not cell or not (name.startswith(prefix) if prefix is not None else name == rule):
                continue
            if names is not None and cell in names:
                c = names[cell]
            else:
                try:
                    c = int(cell)
                except ValueError:
                    continue
            out[c] = out.get(c, 0.0) + 1.0
    return out


def batch_rule_maps(game: GameDef, events: Any, panels: Sequence[tuple[str, str]], rules: Any = None,
                    per_game: bool = True, columns: int = 4) -> Any:
    """One board panel per ``(title, rule)``: where that rule fired over a batch's events (counts per game
    when ``per_game``), each with its own colour bar from 0. Returns the matplotlib figure."""
    import matplotlib.pyplot as plt

    n = max(1, len(panels))
    cols = min(columns, n)
    rows = math.ceil(n / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, 3.6 * rows), squeeze=False)
    games = max(1, int(events["game_id"].nunique())) if per_game and len(events) else 1
    layout = game.layout(rules if rules is not None else game.spec.defaults())
    names = {c.name: c.id for c in layout.cells}
    for ax in axes.flat[n:]:
        ax.set_visible(False)
    for ax, (title, rule) in zip(axes.flat, panels, strict=False):
        counts = {c: v / games for c, v in rule_cell_counts(events, rule, names).items()}
        draw_board(ax, game, None, rules, values=counts, label="per game" if per_game else "count",
                   integer=not per_game, badges=False)
        ax.set_title(f"{title} ({sum(counts.values()):.2f} per game)" if per_game else title, fontsize=9)
    fig.tight_layout()
    return fig


def heat_panels(game: GameDef, state: State, panels: Sequence[tuple[str, str, int]], rules: Any = None,
                columns: int = 4) -> Any:
    """One board panel per ``(title, layer, player)``: ``state.heat(layer, player)`` over the position's pieces,
    each with its own colour bar from 0 (threat per player, per team...). Returns the matplotlib figure."""
    import matplotlib.pyplot as plt

    n = max(1, len(panels))
    cols = min(columns, n)
    rows = math.ceil(n / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, 3.9 * rows), squeeze=False)
    for ax in axes.flat[n:]:
        ax.set_visible(False)
    for ax, (title, layer, player) in zip(axes.flat, panels, strict=False):
        values = state.heat(layer, player)
        draw_board(ax, game, state, rules, values=values, label="pieces reaching the cell", integer=True, badges=False)
        ax.set_title(title, fontsize=9)
    fig.tight_layout()
    return fig


# --------------------------------------------------------------------------- piece pattern diagrams
NEW_COLOUR = "#f1c40f"  # the outline of the cells a level adds
LEAP_FILL = "#fdf2d0"  # a cell reached by a jump


def _shape_svg(shape: str, colour: str, x: float, y: float, s: float, dx: int, dy: int) -> str:
    """One act's symbol centred on (x, y), ``s`` its half size; an arrow points away from the piece."""
    if shape == "dot":
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{s * 0.8:.1f}" fill="{colour}"/>'
    if shape == "cross":
        return (f'<path d="M{x - s:.1f},{y - s:.1f}L{x + s:.1f},{y + s:.1f}M{x - s:.1f},{y + s:.1f}L{x + s:.1f},{y - s:.1f}" '
                f'stroke="{colour}" stroke-width="{max(1.5, s * 0.45):.1f}" fill="none"/>')
    if shape == "star":
        pts = " ".join(f"{x + (s if k % 2 == 0 else s * 0.4) * math.sin(math.pi * k / 4):.1f},"
                       f"{y - (s if k % 2 == 0 else s * 0.4) * math.cos(math.pi * k / 4):.1f}" for k in range(8))
        return f'<polygon points="{pts}" fill="{colour}"/>'
    if shape == "arrow":
        a = math.atan2(dy, dx)
        tip = (x + s * math.cos(a), y + s * math.sin(a))
        left = (x + s * math.cos(a + 2.4), y + s * math.sin(a + 2.4))
        right = (x + s * math.cos(a - 2.4), y + s * math.sin(a - 2.4))
        pts = " ".join(f"{p:.1f},{q:.1f}" for p, q in (tip, left, right))
        return f'<polygon points="{pts}" fill="{colour}"/>'
    return (f'<rect x="{x - s:.1f}" y="{y - s:.1f}" width="{2 * s:.1f}" height="{2 * s:.1f}" fill="{colour}" '
            'fill-opacity="0.75"/>')


def _act_slots(n: int) -> list[tuple[float, float]]:
    """Where the symbols of ``n`` acts sit in a unit cell (one: the centre; more: side by side, then a 2x2)."""
    if n <= 1:
        return [(0.0, 0.0)]
    if n == 2:
        return [(-0.22, 0.0), (0.22, 0.0)]
    return [(-0.22, -0.22), (0.22, -0.22), (-0.22, 0.22), (0.22, 0.22)][:n] + [(0.0, 0.0)] * max(0, n - 4)


def pattern_svg(pattern: Pattern, cell: float = 22.0, margin: float = 6.0) -> str:
    """One pattern diagram as an SVG group (no ``<svg>`` wrapper): a grid of ``2r+1`` cells, the piece in
    the middle with its facing, and one ``pmark`` group per reached cell with one symbol per act.

    Every reached cell carries ``data-offset="dx,dy"`` and ``data-acts``, so a reader (or a test) can
    check the drawing against the card. Use ``patterns_svg`` for a standalone picture.
    """
    r = pattern.radius
    style = {act: (colour, shape) for act, colour, shape, _ in pattern.legend}
    out = [f'<g class="pattern" data-title="{html.escape(pattern.title)}">',
           f'<text x="{margin}" y="{margin + 10}" font-size="11">{html.escape(pattern.title)}</text>']
    top = margin + 16

    def corner(dx: int, dy: int) -> tuple[float, float]:
        return margin + (dx + r) * cell, top + (dy + r) * cell

    marks = {(m.dx, m.dy): m for m in pattern.marks}
    for dy in range(-r, r + 1):
        for dx in range(-r, r + 1):
            x, y = corner(dx, dy)
            m = marks.get((dx, dy))
            fill = LEAP_FILL if m is not None and m.leap else "#ffffff" if (dx + dy) % 2 == 0 else "#f2efe6"
            out.append(f'<rect class="pgrid" x="{x:.1f}" y="{y:.1f}" width="{cell:.1f}" height="{cell:.1f}" fill="{fill}" '
                       'stroke="#b8b2a2" stroke-width="0.6"/>')
    cx, cy = corner(0, 0)
    cx, cy = cx + cell / 2, cy + cell / 2
    out.append(f'<circle class="piece" cx="{cx:.1f}" cy="{cy:.1f}" r="{cell * 0.42:.1f}" fill="#f4f1e8" stroke="#222"/>')
    if pattern.facing is not None:
        a = math.radians(pattern.facing)
        out.append(f'<line class="facing" x1="{cx:.1f}" y1="{cy:.1f}" x2="{cx + cell * 0.42 * math.sin(a):.1f}" '
                   f'y2="{cy - cell * 0.42 * math.cos(a):.1f}" stroke="#d35400" stroke-width="2.5"/>')
    out.append(f'<text x="{cx:.1f}" y="{cy + cell * 0.14:.1f}" font-size="{cell * 0.38:.1f}" text-anchor="middle" '
               f'font-weight="bold">{html.escape(pattern.piece)}</text>')
    for m in pattern.marks:
        x, y = corner(m.dx, m.dy)
        attrs = (f'class="pmark{" new" if m.new else ""}{" leap" if m.leap else ""}" data-offset="{m.dx},{m.dy}" '
                 f'data-acts="{" ".join(m.acts)}"')
        out.append(f"<g {attrs}>")
        if m.new:
            out.append(f'<rect x="{x + 1:.1f}" y="{y + 1:.1f}" width="{cell - 2:.1f}" height="{cell - 2:.1f}" fill="none" '
                       f'stroke="{NEW_COLOUR}" stroke-width="2"/>')
        if m.leap:
            out.append(f'<rect x="{x + 2.5:.1f}" y="{y + 2.5:.1f}" width="{cell - 5:.1f}" height="{cell - 5:.1f}" '
                       'fill="none" stroke="#8a6d1f" stroke-width="0.8" stroke-dasharray="2,1.5"/>')
        for act, (ox, oy) in zip(m.acts, _act_slots(len(m.acts)), strict=False):
            colour, shape = style.get(act, ("#555555", "dot"))
            s = cell * (0.22 if len(m.acts) == 1 else 0.15)
            out.append(_shape_svg(shape, colour, x + cell * (0.5 + ox), y + cell * (0.5 + oy), s, m.dx, m.dy))
        if m.edge:
            out.append(f'<text x="{x + cell - 2:.1f}" y="{y + cell - 2:.1f}" font-size="{cell * 0.36:.1f}" '
                       'text-anchor="end" fill="#555">&#8734;</text>')
        if m.hop:
            out.append(f'<text x="{x + 2:.1f}" y="{y + cell * 0.32:.1f}" font-size="{cell * 0.3:.1f}" fill="#555">h</text>')
        out.append("</g>")
    out.append("</g>")
    return "".join(out)


def _pattern_size(pattern: Pattern, cell: float, margin: float) -> tuple[float, float]:
    side = (2 * pattern.radius + 1) * cell
    return side + 2 * margin, side + 2 * margin + 16


def patterns_svg(patterns: Sequence[Pattern], cell: float = 22.0, margin: float = 6.0, legend: bool = True) -> str:
    """Standalone SVG of pattern panels side by side (a card's base and levels), with the act legend under
    them (only the acts drawn, plus the jump, hop, edge and level-added marks used)."""
    sizes = [_pattern_size(p, cell, margin) for p in patterns]
    width = max(1.0, sum(w for w, _ in sizes))
    height = max((h for _, h in sizes), default=20.0)
    used = [a for p in patterns for m in p.marks for a in m.acts]
    items = [(colour, shape, f"{act}: {words}") for act, colour, shape, words in (patterns[0].legend if patterns else ())
             if act in used]
    extras = [("jump (over the cells between)", any(m.leap for p in patterns for m in p.marks)),
              ("h: slides over one ally", any(m.hop for p in patterns for m in p.marks)),
              ("\u221e: goes on to the board's edge", any(m.edge for p in patterns for m in p.marks)),
              ("yellow outline: added by the level", any(m.new for p in patterns for m in p.marks))]
    extra_words = [w for w, used_ in extras if used_]
    rows = (len(items) + len(extra_words)) if legend else 0
    total = height + rows * 14 + (6 if rows else 0)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{total:.0f}" '
           f'viewBox="0 0 {width:.0f} {total:.0f}" font-family="sans-serif">']
    x = 0.0
    for p, (w, _) in zip(patterns, sizes, strict=True):
        out.append(f'<g transform="translate({x:.1f},0)">{pattern_svg(p, cell, margin)}</g>')
        x += w
    if legend:
        y = height + 6
        for colour, shape, words in items:
            out.append(f'<g class="legend">{_shape_svg(shape, colour, margin + 6, y + 4, 4.5, 1, 0)}'
                       f'<text x="{margin + 16}" y="{y + 8}" font-size="10">{html.escape(words)}</text></g>')
            y += 14
        for words in extra_words:
            out.append(f'<text class="legend" x="{margin + 16}" y="{y + 8}" font-size="10">{html.escape(words)}</text>')
            y += 14
    out.append("</svg>")
    return "".join(out)


def draw_pattern(ax: Any, pattern: Pattern) -> None:
    """One pattern diagram on a matplotlib axis: the same grid, piece, facing and act symbols as ``pattern_svg``."""
    from matplotlib.patches import Circle, Polygon, Rectangle

    r = pattern.radius
    style = {act: (colour, shape) for act, colour, shape, _ in pattern.legend}
    marks = {(m.dx, m.dy): m for m in pattern.marks}
    for dy in range(-r, r + 1):
        for dx in range(-r, r + 1):
            m = marks.get((dx, dy))
            fill = LEAP_FILL if m is not None and m.leap else "#ffffff" if (dx + dy) % 2 == 0 else "#f2efe6"
            ax.add_patch(Rectangle((dx - 0.5, dy - 0.5), 1, 1, facecolor=fill, edgecolor="#b8b2a2", linewidth=0.5))
    ax.add_patch(Circle((0, 0), 0.42, facecolor="#f4f1e8", edgecolor="#222", linewidth=0.8))
    if pattern.facing is not None:
        a = math.radians(pattern.facing)
        ax.plot([0, 0.42 * math.sin(a)], [0, -0.42 * math.cos(a)], color="#d35400", linewidth=2.2)
    ax.text(0, 0.02, pattern.piece, ha="center", va="center", fontsize=7, fontweight="bold")
    for m in pattern.marks:
        if m.new:
            ax.add_patch(Rectangle((m.dx - 0.45, m.dy - 0.45), 0.9, 0.9, fill=False, edgecolor=NEW_COLOUR, linewidth=1.6))
        if m.leap:
            ax.add_patch(Rectangle((m.dx - 0.38, m.dy - 0.38), 0.76, 0.76, fill=False, edgecolor="#8a6d1f",
                                   linewidth=0.6, linestyle="--"))
        for act, (ox, oy) in zip(m.acts, _act_slots(len(m.acts)), strict=False):
            colour, shape = style.get(act, ("#555555", "dot"))
            x, y = m.dx + ox, m.dy + oy
            s = 0.22 if len(m.acts) == 1 else 0.15
            if shape == "dot":
                ax.add_patch(Circle((x, y), s * 0.8, facecolor=colour, edgecolor="none"))
            elif shape == "cross":
                ax.plot([x - s, x + s], [y - s, y + s], color=colour, linewidth=1.6)
                ax.plot([x - s, x + s], [y + s, y - s], color=colour, linewidth=1.6)
            elif shape == "star":
                ax.add_patch(Polygon([(x + (s if k % 2 == 0 else s * 0.4) * math.sin(math.pi * k / 4),
                                       y - (s if k % 2 == 0 else s * 0.4) * math.cos(math.pi * k / 4)) for k in range(8)],
                                     closed=True, facecolor=colour, edgecolor="none"))
            elif shape == "arrow":
                a = math.atan2(m.dy, m.dx)
                ax.add_patch(Polygon([(x + s * math.cos(a + t), y + s * math.sin(a + t)) for t in (0.0, 2.4, -2.4)],
                                     closed=True, facecolor=colour, edgecolor="none"))
            else:
                ax.add_patch(Rectangle((x - s, y - s), 2 * s, 2 * s, facecolor=colour, alpha=0.75, edgecolor="none"))
        if m.edge:
            ax.text(m.dx + 0.45, m.dy + 0.45, "\u221e", ha="right", va="bottom", fontsize=6, color="#555")
        if m.hop:
            ax.text(m.dx - 0.42, m.dy - 0.42, "h", ha="left", va="top", fontsize=5, color="#555")
    ax.set_xlim(-r - 0.55, r + 0.55)
    ax.set_ylim(r + 0.55, -r - 0.55)  # dy < 0 is up, as on the board
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title(pattern.title, fontsize=8)


def pattern_figure(rows: Sequence[Sequence[Pattern]], size: float = 1.9) -> Any:
    """A figure with one row per card and one panel per pattern (base, levels), with the act legend."""
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    cols = max((len(r) for r in rows), default=1)
    fig, axes = plt.subplots(len(rows) or 1, cols, figsize=(size * cols, size * (len(rows) or 1) + 0.5), squeeze=False)
    for ax in axes.flat:
        ax.set_visible(False)
    used: list[str] = []
    legend: tuple[tuple[str, str, str, str], ...] = ()
    for i, row in enumerate(rows):
        for j, p in enumerate(row):
            axes[i][j].set_visible(True)
            draw_pattern(axes[i][j], p)
            legend = legend or p.legend
            used += [a for m in p.marks for a in m.acts if a not in used]
    markers = {"dot": "o", "cross": "x", "star": "*", "arrow": ">", "square": "s"}
    handles = [Line2D([], [], linestyle="none", marker=markers.get(shape, "o"), color=colour, label=f"{act}: {words}")
               for act, colour, shape, words in legend if act in used]
    if handles:
        fig.legend(handles=handles, loc="lower center", ncol=min(3, len(handles)), fontsize=7, frameon=False)
    fig.tight_layout(rect=(0, 0.06, 1, 1))
    return fig
