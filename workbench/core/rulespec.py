"""A game's rules spec: toggles and parameters with defaults, ranges and rulebook sources.

One table per game drives everything that names a rule: ``python -m workbench rules``, validation of
scenario ``rules:`` mappings and ``--rules``/``--grid`` values, the docs and the result table's
columns. No tool keeps a copy of a game's toggles or defaults.

Values arrive as text (command line, grid labels) or as YAML values; ``Param.parse`` turns either into
the canonical Python value and every failure is a ``RulesError`` naming the parameter and what it
accepts.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

KINDS = ("bool", "int", "float", "choice", "text", "path")
_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")
MAX_TEXT = 1024  # characters of a text-valued parameter


class RulesError(ValueError):
    """An unknown rule name or a value out of range; the message names both and what is allowed."""


@dataclass(frozen=True)
class Param:
    """One toggle or parameter.

    ``kind`` is bool, int, float, choice, text or path. A ``path`` parameter can name a file (a start
    position on disk): a value from a page never sets it (``refuse_paths``), and a file named inside a
    scenario or record is confined to that file's folder or the game's data (``confine_paths``).
    ``limit`` marks a limit rule (a turn cap, a quiet-move draw): a game it ends is not a real draw, and
    reports count it as unfinished. ``low``/``high`` bound numbers (inclusive);
    ``choices`` lists a choice's values in the order the rulebook gives them. ``parse`` may replace the
    generic parser for a value with a structure of its own (a hex list, a faction pair); it takes the
    raw value and returns the canonical one or raises ``RulesError``. ``numeric`` marks parameters
    whose response curve makes sense (reports draw one).
    """

    name: str
    kind: str
    default: Any
    meaning: str
    source: str = ""
    low: float | None = None
    high: float | None = None
    choices: tuple[Any, ...] = ()
    custom: Callable[[Any], Any] | None = field(default=None, compare=False, repr=False)
    grid_values: tuple[Any, ...] = ()  # what ``--grid NAME=all`` expands to, when it means something
    limit: bool = False  # a limit rule: the games it ends are unfinished, never "balanced" draws

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"parameter {self.name}: kind {self.kind!r} is not one of {KINDS}")

    @property
    def numeric(self) -> bool:
        """True for int and float parameters (they get response curves)."""
        return self.kind in ("int", "float")

    def allowed(self) -> str:
        """What the parameter accepts, in words, for errors and the rules table."""
        if self.kind == "bool":
            return "true or false"
        if self.kind == "choice":
            return " | ".join(format_value(c) for c in self.choices)
        if self.kind in ("int", "float"):
            lo = "-inf" if self.low is None else format_value(self.low)
            hi = "inf" if self.high is None else format_value(self.high)
            return f"{'a whole number' if self.kind == 'int' else 'a number'} from {lo} to {hi}"
        if self.kind == "path":
            return f"{format_value(self.default)} or the path of a file"
        return "text"

    def parse(self, value: Any) -> Any:
        """The canonical value of ``value`` (text or YAML), or ``RulesError`` naming this parameter."""
        if value is None and self.default is None:  # a rule whose default is "none" (no start file, no cap)
            return None
        if self.custom is not None:
            try:
                return self.custom(value)
            except RulesError:
                raise
            except (TypeError, ValueError) as exc:
                raise RulesError(f"parameter {self.name}={_short(value)}: {exc}") from None
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.strip().lower() in _TRUE + _FALSE:
                return value.strip().lower() in _TRUE
            raise RulesError(f"parameter {self.name}={_short(value)}: must be true or false")
        if self.kind == "int":
            number = _number(self, value, int)
            return int(number)
        if self.kind == "float":
            return float(_number(self, value, float))
        if self.kind == "choice":
            for choice in self.choices:
                if value == choice or (isinstance(value, str) and value.strip() == format_value(choice)):
                    return choice
            raise RulesError(f"parameter {self.name}={_short(value)}: must be one of {self.allowed()}")
        if not isinstance(value, str) or len(value) > MAX_TEXT:
            raise RulesError(f"parameter {self.name}: must be text of at most {MAX_TEXT} characters")
        return value


def _short(value: Any, limit: int = 40) -> str:
    text = repr(value) if not isinstance(value, str) else value
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _number(param: Param, value: Any, kind: type) -> float:
    if isinstance(value, bool):
        raise RulesError(f"parameter {param.name}={value}: must be {param.allowed()}")
    if isinstance(value, str):
        text = value.strip()
        if len(text) > 40:
            raise RulesError(f"parameter {param.name}: {text[:20]}... is too long for a number")
        try:
            value = int(text) if kind is int else float(text)
        except ValueError:
            raise RulesError(f"parameter {param.name}={_short(text)}: must be {param.allowed()}") from None
    if kind is int and isinstance(value, float) and value.is_integer():
        value = int(value)
    if not isinstance(value, (int, float)) or (kind is int and not isinstance(value, int)):
        raise RulesError(f"parameter {param.name}={_short(value)}: must be {param.allowed()}")
    if isinstance(value, float) and not math.isfinite(value):
        raise RulesError(f"parameter {param.name}={value}: must be a finite number")
    if (param.low is not None and value < param.low) or (param.high is not None and value > param.high):
        raise RulesError(f"parameter {param.name}={value}: out of range; must be {param.allowed()}")
    return value


def format_value(value: Any) -> str:
    """A value as the command line writes it: ``true``, ``3``, ``0.5``, ``humans/orcs``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    if isinstance(value, (tuple, list)):
        return ",".join(format_value(v) for v in value)
    return str(value)


class Rules(Mapping[str, Any]):
    """A validated, immutable, hashable set of rule values (every parameter present)."""

    __slots__ = ("_spec", "_values", "_hash")

    def __init__(self, spec: RulesSpec, values: Mapping[str, Any]) -> None:
        self._spec = spec
        self._values = dict(values)
        self._hash = hash(tuple(sorted((k, _hashable(v)) for k, v in self._values.items())))

    @property
    def spec(self) -> RulesSpec:
        """The spec these values follow."""
        return self._spec

    def __getitem__(self, key: str) -> Any:
        return self._values[key]

    def __getattr__(self, key: str) -> Any:
        if key.startswith("_"):
            raise AttributeError(key)
        try:
            return self._values[key]
        except KeyError:
            raise AttributeError(key) from None

    def __copy__(self) -> Rules:
        return self  # immutable

    def __deepcopy__(self, memo: dict[int, Any]) -> Rules:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        # pickled by game name and values (a spec holds parser functions), with the function that finds the
        # game's spec again: the registry's (``workbench.games.spec_of``) once it is loaded, pickled by reference,
        # so core never names the registry and an unpickling worker imports it as pickle imports any function
        return (_rebuild_rules, (SPEC_FINDER[0], self._spec.game, self.to_dict()))

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rules) and self._values == other._values

    def __repr__(self) -> str:
        return f"Rules({self.label() or 'defaults'})"

    def replace(self, **changes: Any) -> Rules:
        """A copy with ``changes`` validated and applied."""
        return self._spec.make({**self._values, **changes})

    def non_default(self) -> dict[str, Any]:
        """Only the values that differ from the rulebook's defaults."""
        return {p.name: self._values[p.name] for p in self._spec if self._values[p.name] != p.default}

    def label(self) -> str:
        """``k=v,k=v`` of the non-default values (empty for the rulebook's rules)."""
        return ",".join(f"{k}={format_value(v)}" for k, v in self.non_default().items())

    def to_dict(self) -> dict[str, Any]:
        """Every value, JSON-ready (tuples become lists)."""
        return {k: (list(v) if isinstance(v, tuple) else v) for k, v in self._values.items()}


_SPECS: dict[str, RulesSpec] = {}  # the specs made in this process, by game name


def spec_named(game: str) -> RulesSpec:
    """A spec made in this process (the finder used before a registry installs its own)."""
    try:
        return _SPECS[game]
    except KeyError:
        raise RulesError(f"no rules spec of {game!r} in this process") from None


SPEC_FINDER: list[Callable[[str], RulesSpec]] = [spec_named]


def set_spec_finder(finder: Callable[[str], RulesSpec]) -> None:
    """Install the function that finds a game's spec by name when a ``Rules`` is unpickled (the registry's)."""
    SPEC_FINDER[0] = finder


def _rebuild_rules(finder: Callable[[str], RulesSpec], game: str, values: dict[str, Any]) -> Rules:
    return finder(game).make(values)


def _hashable(value: Any) -> Any:
    if isinstance(value, dict):
        return tuple(sorted((k, _hashable(v)) for k, v in value.items()))
    if isinstance(value, list):
        return tuple(_hashable(v) for v in value)
    return value


class RulesSpec:
    """The ordered table of a game's parameters; makes and validates ``Rules``.

    ``check`` (optional) validates combinations after each value parsed on its own (for example a
    hill that needs a swamp): it gets the value dict and raises ``RulesError``.
    """

    def __init__(self, game: str, params: Iterable[Param], check: Callable[[dict[str, Any]], None] | None = None) -> None:
        self.game = game
        _SPECS.setdefault(game, self)
        self.params: tuple[Param, ...] = tuple(params)
        self._by_name = {p.name: p for p in self.params}
        self._check = check
        if len(self._by_name) != len(self.params):
            raise ValueError(f"{game}: duplicate parameter names")

    def __iter__(self) -> Iterator[Param]:
        return iter(self.params)

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    def __getitem__(self, name: str) -> Param:
        try:
            return self._by_name[name]
        except KeyError:
            raise RulesError(self.unknown(name)) from None

    def names(self) -> tuple[str, ...]:
        """Parameter names in table order."""
        return tuple(self._by_name)

    def unknown(self, name: str) -> str:
        """The error text for a name this game does not have."""
        return f"unknown rule {_short(name)!s} for {self.game}; known: {', '.join(self._by_name)}"

    def defaults(self) -> Rules:
        """The rulebook's rules."""
        return self.make({})

    def make(self, values: Mapping[str, Any] | str | None = None) -> Rules:
        """Validated ``Rules`` from a mapping or ``k=v,k=v`` text; absent names take their defaults."""
        if values is None:
            values = {}
        if isinstance(values, str):
            values = parse_pairs(values)
        if isinstance(values, Rules):
            values = dict(values)
        out = {p.name: p.default for p in self.params}
        for name, raw in values.items():
            if name not in self._by_name:
                raise RulesError(self.unknown(name))
            out[name] = self._by_name[name].parse(raw)
        if self._check is not None:
            self._check(out)
        return Rules(self, out)

    def path_params(self) -> tuple[str, ...]:
        """The names of the parameters that can name a file (``kind="path"``)."""
        return tuple(p.name for p in self.params if p.kind == "path")

    def limit_params(self) -> tuple[str, ...]:
        """The names of the limit rules (``Param.limit``): games they end count as unfinished."""
        return tuple(p.name for p in self.params if p.limit)

    def refuse_paths(self, values: Mapping[str, Any], who: str = "the board") -> None:
        """``RulesError`` when ``values`` sets a path parameter to anything but its default.

        Why: a value from a page (new game, Compare, a setup) must never open a file on the server, and a
        different error for a missing file would tell the page which files exist. The error is the same
        whatever the value, and never repeats it.
        """
        for name in values:
            if name in self._by_name and self._by_name[name].kind == "path":
                param = self._by_name[name]
                value = values[name]
                if isinstance(value, str) and value.strip() == format_value(param.default):
                    continue
                raise RulesError(f"rule {name} can name a file, so {who} does not take it; "
                                 f"load a scenario that sets it instead")

    def confine_paths(self, values: Mapping[str, Any], bases: Sequence[Any]) -> dict[str, Any]:
        """``values`` with every path parameter resolved inside ``bases`` (the naming file's folder, then the
        game's data); ``RulesError`` naming the parameter when it points elsewhere (``safefile.confine``)."""
        from workbench.core.safefile import UnsafeFileError, confine

        out = dict(values)
        for name, value in values.items():
            param = self._by_name.get(name) if isinstance(name, str) else None
            if param is None or param.kind != "path" or not isinstance(value, str):
                continue
            if not value.strip() or value.strip() == format_value(param.default):
                continue
            try:
                out[name] = str(confine(value.strip(), bases))
            except UnsafeFileError as exc:
                raise RulesError(f"parameter {name}={_short(value)}: {exc}") from None
        return out

    def table(self) -> list[dict[str, str]]:
        """Rows for ``python -m workbench rules`` and the docs: name, default, allowed, source, meaning."""
        return [{"name": p.name, "default": format_value(p.default), "allowed": p.allowed(), "source": p.source,
                 "meaning": p.meaning} for p in self.params]


def parse_pairs(text: str) -> dict[str, str]:
    """``a=1,b=x`` (also with spaces) into ``{"a": "1", "b": "x"}``.

    A comma followed by text without ``=`` continues the previous value, so lists read naturally:
    ``bridges=b4,k4,fords=d5`` is ``{"bridges": "b4,k4", "fords": "d5"}``.
    """
    out: dict[str, str] = {}
    last: str | None = None
    for chunk in text.replace(" ", ",").split(","):
        if not chunk:
            continue
        if "=" in chunk:
            key, _, value = chunk.partition("=")
            key = key.strip()
            if not key:
                raise RulesError(f"{_short(chunk)}: a rule is written name=value")
            if key in out:
                raise RulesError(f"rule {_short(key)} is given twice; give each rule once")
            out[key] = value.strip()
            last = key
        elif last is not None:
            out[last] += "," + chunk.strip()
        else:
            raise RulesError(f"{_short(chunk)}: a rule is written name=value")
    return out


def spec_table(spec: RulesSpec, markdown: bool = True) -> str:
    """A game's rules as Markdown (docs) or aligned text (``python -m workbench rules --game NAME``)."""
    head = ("name", "default", "allowed", "rulebook source", "meaning")
    rows = [(r["name"], r["default"], r["allowed"], r["source"], r["meaning"]) for r in spec.table()]
    if markdown:
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        lines += ["| `" + r[0] + "` | " + " | ".join(r[1:]) + " |" for r in rows]
        return "\n".join(lines)
    widths = [max(len(str(r[i])) for r in [head, *rows]) for i in range(len(head))]
    fmt = "  ".join(f"{{:<{w}}}" for w in widths)
    return "\n".join(fmt.format(*r).rstrip() for r in [head, *rows])
