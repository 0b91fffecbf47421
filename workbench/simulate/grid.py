"""A grid as the command line writes it (``--grid season=summer,winter --grid archer_range=2..4``), for simulate
and every command above it (tune's space, the studies): one reader, so every command reads a grid alike."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from .seeds import SimulationError


def parse_grid(items: list[str]) -> dict[str, Sequence[Any]]:
    """``["season=summer,winter", "swamp=true,false"]`` into ``{"season": [...], "swamp": [...]}``."""
    grid: dict[str, Sequence[Any]] = {}
    for item in items:
        if "=" not in item:
            raise SimulationError(f"--grid {item!r}: use the form name=value1,value2")
        key, values = item.split("=", 1)
        key = key.strip()
        if key in grid:
            raise SimulationError(f"--grid {key!r} given twice; list all its values once: {key}=a,b")
        grid[key] = [x for v in values.split(",") if v.strip() for x in _expand_range(key, v.strip())]
        if not grid[key]:
            raise SimulationError(f"--grid {item!r}: no values")
    return grid


_RANGE = re.compile(r"^(-?\d+)\.\.(-?\d+)$")
MAX_RANGE = 100  # a typo like 2..2000 would otherwise build a huge grid before any check


def _expand_range(key: str, value: str) -> list[str]:
    """``2..4`` -> ``["2", "3", "4"]`` for numeric parameters; any other value as it is."""
    m = _RANGE.match(value)
    if not m:
        return [value]
    lo, hi = int(m.group(1)), int(m.group(2))
    if hi < lo:
        raise SimulationError(f"--grid {key}={value}: an empty range; write low..high, e.g. {key}={hi}..{lo}")
    if hi - lo + 1 > MAX_RANGE:
        raise SimulationError(f"--grid {key}={value}: {hi - lo + 1} values; at most {MAX_RANGE} per range")
    return [str(n) for n in range(lo, hi + 1)]
