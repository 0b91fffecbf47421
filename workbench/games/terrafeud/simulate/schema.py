"""TerraFeud's tables: their fixed columns and types (``GAMES_SCHEMA``, ``EVENTS_SCHEMA``) and frames.

Other games' tables are typed from their rows (``workbench.simulate.schema.protocol_frame``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pandas as pd
import pyarrow as pa

from workbench.games.terrafeud.engine.telemetry import RULES
from workbench.simulate.schema import _frame  # noqa: F401 - re-exported: the tables' reader

SIDES = ("white", "black")
KINDS = ("feudal", "knight", "pikeman", "cavalry", "archer", "infantry")
_KIND_INDEX = {1: 0, 2: 1, 3: 2, 4: 3, 5: 4, 6: 5}  # piece kind code -> position in KINDS
TOGGLES = ("season", "hill", "swamp", "terrain", "castling", "archer_melee", "mate_defence", "draw_after",
           "pike_cavalry_mutual")
LOST_COLUMNS = [f"lost_{s}_{k}" for s in SIDES for k in KINDS]
# Rule parameters (issue 11, INTERFACES.md) and their column types; one column each, as for the toggles.
# ``bridges``/``fords`` are stored as "b4,f6,k4"; ``start`` as the scenario path, with the scenario's id and
# a hash of its position in ``start_id``/``start_hash`` (null for the classic start).
PARAMETERS: dict[str, pa.DataType] = {
    "archer_range": pa.int64(), "hill_bonus": pa.int64(), "aura_radius": pa.int64(), "aura_step": pa.int64(),
    "aura_memory": pa.bool_(), "coordinated": pa.int64(), "order_size": pa.int64(), "order_radius": pa.int64(),
    "castling_uses": pa.int64(), "promotion": pa.bool_(), "knight_bridge_stop": pa.bool_(),
    "bridges": pa.string(), "fords": pa.string(), "start": pa.string(),
}
RULE_COLUMNS = [f"rule_{r}_{s}" for r in RULES for s in SIDES]

GAMES_SCHEMA = pa.schema(
    [("game_id", pa.int64()), ("cell", pa.string())]
    + [(t, pa.bool_() if t in ("hill", "swamp", "archer_melee", "pike_cavalry_mutual") else
        pa.int64() if t == "draw_after" else pa.string()) for t in TOGGLES]
    + list(PARAMETERS.items()) + [("start_id", pa.string()), ("start_hash", pa.string())]
    + [(c, pa.string()) for c in ("hill_white", "hill_black", "swamp_white", "swamp_black",
                                  "white_agent", "black_agent")]
    + [("seed", pa.int64()), ("winner", pa.string()), ("victory", pa.string()), ("plies", pa.int64())]
    + [(c, pa.int64()) for c in LOST_COLUMNS]
    + [("seconds", pa.float64()), ("error", pa.string()), ("lead_changes", pa.int64()), ("drama", pa.float64()),
       ("mean_branching", pa.float64()), ("decision_share", pa.float64())]
    + [(c, pa.int64()) for c in RULE_COLUMNS]
    + [("engine", pa.string())]
    # multi-game columns (issue 17): what balance reads without knowing the game
    + [("game", pa.string()), ("outcome", pa.string()), ("players", pa.string()), ("max_plies", pa.int64())]
    # every game's agent columns (round 4): ``agent_<seat>``, beside the older white_agent/black_agent
    + [("agent_white", pa.string()), ("agent_black", pa.string())]
)
EVENTS_SCHEMA = pa.schema(
    [("game_id", pa.int64()), ("ply", pa.int64()), ("side", pa.string()), ("action", pa.string()),
     ("piece", pa.string()), ("from", pa.string()), ("to", pa.string()), ("captured", pa.string()),
     ("victims", pa.string()), ("n_legal", pa.int64()), ("eval_white", pa.float64()),
     ("rules", pa.string())]
)
GAME_COLUMNS = GAMES_SCHEMA.names
EVENT_COLUMNS = EVENTS_SCHEMA.names



# ---------------------------------------------------------------------- tables and files
def games_frame(rows: Iterable[dict[str, Any]]) -> pd.DataFrame:
    """The games table with its fixed column types (``draw_after`` nullable integer)."""
    return _frame(pa.Table.from_pylist(list(rows), schema=GAMES_SCHEMA))


def events_frame(rows: Iterable[dict[str, Any]]) -> pd.DataFrame:
    """The long-format events table with its fixed column types."""
    return pa.Table.from_pylist(list(rows), schema=EVENTS_SCHEMA).to_pandas()
