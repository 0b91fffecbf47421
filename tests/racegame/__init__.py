"""Race: a planted-truth game for restricted play (issue 32). Its action classes' worth is known.

Two runners race to ``goal``; a turn is one action: ``step`` (+1), ``dance`` (+1, the same as a step: a
useless option, since a step does as much), ``wait`` (+0, never worth playing) or ``leap`` (+3, once a
game: the overpowered option). Barred from leaping, a side is two steps behind and always loses; barred
from dancing it steps instead and nothing changes; nobody waits. The first to reach ``goal`` wins.

Archetypes (``rush`` prefers the leap, ``dancer`` avoids it, ``idler`` waits when it can) plant a
dominant style: only ``rush`` leaps, so it beats the others, which α-Rank must name.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from workbench.core import (
    TERMINAL,
    ActionClass,
    ActionClasses,
    Archetype,
    Cell,
    GameDef,
    GameInfo,
    IllegalAction,
    Layout,
    Param,
    RulesSpec,
    State,
)

STEP, DANCE, WAIT, LEAP = 0, 1, 2, 3
NAMES = ("step", "dance", "wait", "leap")
GAIN = (1, 1, 0, 3)
SPEC = RulesSpec("footrace", [
    Param("goal", "int", 10, "distance to run", "race rule 1", low=2, high=100),
    Param("leap", "int", 3, "how far the one leap goes", "race rule 2", low=0, high=20),
])


class RaceState(State):
    """Positions, leaps left, player to move; the history makes undo exact."""

    def __init__(self, rules: Any) -> None:
        self.rules = rules
        self.pos, self.leaps, self.player = [0, 0], [1, 1], 0
        self.history: list[tuple[int, int]] = []
        self.counts = {n: [0, 0] for n in NAMES}

    def winner_(self) -> int | None:
        for p in (0, 1):
            if self.pos[p] >= self.rules.goal:
                return p
        return None

    def current_player(self) -> int:
        return TERMINAL if self.winner_() is not None else self.player

    def legal_actions(self, player: int | None = None) -> list[Any]:
        p = self.current_player()
        if p < 0 or (player is not None and player != p):
            return []
        return [STEP, DANCE, WAIT] + ([LEAP] if self.leaps[p] else [])

    def apply_action(self, action: Any) -> None:
        if action not in self.legal_actions():
            raise IllegalAction(f"{action!r}: not legal (leap once a game)")
        p = self.player
        self.history.append((action, p))
        self.pos[p] += self.rules.leap if action == LEAP else GAIN[action]
        self.leaps[p] -= action == LEAP
        self.counts[NAMES[action]][p] += 1
        self.player = 1 - p

    def undo_action(self) -> None:
        action, p = self.history.pop()
        self.pos[p] -= self.rules.leap if action == LEAP else GAIN[action]
        self.leaps[p] += action == LEAP
        self.counts[NAMES[action]][p] -= 1
        self.player = p

    def clone(self) -> RaceState:
        out = RaceState(self.rules)
        out.pos, out.leaps, out.player = list(self.pos), list(self.leaps), self.player
        out.history = list(self.history)
        out.counts = {k: list(v) for k, v in self.counts.items()}
        return out

    def is_terminal(self) -> bool:
        return self.winner_() is not None

    def returns(self) -> list[float]:
        w = self.winner_()
        return [0.0, 0.0] if w is None else [1.0, -1.0] if w == 0 else [-1.0, 1.0]

    def move_number(self) -> int:
        return len(self.history)

    def action_to_string(self, action: Any) -> str:
        return NAMES[action]

    def string_to_action(self, text: str) -> Any:
        if text not in NAMES or NAMES.index(text) not in self.legal_actions():
            raise IllegalAction(f"{text!r} is not legal here")
        return NAMES.index(text)

    def to_dict(self) -> dict[str, Any]:
        return {"rules": self.rules.to_dict(), "pos": list(self.pos), "leaps": list(self.leaps), "player": self.player,
                "history": [list(h) for h in self.history], "counts": self.counters()}

    def counters(self) -> dict[str, list[int]]:
        return {k: list(v) for k, v in self.counts.items()}

    def evaluate(self, player: int) -> float:
        return float(self.pos[player] - self.pos[1 - player])


CLASSES = ActionClasses(
    (ActionClass("leap", "the leap: three ahead, once a game (race rule 2)"),
     ActionClass("dance", "a dance: one ahead, as a step (race rule 1)"),
     ActionClass("wait", "waiting: nothing happens")),
    lambda state, action: {NAMES[action]} & {"leap", "dance", "wait"},
)


class Race(GameDef):
    """The game definition."""

    name, title = "footrace", "Race (planted-truth test game)"
    action_classes = CLASSES
    archetypes = (Archetype("rush", "leaps at once", {"leap": 5.0}),
                  Archetype("dancer", "never leaps, dances", {"leap": -1e9, "dance": 0.5}),
                  Archetype("idler", "waits whenever it can, never leaps", {"wait": 100.0, "leap": -1e9}))

    @property
    def spec(self) -> RulesSpec:
        return SPEC

    def info(self, rules: Any = None) -> GameInfo:
        return GameInfo("footrace", self.title, ("first", "second"), ("First", "Second"), ((0,), (1,)), max_game_length=400)

    def new_initial_state(self, rules: Any = None, seed: int = 0) -> RaceState:
        return RaceState(rules if rules is not None else SPEC.defaults())

    def state_from_dict(self, data: Mapping[str, Any]) -> RaceState:
        st = RaceState(SPEC.make(data["rules"]))
        st.pos, st.leaps, st.player = list(data["pos"]), list(data["leaps"]), int(data["player"])
        st.history = [(a, p) for a, p in data["history"]]
        st.counts = {k: list(v) for k, v in data["counts"].items()}
        return st

    def num_distinct_actions(self, rules: Any = None) -> int:
        return 4

    def layout(self, rules: Any = None) -> Layout:
        return Layout("square", 0.5, (Cell(0, "track", 0.0, 0.0),))


GAME = Race()
