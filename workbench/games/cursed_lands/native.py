"""The Cursed Lands on the native core (``workbench._native.cursed_lands``), with the protocol's API.

The Python engine stays the specification: every native state is built from a Python ``CursedState``
(``fields_of``), and whatever the native core does not compute (notation, positions, ``to_dict``,
pictures, reasons for an illegal action) is asked of a Python state rebuilt from the native fields
(``python_state``), so both engines print, save and explain the same. ``NativeCursedState`` plays
(legal actions, apply, undo, view, evaluation, counters, ``fired``) in Rust.

Without a built core ``available()`` is False and nothing here is used.
"""

from __future__ import annotations

from typing import Any, ClassVar

from workbench.core.nativekit import GENERIC_AGENT_NAMES, LEARNED_AGENT_PARAMS, CoreAgent, MirroredState, core_module
from workbench.core.protocol import TERMINAL, IllegalAction
from workbench.core.rulespec import Rules

from . import actions as act
from .deck import PLAIN
from .geometry import NUM_HEXES
from .rules import FACTIONS
from .state import COUNTER_NAMES, NC, CursedState

VICTORY_CODES = {None: 0, "castle": 1, "elimination": 2, "draw": 3}
VICTORY_NAMES = {v: k for k, v in VICTORY_CODES.items()}
FIRED_NAMES = (*COUNTER_NAMES, "castle_hit_from", "victory_castle", "victory_elimination", "draw_turn_limit", "camp")
_FIRED_INDEX = {n: i for i, n in enumerate(FIRED_NAMES)}
AGENT_NAMES = GENERIC_AGENT_NAMES
SUBMODULE = "cursed_lands"


def core() -> Any:
    """The native submodule, or None when the core is not built (or predates The Cursed Lands)."""
    return core_module(SUBMODULE)


def available() -> bool:
    """True when the native core with The Cursed Lands is importable."""
    return core() is not None


# toggles as the index of their value in the Python choices (the default is 0)
_TOGGLES = {
    "untiled": ("void", "plain"), "tiles_on_camp": (False, True), "deck_top_visible": (True, False),
    "counterattack": ("none", "melee"), "elf_cover_ignore": ("all", "ranged"), "orc_forest_cover": (True, False),
    "setup_phase": (False, True), "dwarf_road_bonus": (False, True), "auto_end": ("exhausted", "zero_ap"),
}
_SKIP = ("factions", "setup", "first_player")


def rules_dict(rules: Rules, factions: list[int] | tuple[int, int] | None = None) -> dict[str, int]:
    """Every rule as an int for the native struct; ``factions`` (a position's override) wins over the rules'."""
    out: dict[str, int] = {}
    for p in rules.spec:
        name = p.name
        if name in _SKIP:
            continue
        value = rules[name]
        out[name] = _TOGGLES[name].index(value) if name in _TOGGLES else int(value)
    out["first_player"] = 0 if rules["first_player"] == "p1" else 1
    if factions is None:
        a, b = rules["factions"].split("/")
        factions = (FACTIONS.index(a), FACTIONS.index(b))
    out["faction_p1"], out["faction_p2"] = int(factions[0]), int(factions[1])
    return out


def fields_of(st: CursedState) -> dict[str, Any]:
    """Everything a native state needs from a Python state."""
    return {
        "camps": [None if c is None else (c[0], list(c[1])) for c in st.camps],
        "tile": list(st.tile), "owner": list(st.owner), "kind": list(st.kind), "hp": list(st.hp),
        "mark": list(st.mark), "setup": st.phase == "setup", "to_move": st.to_move, "ap": st.ap,
        "turn": st.turn_no, "tiles_placed": st.tiles_placed, "castle_hp": list(st.castle_hp),
        "decks": [list(d) for d in st.decks], "winner": -1 if st.winner_side is None else st.winner_side,
        "victory": VICTORY_CODES[st.victory_kind], "counts": list(st.counts), "moves": st.moves_played,
        "fired": [(_FIRED_INDEX[r], s, -1 if c is None else c) for r, s, c in st.last_fired],
    }


def python_state(rules: Rules, seed: int, factions: list[int], f: dict[str, Any]) -> CursedState:
    """A Python ``CursedState`` equal to native fields ``f`` (no undo history)."""
    st = CursedState(rules, seed)
    st.factions = list(factions)
    st.phase = "setup" if f["setup"] else "play"
    for side, camp in enumerate(f["camps"]):
        if camp is not None:
            flags = tuple(camp[1])
            st.set_camp(side, camp[0], (flags[0], flags[1], flags[2], flags[3]))
    for h, code in enumerate(f["tile"]):
        if code:
            st.put_tile(h, code)
    st.owner, st.kind, st.hp, st.mark = list(f["owner"]), list(f["kind"]), list(f["hp"]), list(f["mark"])
    st.unit_count = [sum(1 for o in st.owner if o == s) for s in (0, 1)]
    st.to_move, st.ap, st.turn_no, st.tiles_placed = f["to_move"], f["ap"], f["turn"], f["tiles_placed"]
    st.castle_hp = list(f["castle_hp"])
    st.decks = [list(d) for d in f["decks"]]
    st.winner_side = None if f["winner"] < 0 else f["winner"]
    st.victory_kind = VICTORY_NAMES[f["victory"]]
    st.counts = list(f["counts"])
    st.moves_played = f["moves"]
    st.last_fired = [(FIRED_NAMES[r], s, None if c < 0 else c) for r, s, c in f["fired"]]
    return st


class NativeCursedState(MirroredState):
    """A Cursed Lands state played by the native core; the protocol's API, the Python engine's answers
    (``workbench.core.nativekit.MirroredState``)."""

    OWN: ClassVar[frozenset[str]] = frozenset({"native", "rules", "seed", "factions", "_py"})

    def __init__(self, native: Any, rules: Rules, seed: int, factions: list[int]) -> None:
        self.native = native
        self.rules = rules
        self.seed = seed
        self.factions = list(factions)
        self._py: CursedState | None = None

    @classmethod
    def from_python(cls, st: CursedState) -> NativeCursedState:
        """The native twin of a Python state (undo history not carried over)."""
        mod = core()
        if mod is None:
            raise RuntimeError("the native core is not built (make native)")
        return cls(mod.State(rules_dict(st.rules, st.factions), fields_of(st)), st.rules, st.seed, st.factions)

    def rebuild(self) -> CursedState:
        return python_state(self.rules, self.seed, self.factions, self.native.fields())

    def python(self) -> CursedState:
        """The Python engine's state equal to this one (cached until the next change)."""
        return super().python()  # type: ignore[no-any-return]

    # ---------------------------------------------------------------- play
    def current_player(self) -> int:
        return TERMINAL if self.native.victory else self.native.to_move

    def is_terminal(self) -> bool:
        return bool(self.native.victory)

    def returns(self) -> list[float]:
        w = self.native.winner
        if w < 0:
            return [0.0, 0.0]
        return [1.0, -1.0] if w == 0 else [-1.0, 1.0]

    def winner(self) -> int | None:
        w = self.native.winner
        return None if w < 0 else w

    def outcome(self) -> str:
        v = self.native.victory
        if not v:
            return "ongoing"
        return "draw" if self.native.winner < 0 else "win"

    def victory(self) -> str | None:
        return VICTORY_NAMES[self.native.victory]

    def move_number(self) -> int:
        return self.native.moves

    def turn(self) -> int:
        return self.native.turn

    def legal_actions(self, player: int | None = None) -> list[Any]:
        if self.native.victory or (player is not None and player != self.native.to_move):
            return []
        if self.native.setup:
            return act.CampActions(self.rules["starting_units"])  # type: ignore[return-value]
        return self.native.legal_actions()

    def is_legal(self, action: Any) -> bool:
        return isinstance(action, int) and not isinstance(action, bool) and self.native.is_legal(action)

    def legal_count(self) -> int:
        return self.native.legal_count()

    def apply_action(self, action: Any) -> None:
        if not self.is_legal(action):
            raise IllegalAction(self.python()._why_not(action))
        self.native.apply(action)
        self._changed()

    def clone(self) -> NativeCursedState:
        new = NativeCursedState(self.native.clone(), self.rules, self.seed, self.factions)
        new._py = self._py
        return new

    def view(self, player: int, seed: int = 0) -> NativeCursedState:
        return NativeCursedState(self.native.view(seed & ((1 << 64) - 1)), self.rules, self.seed, self.factions)

    def counters(self) -> dict[str, list[int]]:
        c = self.native.counts()
        return {name: [c[i], c[NC + i]] for i, name in enumerate(COUNTER_NAMES)}

    def action_priority(self, action: Any) -> int:
        return self.native.action_priority(action)

    def deck_top(self, side: int) -> int | None:
        return self.native.deck_top(side)

    # ---------------------------------------------------------------- asked of the Python engine
    def action_to_string(self, action: Any) -> str:
        return self.python().action_to_string(action)

    def agent_string(self, action: Any) -> str:
        return self.python().agent_string(action)

    def string_to_action(self, text: str) -> Any:
        """Read by the Python parser on this position; legality is the native core's, and a disagreement
        between the engines is an error, never silently one engine's answer."""
        return self._checked(text, self.python().string_to_action)

    def agent_string_to_action(self, text: str) -> Any:
        return self._checked(text, self.python().agent_string_to_action)

    def _checked(self, text: str, read: Any) -> Any:
        try:
            a = read(text)
        except IllegalAction:
            try:
                named = self.python().parse(text)
            except IllegalAction:
                raise
            if self.is_legal(named) and read is self.python().string_to_action and "=" not in str(text):
                raise RuntimeError(f"{text}: the engines disagree (legal natively, not in Python)") from None
            raise
        if not self.is_legal(a):
            raise RuntimeError(f"{text}: the engines disagree (legal in Python, not natively)")
        return a

    def parse(self, text: str) -> Any:
        return self.python().parse(text)

    def destinations(self, h: int) -> list[int]:
        """Move-only final hexes of the unit on ``h``, read off the native legal actions (C50)."""
        if self.native.setup:
            return []
        lo, hi = act.MOVE + h * NUM_HEXES, act.MOVE + (h + 1) * NUM_HEXES
        return sorted(a - lo for a in self.legal_actions() if lo <= a < hi)

    def targets(self, h: int) -> list[int]:
        """Hexes the unit on ``h`` may attack without moving, read off the native legal actions (C50)."""
        if self.native.setup:
            return []
        lo, hi = act.ATTACK + h * NUM_HEXES, act.ATTACK + (h + 1) * NUM_HEXES
        return sorted(a - lo for a in self.legal_actions() if lo <= a < hi)

    def __repr__(self) -> str:
        return f"<NativeCursedState turn {self.turn()} p{self.native.to_move + 1} ap {self.native.ap}>"


AGENT_PARAMS = LEARNED_AGENT_PARAMS  # eval=NAME: the core computes the game's evaluation features


class NativeAgent(CoreAgent):
    """A generic agent's native twin on The Cursed Lands (``workbench.core.nativekit.CoreAgent``): it searches
    the view of the side to move, its seed drawn from the agent's stream first, as the Python twin does."""

    SUBMODULE = SUBMODULE
    PARAMS = AGENT_PARAMS

    def core_state(self, state: Any) -> Any:
        return (state if isinstance(state, NativeCursedState) else NativeCursedState.from_python(state)).native


def native_state(st: CursedState) -> NativeCursedState:
    """``NativeCursedState.from_python``."""
    return NativeCursedState.from_python(st)


def tile_letter(code: int) -> str | None:
    """The letter of a terrain code of a deck (None for 0: no tile)."""
    return "prfhm"[code - PLAIN] if code else None


__all__ = ["AGENT_NAMES", "AGENT_PARAMS", "NativeAgent", "NativeCursedState", "available", "core", "fields_of", "native_state", "python_state",
           "rules_dict", "tile_letter", "NUM_HEXES"]


def play_barred(start: CursedState, seats: Any, masks: Any, n_classes: int,
                max_plies: int) -> tuple[CursedState, list[int], list[tuple[int, int, list[int]]]] | None:
    """``GAME.native.play_barred``: one restricted-play game in Rust from ``start`` (None without the core, or for
    a setup phase of 2-3 starting units, which stays on Python as ``native_play.playable`` says)."""
    from workbench.core.agents import seed_key

    if not available() or (start.rules["setup_phase"] and start.rules["starting_units"] >= 2):
        return None
    agents = [(name, {k: float(v) for k, v in params.items()} or None, seed_key(seed)) for name, params, seed in seats]
    fields, n_legal, tallies, illegal = core().play_barred(rules_dict(start.rules, start.factions), fields_of(start),
                                                           agents, [int(m) for m in masks], int(n_classes),
                                                           seed_key(0), int(max_plies))
    if illegal is not None:
        raise IllegalAction(f"action {illegal[0]} is not among the {illegal[1]} legal actions")
    return python_state(start.rules, start.seed, list(start.factions), fields), list(n_legal), list(tallies)


def class_bits(state: NativeCursedState, action: Any) -> int:
    """The Rust classifier's bits for ``action`` in ``state``."""
    return int(state.native.classes(int(action)))
