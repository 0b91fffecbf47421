"""The simulation layer's one-game and file machinery, re-exported from its modules.

``seeds`` (seeds, specs, errors), ``paths`` (which code plays a game: ``play_game``, ``play_chunk``),
``protocol_play`` (any game of the protocol), ``schema`` (frames of any game's rows) and ``dataset``
(Parquet folders). Kept so that ``from workbench.simulate.core import ...`` goes on working for every
caller.

TerraFeud shortcuts: its own path (grids of ``RulesConfig``, its fixed schema ``GAMES_SCHEMA``, ``RULES``,
``replay_game``, ``drama`` ...) lives in ``workbench.games.terrafeud.simulate``; the names in
``SHORTCUTS`` resolve there lazily, through the registry, so this package imports no game.
"""

from __future__ import annotations

from typing import Any

from workbench.games import shortcut

from .dataset import (  # noqa: F401 - re-exported
    DAMAGED_PREFIX,
    MERGE_ROWS,
    PART_NAME,
    RUN_KEY,
    DamagedPartError,
    PartWriter,
    _damage,
    _describe_run,
    _parts,
    _read_part,
    _run_of,
    _schema_game,
    _write_atomic,
    check_one_batch,
    compact_dataset,
    events_path,
    read_events,
    read_results,
    run_manifest,
)
from .paths import error_result, own_path, play_chunk, play_game  # noqa: F401 - re-exported
from .schema import _concat, protocol_frame  # noqa: F401 - re-exported
from .seeds import (  # noqa: F401 - re-exported
    MAX_CELLS,
    GameResult,
    GameSpec,
    SimulationError,
    SimulationNotice,
    agent_seed,
    derive_seed,
    game_seed,
)

SHORTCUTS = (
    "EVENT_COLUMNS", "EVENTS_SCHEMA", "GAME_COLUMNS", "GAMES_SCHEMA", "KINDS", "LOST_COLUMNS", "PARAMETERS", "RULES",
    "RULE_COLUMNS", "SIDES", "TOGGLES", "_KIND_INDEX", "GameSpecs", "_base_row", "_check_grid_values", "_counts",
    "_deaths", "_distinct", "_frame", "_letter", "_missing", "_plain", "_promotions", "_steps", "check_start", "drama",
    "events_frame", "expand_grid", "fired_text", "games_frame", "lead_changes", "make_specs", "replay_game",
    "rule_alone", "rule_columns", "rule_counts",
)


def __getattr__(name: str) -> Any:
    """TerraFeud's simulate names, from before the workbench hosted several games."""
    if name in SHORTCUTS:
        return shortcut("simulate", name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [  # noqa: F822 - some are lazy, see __getattr__
    "EVENT_COLUMNS", "GAME_COLUMNS", "PARAMETERS", "RULES", "RULE_COLUMNS", "DamagedPartError", "GameResult", "GameSpec",
    "GameSpecs", "PartWriter", "SimulationError", "agent_seed",
    "drama", "error_result", "events_frame", "events_path", "expand_grid", "game_seed", "games_frame",
    "fired_text", "lead_changes", "make_specs", "play_chunk", "play_game", "read_events",
    "read_results", "replay_game", "rule_columns", "rule_counts",
]
