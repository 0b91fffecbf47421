"""Hex-to-pixel layout: flat-topped hexes, files as columns, White at the bottom (board.png).

Every picture (SVG, matplotlib, the widget's JavaScript via JSON) takes its geometry from here;
drawing code never re-derives it. Pixel y grows downwards, as in SVG.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from workbench.games.terrafeud.engine.geometry import ADJACENT, HEXES, N_HEXES, qy

SQRT3 = math.sqrt(3.0)


@dataclass(frozen=True)
class Layout:
    """Hex size (centre to corner) and margin, in pixels."""

    size: float = 30.0
    margin: float = 24.0

    def hex_to_pixel(self, h: int) -> tuple[float, float]:
        """Centre of hex ``h``."""
        q, y = qy(h)
        px = self.margin + self.size + q * 1.5 * self.size
        py = self.margin + SQRT3 / 2 * self.size + (20 - y) * SQRT3 / 2 * self.size
        return (px, py)

    def polygon_corners(self, h: int) -> list[tuple[float, float]]:
        """The six corners of hex ``h``, flat-topped, starting east and going clockwise on screen."""
        cx, cy = self.hex_to_pixel(h)
        return [
            (cx + self.size * math.cos(math.radians(60 * i)), cy + self.size * math.sin(math.radians(60 * i)))
            for i in range(6)
        ]

    @property
    def width(self) -> float:
        """Picture width."""
        return 2 * self.margin + 2 * self.size + 10 * 1.5 * self.size

    @property
    def height(self) -> float:
        """Picture height."""
        return 2 * self.margin + SQRT3 * self.size + 20 * SQRT3 / 2 * self.size

    def pixel_to_hex(self, x: float, y: float) -> int | None:
        """Hex under a pixel, or None (nearest centre within the hex's inner radius)."""
        best, best_d = None, (SQRT3 / 2 * self.size) ** 2
        for h in HEXES:
            cx, cy = self.hex_to_pixel(h)
            d = (cx - x) ** 2 + (cy - y) ** 2
            if d <= best_d:
                best, best_d = h, d
        return best

    def edge_neighbours(self) -> list[tuple[int | None, ...]]:
        """``[h][i]``: the hex across edge i (corners i..i+1) of hex ``h``, or None at the board's edge."""
        return _edge_neighbours(self)

    def boundary(self, hexes: set[int] | frozenset[int]) -> list[tuple[float, float, float, float]]:
        """Edges (x1, y1, x2, y2) around a set of hexes: the outline of a zone or an aura ring."""
        inside = set(hexes)
        across = self.edge_neighbours()
        out = []
        for h in sorted(inside):
            corners = self.polygon_corners(h)
            for i, n in enumerate(across[h]):
                if n is None or n not in inside:
                    (x1, y1), (x2, y2) = corners[i], corners[(i + 1) % 6]
                    out.append((x1, y1, x2, y2))
        return out

    def to_json(self) -> dict:
        """Centres and corners of all 91 hexes, for the widget's JavaScript."""
        return {
            "width": self.width,
            "height": self.height,
            "centres": [self.hex_to_pixel(h) for h in range(N_HEXES)],
            "corners": [self.polygon_corners(h) for h in range(N_HEXES)],
        }


@lru_cache(maxsize=8)
def _edge_neighbours(layout: Layout) -> list[tuple[int | None, ...]]:
    """Match each edge's outward direction to the neighbour whose centre lies that way."""
    out = []
    for h in HEXES:
        cx, cy = layout.hex_to_pixel(h)
        row: list[int | None] = []
        for i in range(6):
            ang = math.radians(60 * i + 30)
            tx, ty = cx + SQRT3 * layout.size * math.cos(ang), cy + SQRT3 * layout.size * math.sin(ang)
            found = None
            for n in ADJACENT[h]:
                nx, ny = layout.hex_to_pixel(n)
                if (nx - tx) ** 2 + (ny - ty) ** 2 < (0.1 * layout.size) ** 2:
                    found = n
            row.append(found)
        out.append(tuple(row))
    return out
