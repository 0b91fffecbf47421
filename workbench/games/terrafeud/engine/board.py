"""The terrain of one game: river, crossings, castles, season, hill and swamp.

A ``Board`` is immutable and built once per game from the ``RulesConfig`` and the game's seed
(which draws the ``rolled`` terrain). It turns the terrain rules into per-hex boolean tables so
move generation never asks "is this a summer ford" at run time beyond one list lookup.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .boarddata import board_data
from .geometry import ADJACENT, BETWEEN, HEXES, MAX_DISTANCE, N_HEXES, RING, hex_name, parse_hex, qy
from .rules import RulesConfig, RulesError

WHITE, BLACK = 0, 1
SIDE_NAMES = ("white", "black")


def side_of_half(h: int) -> int | None:
    """WHITE for rows below the river, BLACK above, None on the river band."""
    y = qy(h)[1]
    rows = board_data()["river_rows"]
    if y < rows[0]:
        return WHITE
    if y > rows[-1]:
        return BLACK
    return None


@dataclass(frozen=True)
class Terrain:
    """Where the hill and swamp of each side are (None when off)."""

    hills: tuple[int | None, int | None]
    swamps: tuple[int | None, int | None]

    def to_dict(self) -> dict[str, dict[str, str | None]]:
        """JSON-ready: ``{"hills": {"white": "h4", ...}, "swamps": {...}}``."""
        return {
            "hills": {SIDE_NAMES[s]: _name(self.hills[s]) for s in (WHITE, BLACK)},
            "swamps": {SIDE_NAMES[s]: _name(self.swamps[s]) for s in (WHITE, BLACK)},
        }


def _name(h: int | None) -> str | None:
    return None if h is None else hex_name(h)


def resolve_terrain(rules: RulesConfig, seed: int | None) -> Terrain:
    """Place hill and swamp per the rules: explicit hexes, ``fixed`` (UA) or ``rolled`` (EN, seeded).

    The rolled draw is hill White, hill Black, swamp White, swamp Black from ``random.Random(seed)``,
    each uniform over its three candidates, independently (not mirrored).
    """
    data = board_data()
    rng = random.Random(seed if seed is not None else 0)
    out: dict[str, list[int | None]] = {}
    for kind, on, explicit in (("hill", rules.hill, rules.hills), ("swamp", rules.swamp, rules.swamps)):
        cands = data["terrain_candidates"][kind]
        chosen: list[int | None] = [None, None]
        explicit_map = dict(explicit or ())
        for s, side in enumerate(SIDE_NAMES):
            if rules.terrain == "rolled":
                pick = rng.choice(cands[side])  # always drawn, so toggles never shift other draws
            else:
                pick = data["terrain_fixed"][kind][side]
            if side in explicit_map and explicit_map[side] is None:
                chosen[s] = None  # named as none: this side has none (SCENARIO-FORMAT)
                continue
            if side in explicit_map:
                pick = explicit_map[side]
                h = parse_hex(pick)
                if pick not in cands[side] and side_of_half(h) != s:
                    raise RulesError(
                        f"{kind} of {side} on {pick}: must be one of {', '.join(cands[side])} "
                        f"or a land hex of {side}'s half"
                    )
            chosen[s] = parse_hex(pick) if on else None
        out[kind] = chosen
    return Terrain(hills=tuple(out["hill"]), swamps=tuple(out["swamp"]))  # type: ignore[arg-type]


class Board:
    """Terrain tables for one game. Built once; shared by every state of the game."""

    def __init__(self, rules: RulesConfig, terrain: Terrain) -> None:
        data = board_data()
        self.rules = rules
        self.terrain = terrain
        self.winter = rules.season == "winter"
        rows = set(data["river_rows"])
        # Crossings are rule parameters (issue 11); RulesConfig checked they lie on the river.
        self.bridges = frozenset(parse_hex(n) for n in rules.bridges)
        self.fords = frozenset(parse_hex(n) for n in rules.fords)
        self.river = frozenset(h for h in HEXES if qy(h)[1] in rows) - self.bridges - self.fords
        self.castle_centre = (parse_hex(data["castle_centre"]["white"]), parse_hex(data["castle_centre"]["black"]))
        self.castle_zone = tuple(frozenset((c, *ADJACENT[c])) for c in self.castle_centre)
        self.hills = frozenset(h for h in terrain.hills if h is not None)
        # swamp_owner[h]: side owning a swamp on h, or -1
        self.swamp_owner = [-1] * N_HEXES
        for s in (WHITE, BLACK):
            h = terrain.swamps[s]
            if h is not None:
                self.swamp_owner[h] = s
        summer_river = set() if self.winter else set(self.river)
        summer_ford = set() if self.winter else set(self.fords)
        self.is_bridge = [h in self.bridges for h in HEXES]
        # The bridges where the knight's bridge stop applies (none with knight_bridge_stop=false).
        self.knight_bridge = self.is_bridge if rules.knight_bridge_stop else [False] * N_HEXES
        self.is_summer_ford = [h in summer_ford for h in HEXES]
        # Who may stand on a hex: every non-cavalry piece except the knight on summer fords.
        self.walkable = [h not in summer_river for h in HEXES]
        self.knight_walkable = [h not in summer_river and h not in summer_ford for h in HEXES]
        # stop_for[s][h]: a multi-hex mover of side s must stop on h (enemy swamp or summer ford);
        # pikeman zones and mines are dynamic and checked by the state.
        self.stop_for = [
            [self.swamp_owner[h] == 1 - s or h in summer_ford for h in HEXES] for s in (WHITE, BLACK)
        ]
        self.cavalry_stop_for = [[self.swamp_owner[h] == 1 - s for h in HEXES] for s in (WHITE, BLACK)]
        self.is_hill = [h in self.hills for h in HEXES]
        # steps[h]: the neighbours a 1-hex mover may stand on (the summer river removed).
        self.steps = [tuple(n for n in ADJACENT[h] if self.walkable[n]) for h in HEXES]
        # promotes[s][h]: h is in side s's enemy castle zone but is not its centre (W13); all False
        # with promotion=false.
        self.promotes = [
            [rules.promotion and h in self.castle_zone[1 - s] and h != self.castle_centre[1 - s] for h in HEXES]
            for s in (WHITE, BLACK)
        ]
        # Rule parameters read on the hot path, copied here once.
        self.archer_range = rules.archer_range
        self.aura_radius = rules.aura_radius
        self.aura_step = rules.aura_step
        self.aura_memory = rules.aura_memory
        self.coordinated = rules.coordinated
        self.order_size = rules.order_size
        self.order_radius = rules.order_radius
        self.castling_uses = rules.castling_uses
        # shot_targets[h]: the hexes an archer on h may mark, nearest ring first (W8): distance
        # archer_range, and from a hill also archer_range+1 .. archer_range+hill_bonus.
        self.shot_targets = [
            tuple(t for d in range(rules.archer_range, min(rules.archer_range + (rules.hill_bonus if self.is_hill[h] else 0), MAX_DISTANCE) + 1)
                  for t in RING[d][h])
            for h in HEXES
        ]
        # shot_lines[h]: (target, hexes strictly between) for each shot target, for the generator.
        self.shot_lines = [tuple((t, BETWEEN[(h, t)]) for t in self.shot_targets[h]) for h in HEXES]

    def kind_of(self, h: int) -> str:
        """Terrain name of a hex for pictures: river, ford, bridge, or land."""
        if h in self.bridges:
            return "bridge"
        if h in self.fords:
            return "ford"
        if h in self.river:
            return "river"
        return "land"
