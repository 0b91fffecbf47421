"""Piece codes: an int per piece, ``kind | side << 3``, so a board is a flat list of ints.

Kinds take the rulebook's letters: F feudal, K heavy knight, P pikeman, C light cavalry,
A archer, I infantryman. Upper case is White, lower case Black, everywhere (files, notation).
"""

from __future__ import annotations

EMPTY = 0
FEUDAL, KNIGHT, PIKEMAN, CAVALRY, ARCHER, INFANTRY = 1, 2, 3, 4, 5, 6
KINDS = (FEUDAL, KNIGHT, PIKEMAN, CAVALRY, ARCHER, INFANTRY)
LETTERS = {FEUDAL: "F", KNIGHT: "K", PIKEMAN: "P", CAVALRY: "C", ARCHER: "A", INFANTRY: "I"}
KIND_BY_LETTER = {v: k for k, v in LETTERS.items()}
KIND_NAMES = {
    FEUDAL: "feudal",
    KNIGHT: "knight",
    PIKEMAN: "pikeman",
    CAVALRY: "cavalry",
    ARCHER: "archer",
    INFANTRY: "infantryman",
}
WHITE, BLACK = 0, 1
SIDE_NAMES = ("white", "black")


def code(kind: int, side: int) -> int:
    """Piece code of a kind and side."""
    return kind | (side << 3)


def kind_of(c: int) -> int:
    """Kind of a piece code (0 for empty)."""
    return c & 7


def side_of(c: int) -> int:
    """Side of a (non-empty) piece code."""
    return c >> 3


def letter(c: int) -> str:
    """Letter of a piece code: upper case White, lower case Black."""
    ch = LETTERS[c & 7]
    return ch if c >> 3 == WHITE else ch.lower()


def parse_letter(ch: str) -> int:
    """Piece code of a letter (``K`` White knight, ``k`` Black knight)."""
    kind = KIND_BY_LETTER.get(ch.upper()) if isinstance(ch, str) and len(ch) == 1 else None
    if kind is None:
        raise ValueError(f"unknown piece letter {ch!r} (use F K P C A I, upper case White, lower case Black)")
    return code(kind, WHITE if ch.isupper() else BLACK)


def side_index(name: str) -> int:
    """0 for ``white``, 1 for ``black``."""
    low = str(name).strip().lower()
    if low not in SIDE_NAMES:
        raise ValueError(f"unknown side {name!r} (white or black)")
    return SIDE_NAMES.index(low)
