"""Big chess on the native core (``workbench._native.big_chess``), with the protocol's API.

The Python engine stays the specification. A game's fixed part crosses once per ``Context`` (``native_game``:
its cards in the card file format, the rules' costs and incomes, the board's rows and facings, the teams,
every rule), so a scenario's own cards, a designer's card files and boards play natively; a position
crosses as the Python state's fields (``fields_of``) and comes back the same way (``python_state``).
``NativeBigChessState`` plays (legal actions in canonical order, apply, undo, resign, evaluation, counters,
``fired``) in Rust; whatever the core does not compute (``to_dict``, pictures, reasons for an illegal
action) is asked of a Python state rebuilt from the native fields, so both engines print and explain
the same.

Without a built core ``available()`` is False and nothing here is used.
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

from workbench.core.nativekit import GENERIC_AGENT_NAMES, LEARNED_AGENT_PARAMS, CoreAgent, MirroredState, core_module
from workbench.core.protocol import IllegalAction
from workbench.core.rulespec import Rules

from .boards import LETTERS
from .context import Context
from .state import COUNTERS, BigChessState, Piece

AGENT_NAMES = GENERIC_AGENT_NAMES
AGENT_PARAMS = LEARNED_AGENT_PARAMS  # eval=NAME: the core computes the game's evaluation features
SUBMODULE = "big_chess"
_NC = len(COUNTERS)
_RESULTS = {None: 0, "win": 1, "draw": 2}
_RESULT_NAMES = {v: k for k, v in _RESULTS.items()}
# toggles and choices as the index of their value (the default is 0)
_CHOICES = {"jester_blocks": ("enemies", "all"), "lock_expiry": ("creator_turn", "round_end"),
            "start": ("setup", "army", "deployed")}
_INTS = ("king_cost", "strike_reward_pct", "vet_rate_pct", "mine_income", "turn_income", "upkeep",
         "victim_discount_pct", "promotion_distance", "max_turns", "quiet_limit", "victim_blocks_jumps",
         "pawn_promotion", "prince_succession", "prince_buy_to_owner", "king_pushable", "passable_targets")


def core() -> Any:
    """The native submodule, or None when the core is not built (or predates big chess)."""
    return core_module(SUBMODULE)


def available() -> bool:
    """True when the native core with big chess is importable."""
    return core() is not None


def rules_dict(rules: Rules) -> dict[str, int]:
    """Every numeric rule, toggle and choice as an int for the core's struct."""
    out = {name: int(rules[name]) for name in _INTS}
    for name, choices in _CHOICES.items():
        out[name] = choices.index(rules[name])
    return out


_GAMES: dict[int, tuple[Context, Any]] = {}


def native_game(ctx: Context) -> Any:
    """The core's ``Game`` of a context (built once per context: cards, board, teams, rules)."""
    hit = _GAMES.get(id(ctx))
    if hit is not None and hit[0] is ctx:
        return hit[1]
    mod = core()
    if mod is None:
        raise RuntimeError("the native core is not built (make native)")
    r = ctx.rules
    game = mod.Game(json.dumps([c.to_data() for c in ctx.cards]), list(ctx.cost), list(ctx.income),
                    list(ctx.board.rows), [(LETTERS.index(k), int(v)) for k, v in ctx.board.facing.items()],
                    ctx.teams_text, rules_dict(r), list(r["promotion_targets"]), list(r["fort_levels"]),
                    list(r["deploy_plan"]))
    if len(_GAMES) > 256:
        _GAMES.clear()
    _GAMES[id(ctx)] = (ctx, game)
    return game


def fields_of(st: BigChessState) -> dict[str, Any]:
    """Everything a native state needs from a Python state."""
    ctx = st.ctx
    n, k = len(ctx.players), len(ctx.cards)
    buys = [0] * (k * n)
    bought = [False] * k
    for key, per in st.buys.items():
        i = ctx.card_index[key]
        bought[i] = True
        for p, v in enumerate(per):
            buys[i * n + p] = v
    counts = [v for name in COUNTERS for v in st.counts[name]]
    return {
        "setup": st.phase == "setup", "to_move": st.to_move, "turn": st.turn_no, "quiet": st.quiet,
        "treasury": list(st.treasury),
        "pieces": [(c, pc.owner, pc.card, pc.facing, pc.levels, pc.cost, pc.trophies, pc.moved, pc.travelled)
                   for c, pc in st.pieces.items()],
        "shadows": list(st.shadows.items()), "protected": sorted(st.protected), "locks": sorted(st.locks),
        "out": sorted(st.out), "ready": sorted(st.ready),
        "winner_team": -1 if st.winner_team is None else st.winner_team, "result": _RESULTS[st.result],
        "moves": st.moves, "counts": counts, "buys": buys, "bought": bought,
        "lead10": None if st.lead10 is None else list(st.lead10),
        "fired": [(COUNTERS.index(r), p, -1 if c is None else c) for r, p, c in st.fired()],
    }


def python_state(ctx: Context, f: dict[str, Any], seed: int = 0) -> BigChessState:
    """A Python ``BigChessState`` equal to native fields ``f`` (no undo history)."""
    st = BigChessState(ctx)
    st.seed = seed
    n = len(ctx.players)
    st.phase = "setup" if f["setup"] else "play"
    st.to_move, st.turn_no, st.quiet = f["to_move"], f["turn"], f["quiet"]
    st.treasury = list(f["treasury"])
    st.pieces = {c: Piece(o, k, fa, lv, cost, tr, bool(mv), trav) for c, o, k, fa, lv, cost, tr, mv, trav in f["pieces"]}
    st.shadows = dict(f["shadows"])
    st.protected = set(f["protected"])
    st.locks = {(a, b) for a, b in f["locks"]}
    st.out, st.ready = set(f["out"]), set(f["ready"])
    st.winner_team = None if f["winner_team"] < 0 else f["winner_team"]
    st.result = _RESULT_NAMES[f["result"]]
    st.moves = f["moves"]
    c = f["counts"]
    st.counts = {name: list(c[i * n:(i + 1) * n]) for i, name in enumerate(COUNTERS)}
    st.buys = {ctx.cards[i].key: list(f["buys"][i * n:(i + 1) * n]) for i, b in enumerate(f["bought"]) if b}
    st.lead10 = None if f["lead10"] is None else list(f["lead10"])
    st._fired = [(COUNTERS[r], p, None if cell is None or cell < 0 else cell) for r, p, cell in f["fired"]]
    return st


class NativeBigChessState(MirroredState):
    """A big-chess state played by the native core; the protocol's API, the Python engine's answers
    (``workbench.core.nativekit.MirroredState``)."""

    OWN: ClassVar[frozenset[str]] = frozenset({"native", "ctx", "seed", "_py", "_legal"})

    def __init__(self, native: Any, ctx: Context, seed: int = 0) -> None:
        self.native = native
        self.ctx = ctx
        self.seed = seed
        self._py: BigChessState | None = None
        self._legal: list[str] | None = None

    @classmethod
    def from_python(cls, st: BigChessState) -> NativeBigChessState:
        """The native twin of a Python state (undo history not carried over)."""
        return cls(native_game(st.ctx).state(fields_of(st)), st.ctx, st.seed)

    @classmethod
    def initial(cls, ctx: Context, seed: int = 0) -> NativeBigChessState:
        """The game's start dealt by the core (setup phase, army or deployed)."""
        return cls(native_game(ctx).initial(), ctx, seed)

    def rebuild(self) -> BigChessState:
        return python_state(self.ctx, self.native.fields(), self.seed)

    def python(self) -> BigChessState:
        """The Python engine's state equal to this one (cached until the next change)."""
        return super().python()  # type: ignore[no-any-return]

    def _changed(self) -> None:
        self._py = None
        self._legal = None

    # ---------------------------------------------------------------- play
    def current_player(self) -> int:
        return self.native.current_player()

    def is_terminal(self) -> bool:
        return self.native.is_terminal()

    def returns(self) -> list[float]:
        return self.native.returns()

    def winner(self) -> int | None:
        return self.python().winner()

    def victory(self) -> str | None:
        return self.python().victory()

    def move_number(self) -> int:
        return self.native.move_number()

    def turn(self) -> int:
        return self.python().turn()

    def legal_actions(self, player: int | None = None) -> list[str]:
        if self._legal is None:
            self._legal = self.native.legal_actions()
        if player is not None and self.python().phase == "setup":
            letter = self.ctx.players[player] + ":"
            return [a for a in self._legal if a.startswith(letter)]
        if player is not None and player != self.current_player():
            return []
        return list(self._legal)

    def apply_action(self, action: Any) -> None:
        text = action if isinstance(action, str) else None
        if text is None or self.native.id_of(text) is None:
            text = self.string_to_action(str(action))  # raises IllegalAction with the rule's reason
        self.native.apply(text)
        self._changed()

    def resign(self, player: int | str) -> None:
        p = self.ctx.pidx[player] if isinstance(player, str) else int(player)
        try:
            self.native.resign(p)
        except ValueError:
            self.python().resign(player)  # raises IllegalAction with the Python wording
            raise
        self._changed()

    def clone(self) -> NativeBigChessState:
        new = NativeBigChessState(self.native.clone(), self.ctx, self.seed)
        new._py, new._legal = self._py, self._legal
        return new

    def counters(self) -> dict[str, list[int]]:
        return self.python().counters()

    def action_priority(self, action: Any) -> int:
        return self.native.action_priority(str(action))

    # ---------------------------------------------------------------- asked of the Python engine
    def action_to_string(self, action: Any) -> str:
        return str(action)

    def string_to_action(self, text: str) -> str:
        """Read by the Python parser on this position; legality is the core's, and an action one engine accepts
        and the other refuses is an error, never silently one engine's answer."""
        py = self.python()
        canon = py.canonical_input(text)
        if self.native.id_of(canon) is not None:
            if canon not in py._legal_map():
                raise RuntimeError(f"{text}: the engines disagree (legal natively, not in Python)")
            return canon
        py.string_to_action(text)  # raises IllegalAction with the rule's reason
        raise RuntimeError(f"{text}: the engines disagree (legal in Python, not natively)")

    def __repr__(self) -> str:
        return f"<NativeBigChessState move {self.move_number()} to move {self.current_player()}>"


class NativeAgent(CoreAgent):
    """A generic agent's native twin on big chess (``workbench.core.nativekit.CoreAgent``): it searches the
    core's copy of the position and answers with the action's canonical text, as the Python twin does."""

    SUBMODULE = SUBMODULE
    PARAMS = AGENT_PARAMS

    def core_state(self, state: Any) -> Any:
        return (state if isinstance(state, NativeBigChessState) else NativeBigChessState.from_python(state)).native

    def select_action(self, state: Any) -> Any:
        native = self.core_state(state)
        action = self._agent.select_action(native)
        if hasattr(self.twin, "score"):
            self.score, self.nodes_searched = self._agent.stats()
        return native.text_of(action)


def native_state(st: BigChessState) -> NativeBigChessState:
    """``NativeBigChessState.from_python``."""
    return NativeBigChessState.from_python(st)


__all__ = ["AGENT_NAMES", "AGENT_PARAMS", "NativeAgent", "NativeBigChessState", "available", "core", "fields_of",
           "native_game", "native_state", "python_state", "rules_dict"]


def buy_keys() -> list[str]:
    """The card keys of the declared buy classes (``classes.BUY_CLASSES``), in declaration order."""
    from .classes import BUY_CLASSES

    return [c.name[len("buy_"):] for c in BUY_CLASSES]


def play_barred(start: BigChessState, seats: Any, masks: Any, n_classes: int,
                max_plies: int) -> tuple[BigChessState, list[int], list[tuple[int, int, list[int]]]] | None:
    """``GAME.native.play_barred``: one restricted-play game in Rust from ``start`` (None without the core)."""
    from workbench.core.agents import seed_key

    if not available():
        return None
    agents = [(name, {k: float(v) for k, v in params.items()} or None, seed_key(seed)) for name, params, seed in seats]
    fields, n_legal, tallies, illegal = core().play_barred(native_game(start.ctx), fields_of(start), agents,
                                                           [int(m) for m in masks], int(n_classes), buy_keys(),
                                                           seed_key(0), int(max_plies))
    if illegal is not None:
        raise IllegalAction(f"action {illegal[0]} is not among the {illegal[1]} legal actions")
    return python_state(start.ctx, fields, start.seed), list(n_legal), list(tallies)


def class_bits(state: NativeBigChessState, action: Any) -> int:
    """The Rust classifier's bits for ``action`` (its text) in ``state``."""
    action_id = state.native.id_of(str(action))
    if action_id is None:
        raise IllegalAction(f"{str(action)[:40]}: not legal here")
    return int(state.native.classes(action_id, buy_keys()))
