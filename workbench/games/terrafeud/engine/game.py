"""The Game: rules, seed and terrain fixed once; it makes initial states (OpenSpiel's split).

``Game`` is the seam for other rulesets: drawing, agents and simulation only need
``new_initial_state()`` and the state's ``legal_actions/apply/undo/clone/is_terminal/returns``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from .board import Board, Terrain, board_data, resolve_terrain
from .geometry import mirror, parse_hex
from .pieces import BLACK, FEUDAL, KIND_BY_LETTER, WHITE, code
from .rules import RulesConfig, RulesError
from .state import GameState
from .telemetry import counters_from_dict


@dataclass(frozen=True)
class StartPosition:
    """A custom start (rule parameter ``start=PATH``), already resolved by the scenario layer.

    ``position`` holds the position fields in the ``state_to_dict`` vocabulary; ``rules`` are the
    effective rules of every game started from it (the file's rules, then the caller's non-default
    values, with ``start`` kept); ``id`` and ``digest`` identify it in result tables.
    """

    id: str
    digest: str
    position: dict[str, Any]
    rules: RulesConfig
    terrain: Terrain
    seed: int | None = 0

    @property
    def label(self) -> str:
        """``scenario-id@digest``: stable across machines while the file's position is unchanged."""
        return f"{self.id}@{self.digest}"


# The engine reads no files: ``workbench/__init__.py`` (the composition root) installs the scenario
# layer's resolver here, so ``make_game("start=my.yaml")`` works without the engine importing upward.
_start_loader: Callable[[RulesConfig], StartPosition] | None = None


def set_start_loader(loader: Callable[[RulesConfig], StartPosition] | None) -> None:
    """Install the function that turns ``RulesConfig(start=PATH)`` into a ``StartPosition``."""
    global _start_loader
    _start_loader = loader


def resolve_start(rules: RulesConfig) -> StartPosition:
    """The ``StartPosition`` of ``rules.start``; ``RulesError`` if it cannot be resolved."""
    if rules.start is None:
        raise RulesError("parameter start is not set (classic start)")
    if _start_loader is None:
        raise RulesError(f"parameter start={rules.start}: no scenario loader is installed (import workbench)")
    return _start_loader(rules)


@lru_cache(maxsize=256)
def _board(rules: RulesConfig, terrain: Terrain) -> Board:
    """Boards are immutable tables: games with the same rules and terrain share one."""
    return Board(rules, terrain)


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
    start: StartPosition | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if self.terrain is None:
            object.__setattr__(self, "terrain", resolve_terrain(self.rules, self.seed))
        object.__setattr__(self, "board", _board(self.rules, self.terrain))  # type: ignore[arg-type]

    board: Any = field(init=False, repr=False, compare=False, default=None)

    @property
    def start_id(self) -> str | None:
        """Scenario id of a custom start (None: classic), for result tables."""
        return self.start.id if self.start is not None else None

    @property
    def start_hash(self) -> str | None:
        """Digest of a custom start's position (None: classic), for result tables."""
        return self.start.digest if self.start is not None else None

    def new_initial_state(self) -> GameState:
        """The start position: the classic setup, White to move, or the ``start=`` file's position."""
        start = self.start
        if start is None and self.rules.start is not None:
            # Built directly (not by make_game): resolve now, in a Game with the start's own rules
            # and terrain, so the position is never read under other tables.
            return make_game(self.rules, self.seed).new_initial_state()
        if start is None:
            return self.state_from_pieces(classic_setup(), to_move=WHITE)
        from .serialize import position_fields  # serialize imports this module

        pieces, to_move, extra = position_fields(self, start.position)
        return self.state_from_pieces(pieces, to_move, **extra)

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
        st.castled = [int(x) for x in extra.get("castled", [0, 0])]
        st.aura_ready = set(extra.get("aura_ready", ()))
        st.destroyed = [list(destroyed[0]), list(destroyed[1])]
        st.ply = int(extra.get("ply", 0))
        st.quiet = int(extra.get("quiet", 0))
        if extra.get("counters") is not None:
            st.counters = counters_from_dict(extra["counters"])
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
    """A ``Game`` from rules given as a config, a mapping or a ``key=value`` string.

    With ``start=PATH`` the start file is resolved here: its position, its terrain and its rules
    (with the caller's non-default values on top) make the game; ``seed`` is still the game's seed.
    """
    if rules is None:
        rules = RulesConfig()
    elif isinstance(rules, str):
        rules = RulesConfig.parse(rules)
    elif isinstance(rules, dict):
        rules = RulesConfig.from_dict(rules)
    if rules.start is not None:
        start = resolve_start(rules)
        return Game(rules=start.rules, seed=seed, terrain=start.terrain, start=start)
    return Game(rules=rules, seed=seed)
