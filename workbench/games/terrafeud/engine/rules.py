"""Every rule toggle and rule parameter of TerraFeud in one frozen dataclass.

Toggles are BOARD-AND-RULINGS.md section 7; parameters (issue 11) are the rulebook's numbers and
crossings made data, so a designer asks "what if archers shot at distance 3" without editing code.
Field names are the names used in scenario files, the command line and reports, so a string like
``season=winter,archer_range=3,bridges=b4/k4`` or a YAML ``rules:`` mapping parses straight in.
Explicit terrain hexes (``hills``/``swamps``) are kept as ``{"white": "h4", "black": "c6"}``;
crossings (``bridges``/``fords``) as a tuple of hex names in board order.

``PARAMETERS`` is the one table of names, defaults, ranges and rulebook sources: it feeds
``python -m workbench rules`` and the table in ``docs/rulings.md`` (a test keeps them equal).
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple

from .boarddata import board_data
from .geometry import ADJACENT, HEX_NAMES, HEXES, MAX_DISTANCE, parse_hex, qy


class RulesError(ValueError):
    """An unknown rule name or a value out of range; the message names both and what is allowed."""


_CHOICES: dict[str, tuple[Any, ...]] = {
    "season": ("summer", "winter"),
    "hill": (True, False),
    "swamp": (True, False),
    "terrain": ("rolled", "fixed"),
    "castling": ("swap", "sacrifice"),
    "archer_melee": (False, True),
    "mate_defence": ("feudal", "any"),
    "pike_cavalry_mutual": (False, True),
    "aura_memory": (True, False),
    "promotion": (True, False),
    "knight_bridge_stop": (True, False),
}
_BOOLS = tuple(k for k, v in _CHOICES.items() if isinstance(v[0], bool))
# Whole-number parameters: (lowest, highest). Distances never exceed the board's diameter.
_INTS: dict[str, tuple[int, int]] = {
    "archer_range": (2, MAX_DISTANCE),
    "hill_bonus": (0, MAX_DISTANCE - 2),
    "aura_radius": (0, MAX_DISTANCE),
    "aura_step": (1, MAX_DISTANCE),
    "coordinated": (1, 6),
    "order_size": (0, 3),
    "order_radius": (1, MAX_DISTANCE),
    "castling_uses": (0, 9),
}
DRAW_AFTER_MAX = 1_000_000
_CROSSINGS = ("bridges", "fords")
_START_MAX = 1024


@lru_cache(maxsize=1)
def river_band() -> tuple[str, ...]:
    """Names of the river hexes (rows ``river_rows`` of the data file), in board order."""
    rows = set(board_data()["river_rows"])
    return tuple(HEX_NAMES[h] for h in HEXES if qy(h)[1] in rows)


@dataclass(frozen=True)
class RulesConfig:
    """Rule toggles and parameters; every default follows the English rulebook."""

    # toggles (section 7)
    season: str = "summer"
    hill: bool = True
    swamp: bool = True
    terrain: str = "rolled"
    hills: tuple[tuple[str, str], ...] | None = None
    swamps: tuple[tuple[str, str], ...] | None = None
    castling: str = "swap"
    archer_melee: bool = False
    mate_defence: str = "feudal"
    draw_after: int | None = None
    pike_cavalry_mutual: bool = False
    # parameters (issue 11)
    archer_range: int = 2
    hill_bonus: int = 1
    aura_radius: int = 2
    aura_step: int = 2
    aura_memory: bool = True
    coordinated: int = 2
    order_size: int = 2
    order_radius: int = 2
    castling_uses: int = 1
    promotion: bool = True
    knight_bridge_stop: bool = True
    bridges: tuple[str, ...] = tuple(board_data()["bridges"])
    fords: tuple[str, ...] = tuple(board_data()["fords"])
    start: str | None = None

    def __post_init__(self) -> None:
        for name, allowed in _CHOICES.items():
            value = getattr(self, name)
            if value not in allowed or type(value) is not type(allowed[0]):
                raise RulesError(
                    f"{_kind(name)} {name}={_short(value)} is not allowed; choose one of "
                    + ", ".join(_fmt(v) for v in allowed)
                )
        if self.draw_after is not None and (
            type(self.draw_after) is not int or not 1 <= self.draw_after <= DRAW_AFTER_MAX
        ):
            raise RulesError(
                f"toggle draw_after={_short(self.draw_after)} must be none or a number of plies 1..{DRAW_AFTER_MAX}"
            )
        for name, (lo, hi) in _INTS.items():
            value = getattr(self, name)
            if type(value) is not int or not lo <= value <= hi:
                raise RulesError(f"parameter {name}={_short(value)} is out of range; allowed: whole numbers {lo}..{hi}")
        for name in ("hills", "swamps"):
            value = getattr(self, name)
            if value is not None:
                object.__setattr__(self, name, _side_hexes(name, value))
        for name in _CROSSINGS:
            object.__setattr__(self, name, _crossing_names(name, getattr(self, name)))
        self._check_crossings()
        if self.start is not None:
            object.__setattr__(self, "start", _start_path(self.start))

    def _check_crossings(self) -> None:
        both = sorted(set(self.bridges) & set(self.fords), key=parse_hex)
        if both:
            raise RulesError(f"parameters bridges and fords: {both[0]} is both a bridge and a ford; a hex is one or the other")
        if self.knight_bridge_stop:
            hexes = [parse_hex(b) for b in self.bridges]
            for b in hexes:
                near = [n for n in ADJACENT[b] if n in hexes]
                if near:
                    raise RulesError(
                        f"parameter bridges: {HEX_NAMES[b]} and {HEX_NAMES[near[0]]} are adjacent; with "
                        "knight_bridge_stop=true the knight stops on the hex after a bridge, which must not be "
                        "another bridge (set knight_bridge_stop=false to allow adjacent bridges)"
                    )

    @classmethod
    def names(cls) -> list[str]:
        """Toggle and parameter names, in the contract's order."""
        return [f.name for f in dataclasses.fields(cls) if not f.name.startswith("_")]

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> RulesConfig:
        """Build from a mapping of names; values may be strings as typed by a user."""
        data = dict(data or {})
        known = cls.names()
        unknown = sorted((k for k in data if k not in known), key=str)
        if unknown:
            raise RulesError(f"unknown rule {_short(unknown[0])}; known toggles and parameters: {', '.join(known)}")
        return cls(**{k: _coerce(k, v) for k, v in data.items()})

    @classmethod
    def parse(cls, text: str) -> RulesConfig:
        """Parse ``season=winter,castling=sacrifice`` (commas or spaces between pairs)."""
        return cls.from_dict(parse_pairs(text))

    def replace(self, **changes: Any) -> RulesConfig:
        """A copy with some toggles changed (values coerced like ``from_dict``)."""
        merged = self.to_dict()
        merged.update(changes)
        return RulesConfig.from_dict(merged)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready mapping of every toggle and parameter (crossings as ``"b4,f6,k4"``)."""
        out: dict[str, Any] = {}
        for name in self.names():
            value = getattr(self, name)
            if name in ("hills", "swamps") and value is not None:
                value = dict(value)
            elif name in _CROSSINGS:
                value = ",".join(value)
            out[name] = value
        return out

    def non_default(self) -> dict[str, Any]:
        """Only the toggles and parameters that differ from the rulebook (for labels and tables)."""
        base = _DEFAULT_DICT or RulesConfig().to_dict()
        return {k: v for k, v in self.to_dict().items() if base[k] != v}

    differences = non_default  # the name used before issue 11

    def label(self) -> str:
        """Short text like ``season=winter,bridges=b4/k4`` (``default`` when nothing differs)."""
        diff = self.non_default()
        return ",".join(f"{k}={_fmt(v, k)}" for k, v in diff.items()) or "default"


def parse_pairs(text: str) -> dict[str, str]:
    """``a=1,b=2`` or ``a=1 b=2`` into a dict of strings; a clear error for a missing ``=``.

    A list value (``bridges=b4,f6,k4``) keeps the bare items that follow it.
    """
    out: dict[str, str] = {}
    last: str | None = None
    for part in str(text).replace(",", " ").split():
        if "=" not in part:
            if last in _CROSSINGS:
                out[last] = f"{out[last]},{part}" if out[last] else part
                continue
            raise RulesError(f"rule {_short(part)} needs the form name=value")
        key, value = part.split("=", 1)
        last = key.strip()
        out[last] = value.strip()
    return out


def _kind(name: str) -> str:
    return "parameter" if name in _INTS or name in ("aura_memory", "promotion", "knight_bridge_stop") else "toggle"


def _short(v: Any) -> str:
    """``repr`` cut to a readable length: user values are echoed, never whole."""
    text = repr(v)
    return text if len(text) <= 40 else text[:37] + "..."


def _fmt(v: Any, name: str = "") -> str:
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "true" if v else "false"
    if name in _CROSSINGS:
        items = v.split(",") if isinstance(v, str) else list(v)
        return "/".join(i for i in items if i) or "none"
    if isinstance(v, (tuple, dict)):
        return "/".join(f"{k}:{_fmt(h)}" for k, h in dict(v).items())
    return str(v)


def _coerce(name: str, value: Any) -> Any:
    if name in _BOOLS and isinstance(value, str):
        low = value.strip().lower()
        if low in ("true", "on", "yes", "1"):
            return True
        if low in ("false", "off", "no", "0"):
            return False
        raise RulesError(f"{_kind(name)} {name}={_short(value)} must be true or false")
    if name == "draw_after":
        if value is None or (isinstance(value, str) and value.strip().lower() in ("none", "null", "")):
            return None
        if isinstance(value, str):
            return _int_text(name, value, f"none or a number of plies 1..{DRAW_AFTER_MAX}")
        return value
    if name in _INTS and isinstance(value, str):
        lo, hi = _INTS[name]
        return _int_text(name, value, f"whole numbers {lo}..{hi}")
    if name in ("hills", "swamps") and isinstance(value, str):
        if value.strip().lower() in ("none", "null", ""):
            return None
        # "white:h4/black:c6" as written by label()
        return dict(p.split(":", 1) for p in value.split("/") if ":" in p)
    if name in _CROSSINGS or name == "start":
        return value
    if isinstance(value, str):
        return value.strip().lower()
    return value


def _int_text(name: str, value: str, allowed: str) -> int:
    text = value.strip()
    if not (text.lstrip("+-").isdigit() and len(text) <= 12):
        raise RulesError(f"{_kind(name)} {name}={_short(value)} is not a whole number; allowed: {allowed}")
    return int(text)


def _crossing_names(name: str, value: Any) -> tuple[str, ...]:
    """Hex names of a crossing parameter in board order, each checked to be a river hex."""
    if value is None:
        items: list[Any] = []
    elif isinstance(value, str):
        low = value.strip().lower()
        items = [] if low in ("", "none") else low.replace("/", " ").replace(",", " ").split()
    elif isinstance(value, (list, tuple)):
        items = list(value)
    else:
        raise RulesError(f"parameter {name} must list river hexes, e.g. b4,f6,k4 (got {_short(value)})")
    if len(items) > 91:
        raise RulesError(f"parameter {name} lists {len(items)} hexes; the river has {len(river_band())}")
    band = river_band()
    out: list[int] = []
    for item in items:
        try:
            h = parse_hex(str(item))
        except ValueError as exc:
            raise RulesError(f"parameter {name}: {exc}") from None
        if HEX_NAMES[h] not in band:
            raise RulesError(
                f"parameter {name}: {HEX_NAMES[h]} is not on the river; a crossing must be one of "
                + " ".join(band)
            )
        if h in out:
            raise RulesError(f"parameter {name}: {HEX_NAMES[h]} is listed twice")
        out.append(h)
    return tuple(HEX_NAMES[h] for h in sorted(out))


def _start_path(value: Any) -> str | None:
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
    if not isinstance(value, str):
        raise RulesError(f"parameter start must be the path of a scenario file (text), got {_short(value)}")
    text = value.strip()
    if text.lower() in ("", "none", "classic"):
        return None
    if len(text) > _START_MAX or any(ord(ch) < 32 for ch in text):
        raise RulesError(f"parameter start={_short(value)} is not a usable file path (at most {_START_MAX} printable characters)")
    return text


def _side_hexes(name: str, value: Any) -> tuple[tuple[str, str], ...]:
    if isinstance(value, tuple):
        value = dict(value)
    if not isinstance(value, dict) or set(value) - {"white", "black"}:
        raise RulesError(f"toggle {name} must map white/black to a hex, e.g. {{white: h4, black: c6}}")
    out: list[tuple[str, str | None]] = []
    for side in ("white", "black"):
        if side not in value:
            continue  # not named: the side's hex comes from ``terrain`` (rolled or fixed)
        if value[side] is None or (isinstance(value[side], str) and value[side].strip().lower() == "none"):
            out.append((side, None))  # named as none: this side has no hill (swamp), SCENARIO-FORMAT
            continue
        try:
            h = parse_hex(value[side])
        except ValueError as exc:
            raise RulesError(f"toggle {name}.{side}: {exc}") from None
        out.append((side, HEX_NAMES[h]))
    return tuple(out)  # type: ignore[return-value]


_DEFAULT_DICT: dict[str, Any] = {}
_DEFAULT_DICT.update(RulesConfig().to_dict())


class Parameter(NamedTuple):
    """One row of the rules table: what a designer needs to vary a rule."""

    name: str
    default: str
    allowed: str
    source: str
    meaning: str


def _row(name: str, allowed: str, source: str, meaning: str) -> Parameter:
    return Parameter(name, _fmt(_DEFAULT_DICT[name], name) if name != "start" else "classic", allowed, source, meaning)


PARAMETERS: tuple[Parameter, ...] = (
    _row("season", "summer, winter", "start screen (section 7)", "winter makes river and fords ordinary land"),
    _row("hill", "true, false", "start screen (section 4)", "each side has a hill"),
    _row("swamp", "true, false", "start screen (section 4)", "each side has a swamp"),
    _row("terrain", "rolled, fixed", "EN text (rolled) vs UA text (fixed), section 4", "how hill and swamp are placed"),
    _row("hills", "none, or white:HEX/black:HEX (a candidate or a land hex of that half)", "section 4",
         "explicit hill hexes instead of terrain"),
    _row("swamps", "none, or white:HEX/black:HEX (a candidate or a land hex of that half)", "section 4",
         "explicit swamp hexes instead of terrain"),
    _row("castling", "swap, sacrifice", "W11: EN vs UA text", "the infantryman stays or is removed"),
    _row("archer_melee", "false, true", "W8: detailed text vs quick reference", "archers may attack by moving"),
    _row("mate_defence", "feudal, any", "W10", "which actions may parry a threat"),
    _row("draw_after", f"none, 1..{DRAW_AFTER_MAX}", "W14 (the rulebook has no draw rule)",
         "draw after N plies without a removal"),
    _row("pike_cavalry_mutual", "false, true", "W15 (removed rule)", "pikeman and cavalry destroy each other"),
    _row("archer_range", "2..10", "W8 \"distance exactly 2\"", "exact shot distance"),
    _row("hill_bonus", "0..8", "section 4 \"up to distance 3 instead of 2\"",
         "from a hill the archer also shoots at archer_range+1 .. archer_range+hill_bonus"),
    _row("aura_radius", "0..10 (0: no aura)", "W5 \"within distance 2 of its own feudal\"",
         "distance to the own feudal that gives the aura"),
    _row("aura_step", "1..10 (1: no aura bonus)", "W5 \"up to 2 hexes\"", "hexes an aura move may cover"),
    _row("aura_memory", "true, false", "W5 \"and was so at the end of its side's previous turn\"",
         "the aura also needs the previous turn"),
    _row("coordinated", "1..6", "W7 step 3 \"2+ enemy infantry\"", "adjacent enemy infantry needed to kill"),
    _row("order_size", "0..3 (0: no Orders)", "W12 \"exactly two of them\"", "infantry an Order moves"),
    _row("order_radius", "1..10", "W12 \"within distance 2 of the feudal\"", "distance of those infantry to the feudal"),
    _row("castling_uses", "0..9 (0: no castling)", "W11 \"once per game\"", "castlings per game per side"),
    _row("promotion", "true, false", "W13", "infantry promote in the enemy castle zone"),
    _row("knight_bridge_stop", "true, false", "section 2, bridge row", "the knight stops on the hex after a bridge"),
    _row("bridges", "river hexes, none a ford; no two adjacent while knight_bridge_stop", "section 2",
         "bridge hexes"),
    _row("fords", "river hexes, none a bridge", "section 2", "ford hexes"),
    _row("start", "a scenario file (YAML) that loads", "issue 11 (not in the rulebook)",
         "its position and rules start every game"),
)


def rules_table(markdown: bool = True) -> str:
    """The ``PARAMETERS`` table as Markdown (docs) or aligned text (``python -m workbench rules``)."""
    head = ("name", "default", "allowed", "rulebook source", "meaning")
    rows = [tuple(p) for p in PARAMETERS]
    if markdown:
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        lines += ["| " + " | ".join(f"`{r[0]}`" if i == 0 else r[i] for i in range(len(head))) + " |" for r in rows]
        return "\n".join(lines)
    widths = [max(len(str(r[i])) for r in [head, *rows]) for i in range(len(head))]
    fmt = "  ".join(f"{{:<{w}}}" for w in widths)
    return "\n".join(fmt.format(*r).rstrip() for r in [head, *rows])
