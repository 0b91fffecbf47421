"""TerraFeud's rules spec, built from the engine's one table (``engine.rules``), never copied.

Each ``Param`` parses through the engine's own coercion and ``RulesConfig`` validates the whole set,
so an error from ``--rules``, a scenario file or OpenSpiel's ``load_game`` reads exactly as the
engine's ("parameter archer_range=99 is out of range; allowed: whole numbers 2..10").
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from workbench.core.rulespec import Param, Rules, RulesError, RulesSpec
from workbench.games.terrafeud.engine import rules as engine_rules
from workbench.games.terrafeud.engine.rules import RulesConfig

_KIND = {bool: "bool", int: "int", str: "choice"}


def _parser(name: str):  # noqa: ANN202 - a closure per parameter
    """The engine's coercion and single-field checks for ``name`` (cross-field checks come later)."""

    def parse(value: Any) -> Any:
        try:
            coerced = engine_rules._coerce(name, value)
            if name in engine_rules._CROSSINGS:
                return engine_rules._crossing_names(name, coerced)
            if name in ("hills", "swamps"):
                return None if coerced is None else engine_rules._side_hexes(name, coerced)
            if name == "start":
                return engine_rules._start_path(coerced)
            if name == "draw_after":
                return RulesConfig(draw_after=coerced).draw_after
            if name in engine_rules._CHOICES or name in engine_rules._INTS:
                return getattr(RulesConfig(**{name: coerced}), name)
            return coerced
        except engine_rules.RulesError as exc:
            raise RulesError(str(exc)) from None

    return parse


def _check(values: dict[str, Any]) -> None:
    try:
        to_config(values)
    except engine_rules.RulesError as exc:
        raise RulesError(str(exc)) from None


def to_config(values: Rules | dict[str, Any]) -> RulesConfig:
    """The engine's ``RulesConfig`` of validated values."""
    data = dict(values)
    for name in ("hills", "swamps"):
        if data.get(name) is not None and not isinstance(data[name], dict):
            data[name] = dict(data[name])
    return RulesConfig(**data)


def from_config(config: RulesConfig) -> Rules:
    """The protocol's ``Rules`` of an engine config (same values)."""
    return spec().make({n: getattr(config, n) for n in RulesConfig.names()})


@lru_cache(maxsize=1)
def spec() -> RulesSpec:
    """Every toggle and parameter of TerraFeud, in the contract's order."""
    default = RulesConfig()
    params = []
    for row in engine_rules.PARAMETERS:
        value = getattr(default, row.name)
        low = high = None
        choices: tuple[Any, ...] = ()
        if row.name in engine_rules._CHOICES:
            choices = engine_rules._CHOICES[row.name]
            kind = "bool" if isinstance(choices[0], bool) else "choice"
        elif row.name in engine_rules._INTS:
            kind, (low, high) = "int", engine_rules._INTS[row.name]
        elif row.name == "draw_after":
            kind, low, high = "int", 1, engine_rules.DRAW_AFTER_MAX  # None (the default) means no draw rule
        elif row.name == "start":
            kind = "path"  # a start position on disk: never from a page (``RulesSpec.refuse_paths``)
        else:
            kind = "text"
        params.append(Param(row.name, kind, value, row.meaning, row.source, low=low, high=high,
                            choices=choices, custom=_parser(row.name)))
    return RulesSpec("terrafeud", params, check=_check)
