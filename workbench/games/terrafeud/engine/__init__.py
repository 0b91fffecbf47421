"""The TerraFeud rules engine: pure Python, standard library only, the hot path of everything.

Typical use::

    from workbench.games.terrafeud.engine import new_game
    st = new_game("season=winter", seed=1)
    st.play("f3-f5")
    st.legal_actions()
"""

from .board import Board, Terrain
from .game import Game, StartPosition, classic_setup, make_game, new_game
from .geometry import HEX_NAMES, hex_name, parse_hex
from .notation import NotationError, explain_illegal, format_action, parse_action, read_action
from .pieces import BLACK, SIDE_NAMES, WHITE
from .rules import RulesConfig, RulesError
from .serialize import (
    RecordError,
    load_record,
    load_record_text,
    record_of,
    save_record,
    state_from_dict,
    state_to_dict,
)
from .state import CASTLE, MOVE, ORDER, PASS, SHOT, Action, GameState, IllegalActionError, order_steps
from .telemetry import RULES, counters_dict, fired_text

__all__ = [
    "BLACK", "CASTLE", "HEX_NAMES", "MOVE", "ORDER", "PASS", "RULES", "SHOT", "SIDE_NAMES", "WHITE",
    "Action", "Board", "Game", "GameState", "StartPosition", "counters_dict", "fired_text", "order_steps", "IllegalActionError", "NotationError", "RecordError",
    "RulesConfig", "RulesError", "Terrain", "classic_setup", "explain_illegal", "format_action",
    "hex_name", "load_record", "load_record_text", "make_game", "new_game", "parse_action", "parse_hex", "read_action",
    "record_of", "save_record", "state_from_dict", "state_to_dict",
]
