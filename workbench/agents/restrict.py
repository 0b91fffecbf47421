"""Restricted play: an agent barred from classes of actions (``greedy:bar=castling``), for ``ablate``.

The barred side never sees a barred action: the state it searches is a view whose ``legal_actions`` for
the barred player leave out every action the game's classifier (``GameDef.action_classes``) puts in a
barred class, so a search plans its own future moves without them too (the opponent's are untouched).
When every legal action is barred the agent plays one anyway, and the move is counted as forced.

Every restricted agent also counts what it played (``tally``): its decisions, its forced moves and its
actions of each class, which simulate's protocol path writes into the game's row as per-seat counters.
``bar=none`` bars nothing and only counts (the unbarred side of an ablation, so both sides are counted
alike). The view is Python: a restricted agent searches the game's Python engine (the readable rules).
"""

from __future__ import annotations

from typing import Any

from workbench.core.agents import Agent
from workbench.core.classes import ActionClasses

SEPARATOR = "+"  # bar=castling+order bars two classes at once


def parse_bar(value: Any, game: Any) -> frozenset[str]:
    """The barred class names of a ``bar=`` value (``none``: nothing), checked against the game's classes."""
    decl: ActionClasses | None = game.action_classes
    if decl is None or not decl.classes:
        why = decl.none_reason if decl is not None and decl.none_reason else "its GameDef declares no action classes"
        raise ValueError(f"bar=: {game.name} has no action classes to bar ({why})")
    if value is None or str(value).strip().lower() in ("", "none"):
        return frozenset()
    names = [n.strip() for n in str(value).split(SEPARATOR) if n.strip()]
    unknown = [n for n in names if n not in decl.names()]
    if unknown:
        raise ValueError(f"bar={str(value)[:60]}: {game.name} has no action class {unknown[0][:40]!r}; "
                         f"its classes: {', '.join(decl.names())}")
    return frozenset(names)


class BarredView:
    """A state whose barred player is offered no barred action (unless all are); everything else is the state's."""

    __slots__ = ("_barred", "_classes", "_inner", "_player")

    def __init__(self, inner: Any, player: int, barred: frozenset[str], classes: ActionClasses) -> None:
        self._inner = inner
        self._player = player
        self._barred = barred
        self._classes = classes

    def allowed(self, acts: list[Any]) -> list[Any]:
        """The actions of ``acts`` outside the barred classes, in the same order."""
        return [a for a in acts if not (self._classes.of(self._inner, a) & self._barred)]

    def legal_actions(self, player: int | None = None) -> list[Any]:
        acts: list[Any] = self._inner.legal_actions(player) if player is not None else self._inner.legal_actions()
        mover = self._inner.current_player() if player is None else player
        if mover != self._player or not acts or not self._barred:
            return acts
        return self.allowed(acts) or acts  # all barred: the move is forced (counted at the root)

    def clone(self) -> BarredView:
        return BarredView(self._inner.clone(), self._player, self._barred, self._classes)

    def view(self, player: int, seed: int = 0) -> BarredView:
        return BarredView(self._inner.view(player, seed), self._player, self._barred, self._classes)

    def __deepcopy__(self, memo: dict[int, Any]) -> BarredView:
        return self.clone()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


class Restricted(Agent):
    """``agent`` barred from the classes ``barred`` of ``game``; counts decisions, forced moves and classes played."""

    def __init__(self, agent: Any, game: Any, barred: frozenset[str]) -> None:
        super().__init__(getattr(agent, "seed", None))
        self.agent = agent
        self.game = game
        self.barred = barred
        self.classes: ActionClasses = game.action_classes
        self.counts: dict[str, int] = {"decisions": 0, "forced": 0, **{f"class_{c}": 0 for c in self.classes.names()}}

    def describe(self) -> str:
        inner = getattr(self.agent, "describe", lambda: self.agent.name)()
        return f"{inner}, barred from {', '.join(sorted(self.barred))}" if self.barred else inner

    def select_action(self, state: Any) -> Any:
        player = state.current_player()
        view = BarredView(state, player, self.barred, self.classes)
        if self.barred and not view.allowed(state.legal_actions(player)):
            self.counts["forced"] += 1
        action = self.agent.select_action(view)
        self.counts["decisions"] += 1
        for c in self.classes.of(state, action):
            self.counts[f"class_{c}"] += 1
        return action

    def tally(self) -> dict[str, int]:
        """Per-game counts for the row: ``decisions``, ``forced`` and ``class_<name>`` (actions played of it)."""
        return dict(self.counts)
