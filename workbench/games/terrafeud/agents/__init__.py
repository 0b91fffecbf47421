"""TerraFeud's own agents, tuned to its engine: ``random``, ``greedy``, ``alphabeta``, ``mcts``, ``search``.

They search a ``GameState`` directly (move ordering by MOVE/SHOT/ORDER, the data file's evaluation
weights, quiescence on captures), and each has a Rust twin in ``native/src/terrafeud/agents/``. This package is
TerraFeud's answer to the protocol's ``GameDef.tuned_agents()`` hook (an ``AgentKit``): the tools
build these agents with ``workbench.agents.make_agent("alphabeta:depth=2", seed)`` and never import
them; the generic agents of ``workbench.agents.generic`` play TerraFeud through the protocol too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from workbench.core.agents import Agent

from .alphabeta import AlphaBetaAgent
from .evaluate import evaluate, material, material_white, piece_weights
from .greedy import GreedyAgent
from .mcts import MCTSAgent
from .native_agent import NATIVE_AGENTS, NativeAgent
from .random_agent import RandomAgent
from .search import SearchAgent

# name -> factory(seed=..., **params): what a spec's name means for TerraFeud
AGENTS: dict[str, Callable[..., Agent]] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "alphabeta": AlphaBetaAgent,
    "mcts": MCTSAgent,
    "search": SearchAgent,
}


def resolve_engine(engine: str) -> str:
    """``auto``/``native``/``python`` -> ``native`` or ``python`` (``native`` without the build raises)."""
    from workbench.games.terrafeud.native import resolve_engine as resolve

    return resolve(engine)


def native_twin(base: str, params: dict[str, Any], seed: int | None, twin: Agent) -> Agent:
    """The Rust twin of ``twin`` (the validated Python agent ``base`` with ``params``)."""
    return NativeAgent(base, params, seed, twin)


__all__ = [
    "AGENTS", "NATIVE_AGENTS", "AlphaBetaAgent", "GreedyAgent", "MCTSAgent", "NativeAgent", "RandomAgent",
    "SearchAgent", "evaluate", "material", "material_white", "native_twin", "piece_weights", "resolve_engine",
]
