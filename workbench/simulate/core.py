"""The simulation layer's one-game and file machinery, re-exported from its modules.

``seeds`` (seeds, specs, errors), ``paths`` (``play_game``, ``play_chunk``), ``protocol_play`` (grids,
specs and the one loop every game plays through), ``schema`` (frames typed by a game's declared columns) and
``dataset`` (Parquet folders). Kept so that ``from workbench.simulate.core import ...`` goes on working for
every caller, notebooks included: ``expand_grid``, ``make_specs``, ``play_game``, ``games_frame``,
``events_frame`` take the game last (the registry's default when not given).
"""

from __future__ import annotations

from typing import Any

from workbench.games import DEFAULT

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
from .paths import error_result, play_chunk, play_game  # noqa: F401 - re-exported
from .protocol_play import GameSpecs, expand_grid, protocol_specs, replay_game  # noqa: F401 - re-exported
from .schema import _concat, events_frame, events_schema, games_frame, games_schema, protocol_frame  # noqa: F401
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


def make_specs(cells: list[Any], white: str, black: str, games: int, seed: int, max_plies: int, events: bool,
               engine: str = "python", game: str = DEFAULT, agents: tuple[str, ...] = ()) -> GameSpecs:
    """``protocol_specs`` in the argument order older code calls it (the game last, the registry's default; ``white``
    and ``black`` the two-seat shorthand, ``agents`` the seats' agents when given)."""
    from .protocol_play import expand_protocol_grid

    rules = expand_protocol_grid(game, cells)
    return protocol_specs(game, rules, tuple(agents) or (white, black), games, seed, max_plies, events, engine)


__all__ = [
    "DamagedPartError", "GameResult", "GameSpec", "GameSpecs", "PartWriter", "SimulationError", "SimulationNotice",
    "agent_seed", "compact_dataset", "derive_seed", "protocol_frame", "run_manifest",
    "error_result", "events_frame", "events_path", "expand_grid", "game_seed", "games_frame", "make_specs",
    "play_chunk", "play_game", "read_events", "read_results", "replay_game",
]
