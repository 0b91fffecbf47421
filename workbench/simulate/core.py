"""The simulation layer's one-game and file machinery, re-exported from its modules.

``seeds`` (seeds, specs, errors), ``grid`` (TerraFeud's grids), ``play`` (one TerraFeud game), ``schema``
(columns and frames) and ``dataset`` (Parquet folders). Kept so that ``from workbench.simulate.core import
...`` goes on working for every caller.
"""

from __future__ import annotations

from workbench.games.terrafeud.engine.telemetry import RULES  # noqa: F401 - re-exported

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
from .grid import (  # noqa: F401 - re-exported
    GameSpecs,
    _check_grid_values,
    _distinct,
    check_start,
    expand_grid,
    make_specs,
    rule_alone,
)
from .play import (  # noqa: F401 - re-exported
    _base_row,
    _counts,
    _deaths,
    _letter,
    _missing,
    _plain,
    _promotions,
    _steps,
    drama,
    error_result,
    fired_text,
    lead_changes,
    play_chunk,
    play_game,
    replay_game,
    rule_columns,
    rule_counts,
)
from .schema import (  # noqa: F401 - re-exported
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
    _concat,
    _frame,
    events_frame,
    games_frame,
    protocol_frame,
)
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

__all__ = [
    "EVENT_COLUMNS", "GAME_COLUMNS", "PARAMETERS", "RULES", "RULE_COLUMNS", "DamagedPartError", "GameResult", "GameSpec",
    "GameSpecs", "PartWriter", "SimulationError", "agent_seed",
    "drama", "error_result", "events_frame", "events_path", "expand_grid", "game_seed", "games_frame",
    "fired_text", "lead_changes", "make_specs", "play_chunk", "play_game", "read_events",
    "read_results", "replay_game", "rule_columns", "rule_counts",
]

