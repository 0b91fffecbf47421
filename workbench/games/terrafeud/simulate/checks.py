"""TerraFeud's checks of a batch before its first game: every cell's ``Game`` builds, its row fits
the fixed games table, and no agent is stranded by a start the native core cannot hold."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pyarrow as pa

from workbench.games.terrafeud.engine import make_game
from workbench.simulate.seeds import GameSpec, SimulationError

from .play import _base_row
from .schema import GAMES_SCHEMA


def check_cells(specs: Sequence[GameSpec]) -> None:
    """Each grid cell's game can be set up, and its row fits the games table's column types.

    The first game of each cell builds its ``Game`` (terrain hexes, scenario start, ...) and its
    table row is converted column by column, so a value that cannot be stored is named here.
    """
    seen: set[str] = set()
    firsts = getattr(specs, "firsts", None)  # a lazy spec list names each cell's first game directly
    for spec in firsts() if firsts is not None else specs:
        if spec.cell in seen:
            continue
        seen.add(spec.cell)
        try:
            game = make_game(spec.rules, seed=spec.seed)
        except (ValueError, TypeError, OverflowError) as exc:
            raise SimulationError(f"grid cell {spec.cell}: {exc}") from None
        check_engines(spec, game.new_initial_state())
        row = _base_row(spec)
        for fld in GAMES_SCHEMA:
            if fld.name not in row:
                continue
            try:
                pa.array([row[fld.name]], type=fld.type)
            except (pa.ArrowException, OverflowError, TypeError, ValueError):
                raise SimulationError(
                    f"grid cell {spec.cell}: {fld.name}={row[fld.name]!r} does not fit the games table "
                    f"(column type {fld.type})") from None


def check_engines(spec: GameSpec, start: Any) -> None:
    """Agents never strand a game: where the native core cannot hold a cell's start, a native agent
    searches with its Python twin (said once, here, before any game); an agent pinned to
    ``engine=native`` cannot, so the batch is refused before its first game."""
    from workbench.games.terrafeud import native

    if not native.available() or native.supports(start):
        return
    from workbench.agents import agent_engine, parse_agent_spec
    from workbench.games.terrafeud.agents.native_agent import fallback_notice, say_once

    reason = native.unsupported_reason(start)
    for agent in dict.fromkeys((spec.white, spec.black)):
        base, params = parse_agent_spec(agent)
        pinned = str(params.get("engine", "auto")).strip().lower()
        if pinned == "native":
            raise SimulationError(
                f"grid cell {spec.cell}: agent {agent} is pinned to engine=native, but the native core cannot hold "
                f"the start position ({reason}); use engine=auto (its Python twin plays it) or engine=python")
        if agent_engine(base, pinned) == "native" and spec.engine != "python":
            say_once(fallback_notice(agent, reason))
