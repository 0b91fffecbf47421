"""Stones: the smallest complete game of the protocol (docs/adding-a-game.md walks through it).

A pile of stones; a turn is one or two takes of one stone (``take``), then ``end`` (so the player to
move is a query, not ply parity). After each turn a coin is tossed: heads adds a stone to the pile
(a chance node). Whoever takes the last stone wins; ``cap`` turns without a winner is unfinished.

As rich as Pole in what it declares, so ``tests/test_plugin_game.py`` can show a game plugs in with no
line outside its package and its registry entry: chance, a scenario key of its own (``heap:``, the
start pile, beside the generic ``rules:``), a native backend that exists but declares itself unbuilt
(``engine=native`` then says so; ``auto`` plays Python), a grid shorthand (``pile=small``), a report part and
agents of its own (``GameDef.game_agents``, as Pole's ``turtle`` and TerraFeud's tuned ones): ``hoarder`` by a
new name, and its own ``greedy`` under the generic name (``generic-greedy`` stays the generic one).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from workbench.core import CHANCE, TERMINAL, Cell, GameDef, GameInfo, IllegalAction, Layout, Param, RulesSpec, State
from workbench.core.agents import ProtocolAgent
from workbench.core.protocol import NativeBackend, ReportPart
from workbench.core.scenario import CheckResult, ScenarioCase, ScenarioError, line_of

TAKE, END = 0, 1
SPEC = RulesSpec("stones", [
    Param("pile", "int", 7, "stones at the start", "tiny rulebook 1", low=1, high=50),
    Param("coin", "bool", True, "a coin after each turn may add a stone", "tiny rulebook 2"),
    Param("cap", "int", 30, "turns before the game is unfinished", "tiny rulebook 3", low=1, high=1000),
])


class StonesState(State):
    """Pile, player, takes this turn, turn number; the history makes undo exact."""

    def __init__(self, rules: Any, pile: int) -> None:
        self.rules = rules
        self.pile, self.player, self.taken, self.turns, self.chance = pile, 0, 0, 1, False
        self.winner_ = None
        self.history: list[tuple] = []
        self.counts = {"take": [0, 0], "heads": [0, 0]}

    def current_player(self) -> int:
        if self.winner_ is not None or self.turns > self.rules.cap:
            return TERMINAL
        return CHANCE if self.chance else self.player

    def legal_actions(self, player: int | None = None) -> list[Any]:
        p = self.current_player()
        if p < 0 or (player is not None and player != p):
            return []
        return ([TAKE] if self.taken < 2 and self.pile > 0 else []) + ([END] if self.taken >= 1 else [])

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(0, 0.5), (1, 0.5)] if self.current_player() == CHANCE else []

    def apply_action(self, action: Any) -> None:
        snap = (self.pile, self.player, self.taken, self.turns, self.chance, self.winner_)
        if self.current_player() == CHANCE:
            if action not in (0, 1):
                raise IllegalAction(f"coin outcome {action!r}: heads is 1, tails 0")
            self.pile += action
            self.counts["heads"][self.player] += action
            self.chance = False
        elif action not in self.legal_actions():
            raise IllegalAction(f"{self.action_to_string(action) if action in (0, 1) else action!r}: not legal "
                                "(take at most twice a turn, end only after a take)")
        elif action == TAKE:
            self.pile -= 1
            self.taken += 1
            self.counts["take"][self.player] += 1
            if self.pile == 0:
                self.winner_ = self.player
        else:
            self.player, self.taken, self.turns = 1 - self.player, 0, self.turns + 1
            self.chance = bool(self.rules.coin)
        self.history.append((action, snap))

    def undo_action(self) -> None:
        action, snap = self.history.pop()
        was_chance = snap[4]
        if was_chance:
            self.counts["heads"][snap[1]] -= action
        elif action == TAKE:
            self.counts["take"][snap[1]] -= 1
        self.pile, self.player, self.taken, self.turns, self.chance, self.winner_ = snap

    def clone(self) -> StonesState:
        out = StonesState(self.rules, self.pile)
        out.player, out.taken, out.turns, out.chance, out.winner_ = (
            self.player, self.taken, self.turns, self.chance, self.winner_)
        out.history = list(self.history)
        out.counts = {k: list(v) for k, v in self.counts.items()}
        return out

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def returns(self) -> list[float]:
        if self.winner_ is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.winner_ == 0 else [-1.0, 1.0]

    def outcome(self) -> str:
        return "ongoing" if not self.is_terminal() else "win" if self.winner_ is not None else "unfinished"

    def move_number(self) -> int:
        return len(self.history)

    def turn(self) -> int:
        return self.turns

    def action_to_string(self, action: Any) -> str:
        if self.current_player() == CHANCE:
            return "heads" if action else "tails"
        return "take" if action == TAKE else "end"

    def string_to_action(self, text: str) -> Any:
        table = {"heads": 1, "tails": 0} if self.current_player() == CHANCE else {"take": TAKE, "end": END}
        if text not in table or table[text] not in (self.legal_actions() or [o for o, _ in self.chance_outcomes()]):
            raise IllegalAction(f"{text!r} is not legal here")
        return table[text]

    def to_dict(self) -> dict[str, Any]:
        return {"rules": self.rules.to_dict(), "pile": self.pile, "player": self.player, "taken": self.taken,
                "turns": self.turns, "chance": self.chance, "winner": self.winner_, "counts": self.counters(),
                "history": [[a, list(s)] for a, s in self.history]}

    def counters(self) -> dict[str, list[int]]:
        return {k: list(v) for k, v in self.counts.items()}

    def evaluate(self, player: int) -> float:
        # an odd pile at the start of my turn is good for me (take-1/take-2 parity, ignoring the coin)
        mine = self.player == player
        return (1.0 if self.pile % 3 else -1.0) * (1 if mine else -1)


class StonesCase(ScenarioCase):
    """``game: stones`` files: ``pile``, and checks ``play`` + ``pile``/``winner``."""

    def __init__(self, data: Mapping[str, Any], where: str) -> None:
        for key in data:
            if key not in ("game", "id", "title", "rules", "heap", "checks"):
                raise ScenarioError(where, line_of(data, key), f"unknown key {key!r}")
        self.id, self.title, self.where = str(data.get("id")), str(data.get("title")), where
        try:
            self.rules = SPEC.make(data.get("rules") or {})
        except ValueError as exc:
            raise ScenarioError(where, line_of(data, "rules"), str(exc)) from None
        heap = data.get("heap", self.rules.pile)  # its own key: the start pile, whatever the rules say
        if not isinstance(heap, int) or isinstance(heap, bool) or not 1 <= heap <= 50:
            raise ScenarioError(where, line_of(data, "heap"), "heap: a whole number of stones from 1 to 50")
        self.heap = heap
        self.checks = list(data.get("checks") or [])
        self.lines = [line_of(data.get("checks"), i) for i in range(len(self.checks))]

    def initial_state(self, overrides: Mapping[str, Any] | None = None) -> StonesState:
        return StonesState(self.rules.replace(**(overrides or {})), self.heap)

    def run(self, overrides: Mapping[str, Any] | None = None) -> list[CheckResult]:
        out = []
        for i, (check, line) in enumerate(zip(self.checks, self.lines, strict=True), start=1):
            st = self.initial_state(overrides)
            try:
                for text in check.get("play", []):
                    st.apply_action(st.string_to_action(text))
            except IllegalAction as exc:
                out.append(CheckResult(i, line, "fail", f"line {line}: {exc}"))
                continue
            if "pile" in check and st.pile != check["pile"]:
                out.append(CheckResult(i, line, "fail", f"line {line}: pile {st.pile}, expected {check['pile']}"))
            else:
                out.append(CheckResult(i, line, "pass"))
        return out


class Hoarder(ProtocolAgent):
    """Takes while it may (two stones a turn when the pile allows), then ends the turn."""

    name = "hoarder"

    def select_action(self, state: Any) -> Any:
        legal = self._legal(state)
        return TAKE if TAKE in legal else END


class LastStone(ProtocolAgent):
    """Stones' own ``greedy``: takes the last stone when it can, else one stone and ends (no search)."""

    name = "greedy"

    def select_action(self, state: Any) -> Any:
        legal = self._legal(state)
        return TAKE if TAKE in legal and (state.pile == 1 or state.taken == 0) else END


class StonesNative(NativeBackend):
    """A native core that this test game declares but never built: the tools must say so, and play Python."""

    exists = True

    def available(self) -> bool:
        return False


class Stones(GameDef):
    """The game definition: what the workbench's tools ask of a game."""

    name, title, scenario_folder = "stones", "Stones (test game)", "stones"
    native = StonesNative()

    def game_agents(self) -> dict[str, Any]:
        """Its own agents: ``hoarder`` beside the generic ones, ``greedy`` for this game (``generic-greedy``: the
        generic one)."""
        return {"hoarder": Hoarder, "greedy": LastStone}

    def grid_values(self, key: str, value: Any) -> list[Any] | None:
        """``pile=small``: the three smallest piles."""
        return [1, 2, 3] if key == "pile" and value == "small" else None

    def report_sections(self, games: Any, events: Any = None) -> list[Any]:
        """How long the pile lasted, in turns (plain data: the report lays it out)."""
        turns = [int(t) for t in games["turns"]] if "turns" in games else []
        return [ReportPart("Stones: the pile", [f"{len(turns)} games, at most {max(turns, default=0)} turns."])]

    @property
    def spec(self) -> RulesSpec:
        return SPEC

    def info(self, rules: Any = None) -> GameInfo:
        return GameInfo("stones", self.title, ("first", "second"), ("First", "Second"), ((0,), (1,)),
                        chance="explicit", max_game_length=400)

    def new_initial_state(self, rules: Any = None, seed: int = 0) -> StonesState:
        rules = rules if rules is not None else SPEC.defaults()
        return StonesState(rules, rules.pile)

    def state_from_dict(self, data: Mapping[str, Any]) -> StonesState:
        st = StonesState(SPEC.make(data["rules"]), int(data["pile"]))
        st.player, st.taken, st.turns, st.chance, st.winner_ = (
            data["player"], data["taken"], data["turns"], data["chance"], data["winner"])
        st.counts = {k: list(v) for k, v in data["counts"].items()}
        st.history = [(a, tuple(s)) for a, s in data["history"]]
        return st

    def num_distinct_actions(self, rules: Any = None) -> int:
        return 2

    def max_chance_outcomes(self, rules: Any = None) -> int:
        return 2

    def layout(self, rules: Any = None) -> Layout:
        return Layout("square", 0.5, (Cell(0, "pile", 0.0, 0.0),))

    def scenario(self, data: Mapping[str, Any], where: str) -> StonesCase:
        return StonesCase(data, where)

    def dump_scenario(self, state: State, id: str, title: str, checks: Sequence[Mapping[str, Any]] = ()) -> str:  # noqa: A002
        return f"game: stones\nid: {id}\ntitle: {title}\nrules: {{pile: {state.pile}}}\n"


GAME = Stones()
