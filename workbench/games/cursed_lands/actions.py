"""Actions as dense ints, their canonical sort keys, and the camp actions of the setup phase (sections 15, C45, C51).

Layout of the integers (so ``GameDef.action_to_int`` is the identity):

- ``0`` end; ``1..4`` produce S, A, C, R; ``5 + h`` place the top tile on hex ``h``;
- ``MOVE + from*81 + to``; ``ATTACK + from*81 + target``; ``MOVE_ATTACK + (from*81 + to)*81 + target``;
- ``CAMP + flags_code * U + u``: ``flags_code`` the columns of castle, C, S, A, R in base 9 and ``u`` the
  index of the starting units in ``unit_combos(n)`` (the side, and so the row, is the side to move).

Legal actions are listed in ascending code-point order of their canonical strings (C51). Hex names are
two characters, so that order follows from the ints: ``sort_key`` computes it without building strings.
The setup phase's list is a lazy sequence (483,840 camps with one starting unit, 54 million with three).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cache
from itertools import combinations, product

from .geometry import HEX_NAMES, NUM_HEXES, SIZE, column, row
from .rules import KINDS

END = 0
PRODUCE = 1
TILE = 5
MOVE = TILE + NUM_HEXES
ATTACK = MOVE + NUM_HEXES * NUM_HEXES
MOVE_ATTACK = ATTACK + NUM_HEXES * NUM_HEXES
CAMP = MOVE_ATTACK + NUM_HEXES ** 3
FLAG_CODES = SIZE ** 5
CAMP_KIND_ORDER = (2, 0, 1, 3)  # camp tokens C S A R as kind indices (S=0, A=1, C=2, R=3)

# code-point rank of a hex name: 'a1' < 'a2' < ... < 'a9' < 'b1'
NAME_RANK = tuple(column(h) * SIZE + row(h) - 1 for h in range(NUM_HEXES))
LETTER_RANK = tuple(sorted(KINDS).index(k) for k in KINDS)  # A < C < R < S
_HEX_GROUP = 2 * 10**8
END_KEY = _HEX_GROUP + NAME_RANK[4 + 8 * SIZE] * 10**6 + 5 * 10**5  # after every action from e9, before f1


def sort_key(a: int) -> int:
    """Position of a non-camp action in code-point order of canonical strings ('#' < '+' < 'a'..'i', '-' < 'x')."""
    if a == END:
        return END_KEY
    if a < TILE:
        return 10**8 + LETTER_RANK[a - PRODUCE]
    if a < MOVE:
        return NAME_RANK[a - TILE]
    if a < ATTACK:
        f, t = divmod(a - MOVE, NUM_HEXES)
        return _HEX_GROUP + NAME_RANK[f] * 10**6 + (NAME_RANK[t] + 1) * 100
    if a < MOVE_ATTACK:
        f, t = divmod(a - ATTACK, NUM_HEXES)
        return _HEX_GROUP + NAME_RANK[f] * 10**6 + 10**5 + NAME_RANK[t] + 1
    ft, g = divmod(a - MOVE_ATTACK, NUM_HEXES)
    f, t = divmod(ft, NUM_HEXES)
    return _HEX_GROUP + NAME_RANK[f] * 10**6 + (NAME_RANK[t] + 1) * 100 + NAME_RANK[g] + 1


class _KeyCache(dict):
    """``sort_key`` memoised: the hot path sorts with a dict lookup instead of a function call."""

    def __missing__(self, a: int) -> int:
        key = self[a] = sort_key(a)
        return key


SORT_KEY = _KeyCache()


def move_action(f: int, t: int) -> int:
    """Move only: ``from-to``."""
    return MOVE + f * NUM_HEXES + t


def attack_action(f: int, g: int) -> int:
    """Attack without moving: ``fromxtarget``."""
    return ATTACK + f * NUM_HEXES + g


def move_attack_action(f: int, t: int, g: int) -> int:
    """Move, then attack: ``from-toxtarget``."""
    return MOVE_ATTACK + (f * NUM_HEXES + t) * NUM_HEXES + g


def decode(a: int) -> tuple[str, int, int, int]:
    """``(kind, from, to, target)`` with -1 where a part is absent; kind is end/produce/tile/move/attack/camp."""
    if a == END:
        return "end", -1, -1, -1
    if a < TILE:
        return "produce", a - PRODUCE, -1, -1
    if a < MOVE:
        return "tile", -1, a - TILE, -1
    if a < ATTACK:
        f, t = divmod(a - MOVE, NUM_HEXES)
        return "move", f, t, -1
    if a < MOVE_ATTACK:
        f, g = divmod(a - ATTACK, NUM_HEXES)
        return "attack", f, f, g
    if a < CAMP:
        ft, g = divmod(a - MOVE_ATTACK, NUM_HEXES)
        f, t = divmod(ft, NUM_HEXES)
        return "move_attack", f, t, g
    return "camp", -1, -1, -1


# --------------------------------------------------------------------------- camp actions
@cache
def unit_combos(n: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Every set of ``n`` starting units as ``((column, kind), ...)`` by column, in canonical string order.

    A camp string lists its units in board order, each as ``unit=K@H``; code-point order compares the
    kind letter before the hex, so the sort key is ``(letter rank, column)`` per unit.
    """
    out = []
    for cols in combinations(range(SIZE), n):
        for kinds in product(range(4), repeat=n):
            out.append(tuple(zip(cols, kinds, strict=True)))
    out.sort(key=lambda combo: tuple((LETTER_RANK[k], c) for c, k in combo))
    return tuple(out)


@cache
def _combo_index(n: int) -> dict[tuple[tuple[int, int], ...], int]:
    return {c: i for i, c in enumerate(unit_combos(n))}


@cache
def _combos_without(n: int, castle_col: int) -> tuple[int, ...]:
    """Indices (into ``unit_combos(n)``) of the unit sets that leave ``castle_col`` free, in order."""
    return tuple(i for i, combo in enumerate(unit_combos(n)) if all(c != castle_col for c, _ in combo))


def camp_action(castle: int, flags: Sequence[int], units: Sequence[tuple[int, int]], n: int) -> int:
    """The int of a camp: columns of castle and flags (by kind S, A, C, R) and units ``(column, kind)``."""
    code = castle
    for k in CAMP_KIND_ORDER:
        code = code * SIZE + flags[k]
    combo = tuple(sorted(units))
    return CAMP + code * len(unit_combos(n)) + _combo_index(n)[combo]


def decode_camp(a: int, n: int) -> tuple[int, list[int], tuple[tuple[int, int], ...]]:
    """``(castle column, flag columns by kind S A C R, units ((column, kind), ...))`` of a camp int."""
    code, u = divmod(a - CAMP, len(unit_combos(n)))
    cols = []
    for _ in range(5):
        code, c = divmod(code, SIZE)
        cols.append(c)
    cols.reverse()  # castle, C, S, A, R
    flags = [0] * 4
    for k, c in zip(CAMP_KIND_ORDER, cols[1:], strict=True):
        flags[k] = c
    return cols[0], flags, unit_combos(n)[u]


def camp_is_valid(a: int, n: int) -> bool:
    """True when the int is a camp with five different hexes and units on distinct non-castle hexes."""
    if a < CAMP or a >= CAMP + FLAG_CODES * len(unit_combos(n)):
        return False
    castle, flags, units = decode_camp(a, n)
    if len({castle, *flags}) != 5:
        return False
    return all(c != castle for c, _ in units)


class CampActions(Sequence[int]):
    """The legal camp actions of the side to move, in canonical order, computed on demand (C45).

    ``len`` is 9*8*7*6*5 * C(8, n) * 4^n; indexing and membership are arithmetic, so a seeded agent's
    ``random.choice`` and a ``legal_count`` check never build the list.
    """

    def __init__(self, n: int) -> None:
        self.n = n
        self.per_castle = len(_combos_without(n, 0))
        self._len = SIZE * 8 * 7 * 6 * 5 * self.per_castle

    def __len__(self) -> int:
        return self._len

    def __getitem__(self, index: int) -> int:  # type: ignore[override]
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._len))]  # type: ignore[return-value]
        if index < 0:
            index += self._len
        if not 0 <= index < self._len:
            raise IndexError("camp action index out of range")
        rest, u = divmod(index, self.per_castle)
        digits = []
        for base in (5, 6, 7, 8):  # R, A, S, C choices, innermost first
            rest, d = divmod(rest, base)
            digits.append(d)
        castle = rest
        free = [c for c in range(SIZE) if c != castle]
        cols = []
        for d in reversed(digits):  # C, S, A, R
            cols.append(free.pop(d))
        flags = [0] * 4
        for k, c in zip(CAMP_KIND_ORDER, cols, strict=True):
            flags[k] = c
        combo = unit_combos(self.n)[_combos_without(self.n, castle)[u]]
        return camp_action(castle, flags, combo, self.n)

    def __iter__(self) -> Iterator[int]:
        combos = unit_combos(self.n)
        width = len(combos)
        for castle in range(SIZE):
            allowed = _combos_without(self.n, castle)
            free = [c for c in range(SIZE) if c != castle]
            for c_c in free:
                for c_s in free:
                    if c_s == c_c:
                        continue
                    for c_a in free:
                        if c_a in (c_c, c_s):
                            continue
                        for c_r in free:
                            if c_r in (c_c, c_s, c_a):
                                continue
                            base = CAMP + ((((castle * SIZE + c_c) * SIZE + c_s) * SIZE + c_a) * SIZE + c_r) * width
                            for u in allowed:
                                yield base + u

    def __contains__(self, a: object) -> bool:
        return isinstance(a, int) and camp_is_valid(a, self.n)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CampActions):
            return self.n == other.n
        return isinstance(other, list) and len(other) == self._len and list(self) == other

    __hash__ = None  # type: ignore[assignment]


def hex_names(hexes: Sequence[int]) -> list[str]:
    """Names of hexes, in the order given."""
    return [HEX_NAMES[h] for h in hexes]
