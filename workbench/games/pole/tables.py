"""Per-rules tables (``Config``): costs, zones, rays and success counts, built once per ``Rules``.

Everything the hot path needs is a tuple indexed by ints: ``zone_rays[kind][cell]`` lists the rays of
a kind's attack zone from a cell, ``ride_rays[cell]`` the rider's paths, ``fort_of[cell]`` the fortress
a cell belongs to. Built from the contract's geometry (sections 1, 6, 7), cached by the ``Rules``.
"""

from __future__ import annotations

from functools import lru_cache

from workbench.core.rulespec import Rules

from .board import ADJ4, ADJ8, CELLS, DIAGONAL, ORTHOGONAL, ray
from .rules import KIND_DATA, LETTERS, SPEC, B, C, P, S, fortress_cells

ZONE_NONE, ZONE_MELEE, ZONE_ARCHER, ZONE_CATAPULT = range(4)
MOVE_NONE, MOVE_STEP8, MOVE_STEP4, MOVE_RIDE = range(4)
_ZONES = {"none": ZONE_NONE, "melee": ZONE_MELEE, "archer": ZONE_ARCHER, "catapult": ZONE_CATAPULT}
_MOVES = {"immobile": MOVE_NONE, "step8": MOVE_STEP8, "step4": MOVE_STEP4, "ride": MOVE_RIDE}
KIND_ZONE = tuple(_ZONES[k["zone"]] for k in KIND_DATA)
KIND_MOVE = tuple(_MOVES[k["moves"]] for k in KIND_DATA)


def count_outcomes(threshold2: int) -> int:
    """How many of the 36 (r_a, r_d) have 2 * (r_a - r_d) > threshold2 (doubled to stay in integers)."""
    return sum(1 for ra in range(1, 7) for rd in range(1, 7) if 2 * (ra - rd) > threshold2)


_COUNT2 = {t: count_outcomes(t) for t in range(-24, 25)}


def successes(threshold2: int) -> int:
    """``count_outcomes`` through a table (thresholds beyond +-24 are certain or hopeless)."""
    if threshold2 < -24:
        return 36
    if threshold2 > 24:
        return 0
    return _COUNT2[threshold2]


class Config:
    """The rules as tables. ``rules`` is the validated ``Rules``; the rest is derived from it."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        r = rules
        self.cost = tuple(r[f"cost_{ch}"] if ch != "P" else 0 for ch in LETTERS)
        self.damage = tuple(r[f"damage_{ch}"] for ch in LETTERS)
        self.armour = tuple(r[f"armour_{ch}"] for ch in LETTERS)
        self.ppt: int = r["purchases_per_turn"]
        self.income: int = r["income"]
        self.income_start = r["income_timing"] == "start"
        self.buy_first = r["turn_order"] == "buy_first"
        self.start_coins: int = r["start_coins"]
        self.max_turns: int = r["max_turns"]
        self.draw_after: int | None = r["draw_after"]
        self.attack_all = r["attack_mode"] == "all"
        self.blocking = r["shot_blocking"]
        self.ride_jump: bool = r["ride_jump"]
        self.rounding_down = r["fortress_rounding"] == "down"
        self.inside_halved = r["fortress_inside"] == "halved"
        self.fortress_buildings: bool = r["fortress_buildings"]
        self.tower_infantry: int = r["tower_infantry"]
        self.forts = (fortress_cells(r["fortress_red"]), fortress_cells(r["fortress_black"]))
        fort_of = [0] * 100
        for side, cells in enumerate(self.forts):
            for c in cells:
                fort_of[c] = side + 1
        self.fort_of = tuple(fort_of)
        zones = []
        for cells in self.forts:
            z = set(cells)
            for c in cells:
                z.update(ADJ8[c])
            zones.append(z)
        self.own_zone = (tuple(sorted(zones[0])), tuple(sorted(zones[1])))
        if r["placement_fortress"] == "any":
            both = tuple(sorted(zones[0] | zones[1]))
            self.place_zone = (both, both)
        else:
            self.place_zone = self.own_zone
        # attack ability (P41): a zone and damage > 0; barracks and stables never attack
        self.can_attack = tuple(KIND_ZONE[k] != ZONE_NONE and self.damage[k] > 0 and k not in (B, S) for k in range(8))
        self.kind_zone = KIND_ZONE
        self.kind_move = KIND_MOVE
        # zone rays: per zone kind, per cell, a tuple of (cells at distance 1..hi, lo)
        dead = r["catapult_dead"]
        spec = {
            ZONE_MELEE: ((ORTHOGONAL + DIAGONAL, 1, 1),),
            ZONE_ARCHER: ((ORTHOGONAL, 1, r["archer_orth"]), (DIAGONAL, 1, r["archer_diag"])),
            ZONE_CATAPULT: ((ORTHOGONAL, dead + 1, r["catapult_orth"]), (DIAGONAL, dead + 1, r["catapult_diag"])),
        }
        rays: list[tuple] = [()] * 4
        flat: list[tuple] = [()] * 4
        for zone, parts in spec.items():
            per_cell = []
            per_flat = []
            for c in CELLS:
                rs = []
                cells: set[int] = set()
                for dirs, lo, hi in parts:
                    for d in dirs:
                        full = tuple(ray(c, d, 1, hi))
                        if len(full) >= lo:
                            rs.append((full, lo))
                            cells.update(full[lo - 1:])
                per_cell.append(tuple(rs))
                per_flat.append(tuple(sorted(cells)))
            rays[zone] = tuple(per_cell)
            flat[zone] = tuple(per_flat)
        self.zone_rays = tuple(rays)
        self.zone_flat = tuple(flat)
        self.zone_sets = tuple(tuple(frozenset(cells) for cells in per) for per in flat)
        self.blocked_kinds = tuple(
            self.blocking == "all" and KIND_ZONE[k] in (ZONE_ARCHER, ZONE_CATAPULT)
            or self.blocking == "except_catapult" and KIND_ZONE[k] == ZONE_ARCHER
            for k in range(8))
        self.ride_rays = tuple(
            tuple(tuple(ray(c, d, 1, r["ride_orth"])) for d in ORTHOGONAL if ray(c, d, 1, 1))
            + tuple(tuple(ray(c, d, 1, r["ride_diag"])) for d in DIAGONAL if ray(c, d, 1, 1))
            for c in CELLS)
        self.step8 = ADJ8
        self.step4 = ADJ4
        # doubled effective damage: [kind][0 = full, 1 = halved]
        self.d2 = tuple((2 * d, 2 * (d // 2) if self.rounding_down else d) for d in self.damage)

    def halved(self, attacker: int, target: int) -> bool:
        """Fortress rule (section 8): target on a fortress cell, attacker not in that same fortress."""
        f = self.fort_of[target]
        return bool(f) and (self.inside_halved or self.fort_of[attacker] != f)

    def threshold2(self, akind: int, attacker: int, tkind: int, target: int) -> int:
        """Success iff 2 * (r_a - r_d) > this value."""
        return 2 * self.armour[tkind] - self.d2[akind][1 if self.halved(attacker, target) else 0]

    def success_count(self, akind: int, attacker: int, tkind: int, target: int) -> int:
        """Successes out of 36 of this attack."""
        return successes(self.threshold2(akind, attacker, tkind, target))

    def prince_cell(self, side: int) -> int:
        """P34: the own fortress cell nearest the own back rank, then the lower file."""
        cells = self.forts[side]
        if side == 0:
            return min(cells, key=lambda c: (c % 10, c // 10))
        return min(cells, key=lambda c: (-(c % 10), c // 10))


@lru_cache(maxsize=64)
def config(rules: Rules) -> Config:
    """The tables of ``rules`` (cached: rules are immutable and hashable)."""
    return Config(rules)


def default_config() -> Config:
    """Tables of the contract's default rules."""
    return config(SPEC.defaults())


__all__ = ["Config", "config", "default_config", "count_outcomes", "successes", "C", "P"]
