"""Boards (contract sections 2, 3 and 14): cell codes, start zones, portal pairs, team strings.

A board is a list of rows, one character per cell (``0``/``.`` plain, ``a``..``y`` start cells,
``1``..``9`` terrain). Named boards live in ``data/boards/*.json``. Everything here is validated with
messages that name the row, the cell or the letter, because scenario files write boards by hand.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .geometry import FACING_INDEX, FACING_NAMES

BOARD_DIR = Path(__file__).parent / "data" / "boards"
MIN_SIZE, MAX_SIZE = 3, 64
LETTERS = "abcdefghijklmnopqrstuvwxy"
PLAIN, ROCK, EMBERS, SAND, FOREST, SWAMP, MINE, FORT, ALTAR, PORTAL = "0123456789"
TERRAIN_NAMES = {PLAIN: "plain", ROCK: "rock", EMBERS: "embers", SAND: "sand", FOREST: "forest", SWAMP: "swamp",
                 MINE: "mine", FORT: "fort", ALTAR: "altar", PORTAL: "portal"}
STANDABLE_NOT = frozenset((ROCK, EMBERS))
PATH_OK = frozenset((PLAIN, EMBERS, MINE, FORT, ALTAR, PORTAL))  # slide intermediates (B6, B7)
NO_SHADOW = frozenset((MINE, SWAMP, ALTAR, PORTAL))
_CELL = re.compile(r"(0|[1-9][0-9]{0,2}),(0|[1-9][0-9]{0,2})\Z")


class BoardError(ValueError):
    """A board or team string that cannot be used; the message names the row, cell or letter."""


@dataclass(frozen=True)
class Board:
    """A validated board: ``terrain[i]`` is the code (start cells as ``0``), ``zone[i]`` the letter or ''."""

    name: str
    rows: tuple[str, ...]
    width: int
    height: int
    terrain: tuple[str, ...]
    zone: tuple[str, ...]
    zones: Mapping[str, tuple[int, ...]]
    portal_pair: Mapping[int, int]
    facing: Mapping[str, int]
    teams: str

    @property
    def size(self) -> int:
        """Number of cells."""
        return self.width * self.height

    def cell_name(self, i: int) -> str:
        """``x,y`` of cell index ``i``."""
        return f"{i % self.width},{i // self.width}"

    def parse_cell(self, text: str) -> int:
        """Cell index of ``x,y`` (no spaces, no leading zeros, B56); ``BoardError`` otherwise."""
        if not isinstance(text, str):
            hint = " (quote cells in flow lists and mappings: \"3,5\"; the comma is YAML syntax there)" if isinstance(text, int) else ""
            raise BoardError(f"a cell is written x,y, got {text!r:.30}{hint}")
        m = _CELL.match(text)
        if not m:
            raise BoardError(f"cell {text[:20]!r} is not written x,y (decimal, no spaces, no leading zeros)")
        x, y = int(m.group(1)), int(m.group(2))
        if x >= self.width or y >= self.height:
            raise BoardError(f"cell {text} is off the {self.width}x{self.height} board")
        return y * self.width + x

    def to_data(self) -> dict[str, object]:
        """The board as file data."""
        return {"name": self.name, "rows": list(self.rows),
                "facing": {k: FACING_NAMES[v] for k, v in sorted(self.facing.items())}, "teams": self.teams}


def make_board(rows: Sequence[str], facing: Mapping[str, str] | None = None, name: str = "custom",
               teams: str = "", default_facing: Mapping[str, int] | None = None) -> Board:
    """A board from rows; ``facing`` letters override the defaults (a N, every other letter S; B39)."""
    if not isinstance(rows, Sequence) or isinstance(rows, str) or not rows:
        raise BoardError("board must be a list of row strings")
    if not all(isinstance(r, str) for r in rows):
        raise BoardError("every board row must be a string")
    h = len(rows)
    w = len(rows[0])
    if not (MIN_SIZE <= w <= MAX_SIZE and MIN_SIZE <= h <= MAX_SIZE):
        raise BoardError(f"the board is {w}x{h}; width and height must be {MIN_SIZE}..{MAX_SIZE}")
    terrain: list[str] = []
    zone: list[str] = []
    zones: dict[str, list[int]] = {}
    portals: list[int] = []
    for y, row in enumerate(rows):
        if len(row) != w:
            raise BoardError(f"board row {y} has {len(row)} cells, row 0 has {w} (rows must have equal length)")
        for x, ch in enumerate(row):
            i = y * w + x
            if ch == ".":
                ch = PLAIN
            if ch in LETTERS:
                zones.setdefault(ch, []).append(i)
                terrain.append(PLAIN)
                zone.append(ch)
            elif ch in "0123456789":
                terrain.append(ch)
                zone.append("")
                if ch == PORTAL:
                    portals.append(i)
            else:
                raise BoardError(f"board row {y}, cell {x},{y}: unknown character {ch!r} (0-9, '.', a-y)")
    if len(portals) % 2:
        raise BoardError(f"the board has {len(portals)} portals; portals pair in board order, so their number must be even (B8)")
    pair = {}
    for k in range(0, len(portals), 2):
        pair[portals[k]] = portals[k + 1]
        pair[portals[k + 1]] = portals[k]
    face = {}
    for letter in zones:
        face[letter] = (default_facing or {}).get(letter, FACING_INDEX["N"] if letter == "a" else FACING_INDEX["S"])
    for letter, f in (facing or {}).items():
        if not isinstance(letter, str) or letter not in LETTERS:
            raise BoardError(f"facing: {letter!r:.20} is not a player letter a..y")
        if not isinstance(f, str) or f.upper() not in FACING_INDEX:
            raise BoardError(f"facing of {letter}: {f!r:.20} is not one of {' '.join(FACING_NAMES)}")
        face[letter] = FACING_INDEX[f.upper()]
    return Board(name=name, rows=tuple(rows), width=w, height=h, terrain=tuple(terrain), zone=tuple(zone),
                 zones={k: tuple(v) for k, v in sorted(zones.items())}, portal_pair=pair, facing=face, teams=teams)


def board_names() -> list[str]:
    """Names of the boards shipped in ``data/boards``."""
    return sorted(p.stem for p in BOARD_DIR.glob("*.json"))


@lru_cache(maxsize=16)
def named_board(name: str) -> Board:
    """A board from ``data/boards/NAME.json``."""
    if name not in board_names():
        raise BoardError(f"unknown board {name[:40]!r}; known: {', '.join(board_names())}")
    data = json.loads((BOARD_DIR / f"{name}.json").read_text(encoding="utf-8"))
    return make_board(data["rows"], data.get("facing"), name=name, teams=data.get("teams", ""))


def parse_teams(text: object, board: Board | None) -> tuple[tuple[str, ...], ...]:
    """Teams of a team string (section 3, B9): ``ab,cd`` -> (("a","b"),("c","d")); ``BoardError`` why not."""
    if not isinstance(text, str):
        raise BoardError(f"teams must be a string such as \"ab,cd\", got {text!r:.30}")
    if len(text) > 80:
        raise BoardError("teams: the string is too long")
    if not text:
        raise BoardError("teams: empty team string")
    parts = text.split(",")
    seen: set[str] = set()
    out = []
    for part in parts:
        if not part:
            raise BoardError(f"teams {text!r}: an empty team (B9)")
        for ch in part:
            if ch == "z":
                raise BoardError(f"teams {text!r}: the letter z is not used")
            if ch not in LETTERS:
                raise BoardError(f"teams {text!r}: {ch!r} is not a player letter a..y (lower case, no spaces)")
            if ch in seen:
                raise BoardError(f"teams {text!r}: player {ch} is written twice")
            if board is not None and ch not in board.zones:
                raise BoardError(f"teams {text!r}: player {ch} has no start zone on the board (letters present: "
                                 f"{''.join(board.zones) or 'none'})")
            seen.add(ch)
        out.append(tuple(part))
    if len(out) < 2:
        raise BoardError(f"teams {text!r}: a game needs at least two teams (no opponent)")
    return tuple(out)
