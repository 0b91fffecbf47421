"""The Cursed Lands engine: one mutable ``State`` on the workbench protocol (contract sections 2-11).

The board is flat int lists indexed by hex (``owner``, ``kind``, ``hp``, ``mark``, ``tile``, ``terrain``);
``terrain`` is the effective terrain (tile, camp plain, castle, void) so movement and shooting read one
list. Undo keeps a snapshot of those lists per action (81 ints each: cheaper and surer than inverse
operations). Legal actions are ints (see ``actions``) listed in code-point order of their canonical
strings (C51), and cached until the next change.

Deliberately left out: drawing, agents, tables (other layers do them over the protocol).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from workbench.core.protocol import TERMINAL, ClickStep, IllegalAction, State
from workbench.core.rulespec import Rules

from . import actions as act
from .deck import CODE_NAMES, FOREST, HILL, LETTERS, MOUNTAIN, PLAIN, ROAD, VOID, splitmix64
from .geometry import DISTANCE, HEX_NAMES, NEIGHBOURS, NUM_HEXES, RAYS, SIZE, WITHIN, hex_of, row
from .notation import NotationError, Parsed, camp_text, read_action
from .rules import (
    DWARVES,
    ELVES,
    FACTIONS,
    KIND_WORDS,
    KINDS,
    ORCS,
    RANGED,
    SIDES,
    C,
    S,
    unit_table,
)

CASTLE = 6  # effective terrain code of a castle hex (it has no terrain)
NO_CAMP, CAMP_CASTLE, CAMP_FLAG, CAMP_FREE = range(4)
ACTIVATED, FRESH = 1, 2
CAMP_ROWS = (1, 9)
_OPENNESS = (0, 1, 1, 1, 1, 2, 0)  # by terrain code: void, plain, road, forest, hill, mountain, castle

COUNTER_NAMES: tuple[str, ...] = (
    *(f"tiles_placed_{t}" for t in ("plain", "road", "forest", "hill", "mountain")),
    *(f"produced_{k}" for k in KINDS),
    *(f"attacks_{k}" for k in KINDS),
    "activations", "moves", "castle_attacks", "castle_damage", "units_destroyed", "forest_cover",
    "hill_range_bonus", "forest_range_penalty", "mountain_range_penalty", "road_bonus",
    "dwarf_mountain_entries", "counterattacks", "zero_damage_attacks",
)
_CI = {name: i for i, name in enumerate(COUNTER_NAMES)}
NC = len(COUNTER_NAMES)

RULE_WORDS: dict[str, str] = {
    **{f"tiles_placed_{t}": f"{t} tiles placed (section 7)" for t in ("plain", "road", "forest", "hill", "mountain")},
    **{f"produced_{k}": f"{w}s produced (section 4)" for k, w in zip(KINDS, KIND_WORDS, strict=True)},
    **{f"attacks_{k}": f"attacks made by a {w} (section 8)" for k, w in zip(KINDS, KIND_WORDS, strict=True)},
    "activations": "unit activations (section 4)",
    "moves": "activations that moved (section 5)",
    "castle_attacks": "attacks on the enemy castle (section 9)",
    "castle_damage": "HP taken off the enemy castle (section 9)",
    "units_destroyed": "enemy units removed, counterattacks included (section 8)",
    "forest_cover": "attacks on this side's units softened by forest cover (section 6, C17, C18)",
    "hill_range_bonus": "shots from a hill with the +range bonus (section 6)",
    "forest_range_penalty": "shots from a forest with the -range penalty (section 6)",
    "mountain_range_penalty": "shots whose line of fire crossed a mountain (section 8, C15)",
    "road_bonus": "activations that needed the road's +movement (section 5, C10)",
    "dwarf_mountain_entries": "dwarf units entering a mountain (section 5, C14)",
    "counterattacks": "melee counterattacks struck (counterattack=melee, C21)",
    "zero_damage_attacks": "attacks that dealt 0 damage (C11)",
}


class CursedState(State):
    """One position of The Cursed Lands. Build it with ``GAME.new_initial_state`` or a scenario position."""

    # ------------------------------------------------------------------ construction
    def __init__(self, rules: Rules, seed: int = 0) -> None:
        self.rules = rules
        self.seed = seed
        self.units = unit_table(rules)
        self._read_rules(rules)
        self.factions = [0, 0]
        self.phase = "play"
        self.to_move = 0
        self.ap = 0
        self.turn_no = 1
        self.tiles_placed = 0
        self.castle_hp = [rules["castle_hp"], rules["castle_hp"]]
        self.camps: list[tuple[int, tuple[int, int, int, int]] | None] = [None, None]
        self.camp_kind = [NO_CAMP] * NUM_HEXES
        self.tile = [VOID] * NUM_HEXES
        self.terrain = [PLAIN if self.untiled_plain else VOID] * NUM_HEXES
        self.owner = [-1] * NUM_HEXES
        self.kind = [0] * NUM_HEXES
        self.hp = [0] * NUM_HEXES
        self.mark = [0] * NUM_HEXES
        self.unit_count = [0, 0]
        self.decks: list[list[int]] = [[], []]
        self.winner_side: int | None = None
        self.victory_kind: str | None = None
        self.counts = [0] * (2 * NC)
        self.last_fired: list[tuple[str, int, int | None]] = []
        self.history: list[tuple[Any, ...]] = []
        self.played: list[int] = []  # the actions behind ``history``, for records
        self.moves_played = 0
        self._legal: list[int] | None = None
        self._legal_set: frozenset[int] | None = None

    def _read_rules(self, rules: Rules) -> None:
        self.untiled_plain = rules["untiled"] == "plain"
        self.tiles_on_camp = rules["tiles_on_camp"]
        self.produce_cost = [rules[f"produce_cost_{k}"] for k in KINDS]
        self.activation_cost = rules["activation_cost"]
        self.attack_cost = rules["activation_cost"] + rules["attack_extra_cost"]
        self.tile_cost = rules["tile_cost"]
        self.tiles_per_turn = rules["tiles_per_turn"]
        self.max_mountains = rules["max_mountains_per_row"]
        self.hill_bonus = rules["hill_range_bonus"]
        self.forest_penalty = rules["forest_range_penalty"]
        self.mountain_penalty = rules["mountain_range_penalty"]
        self.cover = rules["forest_cover"]
        self.counter_melee = rules["counterattack"] == "melee"
        self.elf_ignore_all = rules["elf_cover_ignore"] == "all"
        self.orc_cover = rules["orc_forest_cover"]
        self.auto_zero = rules["auto_end"] == "zero_ap"
        self.turn_limit = rules["turn_limit"]
        self.starting_units = rules["starting_units"]
        # with every cost >= 1 nothing but end is legal at 0 AP, so C40's test needs no generation
        self.all_costs_positive = min(self.produce_cost + [self.activation_cost, self.tile_cost]) >= 1

    # ------------------------------------------------------------------ board helpers
    def set_camp(self, side: int, castle: int, flags: tuple[int, int, int, int]) -> None:
        """Put ``side``'s castle and flags (hex ids by kind S, A, C, R) in its row; the rest is free plain."""
        self.camps[side] = (castle, flags)
        for h in range(hex_of(0, CAMP_ROWS[side]), hex_of(0, CAMP_ROWS[side]) + SIZE):
            self.camp_kind[h] = CAMP_CASTLE if h == castle else CAMP_FLAG if h in flags else CAMP_FREE
            self._refresh_terrain(h)

    def _refresh_terrain(self, h: int) -> None:
        ck = self.camp_kind[h]
        if ck == CAMP_CASTLE:
            self.terrain[h] = CASTLE
        elif self.tile[h]:
            self.terrain[h] = self.tile[h]
        elif ck != NO_CAMP or self.untiled_plain:
            self.terrain[h] = PLAIN
        else:
            self.terrain[h] = VOID

    def put_tile(self, h: int, code: int) -> None:
        """Lay (or with VOID clear) the tile of hex ``h``."""
        self.tile[h] = code
        self._refresh_terrain(h)

    def put_unit(self, h: int, side: int, kind: int, hp: int | None = None) -> None:
        """Place a unit (full HP for its faction unless ``hp``)."""
        self.owner[h] = side
        self.kind[h] = kind
        self.hp[h] = self.full_hp(side, kind) if hp is None else hp
        self.mark[h] = 0
        self.unit_count[side] += 1

    def remove_unit(self, h: int) -> None:
        """Take the unit off hex ``h``."""
        self.unit_count[self.owner[h]] -= 1
        self.owner[h] = -1
        self.kind[h] = 0
        self.hp[h] = 0
        self.mark[h] = 0

    def full_hp(self, side: int, kind: int) -> int:
        """Full HP of ``side``'s unit of ``kind`` under its faction (section 10)."""
        return self.units.hp[self.factions[side]][kind]

    def castle_of(self, side: int) -> int:
        """Hex of ``side``'s castle, or -1 before its camp is placed."""
        camp = self.camps[side]
        return camp[0] if camp else -1

    def flag_of(self, side: int, kind: int) -> int:
        """Hex of ``side``'s flag of ``kind`` (-1 before its camp is placed)."""
        camp = self.camps[side]
        return camp[1][kind] if camp else -1

    def deck_top(self, side: int) -> int | None:
        """Terrain code of the top tile of ``side``'s deck, None when empty."""
        deck = self.decks[side]
        return deck[0] if deck else None

    # ------------------------------------------------------------------ protocol: queries
    def current_player(self) -> int:
        """The side to move (0 = p1, 1 = p2), or TERMINAL once won or drawn."""
        return TERMINAL if self.is_terminal() else self.to_move

    def is_terminal(self) -> bool:
        """True after a castle or elimination win, or a draw at ``turn_limit`` (section 11)."""
        return self.victory_kind is not None

    def returns(self) -> list[float]:
        """+1 for the winner, -1 for the loser, 0 each for a draw or a running game."""
        if self.winner_side is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.winner_side == 0 else [-1.0, 1.0]

    def winner(self) -> int | None:
        """Index of the winning side, or None."""
        return self.winner_side

    def outcome(self) -> str:
        """``win``, ``draw`` (turn_limit) or ``ongoing``."""
        if self.victory_kind is None:
            return "ongoing"
        return "draw" if self.winner_side is None else "win"

    def victory(self) -> str | None:
        """``castle``, ``elimination``, ``draw`` or None (section 11)."""
        return self.victory_kind

    def move_number(self) -> int:
        """Actions applied since this state was created or loaded."""
        return self.moves_played

    def turn(self) -> int:
        """The contract's ``turn``: 0 in the setup phase, 1 during the first turn."""
        return self.turn_no

    # ------------------------------------------------------------------ movement and targets
    def allowance(self, h: int) -> int:
        """Movement at the start of the activation of the unit on ``h`` (kind, faction, road bonus; section 5)."""
        side, k = self.owner[h], self.kind[h]
        f = self.factions[side]
        m = self.units.move[f][k]
        if self.terrain[h] == ROAD:
            m += self.units.road[f]
        return m

    def reach(self, h: int, open_: list[int] | None = None) -> dict[int, int]:
        """Hex -> most movement left there, over every legal path of the unit on ``h`` (C9); ``h`` included.

        Breadth-first in layers: every step costs 1, so the first layer that reaches a hex leaves the most
        movement. ``open_`` (1 = enterable plain-like, 2 = mountain, 0 = closed) may be passed in by a caller
        that computes it once for many units.
        """
        if open_ is None:
            open_ = self.open_hexes()
        dwarf = self.factions[self.owner[h]] == DWARVES
        lc = self.allowance(h)
        best = {h: lc}
        frontier = [h]
        while frontier and lc > 0:
            lc -= 1
            nxt = []
            for cur in frontier:
                for n in NEIGHBOURS[cur]:
                    o = open_[n]
                    if o == 0 or n in best:
                        continue
                    if o == 2:
                        if dwarf:
                            best[n] = 0  # entering a mountain takes all movement and stops (section 5, C14)
                        continue
                    best[n] = lc
                    nxt.append(n)
            frontier = nxt
        return best

    def open_hexes(self) -> list[int]:
        """Per hex: 0 closed (a unit, a castle, void), 2 mountain, 1 enterable (section 5)."""
        return [0 if o >= 0 else _OPENNESS[t] for o, t in zip(self.owner, self.terrain, strict=True)]

    def shot_range(self, at: int, side: int, kind: int) -> int:
        """Range of a ranged unit of ``side``/``kind`` shooting from ``at`` (hill bonus, forest penalty)."""
        f = self.factions[side]
        rng = self.units.range[kind]
        t = self.terrain[at]
        if t == HILL and f != ORCS:
            rng += self.hill_bonus
        elif t == FOREST and f != ELVES:
            rng -= self.forest_penalty
        return rng

    def targets_from(self, at: int, side: int, kind: int) -> list[int]:
        """Hexes a unit of ``side``/``kind`` standing on ``at`` may attack: enemy units and the enemy castle."""
        enemy = 1 - side
        castle = self.castle_of(enemy)
        owner = self.owner
        if not RANGED[kind]:
            return [n for n in NEIGHBOURS[at] if owner[n] == enemy or n == castle]
        rng = self.shot_range(at, side, kind)
        pen = self.mountain_penalty
        terrain = self.terrain
        out = []
        for ray in RAYS[at]:
            m = 0
            for k, t in enumerate(ray, 1):
                if k > rng - pen * m:
                    break
                if owner[t] == enemy or t == castle:
                    out.append(t)
                if terrain[t] == MOUNTAIN:
                    m += 1
        return out

    def mountains_between(self, at: int, target: int) -> int:
        """Mountain hexes strictly between ``at`` and ``target`` on their straight line (C15)."""
        for ray in RAYS[at]:
            if target in ray:
                return sum(1 for t in ray[: ray.index(target)] if self.terrain[t] == MOUNTAIN)
        return 0

    def can_activate(self, h: int) -> bool:
        """True for a unit of the side to move that is neither activated nor fresh (section 4)."""
        return self.owner[h] == self.to_move and self.mark[h] == 0

    # ------------------------------------------------------------------ tiles
    def tile_hexes(self, side: int) -> list[int]:
        """Hexes where ``side``'s top tile may go now (section 7 rules 2-4; AP and limits aside)."""
        top = self.deck_top(side)
        if top is None:
            return []
        tile, camp_kind, owner = self.tile, self.camp_kind, self.owner
        out = []
        for h in range(NUM_HEXES):
            if tile[h] or owner[h] >= 0:
                continue
            ck = camp_kind[h]
            if ck != NO_CAMP and not (ck == CAMP_FREE and self.tiles_on_camp):
                continue
            if not any(tile[n] or camp_kind[n] for n in NEIGHBOURS[h]):
                continue
            if top == MOUNTAIN and not self.mountain_fits(h):
                continue
            out.append(h)
        return out

    def mountain_fits(self, h: int) -> bool:
        """A mountain on ``h`` has no mountain neighbour and its row holds fewer than the row limit."""
        if any(self.tile[n] == MOUNTAIN for n in NEIGHBOURS[h]):
            return False
        r0 = (row(h) - 1) * SIZE
        return sum(1 for x in range(r0, r0 + SIZE) if self.tile[x] == MOUNTAIN) < self.max_mountains

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self, player: int | None = None) -> list[int]:
        """Legal actions of the side to move, in code-point order of their canonical strings (C51).

        In the setup phase the list is a lazy ``CampActions`` sequence (C45).
        """
        if self.is_terminal() or (player is not None and player != self.to_move):
            return []
        if self.phase == "setup":
            return act.CampActions(self.starting_units)  # type: ignore[return-value]
        if self._legal is None:
            self._legal = self._generate()
            self._legal_set = frozenset(self._legal)
        return list(self._legal)

    def _generate(self) -> list[int]:
        p, ap = self.to_move, self.ap
        out = [act.END]
        owner = self.owner
        for k in range(4):
            if ap >= self.produce_cost[k] and owner[self.flag_of(p, k)] < 0:
                out.append(act.PRODUCE + k)
        if ap >= self.tile_cost and (not self.tiles_per_turn or self.tiles_placed < self.tiles_per_turn):
            out.extend(act.TILE + h for h in self.tile_hexes(p))
        can_move = ap >= self.activation_cost
        can_attack = ap >= self.attack_cost
        if can_move or can_attack:
            enemy = 1 - p
            goals = [h for h in range(NUM_HEXES) if owner[h] == enemy]
            castle = self.castle_of(enemy)
            if castle >= 0:
                goals.append(castle)
            mark, kind = self.mark, self.kind
            open_ = self.open_hexes()
            zones: dict[int, frozenset[int]] = {}
            for h in range(NUM_HEXES):
                if owner[h] != p or mark[h]:
                    continue
                k = kind[h]
                left = self.reach(h, open_)
                if can_move:
                    base = act.MOVE + h * NUM_HEXES
                    out.extend(base + t for t in left if t != h)
                if not can_attack or not goals:
                    continue
                # an attack can only come from a hex near a goal (pruning only; targets_from decides)
                longest = min(16, self.units.range[k] + self.hill_bonus if RANGED[k] else 1)
                zone = zones.get(longest)
                if zone is None:
                    zone = zones[longest] = frozenset().union(*(WITHIN[longest][g] for g in goals))
                if h in zone:
                    base = act.ATTACK + h * NUM_HEXES
                    out.extend(base + g for g in self.targets_from(h, p, k))
                for t, lt in left.items():
                    if lt >= 1 and t != h and t in zone:
                        base = act.MOVE_ATTACK + (h * NUM_HEXES + t) * NUM_HEXES
                        out.extend(base + g for g in self.targets_from(t, p, k))
        out.sort(key=act.SORT_KEY.__getitem__)
        return out

    def is_legal(self, a: int) -> bool:
        """Membership test without copying the list."""
        if self.is_terminal():
            return False
        if self.phase == "setup":
            return act.camp_is_valid(a, self.starting_units)
        if self._legal_set is None:
            self.legal_actions()
        assert self._legal_set is not None
        return a in self._legal_set

    def legal_count(self) -> int:
        """Number of legal actions (the setup phase counts its camps without listing them)."""
        return len(self.legal_actions())

    def destinations(self, h: int) -> list[int]:
        """Move-only final hexes of the unit on ``h``, read off the legal actions (C50)."""
        if self.phase == "setup":
            return []
        lo, hi = act.MOVE + h * NUM_HEXES, act.MOVE + (h + 1) * NUM_HEXES
        return sorted(a - lo for a in self.legal_actions() if lo <= a < hi)

    def targets(self, h: int) -> list[int]:
        """Hexes the unit on ``h`` may attack without moving, read off the legal actions (C50)."""
        if self.phase == "setup":
            return []
        lo, hi = act.ATTACK + h * NUM_HEXES, act.ATTACK + (h + 1) * NUM_HEXES
        return sorted(a - lo for a in self.legal_actions() if lo <= a < hi)

    # ------------------------------------------------------------------ apply / undo
    def _snapshot(self) -> tuple[Any, ...]:
        return (self.owner[:], self.kind[:], self.hp[:], self.mark[:], self.tile[:], self.terrain[:],
                self.camp_kind[:], list(self.camps), self.unit_count[:], self.castle_hp[:],
                [d[:] for d in self.decks], self.phase, self.to_move, self.ap, self.turn_no, self.tiles_placed,
                self.winner_side, self.victory_kind, self.counts[:], self.last_fired, self.moves_played,
                self._legal, self._legal_set)

    def _restore(self, snap: tuple[Any, ...]) -> None:
        (owner, kind, hp, mark, tile, terrain, camp_kind, camps, unit_count, castle_hp, decks, self.phase,
         self.to_move, self.ap, self.turn_no, self.tiles_placed, self.winner_side, self.victory_kind, counts,
         self.last_fired, self.moves_played, legal, legal_set) = snap
        self.owner, self.kind, self.hp, self.mark = owner[:], kind[:], hp[:], mark[:]
        self.tile, self.terrain, self.camp_kind = tile[:], terrain[:], camp_kind[:]
        self.camps, self.unit_count, self.castle_hp = list(camps), unit_count[:], castle_hp[:]
        self.decks = [d[:] for d in decks]
        self.counts = counts[:]
        self._legal, self._legal_set = legal, legal_set  # never mutated: shared safely

    def apply_action(self, action: Any) -> None:
        """Play ``action`` (an int of ``actions``); ``IllegalAction`` with the rule when it is not legal."""
        if not isinstance(action, int) or isinstance(action, bool) or not self.is_legal(action):
            raise IllegalAction(self._why_not(action))
        self.history.append(self._snapshot())
        self.played.append(action)
        self._legal = self._legal_set = None
        self.last_fired = []
        self.moves_played += 1
        if self.phase == "setup":
            self._apply_camp(action)
            return
        kind, f, t, g = act.decode(action)
        p = self.to_move
        if kind == "end":
            self._end_turn()
            return
        if kind == "produce":
            h = self.flag_of(p, f)
            self.put_unit(h, p, f)
            self.mark[h] = FRESH
            self.ap -= self.produce_cost[f]
            self._count(p, f"produced_{KINDS[f]}")
            self.last_fired.append((f"produced_{KINDS[f]}", p, h))
        elif kind == "tile":
            code = self.decks[p].pop(0)
            self.put_tile(t, code)
            self.tiles_placed += 1
            self.ap -= self.tile_cost
            self._count(p, f"tiles_placed_{CODE_NAMES[code]}")
            self.last_fired.append((f"tiles_placed_{CODE_NAMES[code]}", p, t))
        else:
            self._activate(p, f, t, g)
        if not self.is_terminal() and self.ap == 0:
            if self.auto_zero or self.all_costs_positive or self.legal_actions() == [act.END]:
                self._end_turn()  # automatic end (C40)
                self._legal = self._legal_set = None

    def _count(self, side: int, name: str, by: int = 1) -> None:
        self.counts[side * NC + _CI[name]] += by

    def _activate(self, p: int, f: int, t: int, g: int) -> None:
        """One activation: a move, an attack, or a move then an attack (sections 4, 5, 8)."""
        k = self.kind[f]
        fac = self.factions[p]
        self._count(p, "activations")
        self.ap -= self.attack_cost if g >= 0 else self.activation_cost
        at = f
        if t != f:
            left = self.reach(f)
            allowance = left[f]
            base = self.units.move[fac][k]
            used = allowance - left[t]
            if allowance > base and used > base - (1 if g >= 0 else 0):
                self._count(p, "road_bonus")
                self.last_fired.append(("road_bonus", p, f))
            if self.terrain[t] == MOUNTAIN:
                self._count(p, "dwarf_mountain_entries")
                self.last_fired.append(("dwarf_mountain_entries", p, t))
            self.owner[t], self.kind[t], self.hp[t] = p, k, self.hp[f]
            self.owner[f], self.kind[f], self.hp[f], self.mark[f] = -1, 0, 0, 0
            self._count(p, "moves")
            at = t
        self.mark[at] = ACTIVATED
        if g >= 0:
            self._attack(p, at, g)

    def _ignores_cover(self, side: int, kind: int) -> bool:
        return self.factions[side] == ELVES and (self.elf_ignore_all or RANGED[kind])

    def _damage(self, side: int, kind: int, target: int) -> int:
        """Damage of ``side``'s ``kind`` on the unit at ``target`` (orc bonus in the table; forest cover)."""
        dmg = self.units.attack[self.factions[side]][kind]
        if self._covered(side, kind, target):
            dmg -= self.cover
        return max(0, dmg)

    def _covered(self, side: int, kind: int, target: int) -> bool:
        if self.terrain[target] != FOREST or self.cover <= 0 or self._ignores_cover(side, kind):
            return False
        return self.orc_cover or self.factions[self.owner[target]] != ORCS

    def _attack(self, p: int, at: int, g: int) -> None:
        k = self.kind[at]
        e = 1 - p
        self._count(p, f"attacks_{KINDS[k]}")
        if RANGED[k]:
            terrain = self.terrain[at]
            fac = self.factions[p]
            if terrain == HILL and fac != ORCS and self.hill_bonus:
                self._count(p, "hill_range_bonus")
                self.last_fired.append(("hill_range_bonus", p, at))
            elif terrain == FOREST and fac != ELVES and self.forest_penalty:
                self._count(p, "forest_range_penalty")
                self.last_fired.append(("forest_range_penalty", p, at))
            if self.mountain_penalty and self.mountains_between(at, g):
                self._count(p, "mountain_range_penalty")
                self.last_fired.append(("mountain_range_penalty", p, g))
        if g == self.castle_of(e):
            dmg = max(0, self.units.attack[self.factions[p]][k])
            before = self.castle_hp[e]
            self.castle_hp[e] = max(0, before - dmg)
            self._count(p, "castle_attacks")
            self._count(p, "castle_damage", before - self.castle_hp[e])
            self.last_fired.append(("castle_damage", p, g))
            self.last_fired.append(("castle_hit_from", p, at))
            if dmg == 0:
                self._count(p, "zero_damage_attacks")
            if self.castle_hp[e] == 0:
                self._win(p, "castle")
            return
        if self._covered(p, k, g):
            self._count(e, "forest_cover")
            self.last_fired.append(("forest_cover", e, g))
        dmg = self._damage(p, k, g)
        if dmg == 0:
            self._count(p, "zero_damage_attacks")
        self.hp[g] -= dmg
        if self.hp[g] <= 0:
            self.remove_unit(g)
            self._count(p, "units_destroyed")
            self.last_fired.append(("units_destroyed", p, g))
            if self.unit_count[e] == 0:
                self._win(p, "elimination")
            return
        if self.counter_melee and k in (S, C) and self.kind[g] in (S, C):
            kd = self.kind[g]
            if self._covered(e, kd, at):
                self._count(p, "forest_cover")
            dmg2 = self._damage(e, kd, at)
            self._count(e, "counterattacks")
            self.last_fired.append(("counterattacks", e, at))
            self.hp[at] -= dmg2
            if self.hp[at] <= 0:
                self.remove_unit(at)
                self._count(e, "units_destroyed")
                self.last_fired.append(("units_destroyed", e, at))
                if self.unit_count[p] == 0:
                    self._win(e, "elimination")  # counter-kill (C41)

    def _win(self, side: int, how: str) -> None:
        self.winner_side = side
        self.victory_kind = how
        self.last_fired.append((f"victory_{how}", side, None))

    def _end_turn(self) -> None:
        """End the side's turn: draw at ``turn_limit`` (C42), else the other side's turn begins (section 3)."""
        if self.turn_limit and self.turn_no >= self.turn_limit:
            self.victory_kind = "draw"
            self.last_fired.append(("draw_turn_limit", self.to_move, None))
            return
        self.to_move = 1 - self.to_move
        self.ap = self.rules["ap_per_turn"]
        self.mark = [0] * NUM_HEXES
        self.tiles_placed = 0
        self.turn_no += 1

    def _apply_camp(self, a: int) -> None:
        p = self.to_move
        castle_col, flag_cols, units = act.decode_camp(a, self.starting_units)
        r = CAMP_ROWS[p]
        flags = tuple(hex_of(c, r) for c in flag_cols)
        self.set_camp(p, hex_of(castle_col, r), (flags[0], flags[1], flags[2], flags[3]))
        for c, k in units:
            self.put_unit(hex_of(c, r), p, k)
        self.last_fired.append(("camp", p, hex_of(castle_col, r)))
        if p == 0:
            self.to_move = 1
            return
        self.phase = "play"
        self.to_move = 0 if self.rules["first_player"] == "p1" else 1
        self.turn_no = 1
        self.ap = self.rules["ap_first_turn"]
        self.tiles_placed = 0

    def undo_action(self) -> None:
        """Take back the last action exactly."""
        if not self.history:
            raise IllegalAction("undo: no action to take back")
        self._restore(self.history.pop())
        self.played.pop()

    def clone(self) -> CursedState:
        """An independent copy, undo history included (snapshots are never mutated, so they are shared)."""
        new = CursedState.__new__(CursedState)
        new.__dict__.update(self.__dict__)
        new.owner, new.kind, new.hp, new.mark = self.owner[:], self.kind[:], self.hp[:], self.mark[:]
        new.tile, new.terrain, new.camp_kind = self.tile[:], self.terrain[:], self.camp_kind[:]
        new.camps, new.unit_count, new.castle_hp = list(self.camps), self.unit_count[:], self.castle_hp[:]
        new.decks = [d[:] for d in self.decks]
        new.counts = self.counts[:]
        new.factions = self.factions[:]
        new.history = list(self.history)
        new.played = list(self.played)
        return new

    # ------------------------------------------------------------------ notation
    def action_to_string(self, action: Any) -> str:
        """Canonical notation (section 15); a tile shows the top tile's letter (``#e2=f``)."""
        return self._text(action, with_tile=True)

    def agent_string(self, action: Any) -> str:
        """The action as an agent of the side to move sees it: ``#h`` without ``=t`` when the top is hidden (C46)."""
        return self._text(action, with_tile=self.rules["deck_top_visible"])

    def _text(self, action: Any, with_tile: bool) -> str:
        if not isinstance(action, int) or isinstance(action, bool) or action < 0:
            raise IllegalAction(f"{action!r} is not an action of {self.rules.spec.game}")
        kind, f, t, g = act.decode(action)
        if kind == "end":
            return "end"
        if kind == "produce":
            return "+" + KINDS[f]
        if kind == "tile":
            top = self.deck_top(self.to_move)
            return f"#{HEX_NAMES[t]}" + (f"={LETTERS[top - PLAIN]}" if with_tile and top is not None else "")
        if kind == "move":
            return f"{HEX_NAMES[f]}-{HEX_NAMES[t]}"
        if kind == "attack":
            return f"{HEX_NAMES[f]}x{HEX_NAMES[g]}"
        if kind == "move_attack":
            return f"{HEX_NAMES[f]}-{HEX_NAMES[t]}x{HEX_NAMES[g]}"
        if not act.camp_is_valid(action, self.starting_units):
            raise IllegalAction(f"{action} is not a camp action under starting_units={self.starting_units}")
        castle, flags, units = act.decode_camp(action, self.starting_units)
        r = CAMP_ROWS[self.to_move]
        return camp_text(hex_of(castle, r), [hex_of(c, r) for c in flags], [(hex_of(c, r), k) for c, k in units])

    def parse(self, text: str) -> int:
        """The action ``text`` names, legal or not; ``IllegalAction`` when it names none."""
        try:
            parsed = read_action(text)
        except NotationError as exc:
            raise IllegalAction(str(exc)) from None
        except ValueError as exc:
            raise IllegalAction(f"{str(text)[:40]}: {exc}") from None
        return self._encode(parsed, str(text))

    def _encode(self, p: Parsed, text: str) -> int:
        if p.kind == "end":
            return act.END
        if p.kind == "produce":
            return act.PRODUCE + p.unit_kind
        if p.kind == "tile":
            return act.TILE + p.to
        if p.kind == "move":
            return act.move_action(p.frm, p.to)
        if p.kind == "attack":
            return act.attack_action(p.frm, p.target)
        if p.kind == "move_attack":
            return act.move_attack_action(p.frm, p.to, p.target)
        return self._encode_camp(p, text)

    def _encode_camp(self, p: Parsed, text: str) -> int:
        short = " ".join(text.split())[:60]
        if self.phase != "setup":
            raise IllegalAction(f"{short}: camp is played only in the setup phase (setup_phase, C44)")
        side = self.to_move
        r = CAMP_ROWS[side]
        hexes = [("castle", p.castle)] + [(KINDS[k], p.flags[k]) for k in (2, 0, 1, 3)]
        for name, h in hexes + [(f"unit {KINDS[k]}", h) for h, k in p.units]:
            if row(h) != r:
                raise IllegalAction(f"{short}: {name}={HEX_NAMES[h]} is not in {SIDES[side]}'s camp row {r} (section 2)")
        if len({h for _, h in hexes}) != 5:
            raise IllegalAction(f"{short}: castle and the four flags must be five different hexes (section 2, C47)")
        if len(p.units) != self.starting_units:
            raise IllegalAction(f"{short}: camp places exactly starting_units={self.starting_units} units, "
                                f"not {len(p.units)} (C43)")
        if len({h for h, _ in p.units}) != len(p.units):
            raise IllegalAction(f"{short}: starting units stand on different hexes (C43)")
        if any(h == p.castle for h, _ in p.units):
            raise IllegalAction(f"{short}: a starting unit may not stand on the castle (C26)")
        flags = [h % SIZE for h in p.flags]
        return act.camp_action(p.castle % SIZE, flags, [(h % SIZE, k) for h, k in p.units], self.starting_units)

    def string_to_action(self, text: str) -> int:
        """The legal action ``text`` names here (input notation); ``IllegalAction`` naming the failed rule."""
        a = self.parse(text)
        parsed = read_action(text)
        if parsed.kind == "tile" and parsed.tile is not None and self.is_legal(a):
            top = self.deck_top(self.to_move)
            if top is None or LETTERS[top - PLAIN] != parsed.tile:
                raise IllegalAction(f"{' '.join(text.split())}: the top tile of {SIDES[self.to_move]}'s deck is "
                                    f"{CODE_NAMES[top] if top else 'absent'}, not {CODE_NAMES[PLAIN + LETTERS.index(parsed.tile)]} "
                                    "(section 15)")
        if not self.is_legal(a):
            raise IllegalAction(self._why_not(a, text))
        return a

    def agent_string_to_action(self, text: str) -> int:
        """As an agent submits it: under ``deck_top_visible=false`` a ``#h=t`` is refused (C46)."""
        if not self.rules["deck_top_visible"] and "=" in text and text.strip().startswith("#"):
            raise IllegalAction(f"{text.strip()[:20]}: the deck top is hidden (deck_top_visible=false); "
                                "an agent submits #h without =t (C46)")
        return self.string_to_action(text)

    def explain_illegal(self, text: str) -> str:
        """Why ``text`` is not legal here, naming the first rule that fails."""
        try:
            self.string_to_action(text)
        except IllegalAction as exc:
            return str(exc)
        return f"{' '.join(str(text).split())} is legal"

    # ------------------------------------------------------------------ reasons
    def _why_not(self, a: Any, text: str | None = None) -> str:
        """The first rule an illegal action breaks, in the rulebook's words."""
        if not isinstance(a, int) or isinstance(a, bool) or a < 0:
            return f"{a!r} is not an action of cursed-lands"
        try:
            shown = " ".join(text.split()) if text else self._text(a, with_tile=True)
        except IllegalAction as exc:
            return str(exc)
        if self.is_terminal():
            return f"{shown}: the game is over ({self.victory_kind}); nothing more is played (section 11)"
        if self.phase == "setup":
            return f"{shown}: in the setup phase only camp is legal (C44)"
        kind, f, t, g = act.decode(a)
        p = self.to_move
        side = SIDES[p]
        if kind == "camp":
            return f"{shown}: camp is played only in the setup phase (setup_phase, C44)"
        if kind == "produce":
            flag = self.flag_of(p, f)
            if self.owner[flag] >= 0:
                return f"{shown}: {side}'s {KIND_WORDS[f]} flag {HEX_NAMES[flag]} is occupied (C13, C34)"
            return f"{shown}: needs {self.produce_cost[f]} AP, {side} has {self.ap} (section 4)"
        if kind == "tile":
            return self._why_not_tile(shown, p, t)
        unit = f
        if self.owner[unit] < 0:
            return f"{shown}: no unit on {HEX_NAMES[unit]}"
        if self.owner[unit] != p:
            return f"{shown}: the unit on {HEX_NAMES[unit]} belongs to {SIDES[self.owner[unit]]}, {side} is to move"
        if self.mark[unit] == FRESH:
            return f"{shown}: the unit on {HEX_NAMES[unit]} was produced this turn and cannot act (section 4)"
        if self.mark[unit] == ACTIVATED:
            return f"{shown}: the unit on {HEX_NAMES[unit]} has already activated this turn (section 4)"
        need = self.attack_cost if g >= 0 else self.activation_cost
        if self.ap < need:
            return f"{shown}: the activation needs {need} AP, {side} has {self.ap} (section 3)"
        at = unit
        if kind in ("move", "move_attack"):
            left = self.reach(unit)
            if t not in left:
                return f"{shown}: {self._why_unreachable(unit, t)}"
            if kind == "move_attack" and left[t] < 1:
                why = ("entering a mountain takes all movement (C14)" if self.terrain[t] == MOUNTAIN
                       else "no movement is left there")
                return f"{shown}: an attack after moving needs at least 1 movement left at {HEX_NAMES[t]}; {why} (section 4)"
            at = t
        if g >= 0:
            return f"{shown}: {self._why_not_target(at, p, self.kind[unit], g)}"
        return f"{shown}: not legal here"

    def _why_unreachable(self, unit: int, t: int) -> str:
        name = HEX_NAMES[t]
        ter = self.terrain[t]
        if self.owner[t] >= 0:
            return f"{name} holds a unit (section 5)"
        if ter == CASTLE:
            return f"{name} is a castle; no unit may enter it (C12)"
        if ter == VOID:
            return f"{name} is void (untiled, untiled=void, C2)"
        if ter == MOUNTAIN and self.factions[self.owner[unit]] != DWARVES:
            return f"{name} is a mountain, impassable except to dwarves (section 6)"
        return f"{name} is out of reach: {self.allowance(unit)} movement and no path (section 5)"

    def _why_not_target(self, at: int, p: int, k: int, g: int) -> str:
        e = 1 - p
        name = HEX_NAMES[g]
        if self.owner[g] == p or g == self.castle_of(p):
            return f"{name} is {SIDES[p]}'s own; there is no friendly fire (C22)"
        if self.owner[g] != e and g != self.castle_of(e):
            what = "a flag" if self.camp_kind[g] == CAMP_FLAG else "empty"
            return f"{name} is {what}; targets are enemy units and the enemy castle (section 8)"
        if not RANGED[k]:
            return f"{name} is not adjacent to {HEX_NAMES[at]}; a {KIND_WORDS[k]} attacks in melee (section 8)"
        if not any(g in ray for ray in RAYS[at]):
            return f"{name} is not on a straight line from {HEX_NAMES[at]} (section 8)"
        rng = self.shot_range(at, p, k)
        m = self.mountains_between(at, g)
        return (f"{name} is at distance {DISTANCE[at][g]}, beyond range {rng} - {self.mountain_penalty} x {m} "
                f"mountain(s) from {HEX_NAMES[at]} (section 8)")

    def _why_not_tile(self, shown: str, p: int, h: int) -> str:
        side = SIDES[p]
        name = HEX_NAMES[h]
        top = self.deck_top(p)
        if top is None:
            return f"{shown}: {side}'s deck is empty (section 7 rule 1, C30)"
        if self.ap < self.tile_cost:
            return f"{shown}: placing a tile needs {self.tile_cost} AP, {side} has {self.ap} (section 3)"
        if self.tiles_per_turn and self.tiles_placed >= self.tiles_per_turn:
            return f"{shown}: tiles_per_turn={self.tiles_per_turn} tiles already placed this turn (C4)"
        ck = self.camp_kind[h]
        if self.tile[h]:
            return f"{shown}: {name} already has a tile; tiles are permanent (section 7 rule 2)"
        if ck in (CAMP_CASTLE, CAMP_FLAG):
            return f"{shown}: {name} is a {'castle' if ck == CAMP_CASTLE else 'flag'} hex (section 7 rule 2, C3)"
        if ck == CAMP_FREE and not self.tiles_on_camp:
            return f"{shown}: {name} is a camp hex; tiles_on_camp is false (section 7 rule 2, C3)"
        if self.owner[h] >= 0:
            return f"{shown}: {name} holds a unit (section 7 rule 2)"
        if not any(self.tile[n] or self.camp_kind[n] for n in NEIGHBOURS[h]):
            return f"{shown}: {name} touches no camp hex and no placed tile (section 7 rule 3)"
        if top == MOUNTAIN:
            if any(self.tile[n] == MOUNTAIN for n in NEIGHBOURS[h]):
                return f"{shown}: the top tile is a mountain and {name} has a mountain neighbour (section 7 rule 4)"
            return (f"{shown}: the top tile is a mountain and row {row(h)} already holds "
                    f"max_mountains_per_row={self.max_mountains} mountains (section 7 rule 4, C31)")
        return f"{shown}: not legal here"

    # ------------------------------------------------------------------ information
    def view(self, player: int, seed: int = 0) -> CursedState:
        """A copy for ``player``'s agent: what no player can know (the order below each deck's top, and the top
        too under ``deck_top_visible=false``) reshuffled from ``seed`` (C5, C46). No undo history."""
        new = self.clone()
        new.history = []
        new.played = []
        gen = splitmix64(seed)
        keep = 1 if self.rules["deck_top_visible"] else 0
        for deck in new.decks:
            rest = deck[keep:]
            for i in range(len(rest) - 1, 0, -1):
                j = next(gen) % (i + 1)
                rest[i], rest[j] = rest[j], rest[i]
            deck[keep:] = rest
        if not keep:
            new._match_offered_tiles(self)
        new._legal = new._legal_set = None
        return new

    def _match_offered_tiles(self, real: CursedState) -> None:
        """Under a hidden top, make this view's top consistent with the list the agent is offered (C5, C46).

        The agent receives the real legal list with the tile stripped (``agent_list``), so its view must
        allow exactly those placements: when the reshuffled top would place on other hexes (a mountain
        against any other tile, section 7 rule 4), the first tile below it of the real top's class
        (mountain or not) is swapped up. Without this an agent picked ``#h`` from its view that the real
        top forbids, and the game ended in an error row. The native core's ``view`` does the same.
        """
        p = real.to_move
        if real.is_terminal() or real.phase != "play" or real.ap < real.tile_cost:
            return
        if real.tiles_per_turn and real.tiles_placed >= real.tiles_per_turn:
            return
        if self.tile_hexes(p) == real.tile_hexes(p):
            return
        deck, want = self.decks[p], real.deck_top(p) == MOUNTAIN
        for i in range(1, len(deck)):
            if (deck[i] == MOUNTAIN) == want:
                deck[0], deck[i] = deck[i], deck[0]
                return

    def observation_string(self, player: int | None = None) -> str:
        """The board as text for ``player``: every unit, tile, castle, AP and mark; of each deck only its size and,
        when ``deck_top_visible``, its top (section 7)."""
        lines = [f"turn {self.turn_no} {self.phase} to_move {SIDES[self.to_move]} ap {self.ap} "
                 f"tiles_placed {self.tiles_placed}"]
        for side in (0, 1):
            top = self.deck_top(side)
            shown = "?" if not self.rules["deck_top_visible"] else (LETTERS[top - PLAIN] if top else "-")
            lines.append(f"{SIDES[side]} {FACTIONS[self.factions[side]]} castle {self.castle_hp[side]} "
                         f"deck {len(self.decks[side])} top {shown}")
        if self.victory_kind:
            lines.append(f"over: {self.victory_kind} winner {SIDES[self.winner_side] if self.winner_side is not None else 'none'}")
        for r in range(SIZE, 0, -1):
            cells = []
            for q in range(SIZE):
                h = hex_of(q, r)
                cells.append(self._cell_text(h))
            lines.append(("  " if r % 2 == 0 else "") + f"{r} " + " ".join(cells))
        return "\n".join(lines)

    def _cell_text(self, h: int) -> str:
        if self.owner[h] >= 0:
            letter = KINDS[self.kind[h]]
            letter = letter if self.owner[h] == 0 else letter.lower()
            mark = "*" if self.mark[h] == ACTIVATED else "+" if self.mark[h] == FRESH else ""
            return f"{letter}{self.hp[h]}{mark}".ljust(3)
        ck = self.camp_kind[h]
        if ck == CAMP_CASTLE:
            side = 0 if row(h) == 1 else 1
            return ("K" if side == 0 else "k") + str(self.castle_hp[side]).ljust(2)
        if ck == CAMP_FLAG:
            side = 0 if row(h) == 1 else 1
            k = self.camps[side][1].index(h) if self.camps[side] else 0
            return "F" + KINDS[k] + " "
        ter = self.terrain[h]
        return (".  " if ter == VOID else LETTERS[ter - PLAIN] + "  ") if ter != CASTLE else "#  "

    def summary(self, player: int | None = None) -> dict[str, Any]:
        """What a status bar shows (the board): phase, turn, side to move, AP, castle HP, each deck's count and
        top (None when hidden from ``player`` under ``deck_top_visible=false``, or empty), and the result."""
        visible = self.rules["deck_top_visible"]
        decks = {}
        for side in (0, 1):
            top = self.deck_top(side)
            decks[SIDES[side]] = {"count": len(self.decks[side]),
                                  "top": CODE_NAMES[top] if top is not None and visible else None}
        return {"phase": self.phase, "turn": self.turn_no, "to_move": SIDES[self.to_move], "ap": self.ap,
                "tiles_placed": self.tiles_placed, "factions": {SIDES[s]: FACTIONS[self.factions[s]] for s in (0, 1)},
                "castle_hp": {SIDES[s]: self.castle_hp[s] for s in (0, 1)}, "decks": decks,
                "winner": None if self.winner_side is None else SIDES[self.winner_side], "victory": self.victory_kind}

    def __str__(self) -> str:
        return self.observation_string()

    def __repr__(self) -> str:
        return f"<CursedState turn {self.turn_no} {SIDES[self.to_move]} ap {self.ap} {self.victory_kind or 'running'}>"

    # ------------------------------------------------------------------ usage
    def counters(self) -> dict[str, list[int]]:
        """Rule-usage counters since the start: rule name -> [p1, p2]."""
        return {name: [self.counts[i], self.counts[NC + i]] for i, name in enumerate(COUNTER_NAMES)}

    def fired(self) -> list[tuple[str, int, int | None]]:
        """The rules the last action fired: ``(rule, side, hex or None)``, named as the counters are.

        Cells: the flag for production, the tile's hex, the hex where a unit was removed, the castle hit
        (``castle_damage``) and the attacker's hex (``castle_hit_from``), the covered unit's hex, the
        shooter's hex for range modifiers (the target's for ``mountain_range_penalty``).
        """
        return list(self.last_fired)

    # The position writer (position.py) and the pictures, evaluation and effects (insight.py) live in
    # their own modules, so this file stays the rules.
    def glyphs(self) -> list[Any]:
        """What every hex shows (insight.glyphs)."""
        from .insight import glyphs

        return glyphs(self)

    def heat(self, layer: str, player: int) -> dict[int, float]:
        """``threat`` or ``control`` for ``player`` (insight.heat)."""
        from .insight import heat

        return heat(self, layer, player)

    def evaluate(self, player: int) -> float:
        """Static evaluation in castle-HP units (insight.evaluate documents the terms)."""
        from .insight import evaluate

        return evaluate(self, player)

    def action_priority(self, action: Any) -> int:
        """Castle attacks first, then attacks, production, moves, tiles, end."""
        from .insight import action_priority

        return action_priority(self, action)

    def action_cells(self, action: Any) -> list[int]:
        """Unit, destination, target (or the tile's hex)."""
        from .insight import action_cells

        return action_cells(self, action)

    def click_step(self, cells: Sequence[int]) -> ClickStep | None:
        """A camp built by clicks in the setup phase (C45): castle, flags C S A R, then the starting units' hexes,
        the units' kinds chosen by button; in play, the default (every action's click cells)."""
        if self.phase != "setup" or self.is_terminal():
            return super().click_step(cells)
        from .insight import camp_step

        return camp_step(self, cells)

    def attackers(self) -> list[tuple[int, int, int]]:
        """Every attack a unit could make on its side's next activation (``insight.attackers``)."""
        from .insight import attackers

        return attackers(self)

    def attack_lines(self) -> list[tuple[int, int, int]]:
        """The attackers of a castle (the win condition, section 8)."""
        castles = {self.castle_of(0), self.castle_of(1)} - {-1}
        return [line for line in self.attackers() if line[1] in castles]

    def action_effects(self, action: Any) -> dict[str, Any]:
        """Removed units, damaged hexes, a sentence, and whether it ends the game."""
        from .insight import action_effects

        return action_effects(self, action)

    def to_dict(self) -> dict[str, Any]:
        """The whole state as JSON-ready data (position keys, rules, seed, move count)."""
        from .position import state_to_dict

        return state_to_dict(self)


__all__ = ["CursedState", "COUNTER_NAMES", "RULE_WORDS", "CASTLE", "ACTIVATED", "FRESH", "CAMP_ROWS"]
