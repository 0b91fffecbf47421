"""Any pyspiel game as one of our games: ``workbench.games.get("openspiel:NAME")`` (a ``SpielGameDef``).

A game provider beside the game packages, so the registry reaches it within its own folder and
``workbench.openspiel`` (our games as pyspiel games) stands above the registry: no import runs back.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

import pyspiel

from workbench.core.classes import ActionClasses
from workbench.core.protocol import CHANCE, TERMINAL, GameDef, GameInfo, IllegalAction, Layout, State
from workbench.core.rulespec import Param, Rules, RulesError, RulesSpec


class SpielAdapterState(State):
    """One of pyspiel's states through our protocol (undo by a stack of clones, as pyspiel has none)."""

    __slots__ = ("_stack", "spiel")

    def __init__(self, spiel_state: Any) -> None:
        self.spiel = spiel_state
        self._stack: list[Any] = []

    def current_player(self) -> int:
        p = self.spiel.current_player()
        if self.spiel.is_terminal():
            return TERMINAL
        return CHANCE if p == pyspiel.PlayerId.CHANCE else int(p)

    def legal_actions(self, player: int | None = None) -> list[Any]:
        if self.spiel.is_terminal() or self.spiel.is_chance_node():
            return []
        return list(self.spiel.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(int(a), float(p)) for a, p in self.spiel.chance_outcomes()] if self.spiel.is_chance_node() else []

    def apply_action(self, action: Any) -> None:
        legal = (self.spiel.legal_actions() if not self.spiel.is_chance_node()
                 else [a for a, _ in self.spiel.chance_outcomes()])
        if action not in legal:
            raise IllegalAction(f"action {action!r} is not legal here")
        self._stack.append(self.spiel.clone())
        self.spiel.apply_action(int(action))

    def undo_action(self) -> None:
        self.spiel = self._stack.pop()

    def clone(self) -> SpielAdapterState:
        out = SpielAdapterState(self.spiel.clone())
        out._stack = list(self._stack)
        return out

    def is_terminal(self) -> bool:
        return bool(self.spiel.is_terminal())

    def returns(self) -> list[float]:
        return list(self.spiel.returns())

    def move_number(self) -> int:
        return int(self.spiel.move_number())

    def action_to_string(self, action: Any) -> str:
        return str(self.spiel.action_to_string(self.spiel.current_player(), int(action)))

    def string_to_action(self, text: str) -> Any:
        for a in self.legal_actions() or [o for o, _ in self.chance_outcomes()]:
            if self.action_to_string(a) == text:
                return a
        try:
            number = int(text)
        except ValueError:
            raise IllegalAction(f"{text!r} names no legal action here") from None
        if number in self.legal_actions() or number in [o for o, _ in self.chance_outcomes()]:
            return number
        raise IllegalAction(f"{text!r} names no legal action here")

    def to_dict(self) -> dict[str, Any]:
        return {"game": str(self.spiel.get_game()), "history": [int(a) for a in self.spiel.history()]}

    def observation_string(self, player: int | None = None) -> str:
        return str(self.spiel)

    def outcome(self) -> str:
        if not self.spiel.is_terminal():
            return "ongoing"
        r = self.returns()
        return "win" if max(r) > min(r) else "draw"


class SpielGameDef(GameDef):
    """A ``GameDef`` over a pyspiel game; its parameters are the rules spec."""

    # OpenSpiel's games name their actions by number only: there are no rulebook classes to bar
    action_classes = ActionClasses(none_reason="an OpenSpiel game's actions are numbers with no rulebook classes; "
                                               "restricted play (ablate) needs a game that declares its classes")

    def __init__(self, short_name: str) -> None:
        if short_name not in pyspiel.registered_names():
            raise RulesError(f"openspiel:{short_name[:40]}: no such pyspiel game")
        self.short_name = short_name
        self.name = f"openspiel:{short_name}"
        base = pyspiel.load_game(short_name)
        self.title = base.get_type().long_name
        params = []
        for key, value in base.get_type().parameter_specification.items():
            kind = {bool: "bool", int: "int", float: "float"}.get(type(value), "text")
            params.append(Param(key, kind, value, f"OpenSpiel parameter of {short_name}", "open_spiel"))
        self._spec = RulesSpec(self.name, params)

    @property
    def spec(self) -> RulesSpec:
        return self._spec

    def _load(self, rules: Rules | None) -> Any:
        values = rules.non_default() if rules is not None else {}
        return pyspiel.load_game(self.short_name, dict(values))

    def info(self, rules: Rules | None = None) -> GameInfo:
        g = self._load(rules)
        n = g.num_players()
        chance = "explicit" if g.get_type().chance_mode != pyspiel.GameType.ChanceMode.DETERMINISTIC else "none"
        perfect = g.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
        return GameInfo(self.name, self.title, tuple(f"p{i + 1}" for i in range(n)),
                        tuple(f"Player {i + 1}" for i in range(n)), tuple((i,) for i in range(n)), chance=chance,
                        perfect_information=perfect, max_game_length=g.max_game_length())

    def new_initial_state(self, rules: Rules | None = None, seed: int = 0) -> SpielAdapterState:
        return SpielAdapterState(self._load(rules).new_initial_state())

    def state_from_dict(self, data: Mapping[str, Any]) -> SpielAdapterState:
        st = SpielAdapterState(pyspiel.load_game(str(data["game"])).new_initial_state())
        for a in data.get("history", []):
            st.apply_action(int(a))
        return st

    def num_distinct_actions(self, rules: Rules | None = None) -> int:
        return int(self._load(rules).num_distinct_actions())

    def max_chance_outcomes(self, rules: Rules | None = None) -> int:
        return int(self._load(rules).max_chance_outcomes())

    def layout(self, rules: Rules | None = None) -> Layout:
        return Layout("square", 0.5, ())


@lru_cache(maxsize=64)
def spiel_game(short_name: str) -> SpielGameDef:
    """The ``GameDef`` of the pyspiel game ``short_name`` (``breakthrough``, ``connect_four``, ...)."""
    return SpielGameDef(short_name)


__all__ = ["SpielAdapterState", "SpielGameDef", "spiel_game"]
