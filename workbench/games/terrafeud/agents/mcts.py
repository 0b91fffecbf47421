"""``mcts``: Monte Carlo tree search with the UCT selection rule.

Each iteration walks the tree by UCT, expands one untried action, values the new position and
backs the value up. The value comes from the ``rollout`` policy: ``eval`` scores the leaf with
``evaluate`` squashed to a win probability (``scale`` material units per logistic unit);
``random`` first plays ``rollout_depth`` random actions (full random games are far too long and
too noisy in TerraFeud) and then scores. Two things make a few hundred iterations see tactics:
untried actions are expanded captures first with progressive widening below the root (a node
opens ``widen + sqrt(visits)`` children), and ``quiesce`` lowers a leaf's value by the best
capture the opponent has there. The tree lives for one decision; same seed, same action (unless
the optional ``seconds`` budget, or the ``MAX_SECONDS`` ceiling every agent obeys, cuts it short).
"""

from __future__ import annotations

import math
import time

from workbench.core.agents import Agent, check_param
from workbench.games.terrafeud.engine import MOVE, ORDER, Action, GameState
from workbench.games.terrafeud.state import TerraFeudState

from .alphabeta import AlphaBetaAgent
from .evaluate import LearnedEvaluation, learned_or_hand, material
from .seat import engine_state

MAX_ITERATIONS = 1_000_000
_SCALE = 1.0  # material units per logistic unit: sharp, so one infantryman up already counts


class _Node:
    __slots__ = ("action", "parent", "children", "untried", "visits", "value", "mover")

    def __init__(self, action: Action | None, parent: _Node | None, mover: int) -> None:
        self.action = action
        self.parent = parent
        self.children: list[_Node] = []
        self.untried: list[Action] | None = None
        self.visits = 0
        self.value = 0.0  # summed rewards for ``mover``, the side that played ``action``
        self.mover = mover


class MCTSAgent(Agent):
    """UCT over the legal actions with an evaluation or short-rollout leaf policy."""

    name = "mcts"

    def __init__(
        self,
        seed: int | None = None,
        iterations: int = 300,
        rollout: str = "eval",
        rollout_depth: int = 6,
        c: float = 0.3,
        scale: float = _SCALE,
        widen: float = 2.0,
        quiesce: bool = True,
        seconds: float | None = None,
        learned: LearnedEvaluation | None = None,
    ) -> None:
        super().__init__(seed)
        # leaves scored by ``evaluate``, or by learned weights' sum over the features (``eval=NAME``), squashed by
        # ``scale``; ``quiesce``'s capture loss stays in material units
        self.learned, self._evaluate = learned_or_hand("mcts", learned)
        if rollout not in ("eval", "random"):
            raise ValueError(f"mcts: rollout={rollout!r} must be 'eval' or 'random'")
        if not isinstance(quiesce, bool):
            raise ValueError(f"mcts: quiesce={quiesce!r} must be true or false")
        self.iterations = check_param("mcts", "iterations", iterations, int, 1, MAX_ITERATIONS)
        self.rollout = rollout
        self.rollout_depth = check_param("mcts", "rollout_depth", rollout_depth, int, 0, 200)
        self.c = check_param("mcts", "c", c, float, 0.0, 100.0)
        self.scale = check_param("mcts", "scale", scale, float, 0.001, 1000.0)
        self.widen = check_param("mcts", "widen", widen, float, 0.0, 1000.0)
        self.quiesce = quiesce
        self.seconds = None if seconds is None else check_param("mcts", "seconds", seconds, float, 0.001,
                                                                self.MAX_SECONDS)

    def select_action(self, state: GameState | TerraFeudState) -> Action:
        """The most visited root action after ``iterations`` UCT iterations."""
        state = engine_state(state)
        acts = self._legal(state)
        if len(acts) == 1:
            return acts[0]
        root = _Node(None, None, 1 - state.to_move)
        deadline = time.perf_counter() + (self.MAX_SECONDS if self.seconds is None else self.seconds)
        for i in range(self.iterations):
            self._iterate(state, root)
            if i & 15 == 15 and time.perf_counter() > deadline:
                break  # the time budget (or the MAX_SECONDS ceiling) is spent
        best = max(root.children, key=lambda n: (n.visits, n.value))
        return best.action  # type: ignore[return-value]

    def _iterate(self, state: GameState, root: _Node) -> None:
        node = root
        played = 0
        try:
            while state.victory is None:
                if node.untried is None:
                    node.untried = self._expansion_order(state)
                # Progressive widening below the root: a node opens its children one by one
                # (captures first) as it gains visits, so replies are searched where they hurt.
                room = node is root or len(node.children) < self.widen + math.sqrt(node.visits)
                if node.untried and room:
                    a = node.untried.pop()
                    mover = state.to_move
                    state.apply(a, check=False)
                    played += 1
                    child = _Node(a, node, mover)
                    node.children.append(child)
                    node = child
                    break
                if not node.children:
                    break
                node = self._uct_child(node)
                state.apply(node.action, check=False)
                played += 1
            reward = self._leaf_value(state, node.mover)
        finally:
            for _ in range(played):
                state.undo()
        # backpropagation: turns alternate (even a pass), so the reward flips at each level
        while node is not None:
            node.visits += 1
            node.value += reward
            reward = 1.0 - reward
            node = node.parent

    def _uct_child(self, node: _Node) -> _Node:
        log_n = math.log(node.visits)
        c = self.c
        return max(node.children, key=lambda ch: ch.value / ch.visits + c * math.sqrt(log_n / ch.visits))

    def _expansion_order(self, state: GameState) -> list[Action]:
        """Untried actions, popped from the end: the capture ordering reversed, ties shuffled."""
        acts = list(state.legal_actions())
        self.rng.shuffle(acts)
        ordered = AlphaBetaAgent._ordered(state, acts, None)
        ordered.reverse()
        return ordered

    def _best_capture_gain(self, state: GameState, side: int) -> float:
        """Material the side to move at the leaf wins with its best capture, if ``side`` is not to move.

        A one-capture horizon check: a leaf where the opponent simply takes a piece is not scored
        as if the piece were safe. Captures are few, so this costs a handful of actions per leaf.
        """
        if state.victory is not None or state.to_move == side:
            return 0.0
        sq = state.squares
        base = material(state, side)
        worst = 0.0
        for a in state.legal_actions():
            if a[0] == MOVE:
                targets: tuple[int, ...] = (sq[a[2]],)
            elif a[0] == ORDER:
                targets = tuple(sq[t] for t in a[2::3])
            else:
                continue
            if not any(c and c >> 3 == side for c in targets):
                continue
            state.apply(a, check=False)
            try:
                if state.victory is not None:
                    loss = 0.0 if state.winner != 1 - side else 1e3
                else:
                    loss = base - material(state, side)
            finally:
                state.undo()
            worst = max(worst, loss)
        return worst

    def _leaf_value(self, state: GameState, side: int) -> float:
        """Win probability for ``side`` at the leaf (after an optional short random rollout)."""
        played = 0
        try:
            if self.rollout == "random":
                while state.victory is None and played < self.rollout_depth:
                    state.apply(self.rng.choice(state.legal_actions()), check=False)
                    played += 1
            if state.victory is not None:
                return 0.5 if state.winner is None else (1.0 if state.winner == side else 0.0)
            v = self._evaluate(state, side)
            if self.quiesce:
                v -= self._best_capture_gain(state, side)
        finally:
            for _ in range(played):
                state.undo()
        return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, v / self.scale))))

