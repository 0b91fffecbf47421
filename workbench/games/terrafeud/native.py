"""Adapter to the native Rust core (``workbench._native``, built from ``native/`` by ``make setup``).

The Python engine is the specification; the native core is its exact port (same legal actions in
the same order, same states, results and counters) and only faster. Everything here converts
between the two: a Python ``Game``/``GameState`` in, a ``NativeState`` with the ``GameState``
query API out, and whole games played inside Rust with the GIL released.

Terrain is always drawn in Python (``Game``), then handed over as the board's tables, so both
engines play on exactly the same hexes.
"""

from __future__ import annotations

from typing import Any

from workbench.core.agents import (
    GENERIC_PREFIX,
    parse_agent_spec,
    seed_key,  # noqa: F401 - the native agents' seeds (core's kit), named here as before
)
from workbench.core.nativekit import LEARNED_AGENT_PARAMS, CoreAgent

from .engine import Game, GameState, IllegalActionError, RulesConfig
from .engine.pieces import SIDE_NAMES
from .engine.telemetry import N_COUNTERS, RULE_INDEX, RULES, counters_dict

try:  # the extension is optional: without cargo the pure-Python engine does everything
    from workbench import _native  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - depends on the build
    _native = None

if _native is not None and tuple(_native.RULES) != RULES:  # a stale build from before a telemetry change
    import warnings

    warnings.warn("workbench._native is out of date (rule list differs); run `make setup`. Using the Python engine.",
                  stacklevel=1)
    _native = None

ENGINES = ("auto", "native", "python")
_RULE_FIELDS = (
    "castling", "archer_melee", "mate_defence", "draw_after", "pike_cavalry_mutual", "archer_range", "hill_bonus",
    "aura_radius", "aura_step", "aura_memory", "coordinated", "order_size", "order_radius", "castling_uses",
    "promotion", "knight_bridge_stop",
)


class NativeUnavailableError(RuntimeError):
    """``engine="native"`` was asked for but the extension is not built."""


def available() -> bool:
    """True when the native core is built and importable."""
    return _native is not None


def resolve_engine(engine: str | None = "auto") -> str:
    """``auto`` -> ``native`` when built, else ``python``; ``native`` without the build is a clear error."""
    name = str(engine or "auto").strip().lower()
    if name not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}; choose one of {', '.join(ENGINES)}")
    if name == "auto":
        return "native" if available() else "python"
    if name == "native" and not available():
        raise NativeUnavailableError(
            "engine=native: the native core is not built (needs cargo; run `make setup`), use engine=python or auto"
        )
    return name


# ---------------------------------------------------------------------- conversions


def board_tables(game: Game) -> dict[str, Any]:
    """The Python ``Board``'s tables as plain lists for the native core."""
    bd = game.board
    return {
        "castle_centre": list(bd.castle_centre),
        "castle_zone": [sorted(z) for z in bd.castle_zone],
        "swamp_owner": list(bd.swamp_owner),
        "is_bridge": list(bd.is_bridge),
        "knight_bridge": list(bd.knight_bridge),
        "is_summer_ford": list(bd.is_summer_ford),
        "is_ford": [h in bd.fords for h in range(91)],
        "walkable": list(bd.walkable),
        "knight_walkable": list(bd.knight_walkable),
        "stop_for": [list(x) for x in bd.stop_for],
        "cavalry_stop_for": [list(x) for x in bd.cavalry_stop_for],
        "is_hill": list(bd.is_hill),
        "steps": [list(x) for x in bd.steps],
        "promotes": [list(x) for x in bd.promotes],
        "shot_targets": [list(x) for x in bd.shot_targets],
        "winter": bool(bd.winter),
    }


def rules_dict(rules: RulesConfig) -> dict[str, Any]:
    """The rule values the native core reads during play (terrain ones are in the board tables)."""
    out: dict[str, Any] = {}
    for name in _RULE_FIELDS:
        if hasattr(rules, name):
            out[name] = getattr(rules, name)
    return out


def setup_of(st: GameState, live: bool = True) -> dict[str, Any]:
    """A Python state's position as the native setup dict (``live``: keep its result, no mate test)."""
    return {
        "squares": list(st.squares),
        "to_move": st.to_move,
        "markers": [list(st.markers[0].items()), list(st.markers[1].items())],
        "pending": sorted(st.pending),
        "castled": [int(x) for x in st.castled],
        "aura_ready": sorted(st.aura_ready),
        "destroyed": [list(st.destroyed[0]), list(st.destroyed[1])],
        "ply": st.ply,
        "quiet": st.quiet,
        "winner": st.winner,
        "victory": st.victory,
        "counters": list(st.counters),
        "fired": [(RULE_INDEX[r], side, h) for r, side, h in st.fired],
        "settled": bool(getattr(st, "_settled", False)),
        "skip_mate_test": live,
    }


# Every rule the native core implements: terrain ones through the board's tables, the others in
# rules_dict. A rule added to RulesConfig later is played natively only at its default value.
PORTED_RULES = frozenset((
    "season", "hill", "swamp", "terrain", "hills", "swamps", "bridges", "fords", "start", *_RULE_FIELDS,
))


def supports(st: GameState) -> bool:
    """Whether the native core holds this position and rules: every non-default rule is one it ports,
    and at most ``MAX_MARKERS`` archers a side, counting those the promotion pool could bring back
    (the core keeps markers in fixed arrays)."""
    if _native is None or not set(st.rules.non_default()) <= PORTED_RULES:
        return False
    from .engine.pieces import ARCHER

    for s in (0, 1):
        own = sum(1 for c in st.squares if c and c >> 3 == s)
        archers = sum(1 for c in st.squares if c == (ARCHER | (s << 3))) + st.destroyed[s].count(ARCHER)
        if archers > _native.MAX_MARKERS or own + len(st.destroyed[s]) > 91:
            return False
        if not 0 <= int(st.castled[s]) <= getattr(_native, "MAX_CASTLED", 255):  # a record's castled list
            return False
    return True


def unsupported_reason(st: GameState) -> str:
    """Why the native core cannot hold ``st`` (for the one-line notice of an agent's Python twin)."""
    if _native is None:
        return "the native core is not built"
    extra = sorted(set(st.rules.non_default()) - PORTED_RULES)
    if extra:
        return f"it does not port the rule(s) {', '.join(extra)}"
    cap = getattr(_native, "MAX_CASTLED", 255)
    if any(int(c) > cap for c in st.castled):
        return f"it counts at most {cap} castlings a side"
    return f"it holds at most {_native.MAX_MARKERS} archers a side, counting destroyed ones a promotion could bring back"


class NativeState:
    """A native game state with the ``GameState`` query API (legal actions are the same tuples).

    ``game`` is the Python ``Game`` it belongs to (rules, seed, terrain), used for ``to_dict``
    and for converting back with ``to_python``.
    """

    __slots__ = ("game", "_st")

    def __init__(self, game: Game, native_state: Any) -> None:
        self.game = game
        self._st = native_state

    # construction ---------------------------------------------------------
    @classmethod
    def from_state(cls, st: GameState) -> NativeState:
        """The native twin of a Python state (same position, result and counters; no history)."""
        _require()
        if not supports(st):
            raise ValueError(f"the native core holds at most {_native.MAX_MARKERS} archers a side (with the "
                             "destroyed ones a promotion could bring back) and plays the rules it ports ("
                             f"{', '.join(sorted(PORTED_RULES))}); use engine=python for this game")
        return cls(st.game, _native.State(board_tables(st.game), rules_dict(st.rules), setup_of(st)))

    @classmethod
    def initial(cls, game: Game) -> NativeState:
        """The game's start position (classic, or whatever ``new_initial_state`` gives)."""
        return cls.from_state(game.new_initial_state())

    # GameState query API ---------------------------------------------------
    @property
    def rules(self) -> RulesConfig:
        """The game's ``RulesConfig``."""
        return self.game.rules

    @property
    def board(self) -> Any:
        """The Python ``Board`` (terrain tables) of the game."""
        return self.game.board

    def legal_actions(self) -> list[tuple]:
        """Every legal action, as the Python engine's tuples in its order."""
        return self._st.legal_actions()

    def apply(self, action: tuple, check: bool = True) -> None:
        """Play an action; an illegal one raises ``IllegalActionError`` naming the rule (from the Python engine)."""
        from .engine.state import action_shape_error

        shape = action_shape_error(action)
        if shape is not None:  # None, (), text, a bad hex: the same error as the Python engine's
            shown = repr(action) if len(repr(action)) <= 60 else repr(action)[:57] + "..."
            raise IllegalActionError(f"{shown}: not an action: {shape}")
        try:
            self._st.apply(tuple(action), check)
        except ValueError:
            from .engine import explain_illegal

            raise IllegalActionError(explain_illegal(self.to_python(), tuple(action))) from None

    def parse_action(self, text: str) -> tuple:
        """An action in notation, read by the Python parser on this position (so an illegal one gets the
        Python engine's reason, naming the rule), and refused when the native core does not list it: the
        two engines would disagree (``check --engine native`` reports that as an error)."""
        action = tuple(self.to_python().parse_action(text))
        if action not in self.legal_actions():
            raise IllegalActionError(f"{text}: the Python engine reads it as legal but the native core does not "
                                     "list it (the engines disagree)")
        return action

    def destinations(self, h: int) -> set[int]:
        """``GameState.destinations`` from the native core's legal actions: final hexes of the piece on ``h``."""
        from .engine.state import MOVE

        c = self.squares[h]
        if self.victory is not None or not c or c >> 3 != self.to_move:
            return set()
        return {a[2] for a in self.legal_actions() if a[0] == MOVE and a[1] == h}

    def undo(self) -> tuple:
        """Take back the last action; returns it."""
        return self._st.undo()

    def is_terminal(self) -> bool:
        return self._st.is_terminal()

    def returns(self) -> list[float]:
        return self._st.returns()

    def current_player(self) -> int:
        return self._st.current_player()

    @property
    def to_move(self) -> int:
        return self._st.current_player()

    @property
    def ply(self) -> int:
        return self._st.ply

    @property
    def quiet(self) -> int:
        return self._st.quiet

    @property
    def winner(self) -> int | None:
        return self._st.winner

    @property
    def victory(self) -> str | None:
        return self._st.victory

    def winner_name(self) -> str | None:
        w = self._st.winner
        return None if w is None else SIDE_NAMES[w]

    @property
    def squares(self) -> list[int]:
        """A copy of the piece codes (changing it does not change the state); a list, as the
        Python engine's, never the ``bytes`` the binding hands over for a ``Vec<u8>``."""
        return list(self._st.squares())

    @property
    def feudal(self) -> list[int]:
        return self._st.feudal()

    @property
    def markers(self) -> list[dict[int, int]]:
        return [dict(m) for m in self._st.markers()]

    @property
    def pending(self) -> frozenset[int]:
        return frozenset(self._st.pending())

    @property
    def castled(self) -> list[int]:
        return list(self._st.castled())

    @property
    def aura_ready(self) -> set[int]:
        return set(self._st.aura_ready())

    @property
    def destroyed(self) -> list[list[int]]:
        return [list(d) for d in self._st.destroyed()]

    @property
    def history(self) -> list[tuple]:
        return self._st.history()

    @property
    def counters(self) -> list[int]:
        """Rule-usage counters (``2 * rule + side``, rules as ``telemetry.RULES``)."""
        return self._st.counters()[:N_COUNTERS]

    @property
    def fired(self) -> tuple[tuple[str, int, int], ...]:
        """Rules fired by the last action: (rule, side, hex or -1), as the Python engine's ``fired``."""
        return tuple((RULES[r], s, h) for r, s, h in self._st.fired())

    def is_threatened(self, side: int) -> bool:
        return self._st.is_threatened(side)

    def clone(self) -> NativeState:
        return NativeState(self.game, self._st.clone())

    def perft(self, depth: int) -> int:
        """Perft inside Rust (bulk counting at the last level)."""
        return self._st.perft(depth)

    def to_dict(self) -> dict[str, Any]:
        """Exactly ``state_to_dict`` of the equivalent Python state."""
        from .engine.geometry import hex_name
        from .engine.pieces import letter

        sq = self._st.squares()
        markers = {}
        for m in self._st.markers():
            for a, t in sorted(m):
                markers[hex_name(a)] = hex_name(t)
        castled = self._st.castled()
        destroyed = self._st.destroyed()
        out: dict[str, Any] = {
            "rules": self.game.rules.to_dict(),
            "seed": self.game.seed,
            "terrain": self.game.terrain.to_dict(),
            "to_move": SIDE_NAMES[self._st.current_player()],
            "pieces": {hex_name(h): letter(c) for h, c in enumerate(sq) if c},
            "markers": markers,
            "ultimatum_pending": [hex_name(h) for h in self._st.pending()],
            "castled": [SIDE_NAMES[s] for s in (0, 1) for _ in range(castled[s])],
            "aura_ready": [hex_name(h) for h in self._st.aura_ready()],
            "destroyed": {SIDE_NAMES[s]: [letter(k | (s << 3)) for k in destroyed[s]] for s in (0, 1)},
            "ply": self._st.ply,
            "quiet": self._st.quiet,
            "winner": self.winner_name(),
            "victory": self._st.victory,
            "counters": counters_dict(self.counters),
        }
        return out

    def to_python(self) -> GameState:
        """The equivalent Python ``GameState`` (same position and result; no history), playable:
        every field is the Python engine's own mutable type (lists, not the binding's ``bytes``)."""
        st = GameState(self.game)
        st.squares = list(self._st.squares())
        st.feudal = list(self._st.feudal())
        st.to_move = self._st.current_player()
        st.markers = [dict(m) for m in self._st.markers()]
        st.pending = frozenset(self._st.pending())
        st.castled = list(self._st.castled())
        st.aura_ready = set(self._st.aura_ready())
        st.destroyed = [list(d) for d in self._st.destroyed()]
        st.ply = self._st.ply
        st.quiet = self._st.quiet
        st.winner = self._st.winner
        st.victory = self._st.victory
        st._settled = True
        st.counters = self.counters
        st.fired = self.fired
        return st

    def __repr__(self) -> str:
        status = (
            f"{self.winner_name() or 'nobody'} won by {self.victory}" if self.victory else f"{SIDE_NAMES[self.to_move]} to move"
        )
        return f"<TerraFeud native ply {self.ply}, {status}>"


def _require() -> None:
    if _native is None:
        resolve_engine("native")


# ---------------------------------------------------------------------- whole games


def agent_spec(spec: str, seed: int | None, game: Any = None) -> tuple[str, list[tuple[str, str]], list[int]]:
    """``"alphabeta:depth=2"`` into (name, [(key, value)], seed key) for the native factory. Learned weights
    (``eval=NAME``, a weights file of ``game`` by name) go to Rust as their vector over the evaluation features,
    each weight's ``repr`` (which Rust parses to the same float) joined by ``;``."""
    name, _, rest = str(spec).strip().partition(":")
    params = []
    for part in filter(None, (p.strip() for p in rest.split(","))):
        if "=" not in part:
            raise ValueError(f"agent {spec!r}: parameter {part!r} needs the form name=value")
        k, v = (x.strip() for x in part.split("=", 1))
        if k == "eval":
            from .agents.evaluate import learned_evaluation

            v = ";".join(repr(w) for w in learned_evaluation(game, v).weights)
        params.append((k, v))
    return name, params, seed_key(seed)


def has_agent(spec: str) -> bool:
    """True when the agent of this spec string has a native implementation."""
    return available() and bool(_native.has_agent(str(spec).strip().partition(":")[0]))


_installed = False


def install_eval_params() -> Any:
    """``workbench._native`` with the evaluation parameters installed (once per process): the weights and
    terms of ``agents/evaluate.py``, read in Python and handed to Rust, so both engines score alike."""
    global _installed
    from .agents.evaluate import TERMS, piece_weights

    if _native is None:
        resolve_engine("native")  # raises the adapter's clear "not built" error
    if not _installed:
        _native.set_eval_params(list(piece_weights()[:8]), sorted(TERMS.items()))
        _installed = True
    return _native


def play_native(
    start: GameState, white: str, black: str, seeds: tuple[int | None, int | None], max_plies: int, boards: bool = True,
    game: Any = None,
) -> dict[str, Any]:
    """Play a whole game inside Rust (GIL released) from a Python start state.

    ``game``: TerraFeud's ``GameDef``, whose weights files an ``eval=NAME`` names. Returns ``actions`` (tuples), ``n_legal``, ``boards`` (bytes: 91 codes before each ply and after
    the last), ``fired`` (per ply), ``winner``, ``victory``, ``plies`` and ``counters``.
    """
    _require()
    if not supports(start):
        raise ValueError(f"the native core holds at most {_native.MAX_MARKERS} archers a side; use engine=python")
    install_eval_params()  # the evaluation's weights, once per process (pool and Dask workers too)
    return _native.play_game(
        board_tables(start.game),
        rules_dict(start.rules),
        setup_of(start, live=True),
        agent_spec(white, seeds[0], game),
        agent_spec(black, seeds[1], game),
        int(max_plies),
        bool(boards),
    )


def state_of(st: GameState | NativeState, engine: str = "auto") -> GameState | NativeState:
    """``st`` on the requested engine (converting a Python state to native or back)."""
    eng = resolve_engine(engine)
    if eng == "native":
        return st if isinstance(st, NativeState) else NativeState.from_state(st)
    return st.to_python() if isinstance(st, NativeState) else st


def new_state(game: Game, engine: str = "auto") -> GameState | NativeState:
    """The initial state of ``game`` on the requested engine."""
    st = game.new_initial_state()
    return NativeState.from_state(st) if resolve_engine(engine) == "native" else st


class GenericTwin(CoreAgent):
    """A generic agent's native twin on TerraFeud (``workbench.core.nativekit.CoreAgent``), the seat agent of a
    ``generic-<name>`` spec (``GAME.native.agent``): the generic agents of ``workbench.agents.generic`` searched
    in Rust through ``core::protocol::Game`` over the tuned state (``workbench._native.terrafeud``), picking what
    the Python twin picks (``test_protocol_native``). A position the core cannot hold (``supports``) is searched
    by the Python twin."""

    SUBMODULE = "terrafeud"
    PARAMS = LEARNED_AGENT_PARAMS  # eval=NAME: the core computes the evaluation features (TerraFeud::features)

    @classmethod
    def for_seat(cls, spec: str, game: Any, rules: Any, seed: int | None, built: bool) -> GenericTwin | None:
        """The twin of ``generic-<name>`` when the core is built and holds the agent and its parameters, else None."""
        base = parse_agent_spec(spec)[0]
        if not built or not base.startswith(GENERIC_PREFIX) or base[len(GENERIC_PREFIX):] not in cls.NAMES:
            return None
        try:
            return cls(spec, game, rules, seed)
        except ValueError:  # a parameter the core does not read (eval=, bar=): the Python agent plays
            return None

    def core_agent(self, base: str, params: dict[str, float], seed: int | None) -> Any:
        return super().core_agent(base[len(GENERIC_PREFIX):] if base.startswith(GENERIC_PREFIX) else base,
                                  params, seed)

    def core_state(self, state: Any) -> Any:
        inner = state.inner  # a protocol TerraFeudState
        return (inner if isinstance(inner, NativeState) else NativeState.from_state(inner))._st

    def select_action(self, state: Any) -> Any:
        """The pick as the protocol's action (the engine's tuple): the core's dense ids come in the Python legal
        order, so the id's place in them is the action's place in ``legal_actions()``."""
        inner = state.inner
        if isinstance(inner, GameState) and not supports(inner):
            return self.twin.select_action(state)
        native = self.core_state(state)
        ids = list(_native.terrafeud.legal_ids(native))
        return state.legal_actions()[ids.index(int(super().select_action(state)))]


def native_features(state: NativeState, player: int) -> list[float]:
    """``GAME.evaluation_features`` of a core state, computed in the core (counts per kind, then ``position``)."""
    install_eval_params()
    return list(_native.terrafeud.protocol_features(state._st, int(player)))


def play_barred(start: Any, seats: Any, masks: Any, n_classes: int, max_plies: int) -> Any:
    """``GAME.native.play_barred``: one restricted-play game in Rust through the core's protocol from ``start`` (a
    ``TerraFeudState``): (final ``TerraFeudState`` over the native state, legal counts, tallies), or None when the
    core is not built or does not hold the rules or position (``supports``)."""
    from workbench.core.agents import seed_key
    from workbench.games.terrafeud.state import TerraFeudState

    inner = start.inner
    if _native is None or not supports(inner):
        return None
    ns = inner if isinstance(inner, NativeState) else NativeState.from_state(inner)
    agents = [(name, {k: float(v) for k, v in params.items()} or None, seed_key(seed)) for name, params, seed in seats]
    final, n_legal, tallies, illegal = _native.terrafeud.play_barred(ns._st, agents, [int(m) for m in masks],
                                                                     int(n_classes), river_rows(), seed_key(0),
                                                                     int(max_plies))
    if illegal is not None:
        raise ValueError(f"action {illegal[0]} is not among the {illegal[1]} legal actions")
    return TerraFeudState(NativeState(ns.game, final)), list(n_legal), list(tallies)


def protocol_perft(state: Any, depth: int) -> int | None:
    """Perft of ``state`` (an engine or native state) in Rust through the core's protocol face, or None when the
    core is not built or cannot hold the position (``perft`` walks it in Python then)."""
    if _native is None or (isinstance(state, GameState) and not supports(state)):
        return None
    ns = state if isinstance(state, NativeState) else NativeState.from_state(state)
    return int(_native.terrafeud.protocol_perft(ns._st, int(depth)))


def river_rows() -> tuple[int, int]:
    """The river band's lowest and highest row (``board.side_of_half``'s data), for the Rust classifier."""
    from workbench.games.terrafeud.engine.board import board_data

    rows = board_data()["river_rows"]
    return int(rows[0]), int(rows[-1])


def class_bits(state: NativeState, action_id: int) -> int:
    """The Rust classifier's bits for the action of dense id ``action_id`` in ``state``."""
    return int(_native.terrafeud.classes(state._st, int(action_id), river_rows()))
