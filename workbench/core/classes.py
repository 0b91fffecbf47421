"""Action classes and archetypes: what a game declares so that restricted play can ask what a rule is worth.

A game names classes of its actions in its rulebook's words (TerraFeud's castling, Pole's catapult attack)
and gives one classifier: the classes an action belongs to, in the position before it is played. ``ablate``
bars one class at a time and measures the barred side's loss (Jaffe et al., AIIDE 2012, "restricted play").
An action may belong to several classes (a promoting Order is an Order and a promotion), or to none.

Archetypes are play styles as data (class weights read by the generic ``style`` agent): ``rush`` prefers
attacks, ``turtle`` avoids them. A tournament among them and α-Rank say whether one style dominates.

Standard library only, as the rest of ``core``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

_NAME = re.compile(r"[a-z][a-z0-9_]*\Z")


@dataclass(frozen=True)
class ActionClass:
    """One named class of actions: ``name`` a column-safe key, ``words`` the rulebook's words and section."""

    name: str
    words: str

    def __post_init__(self) -> None:
        if not _NAME.match(self.name):
            raise ValueError(f"action class {self.name!r}: a lower-case name of letters, digits and _")


Classifier = Callable[[Any, Any], "frozenset[str] | set[str] | tuple[str, ...]"]


@dataclass(frozen=True)
class ActionClasses:
    """A game's declared action classes (``GameDef.action_classes``) and its classifier.

    ``classify(state, action)`` names the classes of ``action`` in ``state`` (the mover's decision, before it
    is applied; it may apply and undo to read the rules it fires, and leaves ``state`` as it was). ``role``
    is the games-table word of a seat's role when a game has roles (``faction``: columns ``faction_p1``,
    ``faction_p2``), so worth is also given per role. ``none_reason`` says why a game declares no classes.
    """

    classes: tuple[ActionClass, ...] = ()
    classify: Classifier | None = None
    role: str = ""
    none_reason: str = ""

    def __post_init__(self) -> None:
        names = [c.name for c in self.classes]
        if len(set(names)) != len(names):
            raise ValueError(f"action classes: a name appears twice in {names}")
        if self.classes and self.classify is None:
            raise ValueError("action classes need a classifier")

    def names(self) -> list[str]:
        """Class names in declaration order."""
        return [c.name for c in self.classes]

    def words(self) -> dict[str, str]:
        """Class name -> the rulebook's words."""
        return {c.name: c.words for c in self.classes}

    def of(self, state: Any, action: Any) -> frozenset[str]:
        """The declared classes of ``action`` in ``state`` (names the game did not declare are an error)."""
        if self.classify is None:
            return frozenset()
        found = frozenset(self.classify(state, action))
        unknown = found - set(self.names())
        if unknown:
            raise ValueError(f"classifier named undeclared class(es) {sorted(unknown)}")
        return found


def fired_rules(state: Any, action: Any) -> set[str]:
    """The rules ``action`` fires in ``state`` (applied and undone: ``state`` is left as it was).

    Many classes are exactly "the actions that fire rule X", and the engine already says which rules an
    action fires (``State.fired``), so a classifier need not repeat the rules' geometry.
    """
    state.apply_action(action)
    try:
        return {rule for rule, _, _ in state.fired()}
    finally:
        state.undo_action()


@dataclass(frozen=True)
class Archetype:
    """A play style as data: class weights added to the evaluation of an action of that class.

    ``weights`` are in the game's evaluation units (a weight of 2 makes an action of the class look two
    units better to the ``style`` agent; a large negative weight avoids it). ``agent`` is the agent spec
    that plays the style (``style`` reads the weights; a game may name one of its own agents instead).
    """

    name: str
    words: str
    weights: Mapping[str, float] = field(default_factory=dict)
    agent: str = "style"

    def spec(self) -> str:
        """The agent spec that plays this archetype (``style:archetype=rush``, or the game's own agent)."""
        return f"{self.agent}:archetype={self.name}" if self.agent == "style" else self.agent


def load_archetypes(path: str | Path, classes: ActionClasses | None) -> tuple[Archetype, ...]:
    """Archetypes from a game's data file (JSON: ``{"archetypes": [{"name", "words", "weights", "agent"}]}``).

    Every weight must name a declared class; the error names the file and the archetype.
    """
    p = Path(path)
    data = json.loads(p.read_text(encoding="utf-8"))
    known = set(classes.names()) if classes is not None else set()
    out = []
    for i, item in enumerate(data.get("archetypes", [])):
        name = str(item.get("name", ""))
        if not _NAME.match(name):
            raise ValueError(f"{p.name}: archetype {i + 1}: name {name[:40]!r} must be lower-case letters, digits, _")
        weights = {str(k): float(v) for k, v in (item.get("weights") or {}).items()}
        bad = sorted(set(weights) - known)
        if bad:
            raise ValueError(f"{p.name}: archetype {name}: weights name undeclared action classes {bad[:5]}")
        out.append(Archetype(name, str(item.get("words", name)), weights, str(item.get("agent", "style"))))
    return tuple(out)


__all__ = ["ActionClass", "ActionClasses", "Archetype", "Classifier", "fired_rules", "load_archetypes"]
