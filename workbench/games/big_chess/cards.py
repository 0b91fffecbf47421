"""Piece cards (contract section 4): the card format, its validation, and the pattern expansion.

Pieces are data: a card file describes moves, strikes, takes, pushes and areas relative to the
piece's facing, with levels. The engine implements the pattern language once here; the starter set
(section 5) is the JSON files under ``data/cards/`` (JSON is YAML, so the files follow the YAML card
format of the contract). Every error names the file, the line and the field, because a designer
edits these by hand.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from workbench.core import jsonlines
from workbench.core.protocol import Pattern, PatternMark
from workbench.core.safefile import UnsafeFileError, read_text_capped
from workbench.core.scenario import line_of

from .geometry import FACING_NAMES, expand_sym, rot

DATA = Path(__file__).parent / "data"
CARD_DIR = DATA / "cards"
CARD_KEYS = ("key", "id", "name", "vector", "cost", "buyable", "pushable", "tags", "aura", "income", "base", "levels")
ENTRY_KEYS = ("act", "slide", "leap", "cells", "range", "min", "sym", "keep", "hop", "shadow")
ACTS = ("move", "strike", "take", "push", "area")
SYMS = ("none", "lr", "rot4", "all")
TAGS = ("pawn", "jester", "jester_immune", "prince", "king", "untouchable")
MAX_LEVEL = 31
MAX_VECTOR = 64
MAX_CARDS = 200
_QUOTED = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")  # quoted text in a parser's error
MAX_ENTRIES = 64
_KEY = re.compile(r"[a-z][a-z0-9]*\Z")


class CardError(ValueError):
    """A card that cannot be used: ``file: line N: card K: field F: reason``."""

    def __init__(self, where: str, line: int | None, reason: str) -> None:
        self.where = where
        self.line = line or None
        self.reason = reason
        super().__init__(f"{where}: line {line}: {reason}" if line else f"{where}: {reason}")


@dataclass(frozen=True)
class Entry:
    """One pattern entry, expanded by ``sym`` (turning by the facing happens in ``turned``)."""

    act: str
    geom: str  # slide | leap | cells
    vectors: tuple[tuple[int, int], ...]
    min: int
    range: int
    keep: bool
    hop: bool
    shadow: bool
    level: int | None  # None: base
    order: int  # card order (base, levels ascending, file order)
    written: Mapping[str, Any] = field(compare=False, hash=False, default_factory=dict)

    def turned(self, f: int) -> tuple[tuple[int, int], ...]:
        """The vectors turned to facing ``f`` (ring rotation, B3)."""
        return _turned(self.vectors, f)


@cache
def _turned(vectors: tuple[tuple[int, int], ...], f: int) -> tuple[tuple[int, int], ...]:
    return tuple(rot(x, y, f) for x, y in vectors)


@dataclass(frozen=True)
class Card:
    """A piece type. ``entries`` is in card order; ``levels`` the level numbers the card defines."""

    key: str
    id: int
    name: str
    vector: bool
    cost: int
    buyable: bool
    pushable: bool
    tags: frozenset[str]
    aura: tuple[int, ...]
    income: int
    entries: tuple[Entry, ...]
    levels: tuple[int, ...]
    source: str = field(default="", compare=False)

    @property
    def mobile(self) -> bool:
        """A piece that can walk (text 8.2): its base has a move entry."""
        return any(e.level is None and e.act == "move" for e in self.entries)

    @property
    def levels_mask(self) -> int:
        """Bit mask of the defined levels."""
        m = 0
        for lv in self.levels:
            m |= 1 << lv
        return m

    def active(self, mask: int) -> tuple[Entry, ...]:
        """Base entries plus those of every level in ``mask``, in card order."""
        return _active(self, mask)

    def with_changes(self, **changes: Any) -> Card:
        """A copy with fields replaced (rule overrides such as ``cost_knight``)."""
        from dataclasses import replace

        return replace(self, **changes)

    def to_data(self) -> dict[str, Any]:
        """The card in the file format (for records, dumps and the ``cards`` listing)."""
        base = [dict(e.written) for e in self.entries if e.level is None]
        levels: dict[str, list[dict[str, Any]]] = {}
        for e in self.entries:
            if e.level is not None:
                levels.setdefault(str(e.level), []).append(dict(e.written))
        for lv in self.levels:
            levels.setdefault(str(lv), [])
        return {"key": self.key, "id": self.id, "name": self.name, "vector": self.vector, "cost": self.cost,
                "buyable": self.buyable, "pushable": self.pushable, "tags": sorted(self.tags),
                "aura": list(self.aura), "income": self.income, "base": base,
                "levels": {k: levels[k] for k in sorted(levels, key=int)}}


@lru_cache(maxsize=4096)
def _active(card: Card, mask: int) -> tuple[Entry, ...]:
    return tuple(e for e in card.entries if e.level is None or (mask >> e.level) & 1)


def _line(node: Any, key: Any, default: int | None) -> int | None:
    """The line of ``node[key]`` (``core.scenario.line_of``), else ``default`` (None: no line to name)."""
    return line_of(node, key, 0) or default


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _vector(v: Any) -> tuple[int, int] | None:
    if isinstance(v, (list, tuple)) and len(v) == 2 and all(_is_int(c) for c in v):
        return int(v[0]), int(v[1])
    return None


def _vector_list(v: Any) -> list[tuple[int, int]] | None:
    one = _vector(v)
    if one is not None:
        return [one]
    if isinstance(v, (list, tuple)) and v:
        out = [_vector(x) for x in v]
        if all(x is not None for x in out):
            return out  # type: ignore[return-value]
    return None


def parse_card(node: Any, where: str, line: int | None = None) -> Card:
    """Validate one card mapping (file or inline) into a ``Card``; ``CardError`` names line and field."""
    if isinstance(node, Card):  # parsed already (a scenario's card file): a file is parsed once
        return node
    if not isinstance(node, Mapping):
        raise CardError(where, line, "a card is a mapping with key, id, cost, vector, base, levels")
    line = _line(node, "key", line) if "key" in node else getattr(node, "line", line)
    key = node.get("key")
    if not isinstance(key, str) or not _KEY.match(key) or len(key) > 32:
        raise CardError(where, _line(node, "key", line), f"field key: must match [a-z][a-z0-9]* (at most 32), got {key!r:.40}")
    label = f"card {key}"

    def err(fld: str, reason: str, at: Any = None) -> CardError:
        return CardError(where, at if at is not None else _line(node, fld, line), f"{label}: field {fld}: {reason}")

    for k in node:
        if k not in CARD_KEYS:
            raise err(str(k), f"unknown key; allowed: {', '.join(CARD_KEYS)}")
    for req in ("id", "cost", "vector"):
        if req not in node:
            raise err(req, "is required")
    cid = node["id"]
    if not _is_int(cid) or not 0 <= cid <= 255:
        raise err("id", f"must be a whole number 0..255, got {cid!r:.40}")
    name = node.get("name", key)
    if not isinstance(name, str) or not name or len(name) > 64:
        raise err("name", "must be text of 1 to 64 characters")
    flags = {}
    for fld, default in (("vector", None), ("buyable", True), ("pushable", True)):
        v = node.get(fld, default)
        if not isinstance(v, bool):
            raise err(fld, f"must be true or false, got {v!r:.40}")
        flags[fld] = v
    cost = node["cost"]
    if not _is_int(cost) or not 0 <= cost <= 100000:
        raise err("cost", f"must be a whole number 0..100000, got {cost!r:.40}")
    income = node.get("income", 0)
    if not _is_int(income) or not 0 <= income <= 10000:
        raise err("income", f"must be a whole number 0..10000, got {income!r:.40}")
    tags = node.get("tags", [])
    if not isinstance(tags, (list, tuple)) or not all(isinstance(t, str) for t in tags):
        raise err("tags", f"must be a list of {', '.join(TAGS)}")
    for i, t in enumerate(tags):
        if t not in TAGS:
            raise err("tags", f"unknown tag {t!r:.30}; allowed: {', '.join(TAGS)}", _line(tags, i, None))
    aura = node.get("aura", [])
    if not isinstance(aura, (list, tuple)) or not all(_is_int(a) and 0 <= a <= MAX_LEVEL for a in aura):
        raise err("aura", f"must be a list of level numbers 0..{MAX_LEVEL}")
    entries: list[Entry] = []
    base = node.get("base", [])
    if not isinstance(base, (list, tuple)):
        raise err("base", "must be a list of entries")
    for i, e in enumerate(base):
        entries.append(_entry(e, where, _line(base, i, _line(node, "base", line)), f"{label}: base[{i}]", None,
                              len(entries), "pawn" in tags))
    levels_node = node.get("levels", {})
    if not isinstance(levels_node, Mapping):
        raise err("levels", "must be a mapping level number -> list of entries")
    numbered: list[tuple[int, Any, Any]] = []
    for k, v in levels_node.items():
        lv = k if _is_int(k) else (int(k) if isinstance(k, str) and k.isdigit() and len(k) <= 3 else None)
        if lv is None or not 0 <= lv <= MAX_LEVEL:
            raise err("levels", f"level {k!r:.20} must be a number 0..{MAX_LEVEL}", _line(levels_node, k, None))
        if any(n == lv for n, _, _ in numbered):
            raise err("levels", f"level {lv} is given twice", _line(levels_node, k, None))
        numbered.append((lv, k, v))
    numbered.sort(key=lambda t: t[0])
    for lv, k, v in numbered:
        if v is None:
            v = []
        if not isinstance(v, (list, tuple)):
            raise err("levels", f"level {lv} must be a list of entries", _line(levels_node, k, None))
        for i, e in enumerate(v):
            entries.append(_entry(e, where, _line(v, i, _line(levels_node, k, line)), f"{label}: levels.{lv}[{i}]", lv,
                                  len(entries), "pawn" in tags))
    if len(entries) > MAX_ENTRIES:
        raise err("base", f"at most {MAX_ENTRIES} entries per card")
    return Card(key=key, id=cid, name=name, vector=flags["vector"], cost=cost, buyable=flags["buyable"],
                pushable=flags["pushable"], tags=frozenset(tags), aura=tuple(sorted(set(aura))), income=income,
                entries=tuple(entries), levels=tuple(n for n, _, _ in numbered), source=where)


def _entry(e: Any, where: str, line: int | None, label: str, level: int | None, order: int, pawn: bool) -> Entry:
    def err(fld: str, reason: str) -> CardError:
        return CardError(where, _line(e, fld, line), f"{label}: field {fld}: {reason}")

    if not isinstance(e, Mapping):
        raise CardError(where, line, f"{label}: an entry is a mapping such as {{act: move, slide: [0,-1]}}")
    for k in e:
        if k not in ENTRY_KEYS:
            raise err(str(k), f"unknown key; allowed: {', '.join(ENTRY_KEYS)}")
    act = e.get("act")
    if act not in ACTS:
        raise err("act", f"must be one of {', '.join(ACTS)}, got {act!r:.30}")
    geoms = [g for g in ("slide", "leap", "cells") if g in e]
    if len(geoms) != 1:
        raise err("act", "needs exactly one geometry: slide, leap or cells")
    geom = geoms[0]
    vecs = _vector_list(e[geom])
    if vecs is None:
        raise err(geom, "must be a vector [x, y] or a list of vectors of whole numbers")
    for v in vecs:
        if v == (0, 0):
            raise err(geom, "the vector [0, 0] is not allowed")
        if geom == "slide" and (abs(v[0]) > 1 or abs(v[1]) > 1):
            raise err(geom, f"a slide is a unit vector (components -1..1), got {list(v)}")
        if abs(v[0]) > MAX_VECTOR or abs(v[1]) > MAX_VECTOR:
            raise err(geom, f"components must be within -{MAX_VECTOR}..{MAX_VECTOR}")
    sym = e.get("sym", "none")
    if sym not in SYMS:
        raise err("sym", f"must be one of {', '.join(SYMS)}, got {sym!r:.30}")
    flags = {}
    for fld in ("keep", "hop", "shadow"):
        v = e.get(fld, False)
        if not isinstance(v, bool):
            raise err(fld, "must be true or false")
        flags[fld] = v
    rng, mn = e.get("range", 1), e.get("min", 1)
    if geom != "slide" and (e.get("range", 1) != 1 or e.get("min", 1) != 1):
        raise err("range" if e.get("range", 1) != 1 else "min", "range and min are for slides only")
    if not _is_int(rng) or not 0 <= rng <= 64:
        raise err("range", "must be a whole number 0..64 (0 = to the board edge)")
    if not _is_int(mn) or not 1 <= mn <= 64:
        raise err("min", "must be a whole number 1..64")
    if rng and mn > rng:
        raise err("min", f"min {mn} is above range {rng}")
    if flags["hop"] and geom != "slide":
        raise err("hop", "hop is for slides only")
    if act == "push" and (geom != "slide" or rng != 1 or mn != 1):
        raise err("act", "a push needs a slide of range 1")
    if act == "area" and geom != "cells":
        raise err("act", "an area needs cells")
    if geom == "cells" and act != "area":
        raise err("cells", "cells are for act: area only")
    if flags["shadow"] and not (pawn and act == "move" and geom == "slide" and mn == 2 and rng == 2):
        raise err("shadow", "shadow is only for a pawn's move slide with min: 2, range: 2")
    written = {k: (list(map(list, vecs)) if k == geom and len(vecs) > 1 else (list(vecs[0]) if k == geom else e[k]))
               for k in e}
    return Entry(act=act, geom=geom, vectors=expand_sym(vecs, sym), min=mn, range=rng, keep=flags["keep"],
                 hop=flags["hop"], shadow=flags["shadow"], level=level, order=order, written=written)


def load_card_file(path: Path, label: str | None = None) -> list[Card]:
    """Cards of one file (a card mapping or a list of cards), validated; ``CardError`` names the line."""
    where = label or str(path)
    try:  # the shared safe reader: a regular file, bounded, never a FIFO or device
        text = read_text_capped(path, jsonlines.MAX_TEXT)
    except UnsafeFileError as exc:
        raise CardError(where, None, f"cannot read the card file: {exc}") from None
    try:
        if path.suffix in (".yaml", ".yml"):  # core's one YAML reader (PyYAML with line marks, bounded)
            from workbench.core.yamlmarks import load_with_lines

            node = load_with_lines(text)
        else:
            node = jsonlines.loads(text)
    except (ValueError, RecursionError) as exc:  # the parser's words, without what they quote from the file
        reason = re.sub(r"^line \d+: ", "", _QUOTED.sub("'…'", str(exc)))[:120]
        raise CardError(where, getattr(exc, "line", None), f"malformed card file: {reason}") from None
    except Exception as exc:  # noqa: BLE001 - PyYAML's errors (yaml.YAMLError): the line and the problem only
        from workbench.core.yamlmarks import error_line

        problem = str(getattr(exc, "problem", None) or type(exc).__name__)
        reason = _QUOTED.sub("'…'", " ".join(problem.split()))[:120]
        raise CardError(where, error_line(exc),
                        f"malformed card file: {reason}") from None
    return parse_cards(node, where)


def parse_cards(node: Any, where: str) -> list[Card]:
    """A card or a list of cards."""
    if isinstance(node, Sequence) and not isinstance(node, (str, bytes)):
        if len(node) > MAX_CARDS:
            raise CardError(where, None, f"at most {MAX_CARDS} cards")
        return [parse_card(c, where, _line(node, i, None)) for i, c in enumerate(node)]
    return [parse_card(node, where, getattr(node, "line", None))]


@lru_cache(maxsize=1)
def starter_cards() -> tuple[Card, ...]:
    """The starter set of section 5, from ``data/cards/*.json`` (ordered by id)."""
    cards: list[Card] = []
    for path in sorted(CARD_DIR.glob("*.json")):
        cards.extend(load_card_file(path, f"data/cards/{path.name}"))
    check_card_set(cards, "data/cards")
    return tuple(sorted(cards, key=lambda c: c.id))


def check_card_set(cards: Sequence[Card], where: str) -> None:
    """Keys and ids unique; exactly one card tagged king exists (the King is mandatory)."""
    keys: dict[str, Card] = {}
    ids: dict[int, Card] = {}
    for c in cards:
        if c.key in keys:
            raise CardError(c.source or where, None, f"card {c.key}: field key: used twice ({keys[c.key].source})")
        if c.id in ids:
            raise CardError(c.source or where, None, f"card {c.key}: field id: {c.id} is also card {ids[c.id].key}")
        if c.key == "shadow":
            raise CardError(c.source or where, None, "card shadow: field key: the pawn shadow is an internal marker, never a card")
        keys[c.key] = c
        ids[c.id] = c
    kings = [c for c in cards if "king" in c.tags]
    if len(kings) != 1:
        raise CardError(where, None, f"exactly one card must be tagged king, found {len(kings)}")


def merge_cards(base: Sequence[Card], extra: Sequence[Card], where: str) -> tuple[Card, ...]:
    """``base`` with ``extra`` cards added or replacing by key (scenario ``cards:``)."""
    by_key = {c.key: c for c in base}
    for c in extra:
        by_key[c.key] = c
    out = sorted(by_key.values(), key=lambda c: c.id)
    check_card_set(out, where)
    return tuple(out)


# --------------------------------------------------------------------------- designer's views
def card_rows(cards: Sequence[Card] | None = None) -> list[dict[str, Any]]:
    """One row per card for ``python -m workbench cards``: name, cost, patterns per level."""
    rows = []
    for c in cards or starter_cards():
        per_level: dict[str, list[str]] = {"base": [_entry_words(e) for e in c.entries if e.level is None]}
        for lv in c.levels:
            per_level[f"L{lv}"] = [_entry_words(e) for e in c.entries if e.level == lv]
        rows.append({"key": c.key, "id": c.id, "name": c.name, "cost": c.cost, "vector": c.vector,
                     "buyable": c.buyable, "tags": sorted(c.tags), "aura": list(c.aura), "income": c.income,
                     "patterns": per_level})
    return rows


def _entry_words(e: Entry) -> str:
    vec = " ".join(f"({x},{y})" for x, y in e.vectors)
    extra = []
    if e.geom == "slide":
        extra.append("range inf" if e.range == 0 else f"range {e.range}")
        if e.min > 1:
            extra.append(f"min {e.min}")
    for flag in ("keep", "hop", "shadow"):
        if getattr(e, flag):
            extra.append(flag)
    return f"{e.act} {e.geom} {vec}" + (f" [{', '.join(extra)}]" if extra else "")


GLYPH = {"move": "o", "strike": "x", "take": "*", "push": ">", "area": "#"}
LEAP_GLYPH = {"o": "O", "x": "X", "+": "J"}


def _glyph(acts: set[str], leap: bool) -> str:
    if acts == {"move", "strike"}:
        g = "+"
    elif len(acts) == 1:
        g = GLYPH[next(iter(acts))]
    else:
        g = "%"
    return LEAP_GLYPH.get(g, g) if leap else g


def render_pattern(card: Card, levels: Sequence[int] = (), facing: int = 0, radius: int = 3) -> str:
    """The card's pattern on a small grid as text: ``P`` the piece (``^ > v <`` its facing), ``o`` move,
    ``x`` strike, ``+`` move and strike, ``*`` take, ``>`` push, ``#`` area, ``%`` other mixes; a leap
    target is upper case (``O``, ``X``, ``J`` for a leap that moves and strikes).

    Slides are drawn up to ``radius``; ``facing`` turns a vector card (vectorless cards ignore it).
    """
    mask = 0
    for lv in levels:
        mask |= 1 << lv
    f = facing if card.vector else 0
    cells = pattern_cells(card, mask, f, radius)
    marks = {o: set(c.acts) for o, c in cells.items()}
    leaps = {o for o, c in cells.items() if c.leap}
    lines = []
    for y in range(-radius, radius + 1):
        row = []
        for x in range(-radius, radius + 1):
            if (x, y) == (0, 0):
                row.append("P" if not card.vector else "^>v<"[f // 2] if f % 2 == 0 else "P")
            elif (x, y) in marks:
                row.append(_glyph(marks[(x, y)], (x, y) in leaps))
            else:
                row.append(".")
        lines.append(" ".join(row))
    head = f"{card.key} ({card.name}), cost {card.cost}" + (f", levels {list(levels)}" if levels else "")
    if card.vector:
        head += f", facing {FACING_NAMES[f]}"
    return head + "\n" + "\n".join(lines)


# (act, colour, shape, words): how a pattern diagram draws each act (``workbench.viz.generic``)
PATTERN_LEGEND: tuple[tuple[str, str, str, str], ...] = (
    ("move", "#1e8449", "dot", "move to an empty cell"), ("strike", "#c0392b", "cross", "strike: remove and step in"),
    ("take", "#d35400", "star", "take: remove from afar"), ("push", "#2471a3", "arrow", "push the piece one cell on"),
    ("area", "#7d3c98", "square", "area: remove every enemy there at once"),
)


@dataclass(frozen=True)
class PatternCell:
    """What the entries active under one level mask reach at one offset (see ``pattern_cells``)."""

    acts: tuple[str, ...]
    leap: bool
    hop: bool
    edge: bool


def pattern_cells(card: Card, mask: int, f: int, radius: int) -> dict[tuple[int, int], PatternCell]:
    """Offsets the card's active entries (base plus the levels in ``mask``) reach at facing ``f``, within
    ``radius``: the acts at each (in ``ACTS`` order), whether a leap or a hopping slide reaches it, and
    whether a slide goes on past the radius (range 0 or above it). One computation behind the text grid
    and the drawn diagrams, so the two never disagree."""
    acts: dict[tuple[int, int], set[str]] = {}
    leap: set[tuple[int, int]] = set()
    hop: set[tuple[int, int]] = set()
    edge: set[tuple[int, int]] = set()
    for e in card.active(mask):
        for d in e.turned(f):
            if e.geom == "slide":
                top = radius if e.range == 0 else min(e.range, radius)
                offs = [(d[0] * k, d[1] * k) for k in range(e.min, top + 1)]
                if offs and (e.range == 0 or e.range > radius):
                    edge.add(offs[-1])
            else:
                offs = [d]
            for o in offs:
                if max(abs(o[0]), abs(o[1])) <= radius:
                    acts.setdefault(o, set()).add(e.act)
                    if e.geom == "leap":
                        leap.add(o)
                    if e.hop:
                        hop.add(o)
    return {o: PatternCell(tuple(a for a in ACTS if a in v), o in leap, o in hop, o in edge)
            for o, v in sorted(acts.items(), key=lambda t: (t[0][1], t[0][0]))}


def pattern_radius(card: Card) -> int:
    """The smallest grid radius (2..8) that shows every leap, area cell and bounded slide of the card; slides to
    the edge are drawn to at least 3."""
    r = 2
    for e in card.entries:
        for v in e.vectors:
            ext = max(abs(v[0]), abs(v[1]))
            r = max(r, 3 if e.geom == "slide" and e.range == 0 else ext * (e.range if e.geom == "slide" else 1))
    return min(r, 8)


def _adds(before: PatternCell | None, now: PatternCell) -> bool:
    """Whether a level changes a cell of the base pattern: a new act, or a jump, hop or edge it lacked."""
    return before is None or before.acts != now.acts or any(
        getattr(now, k) and not getattr(before, k) for k in ("leap", "hop", "edge"))


def card_patterns(card: Card, facing: int = 0, radius: int | None = None) -> list[Pattern]:
    """The card as pattern diagrams: the base, then one panel per level (base plus that level alone, since
    levels are bought in any order, contract §9.6), the cells a level adds marked ``new``."""
    f = facing if card.vector else 0
    r = radius if radius is not None else pattern_radius(card)
    base = pattern_cells(card, 0, f, r)
    angle = 45.0 * f if card.vector else None
    head = f"{card.key}, cost {card.cost}"
    out = []
    for lv in (None, *card.levels):
        cells = base if lv is None else pattern_cells(card, 1 << lv, f, r)
        marks = tuple(PatternMark(o[0], o[1], c.acts, c.leap, c.hop, c.edge,
                                  new=lv is not None and _adds(base.get(o), c))
                      for o, c in cells.items())
        title = f"{head}: base" if lv is None else f"{head}: level {lv}"
        out.append(Pattern(title=title, radius=r, marks=marks, legend=PATTERN_LEGEND, facing=angle,
                           piece=card.key[:2].capitalize()))
    return out
