"""Agents by name, for any game: the spec language and the registry of a game's own agents.

``make_agent("alphabeta:depth=3,nodes=8000", seed=3)`` (or ``make_agent("alphabeta", seed=3, depth=3)``)
builds an agent; the text form is what the simulation command line and tables use as an agent's name.
An agent's ``select_action(state)`` returns an action and leaves ``state`` as it found it.

Two families answer to the same names (``random``, ``greedy``, ``alphabeta``, ``mcts``, ``search``):

- a game's own agents, tuned to its engine, which the game offers through the protocol hook
  ``GameDef.tuned_agents()`` (an ``AgentKit``: factories, native twins, engine choice). ``make_agent``
  builds these, for ``game`` or the registry's default game; this folder imports no game;
- the generic agents of ``generic.py`` (``make_protocol_agent(spec, game, rules, seed)``), which play
  every game through the protocol's ``State``.

``AGENTS`` is the default game's table (its own agents plus those added with ``register_agent``),
filled from the registry when first asked for.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from workbench.core.agents import Agent, parse_agent_spec, set_protocol_agent_factory

ENGINES = ("auto", "native", "python")


def _kit(game: str | None) -> Any:
    """The ``AgentKit`` of ``game`` (the registry's default when None); ValueError when it has none."""
    from workbench.games import get

    gdef = get(game)
    kit = gdef.tuned_agents()
    if kit is None:
        raise ValueError(f"{gdef.name} has no agents of its own; its agents are the generic ones "
                         "(workbench.agents.generic.make_protocol_agent)")
    return kit


def _default_tables() -> tuple[dict[str, Callable[..., Agent]], dict[str, Callable[..., Agent]]]:
    """``AGENTS`` and ``BUILTIN_AGENTS``, made from the default game's kit on first use (PEP 562)."""
    if "AGENTS" not in globals():
        builtin = dict(_kit(None).AGENTS)
        globals()["BUILTIN_AGENTS"] = builtin
        globals()["AGENTS"] = dict(builtin)
    return globals()["AGENTS"], globals()["BUILTIN_AGENTS"]


def __getattr__(name: str) -> Any:
    if name in ("AGENTS", "BUILTIN_AGENTS"):
        return _default_tables()[name == "BUILTIN_AGENTS"]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _tables(game: str | None) -> tuple[dict[str, Callable[..., Agent]], dict[str, Callable[..., Agent]], Any]:
    """(agents by name, the game's own ones, its kit): registrations count for the default game."""
    from workbench.games import get

    kit = _kit(game)
    if game is None or get(game) is get(None):
        agents, builtin = _default_tables()
        return agents, builtin, kit
    return dict(kit.AGENTS), dict(kit.AGENTS), kit


def register_agent(name: str, factory: Callable[..., Agent]) -> None:
    """Make ``factory`` available to ``make_agent`` (and so to ``simulate``) under ``name``, for the default game."""
    if not name or ":" in name or "," in name:
        raise ValueError(f"agent name {name!r} must be non-empty and contain no ':' or ','")
    _default_tables()[0][name] = factory


def agent_names(game: str | None = None) -> list[str]:
    """The names ``make_agent`` knows for ``game`` (registered ones included), sorted."""
    return sorted(_tables(game)[0])


def _protocol_agent(spec: str, game: Any, rules: Any = None, seed: int | None = None) -> Any:
    """The generic agents' builder, installed in core for the native twins (``core.agents.protocol_agent``)."""
    from .generic import make_protocol_agent

    return make_protocol_agent(spec, game, rules, seed=seed)


set_protocol_agent_factory(_protocol_agent)


def agent_engine(base: str, engine: str = "auto", game: str | None = None) -> str:
    """Which engine plays agent ``base`` of ``game``: ``"native"`` or ``"python"``.

    ``auto`` takes the native twin when the game's native core is built and the agent has one (a
    registered agent that replaced a built-in name is Python); ``native`` insists on it.
    """
    agents, builtin, kit = _tables(game)
    resolved: str = kit.resolve_engine(engine)
    has_twin = base in kit.NATIVE_AGENTS and agents.get(base) is builtin.get(base)
    if resolved == "native" and not has_twin:
        if engine == "native":
            raise ValueError(f"agent {base!r} has no native twin; native agents: {', '.join(kit.NATIVE_AGENTS)}")
        return "python"
    return resolved


def make_agent(name: str, seed: int | None = None, engine: str = "auto", game: str | None = None,
               **params: Any) -> Agent:
    """A game's own agent by registered name (parameters may also follow the name: ``alphabeta:depth=3``).

    ``game`` names a game of ``workbench.games`` whose ``tuned_agents()`` offers agents (the registry's
    default game when None). ``engine`` is ``"auto"`` (the native twin when the native core is built),
    ``"native"`` or ``"python"``; an ``engine=`` parameter in the spec overrides it, so one game (or
    ladder) can pit a native agent against a Python one. Parameters are validated by the Python agent
    in every case, so both engines refuse the same specs with the same messages.
    """
    agents, _, kit = _tables(game)
    base, spec_params = parse_agent_spec(name)
    if base not in agents:
        raise ValueError(f"unknown agent {base!r}; known agents: {', '.join(sorted(agents))}")
    spec_params.update(params)
    engine = spec_params.pop("engine", engine)  # a spec may pin its engine: "alphabeta:engine=python"
    if engine not in ENGINES:
        raise ValueError(f"agent {name!r}: engine={engine!r} must be auto, native or python")
    try:
        agent = agents[base](seed=seed, **spec_params)
    except TypeError as exc:
        raise ValueError(f"agent {name!r}: bad parameters {sorted(spec_params)}: {exc}") from None
    if agent_engine(base, engine, game) == "native":
        agent = kit.native_twin(base, spec_params, seed, agent)
    agent.name = str(name).strip() if not params else base
    return agent


__all__ = ["AGENTS", "BUILTIN_AGENTS", "ENGINES", "Agent", "agent_engine", "agent_names", "make_agent",
           "parse_agent_spec", "register_agent"]
