"""``greedy``: one ply of look-ahead scored by the rulebook's AI material weights.

Each action is played (so its triggers resolve: mines, archers in melee, coordinated attacks,
ultimatums), scored as material from the mover's view, and taken back. A won game scores above
any material; ties are broken at random so greedy self-play still varies.
"""

from __future__ import annotations

from workbench.core.agents import Agent
from workbench.games.terrafeud.engine import Action, GameState
from workbench.games.terrafeud.state import TerraFeudState

from .evaluate import material, terminal_score
from .seat import engine_state


class GreedyAgent(Agent):
    """Best material after one action, ties at random."""

    name = "greedy"

    def select_action(self, state: GameState | TerraFeudState) -> Action:
        """The action with the best material balance after its triggers."""
        state = engine_state(state)
        acts = self._legal(state)
        side = state.to_move
        best: list[Action] = []
        best_score = float("-inf")
        for a in acts:
            state.apply(a, check=False)
            try:
                score = terminal_score(state, side) if state.victory is not None else material(state, side)
            finally:
                state.undo()
            if score > best_score:
                best_score, best = score, [a]
            elif score == best_score:
                best.append(a)
        return self.rng.choice(best)
