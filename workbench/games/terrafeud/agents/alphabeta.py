"""``alphabeta``: depth-limited negamax with alpha-beta pruning, for a balance-grade opponent.

Iterative deepening to ``depth`` plies under a node budget (and an optional time budget): when
the budget runs out mid-iteration, the best action of the last finished iteration is played, so
the agent is never worse than a full search one ply shallower. Move ordering puts the
transposition table's move first, then wins on the spot (the enemy castle centre), attacks by
victim value, archer shots at pieces (threats) and the rest. The transposition table lives for
one decision, so memory stays flat over long batches. Root ties are broken by a seeded shuffle.
A node budget keeps the agent reproducible; a time budget (``seconds``) makes its choices depend
on the machine's speed, so simulations meant to be replayed should use ``nodes`` only. Whatever
the budget, a decision stops deepening after ``MAX_SECONDS`` (parameters are capped too), so an
agent asked for from the browser cannot hold the kernel.
"""

from __future__ import annotations

import time

from workbench.core.agents import Agent, check_param
from workbench.games.terrafeud.engine import MOVE, ORDER, SHOT, Action, GameState
from workbench.games.terrafeud.state import TerraFeudState

from .evaluate import LearnedEvaluation, learned_or_hand, piece_weights, terminal_score
from .seat import engine_state

_EXACT, _LOWER, _UPPER = 0, 1, 2
MAX_DEPTH = 20
MAX_NODES = 5_000_000


class _OutOfBudget(Exception):
    """Raised inside the search when the node or time budget is spent."""


class AlphaBetaAgent(Agent):
    """Negamax with alpha-beta, ordering, a transposition table and a node/time budget."""

    name = "alphabeta"

    def __init__(self, seed: int | None = None, depth: int = 2, nodes: int = 4000, seconds: float | None = None,
                 learned: LearnedEvaluation | None = None) -> None:
        super().__init__(seed)
        # the leaves' evaluation: ``evaluate``, or learned weights' sum over the features (``eval=NAME``)
        self.learned, self._evaluate = learned_or_hand("alphabeta", learned)
        self.depth = check_param("alphabeta", "depth", depth, int, 1, MAX_DEPTH)
        self.nodes = check_param("alphabeta", "nodes", nodes, int, 1, MAX_NODES)
        self.seconds = None if seconds is None else check_param("alphabeta", "seconds", seconds, float, 0.001,
                                                                self.MAX_SECONDS)
        self.searched = 0  # nodes visited by the last decision, for benchmarks
        # the deepest finished iteration's root value (the side to move's view), which the board shows; None when
        # the decision was forced (one legal action)
        self.score: float | None = None

    def select_action(self, state: GameState | TerraFeudState) -> Action:
        """Best action found within the budget (the deepest finished iteration decides)."""
        state = engine_state(state)
        self.score = None
        acts = list(self._legal(state))
        if len(acts) == 1:
            return acts[0]
        self.rng.shuffle(acts)
        self._count = 0
        self._deadline = time.perf_counter() + (self.MAX_SECONDS if self.seconds is None else self.seconds)
        self._tt: dict[tuple, tuple[int, float, int, Action | None]] = {}
        best = acts[0]
        for d in range(1, self.depth + 1):
            try:
                best, self.score = self._root(state, acts, d, enforce=d > 1)
            except _OutOfBudget:
                break
            acts.remove(best)
            acts.insert(0, best)  # principal variation first in the next iteration
        self.searched = self._count
        self._tt = {}
        return best

    def _root(self, state: GameState, acts: list[Action], depth: int, enforce: bool) -> tuple[Action, float]:
        """The best root action of one iteration and its value (the side to move's view)."""
        alpha, beta = float("-inf"), float("inf")
        best = acts[0]
        for a in acts if depth > 1 else self._ordered(state, acts, None):
            state.apply(a, check=False)
            try:
                v = -self._negamax(state, depth - 1, -beta, -alpha, enforce)
            finally:
                state.undo()
            if v > alpha:
                alpha, best = v, a
        return best, alpha

    def _negamax(self, state: GameState, depth: int, alpha: float, beta: float, enforce: bool) -> float:
        self._count += 1
        if enforce and (
            self._count > self.nodes or (self._count & 63 == 0 and time.perf_counter() > self._deadline)
        ):
            raise _OutOfBudget
        side = state.to_move
        if state.victory is not None:
            return terminal_score(state, side)
        if depth == 0:
            return self._evaluate(state, side)
        key = state.key()
        hit = self._tt.get(key)
        tt_move = None
        if hit is not None:
            h_depth, h_value, h_flag, tt_move = hit
            if h_depth >= depth:
                if h_flag == _EXACT:
                    return h_value
                if h_flag == _LOWER and h_value >= beta:
                    return h_value
                if h_flag == _UPPER and h_value <= alpha:
                    return h_value
        alpha0 = alpha
        best_v, best_a = float("-inf"), None
        for a in self._ordered(state, state.legal_actions(), tt_move):
            state.apply(a, check=False)
            try:
                v = -self._negamax(state, depth - 1, -beta, -alpha, enforce)
            finally:
                state.undo()
            if v > best_v:
                best_v, best_a = v, a
            if v > alpha:
                alpha = v
            if alpha >= beta:
                break
        flag = _UPPER if best_v <= alpha0 else _LOWER if best_v >= beta else _EXACT
        self._tt[key] = (depth, best_v, flag, best_a)
        return best_v

    @staticmethod
    def _ordered(state: GameState, acts: list[Action], tt_move: Action | None) -> list[Action]:
        """Captures and threats first (most valuable victim), the table's move before all."""
        sq = state.squares
        w = piece_weights()
        side = state.to_move
        centre = state.board.castle_centre[1 - side]

        def priority(a: Action) -> float:
            if a == tt_move:
                return -1e9
            kind = a[0]
            if kind == MOVE:
                t = a[2]
                if t == centre:
                    return -1e8
                c = sq[t]
                if c and c >> 3 != side:
                    return -100.0 * w[c] + w[sq[a[1]]]
                return 0.0
            if kind == SHOT:
                c = sq[a[2]]
                return -10.0 * w[c] if c else 1.0
            if kind == ORDER:
                hit = sum(w[c] for c in (sq[t] for t in a[2::3]) if c and c >> 3 != side)  # every step's target
                return -100.0 * hit if hit else 0.5
            return 0.0

        return sorted(acts, key=priority)
