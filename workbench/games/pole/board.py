"""The 10 x 10 square board of Pole as integers (contract section 1).

A cell is an int ``x * 10 + y`` with x the file index (a=0..j=9) and y = rank - 1 (0..9), so
ascending ints are the contract's board order a1, a2, ..., a10, b1, ..., j10. Names, neighbours and
rays are tables built once at import; the engine's hot path only indexes them.
"""

from __future__ import annotations

SIZE = 10
CELLS = tuple(range(SIZE * SIZE))
FILES = "abcdefghij"
NAMES: tuple[str, ...] = tuple(f"{FILES[c // SIZE]}{c % SIZE + 1}" for c in CELLS)
BY_NAME: dict[str, int] = {n: c for c, n in enumerate(NAMES)}

ORTHOGONAL: tuple[tuple[int, int], ...] = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAGONAL: tuple[tuple[int, int], ...] = ((1, 1), (1, -1), (-1, 1), (-1, -1))
DIRECTIONS = ORTHOGONAL + DIAGONAL


def xy(cell: int) -> tuple[int, int]:
    """(file index, rank - 1) of ``cell``."""
    return cell // SIZE, cell % SIZE


def at(x: int, y: int) -> int | None:
    """The cell at (x, y), or None off the board."""
    if 0 <= x < SIZE and 0 <= y < SIZE:
        return x * SIZE + y
    return None


def parse_cell(text: object) -> int | None:
    """The cell named ``text`` (lower case, ``a1``..``j10``), or None."""
    return BY_NAME.get(text) if isinstance(text, str) else None


def ray(cell: int, direction: tuple[int, int], lo: int, hi: int) -> list[int]:
    """Cells ``cell + k * direction`` for lo <= k <= hi that are on the board (stops at the edge)."""
    x, y = xy(cell)
    out = []
    for k in range(1, hi + 1):
        c = at(x + k * direction[0], y + k * direction[1])
        if c is None:
            break
        if k >= lo:
            out.append(c)
    return out


def mirror(cell: int) -> int:
    """Rank r -> 11 - r, same file (Black's setup)."""
    x, y = xy(cell)
    return x * SIZE + (SIZE - 1 - y)


ADJ8: tuple[tuple[int, ...], ...] = tuple(tuple(sorted(c2 for d in DIRECTIONS for c2 in ray(c, d, 1, 1))) for c in CELLS)
ADJ4: tuple[tuple[int, ...], ...] = tuple(tuple(sorted(c2 for d in ORTHOGONAL for c2 in ray(c, d, 1, 1))) for c in CELLS)


def block_text(cells: list[int] | tuple[int, ...] | set[int] | frozenset[int]) -> str:
    """Cells as ``a1, b2`` in board order (messages)."""
    return ", ".join(NAMES[c] for c in sorted(cells))
