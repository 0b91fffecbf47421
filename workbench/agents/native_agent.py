"""Native agents: the Rust twins of ``random``, ``greedy``, ``alphabeta``, ``mcts`` and ``search``.

``make_agent(spec, seed, engine="native")`` (or ``"auto"`` when the native core is built) returns a
``NativeAgent``. It has the Python agent's interface, so the widget and the Python game loop use
it unchanged: ``select_action(state)`` takes a Python ``GameState`` (converted into the native
state) or a native state, searches in Rust, and returns the action as the engine's tuple.
Whole games on the native engine hand the spec text to Rust instead, with no Python per ply.

The evaluation's numbers are read here, once per process, from the data file (``ai_weights``)
and ``evaluate.TERMS``, and handed to Rust: the data stays in files and the two engines score
positions with the same weights.
"""

from __future__ import annotations

from typing import Any

from workbench.engine import Action, GameState

from .base import Agent
from .evaluate import TERMS, piece_weights

NATIVE_AGENTS = ("random", "greedy", "alphabeta", "mcts", "search")
_installed = False


def install_eval_params() -> Any:
    """``workbench._native`` with the evaluation parameters installed (once per process)."""
    global _installed
    from workbench.native import _native, resolve_engine

    if _native is None:
        resolve_engine("native")  # raises the adapter's clear "not built" error
    if not _installed:
        _native.set_eval_params(list(piece_weights()[:8]), sorted(TERMS.items()))
        _installed = True
    return _native


def spec_text(base: str, params: dict[str, Any]) -> str:
    """The canonical text form ``name:key=value,...`` that the Rust side parses."""

    def text(v: Any) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        return "none" if v is None else str(v)

    return base + (":" + ",".join(f"{k}={text(v)}" for k, v in params.items()) if params else "")


class NativeAgent(Agent):
    """A Rust agent behind the Python agent interface."""

    engine = "native"

    def __init__(self, base: str, params: dict[str, Any], seed: int | None, twin: Agent) -> None:
        super().__init__(seed)
        self.base = base
        self.params = dict(params)
        self.twin = twin  # the validated Python agent with the same settings (for its attributes)
        self.spec = spec_text(base, params)
        from workbench.native import agent_spec

        name, pairs, key = agent_spec(self.spec, seed)
        self._agent = install_eval_params().Agent(name, pairs, key)

    @property
    def searched(self) -> int:
        """Nodes (alphabeta, search) or iterations (mcts) of the last decision."""
        return int(self._agent.searched)

    def __getattr__(self, item: str) -> Any:
        # Parameters (depth, nodes, iterations, ...) read as on the Python twin.
        twin = self.__dict__.get("twin")
        if twin is None:
            raise AttributeError(item)
        return getattr(twin, item)

    def select_action(self, state: GameState | Any) -> Action:
        """The Rust agent's action; a Python state is converted into the native state first."""
        from workbench.native import NativeState

        native = NativeState.from_state(state) if isinstance(state, GameState) else state
        if native.is_terminal():
            raise ValueError(f"{self.name}: no action to choose, the game is over ({state!r})")
        action = tuple(self._agent.select_action(native._st))
        # the Rust search's root value (side to move's view) where it has one, as the Python twin's
        # ``score``: the board shows it as the agent's evaluation; None for agents without a value
        self.score = self._agent.score
        return action
