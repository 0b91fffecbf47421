"""Hex geometry of the 91-hex TerraFeud board, as integer tables built once.

A hex is an ``int`` 0..90 in board order (a1, a2, ..., a6, b1, ..., l6), the order the
rulebook's ruling 6 uses for "the first one found". Cube maths builds the tables at import;
the hot path only indexes lists. Drawing (pixels) lives in ``workbench.games.terrafeud.viz.layout``, not here.
"""

from __future__ import annotations

FILES = "abcdefghikl"  # no "j", as in the rulebook
N_HEXES = 91
# The six straight directions in doubled-row coordinates (dq, dy), in a fixed order such that
# DIRECTIONS[d] and DIRECTIONS[(d + 3) % 6] are opposite and d +/- 1 are the 60-degree turns.
DIRECTIONS: tuple[tuple[int, int], ...] = ((0, 2), (1, 1), (1, -1), (0, -2), (-1, -1), (-1, 1))


def file_length(q: int) -> int:
    """Number of hexes in file ``q`` (a=0 .. l=10)."""
    return 11 - abs(q - 5)


_QY: list[tuple[int, int]] = []
HEX_NAMES: list[str] = []
for _q in range(11):
    for _r in range(1, file_length(_q) + 1):
        _QY.append((_q, 2 * (_r - 1) + abs(_q - 5)))
        HEX_NAMES.append(f"{FILES[_q]}{_r}")
_INDEX_BY_QY = {qy: i for i, qy in enumerate(_QY)}
HEX_BY_NAME: dict[str, int] = {n: i for i, n in enumerate(HEX_NAMES)}
HEXES = range(N_HEXES)


def qy(h: int) -> tuple[int, int]:
    """File index and doubled row of hex ``h``."""
    return _QY[h]


def hex_at(q: int, y: int) -> int | None:
    """Hex at file ``q``, doubled row ``y``, or None when off the board."""
    return _INDEX_BY_QY.get((q, y))


def cube(h: int) -> tuple[int, int, int]:
    """Cube coordinates (x, y, z) with x + y + z = 0, the centre f6 at the origin."""
    q, y = _QY[h]
    x = q - 5
    z = (y - 10 - x) // 2
    return (x, -x - z, z)


def parse_hex(name: str) -> int:
    """Hex index of a name like ``f6``; a clear ``ValueError`` for anything else."""
    h = HEX_BY_NAME.get(str(name).strip().lower())
    if h is None:
        raise ValueError(f"unknown hex {name!r} (files a-l without j, e.g. a1..a6, f1..f11, l1..l6)")
    return h


def hex_name(h: int) -> str:
    """Name of hex ``h``."""
    return HEX_NAMES[h]


def _step(h: int, d: int) -> int | None:
    q, y = _QY[h]
    dq, dy = DIRECTIONS[d]
    return hex_at(q + dq, y + dy)


# NEIGHBOURS[h][d]: the neighbour in direction d or None; ADJACENT[h]: the on-board neighbours.
NEIGHBOURS: list[tuple[int | None, ...]] = [tuple(_step(h, d) for d in range(6)) for h in HEXES]
ADJACENT: list[tuple[int, ...]] = [tuple(n for n in NEIGHBOURS[h] if n is not None) for h in HEXES]


def _ray(h: int, d: int) -> tuple[int, ...]:
    out = []
    cur = _step(h, d)
    while cur is not None:
        out.append(cur)
        cur = _step(cur, d)
    return tuple(out)


# RAYS[h][d]: hexes along direction d from h, nearest first (start excluded).
RAYS: list[tuple[tuple[int, ...], ...]] = [tuple(_ray(h, d) for d in range(6)) for h in HEXES]


def _distance(a: int, b: int) -> int:
    ax, ay, az = cube(a)
    bx, by, bz = cube(b)
    return max(abs(ax - bx), abs(ay - by), abs(az - bz))


DISTANCE: list[list[int]] = [[_distance(a, b) for b in HEXES] for a in HEXES]
MAX_DISTANCE = 10  # the board's diameter: rule parameters that are distances never exceed it
# WITHIN[h][k]: hexes at distance 1..k from h (k <= 10), in board order, for auras, ranges and filters.
WITHIN: list[list[tuple[int, ...]]] = [
    [tuple(b for b in HEXES if 0 < DISTANCE[a][b] <= k) for k in range(MAX_DISTANCE + 1)] for a in HEXES
]
# RING[k][h]: hexes at distance exactly k from h, in board order (archer shots, W8).
RING: list[list[tuple[int, ...]]] = [
    [tuple(b for b in HEXES if DISTANCE[a][b] == k) for a in HEXES] for k in range(MAX_DISTANCE + 1)
]


def _between(a: int, b: int) -> tuple[int, ...]:
    """Hexes whose centre lies strictly between a and b on the straight segment (W8)."""
    for d in range(6):
        ray = RAYS[a][d]
        if b in ray:
            return ray[: ray.index(b)]
    # Off-axis segments pass no hex centre: cube coords of interior points are never integers
    # unless the segment is a multiple of one direction, checked exactly here.
    ax, ay, az = cube(a)
    bx, by, bz = cube(b)
    n = DISTANCE[a][b]
    out = []
    for t in range(1, n):
        px, py, pz = ax * n + (bx - ax) * t, ay * n + (by - ay) * t, az * n + (bz - az) * t
        if px % n == 0 and py % n == 0 and pz % n == 0:
            x, z = px // n, pz // n
            h = hex_at(x + 5, 2 * z + 10 + x)
            if h is not None:
                out.append(h)
    return tuple(out)


# BETWEEN[a][b] for archer shots at any distance (archer_range and hill_bonus are parameters).
BETWEEN: dict[tuple[int, int], tuple[int, ...]] = {
    (a, b): _between(a, b) for a in HEXES for b in WITHIN[a][MAX_DISTANCE]
}


def _pike_zone(h: int) -> tuple[int, ...]:
    """The pikeman's 12-hex "flower": 6 adjacent plus one further hex on each straight axis."""
    out = list(ADJACENT[h])
    for d in range(6):
        ray = RAYS[h][d]
        if len(ray) >= 2:
            out.append(ray[1])
    return tuple(out)


PIKE_ZONE: list[tuple[int, ...]] = [_pike_zone(h) for h in HEXES]


def _cavalry_paths(h: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """The cavalry's 18 landings as (landing, intermediate hexes), W4.

    L: two steps along an axis then one step turned 60 degrees (intermediates: the first two);
    straight charge: two steps along an axis (intermediate: the first).
    """
    out = []
    for d in range(6):
        ray = RAYS[h][d]
        if len(ray) < 2:
            continue
        first, second = ray[0], ray[1]
        out.append((second, (first,)))
        for turn in (1, -1):
            land = NEIGHBOURS[second][(d + turn) % 6]
            if land is not None:
                out.append((land, (first, second)))
    return tuple(out)


CAVALRY_PATHS: list[tuple[tuple[int, tuple[int, ...]], ...]] = [_cavalry_paths(h) for h in HEXES]
# CAVALRY_REACH[t]: hexes from which some gallop lands on or passes over t (a threat-test filter).
CAVALRY_REACH: list[frozenset[int]] = [
    frozenset(h for h in HEXES for land, inter in CAVALRY_PATHS[h] if t == land or t in inter) for t in HEXES
]
# DIRECTION_TO[a][b]: the direction d with b on RAYS[a][d] (b on one of a's six lines), if any.
DIRECTION_TO: list[dict[int, int]] = [{b: d for d in range(6) for b in RAYS[a][d]} for a in HEXES]


def mirror(h: int) -> int:
    """Same-file mirror (rank r -> n+1-r), used for Black's setup and fixed terrain."""
    q, y = _QY[h]
    return _INDEX_BY_QY[(q, 20 - y)]
