"""TerraFeud's grids: cells of toggles and parameters, each value checked alone, then each combination.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Sequence
from typing import Any

from workbench.games.terrafeud.engine import RulesConfig
from workbench.games.terrafeud.engine.game import resolve_start
from workbench.simulate.seeds import MAX_CELLS, GameSpec, SimulationError, game_seed


def expand_grid(grid: dict[str, Sequence[Any]] | Sequence[RulesConfig | dict | str] | None) -> list[RulesConfig]:
    """Grid cells: the cartesian product of a toggle/parameter -> values mapping, or a list of configs.

    Every value is checked on its own first, so a bad one is named with its toggle or parameter
    (``grid archer_range=0: ...``) before any cell is built and before any game is played; then
    each combination is checked (a ford on a bridge only shows in the combination).
    """
    if grid is None:
        return [RulesConfig()]
    try:
        if isinstance(grid, dict):
            keys = list(grid)
            values = [list(v) if isinstance(v, (list, tuple)) else [v] for v in grid.values()]
            size = math.prod(len(v) for v in values)
            if size > MAX_CELLS:  # before any cell is built: 100**5 cells would never finish building
                shown = " x ".join(f"{len(v)} {k}" for k, v in zip(keys, values, strict=True))
                raise SimulationError(f"grid: {shown} = {size:,} cells; at most {MAX_CELLS:,} per batch")
            for k, v in zip(keys, values, strict=True):
                if not v:
                    raise SimulationError(f"grid toggle {k!r} has no values")
                _check_grid_values(k, v)
            cells = []
            for combo in itertools.product(*values):
                pairs = dict(zip(keys, combo, strict=True))
                try:
                    cells.append(RulesConfig.from_dict(pairs))
                except ValueError as exc:
                    shown = " ".join(f"{k}={v}" for k, v in pairs.items())
                    raise SimulationError(f"grid cell {shown}: {exc}") from None
            return _distinct(cells)
        cells = []
        for item in grid:
            if isinstance(item, RulesConfig):
                cells.append(item)
            elif isinstance(item, dict):
                cells.append(RulesConfig.from_dict(item))
            elif isinstance(item, str):
                cells.append(RulesConfig.parse(item))
            else:
                raise SimulationError(f"grid cell {item!r} must be a RulesConfig, a dict or a 'key=value' string")
    except ValueError as exc:
        if isinstance(exc, SimulationError):
            raise
        raise SimulationError(f"grid: {exc}") from None
    if not cells:
        raise SimulationError("grid: no cells to play")
    for c in cells:
        check_start(c)
    return _distinct(cells)


def _check_grid_values(key: str, values: list[Any]) -> None:
    """Each value of one grid key alone: valid for its toggle/parameter, listed once, its start file loads."""
    seen: dict[str, Any] = {}
    for v in values:
        try:
            config = RulesConfig.from_dict(rule_alone(key, v))
            check_start(config)
        except ValueError as exc:
            raise SimulationError(f"grid {key}={v}: {exc}") from None
        canonical = json.dumps(config.to_dict(), sort_keys=True, default=str)
        if canonical in seen:
            raise SimulationError(f"grid {key}: the values {seen[canonical]!r} and {v!r} are the same rule; "
                                  "list each value once")
        seen[canonical] = v


def rule_alone(key: str, value: Any) -> dict[str, Any]:
    """One value checked by itself: a crossing list without the checks that need the other list
    (``bridges=b4/k4`` with ``fords=d5/f6/h5`` is valid only together; the combination is checked)."""
    if key == "bridges":
        return {"bridges": value, "fords": "none", "knight_bridge_stop": False}
    if key == "fords":
        return {"fords": value, "bridges": "none"}
    if key == "knight_bridge_stop":
        return {"knight_bridge_stop": value, "bridges": "none"}
    return {key: value}


def check_start(config: RulesConfig) -> None:
    """A ``start=`` scenario must load before any game is played (its id and hash go in every row)."""
    if config.start is not None:
        resolve_start(config)  # RulesError names the parameter, the file and the reason


def _distinct(cells: list[RulesConfig]) -> list[RulesConfig]:
    """Refuse a grid whose cells repeat (their games would be counted twice under one label)."""
    seen: set[str] = set()
    for c in cells:
        if c.label() in seen:
            raise SimulationError(f"grid: the cell {c.label()} appears twice")
        seen.add(c.label())
    return cells


class GameSpecs(Sequence):
    """The batch's game specs, made on demand: ``cells x games`` of them are never all in memory
    at once unless a caller lists them (``game_id = cell_index * games + game_index``)."""

    def __init__(self, cells: list[RulesConfig], white: str, black: str, games: int, seed: int, max_plies: int,
                 events: bool, engine: str = "python") -> None:
        self._cells = [(rules.label(), rules.to_dict()) for rules in cells]
        self._args = (white, black, games, seed, max_plies, events, engine)

    def __len__(self) -> int:
        return len(self._cells) * self._args[2]

    def _spec(self, i: int) -> GameSpec:
        white, black, games, seed, max_plies, events, engine = self._args
        ci, gi = divmod(i, games)
        label, data = self._cells[ci]
        return GameSpec(i, label, data, white, black, game_seed(seed, ci, gi), max_plies, events, engine)

    def __getitem__(self, index):  # noqa: ANN001, ANN204 - int or slice, as a Sequence's
        if isinstance(index, slice):
            return [self._spec(i) for i in range(*index.indices(len(self)))]
        n = len(self)
        i = index + n if index < 0 else index
        if not 0 <= i < n:
            raise IndexError("game spec index out of range")
        return self._spec(i)

    def __iter__(self):  # noqa: ANN204
        return (self._spec(i) for i in range(len(self)))

    def firsts(self) -> list[GameSpec]:
        """The first game of every cell (what ``guard.check_cells`` tries before any game)."""
        return [self._spec(ci * self._args[2]) for ci in range(len(self._cells))]


def make_specs(cells: list[RulesConfig], white: str, black: str, games: int, seed: int, max_plies: int,
               events: bool, engine: str = "python") -> GameSpecs:
    """Game specs for ``games`` games per cell, built lazily; ``game_id = cell_index * games + game_index``."""
    return GameSpecs(cells, white, black, games, seed, max_plies, events, engine)
