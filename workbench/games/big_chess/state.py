"""The big-chess position and its rules (contract sections 6-13): generation, application, undo.

Actions are their canonical strings (section 16), so the legal list sorts by code point (B38) and a
record is the list itself. ``_legal_map`` builds, once per position, canonical string -> a small
descriptor tuple that ``apply_action`` executes; undo restores a snapshot of the mutable fields.
Cells are ints ``y * W + x``; pieces are immutable ``Piece`` tuples in a dict keyed by cell, so a
snapshot is a shallow dict copy.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import Counter
from typing import Any, NamedTuple

from workbench.core.protocol import TERMINAL, Glyph, IllegalAction, State

from .boards import ALTAR, FOREST, MINE, NO_SHADOW, PATH_OK, PORTAL, ROCK, SAND, STANDABLE_NOT, SWAMP, TERRAIN_NAMES
from .cards import Card
from .context import Context
from .geometry import DIR_INDEX, FACING_INDEX, FACING_NAMES, over_cells, quantize, sgn

COUNTERS = ("move", "strike", "take", "push", "area", "purchase", "transformation", "prince_buy", "prince_approach",
            "veterancy", "promotion", "shadow_placed", "shadow_strike", "jester_block", "altar", "portal",
            "mine_income", "team_lock", "king_loss_strike", "king_loss_take", "king_loss_area", "king_loss_altar",
            "succession", "elimination", "pass", "setup_place", "setup_remove", "setup_relocate")
COUNTER_WORDS = {
    "move": "moves (pattern moves; Prince approaches are counted apart)",
    "strike": "strikes (the piece takes the enemy's cell, 5.2)",
    "take": "takes (the enemy is removed, the piece stays, 5.3)",
    "push": "pushes (5.4)",
    "area": "area takes (the omnigon's level 0, 5)",
    "purchase": "purchases at the King (8.1)",
    "transformation": "Victim transformations (9.1)",
    "prince_buy": "Prince buys of an adjacent enemy piece (B32)",
    "prince_approach": "moves next to an own Prince from anywhere (8.2)",
    "veterancy": "level activations paid from trophies (10)",
    "promotion": "pawn promotions (9.2)",
    "shadow_placed": "pawn shadows left by a double move (9.3)",
    "shadow_strike": "strikes on a pawn shadow (en passant, 9.3)",
    "jester_block": "own pieces that stood blocked by an enemy Jester at a turn action (8.3)",
    "altar": "pieces cashed at an altar (7)",
    "portal": "portal teleports (B8)",
    "mine_income": "treasury earned on mines (B28)",
    "team_lock": "team-attack locks created (one attack per team on a player per round, 8.5)",
    "king_loss_strike": "own King lost to a strike",
    "king_loss_take": "own King lost to a take",
    "king_loss_area": "own King lost to an area take",
    "king_loss_altar": "own King lost at an altar",
    "succession": "Prince successions to the throne (11)",
    "elimination": "eliminations (King lost without a successor, or resignation)",
    "pass": "passes (only when nothing else is legal, B35)",
    "setup_place": "setup placements", "setup_remove": "setup removals", "setup_relocate": "setup relocations",
}


def _a(key: str) -> str:
    """A card's name with its article (``an infantry``, ``a knight``)."""
    words = key.replace("_", " ")
    return f"{'an' if words[:1] in 'aeiou' else 'a'} {words}"


# which fields of a generated action's tuple are its clicks: the piece then its target; a purchase's cell; the piece
# for an activation (a board asks it of each of the 5,696 actions of a four-player setup)
CLICKED: dict[str, tuple[int, ...]] = {"move": (1, 2), "strike": (1, 2), "take": (1, 2), "push": (1, 2), "area": (1,),
                                       "vet": (1,), "buy": (2,), "transform": (2,), "pbuy": (1,), "place": (3,),
                                       "remove": (2,), "reloc": (2, 3)}
CLICKS_OF: dict[str, Any] = {kind: (lambda d, i=at: (d[i[0]],)) if len(at) == 1 else (lambda d, i=at: (d[i[0]], d[i[1]]))
                             for kind, at in CLICKED.items()}


class Piece(NamedTuple):
    """One piece: owner (player index), card index, facing 0..7, bought levels (bit mask), current cost,
    trophies, whether it has acted (``moved``, B15), cells travelled (B33)."""

    owner: int
    card: int
    facing: int
    levels: int
    cost: int
    trophies: int
    moved: bool
    travelled: int


_CELL = r"(?:0|[1-9][0-9]{0,2}),(?:0|[1-9][0-9]{0,2})"
_RE_PIECE = re.compile(rf"({_CELL})([-x*>])({_CELL})(?:=([a-z][a-z0-9]*))?\Z")
_RE_AREA = re.compile(rf"({_CELL})\*area\Z")
_RE_BUY = re.compile(rf"\+([a-z][a-z0-9]*)@({_CELL})\Z")
_RE_PBUY = re.compile(rf"\$({_CELL})\Z")
_RE_VET = re.compile(rf"\^({_CELL}):([0-9]{{1,3}})\Z")
_RE_SETUP = re.compile(r"([a-y]):(.*)\Z")
_RE_PLACE = re.compile(rf"\+([a-z][a-z0-9]*)@({_CELL})(?::([a-z]{{1,2}}))?\Z")
_RE_REMOVE = re.compile(rf"-({_CELL})\Z")
_RE_RELOC = re.compile(rf"({_CELL})-({_CELL})\Z")
ANY_CELL = re.compile(r"[0-9]+,[0-9]+")


class BigChessState(State):
    """A position of big chess; see the module docstring."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        n = len(ctx.players)
        self.phase = "setup"
        self.to_move = 0
        self.turn_no = 0
        self.quiet = 0
        self.treasury = [0] * n
        self.pieces: dict[int, Piece] = {}
        self.shadows: dict[int, int] = {}
        self.protected: set[int] = set()
        self.locks: set[tuple[int, int]] = set()
        self.out: set[int] = set()
        self.ready: set[int] = set()
        self.winner_team: int | None = None
        self.result: str | None = None
        self.moves = 0
        self.counts: dict[str, list[int]] = {k: [0] * n for k in COUNTERS}
        self.buys: dict[str, list[int]] = {}
        self.lead10: list[int] | None = None
        self.log: list[str] = []
        self.start_data: dict[str, Any] | None = None
        self.seed = 0
        self._fired: list[tuple[str, int, int | None]] = []
        self._history: list[tuple[Any, ...]] = []
        self._legal: dict[str, tuple[Any, ...]] | None = None
        self._sorted: list[str] | None = None
        self._jesters = False
        self._att: list[bool] = []
        self._changed = False

    # ------------------------------------------------------------------ snapshots
    def _snapshot(self) -> tuple[Any, ...]:
        return (self.phase, self.to_move, self.turn_no, self.quiet, list(self.treasury), dict(self.pieces),
                dict(self.shadows), set(self.protected), set(self.locks), set(self.out), set(self.ready),
                self.winner_team, self.result, self.moves, {k: list(v) for k, v in self.counts.items()},
                {k: list(v) for k, v in self.buys.items()}, None if self.lead10 is None else list(self.lead10),
                len(self.log), list(self._fired))

    def _restore(self, snap: tuple[Any, ...]) -> None:
        """Put a snapshot back; containers are copied because clones share their history's snapshots."""
        (self.phase, self.to_move, self.turn_no, self.quiet, treasury, pieces, shadows, protected, locks, out, ready,
         self.winner_team, self.result, self.moves, counts, buys, lead10, loglen, fired) = snap
        self.treasury = list(treasury)
        self.pieces = dict(pieces)
        self.shadows = dict(shadows)
        self.protected = set(protected)
        self.locks = set(locks)
        self.out = set(out)
        self.ready = set(ready)
        self.counts = {k: list(v) for k, v in counts.items()}
        self.buys = {k: list(v) for k, v in buys.items()}
        self.lead10 = None if lead10 is None else list(lead10)
        self._fired = list(fired)
        del self.log[loglen:]
        self._legal = None
        self._sorted = None
        self._jesters = False

    def clone(self) -> BigChessState:
        """An independent copy (the context is shared: it never changes)."""
        other = BigChessState.__new__(BigChessState)
        other.ctx = self.ctx
        other.log = list(self.log)
        other._restore(self._snapshot())
        # the same position has the same legal actions: the copy shares the generated map (never changed in
        # place; a move replaces it), so a probe that plays one of them (action_effects, a search's child) does not
        # generate them again (5,696 setup actions for four players: ~45 ms each time)
        other._legal, other._sorted = self._legal, self._sorted
        other._att = []
        other._changed = False
        other.start_data = self.start_data
        other.seed = self.seed
        other._history = list(self._history)
        return other

    def undo_action(self) -> None:
        """Take back the last action (or resignation) exactly."""
        if not self._history:
            raise IllegalAction("undo: no action to take back")
        snap, legal, ordered, jesters, att = self._history.pop()
        self._restore(snap)
        # the position is the one before the action, so its legal actions (and their caches) are too:
        # a search that tries every action of a node pays for one generation, not one per child
        self._legal, self._sorted, self._jesters, self._att = legal, ordered, jesters, att

    # ------------------------------------------------------------------ queries
    def current_player(self) -> int:
        """The player to move; in the setup phase the first player not yet ready (B37)."""
        if self.result is not None:
            return TERMINAL
        if self.phase == "setup":
            for p in range(len(self.ctx.players)):
                if p not in self.ready and p not in self.out:
                    return p
            return TERMINAL
        return self.to_move

    def is_terminal(self) -> bool:
        """True once a team has won or a draw limit struck."""
        return self.result is not None

    def returns(self) -> list[float]:
        """+1 for every member of the winning team, -1 for the others; 0 for a draw or an open game."""
        n = len(self.ctx.players)
        if self.result != "win" or self.winner_team is None:
            return [0.0] * n
        return [1.0 if self.ctx.team_of[p] == self.winner_team else -1.0 for p in range(n)]

    def winner(self) -> int | None:
        """First seat of the winning team."""
        if self.result != "win" or self.winner_team is None:
            return None
        return self.ctx.team_members[self.winner_team][0]

    def summary(self, player: int | None = None) -> dict[str, Any]:
        """What a status bar shows (the board): phase, each seat's treasury (the setup budget in the setup
        phase), levels in play, seats out and ready, and the quiet count toward the draw."""
        ctx = self.ctx
        money = "budget" if self.phase == "setup" else "treasury"
        out: dict[str, Any] = {"phase": self.phase,
                               money: {ctx.players[p]: self.treasury[p] for p in range(len(ctx.players))}}
        if self.phase == "setup" and self.ready:
            out["ready"] = [ctx.players[p] for p in sorted(self.ready)]
        if self.out:
            out["out"] = [ctx.players[p] for p in sorted(self.out)]
        levelled = sum(1 for pc in self.pieces.values() if pc.levels)
        if levelled:
            out["levelled pieces"] = levelled
        out["quiet"] = self.quiet
        return out

    def victory(self) -> str | None:
        """``kings`` (every other team lost its Kings), ``draw``, or None while playing."""
        if self.result is None:
            return None
        return "kings" if self.result == "win" else "draw"

    def move_number(self) -> int:
        """Actions applied since the start (setup actions and activations included)."""
        return self.moves

    def turn(self) -> int:
        """The contract's ``turn`` (0 in the setup phase, 1 in the first play turn)."""
        return self.turn_no

    def counters(self) -> dict[str, list[int]]:
        """Rule-usage counters per player (COUNTER_WORDS)."""
        return {k: list(v) for k, v in self.counts.items()}

    def fired(self) -> list[tuple[str, int, int | None]]:
        """Rules the last action fired: (rule, player, cell)."""
        return list(self._fired)

    # ------------------------------------------------------------------ helpers
    def cell_name(self, c: int) -> str:
        """``x,y``."""
        return self.ctx.names[c]

    def _cell(self, text: str) -> int:
        ctx = self.ctx
        x, _, y = text.partition(",")
        xi, yi = int(x), int(y)
        if xi >= ctx.W or yi >= ctx.H:
            raise IllegalAction(f"cell {text} is off the {ctx.W}x{ctx.H} board")
        return yi * ctx.W + xi

    def _enemy(self, p: int, q: int) -> bool:
        return self.ctx.team_of[p] != self.ctx.team_of[q]

    def may_attack(self, p: int, t: Piece) -> bool:
        """General target rule (8.6): enemy, not untouchable, owner not protected, no teammate's lock."""
        ctx = self.ctx
        q = t.owner
        if ctx.team_of[p] == ctx.team_of[q] or ctx.untouchable[t.card] or q in self.protected:
            return False
        if self.locks:
            team = ctx.team_of[p]
            for a, b in self.locks:
                if b == q and a != p and ctx.team_of[a] == team:
                    return False
        return True

    def may_attack_owner(self, p: int, q: int) -> bool:
        """The owner part of the general target rule: enemy, not protected, no teammate's lock on it."""
        ctx = self.ctx
        if ctx.team_of[p] == ctx.team_of[q] or q in self.protected:
            return False
        team = ctx.team_of[p]
        return not any(b == q and a != p and ctx.team_of[a] == team for a, b in self.locks)

    def effective_levels(self, s: int) -> int:
        """Effective level set (6) of the piece on ``s`` as a bit mask: bought, first move, aura, fort."""
        ctx = self.ctx
        pc = self.pieces[s]
        mask = pc.levels
        if ctx.is_pawn[pc.card]:
            if not pc.moved:
                mask |= 1
            pieces = self.pieces
            for n in ctx.neighbors[s]:
                o = pieces.get(n)
                if o is not None:
                    mask |= ctx.aura_mask[o.card]
        if ctx.terrain[s] == "7":
            mask |= ctx.fort_mask
        return mask & ctx.levels_mask[pc.card]

    def _blockers(self, s: int, pc: Piece) -> set[int] | None:
        """Cells of the active Jesters that block the piece on ``s`` (8.3), or None."""
        ctx = self.ctx
        if not self._jesters or ctx.jester_immune[pc.card]:
            return None
        out = None
        enemies_only = ctx.rules["jester_blocks"] == "enemies"
        for n in ctx.neighbors[s]:
            o = self.pieces.get(n)
            if o is not None and ctx.is_jester[o.card] and o.moved and (not enemies_only or self._enemy(pc.owner, o.owner)):
                if out is None:
                    out = set()
                out.add(n)
        return out

    def _king_cell(self, p: int) -> int | None:
        for c, pc in self.pieces.items():
            if pc.owner == p and self.ctx.is_king[pc.card]:
                return c
        return None

    # ------------------------------------------------------------------ generation
    def _legal_map(self) -> dict[str, tuple[Any, ...]]:
        if self._legal is None:
            if self.result is not None:
                self._legal = {}
            elif self.phase == "setup":
                self._legal = self._gen_setup()
            else:
                self._legal = self._gen_play()
        return self._legal

    def legal_actions(self, player: int | None = None) -> list[str]:
        """Canonical strings in code-point order (B38); ``player`` narrows the list to that player's (in the
        setup phase its own setup actions; in the play phase [] unless it is to move)."""
        if self._sorted is None:
            self._sorted = sorted(self._legal_map())
        if player is not None and self.phase == "setup":
            # the player's actions are the run of sorted strings that start with its letter and ":"
            letter = self.ctx.players[player] + ":"
            ordered = self._sorted
            return ordered[bisect_left(ordered, letter):bisect_left(ordered, letter[:-1] + ";")]
        if player is not None and player != self.to_move:
            return []
        return list(self._sorted)

    def _gen_setup(self) -> dict[str, tuple[Any, ...]]:
        ctx = self.ctx
        out: dict[str, tuple[Any, ...]] = {}
        for p, letter in enumerate(ctx.players):
            if p in self.ready or p in self.out:
                continue
            zone = ctx.board.zones.get(letter, ())
            free = [c for c in zone if c not in self.pieces]
            has_king = self._king_cell(p) is not None
            for k, card in enumerate(ctx.cards):
                if ctx.is_king[k]:
                    if has_king:
                        continue
                elif not card.buyable or ctx.cost[k] > self.treasury[p]:
                    continue
                for c in free:  # "a:+knight@3,4:NE" for each facing of a vector card, else "a:+wall@3,4"
                    out.update(ctx.placements(p, k, c))
            for s, pc in self.pieces.items():
                if pc.owner != p:
                    continue
                out[f"{letter}:-{ctx.names[s]}"] = ("remove", p, s)
                for c in free:
                    out[f"{letter}:{ctx.names[s]}-{ctx.names[c]}"] = ("reloc", p, s, c)
            if has_king:
                out[f"{letter}:ready"] = ("ready", p)
        return out

    def _gen_play(self) -> dict[str, tuple[Any, ...]]:
        ctx = self.ctx
        P = self.to_move
        out: dict[str, tuple[Any, ...]] = {}
        names = ctx.names
        self._jesters = any(ctx.is_jester[pc.card] and pc.moved for pc in self.pieces.values())
        self._att = [self.may_attack_owner(P, q) for q in range(len(ctx.players))]
        princes = [c for c, pc in self.pieces.items() if pc.owner == P and ctx.is_prince[pc.card]]
        own = sorted(c for c, pc in self.pieces.items() if pc.owner == P)
        for s in own:
            self._piece_actions(s, self.pieces[s], princes, out)
        # purchases at the King (10.1) and transformations (10.2)
        treasury = self.treasury[P]
        king = self._king_cell(P)
        if king is not None:
            kx, ky = ctx.x[king], ctx.y[king]
            cells = [c for c in ctx.neighbors[king]
                     if c not in self.pieces and ctx.terrain[c] not in STANDABLE_NOT and ctx.terrain[c] != ALTAR]
            buyable = [k for k, card in enumerate(ctx.cards) if card.buyable and ctx.cost[k] <= treasury]
            for k in buyable:
                key = ctx.cards[k].key
                for c in cells:
                    out[f"+{key}@{names[c]}"] = ("buy", k, c, DIR_INDEX[(ctx.x[c] - kx, ctx.y[c] - ky)])
            victims = [c for c in own if self.pieces[c].card == ctx.victim]
            if victims:
                only = all(ctx.is_king[pc.card] or pc.card == ctx.victim for pc in self.pieces.values() if pc.owner == P)
                pct = ctx.rules["victim_discount_pct"] if only else 0
                for k, card in enumerate(ctx.cards):
                    if not card.buyable or k == ctx.victim:
                        continue
                    price = ctx.cost[k] * (100 - pct) // 100
                    if price > treasury:
                        continue
                    for c in victims:
                        f = quantize(ctx.x[c] - kx, ctx.y[c] - ky) if card.vector else 0
                        out[f"+{card.key}@{names[c]}"] = ("transform", k, c, f, price)
        # Prince buy (10.3)
        for pr in princes:
            for c in ctx.neighbors[pr]:
                t = self.pieces.get(c)
                if t is not None and not ctx.is_king[t.card] and t.cost <= treasury and self.may_attack(P, t):
                    out[f"${names[c]}"] = ("pbuy", c)
        turn_actions = bool(out)
        if not turn_actions:
            out["pass"] = ("pass",)
        # veterancy (10): not turn actions
        rate = ctx.rules["vet_rate_pct"]
        for s in own:
            pc = self.pieces[s]
            card = ctx.cards[pc.card]
            if not card.levels:
                continue
            price = max(1, pc.cost * rate // 100)
            if pc.trophies < price:
                continue
            for lv in card.levels:
                if not (pc.levels >> lv) & 1:
                    out[f"^{names[s]}:{lv}"] = ("vet", s, lv, price)
        return out

    def _offsets(self, active: tuple[Any, ...], act: str, f: int) -> set[tuple[int, int]]:
        ctx = self.ctx
        top = max(ctx.W, ctx.H)
        offs: set[tuple[int, int]] = set()
        for e in active:
            if e.act != act:
                continue
            for d in e.turned(f):
                if e.geom == "slide":
                    for k in range(e.min, (e.range or top) + 1):
                        offs.add((d[0] * k, d[1] * k))
                else:
                    offs.add(d)
        return offs

    def _piece_actions(self, s: int, pc: Piece, princes: list[int], out: dict[str, tuple[Any, ...]]) -> None:
        ctx = self.ctx
        card = ctx.cards[pc.card]
        P = pc.owner
        W, H = ctx.W, ctx.H
        terrain = ctx.terrain
        pieces = self.pieces
        names = ctx.names
        blockers = self._blockers(s, pc)
        f = pc.facing if card.vector else 0
        compiled = ctx.compiled(pc.card, f, self.effective_levels(s))
        on_swamp = terrain[s] == SWAMP
        sx, sy = s % W, s // W
        sn = names[s]
        pawn = ctx.is_pawn[pc.card]
        offs_cache: dict[str, set[tuple[int, int]]] = {}
        vblock = ctx.rules["victim_blocks_jumps"]
        team = ctx.team_of
        start_len = len(out)

        att = self._att
        unt = ctx.untouchable
        standable = ctx.standable
        shadows = self.shadows

        def target(e: Any, c: int, dd: int) -> None:
            if dd != 1 and terrain[c] == FOREST:
                return
            t = pieces.get(c)
            act = e.act
            if act == "move":
                if t is None and standable[c]:
                    out.setdefault(f"{sn}-{names[c]}", ("move", s, c, e.keep, e.shadow, None))
            elif act == "strike":
                if not standable[c]:
                    return
                if t is not None:
                    if att[t.owner] and not unt[t.card] and (blockers is None or c in blockers):
                        out.setdefault(f"{sn}x{names[c]}", ("strike", s, c, e.keep, None, None))
                elif pawn and blockers is None and c in shadows:
                    pc2 = shadows[c]
                    t2 = pieces.get(pc2)
                    if t2 is not None and att[t2.owner] and not unt[t2.card]:
                        out.setdefault(f"{sn}x{names[c]}", ("strike", s, c, e.keep, pc2, None))
            elif act == "take":
                if t is not None and att[t.owner] and not unt[t.card] and (blockers is None or c in blockers):
                    out.setdefault(f"{sn}*{names[c]}", ("take", s, c))
            elif act == "push":
                if blockers is not None or t is None or not ctx.pushable[t.card] or unt[t.card]:
                    return
                bx, by = 2 * ctx.x[c] - sx, 2 * ctx.y[c] - sy
                if not (0 <= bx < W and 0 <= by < H):
                    return
                b = by * W + bx
                tb = terrain[b]
                if not standable[b] or b in pieces:
                    return
                if ctx.rules["passable_targets"] and tb in (SAND, SWAMP, FOREST):
                    return
                if tb == ALTAR and t.owner in self.protected and t.owner != P:
                    return
                out.setdefault(f"{sn}>{names[c]}", ("push", s, c, b, e.keep))

        rays = ctx.rays[s]
        path_ok = ctx.path_ok
        top = max(W, H)
        for e, vecs in compiled:
            if blockers is not None and e.act not in ("strike", "take"):
                continue
            if e.geom == "slide":
                maxk = e.range or top
                if on_swamp:
                    if e.min > 1:
                        continue
                    maxk = 1
                emin = e.min
                hop = e.hop
                for d in vecs:
                    if emin >= 2:
                        offs = offs_cache.get(e.act)
                        if offs is None:
                            offs = offs_cache[e.act] = self._offsets(tuple(x for x, _ in compiled), e.act, f)
                        if not all((d[0] * j, d[1] * j) in offs for j in range(1, emin)):
                            continue
                    ray = rays[DIR_INDEX[d]]
                    hopped = False
                    k = 0
                    for c in ray:
                        k += 1
                        if k > maxk:
                            break
                        if k >= emin:
                            target(e, c, k)
                        if not path_ok[c]:
                            break
                        t = pieces.get(c)
                        if t is not None:
                            if not hop or hopped or team[t.owner] != team[P] or (vblock and t.card == ctx.victim):
                                break
                            hopped = True
            elif e.geom == "leap":
                for v in vecs:
                    lp = ctx.leap(s, v[0], v[1])
                    if lp is None:
                        continue
                    dd = max(abs(v[0]), abs(v[1]))
                    if on_swamp and dd != 1:
                        continue
                    blocked = False
                    for oc in lp[1]:
                        if terrain[oc] == ROCK or (vblock and oc in pieces and pieces[oc].card == ctx.victim):
                            blocked = True
                            break
                    if not blocked:
                        target(e, lp[0], dd)
            else:  # area
                key = f"{sn}*area"
                if key in out:
                    continue
                removed = []
                for v in vecs:
                    x, y = sx + v[0], sy + v[1]
                    if not (0 <= x < W and 0 <= y < H):
                        continue
                    dd = max(abs(v[0]), abs(v[1]))
                    if on_swamp and dd != 1:
                        continue
                    c = y * W + x
                    t = pieces.get(c)
                    if t is None or terrain[c] == FOREST and dd != 1:
                        continue
                    if team[t.owner] != team[P] and not ctx.untouchable[t.card] and t.owner not in self.protected:
                        removed.append(c)
                if removed and (len(removed) > 1 or self.may_attack(P, pieces[removed[0]])):
                    out[key] = ("area", s, tuple(sorted(set(removed))))
        # Prince approach (7.3)
        if blockers is None and ctx.mobile[pc.card] and princes:
            passable_only = ctx.rules["passable_targets"]
            for pr in princes:
                if pr == s:
                    continue
                for c in ctx.neighbors[pr]:
                    if c == s or c in pieces:
                        continue
                    tc = terrain[c]
                    if tc in STANDABLE_NOT or (passable_only and tc in (SAND, SWAMP, FOREST)):
                        continue
                    dd = ctx.dist(s, c)
                    if (tc == FOREST or on_swamp) and dd != 1:
                        continue
                    out.setdefault(f"{sn}-{names[c]}", ("move", s, c, False, False, "approach"))
        # promotion (10.4)
        if pawn and ctx.rules["pawn_promotion"] and ctx.promo:
            new = list(out.items())[start_len:]
            for text, d in new:
                if d[0] in ("move", "strike") and self._promotes(s, pc, d):
                    for key in ctx.promo:
                        out[f"{text}={key}"] = d[:5] + (key,) + d[6:] if d[0] == "strike" else (d[0], d[1], d[2], d[3], d[4], d[5], key)

    def _landing(self, s: int, c: int, removed: tuple[int, ...]) -> int | None:
        """Where a piece moving s -> c ends after the arrival effects (None: it vanished at an altar)."""
        ctx = self.ctx
        tc = ctx.terrain[c]
        if tc == ALTAR:
            return None
        if tc == PORTAL:
            q = ctx.board.portal_pair[c]
            if q == s or q in removed or q not in self.pieces:
                return q
        return c

    def _promotes(self, s: int, pc: Piece, d: tuple[Any, ...]) -> bool:
        ctx = self.ctx
        c = d[2]
        if pc.travelled + ctx.dist(s, c) < ctx.rules["promotion_distance"] or not ctx.zone[c] and ctx.terrain[c] != PORTAL:
            return False
        removed = (c,) if d[0] == "strike" and d[4] is None else ((d[4],) if d[0] == "strike" else ())
        L = self._landing(s, c, removed)
        if L is None:
            return False
        if pc.travelled + ctx.dist(s, c) < ctx.rules["promotion_distance"]:
            return False
        letter = ctx.zone[L]
        me = ctx.players[pc.owner]
        if not letter or letter == me or letter not in ctx.pidx:
            return False
        if not self._enemy(pc.owner, ctx.pidx[letter]):
            return False
        card = ctx.cards[pc.card]
        keep = d[3]
        f = pc.facing if keep or not card.vector else quantize(ctx.x[c] - ctx.x[s], ctx.y[c] - ctx.y[s])
        return not self._has_free_move(L, card, f, pc.levels & ctx.levels_mask[pc.card])

    def _has_free_move(self, L: int, card: Card, f: int, mask: int) -> bool:
        """Condition (3) of 10.4: a move entry of the bought levels moves from L on an empty board."""
        ctx = self.ctx
        W, H = ctx.W, ctx.H
        terrain = ctx.terrain
        active = card.active(mask)
        on_swamp = terrain[L] == SWAMP
        lx, ly = L % W, L // W
        offs = None
        for e in active:
            if e.act != "move":
                continue
            for v in e.turned(f):
                if e.geom == "slide":
                    if e.min >= 2:
                        if on_swamp:
                            continue
                        if offs is None:
                            offs = self._offsets(active, "move", f)
                        if not all((v[0] * j, v[1] * j) in offs for j in range(1, e.min)):
                            continue
                    maxk = 1 if on_swamp else (e.range or max(W, H))
                    x, y = lx, ly
                    for k in range(1, maxk + 1):
                        x += v[0]
                        y += v[1]
                        if not (0 <= x < W and 0 <= y < H):
                            break
                        c = y * W + x
                        if k >= e.min and terrain[c] not in STANDABLE_NOT and (terrain[c] != FOREST or k == 1):
                            return True
                        if terrain[c] not in PATH_OK:
                            break
                elif e.geom == "leap":
                    x, y = lx + v[0], ly + v[1]
                    dd = max(abs(v[0]), abs(v[1]))
                    if not (0 <= x < W and 0 <= y < H) or (on_swamp and dd != 1):
                        continue
                    if any(terrain[(ly + j) * W + lx + i] == ROCK for i, j in over_cells(v[0], v[1])):
                        continue
                    c = y * W + x
                    if terrain[c] not in STANDABLE_NOT and (terrain[c] != FOREST or dd == 1):
                        return True
        return False

    # ------------------------------------------------------------------ notation
    def action_to_string(self, action: Any) -> str:
        """Actions are their canonical strings already."""
        return str(action)

    def canonical_input(self, text: str) -> str:
        """The canonical form of an input string (case, default setup facing); no legality check."""
        if not isinstance(text, str) or len(text) > 80:
            raise IllegalAction("an action is text of at most 80 characters")
        t = text.strip().lower()
        m = _RE_SETUP.match(t)
        if m:
            letter, rest = m.groups()
            pm = _RE_PLACE.match(rest)
            if pm:
                key, cell, face = pm.groups()
                k = self.ctx.card_index.get(key)
                if k is None:
                    raise IllegalAction(f"{text}: no card {key}")
                card = self.ctx.cards[k]
                if card.vector:
                    if face is None:
                        f = self.ctx.board.facing.get(letter, FACING_INDEX["N"] if letter == "a" else FACING_INDEX["S"])
                        face = FACING_NAMES[f]
                    elif face.upper() not in FACING_INDEX:
                        raise IllegalAction(f"{text}: {face} is not a facing ({' '.join(FACING_NAMES)})")
                    return f"{letter}:+{key}@{cell}:{face.upper()}"
                if face is not None:
                    raise IllegalAction(f"{text}: {key} has no facing (a vectorless card is placed without :F)")
                return f"{letter}:+{key}@{cell}"
            if rest == "ready" or _RE_REMOVE.match(rest) or _RE_RELOC.match(rest):
                return f"{letter}:{rest}"
            raise IllegalAction(f"{text}: a setup action is p:+K@c[:F], p:-c, p:s-c or p:ready")
        if t == "pass" or _RE_PIECE.match(t) or _RE_AREA.match(t) or _RE_BUY.match(t) or _RE_PBUY.match(t) or _RE_VET.match(t):
            m2 = _RE_VET.match(t)
            if m2:
                return f"^{m2.group(1)}:{int(m2.group(2))}"
            return t
        if any(len(part) > 1 and part.startswith("0") for part in re.findall(r"[0-9]+", t)):
            raise IllegalAction(f"{text}: cells are written x,y without leading zeros (B56)")
        raise IllegalAction(f"{text}: not an action in big-chess notation (s-c, sxc, s*c, s*area, s>c, +K@c, $c, ^s:N, pass)")

    def string_to_action(self, text: str) -> str:
        """The legal action ``text`` names (case-insensitive); IllegalAction naming the failing rule."""
        canon = self.canonical_input(text)
        if canon in self._legal_map():
            return canon
        raise IllegalAction(self.explain_illegal(text))

    def explain_illegal(self, text: str) -> str:
        """Why ``text`` is not legal here: the first rule that fails."""
        try:
            canon = self.canonical_input(text)
        except IllegalAction as exc:
            return str(exc)
        if canon in self._legal_map():
            return f"{canon} is legal"
        from .explain import explain

        return f"{text}: {explain(self, canon)}"

    # ------------------------------------------------------------------ apply
    def apply_action(self, action: Any) -> None:
        """Play one legal action (canonical or input notation)."""
        legal = self._legal_map()
        d = legal.get(action) if isinstance(action, str) else None
        if d is None:
            action = self.string_to_action(action)
            d = legal[action]
        self._play(action, d)

    def _play(self, action: str, d: tuple[Any, ...]) -> None:
        """Play ``action`` with its descriptor ``d`` (``_legal_map``'s): ``apply_action`` once the action is known
        legal, and ``setup_armies``, whose placements are legal by construction (listing every player's setup
        actions before each of them took 39 s for a 25-player start)."""
        self._history.append((self._snapshot(), self._legal, self._sorted, self._jesters, self._att))
        self._fired = []
        self.log.append(action)
        self.moves += 1
        self._legal = None
        self._sorted = None
        kind = d[0]
        if kind in ("place", "remove", "reloc", "ready"):
            self._do_setup(d)
        elif kind == "vet":
            _, s, lv, price = d
            pc = self.pieces[s]
            self.pieces[s] = pc._replace(levels=pc.levels | (1 << lv), cost=pc.cost + price, trophies=pc.trophies - price)
            self._count("veterancy", pc.owner, s)
        else:
            self._do_turn(d)

    def _count(self, name: str, p: int, cell: int | None = None, n: int = 1) -> None:
        self.counts[name][p] += n
        self._fired.append((name, p, cell))

    def _do_setup(self, d: tuple[Any, ...]) -> None:
        ctx = self.ctx
        kind = d[0]
        if kind == "place":
            _, p, k, c, f = d
            cost = 0 if ctx.is_king[k] else ctx.cost[k]
            self.treasury[p] -= cost
            self.pieces[c] = Piece(p, k, f, 0, ctx.cost[k], 0, False, 0)
            self._count("setup_place", p, c)
        elif kind == "remove":
            _, p, s = d
            pc = self.pieces.pop(s)
            if not ctx.is_king[pc.card]:
                self.treasury[p] += ctx.cost[pc.card]
            self._count("setup_remove", p, s)
        elif kind == "reloc":
            _, p, s, c = d
            self.pieces[c] = self.pieces.pop(s)
            self._count("setup_relocate", p, c)
        else:
            self.ready.add(d[1])
            self._maybe_start_play()

    def _maybe_start_play(self) -> None:
        active = [p for p in range(len(self.ctx.players)) if p not in self.out]
        if any(p not in self.ready for p in active):
            return
        self.phase = "play"
        self.ready = set()
        self.turn_no = 1
        self.quiet = 0
        self.protected = set(active)
        if self._end_test():
            return
        self.to_move = active[0]
        self._start_turn(self.to_move)

    def _start_turn(self, p: int) -> None:
        """Start-of-turn steps (11): own shadows go, own locks expire, income (9.4)."""
        ctx = self.ctx
        if self.shadows:
            for sh, pcell in list(self.shadows.items()):
                t = self.pieces.get(pcell)
                if t is None or t.owner == p:
                    del self.shadows[sh]
        if self.locks and ctx.rules["lock_expiry"] == "creator_turn":
            self.locks = {lk for lk in self.locks if lk[0] != p}
        r = ctx.rules
        gain = r["turn_income"]
        upkeep = 0
        mine = 0
        for c, pc in self.pieces.items():
            if pc.owner != p:
                continue
            if ctx.terrain[c] == MINE:
                mine += r["mine_income"]
            gain += ctx.income[pc.card]
            if not ctx.is_king[pc.card]:
                upkeep += r["upkeep"]
        if mine:
            self.counts["mine_income"][p] += mine
        self.treasury[p] = max(0, self.treasury[p] + gain + mine - upkeep)
        if self.turn_no == 10 and self.lead10 is None:
            self.lead10 = self.material_values()

    def material_values(self) -> list[int]:
        """Per player: current cost of its pieces other than the King, plus its treasury (the 'material')."""
        ctx = self.ctx
        vals = list(self.treasury)
        for pc in self.pieces.values():
            if not ctx.is_king[pc.card]:
                vals[pc.owner] += pc.cost
        return vals

    def _material(self) -> Counter[tuple[int, int]]:
        return Counter((pc.owner, pc.card) for pc in self.pieces.values())

    def _move_piece(self, s: int, c: int, piece: Piece) -> None:
        del self.pieces[s]
        self.pieces[c] = piece
        if self.shadows:
            for sh, pcell in self.shadows.items():
                if pcell == s:
                    self.shadows[sh] = c

    def _remove(self, c: int, cause: str) -> Piece:
        pc = self.pieces.pop(c)
        self._changed = True
        if self.shadows:
            for sh in [sh for sh, pcell in self.shadows.items() if pcell == c]:
                del self.shadows[sh]
        if self.ctx.is_king[pc.card]:
            self._kings_lost.append((pc.owner, cause))
        return pc

    def _reward(self, P: int, xcell: int, t: Piece) -> None:
        r = t.cost * self.ctx.rules["strike_reward_pct"] // 100
        self.treasury[P] += r
        x = self.pieces[xcell]
        self.pieces[xcell] = x._replace(trophies=x.trophies + r)

    def _arrive(self, c: int, P: int) -> int | None:
        """Arrival effects (7.5) for the piece now on ``c``: shadow, altar, portal. Returns its cell."""
        ctx = self.ctx
        self.shadows.pop(c, None)
        tc = ctx.terrain[c]
        if tc == ALTAR:
            pc = self.pieces[c]
            self.treasury[P] += pc.cost + pc.trophies
            self._remove(c, "altar")
            self._count("altar", P, c)
            return None
        if tc == PORTAL:
            q = ctx.board.portal_pair[c]
            if q not in self.pieces:
                self._move_piece(c, q, self.pieces[c])
                self.shadows.pop(q, None)
                self._count("portal", P, q)
                return q
        return c

    def _lock(self, P: int, victim: int) -> None:
        if (P, victim) not in self.locks:
            self.locks.add((P, victim))
            self._count("team_lock", P)

    def _moved_piece(self, pc: Piece, s: int, c: int, keep: bool) -> Piece:
        ctx = self.ctx
        f = pc.facing
        if ctx.cards[pc.card].vector and not keep:
            f = quantize(ctx.x[c] - ctx.x[s], ctx.y[c] - ctx.y[s])
        return pc._replace(facing=f, moved=True, travelled=pc.travelled + ctx.dist(s, c))

    def _do_turn(self, d: tuple[Any, ...]) -> None:
        ctx = self.ctx
        P = self.to_move
        # the material (owner, card multiset, B46) changes iff a piece is removed, added, bought by a
        # Prince, promoted, transformed or succeeds: those steps set the flag (cheaper than two Counters)
        self._changed = False
        self._kings_lost: list[tuple[int, str]] = []
        self._jesters = any(ctx.is_jester[pc.card] and pc.moved for pc in self.pieces.values())
        blocked = sum(1 for c, pc in self.pieces.items() if pc.owner == P and self._blockers(c, pc)) if self._jesters else 0
        if blocked:
            self._count("jester_block", P, None, blocked)
        kind = d[0]
        if kind in ("move", "strike"):
            s, c, keep = d[1], d[2], d[3]
            promo = d[5] if kind == "strike" else d[6] if len(d) > 6 else None
            x = self.pieces[s]
            if kind == "strike":
                pawn_cell = d[4]
                if pawn_cell is None:
                    t = self.pieces[c]
                    self._reward(P, s, t)
                    self._remove(c, "strike")
                    self._count("strike", P, c)
                else:
                    t = self.pieces[pawn_cell]
                    self._reward(P, s, t)
                    self._remove(pawn_cell, "strike")
                    self.shadows.pop(c, None)
                    self._count("shadow_strike", P, c)
                self._lock(P, t.owner)
                x = self.pieces[s]
            else:
                self._count("prince_approach" if d[5] == "approach" else "move", P, c)
            self._move_piece(s, c, self._moved_piece(x, s, c, keep))
            final = self._arrive(c, P)
            if final is not None and promo is not None:
                pc = self.pieces[final]
                k = ctx.card_index[promo]
                card = ctx.cards[k]
                self.pieces[final] = Piece(P, k, pc.facing if card.vector else 0, 0, ctx.cost[k], pc.trophies, True,
                                           pc.travelled)
                for sh in [sh for sh, pcell in self.shadows.items() if pcell == final]:
                    del self.shadows[sh]
                self._changed = True
                self._count("promotion", P, final)
            elif final is not None and kind == "move" and d[4]:
                mid = ((ctx.y[s] + ctx.y[c]) // 2) * ctx.W + (ctx.x[s] + ctx.x[c]) // 2
                if mid not in self.pieces and mid not in self.shadows and ctx.terrain[mid] not in NO_SHADOW:
                    self.shadows[mid] = final
                    self._count("shadow_placed", P, mid)
        elif kind == "take":
            _, s, c = d
            t = self.pieces[c]
            self._reward(P, s, t)
            self._remove(c, "take")
            self._lock(P, t.owner)
            self.pieces[s] = self.pieces[s]._replace(moved=True)
            self._count("take", P, c)
        elif kind == "area":
            _, s, cells = d
            owners = set()
            for c in cells:
                t = self.pieces[c]
                owners.add(t.owner)
                self._reward(P, s, t)
                self._remove(c, "area")
            if len(cells) == 1:
                self._lock(P, owners.pop())
            self.pieces[s] = self.pieces[s]._replace(moved=True)
            self._count("area", P, s)
        elif kind == "push":
            _, s, c, b, keep = d
            t = self.pieces[c]
            x = self.pieces[s]
            dirf = DIR_INDEX[(sgn(ctx.x[c] - ctx.x[s]), sgn(ctx.y[c] - ctx.y[s]))]
            nx = x._replace(moved=True, travelled=x.travelled + 1,
                            facing=dirf if ctx.cards[x.card].vector and not keep else x.facing)
            self._move_piece(c, b, t)
            self._move_piece(s, c, nx)
            self._count("push", P, c)
            self._arrive(b, P)
            self._arrive(c, P)
        elif kind == "buy":
            _, k, c, f = d
            self.treasury[P] -= ctx.cost[k]
            self.shadows.pop(c, None)
            self.pieces[c] = Piece(P, k, f if ctx.cards[k].vector else 0, 0, ctx.cost[k], 0, False, 0)
            self._changed = True
            self._count("purchase", P, c)
            self.buys.setdefault(ctx.cards[k].key, [0] * len(ctx.players))[P] += 1
        elif kind == "transform":
            _, k, c, f, price = d
            self.treasury[P] -= price
            self.pieces[c] = Piece(P, k, f, 0, ctx.cost[k], 0, False, 0)
            self._changed = True
            self._count("transformation", P, c)
            self.buys.setdefault(ctx.cards[k].key, [0] * len(ctx.players))[P] += 1
        elif kind == "pbuy":
            c = d[1]
            t = self.pieces[c]
            self.treasury[P] -= t.cost
            if ctx.rules["prince_buy_to_owner"]:
                self.treasury[t.owner] += t.cost
            self.pieces[c] = t._replace(owner=P)
            self._changed = True
            for sh in [sh for sh, pcell in self.shadows.items() if pcell == c]:
                del self.shadows[sh]
            self._lock(P, t.owner)
            self._count("prince_buy", P, c)
        else:
            self._count("pass", P)
        self._after_turn(P)

    def _after_turn(self, P: int) -> None:
        ctx = self.ctx
        self.protected.discard(P)
        done: set[int] = set()
        for owner, cause in self._kings_lost:
            if owner in done or owner in self.out:
                continue
            done.add(owner)
            self._count(f"king_loss_{cause}", owner)
            princes = sorted(c for c, pc in self.pieces.items() if pc.owner == owner and ctx.is_prince[pc.card])
            if ctx.rules["prince_succession"] and princes and self._king_cell(owner) is None:
                c = princes[0]
                pr = self.pieces[c]
                self.pieces[c] = Piece(owner, ctx.king, 0, 0, ctx.rules["king_cost"], 0, pr.moved, pr.travelled)
                self._changed = True
                self._count("succession", owner, c)
            elif self._king_cell(owner) is None:
                self._eliminate(owner)
        self._kings_lost = []
        if self._changed:
            self.quiet = 0
        else:
            self.quiet += 1
        if self._end_test():
            return
        r = ctx.rules
        if (r["quiet_limit"] and self.quiet >= r["quiet_limit"]) or (r["max_turns"] and self.turn_no >= r["max_turns"]):
            self.result = "draw"
            self.winner_team = None
            return
        self._advance(P)
        self.turn_no += 1
        self._start_turn(self.to_move)

    def _advance(self, P: int) -> None:
        n = len(self.ctx.players)
        for k in range(1, n + 1):
            cand = (P + k) % n
            if cand not in self.out:
                break
        if self.ctx.rules["lock_expiry"] == "round_end" and cand <= P:
            self.locks = set()
        self.to_move = cand

    def _end_test(self) -> bool:
        ctx = self.ctx
        teams = {ctx.team_of[p] for p in range(len(ctx.players)) if p not in self.out}
        if len(teams) <= 1:
            self.result = "win" if teams else "draw"
            self.winner_team = teams.pop() if teams else None
            return True
        return False

    def _eliminate(self, p: int) -> None:
        self._changed = True
        for c in [c for c, pc in self.pieces.items() if pc.owner == p]:
            del self.pieces[c]
        for sh in [sh for sh, pcell in self.shadows.items() if pcell not in self.pieces]:
            del self.shadows[sh]
        self.locks = {lk for lk in self.locks if p not in lk}
        self.out.add(p)
        self.protected.discard(p)
        self.ready.discard(p)
        self._count("elimination", p)

    def resign(self, player: int | str) -> None:
        """Eliminate ``player`` at once, even out of turn (B36, B54); undoable."""
        ctx = self.ctx
        p = ctx.pidx[player] if isinstance(player, str) else int(player)
        if not 0 <= p < len(ctx.players) or p in self.out:
            raise IllegalAction(f"resign: {player} is not an active player")
        if self.result is not None:
            raise IllegalAction("resign: the game is over")
        self._history.append((self._snapshot(), self._legal, self._sorted, self._jesters, self._att))
        self._fired = []
        self.log.append(f"resign:{ctx.players[p]}")
        self.moves += 1
        self._legal = None
        self._sorted = None
        self._eliminate(p)
        if self.phase == "setup":
            if not self._end_test():
                self._maybe_start_play()
            return
        if self._end_test():
            return
        if p == self.to_move:
            self._advance(p)
            self._start_turn(self.to_move)

    # ------------------------------------------------------------------ serialisation
    def piece_text(self, pc: Piece) -> str:
        """``owner:key[:facing]`` as scenario files write it."""
        card = self.ctx.cards[pc.card]
        text = f"{self.ctx.players[pc.owner]}:{card.key}"
        return text + f":{FACING_NAMES[pc.facing]}" if card.vector else text

    def to_dict(self) -> dict[str, Any]:
        """The whole state as JSON data (``GAME.state_from_dict`` inverts it exactly)."""
        ctx = self.ctx
        names = ctx.names
        pl = ctx.players
        pieces = {}
        for c in sorted(self.pieces):
            pc = self.pieces[c]
            pieces[names[c]] = {"piece": self.piece_text(pc), "levels": [lv for lv in range(32) if (pc.levels >> lv) & 1],
                                "cost": pc.cost, "trophies": pc.trophies, "moved": pc.moved, "travelled": pc.travelled}
        return {
            "game": "big-chess", "version": 1, "rules": ctx.rules.to_dict(),
            "cards": [c.to_data() for c in ctx.extra_cards] or None,
            "board": list(ctx.board.rows), "board_name": ctx.board.name,
            "facing": {k: FACING_NAMES[v] for k, v in sorted(ctx.board.facing.items())},
            "teams": ctx.teams_text, "phase": self.phase, "to_move": pl[self.to_move], "turn": self.turn_no,
            "quiet": self.quiet, "treasury": {pl[p]: self.treasury[p] for p in range(len(pl))}, "pieces": pieces,
            "shadows": {names[s]: names[self.shadows[s]] for s in sorted(self.shadows)},
            "protected": sorted(pl[p] for p in self.protected),
            "locks": sorted(f"{pl[a]}>{pl[b]}" for a, b in self.locks),
            "out": sorted(pl[p] for p in self.out), "ready": sorted(pl[p] for p in self.ready),
            "winner": None if self.winner_team is None else ctx.team_text[self.winner_team], "result": self.result,
            "move_number": self.moves, "counters": self.counters(), "buys": {k: list(v) for k, v in sorted(self.buys.items())},
            "lead10": self.lead10,
        }

    def position_dict(self) -> dict[str, Any]:
        """``to_dict`` without the history-only fields (what a scenario position can carry)."""
        d = self.to_dict()
        for k in ("move_number", "counters", "buys", "lead10", "board_name"):
            d.pop(k)
        return d

    def __str__(self) -> str:
        return self.observation_string()

    def observation_string(self, player: int | None = None) -> str:
        """The board as text (perfect information: every player sees everything)."""
        ctx = self.ctx
        lines = [f"big-chess {ctx.teams_text} phase {self.phase} turn {self.turn_no} to move "
                 f"{ctx.players[self.to_move]} quiet {self.quiet}" + (f" result {self.result}" if self.result else "")]
        for y in range(ctx.H):
            row = []
            for x in range(ctx.W):
                c = y * ctx.W + x
                pc = self.pieces.get(c)
                if pc is None:
                    ch = ctx.zone[c] or ctx.terrain[c]
                    row.append((" ~" + ch) if c in self.shadows else ("  " + (ch if ch != "0" else ".")))
                else:
                    row.append(ctx.players[pc.owner] + ctx.cards[pc.card].key[:2].capitalize())
            lines.append(" ".join(row))
        lines.append("treasury " + " ".join(f"{ctx.players[p]}={self.treasury[p]}" for p in range(len(ctx.players))))
        return "\n".join(lines)

    # ------------------------------------------------------------------ pictures and agents
    def glyphs(self) -> list[Glyph]:
        """Terrain class, piece code, owner, facing and badges (levels, trophies, treasury on the King)."""
        ctx = self.ctx
        out = []
        for c in range(ctx.N):
            terrain = "start" if ctx.zone[c] else TERRAIN_NAMES[ctx.terrain[c]]
            pc = self.pieces.get(c)
            marks = ("shadow",) if c in self.shadows else ()
            if pc is None:
                out.append(Glyph(cell=c, terrain=terrain, marks=marks))
                continue
            card = ctx.cards[pc.card]
            badges = [f"L{lv}" for lv in range(32) if (pc.levels >> lv) & 1]
            if pc.trophies:
                badges.append(f"t{pc.trophies}")
            if ctx.is_king[pc.card]:
                badges.append(f"${self.treasury[pc.owner]}")
            out.append(Glyph(cell=c, terrain=terrain, piece=card.key[:2].capitalize(), owner=pc.owner,
                             badges=tuple(badges), facing=45.0 * pc.facing if card.vector else None, marks=marks))
        return out

    def _reach(self, s: int, pc: Piece) -> set[int]:
        """Cells the piece on ``s`` could strike, take or area-hit (paths and rock checked, targets any)."""
        ctx = self.ctx
        card = ctx.cards[pc.card]
        f = pc.facing if card.vector else 0
        W, H = ctx.W, ctx.H
        sx, sy = s % W, s // W
        out: set[int] = set()
        for e in card.active(self.effective_levels(s)):
            if e.act not in ("strike", "take", "area"):
                continue
            for v in e.turned(f):
                if e.geom == "slide":
                    x, y = sx, sy
                    for k in range(1, (e.range or max(W, H)) + 1):
                        x += v[0]
                        y += v[1]
                        if not (0 <= x < W and 0 <= y < H):
                            break
                        c = y * W + x
                        if k >= e.min:
                            out.add(c)
                        if ctx.terrain[c] not in PATH_OK or c in self.pieces:
                            break
                else:
                    x, y = sx + v[0], sy + v[1]
                    if 0 <= x < W and 0 <= y < H:
                        out.add(y * W + x)
        return out

    def heat(self, layer: str, player: int) -> dict[int, float]:
        """Layers seen by ``player``: ``threat``: enemy pieces reaching each cell (the same for every member of
        its team: the threat to the team); ``attack``: the player's own pieces reaching each cell;
        ``team_attack``: its whole team's pieces; ``control``: team reach minus enemy reach; ``buy``: buy cells.

        Reach is what a piece could strike, take or hit by area there, paths and rock checked, whoever stands
        on the cell (a threat map, not a legal-move list)."""
        ctx = self.ctx
        own: Counter[int] = Counter()
        foe: Counter[int] = Counter()
        mine: Counter[int] = Counter()
        for c, pc in self.pieces.items():
            target = foe if self._enemy(player, pc.owner) else own
            for t in self._reach(c, pc):
                target[t] += 1
                if pc.owner == player:
                    mine[t] += 1
        if layer == "threat":
            return {c: float(v) for c, v in foe.items()}
        if layer == "attack":
            return {c: float(v) for c, v in mine.items()}
        if layer == "team_attack":
            return {c: float(v) for c, v in own.items()}
        if layer == "control":
            return {c: float(own[c] - foe[c]) for c in set(own) | set(foe)}
        if layer == "buy":
            king = self._king_cell(player)
            if king is None:
                return {}
            return {c: 1.0 for c in ctx.neighbors[king] if c not in self.pieces and ctx.terrain[c] not in "128"}
        return {}

    def evaluate(self, player: int) -> float:
        """Team material in infantry units (cost 10 = 1): own team minus the best other team; +-1e6 when finished.

        Material is what is on the board at its current cost, a King counting 1000 (so a King strike
        outranks any gain), plus treasury and trophies at 0.9: money not yet on the board is worth a
        little less than the piece it buys, so a one-ply player spends it (a purchase, a level, a
        promotion gains) instead of idling, and a Prince buy gains the piece and the enemy's loss. In
        the setup phase a vector piece facing its zone's facing gains 0.02 and a ready player 0.01
        (less than any placement's tenth of its cost), so a one-ply player places the costliest pieces
        it can pay, turns its pawns forward, and ends its setup when nothing more fits.
        """
        ctx = self.ctx
        if self.result == "win":
            return 1e6 if ctx.team_of[player] == self.winner_team else -1e6
        if self.result == "draw":
            return 0.0
        team_of = ctx.team_of
        # whole-number sums per team, then one float formula: the value does not depend on the order the
        # pieces are visited in, so the native core (which walks cells) computes the same float
        nt = len(ctx.team_members)
        material, money, tenths = [0] * nt, [0] * nt, [0] * nt
        for p in range(len(ctx.players)):
            if p not in self.out:
                money[team_of[p]] += self.treasury[p]
        is_king = ctx.is_king
        setup = self.phase == "setup"
        facing = ctx.board.facing
        for pc in self.pieces.values():
            t = team_of[pc.owner]
            material[t] += 1000 if is_king[pc.card] else pc.cost
            money[t] += pc.trophies
            if setup and ctx.cards[pc.card].vector and pc.facing == facing.get(ctx.players[pc.owner], -1):
                tenths[t] += 2
        if setup:
            for p in self.ready:
                tenths[team_of[p]] += 1
        per_team = [material[t] + 0.9 * money[t] + 0.1 * tenths[t] for t in range(nt)]
        mine = team_of[player]
        others = [v for i, v in enumerate(per_team) if i != mine]
        return (per_team[mine] - (max(others) if others else 0.0)) / 10.0

    def action_priority(self, action: Any) -> int:
        """Removals first (by the victim's cost), then promotions, purchases, moves; activations last."""
        d = self._legal_map().get(action)
        if d is None:
            return 0
        kind = d[0]
        if kind == "strike":
            t = self.pieces.get(d[2]) if d[4] is None else self.pieces.get(d[4])
            return 1000 + (t.cost if t else 0)
        if kind == "take":
            return 1000 + self.pieces[d[2]].cost
        if kind == "area":
            return 1000 + sum(self.pieces[c].cost for c in d[2])
        if kind == "pbuy":
            return 900
        if "=" in action:
            return 800
        if kind in ("buy", "transform"):
            return 100 + self.ctx.cost[d[1]] // 10
        return 0

    def action_cells(self, action: Any) -> list[int]:
        """Clicks: the piece then its target; a purchase's cell; the piece for an activation."""
        d = (self._legal if self._legal is not None else self._legal_map()).get(action)
        if d is None:
            return []
        return [d[i] for i in CLICKED.get(d[0], ())]

    def legal_action_cells(self) -> list[tuple[str, tuple[int, ...]]]:
        """Every legal action with its clicks (``action_cells``), in one pass over the generated map: a board asks it
        of each new position, 5,696 actions in a four-player setup."""
        if self._sorted is None:
            self._sorted = sorted(self._legal_map())
        legal = self._legal_map()
        none: tuple[int, ...] = ()
        out = []
        for a in self._sorted:
            d = legal[a]
            f = CLICKS_OF.get(d[0])
            out.append((a, f(d) if f is not None else none))
        return out

    def action_card(self, action: Any) -> dict[str, Any] | None:
        """The card a placement, purchase or transformation buys and its price (the board's card palette)."""
        d = self._legal_map().get(action)
        if d is None or d[0] not in ("place", "buy", "transform"):
            return None
        ctx = self.ctx
        k = d[2] if d[0] == "place" else d[1]
        card = ctx.cards[k]
        return {"card": card.key.replace("_", " ").capitalize(), "price": d[4] if d[0] == "transform" else ctx.cost[k],
                "first": ctx.is_king[k], "pattern": card.key, "name": card.name}

    def attackers(self) -> list[tuple[int, int, int]]:
        """Every removal a seat's pieces could make on its move (strikes, takes, area takes: 5.2, 5.3, 5): each
        seat in play is given the move in a copy of this position (its turn's start: its own shadows and locks
        expire, 11) and its own legal actions are read; none in the setup phase or once the game is over."""
        if self.result is not None or self.phase != "play":
            return []
        out: set[tuple[int, int, int]] = set()
        for p in range(len(self.ctx.players)):
            if p in self.out:
                continue
            probe = self
            if p != self.to_move:
                probe = self.clone()
                probe.to_move, probe._legal, probe._sorted = p, None, None
                probe._start_turn(p)
            for d in probe._legal_map().values():
                if d[0] == "strike":
                    out.add((d[1], d[2] if d[4] is None else d[4], p))
                elif d[0] == "take":
                    out.add((d[1], d[2], p))
                elif d[0] == "area":
                    out.update((d[1], c, p) for c in d[2])
        return sorted(out)

    def attack_lines(self) -> list[tuple[int, int, int]]:
        """The attackers of a King (the piece whose removal puts its owner out, 13)."""
        kings = {c for c, pc in self.pieces.items() if self.ctx.is_king[pc.card]}
        return [line for line in self.attackers() if line[1] in kings]

    def action_effects(self, action: Any) -> dict[str, Any]:
        """What the action removes or marks and whether it ends the turn (computed by playing it)."""
        d = self._legal_map().get(action)
        if d is None:
            return {}
        probe = self.clone()
        probe.apply_action(action)
        kind = d[0]
        removed: set[int] = set()
        if kind == "strike":
            removed.add(d[2] if d[4] is None else d[4])
        elif kind == "take":
            removed.add(d[2])
        elif kind == "area":
            removed.update(d[2])
        altar = [cell for name, _p, cell in probe.fired() if name == "altar"]
        if altar:
            removed.add(d[2] if kind == "push" and self.ctx.terrain[d[3]] == ALTAR else d[1])
        for c, pc in self.pieces.items():
            if pc.owner in probe.out and pc.owner not in self.out:
                removed.add(c)
        removed_list = sorted(removed)
        marks = sorted(set(probe.shadows) - set(self.shadows))
        return {"removed": removed_list, "marks": marks, "text": self._effect_words(action, d, probe, altar),
                "ends": probe.result is not None, "ends_turn": kind != "vet" and self.phase == "play"}

    def _piece_words(self, cell: int, own: int = -1) -> str:
        """``the knight of player b on 3,5`` (the piece standing on ``cell`` now), ``its knight on 3,5`` when it is
        seat ``own``'s (the sentence's subject)."""
        ctx = self.ctx
        pc = self.pieces.get(cell)
        if pc is None:
            return f"the empty cell {ctx.names[cell]}"
        card = ctx.cards[pc.card].key.replace("_", " ")
        if pc.owner == own:
            return f"its {card} on {ctx.names[cell]}"
        return f"the {card} of player {ctx.players[pc.owner]} on {ctx.names[cell]}"

    def _effect_words(self, action: str, d: tuple[Any, ...], probe: BigChessState, altar: list[Any]) -> str:
        """What ``action`` does, as a sentence the board's hover and move list read: ``3,3x4,4: the knight of player a
        on 3,3 strikes the pawn of player c on 4,4 (removed)``, then what the arrival cashed, who is out, the result."""
        ctx, names, kind = self.ctx, self.ctx.names, d[0]
        me = f"player {ctx.players[self.to_move]}" if self.phase == "play" else ""
        card = ctx.cards
        if kind == "move":
            said = f"{self._piece_words(d[1])} moves to {names[d[2]]}" + (" (approach to its Prince, 7.3)" if d[5] == "approach" else "")
        elif kind == "strike":
            victim = d[2] if d[4] is None else d[4]
            said = f"{self._piece_words(d[1])} strikes {self._piece_words(victim)} (removed, 5.2)"
            if d[4] is not None:
                said += f" through its shadow on {names[d[2]]} (9.3)"
        elif kind == "take":
            said = f"{self._piece_words(d[1])} takes {self._piece_words(d[2])} (removed; the taker stays, 5.3)"
        elif kind == "push":
            said = f"{self._piece_words(d[1])} pushes {self._piece_words(d[2])} to {names[d[3]]} (5.4)"
        elif kind == "area":
            said = f"{self._piece_words(d[1])} takes every enemy around it: " + ", ".join(self._piece_words(c) for c in d[2])
        elif kind == "buy":
            said = f"{me} buys {_a(card[d[1]].key)} on {names[d[2]]} for {ctx.cost[d[1]]} (10.1)"
        elif kind == "transform":
            said = f"{me} turns {self._piece_words(d[2], self.to_move)} into {_a(card[d[1]].key)} for {d[4]} (10.2)"
        elif kind == "pbuy":
            said = f"{me}'s Prince buys {self._piece_words(d[1])} for {self.pieces[d[1]].cost} (10.3)"
        elif kind == "vet":
            said = f"{self._piece_words(d[1])} gains level {d[2]} for {d[3]} trophies (10)"
        elif kind == "place":
            facing = f" facing {FACING_NAMES[d[4]]}" if card[d[2]].vector else ""
            said = f"player {ctx.players[d[1]]} places {_a(card[d[2]].key)} on {names[d[3]]}{facing}"
        elif kind == "remove":
            said = f"player {ctx.players[d[1]]} takes {self._piece_words(d[2], d[1])} off the board"
        elif kind == "reloc":
            said = f"player {ctx.players[d[1]]} moves {self._piece_words(d[2], d[1])} to {names[d[3]]}"
        elif kind == "ready":
            said = f"player {ctx.players[d[1]]} is ready (13)"
        else:
            said = f"{me} passes" if me else action
        if len(d) > 5 and kind in ("move", "strike") and (d[5] if kind == "strike" else d[6] if len(d) > 6 else None):
            said += f", promoted to {_a(str(d[5] if kind == 'strike' else d[6]))} (10.4)"
        if altar:
            said += "; the altar cashes the piece that arrives on it"
        gone = sorted(set(probe.out) - set(self.out))
        if gone:
            said += "; " + ", ".join(f"player {ctx.players[p]}" for p in gone) + (" is" if len(gone) == 1 else " are") + " out"
        if probe.result == "win" and probe.winner_team is not None:
            team = ", ".join(ctx.players[p] for p in ctx.team_members[probe.winner_team])
            said += f"; ends the game: {'player' if len(ctx.team_members[probe.winner_team]) == 1 else 'team'} {team} wins"
        elif probe.result is not None:
            said += f"; ends the game: {probe.result}"
        return f"{action}: {said}"
