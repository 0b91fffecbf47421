"""Seat colours: one palette for the board, the pictures and the report.

A seat named after a colour (Pole's Red and Black, TerraFeud's White and Black) is drawn in that colour;
other seats take the palette's colours in order, skipping those already used, so up to 25 seats stay
distinct. ``ink`` is the readable letter colour on a piece of that colour (WCAG luminance).
"""

from __future__ import annotations

from collections.abc import Sequence

# 25 distinct fills, each visible on white and on a dark page (the first two: the classic light and dark sides)
SEAT_COLOURS = ("#f4f1e8", "#2b2b2b", "#c0392b", "#2471a3", "#229954", "#d68910", "#7d3c98", "#17a589",
                "#a04000", "#5d6d7e", "#f1c40f", "#e74c3c", "#1abc9c", "#8e44ad", "#34495e", "#d35400",
                "#27ae60", "#2980b9", "#c39bd3", "#7fb3d5", "#82e0aa", "#f8c471", "#e59866", "#aab7b8",
                "#641e16")
NAMED = {"white": "#f4f1e8", "black": "#2b2b2b", "red": "#c0392b", "blue": "#2471a3", "green": "#229954",
         "orange": "#d68910", "purple": "#7d3c98", "yellow": "#f1c40f", "brown": "#a04000", "grey": "#5d6d7e",
         "gray": "#5d6d7e"}
NO_SEAT = "#bbbbbb"


def seat_colours(labels: Sequence[str] | int) -> list[str]:
    """One colour per seat: a colour word in the seat's label names its colour, the others follow the palette."""
    names = [f"seat {i + 1}" for i in range(labels)] if isinstance(labels, int) else [str(x) for x in labels]
    named = [next((NAMED[w] for w in name.lower().split() if w in NAMED), None) for name in names]
    spare = [c for c in SEAT_COLOURS if c not in named]
    out: list[str] = []
    for colour in named:
        if colour is None:
            colour = spare.pop(0) if spare else f"hsl({(len(out) * 137) % 360}, 60%, 45%)"
        out.append(colour)
    return out


def seat_colour(index: int | None, labels: Sequence[str] | int = 2) -> str:
    """The colour of seat ``index`` among ``labels`` (a count, or the seats' names); grey for no seat."""
    if index is None or index < 0:
        return NO_SEAT
    colours = seat_colours(labels if not isinstance(labels, int) else max(labels, index + 1))
    return colours[index] if index < len(colours) else SEAT_COLOURS[index % len(SEAT_COLOURS)]


def luminance(colour: str) -> float:
    """WCAG relative luminance of ``#rrggbb`` (0 black .. 1 white)."""
    if not (colour.startswith("#") and len(colour) == 7):
        return 0.2
    out = []
    for i in (1, 3, 5):
        c = int(colour[i:i + 2], 16) / 255
        out.append(c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4)
    return 0.2126 * out[0] + 0.7152 * out[1] + 0.0722 * out[2]


def ink(colour: str) -> str:
    """Dark letters on a light piece, white on a dark one (whichever contrasts more)."""
    lum = luminance(colour)
    return "#111111" if (lum + 0.05) / 0.0555 > 1.05 / (lum + 0.05) else "#ffffff"


__all__ = ["NAMED", "NO_SEAT", "SEAT_COLOURS", "ink", "luminance", "seat_colour", "seat_colours"]
