"""The rule space a tune searches: ``--space name=2..4`` / ``name=a,b`` / ``name=0.5..1.5``, checked
against the game's rules spec before any game is played, and the inner grid of ``--within``.

A discrete dimension lists values (an int range ``2..4``, a comma list, ``all`` for a toggle's or
choice's values or the game's ``grid_values`` shorthand); a float range ``0.5..1.5`` is continuous
and only optuna can search it. Values are kept as the canonical text the rules spec prints
(``format_value``), so labels, seeds and resumed runs agree whatever the user typed.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from workbench.core.rulespec import RulesError, format_value

_INT_RANGE = re.compile(r"^(-?\d+)\.\.(-?\d+)$")
_FLOAT_RANGE = re.compile(r"^(-?\d+(?:\.\d*)?)\.\.(-?\d+(?:\.\d*)?)$")
MAX_VALUES = 100  # values of one dimension (a typo like 2..2000 is refused before anything is built)
MAX_VARIANTS = 100_000  # variants of a discrete space (beyond this only optuna samples it)


class SpaceError(ValueError):
    """A ``--space`` or ``--within`` item that the game's rules do not accept; says which and why."""


@dataclass(frozen=True)
class Dimension:
    """One rule of the space: discrete ``values`` (canonical text), or a continuous ``low..high``."""

    name: str
    values: tuple[str, ...] = ()
    low: float | None = None
    high: float | None = None

    @property
    def continuous(self) -> bool:
        return not self.values

    def text(self) -> str:
        return f"{self.name}={self.low}..{self.high}" if self.continuous else f"{self.name}={','.join(self.values)}"


@dataclass(frozen=True)
class Space:
    """The dimensions of a tune, in the order given; variants enumerate in that order (last fastest)."""

    game: str
    dims: tuple[Dimension, ...]

    @property
    def discrete(self) -> bool:
        return all(not d.continuous for d in self.dims)

    @property
    def size(self) -> int | None:
        """Number of variants of a discrete space; None when a dimension is continuous."""
        if not self.discrete:
            return None
        n = 1
        for d in self.dims:
            n *= len(d.values)
        return n

    def variants(self) -> list[dict[str, str]]:
        """Every variant of a discrete space, as name -> canonical text."""
        if not self.discrete:
            raise SpaceError("a continuous dimension has no list of variants; use --search optuna")
        names = [d.name for d in self.dims]
        return [dict(zip(names, combo, strict=True)) for combo in itertools.product(*(d.values for d in self.dims))]

    def texts(self) -> list[str]:
        return [d.text() for d in self.dims]


def variant_label(variant: dict[str, Any]) -> str:
    """``archer_range=3,castling=sacrifice``: the variant as the command line writes it."""
    return ",".join(f"{k}={format_value(v)}" for k, v in variant.items()) or "default"


def parse_space(game: Any, items: Sequence[str]) -> Space:
    """``["archer_range=2..4", "castling=swap,sacrifice"]`` into a checked ``Space`` of ``game``."""
    spec = game.spec
    dims: list[Dimension] = []
    seen: set[str] = set()
    for item in items:
        if not isinstance(item, str) or "=" not in item:
            raise SpaceError(f"--space {item!r}: write name=low..high or name=a,b")
        name, _, raw = item.partition("=")
        name, raw = name.strip(), raw.strip()
        if name not in spec:
            raise SpaceError(f"--space {name}: {spec.unknown(name)}")
        if name in seen:
            raise SpaceError(f"--space {name} given twice; list all its values once: {name}=a,b")
        seen.add(name)
        param = spec[name]
        fm = _FLOAT_RANGE.match(raw)
        if param.kind == "float" and fm and not _INT_RANGE.match(raw):
            lo, hi = float(fm.group(1)), float(fm.group(2))
            if hi <= lo:
                raise SpaceError(f"--space {item}: an empty range; write low..high with low < high")
            for v in (lo, hi):
                _check_value(game, name, str(v))
            dims.append(Dimension(name, low=lo, high=hi))
            continue
        values = _discrete_values(game, name, raw)
        dims.append(Dimension(name, values=tuple(values)))
    if not dims:
        raise SpaceError("a tune needs at least one --space name=values")
    space = Space(game.name, tuple(dims))
    if space.discrete and (space.size or 0) > MAX_VARIANTS:
        raise SpaceError(f"the space has {space.size} variants; at most {MAX_VARIANTS} (narrow a --space)")
    return space


def _discrete_values(game: Any, name: str, raw: str) -> list[str]:
    param = game.spec[name]
    if raw == "all":
        items: list[Any] = list(param.grid_values) or list(param.choices)
        if not items and param.kind == "bool":
            items = [True, False]
        if not items and param.kind == "int" and param.low is not None and param.high is not None:
            items = list(range(int(param.low), int(param.high) + 1))
        if not items:
            items = list(game.grid_values(name, raw) or [])
        if not items:
            raise SpaceError(f"--space {name}=all: {name} has no list of values; name them")
    else:
        items = []
        for chunk in (c.strip() for c in raw.split(",")):
            if not chunk:
                continue
            m = _INT_RANGE.match(chunk)
            if m:
                lo, hi = int(m.group(1)), int(m.group(2))
                if hi < lo:
                    raise SpaceError(f"--space {name}={chunk}: an empty range; write low..high")
                if hi - lo + 1 > MAX_VALUES:
                    raise SpaceError(f"--space {name}={chunk}: {hi - lo + 1} values; at most {MAX_VALUES}")
                items.extend(str(v) for v in range(lo, hi + 1))
            else:
                items.append(chunk.replace("/", ",") if param.kind == "text" else chunk)
    out: list[str] = []
    for v in items:
        canon = _check_value(game, name, v)
        if canon in out:
            raise SpaceError(f"--space {name}: the value {v!r} is listed twice")
        out.append(canon)
    if len(out) > MAX_VALUES:
        raise SpaceError(f"--space {name}: {len(out)} values; at most {MAX_VALUES}")
    if not out:
        raise SpaceError(f"--space {name}: no values")
    return out


def _check_value(game: Any, name: str, value: Any) -> str:
    """The canonical text of one value, checked alone by the rules spec (combinations are checked later)."""
    try:
        return format_value(game.spec[name].parse(value))
    except RulesError as exc:
        raise SpaceError(f"--space {name}={value}: {exc}") from None


def parse_within(game: Any, items: Sequence[str]) -> list[dict[str, Any]]:
    """The inner grid of ``--within factions=all``: the same expansion as ``simulate --grid``
    (ranges, comma lists, the game's ``grid_values`` shorthand), as a list of rule mappings."""
    if not items:
        return [{}]
    from workbench.simulate.grid import parse_grid
    from workbench.simulate.protocol_play import _shorthand

    try:
        grid = parse_grid(list(items))
    except ValueError as exc:
        raise SpaceError(f"--within: {exc}") from None
    spec = game.spec
    keys = list(grid)
    values: list[list[str]] = []
    for key in keys:
        if key not in spec:
            raise SpaceError(f"--within {key}: {spec.unknown(key)}")
        vals = [v for item in grid[key] for v in _shorthand(game, key, item)]
        if vals == ["all"]:
            vals = list(_discrete_values(game, key, "all"))
        canon: list[str] = []
        for v in vals:
            try:
                c = format_value(spec[key].parse(v))
            except RulesError as exc:
                raise SpaceError(f"--within {key}={v}: {exc}") from None
            if c in canon:
                raise SpaceError(f"--within {key}: the value {v!r} is listed twice")
            canon.append(c)
        values.append(canon)
    return [dict(zip(keys, combo, strict=True)) for combo in itertools.product(*values)]


def check_overlap(space: Space, within: list[dict[str, Any]], fixed: dict[str, Any]) -> None:
    """A rule is searched, held inside, or fixed: never two of these at once."""
    names = [d.name for d in space.dims]
    inner = set(within[0]) if within else set()
    for n in names:
        if n in inner:
            raise SpaceError(f"{n} is both in --space and --within")
        if n in fixed:
            raise SpaceError(f"{n} is both in --space and --rules")
    for n in inner:
        if n in fixed:
            raise SpaceError(f"{n} is both in --within and --rules")
