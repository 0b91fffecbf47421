"""SVG board pictures: ``board_svg(state)`` is what a position shows in a notebook (``_repr_svg_``).

The picture is written from ``scene.board_scene``, so it matches the matplotlib drawing exactly.
Every hex polygon carries ``data-hex`` and its terrain classes (``hex river|ford|bridge|land``,
``castle``, ``hill``, ``swamp``, ``winter``); pieces are text with ``piece white|black``. Colours are
attributes, not a stylesheet, so several boards on one notebook page never restyle each other.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING
from xml.sax.saxutils import escape, quoteattr

from .layout import Layout
from .scene import OVERLAYS, Arrow, Circle, Lines, Poly, Scene, Text, board_scene, changed_hexes

if TYPE_CHECKING:
    from workbench.games.terrafeud.engine.state import GameState

_ARROW_DEF = (
    '<defs><marker id="tf-arrow" viewBox="0 0 10 10" refX="7" refY="5" markerWidth="3.2" markerHeight="3.2" '
    'orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#c0392b"/></marker></defs>'
)


def _f(x: float) -> str:
    return f"{x:.1f}"


def _attrs(d: Mapping[str, str]) -> str:
    return "".join(f" {k}={quoteattr(v)}" for k, v in d.items())


def _cls(classes: str) -> str:
    return f' class="{classes}"' if classes else ""


def shape_svg(shape: Poly | Lines | Circle | Text | Arrow) -> str:
    """One scene shape as an SVG element."""
    if isinstance(shape, Poly):
        pts = " ".join(f"{_f(x)},{_f(y)}" for x, y in shape.points)
        op = f' fill-opacity="{shape.opacity:g}"' if shape.opacity < 1 else ""
        tip = f"<title>{escape(shape.attrs.get('data-hex', ''))}: {shape.value:g}</title>" if shape.value is not None else ""
        return (f'<polygon points="{pts}" fill="{shape.fill}" stroke="{shape.stroke}" stroke-width="{shape.width:g}"'
                f'{op}{_cls(shape.classes)}{_attrs(shape.attrs)}>{tip}</polygon>')
    if isinstance(shape, Lines):
        d = " ".join(f"M{_f(a)} {_f(b)}L{_f(c)} {_f(e)}" for a, b, c, e in shape.segments)
        dash = f' stroke-dasharray="{shape.dash}"' if shape.dash else ""
        return (f'<path d="{d}" fill="none" stroke="{shape.stroke}" stroke-width="{shape.width:g}" '
                f'stroke-linecap="round" stroke-opacity="{shape.opacity:g}"{dash}{_cls(shape.classes)}/>')
    if isinstance(shape, Circle):
        return (f'<circle cx="{_f(shape.cx)}" cy="{_f(shape.cy)}" r="{_f(shape.r)}" fill="{shape.fill}" '
                f'stroke="{shape.stroke}" stroke-width="{shape.width:g}"{_cls(shape.classes)}{_attrs(shape.attrs)}/>')
    if isinstance(shape, Text):
        weight = ' font-weight="bold"' if shape.bold else ""
        return (f'<text x="{_f(shape.x)}" y="{_f(shape.y)}" font-size="{shape.size:.1f}" fill="{shape.fill}"{weight} '
                f'text-anchor="middle" dominant-baseline="central"{_cls(shape.classes)}{_attrs(shape.attrs)}>'
                f"{escape(shape.text)}</text>")
    if isinstance(shape, Arrow):
        dash = f' stroke-dasharray="{shape.dash}"' if shape.dash else ""
        return (f'<line x1="{_f(shape.x1)}" y1="{_f(shape.y1)}" x2="{_f(shape.x2)}" y2="{_f(shape.y2)}" '
                f'stroke="{shape.stroke}" stroke-width="{shape.width:.1f}" stroke-opacity="{shape.opacity:g}" '
                f'stroke-linecap="round" marker-end="url(#tf-arrow)"{dash}{_cls(shape.classes)}/>')
    raise TypeError(f"not a scene shape: {shape!r}")


def scene_svg(scene: Scene) -> str:
    """A whole scene as one ``<svg>`` element."""
    body = "\n".join(shape_svg(s) for s in scene.shapes)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{scene.width:.0f}" height="{scene.height:.0f}" '
        f'viewBox="0 0 {scene.width:.1f} {scene.height:.1f}" class="{scene.classes}" '
        f'font-family="DejaVu Sans, Arial, sans-serif">'
        f"<title>{escape(scene.title)}</title>{_ARROW_DEF}\n{body}\n</svg>"
    )


def board_svg(
    state: GameState,
    *,
    layout: Layout | None = None,
    highlights: Iterable[int | str] | Mapping[int | str, str] | None = None,
    overlays: Iterable[str] = OVERLAYS,
    heat: Sequence[float] | None = None,
    heat_cmap: str = "viridis",
    coordinates: bool = True,
) -> str:
    """The board as SVG text: terrain, pieces, markers, zones, aura, last action, highlights, heat."""
    scene = board_scene(state, layout=layout, highlights=highlights, overlays=overlays, heat=heat,
                        heat_cmap=heat_cmap, coordinates=coordinates)
    return scene_svg(scene)


def before_after_svg(
    before: GameState | Sequence[GameState], after: GameState | None = None, *, layout: Layout | None = None,
    titles: tuple[str, str] = ("before", "after"),
) -> str:
    """Two boards side by side, the changed hexes highlighted on both (a scenario's ``play``).

    Give two states, or one sequence of states (the first and last are drawn), as a scenario's
    ``play_states()`` returns them.
    """
    if after is None:
        states = list(before)  # type: ignore[arg-type]
        if len(states) < 2:
            raise ValueError("before_after_svg needs two states (or a sequence of at least two)")
        before, after = states[0], states[-1]
    assert not isinstance(before, Sequence)
    lay = layout or Layout(size=22)
    changed = changed_hexes(before, after)
    pad = 34.0
    left = scene_svg(board_scene(before, layout=lay, highlights=changed, overlays=("zones", "markers", "aura")))
    right = scene_svg(board_scene(after, layout=lay, highlights=changed))
    w, h = lay.width, lay.height
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{2 * w + 10:.0f}" height="{h + pad:.0f}" '
        f'viewBox="0 0 {2 * w + 10:.1f} {h + pad:.1f}" class="terrafeud-before-after" '
        f'font-family="DejaVu Sans, Arial, sans-serif">'
        f'<text x="{w / 2:.1f}" y="20" text-anchor="middle" font-size="16" class="caption">{escape(titles[0])}</text>'
        f'<text x="{w + 10 + w / 2:.1f}" y="20" text-anchor="middle" font-size="16" class="caption">'
        f"{escape(titles[1])}</text>"
        f'<g transform="translate(0 {pad})">{left}</g><g transform="translate({w + 10:.1f} {pad})">{right}</g></svg>'
    )


__all__ = ["before_after_svg", "board_svg", "scene_svg", "shape_svg"]
