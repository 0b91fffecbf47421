"""TerraFeud's action classes in its rulebook's words (``GAME.action_classes``), for restricted play.

Read from the engine's action tuples (``engine/state.py``): no rule is re-derived here. A bridge crossing
is a step (a move, or a step of an Order) that starts or ends on a bridge hex, or goes from one bank to
the other (a knight's slide over a bridge, section 2); over a ford it is the same crossing where fords
are set (a rule variant).
"""

from __future__ import annotations

from typing import Any

from workbench.core.classes import ActionClass, ActionClasses
from workbench.games.terrafeud.engine import CASTLE, MOVE, ORDER, SHOT
from workbench.games.terrafeud.engine.board import side_of_half

CLASSES = (
    ActionClass("castling", "castling: the feudal and an infantryman swap (section 4)"),
    ActionClass("archers_shot", "the archer's shot: an archer places its marker (section 3, archer)"),
    ActionClass("order", "an Order: the feudal moves its infantrymen together (section 4)"),
    ActionClass("promotion", "promotion: a piece promoted on the last row (section 5)"),
    ActionClass("bridge_crossing", "a bridge crossing: a step onto, off or over a bridge (section 2)"),
)


def _steps(action: tuple) -> list[tuple[int, int, int]]:
    """(from, to, promotion) of every step of a move or an Order."""
    if action[0] == MOVE:
        return [(action[1], action[2], action[3])]
    if action[0] == ORDER:
        return [(action[i], action[i + 1], action[i + 2]) for i in range(1, len(action) - 2, 3)]
    return []


def classify(state: Any, action: Any) -> set[str]:
    """The classes of ``action`` (an engine tuple) in ``state`` (a ``TerraFeudState`` or the engine's own)."""
    out: set[str] = set()
    kind = action[0]
    if kind == CASTLE:
        out.add("castling")
    elif kind == SHOT:
        out.add("archers_shot")
    elif kind == ORDER:
        out.add("order")
    steps = _steps(action)
    if any(p for _, _, p in steps):
        out.add("promotion")
    if steps:
        board = getattr(state, "inner", state).board
        crossings = board.bridges | board.fords
        for f, t, _ in steps:
            a, b = side_of_half(f), side_of_half(t)
            if f in crossings or t in crossings or (a is not None and b is not None and a != b):
                out.add("bridge_crossing")
                break
    return out


ACTION_CLASSES = ActionClasses(CLASSES, classify)
