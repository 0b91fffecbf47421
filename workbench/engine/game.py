"""The Game: rules, seed and terrain fixed once; it makes initial states (OpenSpiel's split).

``Game`` is the seam for other rulesets: drawing, agents and simulation only need
``new_initial_state()`` and the state's ``legal_actions/apply/undo/clone/is_terminal/returns``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .board import Board, Terrain, board_data, resolve_terrain
from .geometry import mirror, parse_hex
from .pieces import BLACK, FEUDAL, KIND_BY_LETTER, WHITE, code
from .rules import RulesConfig
from .state import GameState


def classic_setup() -> dict[int, int]:
    """The classic setup from the data file: hex -> piece code, Black mirrored (section 3)."""
    out: dict[int, int] = {}
    for letter, hexes in board_data()["setup_white"].items():
        for name in hexes:
            h = parse_hex(name)
            out[h] = code(KIND_BY_LETTER[letter], WHITE)
            out[mirror(h)] = code(KIND_BY_LETTER[letter], BLACK)
    return out


@dataclass(frozen=True)
class Game:
    """One TerraFeud game's fixed parameters. Immutable; states share it."""

    rules: RulesConfig = field(default_factory=RulesConfig)
    seed: int | None = 0
    terrain: Terrain | None = None
    name: str = "terrafeud"

    def __post_init__(self) -> None:
        if self.terrain is None:
            object.__setattr__(self, "terrain", resolve_terrain(self.rules, self.seed))
        object.__setattr__(self, "board", Board(self.rules, self.terrain))  # type: ignore[arg-type]

    board: Any = field(init=False, repr=False, compare=False, default=None)

    def new_initial_state(self) -> GameState:
        """The classic start, White to move."""
        return self.state_from_pieces(classic_setup(), to_move=WHITE)

    def state_from_pieces(self, pieces: dict[int, int], to_move: int = WHITE, **extra: Any) -> GameState:
        """A state from hex -> piece code plus optional fields (markers, pending, castled, ...).

        Runs the W10 mate test, since a loaded position is the start of a turn.
        """
        st = GameState(self)
        for h, c in pieces.items():
            st.squares[h] = c
        for h, c in pieces.items():
            if c & 7 == FEUDAL:
                st.feudal[c >> 3] = h
        st.to_move = to_move
        markers = extra.get("markers", ({}, {}))
        destroyed = extra.get("destroyed", ((), ()))
        st.markers = [dict(markers[0]), dict(markers[1])]
        st.pending = frozenset(extra.get("pending", ()))
        st.castled = list(extra.get("castled", [False, False]))
        st.aura_ready = set(extra.get("aura_ready", ()))
        st.destroyed = [list(destroyed[0]), list(destroyed[1])]
        st.ply = int(extra.get("ply", 0))
        st.quiet = int(extra.get("quiet", 0))
        if "victory" in extra and extra["victory"] is not None:
            st.victory = extra["victory"]
            st.winner = extra.get("winner")
        elif st.feudal[to_move] >= 0 and st.is_checkmated(to_move):
            st.winner = 1 - to_move
            st.victory = "checkmate"
        return st


def new_game(rules: RulesConfig | dict | str | None = None, seed: int | None = 0) -> GameState:
    """A new game at the classic start: ``new_game("season=winter", seed=3)``."""
    return make_game(rules, seed).new_initial_state()


def make_game(rules: RulesConfig | dict | str | None = None, seed: int | None = 0) -> Game:
    """A ``Game`` from rules given as a config, a mapping or a ``key=value`` string."""
    if rules is None:
        rules = RulesConfig()
    elif isinstance(rules, str):
        rules = RulesConfig.parse(rules)
    elif isinstance(rules, dict):
        rules = RulesConfig.from_dict(rules)
    return Game(rules=rules, seed=seed)
