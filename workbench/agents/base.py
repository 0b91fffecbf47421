"""What every agent shares: a name, a seeded random generator, and ``select_action``.

An agent never keeps the state it is shown and never leaves it changed: searches use
``apply``/``undo`` in pairs. The same seed and the same sequence of positions give the
same actions, which is what makes a simulated game replayable from its seed alone.
"""

from __future__ import annotations

import random

from workbench.engine import Action, GameState


class Agent:
    """Base class; subclasses implement ``select_action``."""

    name = "agent"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def select_action(self, state: GameState) -> Action:
        """The action to play in ``state`` (which must not be terminal)."""
        raise NotImplementedError

    def _legal(self, state: GameState) -> list[Action]:
        acts = state.legal_actions()
        if not acts:
            raise ValueError(f"{self.name}: no action to choose, the game is over ({state!r})")
        return acts

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name} seed={self.seed}>"
