"""Matplotlib board pictures and heatmaps, drawn from the same scene and layout as the SVG.

``draw_board`` gives an Axes (for reports and figures); ``heatmap`` colours the 91 hexes from
values in board order with matplotlib's own conventions (a ``cmap``, a ``Normalize``, NaN cells
masked, a ``colorbar``); ``compare`` lays boards or heatmaps side by side on one shared scale.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.collections import LineCollection, PolyCollection
from matplotlib.colors import Normalize
from matplotlib.patches import Circle as CirclePatch
from matplotlib.patches import FancyArrowPatch

from workbench.games.terrafeud.engine.geometry import HEXES, N_HEXES

from .layout import Layout
from .scene import OVERLAYS, Arrow, Circle, Lines, Poly, Scene, Text, board_scene

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from workbench.games.terrafeud.engine.state import GameState

_HEAT_Z = 1.5  # heat cells lie over the terrain and under everything else
MIN_COORD_POINTS = 7.0  # rim coordinates never shrink below this (a 4-panel figure made them 4 pt)


def _dash(dash: str | None) -> Any:
    if not dash:
        return "solid"
    return (0, tuple(float(x) / 1.5 for x in dash.split()))


def _points_per_unit(ax: Axes, scene: Scene) -> float:
    """Font and line scale: points per layout pixel, for the axes' size in the figure."""
    fig = ax.get_figure()
    pos = ax.get_position()
    w_in = fig.get_figwidth() * pos.width
    h_in = fig.get_figheight() * pos.height
    return 72.0 * min(w_in / scene.width, h_in / scene.height)


def draw_scene(scene: Scene, ax: Axes, *, heat_layer: Any = None) -> Axes:
    """Draw every shape of a scene on ``ax`` (y downwards, as in the layout); terrain first."""
    k = _points_per_unit(ax, scene)
    terrain = [s for s in scene.shapes if isinstance(s, Poly) and "hex" in s.classes.split()]
    ax.add_collection(
        PolyCollection([s.points for s in terrain], facecolors=[s.fill for s in terrain],
                       edgecolors=[s.stroke for s in terrain], linewidths=[s.width * k * 0.9 for s in terrain], zorder=1)
    )
    if heat_layer is not None:
        heat_layer.set_zorder(_HEAT_Z)
        ax.add_collection(heat_layer)
    z = 2.0
    for s in scene.shapes:
        if isinstance(s, Poly) and "hex" in s.classes.split():
            continue
        z += 0.001
        if isinstance(s, Poly):
            ax.add_collection(PolyCollection([s.points], facecolors=[s.fill], edgecolors=[s.stroke],
                                             linewidths=s.width * k, alpha=s.opacity, zorder=z))
        elif isinstance(s, Lines):
            ax.add_collection(LineCollection([[(a, b), (c, d)] for a, b, c, d in s.segments], colors=s.stroke,
                                             linewidths=s.width * k, linestyles=_dash(s.dash), alpha=s.opacity,
                                             capstyle="round", zorder=z))
        elif isinstance(s, Circle):
            ax.add_patch(CirclePatch((s.cx, s.cy), s.r, facecolor=s.fill, edgecolor=s.stroke,
                                     linewidth=s.width * k, alpha=s.opacity, zorder=z))
        elif isinstance(s, Text):
            size = s.size * k
            if "coord" in s.classes.split():  # rim coordinates stay readable on the small panels of a grid
                size = max(size, MIN_COORD_POINTS)
            ax.text(s.x, s.y, s.text, fontsize=size, color=s.fill, ha="center", va="center_baseline",
                    fontweight="bold" if s.bold else "normal", zorder=z)
        elif isinstance(s, Arrow):
            ax.add_patch(FancyArrowPatch((s.x1, s.y1), (s.x2, s.y2), arrowstyle="-|>",
                                         mutation_scale=max(8.0, 4 * s.width * k), color=s.stroke,
                                         linewidth=s.width * k, linestyle=_dash(s.dash), alpha=s.opacity, zorder=z))
    ax.set_xlim(0, scene.width)
    ax.set_ylim(scene.height, 0)
    ax.set_aspect("equal")
    ax.set_axis_off()
    return ax


def _new_axes(ax: Axes | None, width: float = 5.6) -> Axes:
    if ax is not None:
        return ax
    lay = Layout()
    _, ax = plt.subplots(figsize=(width, width * lay.height / lay.width))
    return ax


def draw_board(
    state: GameState,
    ax: Axes | None = None,
    *,
    layout: Layout | None = None,
    highlights: Iterable[int | str] | Mapping[int | str, str] | None = None,
    overlays: Iterable[str] = OVERLAYS,
    heat: Sequence[float] | None = None,
    heat_cmap: str = "viridis",
    coordinates: bool = True,
    title: str | None = None,
) -> Axes:
    """The board picture on a matplotlib Axes (a new figure when ``ax`` is None)."""
    ax = _new_axes(ax)
    if heat is not None:
        return heatmap(state, heat, ax=ax, cmap=heat_cmap, layout=layout, highlights=highlights,
                       overlays=overlays, title=title, colorbar=False)
    scene = board_scene(state, layout=layout, highlights=highlights, overlays=overlays, coordinates=coordinates)
    draw_scene(scene, ax)
    if title:
        ax.set_title(title)
    return ax


def zero_norm(values: Iterable[float]) -> Normalize:
    """A colour scale from 0 (or below, for negative data) to the largest value: counts start at 0, so the
    colour bar's left end reads 0 and means 0 (a scale from the data's minimum labelled an empty hex 1)."""
    finite = [float(v) for v in values if v is not None and not math.isnan(float(v))]
    lo = min(0.0, min(finite)) if finite else 0.0
    hi = max(finite) if finite else 1.0
    return Normalize(vmin=lo, vmax=hi if hi > lo else lo + 1.0)


def colour_bar_ticks(bar: Any, values: Iterable[float]) -> None:
    """Whole-number ticks on a colour bar whose values are all whole numbers (counts), 0 included."""
    from matplotlib.ticker import MaxNLocator

    finite = [float(v) for v in values if v is not None and not math.isnan(float(v))]
    if finite and all(v.is_integer() for v in finite):
        bar.locator = MaxNLocator(integer=True)
        bar.update_ticks()


def heat_collection(values: Sequence[float], layout: Layout, cmap: Any = "viridis",
                    norm: Normalize | None = None, alpha: float = 0.85) -> PolyCollection:
    """The 91 hexes as a ``PolyCollection`` mapped through ``cmap``/``norm``; NaN values are masked."""
    if len(values) != N_HEXES:
        raise ValueError(f"a heatmap needs 91 values in board order (a1..l6), got {len(values)}")
    arr = np.ma.masked_invalid(np.asarray([np.nan if v is None else float(v) for v in values], dtype=float))
    if norm is None:
        norm = zero_norm(arr.compressed())
    cm = (matplotlib.colormaps[cmap] if isinstance(cmap, str) else cmap).with_extremes(bad=(0, 0, 0, 0))
    return PolyCollection([layout.polygon_corners(h) for h in HEXES], array=arr, cmap=cm, norm=norm,
                          edgecolors="#3a3a3a", linewidths=0.4, alpha=alpha)


def heatmap(
    state: GameState,
    values: Sequence[float],
    ax: Axes | None = None,
    *,
    cmap: Any = "viridis",
    norm: Normalize | None = None,
    colorbar: bool = True,
    title: str | None = None,
    label: str | None = None,
    annotate: bool = True,
    layout: Layout | None = None,
    highlights: Iterable[int | str] | Mapping[int | str, str] | None = None,
    overlays: Iterable[str] = ("markers", "last"),
) -> Axes:
    """Colour each hex by ``values[h]`` over the board, with the pieces on top.

    ``annotate`` writes each non-zero value in its hex's corner; NaN hexes keep the terrain colour.
    """
    ax = _new_axes(ax)
    lay = layout or Layout()
    coll = heat_collection(values, lay, cmap, norm)
    scene = board_scene(state, layout=lay, highlights=highlights, overlays=overlays)
    draw_scene(scene, ax, heat_layer=coll)
    # The river band's outline stays visible through the heat, so the halves still read.
    bd = state.board
    band = set(bd.river) | set(bd.fords) | set(bd.bridges)
    ax.add_collection(LineCollection([[(a, b), (c, d)] for a, b, c, d in lay.boundary(band)],
                                     colors="#1f4e8c", linewidths=2.0 * _points_per_unit(ax, scene) * 1.2,
                                     zorder=_HEAT_Z + 0.1, alpha=0.8))
    if annotate:
        k = _points_per_unit(ax, scene)
        for h in HEXES:
            v = values[h]
            if v is None or math.isnan(float(v)) or float(v) == 0.0:
                continue
            x, y = lay.hex_to_pixel(h)
            ax.text(x - 0.42 * lay.size, y + 0.5 * lay.size, f"{float(v):g}", fontsize=0.3 * lay.size * k,
                    ha="center", va="center", color="#111", zorder=5,
                    bbox={"boxstyle": "round,pad=0.1", "fc": "white", "ec": "none", "alpha": 0.6})
    if colorbar:
        bar = ax.get_figure().colorbar(coll, ax=ax, shrink=0.7, label=label or "")
        colour_bar_ticks(bar, values)
    if title:
        ax.set_title(title)
    return ax


def compare(
    *panels: GameState | tuple[GameState, Sequence[float]],
    titles: Sequence[str] | None = None,
    cmap: Any = "viridis",
    norm: Normalize | None = None,
    label: str | None = None,
    width: float = 5.0,
    **options: Any,
) -> Figure:
    """Boards or (state, values) heatmaps side by side; heatmaps share one ``Normalize`` and colorbar.

    Typical: ``compare((st, threat(st, 0)), (st, threat(st, 1)), titles=["white", "black"])``.
    """
    if not panels:
        raise ValueError("compare needs at least one state or (state, values) pair")
    if titles is not None and len(titles) != len(panels):
        raise ValueError(f"compare got {len(panels)} panels but {len(titles)} titles")
    heat_values = [p[1] for p in panels if isinstance(p, tuple)]
    if heat_values and norm is None:
        norm = zero_norm(v for vals in heat_values for v in vals)
    lay = Layout()
    n = len(panels)
    bar = 1.0 if heat_values else 0.0
    fig, axes = plt.subplots(1, n, figsize=(width * n + bar, width * lay.height / lay.width + 0.5), squeeze=False)
    fig.subplots_adjust(left=0.01, right=1 - (bar + 0.1) / (width * n + bar), top=0.93, bottom=0.01, wspace=0.02)
    for i, (p, ax) in enumerate(zip(panels, axes[0], strict=True)):
        title = titles[i] if titles else None
        if isinstance(p, tuple):
            heatmap(p[0], p[1], ax=ax, cmap=cmap, norm=norm, colorbar=False, title=title, **options)
        else:
            draw_board(p, ax=ax, title=title, **options)
    if heat_values:
        sm = plt.cm.ScalarMappable(norm=norm, cmap=cmap)
        right = 1 - (bar + 0.1) / (width * n + bar)
        cax = fig.add_axes((right + 0.15 / (width * n + bar), 0.2, 0.25 / (width * n + bar), 0.6))
        bar = fig.colorbar(sm, cax=cax, label=label or "")
        colour_bar_ticks(bar, [v for vals in heat_values for v in vals])
    return fig


__all__ = ["colour_bar_ticks", "compare", "draw_board", "draw_scene", "heat_collection", "heatmap", "zero_norm"]
