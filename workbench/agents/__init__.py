"""AI agents for TerraFeud, all seeded and reproducible: ``random``, ``greedy``, ``alphabeta``, ``mcts``, ``search``.

``make_agent("alphabeta", seed=3, depth=2)`` or ``make_agent("alphabeta:depth=3,nodes=8000", seed=3)``
builds one; the text form is what the simulation command line and tables use as an agent's name.
An agent's ``select_action(state)`` returns an action and leaves ``state`` as it found it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .alphabeta import AlphaBetaAgent
from .base import Agent
from .evaluate import evaluate, material, material_white, piece_weights
from .greedy import GreedyAgent
from .mcts import MCTSAgent
from .native_agent import NATIVE_AGENTS, NativeAgent
from .random_agent import RandomAgent
from .search import SearchAgent

# name -> factory(seed=..., **params). ``register_agent`` adds more (e.g. in tests or notebooks).
AGENTS: dict[str, Callable[..., Agent]] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "alphabeta": AlphaBetaAgent,
    "mcts": MCTSAgent,
    "search": SearchAgent,
}
BUILTIN_AGENTS: dict[str, Callable[..., Agent]] = dict(AGENTS)


def register_agent(name: str, factory: Callable[..., Agent]) -> None:
    """Make ``factory`` available to ``make_agent`` (and so to ``simulate``) under ``name``."""
    if not name or ":" in name or "," in name:
        raise ValueError(f"agent name {name!r} must be non-empty and contain no ':' or ','")
    AGENTS[name] = factory


def parse_agent_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"mcts:iterations=200,rollout=random"`` into ``("mcts", {"iterations": 200, "rollout": "random"})``."""
    name, _, rest = str(spec).strip().partition(":")
    params: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        if "=" not in part:
            raise ValueError(f"agent {spec!r}: parameter {part!r} needs the form name=value")
        key, value = (x.strip() for x in part.split("=", 1))
        params[key] = _number(value)
    return name, params


def _number(text: str) -> Any:
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    return {"none": None, "true": True, "false": False}.get(text.lower(), text)


def agent_engine(base: str, engine: str = "auto") -> str:
    """Which engine plays agent ``base``: ``"native"`` or ``"python"``.

    ``auto`` takes the native twin when the native core is built and the agent has one (a
    registered agent that replaced a built-in name is Python); ``native`` insists on it.
    """
    from workbench.native import resolve_engine

    resolved = resolve_engine(engine)
    has_twin = base in NATIVE_AGENTS and AGENTS.get(base) is BUILTIN_AGENTS.get(base)
    if resolved == "native" and not has_twin:
        if engine == "native":
            raise ValueError(f"agent {base!r} has no native twin; native agents: {', '.join(NATIVE_AGENTS)}")
        return "python"
    return resolved


def make_agent(name: str, seed: int | None = None, engine: str = "auto", **params: Any) -> Agent:
    """An agent by registered name (parameters may also follow the name: ``alphabeta:depth=3``).

    ``engine`` is ``"auto"`` (the native twin when the native core is built), ``"native"`` or
    ``"python"``; an ``engine=`` parameter in the spec overrides it, so one game (or ladder) can
    pit a native agent against a Python one. Parameters are validated by the Python agent in every case, so both engines
    refuse the same specs with the same messages.
    """
    base, spec_params = parse_agent_spec(name)
    if base not in AGENTS:
        raise ValueError(f"unknown agent {base!r}; known agents: {', '.join(sorted(AGENTS))}")
    spec_params.update(params)
    engine = spec_params.pop("engine", engine)  # a spec may pin its engine: "alphabeta:engine=python"
    if engine not in ("auto", "native", "python"):
        raise ValueError(f"agent {name!r}: engine={engine!r} must be auto, native or python")
    try:
        agent = AGENTS[base](seed=seed, **spec_params)
    except TypeError as exc:
        raise ValueError(f"agent {name!r}: bad parameters {sorted(spec_params)}: {exc}") from None
    if agent_engine(base, engine) == "native":
        agent = NativeAgent(base, spec_params, seed, agent)
    agent.name = str(name).strip() if not params else base
    return agent


__all__ = [
    "AGENTS", "BUILTIN_AGENTS", "NATIVE_AGENTS", "Agent", "AlphaBetaAgent", "GreedyAgent", "MCTSAgent",
    "NativeAgent", "RandomAgent", "SearchAgent", "evaluate",
    "agent_engine", "make_agent", "material", "material_white", "parse_agent_spec", "piece_weights", "register_agent",
]
