"""Big chess's action classes in its rulebook's words (``GAME.action_classes``), for restricted play.

Buying a card is a purchase at the King (``+key@cell``, 8.1/10.1), one class per buyable card of the starter
set (section 5); a strike (5.2), a push (5.4) and a portal teleport (B8) are the actions that fire those
rules in the engine (``fired_rules``), so no rule is re-derived here. Setup placements (``a:+card@cell``,
B37) are not purchases.
"""

from __future__ import annotations

import re
from typing import Any

from workbench.core.classes import ActionClass, ActionClasses, fired_rules

from .cards import starter_cards

_SETUP = re.compile(r"[a-y]:")
BUY_CLASSES = tuple(ActionClass(f"buy_{c.key}", f"buying the {c.key} card ({c.name}) at the King (8.1)")
                    for c in starter_cards() if c.buyable)
_BUY = {c.name[len("buy_"):] for c in BUY_CLASSES}
CLASSES = (*BUY_CLASSES,
           ActionClass("strike", "a strike: the piece takes the enemy's cell (5.2)"),
           ActionClass("push", "a push: the enemy piece is pushed one cell (5.4)"),
           ActionClass("portal", "a portal: the piece teleports to the paired portal (B8)"))
_FIRED = ("strike", "push", "portal")


def classify(state: Any, action: Any) -> set[str]:
    """The classes of ``action`` (its text) in ``state`` (a ``BigChessState``)."""
    text = str(action)
    if _SETUP.match(text):
        return set()
    if text.startswith("+"):
        key = text[1:].split("@", 1)[0]
        return {f"buy_{key}"} if key in _BUY else set()
    fired = fired_rules(state, action)
    return {r for r in _FIRED if r in fired}


ACTION_CLASSES = ActionClasses(CLASSES, classify)
