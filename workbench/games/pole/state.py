"""Pole's game state on the protocol: turns of a buy and an act phase, and dice as a chance node.

Board: a list of 100 ints, 0 for empty, else ``1 + kind + 8 * side`` (kind in ``BSTIAHCP`` order,
side 0 Red, 1 Black). Phases: ``buy``, ``act``, ``over``; after an attack is chosen the state is a
chance node (``pending`` holds the attack, ``current_player() == CHANCE``) until its dice outcome,
an int ``(r_a - 1) * 6 + (r_d - 1)`` with probability 1/36, is applied.

Actions are dense ints (``action_to_int`` is the identity), and ``legal_actions`` lists them in
ascending order, which is the canonical order:
  ``kind * 100 + cell`` purchase ``X@c`` (kind 0..6 = B S T I A H C), then ``700`` nobuy, ``701`` pass,
  ``702 + from * 100 + to`` move, ``10702 + from * 100 + to`` attack, ``20702 + from`` attack-all ``ax*``.
So in the buy phase: purchases by kind, then cell (board order), then ``nobuy``; in the act phase:
``pass``, moves by (from, to), then attacks by (from, to).

Undo keeps a snapshot of the mutable fields per applied action (exact, cheap: about 150 ints).
"""

from __future__ import annotations

from typing import Any

from workbench.core.protocol import CHANCE, TERMINAL, Glyph, IllegalAction, State

from .board import NAMES, block_text, parse_cell
from .rules import BUYABLE, KIND_WORDS, LETTERS, SIDES, A, B, C, H, I, P, S, T
from .tables import (
    MOVE_NONE,
    MOVE_STEP4,
    MOVE_STEP8,
    ZONE_MELEE,
    Config,
)

BUY, NOBUY, PASS, MOVE0, ATT0, ALL0 = 0, 700, 701, 702, 10702, 20702
NUM_ACTIONS = 20802
NUM_OUTCOMES = 36
BUY_PHASE, ACT_PHASE, OVER_PHASE = 0, 1, 2
PHASES = ("buy", "act", "over")

# rule-usage counters, one pair (red, black) each; names follow the rulebook's words
COUNTERS = (
    "income", "purchase", "nobuy", "buy_barracks", "buy_stable", "buy_tower", "buy_infantryman", "buy_archer",
    "buy_horseman", "buy_catapult", "coins_spent", "move", "prince_move", "pass", "attack", "attack_hit",
    "attack_miss", "fortress_halving", "expected_36", "prince_destroyed", "building_destroyed", "removed",
)
CI = {name: i for i, name in enumerate(COUNTERS)}
_BUY_COUNTER = (CI["buy_barracks"], CI["buy_stable"], CI["buy_tower"], CI["buy_infantryman"], CI["buy_archer"],
                CI["buy_horseman"], CI["buy_catapult"])


def code(kind: int, side: int) -> int:
    """Board code of a piece."""
    return 1 + kind + 8 * side


def letter(c: int) -> str:
    """Piece letter of a board code (upper Red, lower Black)."""
    ch = LETTERS[(c - 1) & 7]
    return ch if c <= 8 else ch.lower()


def dice_text(outcome: int) -> str:
    """``r_a:r_d`` of a chance outcome."""
    return f"{outcome // 6 + 1}:{outcome % 6 + 1}"


class PoleState(State):
    """One Pole position (see the module docstring for the encoding)."""

    __slots__ = ("cfg", "board", "coins", "to_move", "phase", "pending", "fresh", "bought", "removed", "quiet",
                 "turn_no", "victory_kind", "winner_side", "cnt", "history", "_undo", "_fired", "seed", "origin", "_legal")

    def __init__(self, cfg: Config) -> None:
        self.cfg = cfg
        self.board = [0] * 100
        self.coins = [0, 0]
        self.to_move = 0
        self.phase = BUY_PHASE
        self.pending = -1  # an attack action awaiting its dice
        self.fresh = 0  # bitmask of cells bought this turn (buy_first)
        self.bought = 0
        self.removed = False
        self.quiet = 0
        self.turn_no = 1
        self.victory_kind: str | None = None
        self.winner_side: int | None = None
        self.cnt = [0] * (2 * len(COUNTERS))
        self.history: list[int] = []
        self._undo: list[tuple] = []
        self._fired: list[tuple[str, int, int | None]] = []
        self.seed = 0
        self.origin: dict[str, Any] | None = None  # the position the game started from (records)
        self._legal: tuple[int, ...] | None = None  # legal actions of this position, computed once

    # ------------------------------------------------------------------ queries
    def current_player(self) -> int:
        if self.phase == OVER_PHASE:
            return TERMINAL
        if self.pending >= 0:
            return CHANCE
        return self.to_move

    def is_terminal(self) -> bool:
        return self.phase == OVER_PHASE

    def move_number(self) -> int:
        return len(self.history)

    def turn(self) -> int:
        return self.turn_no

    def returns(self) -> list[float]:
        if self.winner_side is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.winner_side == 0 else [-1.0, 1.0]

    def winner(self) -> int | None:
        return self.winner_side

    def outcome(self) -> str:
        if self.phase != OVER_PHASE:
            return "ongoing"
        if self.victory_kind == "prince":
            return "win"
        return "draw" if self.victory_kind == "draw" else "unfinished"

    def victory(self) -> str | None:
        return self.victory_kind

    def phase_name(self) -> str:
        """``buy``, ``act`` or ``over`` (a chance node is still phase ``act``)."""
        return PHASES[self.phase]

    def summary(self, player: int | None = None) -> dict[str, Any]:
        """What a status bar shows (the board): phase, coins of each side, a pending attack, the quiet count."""
        out: dict[str, Any] = {"phase": PHASES[self.phase],
                               "coins": {SIDES[s]: self.coins[s] for s in (0, 1)}}
        if self.pending >= 0:
            out["dice"] = "due for the pending attack"
        out["quiet turns"] = self.quiet
        return out

    def is_fresh(self, cell: int) -> bool:
        """True for a piece bought this turn (it cannot act yet)."""
        return bool(self.fresh >> cell & 1)

    def fresh_cells(self) -> list[int]:
        """Fresh cells in board order."""
        f = self.fresh
        return [c for c in range(100) if f >> c & 1]

    def prince_of(self, side: int) -> int | None:
        """Cell of ``side``'s Prince, or None."""
        try:
            return self.board.index(code(P, side))
        except ValueError:
            return None

    def has_kind(self, side: int, kind: int) -> bool:
        """At least one own piece of ``kind`` on the board (P14)."""
        return code(kind, side) in self.board

    # ------------------------------------------------------------------ generation
    def _can_act(self, cell: int) -> bool:
        v = self.board[cell]
        return v != 0 and (v - 1) >> 3 == self.to_move and not self.fresh >> cell & 1

    def destinations(self, cell: int) -> list[int]:
        """Move destinations of the piece on ``cell`` now (empty outside phase act, P36), board order."""
        if self.phase != ACT_PHASE or self.pending >= 0 or not self._can_act(cell):
            return []
        return self._moves_from(cell)

    def _moves_from(self, a: int) -> list[int]:
        cfg = self.cfg
        board = self.board
        mv = cfg.kind_move[(board[a] - 1) & 7]
        if mv == MOVE_NONE:
            return []
        if mv == MOVE_STEP8:
            return [b for b in cfg.step8[a] if board[b] == 0]
        if mv == MOVE_STEP4:
            return [b for b in cfg.step4[a] if board[b] == 0]
        out = []
        jump = cfg.ride_jump
        for path in cfg.ride_rays[a]:
            for b in path:
                if board[b] == 0:
                    out.append(b)
                elif not jump:
                    break
        out.sort()
        return out

    def zone_targets(self, a: int) -> list[int]:
        """Enemy cells in the zone of the piece on ``a`` (geometry only: ignores phase and freshness)."""
        board = self.board
        v = board[a]
        if v == 0:
            return []
        kind = (v - 1) & 7
        cfg = self.cfg
        if not cfg.can_attack[kind]:
            return []
        side = (v - 1) >> 3
        zone = cfg.kind_zone[kind]
        if zone == ZONE_MELEE or not cfg.blocked_kinds[kind]:
            return [b for b in cfg.zone_flat[zone][a] if board[b] and (board[b] - 1) >> 3 != side]
        out = []
        for cells, lo in cfg.zone_rays[zone][a]:
            for k, b in enumerate(cells, start=1):
                w = board[b]
                if w:
                    if k >= lo and (w - 1) >> 3 != side:
                        out.append(b)
                    break
        out.sort()
        return out

    def reaches(self, a: int, t: int) -> bool:
        """True when the piece on ``a`` has cell ``t`` in its attack zone now (blocking applied)."""
        v = self.board[a]
        if v == 0:
            return False
        kind = (v - 1) & 7
        cfg = self.cfg
        if not cfg.can_attack[kind]:
            return False
        zone = cfg.kind_zone[kind]
        if t not in cfg.zone_sets[zone][a]:
            return False
        if zone == ZONE_MELEE or not cfg.blocked_kinds[kind]:
            return True
        board = self.board
        for cells, _lo in cfg.zone_rays[zone][a]:
            if t in cells:
                for b in cells:
                    if b == t:
                        return True
                    if board[b]:
                        return False
        return False

    def zone_cells(self, a: int) -> list[int]:
        """Every cell (empty or not) the piece on ``a`` could strike, with blocking (heat layers)."""
        board = self.board
        v = board[a]
        if v == 0:
            return []
        kind = (v - 1) & 7
        cfg = self.cfg
        if not cfg.can_attack[kind]:
            return []
        zone = cfg.kind_zone[kind]
        if zone == ZONE_MELEE or not cfg.blocked_kinds[kind]:
            return list(cfg.zone_flat[zone][a])
        out = []
        for cells, lo in cfg.zone_rays[zone][a]:
            for k, b in enumerate(cells, start=1):
                if k >= lo:
                    out.append(b)
                if board[b]:
                    break
        out.sort()
        return out

    def targets(self, cell: int) -> list[int]:
        """Attack targets of the piece on ``cell`` now (empty outside phase act, P36), board order."""
        if self.phase != ACT_PHASE or self.pending >= 0 or not self._can_act(cell):
            return []
        return self.zone_targets(cell)

    def placements(self, kind: int) -> list[int]:
        """Cells where the side to move may buy ``kind`` now (empty outside phase buy, P36)."""
        if self.phase != BUY_PHASE or kind == P:
            return []
        side = self.to_move
        cfg = self.cfg
        if self.bought >= cfg.ppt or self.coins[side] < cfg.cost[kind] or not self._prereq(side, kind):
            return []
        return self._cells_for(side, kind)

    def _prereq(self, side: int, kind: int) -> bool:
        board = self.board
        if kind in (I, A):
            return code(B, side) in board
        if kind == H:
            return code(S, side) in board
        if kind == C:
            return code(B, side) in board and code(S, side) in board
        return True

    def _cells_for(self, side: int, kind: int) -> list[int]:
        cfg = self.cfg
        board = self.board
        no_fort = not cfg.fortress_buildings and kind in (B, S, T)
        fort_of = cfg.fort_of
        if kind == T:
            need = cfg.tower_infantry
            inf = code(I, side)
            adj = cfg.step8
            out = []
            for c in range(100):
                if board[c] == 0 and not (no_fort and fort_of[c]):
                    if need == 0 or sum(1 for n in adj[c] if board[n] == inf) >= need:
                        out.append(c)
            return out
        return [c for c in cfg.place_zone[side] if board[c] == 0 and not (no_fort and fort_of[c])]

    def legal_actions(self, player: int | None = None) -> list[int]:
        if self.phase == OVER_PHASE or self.pending >= 0:
            return []
        if player is not None and player != self.to_move:
            return []
        if self._legal is None:
            self._legal = tuple(self._generate())
        return list(self._legal)

    def _generate(self) -> list[int]:
        """Every legal decision in ascending (canonical) order; see the module docstring."""
        if self.phase == BUY_PHASE:
            out = []
            side = self.to_move
            coins = self.coins[side]
            cost = self.cfg.cost
            for kind in range(7):
                if coins >= cost[kind] and self._prereq(side, kind):
                    base = kind * 100
                    out.extend([base + c for c in self._cells_for(side, kind)])
            out.append(NOBUY)
            return out
        out = [PASS]
        attacks: list[int] = []
        board = self.board
        side = self.to_move
        fresh = self.fresh
        cfg = self.cfg
        every = cfg.attack_all
        kind_move = cfg.kind_move
        step8 = cfg.step8
        can_attack = cfg.can_attack
        lo, hi = (9, 16) if side == 0 else (1, 8)  # enemy board codes
        own_lo = 1 if side == 0 else 9
        for a in range(100):
            v = board[a]
            if not own_lo <= v < own_lo + 8 or fresh >> a & 1:
                continue
            kind = v - own_lo
            base = a * 100
            if kind_move[kind] == MOVE_STEP8:
                out.extend([MOVE0 + base + b for b in step8[a] if board[b] == 0])
            elif kind_move[kind] != MOVE_NONE:
                out.extend([MOVE0 + base + b for b in self._moves_from(a)])
            if can_attack[kind]:
                if cfg.kind_zone[kind] == ZONE_MELEE:
                    ts = [b for b in step8[a] if lo <= board[b] <= hi]
                else:
                    ts = self.zone_targets(a)
                if ts:
                    if every:
                        attacks.append(ALL0 + a)
                    else:
                        attacks.extend([ATT0 + base + b for b in ts])
        out.extend(attacks)
        return out

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.pending < 0 or self.phase == OVER_PHASE:
            return []
        p = 1.0 / 36.0
        return [(o, p) for o in range(36)]

    def chance_groups(self) -> list[tuple[int, float, tuple[int, ...]]]:
        """The 36 outcomes grouped by effect: ``(representative outcome, probability, removed cells)``.

        The contract allows collapsing the node (section 8); searches take the exact expectation over
        these groups (two for a single attack) instead of 36 children. Representatives are the lowest
        outcome of each group, groups in order of their representative.
        """
        if self.pending < 0 or self.phase == OVER_PHASE:
            return []
        groups: dict[tuple[int, ...], list[int]] = {}
        for o in range(36):
            groups.setdefault(tuple(self._hits(o)), []).append(o)
        return sorted(((v[0], len(v) / 36.0, k) for k, v in groups.items()), key=lambda g: g[0])

    def chance_classes(self) -> list[tuple[int, float]]:
        """The protocol's merged chance node: ``chance_groups`` without the removed cells."""
        return [(o, p) for o, p, _ in self.chance_groups()]

    def _hits(self, outcome: int) -> list[int]:
        """Cells the pending attack removes under ``outcome``."""
        act = self.pending
        cfg = self.cfg
        board = self.board
        diff2 = 2 * (outcome // 6 - outcome % 6)
        if act >= ALL0:
            a = act - ALL0
            targets = self.zone_targets(a)
        else:
            a = (act - ATT0) // 100
            targets = [(act - ATT0) % 100]
        akind = (board[a] - 1) & 7
        return [t for t in targets if diff2 > cfg.threshold2(akind, a, (board[t] - 1) & 7, t)]

    def success_count(self, attacker: int, target: int) -> int:
        """Successes out of 36 of an attack from ``attacker`` on ``target`` (geometry not checked)."""
        board = self.board
        return self.cfg.success_count((board[attacker] - 1) & 7, attacker, (board[target] - 1) & 7, target)

    def attack_chance(self, action: int) -> float:
        """Probability that ``action`` (an attack) removes at least one piece; 0 for other actions.

        For ``ax*`` this is the chance that some target falls; ``success_count`` gives one target's.
        """
        if action >= ALL0:
            a = action - ALL0
            ts = self.zone_targets(a)
            if not ts:
                return 0.0
            akind = (self.board[a] - 1) & 7
            hit = 0
            for o in range(36):
                diff2 = 2 * (o // 6 - o % 6)
                if any(diff2 > self.cfg.threshold2(akind, a, (self.board[t] - 1) & 7, t) for t in ts):
                    hit += 1
            return hit / 36.0
        if action >= ATT0:
            a, t = divmod(action - ATT0, 100)
            return self.success_count(a, t) / 36.0
        return 0.0

    def _expected36(self, action: int) -> int:
        """Expected removals of an attack, in 36ths (the sum of the targets' success counts)."""
        if action >= ALL0:
            a = action - ALL0
            return sum(self.success_count(a, t) for t in self.zone_targets(a))
        a, t = divmod(action - ATT0, 100)
        return self.success_count(a, t)

    # ------------------------------------------------------------------ mutation
    def _snapshot(self) -> tuple:
        # the legal tuple rides along (immutable): a search's undo then never regenerates the moves
        return (self.board[:], self.coins[:], self.to_move, self.phase, self.pending, self.fresh, self.bought,
                self.removed, self.quiet, self.turn_no, self.victory_kind, self.winner_side, self.cnt[:], self._fired,
                self._legal)

    def _restore(self, snap: tuple) -> None:
        # copies: a clone shares the snapshots of its undo stack, so a restored list must not be mutated
        (board, coins, self.to_move, self.phase, self.pending, self.fresh, self.bought, self.removed,
         self.quiet, self.turn_no, self.victory_kind, self.winner_side, cnt, fired, self._legal) = snap
        self.board, self.coins, self.cnt, self._fired = board[:], coins[:], cnt[:], list(fired)

    def apply_action(self, action: Any) -> None:
        if not isinstance(action, int) or isinstance(action, bool):
            raise IllegalAction(f"{action!r}: an action is an int (use string_to_action for text)")
        if self.phase == OVER_PHASE:
            raise IllegalAction(f"{self._name(action)}: the game is over ({self.victory_kind})")
        if self.pending >= 0:
            if not 0 <= action < 36:
                raise IllegalAction(f"{action}: the dice are rolled now; a chance outcome is 0..35")
            self._undo.append(self._snapshot())
            self.history.append(action)
            self._legal = None
            self._resolve(action)
            return
        if self._legal is None:
            self._legal = tuple(self._generate())
        if action not in self._legal:
            raise IllegalAction(self.explain_illegal(self._name(action)))
        self._undo.append(self._snapshot())
        self._legal = None
        self.history.append(action)
        self._fired = []
        self._play(action)

    def _name(self, action: Any) -> str:
        try:
            return self.action_to_string(action)
        except (IllegalAction, TypeError, ValueError):
            return repr(action)

    def _count(self, name: str, side: int, amount: int = 1) -> None:
        self.cnt[2 * CI[name] + side] += amount

    def _play(self, action: int) -> None:
        side = self.to_move
        cfg = self.cfg
        fired = self._fired
        if action < NOBUY:
            kind, cell = divmod(action, 100)
            self.board[cell] = code(kind, side)
            self.coins[side] -= cfg.cost[kind]
            self.bought += 1
            if cfg.buy_first:
                self.fresh |= 1 << cell
            self._count("purchase", side)
            self.cnt[2 * _BUY_COUNTER[kind] + side] += 1
            self._count("coins_spent", side, cfg.cost[kind])
            fired.append(("buy_" + KIND_WORDS[kind].lower(), side, cell))
            if self.bought >= cfg.ppt:
                self._end_buy()
            return
        if action == NOBUY:
            self._count("nobuy", side)
            fired.append(("nobuy", side, None))
            self._end_buy()
            return
        if action == PASS:
            self._count("pass", side)
            fired.append(("pass", side, None))
            self._end_act()
            return
        if action < ATT0:
            a, b = divmod(action - MOVE0, 100)
            v = self.board[a]
            self.board[a] = 0
            self.board[b] = v
            self._count("move", side)
            if (v - 1) & 7 == P:
                self._count("prince_move", side)
            fired.append(("move", side, b))
            return self._end_act()
        # an attack: the chance node follows
        a = action - ALL0 if action >= ALL0 else (action - ATT0) // 100
        self.pending = action
        self._count("attack", side)
        self._count("expected_36", side, self._expected36(action))
        targets = self.zone_targets(a) if action >= ALL0 else [(action - ATT0) % 100]
        if any(cfg.halved(a, t) for t in targets):
            self._count("fortress_halving", side)
            fired.append(("fortress_halving", side, targets[0]))
        fired.append(("attack", side, a))

    def _resolve(self, outcome: int) -> None:
        side = self.to_move
        hits = self._hits(outcome)
        self._fired = [("dice", side, None)]
        self.pending = -1
        prince_down = False
        if hits:
            self._count("attack_hit", side)
        else:
            self._count("attack_miss", side)
        for t in hits:
            v = self.board[t]
            kind = (v - 1) & 7
            self.board[t] = 0
            self.fresh &= ~(1 << t)
            self._count("removed", side)
            if kind == P:
                prince_down = True
                self._count("prince_destroyed", side)
            elif kind in (B, S, T):
                self._count("building_destroyed", side)
            self._fired.append(("removed", side, t))
        if hits:
            self.removed = True
        if prince_down:
            self.phase = OVER_PHASE
            self.victory_kind = "prince"
            self.winner_side = side
            self._clear_marks()
            return
        self._end_act()

    def _clear_marks(self) -> None:
        self.fresh = 0
        self.bought = 0
        self.removed = False

    def _end_buy(self) -> None:
        self.bought = 0  # bought counts the current buy phase only (section 12)
        if self.cfg.buy_first:
            self.phase = ACT_PHASE
        else:
            self._end_turn()

    def _end_act(self) -> None:
        if self.cfg.buy_first or self.cfg.ppt == 0:
            self._end_turn()
        else:
            self.phase = BUY_PHASE

    def _end_turn(self) -> None:
        cfg = self.cfg
        side = self.to_move
        if not cfg.income_start:
            self.coins[side] += cfg.income
            self._count("income", side, cfg.income)
        self.quiet = 0 if self.removed else self.quiet + 1
        self._clear_marks()
        if cfg.draw_after is not None and self.quiet >= cfg.draw_after:
            self.phase = OVER_PHASE
            self.victory_kind = "draw"
            self._fired.append(("draw", side, None))
            return
        if self.turn_no >= cfg.max_turns:
            self.phase = OVER_PHASE
            self.victory_kind = "unfinished"
            self._fired.append(("turn_cap", side, None))
            return
        self.turn_no += 1
        self.to_move = 1 - side
        self.begin_turn()

    def begin_turn(self) -> None:
        """Turn start: income under ``income_timing=start``, then the turn's first phase."""
        cfg = self.cfg
        side = self.to_move
        if cfg.income_start:
            self.coins[side] += cfg.income
            self._count("income", side, cfg.income)
        self.phase = BUY_PHASE if cfg.buy_first and cfg.ppt > 0 else ACT_PHASE

    def undo_action(self) -> None:
        if not self._undo:
            raise IllegalAction("nothing to undo")
        self._restore(self._undo.pop())
        self.history.pop()

    def clone(self) -> PoleState:
        s = PoleState.__new__(PoleState)
        s.cfg = self.cfg
        s.board = self.board[:]
        s.coins = self.coins[:]
        s.to_move = self.to_move
        s.phase = self.phase
        s.pending = self.pending
        s.fresh = self.fresh
        s.bought = self.bought
        s.removed = self.removed
        s.quiet = self.quiet
        s.turn_no = self.turn_no
        s.victory_kind = self.victory_kind
        s.winner_side = self.winner_side
        s.cnt = self.cnt[:]
        s.history = self.history[:]
        s._undo = self._undo[:]
        s._fired = self._fired[:]
        s.seed = self.seed
        s.origin = self.origin
        s._legal = self._legal
        return s

    # ------------------------------------------------------------------ notation
    def action_to_string(self, action: Any) -> str:
        """Contract notation (section 11); at a chance node an outcome prints as its dice ``6:2``.

        A record or event list is then the sequence of these strings: ``e5xe9`` followed by ``6:2``;
        ``action_text`` joins them as the contract's ``e5xe9 6:2``.
        """
        if self.pending >= 0 and self.phase != OVER_PHASE:
            if isinstance(action, int) and 0 <= action < 36:
                return dice_text(action)
            raise IllegalAction(f"{action!r}: a chance outcome is 0..35")
        if not isinstance(action, int) or isinstance(action, bool) or not 0 <= action < NUM_ACTIONS:
            raise IllegalAction(f"{action!r} is not a Pole action number (0..{NUM_ACTIONS - 1})")
        return decision_text(self.to_move, action)

    def string_to_action(self, text: str) -> int:
        """The legal action ``text`` names here; ``IllegalAction`` with the first failing rule."""
        action, reason = self._parse(text)
        if reason:
            raise IllegalAction(reason)
        return action

    def explain_illegal(self, text: str) -> str:
        action, reason = self._parse(text)
        return reason or f"{text} is legal"

    def _parse(self, text: Any) -> tuple[int, str]:
        """(action, "") when legal, else (-1, the reason naming the rule)."""
        if not isinstance(text, str):
            return -1, f"{text!r}: an action is text such as B@d2, e2-e5, e5xe9, nobuy or pass"
        raw = text
        text = text.strip()
        if len(text) > 40:
            return -1, f"{text[:20]}...: too long for an action"
        if self.phase == OVER_PHASE:
            return -1, f"{raw}: the game is over ({self.victory_kind}); no action is legal"
        if self.pending >= 0:
            dice = parse_dice(text)
            if dice is None:
                return -1, (f"{raw}: the dice of {self.action_to_string_decision(self.pending)} are rolled now; "
                            "write the outcome as r_a:r_d, e.g. 6:2")
            return dice, ""
        if parse_dice(text) is not None:
            return -1, f"{raw}: dice follow an attack; no attack is waiting for its roll"
        if " " in text:
            return -1, (f"{raw}: one action at a time; an attack and its dice (e5xe9 6:2) are two actions "
                        "here: the attack, then the outcome at the chance node")
        syntax = parse_syntax(text)
        if syntax is None:
            return -1, f"{raw}: not Pole notation (X@cell, nobuy, from-to, fromxto, fromx*, pass)"
        kind, a, b = syntax
        if kind == "buy":
            return self._why_buy(raw, a, b)
        if kind == "nobuy":
            if self.phase != BUY_PHASE:
                return -1, f"{raw}: nobuy belongs to the buy phase; the phase is {PHASES[self.phase]} (section 4)"
            return NOBUY, ""
        if kind == "pass":
            if self.phase != ACT_PHASE:
                return -1, f"{raw}: pass belongs to the act phase; the phase is {PHASES[self.phase]} (section 4)"
            return PASS, ""
        if self.phase != ACT_PHASE:
            return -1, f"{raw}: moves and attacks belong to the act phase; the phase is {PHASES[self.phase]} (section 4)"
        if kind == "move":
            return self._why_move(raw, a, b)
        return self._why_attack(raw, a, b)

    def action_to_string_decision(self, action: int) -> str:
        """An attack's text even while its chance node is pending."""
        if action >= ALL0:
            return f"{NAMES[action - ALL0]}x*"
        a, b = divmod(action - ATT0, 100)
        return f"{NAMES[a]}x{NAMES[b]}"

    def _own_actor(self, raw: str, a: int) -> str:
        v = self.board[a]
        side = SIDES[self.to_move]
        if v == 0:
            return f"{raw}: {NAMES[a]} is empty; {side} acts with one of its own pieces (section 4)"
        if (v - 1) >> 3 != self.to_move:
            return f"{raw}: the piece on {NAMES[a]} is {SIDES[1 - self.to_move]}'s; {side} acts with its own pieces"
        if self.fresh >> a & 1:
            return (f"{raw}: the {KIND_WORDS[(v - 1) & 7]} on {NAMES[a]} was bought this turn (fresh) and cannot act "
                    "until its side's next turn (section 4)")
        return ""

    def _why_buy(self, raw: str, kind: int, cell: int) -> tuple[int, str]:
        if self.phase != BUY_PHASE:
            return -1, f"{raw}: purchases belong to the buy phase; the phase is {PHASES[self.phase]} (section 4)"
        if kind == P:
            return -1, f"{raw}: the Prince is never bought (section 5)"
        cfg = self.cfg
        side = self.to_move
        word = KIND_WORDS[kind]
        if self.coins[side] < cfg.cost[kind]:
            return -1, f"{raw}: a {word} costs {cfg.cost[kind]} coins; {SIDES[side]} has {self.coins[side]} (section 5)"
        if not self._prereq(side, kind):
            need = {I: "a barracks (B)", A: "a barracks (B)", H: "a stable (S)", C: "a barracks (B) and a stable (S)"}
            return -1, f"{raw}: a {word} needs {need[kind]} of its own on the board (section 5, P14)"
        v = self.board[cell]
        if v:
            return -1, f"{raw}: {NAMES[cell]} is not empty (it holds {letter(v)}); purchases go on empty cells"
        if not cfg.fortress_buildings and kind in (B, S, T) and cfg.fort_of[cell]:
            return -1, (f"{raw}: {NAMES[cell]} is a fortress cell and fortress_buildings=false keeps B, S and T "
                        "off fortress cells (P46)")
        if kind == T:
            n = sum(1 for c in cfg.step8[cell] if self.board[c] == code(I, side))
            if n < cfg.tower_infantry:
                return -1, (f"{raw}: a tower needs at least {cfg.tower_infantry} own infantrymen next to its cell; "
                            f"{NAMES[cell]} has {n} (section 5, P12)")
        elif cell not in cfg.place_zone[side]:
            zone = "either fortress" if cfg.rules["placement_fortress"] == "any" else f"{SIDES[side]}'s fortress"
            return -1, (f"{raw}: {NAMES[cell]} is not in the placement zone (the cells of {zone} and their "
                        "neighbours, section 5)")
        return kind * 100 + cell, ""

    def _why_move(self, raw: str, a: int, b: int) -> tuple[int, str]:
        why = self._own_actor(raw, a)
        if why:
            return -1, why
        v = self.board[a]
        kind = (v - 1) & 7
        mv = self.cfg.kind_move[kind]
        word = KIND_WORDS[kind]
        if mv == MOVE_NONE:
            return -1, f"{raw}: a {word} never moves (section 6)"
        if self.board[b]:
            extra = f"; to attack it write {NAMES[a]}x{NAMES[b]}" if (self.board[b] - 1) >> 3 != self.to_move else ""
            return -1, f"{raw}: {NAMES[b]} is occupied; no move enters an occupied cell (section 6){extra}"
        if b not in self._moves_from(a):
            if mv == MOVE_STEP8:
                return -1, f"{raw}: a {word} steps to one of the 8 adjacent cells (section 6)"
            if mv == MOVE_STEP4:
                return -1, f"{raw}: a catapult steps one cell along a rank or file (section 6)"
            if b in {c for path in self.cfg.ride_rays[a] for c in path}:
                return -1, f"{raw}: the path is blocked; a rider slides and does not jump (section 6, ride_jump=false)"
            r = self.cfg.rules
            return -1, (f"{raw}: a {word} rides up to {r['ride_orth']} cells along a rank or file or up to "
                        f"{r['ride_diag']} along a diagonal (section 6)")
        return MOVE0 + a * 100 + b, ""

    def _why_attack(self, raw: str, a: int, b: int) -> tuple[int, str]:
        cfg = self.cfg
        if b < 0 and not cfg.attack_all:
            return -1, f"{raw}: {NAMES[a]}x* needs attack_mode=all; attacks name one target here (section 7)"
        if b >= 0 and cfg.attack_all:
            return -1, f"{raw}: under attack_mode=all an attack strikes every enemy in the zone: write {NAMES[a]}x*"
        why = self._own_actor(raw, a)
        if why:
            return -1, why
        kind = (self.board[a] - 1) & 7
        if not cfg.can_attack[kind]:
            return -1, f"{raw}: a {KIND_WORDS[kind]} does not attack (section 7, P41)"
        targets = self.zone_targets(a)
        if b < 0:
            if not targets:
                return -1, f"{raw}: no enemy piece is in the zone of the {KIND_WORDS[kind]} on {NAMES[a]} (section 7)"
            return ALL0 + a, ""
        w = self.board[b]
        if w == 0:
            return -1, f"{raw}: {NAMES[b]} is empty; an attack needs an enemy piece on its target (section 7)"
        if (w - 1) >> 3 == self.to_move:
            return -1, f"{raw}: {NAMES[b]} holds an own piece; only enemy pieces are targets (section 7)"
        if b not in targets:
            if b in cfg.zone_flat[cfg.kind_zone[kind]][a]:
                return -1, f"{raw}: the shot to {NAMES[b]} is blocked by a piece in between (shot_blocking, section 7)"
            return -1, f"{raw}: {NAMES[b]} is outside the zone of the {KIND_WORDS[kind]} on {NAMES[a]} (section 7)"
        return ATT0 + a * 100 + b, ""

    # ------------------------------------------------------------------ data
    def to_dict(self) -> dict[str, Any]:
        """The whole state: the position fields, the pending attack, counters and history."""
        d = position_dict(self)
        d["pending"] = self.action_to_string_decision(self.pending) if self.pending >= 0 else None
        d["counters"] = self.cnt[:]
        d["history"] = self.history[:]
        d["seed"] = self.seed
        d["origin"] = self.origin
        d["rules"] = self.cfg.rules.to_dict()
        return d

    def observation_string(self, player: int | None = None) -> str:
        """The board as text, rank 10 at the top, then coins and phase (Pole hides nothing)."""
        rows = []
        for y in range(9, -1, -1):
            cells = []
            for x in range(10):
                c = x * 10 + y
                v = self.board[c]
                cells.append(letter(v) if v else ("+" if self.cfg.fort_of[c] else "."))
            rows.append(f"{y + 1:>2} " + " ".join(cells))
        rows.append("   " + " ".join("abcdefghij"))
        status = f"turn {self.turn_no}, {SIDES[self.to_move]} to move, phase {PHASES[self.phase]}"
        if self.pending >= 0:
            status += f", dice for {self.action_to_string_decision(self.pending)}"
        if self.phase == OVER_PHASE:
            status += f", {self.victory_kind}" + (f", {SIDES[self.winner_side]} wins" if self.winner_side is not None else "")
        rows.append(f"coins red {self.coins[0]}, black {self.coins[1]}; {status}")
        if self.fresh:
            rows.append("fresh: " + block_text(self.fresh_cells()))
        return "\n".join(rows)

    def __str__(self) -> str:
        return self.observation_string()

    def __repr__(self) -> str:
        return f"PoleState(turn {self.turn_no}, {SIDES[self.to_move]}, {PHASES[self.phase]})"

    # ------------------------------------------------------------------ tools
    def counters(self) -> dict[str, list[int]]:
        return {name: [self.cnt[2 * i], self.cnt[2 * i + 1]] for i, name in enumerate(COUNTERS)}

    def fired(self) -> list[tuple[str, int, int | None]]:
        return list(self._fired)

    def action_cells(self, action: Any) -> list[int]:
        if self.pending >= 0 or not isinstance(action, int):
            return []
        if action < NOBUY:
            return [action % 100]
        if action in (NOBUY, PASS):
            return []
        if action < ATT0:
            return list(divmod(action - MOVE0, 100))
        if action < ALL0:
            return list(divmod(action - ATT0, 100))
        return [action - ALL0]

    def action_priority(self, action: Any) -> int:
        """Attacks first (Prince shots, then by success count), purchases, moves, then pass/nobuy."""
        if self.pending >= 0 or not isinstance(action, int):
            return 0
        if action >= ATT0:
            cells = self.zone_targets(action - ALL0) if action >= ALL0 else [(action - ATT0) % 100]
            prince = any((self.board[t] - 1) & 7 == P for t in cells)
            return 1000 * prince + 100 + self._expected36(action)
        if action < NOBUY:
            return 50 + self.cfg.cost[action // 100]
        if action >= MOVE0:
            return 10
        return 0

    def action_card(self, action: Any) -> dict[str, Any] | None:
        """The piece a purchase buys and its cost in coins (the board's card palette)."""
        if not isinstance(action, int) or action >= NOBUY or self.phase == OVER_PHASE or self.pending >= 0:
            return None
        kind = action // 100
        return {"card": KIND_WORDS[kind], "price": self.cfg.cost[kind], "first": kind == P, "pattern": LETTERS[kind]}

    def attackers(self) -> list[tuple[int, int, int]]:
        """Every piece's attack zone on the enemy pieces it holds now (``zone_targets``: blocking applied, P36's
        phase and freshness aside, so the side not to move shows what it attacks on its turn)."""
        if self.phase == OVER_PHASE:
            return []
        return [(a, t, (v - 1) >> 3) for a, v in enumerate(self.board) if v for t in self.zone_targets(a)]

    def attack_lines(self) -> list[tuple[int, int, int]]:
        """The attackers of a Prince that an enemy piece holds in its attack zone (the piece the game is lost with)."""
        princes = {c for c in (self.prince_of(0), self.prince_of(1)) if c is not None}
        return [line for line in self.attackers() if line[1] in princes]

    def action_effects(self, action: Any) -> dict[str, Any]:
        """What ``action`` would change, computed by the engine (removals come with their odds)."""
        from .analysis import effects

        return effects(self, action)

    def glyphs(self) -> list[Glyph]:
        from .analysis import glyphs

        return glyphs(self)

    def heat(self, layer: str, player: int) -> dict[int, float]:
        from .analysis import heat

        return heat(self, layer, player)

    def evaluate(self, player: int) -> float:
        """Static evaluation in coins (see ``analysis.evaluate``): material, coins, tempo, Prince safety."""
        from .analysis import evaluate

        return evaluate(self, player)


def parse_dice(text: str) -> int | None:
    """``r_a:r_d`` (each 1..6) as a chance outcome, else None."""
    if len(text) == 3 and text[1] == ":" and text[0] in "123456" and text[2] in "123456":
        return (int(text[0]) - 1) * 6 + int(text[2]) - 1
    return None


def parse_syntax(text: str) -> tuple[str, int, int] | None:
    """The shape of an action's text: (kind, a, b); None when it is not Pole notation.

    ``buy``: (kind index, cell); ``move``/``attack``: (from, to), to = -1 for ``x*``; letters in
    either case, cells in lower case.
    """
    if text == "nobuy":
        return ("nobuy", -1, -1)
    if text == "pass":
        return ("pass", -1, -1)
    if len(text) >= 4 and text[1] == "@":
        k = text[0].upper()
        cell = parse_cell(text[2:])
        if k in LETTERS and text[0].isalpha() and cell is not None:
            return ("buy", LETTERS.index(k), cell)
        return None
    for sep, kind in (("-", "move"), ("x", "attack")):
        for i in (2, 3):
            if len(text) > i and text[i] == sep:
                a = parse_cell(text[:i])
                if a is None:
                    continue
                rest = text[i + 1:]
                if kind == "attack" and rest == "*":
                    return ("attack", a, -1)
                b = parse_cell(rest)
                if b is not None:
                    return (kind, a, b)
    return None


def split_play(text: str) -> tuple[str, int | None]:
    """``e5xe9 6:2`` -> (``e5xe9``, outcome); a text without dice -> (text, None). ValueError if malformed."""
    parts = text.split()
    if len(parts) == 1:
        return parts[0], None
    if len(parts) == 2:
        dice = parse_dice(parts[1])
        if dice is None:
            raise ValueError(f"{text}: the dice are written r_a:r_d with each die 1..6, e.g. e5xe9 6:2")
        return parts[0], dice
    raise ValueError(f"{text}: one action, then for an attack its dice (e5xe9 6:2)")


def is_attack_text(text: str) -> bool:
    """True when ``text`` has the shape of an attack (``axb`` or ``ax*``)."""
    syntax = parse_syntax(text)
    return syntax is not None and syntax[0] == "attack"


def apply_text(state: PoleState, text: str) -> None:
    """Play one contract action with its dice (``e5xe9 6:2``, ``B@d2``); IllegalAction otherwise."""
    try:
        move, dice = split_play(text.strip())
    except ValueError as exc:
        raise IllegalAction(str(exc)) from None
    attack = is_attack_text(move)
    if attack and dice is None:
        raise IllegalAction(f"{text}: an attack carries its dice, r_a:r_d, e.g. {move} 6:2 (section 11)")
    if not attack and dice is not None:
        raise IllegalAction(f"{text}: only an attack carries dice")
    state.apply_action(state.string_to_action(move))
    if dice is not None:
        state.apply_action(dice)


def decision_text(to_move: int, action: int) -> str:
    """A decision's notation (a purchase, move, attack or pass) from the side to move alone, so the
    native adapter writes what ``PoleState.action_to_string`` writes without a Python state."""
    if action < NOBUY:
        kind, cell = divmod(action, 100)
        ch = LETTERS[kind]
        return f"{ch if to_move == 0 else ch.lower()}@{NAMES[cell]}"
    if action == NOBUY:
        return "nobuy"
    if action == PASS:
        return "pass"
    if action < ATT0:
        a, b = divmod(action - MOVE0, 100)
        return f"{NAMES[a]}-{NAMES[b]}"
    if action < ALL0:
        a, b = divmod(action - ATT0, 100)
        return f"{NAMES[a]}x{NAMES[b]}"
    return f"{NAMES[action - ALL0]}x*"


def action_text(state: PoleState, action: int) -> str:
    """Contract text of a decision (``B@d2``) or, at a chance node, the attack with dice (``e5xe9 6:2``)."""
    if state.pending >= 0 and state.phase != OVER_PHASE:
        return f"{state.action_to_string_decision(state.pending)} {dice_text(action)}"
    return state.action_to_string(action)


def position_dict(state: PoleState) -> dict[str, Any]:
    """The state as a contract position (section 12): the canonical writer (P35, P30)."""
    d: dict[str, Any] = {
        "to_move": SIDES[state.to_move],
        "phase": PHASES[state.phase],
        "turn": state.turn_no,
        "coins": {"red": state.coins[0], "black": state.coins[1]},
        "pieces": {NAMES[c]: letter(v) for c, v in enumerate(state.board) if v},
    }
    if state.fresh:
        d["fresh"] = [NAMES[c] for c in state.fresh_cells()]
    if state.bought:
        d["bought"] = state.bought
    if state.removed:
        d["removed"] = True
    d["quiet"] = state.quiet
    if state.phase == OVER_PHASE:
        d["winner"] = SIDES[state.winner_side] if state.winner_side is not None else None
        d["victory"] = state.victory_kind
    return d


__all__ = ["PoleState", "BUYABLE", "NUM_ACTIONS", "NUM_OUTCOMES", "apply_text", "action_text", "position_dict"]
