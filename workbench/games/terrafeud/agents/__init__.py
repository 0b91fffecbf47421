"""TerraFeud's own agents, tuned to its engine: ``random``, ``greedy``, ``alphabeta``, ``mcts``, ``search``.

They search a ``GameState`` directly (move ordering by MOVE/SHOT/ORDER, the data file's evaluation
weights, quiescence on captures), and each has a Rust twin in ``native/src/terrafeud/agents/``. They are
TerraFeud's game agents (``GameDef.game_agents``, built by ``workbench.agents.generic.make_protocol_agent``
like Pole's ``turtle``), under the generic names: ``alphabeta`` is this one for TerraFeud in every tool, and
the generic agent stays reachable as ``generic-alphabeta``. Their native twins are the seat agents of its native
backend (``GameDef.native.agent``). The tools never import this package.
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
from .seat import engine_state, game_agent

# name -> the tuned agent class: what a spec's name means for TerraFeud
TUNED: dict[str, type[Agent]] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "alphabeta": AlphaBetaAgent,
    "mcts": MCTSAgent,
    "search": SearchAgent,
}
# name -> factory(seed=, game=, rules=, **params): ``GameDef.game_agents()`` (one function object per name, so a
# tool can tell a name still holding its game agent from one an agent registered over it)
GAME_AGENTS: dict[str, Callable[..., Any]] = {name: game_agent(cls) for name, cls in TUNED.items()}


__all__ = [
    "GAME_AGENTS", "NATIVE_AGENTS", "TUNED", "AlphaBetaAgent", "GreedyAgent", "MCTSAgent", "NativeAgent",
    "RandomAgent", "SearchAgent", "engine_state", "evaluate", "game_agent", "material", "material_white",
    "piece_weights",
]
