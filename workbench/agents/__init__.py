"""Agents by name, for any game: the spec language, one builder and the agents users register.

``make_agent("alphabeta:depth=3,nodes=8000", seed=3, game="pole")`` (or ``make_agent("alphabeta", seed=3,
depth=3)``) builds an agent; the text form is what the simulation command line and tables use as an agent's name.
An agent's ``select_action(state)`` returns an action and leaves ``state`` as it found it.

There is one path for every game: ``generic.make_protocol_agent(spec, game, rules, seed)`` builds the agent of a
name, the game's own when it declares one (``GameDef.game_agents``: Pole's ``turtle``, TerraFeud's tuned agents
under the generic names), else the generic agent (``generic-<name>`` always the generic one); where the engine is
native, the game's native backend gives its twin (``GameDef.native.agent``). ``make_agent`` adds the engine
choice and the agents registered with ``register_agent``; this folder imports no game.

``AGENTS`` is the default game's table of names a user may replace (its own agents plus those added with
``register_agent``), filled from the registry when first asked for.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from workbench.core.agents import Agent, parse_agent_spec, set_protocol_agent_factory

ENGINES = ("auto", "native", "python")


def _game(game: str | None) -> Any:
    """The ``GameDef`` of ``game`` (the registry's default when None)."""
    from workbench.games import get

    return get(game)


def _default_tables() -> tuple[dict[str, Callable[..., Agent]], dict[str, Callable[..., Agent]]]:
    """``AGENTS`` and ``BUILTIN_AGENTS``, made from the default game's own agents on first use (PEP 562)."""
    if "AGENTS" not in globals():
        builtin = dict(_game(None).game_agents())
        globals()["BUILTIN_AGENTS"] = builtin
        globals()["AGENTS"] = dict(builtin)
    return globals()["AGENTS"], globals()["BUILTIN_AGENTS"]


def __getattr__(name: str) -> Any:
    if name in ("AGENTS", "BUILTIN_AGENTS"):
        return _default_tables()[name == "BUILTIN_AGENTS"]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _registered(game: str | None) -> dict[str, Callable[..., Agent]]:
    """The agents a user registered (``register_agent``) that play ``game``: the default game's only."""
    if game is not None and _game(game) is not _game(None):
        return {}
    agents, builtin = _default_tables()
    return {name: f for name, f in agents.items() if builtin.get(name) is not f}


def register_agent(name: str, factory: Callable[..., Agent]) -> None:
    """Make ``factory`` (``factory(seed=..., **params)``, its agent reading the default game's engine state) the
    agent ``name`` of ``make_agent`` (and so of ``simulate``), for the default game; it plays in Python."""
    if not name or ":" in name or "," in name:
        raise ValueError(f"agent name {name!r} must be non-empty and contain no ':' or ','")
    _default_tables()[0][name] = factory


def is_registered(name: str, game: str | None = None) -> bool:
    """True when agent ``name`` of ``game`` is one a user registered (it reads the game's engine state)."""
    return parse_agent_spec(name)[0] in _registered(game)


def agent_names(game: str | None = None) -> list[str]:
    """The names ``make_agent`` knows for ``game``: the generic agents, the game's own, registered ones; sorted."""
    from workbench.core.agents import GENERIC_PREFIX

    from .generic import GENERIC_AGENTS

    gdef = _game(game)
    names = {*GENERIC_AGENTS, *gdef.game_agents(), *_registered(game)}
    names.update(GENERIC_PREFIX + n for n in GENERIC_AGENTS if n in gdef.game_agents())
    if gdef.archetypes:
        names.add("style")
    return sorted(names)


def _protocol_agent(spec: str, game: Any, rules: Any = None, seed: int | None = None) -> Any:
    """The generic agents' builder, installed in core for the native twins (``core.agents.protocol_agent``)."""
    from .generic import make_protocol_agent

    return make_protocol_agent(spec, game, rules, seed=seed)


set_protocol_agent_factory(_protocol_agent)


def _text(base: str, params: dict[str, Any]) -> str:
    """The spec text ``base:key=value,...`` of parsed parameters (the form the native backends read)."""
    return base + (":" + ",".join(f"{k}={v}" for k, v in params.items()) if params else "")


def agent_engine(base: str, engine: str = "auto", game: str | None = None) -> str:
    """Which engine plays agent ``base`` of ``game``: ``"native"`` or ``"python"``.

    ``auto`` takes the native twin when the game's native core is built and has a twin of the agent
    (``GameDef.native.agent``; a registered agent, even one that replaced a built-in name, is Python);
    ``native`` insists on it.
    """
    from workbench.core.protocol import resolve_engine

    gdef = _game(game)
    resolved = resolve_engine(gdef, engine)
    if resolved == "python":
        return resolved
    has_twin = base not in _registered(game) and gdef.native.agent(base, gdef.spec.defaults(), 0) is not None
    if not has_twin:
        if engine == "native":
            raise ValueError(f"agent {base!r} has no native twin in {gdef.title}")
        return "python"
    return resolved


def make_agent(name: str, seed: int | None = None, engine: str = "auto", game: str | None = None,
               **params: Any) -> Agent:
    """The agent ``name`` of ``game`` (the registry's default when None), parameters after the name
    (``alphabeta:depth=3``) or as keywords, built as every tool builds it (``generic.make_protocol_agent``).

    ``engine`` is ``"auto"`` (the game's native twin when its core is built and has one), ``"native"`` or
    ``"python"``; an ``engine=`` parameter in the spec overrides it, so one game (or ladder) can pit a native
    agent against a Python one. Parameters are validated by the Python agent in every case, so both engines
    refuse the same specs with the same messages.
    """
    from .generic import make_protocol_agent

    gdef = _game(game)
    base, spec_params = parse_agent_spec(name)
    spec_params.update(params)
    engine = spec_params.pop("engine", engine)  # a spec may pin its engine: "alphabeta:engine=python"
    if engine not in ENGINES:
        raise ValueError(f"agent {name!r}: engine={engine!r} must be auto, native or python")
    registered = _registered(game)
    agent: Any
    if base in registered:
        try:
            agent = registered[base](seed=seed, **spec_params)
        except TypeError as exc:
            raise ValueError(f"agent {name!r}: bad parameters {sorted(spec_params)}: {exc}") from None
    else:
        rules = gdef.spec.defaults()
        text = _text(base, spec_params)
        agent = make_protocol_agent(text, gdef, rules, seed=seed)  # validates the name and every parameter
        if agent_engine(base, engine, game) == "native" and "bar" not in spec_params:  # barring is Python's
            agent = gdef.native.agent(text, rules, seed) or agent  # None: a parameter only Python reads
    agent.name = str(name).strip() if not params else base
    built: Agent = agent
    return built


__all__ = ["AGENTS", "BUILTIN_AGENTS", "ENGINES", "Agent", "agent_engine", "agent_names", "is_registered",
           "make_agent", "parse_agent_spec", "register_agent"]
