"""The agent kit games build on: the ``Agent`` base, the spec language, ``ProtocolAgent`` and ``NativeTwin``.

An agent never keeps the state it is shown and never leaves it changed: searches use ``apply``/``undo``
in pairs. The same seed and the same sequence of positions give the same actions, which is what makes a
simulated game replayable from its seed alone. A game's own agents (TerraFeud's tuned ones, Pole's
``turtle``) and its native twins subclass these; the generic agents (``workbench.agents.generic``) do too.
The tools install the generic agents' factory (``set_protocol_agent_factory``), which a ``NativeTwin`` uses
to build its validated Python twin, so core names no tool.
"""

from __future__ import annotations

import math
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Sequence
from typing import Any, ClassVar

from .protocol import State

MAX_SECONDS = 5.0  # ceiling on any agent's thinking time per decision, whatever its parameters ask


def check_param(agent: str, name: str, value: Any, kind: type, lo: float, hi: float) -> Any:
    """``value`` as ``kind`` (int or float) within ``lo..hi``, or a ValueError naming agent and parameter.

    Agent parameters come from command lines and browser messages, so they are untrusted: a
    depth of 30 or a billion nodes is refused here rather than holding the kernel.
    """
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    if ok and kind is int:
        ok = float(value).is_integer()
    if not ok:
        raise ValueError(f"{agent}: {name}={value!r} must be {'an integer' if kind is int else 'a number'}"
                         f" in {lo:g}..{hi:g}")
    v = kind(value)
    if not lo <= v <= hi:
        raise ValueError(f"{agent}: {name}={value!r} is out of range {lo:g}..{hi:g}")
    return v


class NativeFallbackWarning(UserWarning):
    """A native agent decided with its Python twin: the native core cannot hold the position."""


class Agent:
    """Base class; subclasses implement ``select_action``."""

    name = "agent"
    engine = "python"  # which engine searches: "python" here, "native" for the Rust twins
    MAX_SECONDS = MAX_SECONDS

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def select_action(self, state: Any) -> Any:
        """The action to play in ``state`` (which must not be terminal)."""
        raise NotImplementedError

    def _legal(self, state: Any) -> list[Any]:
        acts: list[Any] = state.legal_actions()
        if not acts:
            raise ValueError(f"{self.name}: no action to choose, the game is over ({state!r})")
        return acts

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name} seed={self.seed}>"


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


# ``generic-alphabeta``: the generic agent of that name for every game, whatever a game calls its own (TerraFeud's
# ``alphabeta`` is its tuned one); core's so a game's native backend can tell a generic seat from its own
GENERIC_PREFIX = "generic-"

WIN = 1_000_000.0  # a won position outranks any evaluation


def own_actions(state: State) -> list[Any]:
    """The legal actions of the player to move, its own only.

    A simultaneous phase (big chess's setup, B37) lists every unready player's actions in
    ``legal_actions()``; an agent seated at ``current_player()`` must not play another seat's.
    """
    return state.legal_actions(state.current_player())


def _teams(state: State, info: Any) -> list[int]:
    return [info.team_of(p) for p in range(info.num_players)]


class ProtocolAgent(Agent):
    """Shared parts: the game's info, the hidden-information view and the seeded tie-breaks."""

    def __init__(self, seed: int | None = None, game: Any = None, rules: Any = None) -> None:
        super().__init__(seed)
        self.game = game
        self.rules = rules
        self._info = game.info(rules) if game is not None else None
        self.evaluation: Any = None  # learned weights (``eval=NAME.json``, agents.learned); None: the game's own

    def leaf(self, state: State, me: int, teams: list[int]) -> float:
        """Static value for ``me``: +-WIN when finished, else the learned evaluation or the game's own."""
        if state.is_terminal() or self.evaluation is None:
            return _leaf(state, me, teams)
        return float(self.evaluation(state, me))

    def info(self, state: State) -> Any:
        """The ``GameInfo`` of the game being played (looked up once)."""
        if self._info is None:
            raise ValueError(f"{self.name}: a protocol agent needs game= (a GameDef)")
        return self._info

    def searchable(self, state: State) -> State:
        """The state this agent may look into: the real one, or its view under hidden information."""
        info = self.info(state)
        if info.perfect_information:
            return state.clone()
        return state.view(state.current_player(), self.rng.randrange(2**31))

    def _legal(self, state: State) -> list[Any]:
        acts = own_actions(state)
        if not acts:
            raise ValueError(f"{self.name}: no action to choose (player {state.current_player()}, game over or chance)")
        return acts

    def describe(self) -> str:
        """One line on what this agent does (shown by the ladder and the board)."""
        return self.name


class Opening(Agent):
    """A batch's fixed random opening in front of a seat's agent (``GameSpec.opening``, ``simulate --opening K``).

    Agents that search one position the same way can replay whole games from one start, and a batch of copies
    holds fewer independent games than it counts (``simulate.repeats`` counts them). Engine testers play every game from a
    different fixed opening, each opening with the seats swapped; this is that opening: every decision before
    ply ``plies`` (``move_number``, chance plies counted) is ``random.Random(seed + ply).choice`` of the mover's
    own legal actions, the pick of the ``random`` agent so seeded. Every seat holds the batch's ``seed`` for the
    game, not its own, so the opening is a property of the game (the same with the agents swapped between
    seats), and the native cores play it alike (``core::generic::Opening``, proven equal in the tests). From
    ply ``plies`` on, ``inner`` plays.
    """

    def __init__(self, inner: Any, plies: int, seed: int) -> None:
        super().__init__(seed)
        self.inner, self.plies = inner, int(plies)
        self.name = str(getattr(inner, "name", "agent"))  # an agent's own attribute, not a GameDef hook
        self.engine = str(getattr(inner, "engine", "python"))

    def select_action(self, state: Any) -> Any:
        ply = state.move_number()
        if ply < self.plies:
            return random.Random(int(self.seed or 0) + ply).choice(own_actions(state))
        return self.inner.select_action(state)

    def __getattr__(self, name: str) -> Any:
        """The seat's agent's other attributes (``tally``, ``stats``, ``describe``) are its own."""
        if name.startswith("__") or name in ("inner", "plies"):
            raise AttributeError(name)
        return getattr(self.inner, name)


MAX_OPENING = 200  # random opening plies a batch may ask for (``GameSpec.opening``)


def opening_params(plies: int, seed: int) -> dict[str, Any]:
    """A batch's opening as a native core reads it with a seat's parameters (``generic_params`` in Rust): none
    when ``plies`` is 0."""
    return {"opening": float(plies), "opening_seed": int(seed)} if plies > 0 else {}


def _leaf(state: State, me: int, teams: list[int]) -> float:
    """Static value for ``me``: a finished game is worth +-WIN (a shared result for team-mates)."""
    if state.is_terminal():
        r = state.returns()[me]
        return WIN * r if r else 0.0
    return state.evaluate(me)


_FACTORY: list[Callable[..., Any]] = []


def set_protocol_agent_factory(factory: Callable[..., Any]) -> None:
    """Install ``factory(spec, game, rules, seed=...)``: the generic agents' builder (``workbench.agents``)."""
    _FACTORY[:] = [factory]


def protocol_agent(spec: str, game: Any, rules: Any, seed: int | None) -> Any:
    """The Python agent of ``spec`` for ``game`` through the installed factory (the generic agents and the game's)."""
    if not _FACTORY:
        raise RuntimeError("no agent factory installed: import workbench.agents first")
    return _FACTORY[0](spec, game, rules, seed=seed)


def seed_key(seed: int | None) -> list[int]:
    """CPython's ``random.seed(int)`` key: the 32-bit words of ``abs(seed)``, little end first.

    ``None`` (an unseeded agent) draws a fresh seed, as Python's ``random.Random(None)`` would.
    """
    if seed is None:
        seed = random.SystemRandom().getrandbits(128)
    if not isinstance(seed, int):
        raise ValueError(f"native agents need an int seed, got {seed!r}")
    a = abs(seed)
    words = []
    while a:
        words.append(a & 0xFFFFFFFF)
        a >>= 32
    return words or [0]


def native_params(params: dict[str, Any], known: frozenset[str], who: str = "native agent",
                  game: Any = None) -> dict[str, Any]:
    """An agent spec's parameters as a native core reads them (floats; ``engine`` dropped, unknown refused);
    learned weights (``eval=NAME``, where the core reads them) as the vector of the game's features."""
    out: dict[str, Any] = {}
    for k, v in params.items():
        if k == "engine":
            continue
        if k not in known:
            raise ValueError(f"{who}: unknown parameter {k!r}")
        if k == "eval":
            from .weights import weights_vector

            if game is None:
                raise ValueError(f"{who}: eval={v} needs the game whose features it weighs")
            out[k] = weights_vector(game, str(v))
            continue
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
        if not built or parse_agent_spec(spec)[0] not in cls.NAMES:
            return None
        return cls(spec, game, rules, seed)

    def __init__(self, spec: str, game: Any, rules: Any = None, seed: int | None = None) -> None:
        base, params = parse_agent_spec(spec)
        self.twin = protocol_agent(spec, game, rules, seed)  # the Python twin: validates names and ranges
        self.name = str(spec).strip()
        self.base = base
        self.params = native_params(params, self.PARAMS, game=game)
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


def native_agent_specs(names: Sequence[str], agent_names: Collection[str],
                       agent_params: Collection[str]) -> list[tuple[str, dict[str, Any]]] | None:
    """Every seat's ``(base, params)`` when a game's core can play all of them natively, else None.

    A seat pinned to ``engine=python``, an agent the core lacks, or a parameter it does not read sends the
    whole game to the Python loop (the core plays whole games only with every seat its own)."""
    out = []
    for spec in names:
        base, params = parse_agent_spec(spec)
        if str(params.pop("engine", "auto")).lower() == "python" or base not in agent_names:
            return None
        if any(k not in agent_params for k in params):
            return None
        out.append((base, params))
    return out
