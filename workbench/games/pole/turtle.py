"""The turtle player of the contract's section 15: the crude strategy behind the decisiveness figures.

The contract measured how often Pole stalls with a player that keeps its Prince at home. In its words,
the turtle "never moves its Prince (so it stays in its fortress), buys a missing barracks or stable
first, then a catapult or tower when it can, else a random unit, on the free cell nearest the enemy
Prince, takes any shot at the enemy Prince and any attack with odds of at least 1/3, and otherwise
marches units towards the enemy Prince". The readings this module decides (``docs/rulings.md``):

- *Nearest* is the board's own distance, Chebyshev (8 neighbours are at 1, section 1); among equally
  near free cells the first in board order.
- *Buy phase*, in order: a missing barracks, then a missing stable (bought when affordable; while one
  is missing and unaffordable the turtle saves with ``nobuy``); else a catapult or a tower, whichever
  legal purchase lies nearest the enemy Prince (on a tie the lower action: the tower); else a unit of a
  kind drawn uniformly from the affordable I, A, H (kinds in piece order); else ``nobuy``.
- *Act phase*, in order: the attack with the best odds on the enemy Prince (any odds); else the
  attack with the best odds of at least 12/36 (a tie: the dearer target); else the move of a piece
  other than the Prince with the largest drop in its distance to the enemy Prince (then the smallest
  distance left); else ``pass``. Remaining ties are drawn with the agent's seeded stream
  (``rng.choice``, as the generic agents break ties).
- Under ``attack_mode=all`` an ``ax*`` counts as a Prince shot when the Prince is in its zone (its
  odds: that the Prince falls), otherwise by the chance that it removes anything.

The native twin (``native/src/pole/turtle.rs``) makes the same choices from the same stream.
"""

from __future__ import annotations

from typing import Any

from workbench.core.agents import ProtocolAgent

from .rules import A, B, C, H, I, P, S, T
from .state import ALL0, ATT0, BUY_PHASE, MOVE0, NOBUY, PASS, PoleState, code

THIRD_36 = 12  # odds of at least 1/3: 12 of the 36 dice outcomes


def distance(a: int, b: int) -> int:
    """Chebyshev distance between two cells (``x * 10 + y``): the board's adjacency is 8 cells."""
    return max(abs(a // 10 - b // 10), abs(a % 10 - b % 10))


class TurtleAgent(ProtocolAgent):
    """Section 15's turtle: a Prince that stays home, an army that marches (module docstring)."""

    name = "turtle"

    def describe(self) -> str:
        return "turtle: the contract's section-15 player (Prince stays home, buildings, siege, march)"

    def select_action(self, state: Any) -> int:
        py: PoleState = state.py() if hasattr(state, "py") else state  # a NativePoleState reads its mirror
        legal = self._legal(state)
        enemy = 1 - py.to_move
        target = py.prince_of(enemy)
        if target is None:  # cannot happen in a running game; stay legal anyway
            return legal[-1] if legal[-1] in (NOBUY, PASS) else legal[0]
        if py.phase == BUY_PHASE:
            return self._buy(py, legal, target)
        return self._act(py, legal, target)

    # ------------------------------------------------------------------ buy phase
    def _buy(self, s: PoleState, legal: list[int], target: int) -> int:
        side = s.to_move
        by_kind: dict[int, list[int]] = {}
        for act in legal:
            if act < NOBUY:
                by_kind.setdefault(act // 100, []).append(act % 100)
        for kind in (B, S):  # a missing production building first (save for it)
            if code(kind, side) not in s.board:
                if kind in by_kind:
                    return kind * 100 + _nearest(by_kind[kind], target)
                if s.coins[side] < s.cfg.cost[kind]:
                    return NOBUY
        siege = [k * 100 + c for k in (T, C) for c in by_kind.get(k, ())]
        if siege:
            return min(siege, key=lambda act: (distance(act % 100, target), act))
        units = [k for k in (I, A, H) if k in by_kind]
        if units:
            kind = self.rng.choice(units)
            return kind * 100 + _nearest(by_kind[kind], target)
        return NOBUY

    # ------------------------------------------------------------------ act phase
    def _act(self, s: PoleState, legal: list[int], target: int) -> int:
        board = s.board
        cost = s.cfg.cost
        shots: list[tuple[int, int]] = []  # (n/36 that the Prince falls, action)
        attacks: list[tuple[tuple[int, int], int]] = []  # ((n/36, target cost), action)
        moves: list[tuple[tuple[int, int], int]] = []  # ((drop in distance, -distance left), action)
        for act in legal:
            if act >= ALL0:
                a = act - ALL0
                zone = s.zone_targets(a)
                if target in zone:
                    shots.append((s.success_count(a, target), act))
                else:
                    n = round(s.attack_chance(act) * 36)
                    attacks.append(((n, max(cost[(board[t] - 1) & 7] for t in zone)), act))
            elif act >= ATT0:
                a, t = divmod(act - ATT0, 100)
                n = s.success_count(a, t)
                if t == target:
                    shots.append((n, act))
                else:
                    attacks.append(((n, cost[(board[t] - 1) & 7]), act))
            elif act >= MOVE0:
                a, b = divmod(act - MOVE0, 100)
                if (board[a] - 1) & 7 != P:
                    drop = distance(a, target) - distance(b, target)
                    if drop > 0:
                        moves.append(((drop, -distance(b, target)), act))
        if shots:
            return self._best(shots)
        attacks = [x for x in attacks if x[0][0] >= THIRD_36]
        if attacks:
            return self._best(attacks)
        if moves:
            return self._best(moves)
        return PASS

    def _best(self, scored: list[tuple[Any, int]]) -> int:
        """The best-scored action; ties drawn from the seeded stream (in the legal order)."""
        top = max(k for k, _ in scored)
        return self.rng.choice([act for k, act in scored if k == top])


def _nearest(cells: list[int], target: int) -> int:
    """The cell nearest ``target``; the first in board order on a tie (``cells`` are in board order)."""
    return min(cells, key=lambda c: distance(c, target))


AGENTS = {"turtle": TurtleAgent}
