"""TerraFeud game state: action generation, the W7 triggers, threat and checkmate.

The state is a flat list of 91 piece codes plus a few small fields; ``apply`` pushes a snapshot
of those fields so ``undo`` is exact and cheap. Actions are plain tuples (fast to build and hash):

- ``(MOVE, from, to, promo)``               move or attack, ``promo`` a kind or 0
- ``(SHOT, archer, target)``                archer places its marker
- ``(CASTLE, feudal, infantryman)``         castling
- ``(ORDER, a, a_to, a_promo, b, b_to, b_promo)``  the feudal's Order, steps in play order
  (``order_size`` steps of three fields each: 2 by the rulebook, 0..3 as a rule parameter)
- ``(PASS,)``                                only when nothing else is legal (W16)

Text notation lives in ``notation.py``; the W-rulings referred to are in BOARD-AND-RULINGS.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .geometry import (
    ADJACENT,
    CAVALRY_PATHS,
    CAVALRY_REACH,
    DIRECTION_TO,
    DISTANCE,
    HEXES,
    NEIGHBOURS,
    PIKE_ZONE,
    RAYS,
    WITHIN,
)
from .pieces import (
    ARCHER,
    BLACK,
    CAVALRY,
    FEUDAL,
    INFANTRY,
    KNIGHT,
    PIKEMAN,
    SIDE_NAMES,
    WHITE,
)
from .telemetry import N_COUNTERS, PROMOTION_RULE, RULE_INDEX, RULES

if TYPE_CHECKING:
    from .game import Game

MOVE, SHOT, CASTLE, ORDER, PASS = 0, 1, 2, 3, 4
PASS_ACTION = (PASS,)
Action = tuple  # one of the tuple shapes in the module docstring

# Kinds that a coordinated infantry attack kills (W7 step 3).
_COORD_TARGET = (False, True, True, True, True, False, False, False)
# Mate tests run at depth 0 (after a real action) and 1 (after a parry): section 8's "one level".
_MAX_MATE_DEPTH = 2
_ACTION_LENGTH = {MOVE: (4,), SHOT: (3,), CASTLE: (3,), ORDER: (4, 7, 10), PASS: (1,)}
# Rule indices of the telemetry counters (telemetry.RULES).
_R = RULE_INDEX
R_BRIDGE_STOP, R_FORD_STOP, R_ZONE_STOP, R_SWAMP_STOP = (
    _R["bridge_stop"], _R["ford_stop"], _R["zone_stop"], _R["swamp_stop"])
R_SHOT, R_HILL_SHOT, R_MINE_KILL, R_ULTIMATUM_KILL = _R["shot"], _R["hill_shot"], _R["mine_kill"], _R["ultimatum_kill"]
R_COORDINATED_KILL, R_ARCHER_MELEE_DEATH, R_ZONE_ATTACK = (
    _R["coordinated_kill"], _R["archer_melee_death"], _R["zone_attack"])
R_AURA_MOVE, R_ORDER, R_CASTLING, R_PROMOTION, R_PASS = (
    _R["aura_move"], _R["order"], _R["castling"], _R["promotion"], _R["pass"])
R_PIKE_CAVALRY_MUTUAL, R_THREAT = _R["pike_cavalry_mutual"], _R["threat"]
_R_PROMOTION_KIND = {k: _R[name] for k, name in PROMOTION_RULE.items()}


def order_steps(action: Action) -> list[tuple[int, int, int]]:
    """(from, to, promo) of each step of an Order action, in play order."""
    return [(action[i], action[i + 1], action[i + 2]) for i in range(1, len(action) - 2, 3)]


def action_shape_error(action: object) -> str | None:
    """Why ``action`` is not an action tuple at all (wrong type, length, kind or hex), or None.

    Checked before any explanation, so ``(0, -1, 5, 0)`` is reported as a bad hex rather than being
    read through Python's negative indexing as a move from l6.
    """
    if not isinstance(action, tuple) or not action:
        return "an action is a non-empty tuple such as (MOVE, from, to, promo); see workbench.games.terrafeud.engine.state"
    kind = action[0]
    if type(kind) is not int or kind not in _ACTION_LENGTH:
        return f"unknown action kind {kind!r:.20}; kinds are MOVE=0, SHOT=1, CASTLE=2, ORDER=3, PASS=4"
    if len(action) not in _ACTION_LENGTH[kind]:
        want = " or ".join(map(str, _ACTION_LENGTH[kind]))
        return f"an action of kind {kind} has {want} fields, this one has {len(action)}"
    for i, v in enumerate(action[1:], start=1):
        promo = kind in (MOVE, ORDER) and i % 3 == 0
        if type(v) is not int:
            return f"field {i} is {type(v).__name__}, not a whole number"
        if promo and v not in (0, KNIGHT, PIKEMAN, CAVALRY, ARCHER, INFANTRY):
            return f"field {i} is promotion kind {v}; allowed 0 (none) or 2..6 (K P C A I)"
        if not promo and not 0 <= v < 91:
            return f"field {i} is hex {v}, outside the board's hexes 0..90"
    return None


class IllegalActionError(ValueError):
    """An action that the rules forbid; the message names the action and the rule."""


class GameState:
    """A position plus whatever history ``undo`` needs.

    Public fields are read-only by convention: ``squares`` (piece code per hex), ``to_move``,
    ``markers`` (per side: archer hex -> marked hex), ``pending`` (ultimatum hexes for the side
    to move), ``castled`` (castlings used per side), ``aura_ready``, ``destroyed`` (per side: kinds), ``ply``, ``quiet``
    (plies since a piece was removed), ``winner`` and ``victory``.
    """

    __slots__ = (
        "game",
        "board",
        "squares",
        "to_move",
        "markers",
        "pending",
        "castled",
        "aura_ready",
        "destroyed",
        "ply",
        "quiet",
        "winner",
        "victory",
        "feudal",
        "history",
        "_stack",
        "_shared",
        "_mate_depth",
        "_deaths",
        "_cache",
        "_removed",
        "_zones",
        "_settled",
        "counters",
        "fired",
    )

    def __init__(self, game: Game) -> None:
        self.game = game
        self.board = game.board
        self.squares: list[int] = [0] * 91
        self.to_move = WHITE
        self.markers: list[dict[int, int]] = [{}, {}]
        self.pending: frozenset[int] = frozenset()
        self.castled = [0, 0]  # castlings used per side (castling_uses allows that many)
        self.aura_ready: set[int] = set()
        self.destroyed: list[list[int]] = [[], []]
        self.ply = 0
        self.quiet = 0
        self.winner: int | None = None
        self.victory: str | None = None
        self.feudal = [-1, -1]
        self.history: list[Action] = []
        self._stack: list[tuple] = []
        self._shared = 0  # snapshots below this index are shared with a clone (copied when popped)
        self._mate_depth = 0
        self._deaths: list[int] = []
        self._cache: list | None = None
        self._removed = 0
        self._zones: list[frozenset[int] | None] = [None, None]
        # True once the triggers have run on this board: then no archer stands next to an enemy and
        # no piece next to two enemy infantry, so triggers 2-3 need only look around what moved.
        # A loaded position may hold such situations; its first action scans the whole board.
        self._settled = False
        # Rule-usage telemetry (issue 12): counters[2 * rule + side], and what the last action fired.
        self.counters: list[int] = [0] * N_COUNTERS
        self.fired: Any = ()

    # ------------------------------------------------------------------ basic queries
    @property
    def rules(self):  # noqa: ANN201 - RulesConfig, avoided import cycle
        """The game's ``RulesConfig``."""
        return self.game.rules

    def is_terminal(self) -> bool:
        """True once a side has won or the game was drawn."""
        return self.victory is not None

    def returns(self) -> list[float]:
        """OpenSpiel-style returns per side: +1 win, -1 loss, 0 otherwise."""
        if self.winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.winner == WHITE else [-1.0, 1.0]

    def current_player(self) -> int:
        """Side to move (0 White, 1 Black)."""
        return self.to_move

    def winner_name(self) -> str | None:
        """``white``, ``black`` or None."""
        return None if self.winner is None else SIDE_NAMES[self.winner]

    def pieces(self, side: int | None = None) -> list[int]:
        """Hexes holding pieces (of one side, or both), in board order."""
        sq = self.squares
        if side is None:
            return [h for h in HEXES if sq[h]]
        return [h for h in HEXES if sq[h] and sq[h] >> 3 == side]

    def zone(self, side: int) -> frozenset[int]:
        """Hexes in the zone of control of ``side``'s pikemen (W2); cached until the board changes."""
        cached = self._zones[side]
        if cached is not None:
            return cached
        # One pass finds both sides' pikemen: the generator and the threat test each need one.
        w: set[int] = set()
        b: set[int] = set()
        for h, c in enumerate(self.squares):
            if c & 7 == PIKEMAN:
                (w if c >> 3 == WHITE else b).update(PIKE_ZONE[h])
        self._zones = [frozenset(w), frozenset(b)]
        return self._zones[side]  # type: ignore[return-value]

    def marked_by(self, side: int) -> set[int]:
        """Hexes holding a marker of ``side``."""
        return set(self.markers[side].values())

    # ------------------------------------------------------------------ generation
    def legal_actions(self) -> list[Action]:
        """Every legal action of the side to move (W1), ``[PASS]`` when there is none (W16)."""
        if self.victory is not None:
            return []
        if self._cache is not None:
            return self._cache
        acts = self._generate(self.to_move)
        if not acts:
            acts = [PASS_ACTION]
        self._cache = acts
        return acts

    def actions_of(self, side: int, only: int | None = None) -> list[Action]:
        """Actions ``side`` would have if it were to move now (for threat maps and the W10 view)."""
        return self._generate(side, only)

    def _generate(self, s: int, only: int | None = None) -> list[Action]:
        """Actions of side ``s`` (as if to move); ``only`` restricts to one piece hex."""
        sq = self.squares
        bd = self.board
        e = 1 - s
        zone = self.zone(e)
        own_zone = self.zone(s)
        mines = self.marked_by(e)
        acts: list[Action] = []
        hexes = (only,) if only is not None else [h for h, c in enumerate(sq) if c and c >> 3 == s]
        ef = self.feudal[e]
        for h in hexes:
            c = sq[h]
            if not c or c >> 3 != s:
                continue
            k = c & 7
            if k == INFANTRY:
                self._gen_infantry(h, s, zone, mines, acts, own_zone)
            elif k == KNIGHT:
                for t, _ in self._knight_targets(h, s, zone, mines):
                    acts.append((MOVE, h, t, 0))
            elif k == CAVALRY:
                for t in self._cavalry_targets(h, s, zone):
                    acts.append((MOVE, h, t, 0))
            elif k == PIKEMAN:
                for n in bd.steps[h]:
                    if not sq[n] or sq[n] >> 3 == e:
                        acts.append((MOVE, h, n, 0))
            elif k == ARCHER:
                self._gen_archer(h, s, acts)
            elif k == FEUDAL:
                self._gen_feudal(h, s, ef, acts)
        return acts

    def _gen_feudal(self, h: int, s: int, ef: int, acts: list[Action]) -> None:
        sq = self.squares
        walk = self.board.walkable
        near_enemy_feudal = ADJACENT[ef] if ef >= 0 else ()
        for n in ADJACENT[h]:
            c = sq[n]
            if not walk[n] or n == ef or n in near_enemy_feudal:
                continue
            if not c or c >> 3 != s:
                acts.append((MOVE, h, n, 0))
            elif c == (INFANTRY | (s << 3)) and self.castled[s] < self.board.castling_uses:
                acts.append((CASTLE, h, n))
        # The Order (W12): order_size of the infantry within order_radius step once each.
        size = self.board.order_size
        if size:
            inf = INFANTRY | (s << 3)
            ready = [i for i in WITHIN[h][self.board.order_radius] if sq[i] == inf]
            if len(ready) >= size:
                self._gen_orders(ready, s, acts)

    def _order_steps(self, h: int, s: int) -> list[int]:
        """1-hex steps of an ordered infantryman: onto a free hex or any enemy piece."""
        sq = self.squares
        return [n for n in self.board.steps[h] if not sq[n] or sq[n] >> 3 != s]

    def _gen_orders(self, ready: list[int], s: int, acts: list[Action]) -> None:
        """Orders of ``order_size`` distinct ready infantry: for each in ``ready`` order, each of its
        steps, then (on the board after that step) the next infantry's steps, and so on."""
        size = self.board.order_size
        start = len(acts)
        if size == 2:  # the rulebook's Order, unrolled: it is on the hot path
            sq = self.squares
            for a in ready:
                for ta in self._order_steps(a, s):
                    captured = sq[ta]
                    sq[ta] = sq[a]
                    sq[a] = 0
                    for b in ready:
                        if b == a:
                            continue
                        for tb in self._order_steps(b, s):
                            acts.append((ORDER, a, ta, 0, b, tb, 0))
                    sq[a] = sq[ta]
                    sq[ta] = captured
        else:
            self._order_rec(ready, s, size, (ORDER,), acts)
        # Promotion suffixes are rare (only an infantryman next to a promotion hex can step onto
        # one); expand them in one pass over the built list.
        promotes = self.board.promotes[s]
        if any(promotes[n] for a in ready for n in ADJACENT[a]):
            expanded: list[Action] = []
            for x in acts[start:]:
                if any(promotes[x[i]] for i in range(2, len(x), 3)):
                    expanded.extend(self._with_promotions(x))
                else:
                    expanded.append(x)
            acts[start:] = expanded

    def _order_rec(self, ready: list[int], s: int, left: int, prefix: tuple, acts: list[Action]) -> None:
        """Order steps for any ``order_size``: the same nesting as the unrolled size-2 loop."""
        sq = self.squares
        used = prefix[1::3]
        for a in ready:
            if a in used:
                continue
            for ta in self._order_steps(a, s):
                if left == 1:
                    acts.append((*prefix, a, ta, 0))
                    continue
                captured = sq[ta]
                sq[ta] = sq[a]
                sq[a] = 0
                self._order_rec(ready, s, left - 1, (*prefix, a, ta, 0), acts)
                sq[a] = sq[ta]
                sq[ta] = captured

    def _gen_archer(self, h: int, s: int, acts: list[Action]) -> None:
        sq = self.squares
        bd = self.board
        melee = self.game.rules.archer_melee
        for n in ADJACENT[h]:
            if bd.walkable[n] and (not sq[n] or (melee and sq[n] >> 3 != s)):
                acts.append((MOVE, h, n, 0))
        if bd.is_summer_ford[h]:
            return  # no shooting from a summer ford (W8)
        current = self.markers[s].get(h, -1)
        for t, between in bd.shot_lines[h]:
            c = sq[t]
            if (c and c >> 3 == s) or t == current:
                continue
            for b in between:
                if sq[b]:
                    break
            else:
                acts.append((SHOT, h, t))

    def _w6_ok(self, t: int, s: int) -> bool:
        """W6: may an infantryman of side ``s`` attack the enemy on ``t`` alone?"""
        k = self.squares[t] & 7
        if k == ARCHER or k == INFANTRY:
            return True
        if k == KNIGHT or k == CAVALRY:
            return t in self.zone(s)
        return False

    def _gen_infantry(
        self, h: int, s: int, zone: frozenset[int], mines: set[int], acts: list[Action], own_zone: frozenset[int]
    ) -> None:
        sq = self.squares
        bd = self.board
        walk = bd.walkable
        out: list[int] = []
        for n in bd.steps[h]:
            c = sq[n]
            if not c:
                out.append(n)
            elif c >> 3 != s:
                k = c & 7  # W6, inline: archer, infantryman, or knight/cavalry in an own zone
                if k == ARCHER or k == INFANTRY or ((k == KNIGHT or k == CAVALRY) and n in own_zone):
                    out.append(n)
        # Aura bonus (W5): in range of the own feudal now and at the end of the last turn
        # (``_aura_active``, inlined: this is the hot path).
        f = self.feudal[s]
        if (
            f >= 0
            and (h in self.aura_ready or not bd.aura_memory)
            and DISTANCE[h][f] <= bd.aura_radius
            and bd.aura_step > 1
        ):
            step = bd.aura_step
            stop = bd.stop_for[s]
            for d in range(6):
                n = NEIGHBOURS[h][d]
                if n is None or not walk[n] or sq[n] or stop[n] or n in zone or n in mines:
                    continue
                # Further along the axis: every hex passed is free; a stop hex ends the move there.
                for _ in range(step - 1):
                    n = NEIGHBOURS[n][d]
                    if n is None or not walk[n]:
                        break
                    c = sq[n]
                    if c:
                        if c >> 3 != s and self._w6_ok(n, s):
                            out.append(n)
                        break
                    out.append(n)
                    if stop[n] or n in zone or n in mines:
                        break
        promotes = bd.promotes[s]
        for t in out:
            if promotes[t]:
                acts.extend(self._with_promotions((MOVE, h, t, 0)))
            else:
                acts.append((MOVE, h, t, 0))

    def _aura_active(self, h: int, s: int) -> bool:
        """W5 with its parameters: within aura_radius of the own feudal now (and, with aura_memory,
        at the end of the side's previous turn: ``aura_ready``), and aura_step above 1."""
        bd = self.board
        f = self.feudal[s]
        return (
            f >= 0
            and bd.aura_step > 1
            and DISTANCE[h][f] <= bd.aura_radius
            and (not bd.aura_memory or h in self.aura_ready)
        )

    def _knight_targets(
        self, h: int, s: int, zone: frozenset[int], mines: set[int], directions: tuple[int, ...] = (0, 1, 2, 3, 4, 5)
    ) -> list[tuple[int, int]]:
        """Final hexes of the knight's slides (W3, section 2), with the bridge passed or -1."""
        sq = self.squares
        bd = self.board
        kwalk = bd.knight_walkable
        bridge = bd.knight_bridge
        stop = bd.stop_for[s]
        out: list[tuple[int, int]] = []
        rays = RAYS[h]
        for d in directions:
            ray = rays[d]
            for i, n in enumerate(ray):
                c = sq[n]
                if c and c >> 3 == s:
                    break
                if bridge[n]:
                    if n in mines:
                        out.append((n, -1))  # the mine ends the slide on the bridge
                        break
                    if i + 1 >= len(ray):
                        break
                    m = ray[i + 1]
                    cm = sq[m]
                    if kwalk[m] and not (cm and cm >> 3 == s):
                        out.append((m, n))
                    break
                if not kwalk[n]:
                    break
                out.append((n, -1))
                if c or n in zone or stop[n] or n in mines:
                    break
        return out

    def _cavalry_targets(self, h: int, s: int, zone: frozenset[int]) -> list[int]:
        """Final hexes of the cavalry's 18 landings after W2 stops (W4)."""
        sq = self.squares
        bd = self.board
        walk = bd.walkable
        swamp_stop = bd.cavalry_stop_for[s]
        enemy_pike = PIKEMAN | ((1 - s) << 3)
        seen: list[int] = []
        for land, inter in CAVALRY_PATHS[h]:
            final = land
            exact_pike = sq[land] == enemy_pike
            for i in inter:
                if swamp_stop[i] or (not exact_pike and i in zone):
                    final = i
                    break
            c = sq[final]
            if not walk[final] or (c and c >> 3 == s) or final in seen:
                continue
            seen.append(final)
        return seen

    def _with_promotions(self, action: Action) -> list[Action]:
        """The promotion variants of an action (W13): one per kind in the pool after triggers 1-4."""
        choices = self._promotion_pool_after(action)
        if not choices:
            return [action]
        promoting, pool = choices
        if action[0] == MOVE:
            return [(MOVE, action[1], action[2], k) for k in sorted(set(pool))] if promoting[0] else [action]
        # Order: each promoting step takes a choice; a later step draws from what earlier ones left.
        out: list[Action] = []

        def extend(i: int, prefix: tuple, rest: list[int]) -> None:
            if i == len(promoting):
                out.append(prefix)
                return
            a, t = action[1 + 3 * i], action[2 + 3 * i]
            kinds = sorted(set(rest)) if promoting[i] else []
            for k in kinds or [0]:
                left = list(rest)
                if k:
                    left.remove(k)
                extend(i + 1, (*prefix, a, t, k), left)

        extend(0, (ORDER,), pool)
        return out

    def _promotion_pool_after(self, action: Action) -> Any:
        """(promoting flag per step, pool of kinds), judged after triggers 1-4 of the action."""
        self._push()
        saved_to_move, saved_deaths = self.to_move, self._deaths
        side = self.squares[action[1]] >> 3
        self.to_move = side
        try:
            steps = self._perform(action, side)
            self._triggers_1_to_4(side, steps)
            inf = INFANTRY | (side << 3)
            promotes = self.board.promotes[side]
            promoting = [t for (_, t) in steps if promotes[t] and self.squares[t] == inf]
            pool = [k for k in self.destroyed[side] if k != FEUDAL]
        finally:
            self._pop()
            self.to_move, self._deaths = saved_to_move, saved_deaths
        if not pool:
            return None
        return [action[i] in promoting for i in range(2, len(action), 3)], pool

    # ------------------------------------------------------------------ applying
    def _push(self) -> None:
        self._stack.append(
            (
                self.squares[:],
                self.to_move,
                dict(self.markers[0]),
                dict(self.markers[1]),
                self.pending,
                self.castled[:],
                set(self.aura_ready),
                self.destroyed[0][:],
                self.destroyed[1][:],
                self.ply,
                self.quiet,
                self.winner,
                self.victory,
                self.feudal[:],
                self._settled,
                self.fired,
            )
        )
        # Everything fired from here until the matching _pop is taken back by it (``_fire`` turns
        # this empty tuple into a list on the first firing).
        self.fired = ()

    def _pop(self) -> None:
        counters = self.counters
        for rule, side, _ in self.fired:
            counters[2 * RULE_INDEX[rule] + side] -= 1
        stack = self._stack
        (
            squares,
            self.to_move,
            m0,
            m1,
            self.pending,
            castled,
            aura_ready,
            d0,
            d1,
            self.ply,
            self.quiet,
            self.winner,
            self.victory,
            feudal,
            self._settled,
            fired,
        ) = stack.pop()
        if len(stack) < self._shared:
            # A clone holds this snapshot too: take copies, so neither state changes the other's past.
            self._shared = len(stack)
            m0, m1, castled, aura_ready, d0, d1, feudal = (
                dict(m0), dict(m1), castled[:], set(aura_ready), d0[:], d1[:], feudal[:])
            fired = tuple(fired)
        self.castled, self.aura_ready, self.feudal, self.fired = castled, aura_ready, feudal, fired
        # In place: generators hold ``sq = self.squares`` across promotion probes that pop.
        self.squares[:] = squares
        self.markers = [m0, m1]
        self.destroyed = [d0, d1]
        self._zones = [None, None]

    def apply(self, action: Action, check: bool = True) -> None:
        """Play a legal action and resolve its triggers (W7); raises ``IllegalActionError`` otherwise.

        ``check=False`` is for searches that replay actions taken from ``legal_actions()`` of this very
        position: after an ``undo`` the check would regenerate them for every sibling.
        """
        if check and (type(action) is not tuple or action not in self.legal_actions()):
            from .notation import explain_illegal

            raise IllegalActionError(explain_illegal(self, action))
        self._apply_unchecked(action)
        self.history.append(action)

    def apply_action(self, action: Action) -> None:
        """OpenSpiel-style alias of ``apply``."""
        self.apply(action)

    def undo(self) -> Action:
        """Take back the last action exactly; returns it."""
        if not self.history:
            raise IndexError("nothing to undo: no action has been played in this state")
        self._pop()
        self._cache = None
        return self.history.pop()

    def _fire(self, rule: int, side: int, h: int) -> None:
        """Telemetry: ``RULES[rule]`` fired for ``side`` on hex ``h`` (-1: no hex)."""
        self.counters[2 * rule + side] += 1
        fired = self.fired
        if fired.__class__ is tuple:
            fired = self.fired = list(fired)
        fired.append((RULES[rule], side, h))

    def _kill(self, h: int) -> None:
        c = self.squares[h]
        side = c >> 3
        k = c & 7
        self.squares[h] = 0
        self._removed += 1
        if k == FEUDAL:
            self.feudal[side] = -1
            self._deaths.append(side)
        else:
            self.destroyed[side].append(k)
        if k == ARCHER:
            self.markers[side].pop(h, None)
        self.aura_ready.discard(h)

    def _move_piece(self, a: int, t: int) -> None:
        sq = self.squares
        c = sq[a]
        sq[t] = c
        sq[a] = 0
        if c & 7 == FEUDAL:
            self.feudal[c >> 3] = t
        elif c & 7 == ARCHER:
            self.markers[c >> 3].pop(a, None)  # the archer moving removes its marker (W8)
        self.aura_ready.discard(a)

    def _perform(self, action: Action, s: int) -> list[tuple[int, int]]:
        """Carry out the action's movement; returns (code, final hex) of each moved step."""
        sq = self.squares
        kind = action[0]
        steps: list[tuple[int, int]] = []
        if kind == MOVE:
            _, a, t, _ = action
            c = sq[a]
            k = c & 7
            # telemetry (only when something can fire: the common quiet step costs two lookups)
            if k == INFANTRY:
                bd = self.board
                if sq[t] or DISTANCE[a][t] > 1 or bd.is_summer_ford[t] or bd.swamp_owner[t] >= 0:
                    self._fire_move_rules(a, t, s, k)
            elif (k == KNIGHT or k == CAVALRY) and not sq[t]:
                self._fire_move_rules(a, t, s, k)
            if k == KNIGHT and DISTANCE[a][t] > 1:
                self._knight_bridge_kill(a, t, s)
            self._strike(a, t, s)
            if sq[a]:  # mutual destruction (W15) leaves no attacker to move
                self._move_piece(a, t)
                steps.append((c, t))
        elif kind == SHOT:
            self.markers[s][action[1]] = action[2]
            self._fire(R_SHOT, s, action[2])
            if DISTANCE[action[1]][action[2]] > self.board.archer_range:
                self._fire(R_HILL_SHOT, s, action[2])
        elif kind == CASTLE:
            _, f, i = action
            fc, ic = sq[f], sq[i]
            if self.game.rules.castling == "sacrifice":
                self._kill(i)
                sq[i] = fc
                sq[f] = 0
            else:
                sq[f], sq[i] = ic, fc
            self.feudal[s] = i
            self.castled[s] += 1
            self._fire(R_CASTLING, s, i)
            steps.append((-1, f))  # castling is not "entering" (no mine), but both hexes changed
            steps.append((-1, i))
            self.aura_ready.discard(f)
            self.aura_ready.discard(i)
        elif kind == ORDER:
            self._fire(R_ORDER, s, -1)
            for i in range(1, len(action), 3):
                a, t = action[i], action[i + 1]
                c = sq[a]
                self._strike(a, t, s)
                self._move_piece(a, t)
                steps.append((c, t))
        else:
            self._fire(R_PASS, s, -1)
        return steps

    def _fire_move_rules(self, a: int, t: int, s: int, k: int) -> None:
        """Telemetry of a knight, cavalry or infantry move, before it happens (section "Rule-usage
        telemetry" of docs/rulings.md): the forced stops on an empty final hex, aura moves, zone attacks."""
        sq = self.squares
        bd = self.board
        e = 1 - s
        c = sq[t]
        if k == INFANTRY:
            if DISTANCE[a][t] > 1:
                self._fire(R_AURA_MOVE, s, t)
            if c:
                if c & 7 == KNIGHT or c & 7 == CAVALRY:
                    self._fire(R_ZONE_ATTACK, s, t)
                return
            if (bd.is_summer_ford[t] or bd.swamp_owner[t] == e) and self._aura_active(a, s):
                if bd.is_summer_ford[t]:
                    self._fire(R_FORD_STOP, s, t)
                if bd.swamp_owner[t] == e:
                    self._fire(R_SWAMP_STOP, s, t)
            return
        if c:
            return
        if k == KNIGHT and DISTANCE[a][t] > 1:
            ray = RAYS[a][DIRECTION_TO[a][t]]
            if bd.knight_bridge[ray[ray.index(t) - 1]]:
                self._fire(R_BRIDGE_STOP, s, t)
        zone = self._zones[e]  # still the zone of the position before this action, if computed
        if zone is not None:
            if t in zone:
                self._fire(R_ZONE_STOP, s, t)
        else:
            pike = PIKEMAN | (e << 3)
            for p in PIKE_ZONE[t]:  # the zone is symmetric: t is in p's zone iff p is in t's
                if sq[p] == pike:
                    self._fire(R_ZONE_STOP, s, t)
                    break
        if bd.swamp_owner[t] == e:
            self._fire(R_SWAMP_STOP, s, t)

    def _strike(self, a: int, t: int, s: int) -> None:
        """Remove the enemy on ``t`` attacked from ``a``; W15's mutual rule removes the attacker too."""
        sq = self.squares
        target = sq[t]
        if not target:
            return
        if self.game.rules.pike_cavalry_mutual:
            ka, kt = sq[a] & 7, target & 7
            if (ka, kt) in ((CAVALRY, PIKEMAN), (PIKEMAN, CAVALRY)):
                self._fire(R_PIKE_CAVALRY_MUTUAL, s, t)
                self._kill(t)
                self._kill(a)
                return
        self._kill(t)

    def _knight_bridge_kill(self, a: int, t: int, s: int) -> None:
        """Section 2: an enemy standing on a bridge the knight passes is killed in passing."""
        for ray in RAYS[a]:
            if t in ray:
                i = ray.index(t)
                if i >= 1:
                    b = ray[i - 1]
                    c = self.squares[b]
                    if self.board.knight_bridge[b] and c and c >> 3 != s:
                        self._kill(b)
                return

    def _triggers_1_to_4(self, s: int, steps: list[tuple[int, int]]) -> None:
        sq = self.squares
        e = 1 - s
        enemy_markers = self.markers[e]
        # (1) mines: a piece that entered a hex holding an enemy marker dies there.
        if enemy_markers:
            for c, t in steps:
                if sq[t] == c and t in enemy_markers.values():
                    self._fire(R_MINE_KILL, e, t)
                    self._kill(t)
                    self._spend(e, t)
        self._triggers_2_3([t for _, t in steps])
        # (4) ultimatums placed before this turn fall on whatever of the acting side stands there.
        if self.pending:
            for t in sorted(self.pending):
                c = sq[t]
                if c and c >> 3 == s and t in self.markers[e].values():
                    self._fire(R_ULTIMATUM_KILL, e, t)
                    self._kill(t)
                    self._spend(e, t)

    def _spend(self, side: int, t: int) -> None:
        """Markers of ``side`` on ``t`` that killed are used up."""
        m = self.markers[side]
        for a in [a for a, x in m.items() if x == t]:
            del m[a]

    def _triggers_2_3(self, touched: list[int]) -> None:
        """Triggers 2 (archers in melee) and 3 (coordinated attacks) after pieces arrived on ``touched``."""
        if not self._settled:
            self._triggers_2_3_everywhere()
            self._settled = True
            return
        sq = self.squares
        # (2) every archer adjacent to an enemy piece dies, all at once; on a settled board only
        # an arrival can make such a pair, so look at the arrivals and their neighbours.
        doomed: list[int] = []
        for t in touched:
            c = sq[t]
            if not c:
                continue
            side = c >> 3
            for n in ADJACENT[t]:
                cn = sq[n]
                if cn and cn >> 3 != side:
                    if cn & 7 == ARCHER and n not in doomed:
                        doomed.append(n)
                    if c & 7 == ARCHER and t not in doomed:
                        doomed.append(t)
        for h in doomed:
            self._fire(R_ARCHER_MELEE_DEATH, sq[h] >> 3, h)
            self._kill(h)
        # (3) coordinated attacks: only an arriving target or an arriving infantryman can make one.
        candidates: set[int] = set()
        for t in touched:
            c = sq[t]
            if not c:
                continue
            if _COORD_TARGET[c & 7]:
                candidates.add(t)
            elif c & 7 == INFANTRY:
                side = c >> 3
                for n in ADJACENT[t]:
                    cn = sq[n]
                    if cn and cn >> 3 != side and _COORD_TARGET[cn & 7]:
                        candidates.add(n)
        if candidates:
            self._coordinated(sorted(candidates))

    def _coordinated(self, targets: list[int]) -> None:
        """Resolve coordinated attacks on ``targets`` one at a time in board order (ruling 6); an
        infantryman that died with an earlier target no longer counts."""
        sq = self.squares
        need = self.board.coordinated
        for h in targets:
            c = sq[h]
            if not c or not _COORD_TARGET[c & 7]:
                continue
            enemy_inf = INFANTRY | ((1 - (c >> 3)) << 3)
            first = -1
            count = 0
            for n in ADJACENT[h]:
                if sq[n] == enemy_inf:
                    count += 1
                    if first < 0 or n < first:
                        first = n
            if count >= need:
                self._fire(R_COORDINATED_KILL, 1 - (c >> 3), h)
                self._kill(h)
                self._kill(first)

    def _triggers_2_3_everywhere(self) -> None:
        """Triggers 2-3 over the whole board (a loaded position may hold ready-made situations)."""
        sq = self.squares
        occupied = [h for h, c in enumerate(sq) if c]
        doomed = []
        for h in occupied:
            c = sq[h]
            if c & 7 == ARCHER:
                side = c >> 3
                for n in ADJACENT[h]:
                    cn = sq[n]
                    if cn and cn >> 3 != side:
                        doomed.append(h)
                        break
        for h in doomed:
            self._fire(R_ARCHER_MELEE_DEATH, sq[h] >> 3, h)
            self._kill(h)
        self._coordinated(occupied)

    def _apply_unchecked(self, action: Action) -> None:
        self._push()
        self._cache = None
        s = self.to_move
        e = 1 - s
        sq = self.squares
        self._deaths = []
        self._removed = 0
        # The zone cache still describes the position before the action while _perform runs
        # (telemetry's zone_stop reads it); the board changes from here on.
        steps = self._perform(action, s)
        self._zones = [None, None]
        self._triggers_1_to_4(s, steps)
        # (5) promotion, chosen as part of the action
        if (action[0] == MOVE and action[3]) or (action[0] == ORDER and any(action[3::3])):
            promoted = []
            inf = INFANTRY | (s << 3)
            for i in range(2, len(action), 3):
                t, k = action[i], action[i + 1]
                if k and sq[t] == inf:
                    self.destroyed[s].remove(k)
                    sq[t] = k | (s << 3)
                    promoted.append(t)
                    self._fire(R_PROMOTION, s, t)
                    self._fire(_R_PROMOTION_KIND[k], s, t)
            if promoted:
                self._triggers_2_3([action[i] for i in range(2, len(action), 3)])
        self._zones = [None, None]
        # (6) victory: a destroyed feudal first, then castle capture: a piece that ended this
        # action on the enemy centre (one already standing there in a set-up wins nothing).
        if self._deaths:
            self.winner = 1 - self._deaths[0]
            self.victory = "destroyed"
        else:
            centre = self.board.castle_centre[e]
            c = sq[centre]
            if c and c >> 3 == s and any(t == centre for _, t in steps):
                self.winner = s
                self.victory = "castle"
        # bookkeeping for the next turn
        f = self.feudal[s]
        inf = INFANTRY | (s << 3)
        inf_e = INFANTRY | (e << 3)
        ready = {h for h in self.aura_ready if sq[h] == inf_e}
        if f >= 0:
            ready.update(h for h in WITHIN[f][self.board.aura_radius] if sq[h] == inf)
        self.aura_ready = ready
        self.pending = frozenset(t for t in self.markers[s].values() if sq[t] and sq[t] >> 3 == e)
        self.quiet = 0 if self._removed else self.quiet + 1
        self.ply += 1
        self.to_move = e
        if self.victory is None:
            # The start of e's turn: the W10 threat test (telemetry "threat"), then the mate test;
            # a win, checkmate included, beats draw_after (section 8).
            fe = self.feudal[e]
            if self._mate_depth < _MAX_MATE_DEPTH and fe >= 0 and self.is_threatened(e):
                self._fire(R_THREAT, e, fe)
                if not self._has_parry(e):
                    self.winner = s
                    self.victory = "checkmate"
            draw_after = self.game.rules.draw_after
            if self.victory is None and draw_after is not None and self.quiet >= draw_after:
                self.victory = "draw"
        if self.fired.__class__ is list:
            self.fired = tuple(self.fired)

    # ------------------------------------------------------------------ threat and mate (W10)
    def is_threatened(self, side: int) -> bool:
        """W10: could the opponent, given the move now, leave ``side``'s feudal dead?"""
        f = self.feudal[side]
        if f < 0:
            return False
        sq = self.squares
        e = 1 - side
        inf_e = INFANTRY | (e << 3)
        bd = self.board
        need = bd.coordinated
        adjacent_inf = sum(1 for n in ADJACENT[f] if sq[n] == inf_e)
        if adjacent_inf >= need:
            return self._threat_by_search(side, self._generate(e))
        # Direct strikes: any action whose final hex is the feudal (or a bridge kill over it).
        melee = self.game.rules.archer_melee
        cavalry_reach = CAVALRY_REACH[f]
        for h in WITHIN[f][3]:
            c = sq[h]
            if not c or c >> 3 != e:
                continue
            k = c & 7
            if k == PIKEMAN or (k == ARCHER and melee):
                if DISTANCE[h][f] == 1:
                    return True
            elif k == CAVALRY and h in cavalry_reach and f in self._cavalry_targets(h, e, self.zone(side)):
                return True
        kn = KNIGHT | (e << 3)
        lines = DIRECTION_TO[f]
        for h, c in enumerate(sq):
            if c == kn and h in lines:
                # only the one line through the feudal can reach it
                ray = ((lines[h] + 3) % 6,)
                for t, passed in self._knight_targets(h, e, self.zone(side), self.marked_by(side), ray):
                    if t == f or passed == f:
                        return True
        # Infantry: ordered strikes, and coordinated attacks that one action would complete.
        # An infantryman ends at most aura_step hexes away (1 without the aura), so only those within
        # aura_step + 1 of the feudal can end next to it.
        fe = self.feudal[e]
        candidates: list[Action] = []
        near = [h for h in WITHIN[f][min(max(bd.aura_step, 2) + 1, 10)] if sq[h] == inf_e]
        if fe >= 0 and near:
            size = bd.order_size
            ready = [i for i in WITHIN[fe][bd.order_radius] if sq[i] == inf_e] if size else []
            orders: list[Action] = []
            if size and len(ready) >= size and any(DISTANCE[i][f] <= 2 for i in ready):
                # The Order needs all its steps to exist, so generate it rather than assume it.
                self._gen_orders(ready, e, orders)
                if size == 2:
                    if any(a[2] == f or a[5] == f for a in orders):
                        return True
                elif any(a[i] == f for a in orders for i in range(2, len(a), 3)):
                    return True
            if adjacent_inf == need - 1:
                for h in near:
                    for a in self._generate(e, only=h):
                        if DISTANCE[a[2]][f] == 1:
                            candidates.append(a)
                if DISTANCE[fe][f] <= 3:
                    for a in self._generate(e, only=fe):
                        if a[0] == CASTLE and DISTANCE[a[1]][f] == 1:
                            candidates.append(a)
            if orders:
                dist = DISTANCE
                for a in orders:
                    if size == 2:
                        adj = (dist[a[2]][f] == 1) + (dist[a[5]][f] == 1)
                    else:
                        adj = sum(dist[a[i]][f] == 1 for i in range(2, len(a), 3))
                    if adj + adjacent_inf >= need:
                        candidates.append(a)
        return self._threat_by_search(side, candidates) if candidates else False

    def _threat_by_search(self, side: int, actions: list[Action]) -> bool:
        """Play each action for the opponent and see whether ``side``'s feudal dies."""
        saved = self.to_move
        self.to_move = 1 - side
        self._mate_depth += 10  # no mate tests inside a threat probe
        try:
            for a in actions:
                self._apply_unchecked(a)
                dead = self.feudal[side] < 0
                self._pop()
                if dead:
                    return True
            return False
        finally:
            self._mate_depth -= 10
            self.to_move = saved
            self._cache = None

    def is_checkmated(self, side: int) -> bool:
        """W10: at the start of ``side``'s turn, threatened and no parry (feudal's own, or any)."""
        if self.feudal[side] < 0 or not self.is_threatened(side):
            return False
        return not self._has_parry(side)

    def _has_parry(self, side: int) -> bool:
        """W10, for a threatened ``side``: some defence leaves the feudal out of threat (or wins)."""
        f = self.feudal[side]
        if self.game.rules.mate_defence == "any":
            defences = self._generate(side)
        else:
            defences = [a for a in self._generate(side, only=f) if a[0] != ORDER]
        saved = self.to_move
        self.to_move = side
        self._mate_depth += 1
        try:
            for a in defences:
                self._apply_unchecked(a)
                if self.victory is not None:
                    ok = self.winner != 1 - side
                else:
                    ok = not self.is_threatened(side)
                self._pop()
                if ok:
                    return True
            return False
        finally:
            self._mate_depth -= 1
            self.to_move = saved
            self._cache = None

    def destinations(self, h: int) -> set[int]:
        """Final hexes of the move/attack actions of the piece on ``h`` (empty if not to move)."""
        c = self.squares[h]
        if self.victory is not None or not c or c >> 3 != self.to_move:
            return set()
        return {a[2] for a in self.legal_actions() if a[0] == MOVE and a[1] == h}

    # ------------------------------------------------------------------ copies and text
    def clone(self) -> GameState:
        """An independent copy (history included, so undo works on it too)."""
        other = GameState.__new__(GameState)
        other.game = self.game
        other.board = self.board
        other.squares = self.squares[:]
        other.to_move = self.to_move
        other.markers = [dict(self.markers[0]), dict(self.markers[1])]
        other.pending = self.pending
        other.castled = self.castled[:]
        other.aura_ready = set(self.aura_ready)
        other.destroyed = [self.destroyed[0][:], self.destroyed[1][:]]
        other.ply = self.ply
        other.quiet = self.quiet
        other.winner = self.winner
        other.victory = self.victory
        other.feudal = self.feudal[:]
        other.history = self.history[:]
        # The undo snapshots are shared, not copied (a copy per snapshot made clone O(plies)): _pop
        # copies what it hands back from a snapshot below ``_shared``, so no state changes another's.
        other._stack = self._stack[:]
        self._shared = other._shared = len(self._stack)
        other.counters = self.counters[:]
        other.fired = tuple(self.fired)
        other._mate_depth = 0
        other._deaths = []
        other._cache = None
        other._removed = 0
        other._zones = [None, None]
        other._settled = self._settled
        return other

    def key(self) -> tuple:
        """Hashable identity of the position (for transposition tables and equality)."""
        return (
            tuple(self.squares),
            self.to_move,
            tuple(sorted(self.markers[0].items())),
            tuple(sorted(self.markers[1].items())),
            tuple(sorted(self.pending)),
            tuple(self.castled),
            tuple(sorted(self.aura_ready)),
            tuple(sorted(self.destroyed[0])),
            tuple(sorted(self.destroyed[1])),
            self.quiet,
            self.winner,
            self.victory,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameState) and self.key() == other.key() and self.ply == other.ply

    __hash__ = None  # type: ignore[assignment]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready position in the scenario vocabulary (see ``serialize.py``)."""
        from .serialize import state_to_dict

        return state_to_dict(self)

    def action_to_string(self, action: Action) -> str:
        """Notation of a legal action in this position (SCENARIO-FORMAT.md)."""
        from .notation import format_action

        return format_action(self, action)

    def parse_action(self, text: str) -> Action:
        """Action of a notation text; raises ``IllegalActionError`` with the rule if it is not legal."""
        from .notation import parse_action

        return parse_action(self, text)

    def play(self, *texts: str) -> GameState:
        """Apply actions given in notation, in order; returns self for chaining.

        Atomic: if any action is unreadable or illegal, the ones already applied are taken back
        before ``IllegalActionError`` is raised, so the state is as it was.
        """
        done = 0
        try:
            for t in texts:
                self.apply(self.parse_action(t))
                done += 1
        except BaseException:
            for _ in range(done):
                self.undo()
            raise
        return self

    def __str__(self) -> str:
        from .text import board_text

        return board_text(self)

    def __repr__(self) -> str:
        status = (
            f"{self.winner_name() or 'nobody'} won by {self.victory}"
            if self.victory
            else f"{SIDE_NAMES[self.to_move]} to move"
        )
        return f"<TerraFeud ply {self.ply}, {status}>"

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        p.text(str(self))

    # The drawing layer sits above the engine: the composition root (``workbench/__init__.py``)
    # installs its renderer here, so a notebook shows a picture without the engine importing viz.
    svg_renderer: Any = None

    def _repr_svg_(self) -> str | None:
        renderer = GameState.svg_renderer
        return None if renderer is None else renderer(self)


__all__ = [
    "BLACK",
    "CASTLE",
    "MOVE",
    "ORDER",
    "PASS",
    "PASS_ACTION",
    "SHOT",
    "WHITE",
    "Action",
    "GameState",
    "IllegalActionError",
]
