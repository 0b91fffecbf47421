"""A whole game played inside the native core, replayed through ``core.play_game``'s own loop.

The native core plays the game in Rust with the GIL released and returns a trace: the actions,
the legal-action count and the board before every ply, and what each action fired. ``TraceState``
and ``TraceAgent`` hand that trace to the unchanged per-ply bookkeeping of ``play_game`` (deaths,
evaluations, notation, events), so a native game gives exactly the games row and events rows of
the same game played by the Python engine, at a fraction of the cost.
"""

from __future__ import annotations

from typing import Any

from workbench.games.terrafeud import native
from workbench.games.terrafeud.engine import GameState
from workbench.games.terrafeud.engine.notation import format_action
from workbench.games.terrafeud.engine.pieces import SIDE_NAMES
from workbench.games.terrafeud.engine.telemetry import RULES

N_HEXES = 91


class TraceState:
    """The read-only ``GameState`` surface ``play_game`` uses, stepping through a native trace."""

    def __init__(self, start: GameState, trace: dict[str, Any]) -> None:
        self.game = start.game
        self._boards: bytes = trace["boards"]
        self._n_legal: list[int] = trace["n_legal"]
        self._actions: list[tuple] = trace["actions"]
        self._fired: list[list[tuple[int, int, int]]] = trace["fired"]
        self._final = (trace["winner"], trace["victory"])
        self._counters: list[int] = list(trace["counters"])
        self.index = 0
        self.ply = start.ply
        self.to_move = start.to_move
        self.squares: list[int] = list(self._boards[:N_HEXES])
        self.fired: tuple[tuple[str, int, int], ...] = tuple(start.fired)
        self.counters: list[int] = list(start.counters)
        self.winner: int | None = None
        self.victory: str | None = None
        if not self._actions:
            self.winner, self.victory = self._final
            self.counters = self._counters[: len(self.counters)]

    @property
    def rules(self) -> Any:
        return self.game.rules

    def legal_actions(self) -> range:
        """Only its length is read by ``play_game``: the mover's number of legal actions."""
        return range(self._n_legal[self.index])

    def next_action(self) -> tuple:
        return self._actions[self.index]

    def action_to_string(self, action: tuple) -> str:
        return format_action(self, action)  # reads squares and to_move only

    def apply(self, action: tuple, check: bool = True) -> None:
        """Step to the board after the next traced action (which must be ``action``)."""
        i = self.index
        if tuple(action) != tuple(self._actions[i]):
            raise RuntimeError(f"native trace replay out of step at ply {self.ply + 1}")
        self.index = i + 1
        self.squares = list(self._boards[(i + 1) * N_HEXES : (i + 2) * N_HEXES])
        self.ply += 1
        self.to_move = 1 - self.to_move
        self.fired = tuple((RULES[r], s, h) for r, s, h in self._fired[i])
        if self.index == len(self._actions):
            self.winner, self.victory = self._final
            self.counters = self._counters[: len(self.counters)]

    def winner_name(self) -> str | None:
        return None if self.winner is None else SIDE_NAMES[self.winner]


class TraceAgent:
    """Plays what the native agent chose (the trace), for ``play_game``'s ``select_action`` call."""

    def __init__(self, name: str) -> None:
        self.name = name

    def select_action(self, state: TraceState) -> tuple:
        return state.next_action()


def playable(white: str, black: str, start: GameState | None = None) -> bool:
    """True when the native core is built, both agents are built-in ones with native twins (an agent
    registered under a built-in name replaces it, and plays in Python; so does a spec pinned to
    ``engine=python``) and it holds ``start``."""
    from workbench.agents import agent_engine, parse_agent_spec

    def ok(spec: str) -> bool:
        name, params = parse_agent_spec(spec)  # a spec may pin its engine: "alphabeta:engine=python"
        return agent_engine(name, str(params.get("engine", "auto"))) == "native" and native.has_agent(spec)

    return native.available() and ok(white) and ok(black) and (start is None or native.supports(start))


def native_game(start: GameState, white: str, black: str, seeds: tuple[int | None, int | None],
                max_plies: int) -> tuple[TraceState, list[TraceAgent]]:
    """Play the game natively from ``start``; the replay state and agents for ``play_game``'s loop."""
    from workbench.games.terrafeud.agents.native_agent import install_eval_params

    install_eval_params()  # a fresh worker (pool, Dask) has not handed the evaluation weights to Rust yet
    trace = native.play_native(start, white, black, seeds, max_plies, boards=True)
    return TraceState(start, trace), [TraceAgent(white), TraceAgent(black)]
