"""What a board picture contains, as renderer-free shapes in the layout's pixels.

``board_scene`` turns a position into polygons, lines, circles, texts and arrows with their colours
and CSS classes. The SVG writer (``svg.py``) and matplotlib (``mpl.py``) only translate these shapes,
so both pictures always show the same board, the same colours and the same overlays.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from workbench.games.terrafeud.engine.geometry import (
    FILES,
    HEXES,
    N_HEXES,
    PIKE_ZONE,
    WITHIN,
    hex_at,
    hex_name,
    parse_hex,
)
from workbench.games.terrafeud.engine.pieces import FEUDAL, PIKEMAN, SIDE_NAMES, letter
from workbench.games.terrafeud.engine.state import CASTLE, MOVE, ORDER, SHOT, order_steps

from .layout import Layout

if TYPE_CHECKING:
    from workbench.games.terrafeud.engine.state import GameState

OVERLAYS = ("zones", "markers", "aura", "last")
COLOURS = {
    "land": "#ece3c6",
    "river": "#6fa8dc",
    "ford": "#a9d5f3",
    "bridge": "#8b5a2b",
    "castle": "#bdbdbd",
    "hill": "#b5d7a6",
    "swamp": "#76a5af",
    "winter_river": "#eaf4fb",
    "winter_ford": "#d6e9f6",
    "edge": "#3a3a3a",
    "highlight": "#ffd54f",
    "last": "#c0392b",
}
# Overlay accents per side (zones, aura): pieces and markers use the sides' own white and black.
SIDE_ACCENT = ("#d35400", "#6c3483")
AURA = "#c9a227"  # the feudal's gold: its ring and its aura
PIECE_FILL = ("#fbfbf8", "#262626")
PIECE_TEXT = ("#1a1a1a", "#f5f5f5")


@dataclass
class Poly:
    """A filled polygon (a hex, a heat cell, a highlight)."""

    points: list[tuple[float, float]]
    fill: str
    stroke: str = "none"
    width: float = 1.0
    opacity: float = 1.0
    classes: str = ""
    attrs: dict[str, str] = field(default_factory=dict)
    value: float | None = None  # a heat cell's value, kept for tooltips


@dataclass
class Lines:
    """Unconnected segments drawn alike (an outline, a marker's line of shot)."""

    segments: list[tuple[float, float, float, float]]
    stroke: str
    width: float = 1.0
    dash: str | None = None
    opacity: float = 1.0
    classes: str = ""


@dataclass
class Circle:
    """A disc (a piece, a marker)."""

    cx: float
    cy: float
    r: float
    fill: str
    stroke: str = "none"
    width: float = 1.0
    opacity: float = 1.0
    classes: str = ""
    attrs: dict[str, str] = field(default_factory=dict)


@dataclass
class Text:
    """A label, centred on (x, y)."""

    x: float
    y: float
    text: str
    size: float
    fill: str = "#222"
    bold: bool = False
    classes: str = ""
    attrs: dict[str, str] = field(default_factory=dict)


@dataclass
class Arrow:
    """An arrow from one point to another (the last action)."""

    x1: float
    y1: float
    x2: float
    y2: float
    stroke: str
    width: float = 3.0
    dash: str | None = None
    opacity: float = 0.85
    classes: str = ""


@dataclass
class Scene:
    """Everything to draw, bottom layer first, in the layout's pixels (y grows downwards)."""

    width: float
    height: float
    classes: str
    shapes: list[Poly | Lines | Circle | Text | Arrow]
    title: str = ""


def as_hex(h: int | str) -> int:
    """A hex given as an index or a name like ``e4``."""
    if isinstance(h, str):
        return parse_hex(h)
    if not isinstance(h, int) or not 0 <= h < N_HEXES:
        raise ValueError(f"unknown hex {h!r}: use 0..90 or a name like 'e4'")
    return h


def terrain_classes(state: GameState, h: int) -> list[str]:
    """CSS classes of a hex: its terrain kind, then castle, hill, swamp, winter as they apply."""
    bd = state.board
    kind = bd.kind_of(h)
    out = ["hex", kind]
    if any(h in z for z in bd.castle_zone):
        out.append("castle")
        if h in bd.castle_centre:
            out.append("castle-centre")
    if bd.is_hill[h]:
        out.append("hill")
    if bd.swamp_owner[h] >= 0:
        out.append("swamp")
        out.append(f"swamp-{SIDE_NAMES[bd.swamp_owner[h]]}")
    if bd.winter and kind in ("river", "ford"):
        out.append("winter")
    return out


def terrain_fill(classes: Sequence[str]) -> str:
    """Colour of a hex from its classes (winter turns river and ford to ice)."""
    if "winter" in classes:
        return COLOURS["winter_ford"] if "ford" in classes else COLOURS["winter_river"]
    for key in ("bridge", "ford", "river", "castle", "hill", "swamp"):
        if key in classes:
            return COLOURS[key]
    return COLOURS["land"]


def _highlight_map(highlights: Iterable[int | str] | Mapping[int | str, str] | None) -> dict[int, str]:
    if highlights is None:
        return {}
    if isinstance(highlights, Mapping):
        return {as_hex(h): str(c) for h, c in highlights.items()}
    return {as_hex(h): COLOURS["highlight"] for h in highlights}


def heat_colours(
    values: Sequence[float], cmap: str = "viridis", norm: object | None = None
) -> tuple[list[str | None], object, object]:
    """Hex colours of 91 values via matplotlib's colormap and ``Normalize`` (NaN: no colour)."""
    import matplotlib as mpl
    from matplotlib.colors import Normalize, to_hex

    if len(values) != N_HEXES:
        raise ValueError(f"heat needs 91 values in board order (a1..l6), got {len(values)}")
    finite = [float(v) for v in values if v is not None and not math.isnan(float(v))]
    if norm is None:
        lo, hi = (min(finite), max(finite)) if finite else (0.0, 1.0)
        norm = Normalize(vmin=lo, vmax=hi if hi > lo else lo + 1.0)
    cm = mpl.colormaps[cmap] if isinstance(cmap, str) else cmap
    out: list[str | None] = []
    for v in values:
        if v is None or math.isnan(float(v)):
            out.append(None)
        else:
            out.append(to_hex(cm(norm(float(v)))))  # type: ignore[operator]
    return out, cm, norm


def _shorten(x1: float, y1: float, x2: float, y2: float, by: float) -> tuple[float, float, float, float]:
    d = math.hypot(x2 - x1, y2 - y1)
    if d <= 2 * by:
        return x1, y1, x2, y2
    ux, uy = (x2 - x1) / d, (y2 - y1) / d
    return x1 + ux * by, y1 + uy * by, x2 - ux * by, y2 - uy * by


def board_scene(
    state: GameState,
    *,
    layout: Layout | None = None,
    highlights: Iterable[int | str] | Mapping[int | str, str] | None = None,
    overlays: Iterable[str] = OVERLAYS,
    heat: Sequence[float] | None = None,
    heat_cmap: str = "viridis",
    heat_norm: object | None = None,
    coordinates: bool = True,
    last: object | None = None,
) -> Scene:
    """The shapes of a board picture; ``last`` overrides the action drawn as the last one."""
    lay = layout or Layout()
    overlays = set(overlays)
    unknown = overlays - set(OVERLAYS)
    if unknown:
        raise ValueError(f"unknown overlay(s) {sorted(unknown)}: choose from {', '.join(OVERLAYS)}")
    s = lay.size
    shapes: list[Poly | Lines | Circle | Text | Arrow] = []
    sq = state.squares
    bd = state.board
    # 1. terrain
    for h in HEXES:
        cls = terrain_classes(state, h)
        width = 2.5 if "castle-centre" in cls else 1.0  # the castle centre wins when entered
        shapes.append(
            Poly(lay.polygon_corners(h), terrain_fill(cls), COLOURS["edge"], width, 1.0, " ".join(cls),
                 {"data-hex": hex_name(h)})
        )
    for h in HEXES:  # small terrain signs, so hill and swamp read even under a heat map
        cx, cy = lay.hex_to_pixel(h)
        if bd.is_hill[h]:
            shapes.append(Text(cx + 0.5 * s, cy - 0.55 * s, "▲", 0.32 * s, "#4e7a3a", classes="terrain-sign hill"))
        if bd.swamp_owner[h] >= 0:
            shapes.append(Text(cx + 0.5 * s, cy - 0.55 * s, "≈", 0.42 * s, "#2f5d66", True, "terrain-sign swamp"))
    if bd.winter:
        for h in HEXES:
            if bd.kind_of(h) in ("river", "ford"):
                cx, cy = lay.hex_to_pixel(h)
                segs = [(cx - 0.45 * s, cy + 0.15 * s, cx + 0.1 * s, cy - 0.35 * s),
                        (cx - 0.05 * s, cy + 0.4 * s, cx + 0.45 * s, cy - 0.05 * s)]
                shapes.append(Lines(segs, "#9cc3e0", 1.2, classes="ice"))
    # 2. heat
    if heat is not None:
        colours, _, _ = heat_colours(heat, heat_cmap, heat_norm)
        for h in HEXES:
            if colours[h] is not None:
                shapes.append(
                    Poly(lay.polygon_corners(h), colours[h], COLOURS["edge"], 0.6, 0.85, "heat",
                         {"data-hex": hex_name(h), "data-value": f"{float(heat[h]):g}"}, float(heat[h]))
                )
    # 3. highlights
    for h, colour in _highlight_map(highlights).items():
        inner = [(x * 0.85 + c * 0.15, y * 0.85 + d * 0.15) for (x, y), (c, d) in
                 zip(lay.polygon_corners(h), [lay.hex_to_pixel(h)] * 6, strict=False)]
        shapes.append(Poly(inner, colour, "#b8860b", 2.0, 0.6, "highlight", {"data-hex": hex_name(h)}))
    # 4. pikeman zones: the shaded union per side, and each pikeman's flower outlined
    if "zones" in overlays:
        for side in (0, 1):
            pikes = [h for h in HEXES if sq[h] == PIKEMAN | (side << 3)]
            for p in pikes:
                flower = set(PIKE_ZONE[p]) | {p}
                shapes.append(Lines(lay.boundary(flower), SIDE_ACCENT[side], 2.0, "6 3", 0.9,
                                    f"zone {SIDE_NAMES[side]}"))
            for z in sorted(state.zone(side)):
                cx, cy = lay.hex_to_pixel(z)
                shapes.append(Circle(cx, cy + 0.62 * s, 0.09 * s, SIDE_ACCENT[side], classes=f"zone-dot {SIDE_NAMES[side]}"))
    # 5. the feudal's aura ring (distance 2: aura bonus and Order range)
    if "aura" in overlays:
        for side in (0, 1):
            f = state.feudal[side]
            if f >= 0:
                ring = set(WITHIN[f][2]) | {f}
                shapes.append(Lines(lay.boundary(ring), AURA, 3.5, "1 6", 0.95, f"aura {SIDE_NAMES[side]}"))
    # 6. pieces
    for h in HEXES:
        c = sq[h]
        if not c:
            continue
        side = c >> 3
        cx, cy = lay.hex_to_pixel(h)
        name = SIDE_NAMES[side]
        if c & 7 == FEUDAL:
            shapes.append(Circle(cx, cy, 0.64 * s, "none", AURA, 3.0, classes=f"feudal-ring {name}"))
        shapes.append(Circle(cx, cy, 0.52 * s, PIECE_FILL[side], "#1a1a1a" if side == 0 else "#f0f0f0", 1.6,
                             classes=f"piece-disc {name}", attrs={"data-hex": hex_name(h)}))
        shapes.append(Text(cx, cy, letter(c).upper(), 0.6 * s, PIECE_TEXT[side], True, f"piece {name}",
                           {"data-hex": hex_name(h), "data-piece": letter(c)}))
    # 7. archer markers in the archer's own colour, with the line of shot
    if "markers" in overlays:
        for side in (0, 1):
            for archer, target in sorted(state.markers[side].items()):
                ax, ay = lay.hex_to_pixel(archer)
                tx, ty = lay.hex_to_pixel(target)
                name = SIDE_NAMES[side]
                x1, y1, x2, y2 = _shorten(ax, ay, tx, ty, 0.55 * s)
                shapes.append(Lines([(x1, y1, x2, y2)], PIECE_FILL[side], 3.0, "4 3", 0.9, f"marker-line {name}"))
                shapes.append(Lines([(x1, y1, x2, y2)], PIECE_TEXT[side], 1.0, "4 3", 0.9, f"marker-line {name}"))
                pending = target in state.pending and side != state.to_move
                shapes.append(Circle(tx, ty, 0.34 * s, "none", PIECE_TEXT[side], 5.0, classes=f"marker-edge {name}"))
                shapes.append(Circle(tx, ty, 0.34 * s, "none", PIECE_FILL[side], 3.0,
                                     classes=f"marker {name}" + (" ultimatum" if pending else ""),
                                     attrs={"data-hex": hex_name(target), "data-archer": hex_name(archer)}))
    # 8. the last action as an arrow
    action = last if last is not None else (state.history[-1] if state.history else None)
    if "last" in overlays and action is not None:
        shapes.extend(_action_arrows(lay, action))
    # 9. coordinates on the edge
    if coordinates:
        shapes.extend(_coordinates(lay))
    classes = "terrafeud-board " + ("winter" if bd.winter else "summer")
    return Scene(lay.width, lay.height, classes, shapes, _plain_title(state))


def _plain_title(state: GameState) -> str:
    """The picture's tooltip in words ("TerraFeud, winter, ply 24: White to move"), not the repr."""
    if state.victory:
        winner = state.winner_name()
        status = f"{winner.capitalize()} won ({state.victory})" if winner else f"drawn ({state.victory})"
    else:
        status = f"{SIDE_NAMES[state.to_move].capitalize()} to move"
    return f"TerraFeud, {state.rules.season}, ply {state.ply}: {status}"


def _action_arrows(lay: Layout, action: object) -> list[Arrow]:
    """Arrows of one action tuple: a move, each Order step, a shot (dashed), castling (both ways)."""
    if not isinstance(action, tuple) or not action:
        raise ValueError(f"last action {action!r} is not an action tuple")
    kind = action[0]
    pairs: list[tuple[int, int, str | None]] = []
    if kind == MOVE:
        pairs.append((action[1], action[2], None))
    elif kind == ORDER:
        pairs += [(a, t, None) for a, t, _ in order_steps(action)]
    elif kind == SHOT:
        pairs.append((action[1], action[2], "6 4"))
    elif kind == CASTLE:
        pairs += [(action[1], action[2], None), (action[2], action[1], None)]
    out = []
    for a, b, dash in pairs:
        x1, y1 = lay.hex_to_pixel(a)
        x2, y2 = lay.hex_to_pixel(b)
        x1, y1, x2, y2 = _shorten(x1, y1, x2, y2, 0.3 * lay.size)
        out.append(Arrow(x1, y1, x2, y2, COLOURS["last"], 0.12 * lay.size, dash, 0.85, "last"))
    return out


def _coordinates(lay: Layout) -> list[Text]:
    """File letters under and over each file; rank numbers left and right of each rank's end hexes."""
    s = lay.size
    out = []
    for q, f in enumerate(FILES):
        n = 11 - abs(q - 5)
        bottom = hex_at(q, abs(q - 5))
        top = hex_at(q, abs(q - 5) + 2 * (n - 1))
        assert bottom is not None and top is not None
        bx, by = lay.hex_to_pixel(bottom)
        tx, ty = lay.hex_to_pixel(top)
        out.append(Text(bx, by + 0.87 * s + 0.32 * s, f, 0.36 * s, "#444", classes="coord file"))
        out.append(Text(tx, ty - 0.87 * s - 0.3 * s, f, 0.36 * s, "#444", classes="coord file"))
    for r in range(1, 12):
        # a rank's end hexes: a and l up to rank 6, then the top hexes of files b..f and k..f
        left = (0, r) if r <= 6 else (r - 6, r)
        right = (10, r) if r <= 6 else (16 - r, r)
        for (q, rank), dx in ((left, -1), (right, 1)):
            h = hex_at(q, 2 * (rank - 1) + abs(q - 5))
            assert h is not None
            cx, cy = lay.hex_to_pixel(h)
            dy = 0.0 if r <= 6 else -0.55 * s
            out.append(Text(cx + dx * 1.12 * s, cy + dy, str(r), 0.34 * s, "#444", classes="coord rank"))
    return out


def changed_hexes(before: GameState, after: GameState) -> list[int]:
    """Hexes whose piece or marker differs between two positions, in board order."""
    marks_b = {t for s in (0, 1) for t in before.markers[s].values()}
    marks_a = {t for s in (0, 1) for t in after.markers[s].values()}
    return [h for h in HEXES if before.squares[h] != after.squares[h] or ((h in marks_b) != (h in marks_a))]


__all__ = ["OVERLAYS", "Scene", "as_hex", "board_scene", "changed_hexes", "heat_colours", "terrain_classes"]
