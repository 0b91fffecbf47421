"""Pole's action classes in its rulebook's words (``GAME.action_classes``), for restricted play.

Read from the dense action ints (``state.py``): a purchase ``kind * 100 + cell`` is buying that kind
(section 5); an attack ``axb`` (or ``ax*``) by a catapult is a catapult attack; an attack whose target
stands on a fortress cell (either fortress, section 2) is an attack on a fortress, where the fortress
halves outside attacks (section 8). An ``ax*`` (``attack_mode=all``) names no target, so it is only ever
a catapult attack here, never an attack on a fortress.
"""

from __future__ import annotations

from typing import Any

from workbench.core.classes import ActionClass, ActionClasses

from .rules import BUYABLE, KIND_WORDS, C
from .state import ALL0, ATT0, NOBUY

BUY_CLASSES = tuple(ActionClass(f"buy_{KIND_WORDS[k]}", f"buying {'an' if KIND_WORDS[k][0] in 'aeiou' else 'a'} {KIND_WORDS[k]} ({BUYABLE[k]}, section 5)")
                    for k in range(len(BUYABLE)))
CLASSES = (*BUY_CLASSES,
           ActionClass("catapult_attack", "a catapult attack: the catapult (C) strikes (sections 7 and 8)"),
           ActionClass("fortress_attack", "an attack on a fortress: the target stands on a fortress cell, "
                                          "which halves outside attacks (sections 2 and 8)"))


def classify(state: Any, action: Any) -> set[str]:
    """The classes of ``action`` (a Pole action int) in ``state`` (a ``PoleState`` or its native mirror)."""
    py = state.py() if hasattr(state, "py") else state
    a = int(action)
    if a < NOBUY:
        return {BUY_CLASSES[a // 100].name}
    if a < ATT0:
        return set()
    out = set()
    src = (a - ALL0) if a >= ALL0 else (a - ATT0) // 100
    if (py.board[src] - 1) & 7 == C:
        out.add("catapult_attack")
    if a < ALL0 and py.cfg.fort_of[(a - ATT0) % 100]:
        out.add("fortress_attack")
    return out


ACTION_CLASSES = ActionClasses(CLASSES, classify)
