"""The 9x9 board in offset rows (even rows shifted right), as integer tables built once (contract section 1).

A hex is an int ``h = (row - 1) * 9 + column`` (``a1`` = 0, ``i1`` = 8, ``a2`` = 9, ``i9`` = 80). The cube
maths of the contract only builds the tables; the engine indexes ``NEIGHBOURS``, ``RAYS`` and ``DISTANCE``.
Screen geometry (``centre``) is kept apart from the rules geometry.
"""

from __future__ import annotations

import math

COLUMNS = "abcdefghi"
SIZE = 9
NUM_HEXES = SIZE * SIZE

# The six directions as axial (dx, dz) steps, in the contract's order: E, W, NE, NW, SE, SW.
DIRECTION_NAMES = ("E", "W", "NE", "NW", "SE", "SW")
DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (-1, 1), (1, -1), (0, -1))


def hex_of(q: int, r: int) -> int:
    """Hex id of column index ``q`` (0..8) and row ``r`` (1..9)."""
    return (r - 1) * SIZE + q


def column(h: int) -> int:
    """Column index 0..8 (a..i)."""
    return h % SIZE


def row(h: int) -> int:
    """Row number 1..9."""
    return h // SIZE + 1


def hex_name(h: int) -> str:
    """``e5`` for the hex in column e, row 5."""
    return COLUMNS[h % SIZE] + str(h // SIZE + 1)


HEX_NAMES: tuple[str, ...] = tuple(hex_name(h) for h in range(NUM_HEXES))
_BY_NAME = {n: h for h, n in enumerate(HEX_NAMES)}


def parse_hex(text: str) -> int:
    """The hex a name like ``E5`` or ``e5`` denotes; ``ValueError`` naming the text otherwise."""
    if not isinstance(text, str):
        raise ValueError(f"{text!r} is not a hex name (a1..i9)")
    h = _BY_NAME.get(text.strip().lower())
    if h is None:
        shown = text if len(text) <= 12 else text[:9] + "..."
        raise ValueError(f"{shown!r} is not a hex of the board (columns a-i, rows 1-9)")
    return h


def to_axial(h: int) -> tuple[int, int]:
    """Axial ``(x, z)`` of a hex: ``x = q - (y - (y & 1)) / 2``, ``z = y = row - 1`` (contract section 1)."""
    q, y = h % SIZE, h // SIZE
    return q - (y - (y & 1)) // 2, y


def from_axial(x: int, z: int) -> int | None:
    """The hex at axial ``(x, z)``, or None off the board."""
    if not 0 <= z < SIZE:
        return None
    q = x + (z - (z & 1)) // 2
    if not 0 <= q < SIZE:
        return None
    return z * SIZE + q


def _distance(a: int, b: int) -> int:
    ax, az = to_axial(a)
    bx, bz = to_axial(b)
    dx, dz = bx - ax, bz - az
    return max(abs(dx), abs(dz), abs(dx + dz))


def _ray(h: int, d: int) -> tuple[int, ...]:
    x, z = to_axial(h)
    dx, dz = DIRECTIONS[d]
    out = []
    while True:
        x, z = x + dx, z + dz
        nxt = from_axial(x, z)
        if nxt is None:
            return tuple(out)
        out.append(nxt)


# RAYS[h][d]: the straight line from h in direction d, nearest first, up to the board edge.
RAYS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(tuple(_ray(h, d) for d in range(6)) for h in range(NUM_HEXES))
# NEIGHBOURS[h]: the hexes sharing an edge with h, in ascending id order (row, then column).
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted(RAYS[h][d][0] for d in range(6) if RAYS[h][d])) for h in range(NUM_HEXES)
)
DISTANCE: tuple[tuple[int, ...], ...] = tuple(
    tuple(_distance(a, b) for b in range(NUM_HEXES)) for a in range(NUM_HEXES)
)
# WITHIN[r][h]: the hexes at distance <= r of h (r up to 16, beyond any reach the parameters allow)
WITHIN: tuple[tuple[frozenset[int], ...], ...] = tuple(
    tuple(frozenset(b for b in range(NUM_HEXES) if DISTANCE[a][b] <= r) for a in range(NUM_HEXES)) for r in range(17)
)
ROWS: tuple[tuple[int, ...], ...] = tuple(tuple(hex_of(q, r) for q in range(SIZE)) for r in range(1, SIZE + 1))


def mirror(h: int) -> int:
    """The hex of the other camp's view: row ``r -> 10 - r`` (keeps row parity, so neighbours map to neighbours)."""
    return hex_of(column(h), 10 - row(h))


def centre(h: int, size: float = 1.0) -> tuple[float, float]:
    """Screen centre of a pointy-top hex: row 9 at the top (y grows downward), even rows shifted right."""
    q, r = column(h), row(h)
    w = math.sqrt(3) * size
    x = w * q + (w / 2 if r % 2 == 0 else 0.0) + w / 2
    y = 1.5 * size * (SIZE - r) + size
    return x, y
