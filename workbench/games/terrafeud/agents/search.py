"""``search``: the strong agent: iterative-deepening alpha-beta with quiescence on captures.

It extends ``alphabeta`` with what only pays off when the engine is fast enough to look deeper:

- quiescence: at the horizon the side to move may still take pieces (``qdepth`` plies of
  captures, attacks on the castle centre and Orders that strike), standing pat on ``evaluate``;
  so a leaf is never scored in the middle of an exchange;
- move ordering by the transposition table's move, captures by victim value, two killer moves
  per ply and a history table of quiet moves that caused cut-offs;
- late move reductions (``lmr``): a quiet action late in that order is searched a ply shallower
  first and in full only if it then beats what the earlier actions secured, so the same nodes
  reach a ply or two deeper;
- trade when ahead (``trade``): the leaf gains the material lead (capped at 10) times the pieces
  gone since the root, so a side ahead exchanges down towards an open castle instead of keeping
  its lead until the ply cap (and a side behind avoids exchanges). ``attack`` optionally adds
  the pieces' closeness to the enemy feudal (off by default: it did not help on the ladder);
- a partial last iteration still counts: once its first (principal) action is searched, a better
  action it finds is played, so an interrupted deeper search is never wasted.

Measured on the ladder (100 games, native, about 150 ms a move): 91 % wins against
``alphabeta:depth=3,nodes=6000``, the widget's former opponent (about 230 ms a move in Python).

The budget is ``nodes`` (reproducible: the same seed gives the same action) and optionally
``seconds`` (machine-dependent). Every search also stops at ``MAX_SECONDS`` whatever it was asked,
so a request from the browser cannot hold the kernel. The tables live for one decision.
This module is the readable specification of the native ``search`` (native/src/terrafeud/agents/search.rs).
"""

from __future__ import annotations

import time

from workbench.core.agents import Agent, check_param
from workbench.games.terrafeud.engine import MOVE, ORDER, SHOT, Action, GameState
from workbench.games.terrafeud.engine.geometry import DISTANCE
from workbench.games.terrafeud.engine.pieces import FEUDAL
from workbench.games.terrafeud.state import TerraFeudState

from .alphabeta import AlphaBetaAgent
from .evaluate import LearnedEvaluation, learned_or_hand, material, piece_weights, terminal_score
from .seat import engine_state

_EXACT, _LOWER, _UPPER = 0, 1, 2
MAX_DEPTH = 20
MAX_QDEPTH = 12
MAX_NODES = 5_000_000
DEFAULT_ATTACK = 0.0
DEFAULT_TRADE = 0.03


def attack_balance(state: GameState, side: int) -> float:
    """Own pieces' closeness to the enemy feudal minus the enemy's to ours (10 - distance each).

    The pressure that turns a material lead into a destroyed feudal, a mate or a castle entry;
    ``evaluate`` alone is content to keep a lead, so long games end unfinished at the ply cap.
    """
    feudal = state.feudal
    total = 0.0
    for h, c in enumerate(state.squares):
        if not c or c & 7 == FEUDAL:
            continue
        s = c >> 3
        f = feudal[1 - s]
        if f >= 0:
            near = 10.0 - DISTANCE[h][f]
            total += near if s == side else -near
    return total


class _OutOfBudget(Exception):
    """Raised inside the search when the node or time budget is spent."""


def is_noisy(state: GameState, a: Action) -> bool:
    """Actions quiescence searches: a strike on an enemy piece, a step onto the enemy castle centre,
    an Order with a striking step. Shots only mark (they kill a turn later), so they stay quiet."""
    kind = a[0]
    sq = state.squares
    side = state.to_move
    if kind == MOVE:
        c = sq[a[2]]
        return bool(c and c >> 3 != side) or a[2] == state.board.castle_centre[1 - side]
    if kind == ORDER:
        return any(sq[t] and sq[t] >> 3 != side for t in a[2::3])  # every step's target
    return False


class SearchAgent(Agent):
    """Iterative deepening negamax with alpha-beta, quiescence, killers, history and a budget."""

    name = "search"

    def __init__(self, seed: int | None = None, depth: int = 8, nodes: int = 100_000, seconds: float | None = None,
                 qdepth: int = 4, attack: float = DEFAULT_ATTACK, lmr: bool = True,
                 trade: float = DEFAULT_TRADE, learned: LearnedEvaluation | None = None) -> None:
        super().__init__(seed)
        # standing pat on ``evaluate``, or on learned weights' sum over the features (``eval=NAME``); the
        # ``attack`` and ``trade`` terms stay in material units
        self.learned, self._evaluate = learned_or_hand("search", learned)
        self.depth = check_param("search", "depth", depth, int, 1, MAX_DEPTH)
        self.nodes = check_param("search", "nodes", nodes, int, 1, MAX_NODES)
        self.seconds = None if seconds is None else check_param("search", "seconds", seconds, float, 0.001,
                                                                self.MAX_SECONDS)
        self.qdepth = check_param("search", "qdepth", qdepth, int, 0, MAX_QDEPTH)
        self.attack = check_param("search", "attack", attack, float, 0.0, 1.0)
        if not isinstance(lmr, bool):
            raise ValueError(f"search: lmr={lmr!r} must be true or false")
        self.lmr = lmr
        self.trade = check_param("search", "trade", trade, float, 0.0, 1.0)
        self.searched = 0  # nodes visited by the last decision, for benchmarks
        self.reached = 0  # deepest iteration that finished (or was partly used) in the last decision
        self.score: float | None = None  # the last decision's root value, side to move's view (for the board)
        self._found_value = 0.0

    # ------------------------------------------------------------------ root
    def select_action(self, state: GameState | TerraFeudState) -> Action:
        """Best action of the deepest (possibly partial) iteration within the budget."""
        state = engine_state(state)
        acts = list(self._legal(state))
        self.score = None
        if len(acts) == 1:
            return acts[0]
        self.rng.shuffle(acts)  # seeded tie-break among equal actions
        acts = AlphaBetaAgent._ordered(state, acts, None)
        self._count = 0
        self._root_pieces = sum(1 for c in state.squares if c)
        limit = self.MAX_SECONDS if self.seconds is None else self.seconds
        self._deadline = time.perf_counter() + limit
        self._tt: dict[tuple, tuple[int, float, int, Action | None]] = {}
        self._killers: list[list[Action | None]] = [[None, None] for _ in range(MAX_DEPTH + 1)]
        self._history: dict[Action, int] = {}
        best = acts[0]
        self.reached = 0
        for d in range(1, self.depth + 1):
            found, complete = self._root(state, acts, d)
            if found is not None:
                best, self.score = found, self._found_value
                self.reached = d
                acts.remove(best)
                acts.insert(0, best)  # principal variation first in the next iteration
            if not complete:
                break
        self.searched = self._count
        self._tt, self._history = {}, {}
        return best

    def _root(self, state: GameState, acts: list[Action], depth: int) -> tuple[Action | None, bool]:
        """(best action, finished?) of one iteration; the best is None if not even the first action finished."""
        alpha, beta = float("-inf"), float("inf")
        best: Action | None = None
        for a in acts:
            state.apply(a, check=False)
            try:
                v = -self._negamax(state, depth - 1, -beta, -alpha, 1)
            except _OutOfBudget:
                return best, False
            finally:
                state.undo()
            if v > alpha or best is None:
                alpha, best = v, a
                self._found_value = v  # read by select_action with ``best`` (the widget shows it)
        return best, True

    def settled_value(self, state: GameState, root_pieces: int | None = None, seconds: float = 0.5) -> float:
        """``state``'s value for its side to move once the captures at hand are played out (quiescence).

        Scores an action an agent that reports no value chose (the native agents return only their
        action): the position after it, settled, is what the board shows. ``root_pieces`` is the
        piece count the ``trade`` term measures exchanges from (the position before the action).
        """
        if state.victory is not None:
            return terminal_score(state, state.to_move)
        self._count = 0
        self._root_pieces = sum(1 for c in state.squares if c) if root_pieces is None else root_pieces
        self._deadline = time.perf_counter() + seconds
        try:
            return self._quiesce(state, float("-inf"), float("inf"), self.qdepth)
        except _OutOfBudget:
            return self._evaluate(state, state.to_move)

    # ------------------------------------------------------------------ tree
    def _tick(self) -> None:
        self._count += 1
        if self._count > self.nodes or (self._count & 63 == 0 and time.perf_counter() > self._deadline):
            raise _OutOfBudget

    def _negamax(self, state: GameState, depth: int, alpha: float, beta: float, ply: int) -> float:
        if state.victory is not None:
            return terminal_score(state, state.to_move)
        if depth <= 0:
            return self._quiesce(state, alpha, beta, self.qdepth)
        self._tick()
        key = state.key()
        hit = self._tt.get(key)
        tt_move = None
        if hit is not None:
            h_depth, h_value, h_flag, tt_move = hit
            if h_depth >= depth and (h_flag == _EXACT or (h_flag == _LOWER and h_value >= beta)
                                     or (h_flag == _UPPER and h_value <= alpha)):
                return h_value
        alpha0 = alpha
        best_v, best_a = float("-inf"), None
        killers = self._killers[min(ply, MAX_DEPTH)]
        for i, a in enumerate(self._ordered(state, state.legal_actions(), tt_move, ply)):
            # Late move reduction: a late quiet action is first searched a ply shallower and only
            # searched in full if it then looks better than what the earlier actions secured.
            reduce = (self.lmr and depth >= 3 and i >= 3 and a != tt_move and a not in killers
                      and a[0] != SHOT and not is_noisy(state, a))
            state.apply(a, check=False)
            try:
                v = -self._negamax(state, depth - 2, -beta, -alpha, ply + 1) if reduce else 0.0
                if not reduce or v > alpha:
                    v = -self._negamax(state, depth - 1, -beta, -alpha, ply + 1)
            finally:
                state.undo()
            if v > best_v:
                best_v, best_a = v, a
            if v > alpha:
                alpha = v
            if alpha >= beta:
                if not is_noisy(state, a):
                    if killers[0] != a:
                        killers[1], killers[0] = killers[0], a
                    self._history[a] = self._history.get(a, 0) + depth * depth
                break
        flag = _UPPER if best_v <= alpha0 else _LOWER if best_v >= beta else _EXACT
        self._tt[key] = (depth, best_v, flag, best_a)
        return best_v

    def _quiesce(self, state: GameState, alpha: float, beta: float, qdepth: int) -> float:
        """Stand pat on ``evaluate`` or improve it with a capture, ``qdepth`` captures deep at most."""
        self._tick()
        side = state.to_move
        stand = self._evaluate(state, side)
        if state.victory is None:
            if self.attack:
                stand += self.attack * attack_balance(state, side)
            if self.trade:
                stand += self.trade * self._trade_bonus(state, side)
        if qdepth == 0 or stand >= beta:
            return stand
        alpha = max(alpha, stand)
        best = stand
        noisy = [a for a in state.legal_actions() if is_noisy(state, a)]
        for a in AlphaBetaAgent._ordered(state, noisy, None):
            state.apply(a, check=False)
            try:
                if state.victory is not None:
                    v = terminal_score(state, side)
                else:
                    v = -self._quiesce(state, -beta, -alpha, qdepth - 1)
            finally:
                state.undo()
            if v > best:
                best = v
            if v > alpha:
                alpha = v
            if alpha >= beta:
                break
        return best

    def _trade_bonus(self, state: GameState, side: int) -> float:
        """The material lead (capped at 10) times the pieces gone since the root: ahead, every
        exchange brings the castle nearer; behind, exchanges are avoided."""
        lead = max(-10.0, min(10.0, material(state, side)))
        return lead * (self._root_pieces - sum(1 for c in state.squares if c))

    def _ordered(self, state: GameState, acts: list[Action], tt_move: Action | None, ply: int) -> list[Action]:
        """Table move, then captures by victim value, then killers, then quiet moves by history."""
        sq = state.squares
        w = piece_weights()
        side = state.to_move
        centre = state.board.castle_centre[1 - side]
        killers = self._killers[min(ply, MAX_DEPTH)]
        history = self._history

        def priority(a: Action) -> float:
            if a == tt_move:
                return -1e12
            kind = a[0]
            if kind == MOVE:
                t = a[2]
                if t == centre:
                    return -1e11
                c = sq[t]
                if c and c >> 3 != side:
                    return -1e6 * w[c] + w[sq[a[1]]]
            elif kind == ORDER:
                hit = sum(w[c] for c in (sq[t] for t in a[2::3]) if c and c >> 3 != side)
                if hit:
                    return -1e6 * hit
            elif kind == SHOT:
                c = sq[a[2]]
                if c and c >> 3 != side:
                    return -5e4 - w[c]  # a marker on a piece: an ultimatum, after killers
            if a == killers[0]:
                return -1e5
            if a == killers[1]:
                return -1e5 + 1
            return -float(history.get(a, 0))

        return sorted(acts, key=priority)
