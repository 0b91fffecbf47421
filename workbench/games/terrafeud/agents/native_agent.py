"""Native agents: the Rust twins of ``random``, ``greedy``, ``alphabeta``, ``mcts`` and ``search``.

TerraFeud's native backend (``GAME.native.agent``) returns a ``NativeAgent`` for a seat of a tuned agent
(``workbench.agents.make_agent(spec, seed, engine="native")``, or ``"auto"`` when the native core is built). It has the Python agent's interface, so the widget and the Python game loop use
it unchanged: ``select_action(state)`` takes a Python ``GameState`` (converted into the native
state) or a native state, searches in Rust, and returns the action as the engine's tuple.
Whole games on the native engine hand the spec text to Rust instead, with no Python per ply.

Where the native core cannot hold a position (more archers a side than its fixed arrays, a
record's castled count beyond a byte, a rule it does not port), the agent decides with its Python
twin, the same algorithm with the same settings, and says so once (``warnings`` and ``notice``):
an agent never strands a game. An agent pinned to ``engine=native`` does the same in play; a
batch that pins it is refused before its first game instead (``simulate.guard.check_cells``),
since its rows would claim a native search that never ran.

The evaluation's numbers are read here, once per process, from the data file (``ai_weights``)
and ``evaluate.TERMS``, and handed to Rust: the data stays in files and the two engines score
positions with the same weights.
"""

from __future__ import annotations

import warnings
from typing import Any

from workbench.core.agents import GENERIC_PREFIX, Agent, NativeFallbackWarning, parse_agent_spec
from workbench.games.terrafeud.engine import Action, GameState
from workbench.games.terrafeud.native import install_eval_params  # noqa: F401 - named here as before

from .seat import engine_state, tuned_agent

NATIVE_AGENTS = ("random", "greedy", "alphabeta", "mcts", "search")
_said: set[str] = set()  # notices a batch gave before its games (a forked worker inherits them)


def fallback_notice(name: str, reason: str) -> str:
    """The one line that says an agent searches in Python here, and why."""
    return f"agent {name}: the native core cannot hold this position ({reason}); searching with the Python twin"


def say_once(text: str) -> None:
    """Warn with ``text`` the first time this process meets it."""
    if text not in _said:
        _said.add(text)
        warnings.warn(text, NativeFallbackWarning, stacklevel=3)


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

    def __init__(self, base: str, params: dict[str, Any], seed: int | None, twin: Agent, game: Any = None) -> None:
        super().__init__(seed)
        self.base = base
        self.params = dict(params)
        self.twin = twin  # the validated Python agent with the same settings (for its attributes)
        self.spec = spec_text(base, params)
        from workbench.games.terrafeud.native import agent_spec

        name, pairs, key = agent_spec(self.spec, seed, game)  # game: whose weights files eval=NAME names
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

    notice: str | None = None  # set when the agent fell back to its Python twin (shown by UIs)

    def select_action(self, state: GameState | Any) -> Action:
        """The Rust agent's action; a Python state is converted into the native state first.

        A Python state the native core cannot hold is searched by the Python twin instead; a protocol
        ``TerraFeudState`` is read through its engine state."""
        from workbench.games.terrafeud.native import NativeState, supports, unsupported_reason

        state = engine_state(state)

        if isinstance(state, GameState) and not supports(state):
            if self.notice is None:  # once per agent (and a batch that announced it stays quiet)
                self.notice = fallback_notice(self.spec, unsupported_reason(state))
                if self.notice not in _said:
                    warnings.warn(self.notice, NativeFallbackWarning, stacklevel=2)
            action = self.twin.select_action(state)
            self.score = getattr(self.twin, "score", None)
            return action
        native = NativeState.from_state(state) if isinstance(state, GameState) else state
        if native.is_terminal():
            raise ValueError(f"{self.name}: no action to choose, the game is over ({state!r})")
        action = tuple(self._agent.select_action(native._st))
        # the Rust search's root value (side to move's view) where it has one, as the Python twin's
        # ``score``: the board shows it as the agent's evaluation; None for agents without a value
        self.score = self._agent.score
        return action


def seat_agent(spec: str, game: Any, rules: Any, seed: int | None) -> Any:
    """``GAME.native.agent``: the native twin of seat agent ``spec`` (a tuned agent's Rust twin, or a generic
    agent's twin for ``generic-<name>``, ``native.GenericTwin``), or None when the core is not built or has no
    twin of it."""
    from workbench.games.terrafeud.native import GenericTwin, available, has_agent

    from . import TUNED

    if not available():
        return None
    base, params = parse_agent_spec(spec)
    params.pop("engine", None)
    if base.startswith(GENERIC_PREFIX):
        return GenericTwin.for_seat(spec, game, rules, seed, True)
    if base not in TUNED or not has_agent(base):
        return None
    try:  # the validated Python agent with the same settings (eval=NAME: its learned weights, checked there)
        twin = tuned_agent(TUNED[base], seed, params, game)
    except TypeError as exc:
        raise ValueError(f"agent {spec!r}: bad parameters {sorted(params)}: {exc}") from None
    agent = NativeAgent(base, params, seed, twin, game)
    agent.name = str(spec).strip()
    return agent
