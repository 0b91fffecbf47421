"""TerraFeud's own simulate path: White against Black, its fixed table schema, the native whole-game loop.

It predates the protocol and is kept because its rows (toggle and parameter columns, ``lost_<side>_<kind>``,
``hill_white``, drama, ...) and its speed (whole games in Rust, no Python per ply) are what TerraFeud's
studies and benchmarks are built on. ``workbench.simulate`` finds it through ``GAME.shortcuts["simulate"]``
(``workbench.simulate.paths.own_path``) and calls exactly the names below; a game without such a module
plays through ``workbench.simulate.protocol_play``.

- ``expand_grid(grid)`` / ``make_specs(cells, white, black, games, seed, max_plies, events, engine)``: cells
  (each value checked alone, then each combination) and lazy specs; ``check_value(key, value)`` one value;
  ``parse_pairs(text)`` reads ``--rules`` (the engine's reading: hex lists after bridges/fords);
- ``resolve_engine(engine)``, ``check_cells(specs)``: before the first game;
- ``play_game(spec)`` (one row and its events, never raising), ``base_row(spec)`` (a row without a game);
- ``GAMES_SCHEMA``, ``EVENTS_SCHEMA``, ``games_frame``, ``events_frame``, ``frame`` (a read table);
- ``replay_game(row)``; ``RULES`` (the rule-usage counters).
"""

from __future__ import annotations

from typing import Any

from workbench.games.terrafeud.engine import RulesConfig
from workbench.games.terrafeud.engine.rules import parse_pairs
from workbench.games.terrafeud.engine.telemetry import RULES
from workbench.games.terrafeud.native import resolve_engine

from .checks import check_cells, check_engines
from .grid import GameSpecs, _check_grid_values, _distinct, check_start, expand_grid, make_specs, rule_alone
from .play import (
    _base_row,
    _counts,
    _deaths,
    _letter,
    _missing,
    _plain,
    _promotions,
    _steps,
    drama,
    fired_text,
    lead_changes,
    play_game,
    replay_game,
    rule_columns,
    rule_counts,
)
from .schema import (
    _KIND_INDEX,
    EVENT_COLUMNS,
    EVENTS_SCHEMA,
    GAME_COLUMNS,
    GAMES_SCHEMA,
    KINDS,
    LOST_COLUMNS,
    PARAMETERS,
    RULE_COLUMNS,
    SIDES,
    TOGGLES,
    _frame,
    events_frame,
    games_frame,
)

base_row = _base_row
frame = _frame


def check_value(key: str, value: Any) -> None:
    """One ``--rules``/``--grid`` value alone (``RulesError`` naming it), a ``start=`` file loaded too."""
    check_start(RulesConfig.from_dict(rule_alone(key, value)))


__all__ = [
    "EVENTS_SCHEMA", "EVENT_COLUMNS", "GAMES_SCHEMA", "GAME_COLUMNS", "KINDS", "LOST_COLUMNS", "PARAMETERS", "RULES",
    "RULE_COLUMNS", "SIDES", "TOGGLES", "_KIND_INDEX", "GameSpecs", "_base_row", "_check_grid_values", "_counts",
    "_deaths", "_distinct", "_frame", "_letter", "_missing", "_plain", "_promotions", "_steps", "base_row",
    "check_cells", "check_engines", "check_start", "check_value", "drama", "events_frame", "expand_grid",
    "fired_text", "frame", "games_frame", "lead_changes", "make_specs", "play_game", "replay_game",
    "parse_pairs", "resolve_engine", "rule_alone", "rule_columns", "rule_counts",
]
