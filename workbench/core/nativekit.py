"""The kit of a game's native adapter (``workbench/games/<game>/native.py``), written once.

A game's native core plays (legal actions, apply, undo, evaluation, counters, ``fired``) while its Python
engine stays the specification: whatever the core does not compute (notation, ``to_dict``, pictures, reasons
for an illegal action) is asked of a Python state rebuilt from the core's fields. What every such adapter
shares lives here:

- :func:`core_module`: the game's submodule of ``workbench._native``, or None when the core is not built;
- :class:`MirroredState`: a protocol state over a core state, with the cached Python twin and every query
  answered by it;
- :class:`CoreAgent`: the native twin of a generic agent (``workbench.core.agents.NativeTwin``) whose core
  holds the generic agents under their names (``Agent(name, params, seed)``);
- ``GENERIC_AGENT_NAMES``/``GENERIC_AGENT_PARAMS``: what those cores read;
- :func:`native_seats` and :func:`play_in_core`: a simulate spec's whole game played inside a core (seats'
  agents checked by their Python twins and seeded as they are; the row and events a game fills, and an error
  row when it raises), the rows ``play_protocol_game`` would write.
"""

from __future__ import annotations

import importlib
import random
import time
from collections.abc import Callable, Collection, Sequence
from typing import Any, ClassVar

from .agents import NativeTwin, native_agent_specs, native_params, opening_params, protocol_agent
from .protocol import ClickStep, GameDef, IllegalAction, State
from .rows import GameResult, base_row, close_row, derive, error_row, finish_row, seat_agents
from .rulespec import Rules

#: the generic agents every protocol game's core holds (``crate::core::generic::NAMES``)
GENERIC_AGENT_NAMES: tuple[str, ...] = ("random", "greedy", "alphabeta", "mcts", "search", "plan")
#: the parameters those cores read (``bindings::generic_params``)
GENERIC_AGENT_PARAMS = frozenset({"depth", "nodes", "seconds", "iterations", "c", "rollout", "scale", "beam",
                                  "steps", "reply", "odds", "prior", "epsilon"})
#: those and ``eval=NAME`` (learned weights) for a core that computes the game's evaluation features
#: (``Game::features`` in Rust, the twin of ``GameDef.evaluation_features``)
LEARNED_AGENT_PARAMS = GENERIC_AGENT_PARAMS | {"eval"}


def core_module(name: str) -> Any:
    """``workbench._native.<name>``, or None when the core is not built (or predates that game)."""
    try:
        mod = importlib.import_module("workbench._native")
    except ImportError:
        return None
    return getattr(mod, name, None)


class MirroredState(State):
    """A state played by a native core (``native``); every answer the core does not compute comes from the
    Python engine's state equal to it (``python()``, rebuilt from the core's fields and cached until the next
    change), so both engines print, save and explain alike."""

    engine = "native"
    #: attributes of the adapter itself, never looked up on the Python twin
    OWN: ClassVar[frozenset[str]] = frozenset({"native", "_py"})

    native: Any
    _py: Any = None

    def rebuild(self) -> Any:
        """The Python engine's state equal to the core's (no undo history)."""
        raise NotImplementedError

    def python(self) -> Any:
        """The Python engine's state equal to this one (cached until the next change)."""
        if self._py is None:
            self._py = self.rebuild()
        return self._py

    def _changed(self) -> None:
        """Forget what was derived from the position (the core moved)."""
        self._py = None

    # ---------------------------------------------------------------- played by the core
    def undo_action(self) -> None:
        if not self.native.history_len():
            raise IllegalAction("undo: no action to take back")
        self.native.undo()
        self._changed()

    def fired(self) -> list[tuple[str, int, int | None]]:
        return [(r, s, c) for r, s, c in self.native.fired()]

    def evaluate(self, player: int) -> float:
        return float(self.native.evaluate(player))

    # ---------------------------------------------------------------- asked of the Python engine
    def explain_illegal(self, text: str) -> str:
        return str(self.python().explain_illegal(text))

    def to_dict(self) -> dict[str, Any]:
        return dict(self.python().to_dict())

    def observation_string(self, player: int | None = None) -> str:
        return str(self.python().observation_string(player))

    def summary(self, player: int | None = None) -> dict[str, Any]:
        return dict(self.python().summary(player))

    def glyphs(self) -> list[Any]:
        return list(self.python().glyphs())

    def heat(self, layer: str, player: int) -> dict[int, float]:
        return dict(self.python().heat(layer, player))

    def action_cells(self, action: Any) -> list[int]:
        return list(self.python().action_cells(action))

    def action_effects(self, action: Any) -> dict[str, Any]:
        return dict(self.python().action_effects(action))

    def attackers(self) -> list[tuple[int, int, int]]:
        return list(self.python().attackers())

    def click_step(self, cells: Sequence[int]) -> ClickStep | None:
        got: ClickStep | None = self.python().click_step(cells)
        return got

    def attack_lines(self) -> list[tuple[int, int, int]]:
        return list(self.python().attack_lines())

    def __getattr__(self, name: str) -> Any:
        """Any other read-only query of the Python state, from the Python twin."""
        if name.startswith("__") or name in type(self).OWN:
            raise AttributeError(name)
        return getattr(self.python(), name)

    def __str__(self) -> str:
        return self.observation_string()


class CoreAgent(NativeTwin):
    """The native twin of a generic agent on a core that holds the generic agents (``Agent(name, params,
    seed)`` of the game's submodule, seeded as ``random.Random(seed)``). A game names its submodule."""

    PARAMS = GENERIC_AGENT_PARAMS
    NAMES = GENERIC_AGENT_NAMES
    #: the game's submodule of ``workbench._native``
    SUBMODULE: ClassVar[str] = ""

    def core_agent(self, base: str, params: dict[str, float], seed: int | None) -> Any:
        mod = core_module(self.SUBMODULE)
        if mod is None:
            raise RuntimeError("the native core is not built (make native)")
        if seed is None:  # an unseeded agent: a fresh stream, as random.Random(None)
            seed = random.SystemRandom().getrandbits(64)
        return mod.Agent(base, params, seed)


def native_seats(spec: Any, game: GameDef, rules: Rules, names: Collection[str] = GENERIC_AGENT_NAMES,
                 params: Collection[str] = GENERIC_AGENT_PARAMS) -> list[tuple[str, dict[str, Any] | None, int]]:
    """Every seat's ``(name, params or None, seed)`` for a core's whole game: each agent built once by its Python
    twin (which checks every parameter), seeded as the Python loop seeds it, learned weights (``eval=NAME``) as
    the vector of the game's features; ``ValueError`` when a seat has no twin in the core (``native_agent_specs``)."""
    n = game.info(rules).num_players
    specs = seat_agents(spec, n)
    seeds = [derive(f"{spec.game}-agent", spec.seed, i) for i in range(n)]
    for name, s in zip(specs, seeds, strict=True):
        protocol_agent(name, game, rules, s)
    native = native_agent_specs(specs, names, params)
    if native is None:
        raise ValueError(f"an agent of {', '.join(specs)} has no native twin")
    known = frozenset(params)
    opening = opening_params(spec.opening, spec.opening_seed)  # the batch's random opening, every seat alike
    return [(base, {**native_params(p, known, game=game), **opening} or None, s)
            for (base, p), s in zip(native, seeds, strict=True)]


class CoreGame:
    """One whole game of a simulate spec played in a core: what its body fills (the final Python ``state``,
    the legal counts before each action, the events rows) on top of the spec's base row."""

    def __init__(self, spec: Any, game: GameDef, rules: Rules) -> None:
        self.spec, self.game, self.rules = spec, game, rules
        self.row = base_row(spec, game, rules)
        self.row["engine"] = "native"
        self.state: Any = None
        self.n_legal: list[int] = []
        self.events: list[dict[str, Any]] = []


def play_in_core(spec: Any, game: GameDef, body: Callable[[CoreGame], None]) -> GameResult:
    """``body`` plays ``spec``'s game in the core and fills a :class:`CoreGame`; the ``GameResult``
    ``play_protocol_game`` would return (an exception is the game's error row: a failing game is data)."""
    t0 = time.perf_counter()
    rules = game.spec.make(spec.rules)
    g = CoreGame(spec, game, rules)
    try:
        body(g)
        finish_row(g.row, game, game.info(rules), g.state)
    except Exception as exc:  # noqa: BLE001 - a failing game is data, the batch goes on
        error_row(g.row, g.state, exc)
    return GameResult(close_row(g.row, g.state, g.n_legal, t0), g.events)


__all__ = ["GENERIC_AGENT_NAMES", "GENERIC_AGENT_PARAMS", "LEARNED_AGENT_PARAMS", "CoreAgent", "CoreGame", "MirroredState", "core_module",
           "native_seats", "play_in_core"]
