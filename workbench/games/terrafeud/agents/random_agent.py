"""``random``: uniform over the legal actions; the floor of the strength ladder."""

from __future__ import annotations

from workbench.core.agents import Agent
from workbench.games.terrafeud.engine import Action, GameState
from workbench.games.terrafeud.state import TerraFeudState

from .seat import engine_state


class RandomAgent(Agent):
    """Picks uniformly among the legal actions with its own seeded generator."""

    name = "random"

    def select_action(self, state: GameState | TerraFeudState) -> Action:
        """A uniformly random legal action."""
        state = engine_state(state)
        return self.rng.choice(self._legal(state))
