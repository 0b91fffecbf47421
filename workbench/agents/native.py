"""A seat-level native agent: a generic agent's twin searching in a game's native core.

A game whose Rust core holds the generic agents (Pole, The Cursed Lands) returns one of these from
``GameDef.native.agent``. It plays inside the Python game loop (``protocol_play.seat_agent`` for a
spec pinned ``engine=native``, and the general board), so one game can pit a native agent against
its Python original. The twin takes the Python agent's name, parameters and seed: the Python agent
is built first (it validates names and ranges, with its own error messages) and kept for
``describe``; the core's agent is seeded as ``random.Random(seed)`` and draws in the same order, so
on a budget the Python clock does not cut, both pick the same action.

A game supplies only what differs: how its core makes an agent (``core_agent``) and how a state
becomes the core's (``core_state``). A hidden-information view is the core agent's business, as it
is the Python twin's (``ProtocolAgent.searchable``): the view's seed is drawn from the agent's stream.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, ClassVar


def native_params(params: dict[str, Any], known: frozenset[str], who: str = "native agent") -> dict[str, float]:
    """An agent spec's parameters as a native core reads them (floats; ``engine`` dropped, unknown refused)."""
    out: dict[str, float] = {}
    for k, v in params.items():
        if k == "engine":
            continue
        if k not in known:
            raise ValueError(f"{who}: unknown parameter {k!r}")
        out[k] = float(v)
    return out


class NativeTwin(ABC):
    """The native twin of a generic agent (``workbench.agents.generic``): same name, parameters, seed."""

    engine = "native"
    #: the parameters the game's core reads (others are refused, never silently dropped)
    PARAMS: ClassVar[frozenset[str]] = frozenset()
    #: the agent names the game's core holds
    NAMES: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def for_seat(cls, spec: str, game: Any, rules: Any, seed: int | None, built: bool) -> NativeTwin | None:
        """``GameDef.native.agent``: the twin of ``spec`` when the core is ``built`` and holds that agent, else None
        (the caller plays the Python agent)."""
        from . import parse_agent_spec

        if not built or parse_agent_spec(spec)[0] not in cls.NAMES:
            return None
        return cls(spec, game, rules, seed)

    def __init__(self, spec: str, game: Any, rules: Any = None, seed: int | None = None) -> None:
        from . import parse_agent_spec
        from .generic import make_protocol_agent

        base, params = parse_agent_spec(spec)
        self.twin = make_protocol_agent(spec, game, rules, seed=seed)  # validates names and ranges
        self.name = str(spec).strip()
        self.base = base
        self.params = native_params(params, self.PARAMS)
        self.seed = seed
        self.game = game
        self.rules = rules
        self._agent = self.core_agent(base, self.params, seed)

    @abstractmethod
    def core_agent(self, base: str, params: dict[str, float], seed: int | None) -> Any:
        """The core's agent ``base`` with ``params``, seeded as ``random.Random(seed)`` (keeps its stream)."""

    @abstractmethod
    def core_state(self, state: Any) -> Any:
        """The core's state of ``state`` (a Python state or the game's native one), which the agent reads."""

    def select_action(self, state: Any) -> Any:
        """The twin's pick, searched in the core (``state`` is left as it was). Where the Python twin keeps
        a ``score`` (alphabeta, search, mcts, plan), so does this one, from the core's last decision, so
        the board's Evaluate reads the same number whichever engine searched."""
        action = self._agent.select_action(self.core_state(state))
        if hasattr(self.twin, "score"):
            self.score, self.nodes_searched = self._agent.stats()
        return action

    def describe(self) -> str:
        """The Python twin's line, with the engine that searches."""
        return f"{self.twin.describe()} (native core)"
