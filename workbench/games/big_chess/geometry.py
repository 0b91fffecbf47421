"""Square-grid geometry of big chess (contract section 1): directions, Q, ring rotation, over-cells.

Pure integer maths, used once to build tables (card expansions, over-cells of a leap); the hot path
only indexes what these functions produced.
"""

from __future__ import annotations

from functools import cache

# index f -> (dx, dy); N is toward row 0.
DIRS: tuple[tuple[int, int], ...] = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))
FACING_NAMES: tuple[str, ...] = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
FACING_INDEX: dict[str, int] = {name: i for i, name in enumerate(FACING_NAMES)}
DIR_INDEX: dict[tuple[int, int], int] = {d: i for i, d in enumerate(DIRS)}


def sgn(v: int) -> int:
    """Sign of an int (-1, 0, 1)."""
    return (v > 0) - (v < 0)


def dist(ax: int, ay: int, bx: int, by: int) -> int:
    """Chebyshev distance: adjacency is distance 1 (B1)."""
    return max(abs(ax - bx), abs(ay - by))


def quantize(dx: int, dy: int) -> int:
    """Facing index of the nearest of the 8 directions by angle (B2); ties are impossible."""
    a, b = abs(dx), abs(dy)
    s = (a + b) * (a + b)
    if s < 2 * a * a:
        d = (sgn(dx), 0)
    elif s < 2 * b * b:
        d = (0, sgn(dy))
    else:
        d = (sgn(dx), sgn(dy))
    return DIR_INDEX[d]


def _ring_pos(vx: int, vy: int) -> tuple[int, int]:
    r = max(abs(vx), abs(vy))
    if vy == -r and vx >= 0:
        return vx, r
    if vx == r:
        return r + (vy + r), r
    if vy == r:
        return 3 * r + (r - vx), r
    if vx == -r:
        return 5 * r + (r - vy), r
    return 7 * r + (vx + r), r  # top edge, left half


def _ring_cell(p: int, r: int) -> tuple[int, int]:
    p %= 8 * r
    if p <= r:
        return p, -r
    if p <= 3 * r:
        return r, -r + (p - r)
    if p <= 5 * r:
        return r - (p - 3 * r), r
    if p <= 7 * r:
        return -r, r - (p - 5 * r)
    return -r + (p - 7 * r), -r


@cache
def rot(vx: int, vy: int, f: int) -> tuple[int, int]:
    """Turn a pattern vector written for facing N to facing ``f`` by ring rotation (B3)."""
    if vx == 0 and vy == 0:
        return 0, 0
    p, r = _ring_pos(vx, vy)
    return _ring_cell(p + f * r, r)


def rot90(vx: int, vy: int) -> tuple[int, int]:
    """Exact quarter turn clockwise on screen (y down): N -> E."""
    return -vy, vx


def expand_sym(vectors: list[tuple[int, int]], sym: str) -> tuple[tuple[int, int], ...]:
    """A written vector list expanded by ``sym`` (none, lr, rot4, all); duplicates dropped, order kept."""
    out: list[tuple[int, int]] = []
    seen: set[tuple[int, int]] = set()  # a set, not a list search: a card of 16,000 vectors expands in linear time
    for v in vectors:
        group = [v]
        if sym == "lr":
            group.append((-v[0], v[1]))
        elif sym in ("rot4", "all"):
            bases = [v] if sym == "rot4" else [v, (-v[0], v[1])]
            group = []
            for b in bases:
                w = b
                for _ in range(4):
                    group.append(w)
                    w = rot90(*w)
        for w in group:
            if w not in seen:
                seen.add(w)
                out.append(w)
    return tuple(out)


@cache
def over_cells(dx: int, dy: int) -> tuple[tuple[int, int], ...]:
    """Relative cells whose interior the centre-to-centre segment of a leap crosses (B4)."""
    out = []
    for j in range(min(0, dy), max(0, dy) + 1):
        for i in range(min(0, dx), max(0, dx) + 1):
            if (i, j) in ((0, 0), (dx, dy)):
                continue
            pos = neg = False
            for cx in (2 * i - 1, 2 * i + 1):
                for cy in (2 * j - 1, 2 * j + 1):
                    g = dy * cx - dx * cy
                    pos = pos or g > 0
                    neg = neg or g < 0
            if pos and neg:
                out.append((i, j))
    return tuple(out)
