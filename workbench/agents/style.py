"""The ``style`` agent: one action deep, as ``greedy``, plus an archetype's class weights (``style:archetype=rush``).

An archetype (``GameDef.archetypes``, data in the game's folder) is a play style written as weights on the
game's action classes, in its evaluation units: ``rush`` adds to attacks, ``turtle`` subtracts from them.
The agent values each action as greedy does (the evaluation after it, an expectation over chance) plus
the weights of the classes the game's classifier puts it in, and breaks ties with its seeded stream. So
one generic agent plays every declared style of every game; a game may also point a style at an agent
of its own (``Archetype.agent``), as Pole's section-15 ``turtle``.
"""

from __future__ import annotations

import math
from typing import Any

from workbench.core.agents import ProtocolAgent, _leaf, _teams

from .generic import expected_value


def archetype_of(game: Any, name: Any) -> Any:
    """The archetype ``name`` of ``game``; ValueError naming the game's archetypes otherwise."""
    known = {a.name: a for a in game.archetypes}
    if str(name) not in known:
        listed = ", ".join(known) or "none"
        raise ValueError(f"style: {getattr(game, 'name', game)} has no archetype {str(name)[:40]!r}; its archetypes: {listed}")
    return known[str(name)]


class StyleAgent(ProtocolAgent):
    """Greedy plus an archetype's class weights (module docstring)."""

    name = "style"

    def __init__(self, seed: int | None = None, game: Any = None, rules: Any = None, archetype: str = "") -> None:
        super().__init__(seed, game, rules)
        self.archetype = archetype_of(game, archetype)
        self.weights = dict(self.archetype.weights)
        self.classes = game.action_classes

    def describe(self) -> str:
        return f"style {self.archetype.name}: {self.archetype.words}"

    def select_action(self, state: Any) -> Any:
        root = self.searchable(state)
        me = root.current_player()
        teams = _teams(root, self.info(root))
        best, best_v = [], -math.inf
        for action in self._legal(root):
            bonus = sum(self.weights.get(c, 0.0) for c in self.classes.of(root, action)) if self.weights else 0.0
            root.apply_action(action)
            v = expected_value(root, lambda s: _leaf(s, me, teams)) + bonus
            root.undo_action()
            if v > best_v + 1e-9:
                best, best_v = [action], v
            elif abs(v - best_v) <= 1e-9:
                best.append(action)
        return self.rng.choice(best)
