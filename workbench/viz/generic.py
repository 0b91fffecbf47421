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

from workbench.core.protocol import GameDef, Glyph, Layout, State

# Seat colours (white/first seat light, second dark, then distinct hues); one meaning each.
SEAT_COLOURS = ("#f4f1e8", "#2b2b2b", "#c0392b", "#2471a3", "#229954", "#d68910", "#7d3c98", "#17a589",
                "#a04000", "#5d6d7e", "#f1c40f", "#e74c3c", "#1abc9c", "#8e44ad", "#34495e", "#d35400",
                "#27ae60", "#2980b9", "#c39bd3", "#7fb3d5", "#82e0aa", "#f8c471", "#e59866", "#aab7b8",
                "#641e16")
DEFAULT_TERRAIN = "#ece6d6"
VOID = "#ffffff"


MARK_COLOURS = {"fresh": "#1e8449", "attacker": "#d35400", "target": "#c0392b", "last": "#2471a3"}
MARK_DASH = {"fresh": "3,2", "attacker": "6,2", "target": "1,0"}


def mark_colour(mark: str) -> str:
    """The ring colour of a glyph mark (fresh pieces green, an attack's cells orange and red)."""
    return MARK_COLOURS.get(mark, "#7d3c98")


def seat_colour(player: int | None) -> str:
    """The fill of a piece of ``player``."""
    return "#bbbbbb" if player is None else SEAT_COLOURS[player % len(SEAT_COLOURS)]


def _ink(fill: str) -> str:
    r, g, b = (int(fill[i:i + 2], 16) for i in (1, 3, 5))
    return "#111111" if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "#ffffff"


def _terrain_colours(game: GameDef) -> dict[str, str]:
    return {cls: colour for cls, colour, _ in getattr(game, "legend", ())}


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
    layout = game.layout(rules)
    colours = _terrain_colours(game)
    glyphs = {g.cell: g for g in state.glyphs()}
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
            piece_fill = seat_colour(g.owner)
            out.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}" fill="{piece_fill}" stroke="#222" '
                       'stroke-width="1"/>')
            if g.facing is not None:
                a = math.radians(g.facing)
                out.append(f'<line x1="{cx:.1f}" y1="{cy:.1f}" x2="{cx + r * math.cos(a):.1f}" '
                           f'y2="{cy - r * math.sin(a):.1f}" stroke="#d35400" stroke-width="2.5"/>')
            out.append(f'<text x="{cx:.1f}" y="{cy + r * 0.38:.1f}" font-size="{r * 1.05:.1f}" text-anchor="middle" '
                       f'fill="{_ink(piece_fill)}" font-weight="bold">{html.escape(g.piece)}</text>')
        for k, badge in enumerate(g.badges[:3]):
            bx = cx + layout.size * scale * (0.15 if k % 2 else -0.55)
            by = cy + layout.size * scale * (0.62 if k < 2 else -0.2)
            out.append(f'<text x="{bx:.1f}" y="{by:.1f}" font-size="{max(6.0, scale * 0.24):.1f}" '
                       f'fill="#7b241c">{html.escape(badge)}</text>')
    if title:
        out.append("</g>")
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
    glyphs = {g.cell: g for g in state.glyphs()} if state is not None else {}
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
                    color=_ink(seat_colour(g.owner)),
                    bbox={"boxstyle": "circle,pad=0.2", "facecolor": seat_colour(g.owner), "edgecolor": "#222"})
        if badges and g.badges:
            text = " ".join(g.badges[:3])
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



def rule_cell_counts(events: Any, rule: str) -> dict[int, float]:
    """Per cell, how often ``rule`` fired at it in an events table (its ``rules`` column: ``rule@cell,...``).

    ``rule`` may end in ``*`` to pool every rule with that prefix (``tiles_placed_*``).
    """
    out: dict[int, float] = {}
    prefix = rule[:-1] if rule.endswith("*") else None
    for text in events["rules"].dropna():
        for item in str(text).split(","):
            name, _, cell = item.partition("@")
            if not cell or not (name.startswith(prefix) if prefix is not None else name == rule):
                continue
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
    for ax in axes.flat[n:]:
        ax.set_visible(False)
    for ax, (title, rule) in zip(axes.flat, panels, strict=False):
        counts = {c: v / games for c, v in rule_cell_counts(events, rule).items()}
        draw_board(ax, game, None, rules, values=counts, label="per game" if per_game else "count",
                   integer=not per_game, badges=False)
        ax.set_title(f"{title} ({sum(counts.values()):.2f} per game)" if per_game else title, fontsize=9)
    fig.tight_layout()
    return fig
