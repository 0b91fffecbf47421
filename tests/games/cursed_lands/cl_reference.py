"""A second, deliberately naive reading of the contract, to judge the engine's legal actions and damage.

It uses only the contract's formulas (offset -> axial, cube distance, direction steps, path enumeration
by depth-first search over every path), reads the engine's public position (``position_of``) and never
imports the engine's tables. Slow and obvious by design.
"""

from __future__ import annotations

from typing import Any

COLS = "abcdefghi"
DIRS = [(1, 0), (-1, 0), (0, 1), (-1, 1), (1, -1), (0, -1)]
KINDS = "SACR"


def axial(name: str) -> tuple[int, int]:
    q, y = COLS.index(name[0]), int(name[1]) - 1
    return q - (y - (y & 1)) // 2, y


def name_of(x: int, z: int) -> str | None:
    if not 0 <= z <= 8:
        return None
    q = x + (z - (z & 1)) // 2
    return COLS[q] + str(z + 1) if 0 <= q <= 8 else None


def neighbours(h: str) -> list[str]:
    x, z = axial(h)
    return [n for dx, dz in DIRS if (n := name_of(x + dx, z + dz))]


class Reference:
    """Legal actions (as canonical strings) of a position dict under a rules mapping."""

    def __init__(self, rules: dict[str, Any], pos: dict[str, Any]) -> None:
        self.r = rules
        self.p = pos
        self.side = pos["to_move"]
        self.fac = pos["factions"]
        self.units = pos["units"]
        self.tiles = pos.get("tiles", {})
        self.camps = pos["camps"]
        self.camp_hexes = {}
        for s, camp in self.camps.items():
            if camp:
                row = "1" if s == "p1" else "9"
                for c in COLS:
                    self.camp_hexes[c + row] = s
        self.castles = {camp["castle"]: s for s, camp in self.camps.items() if camp}
        self.flags = {h: s for s, camp in self.camps.items() if camp for h in camp["flags"].values()}

    def owner(self, h: str) -> str | None:
        u = self.units.get(h)
        return None if u is None else ("p1" if u.isupper() else "p2")

    def terrain(self, h: str) -> str:
        if h in self.castles:
            return "castle"
        if h in self.tiles:
            return self.tiles[h]
        if h in self.camp_hexes or self.r["untiled"] == "plain":
            return "plain"
        return "void"

    def stat(self, side: str, kind: str, what: str) -> int:
        f = self.fac[side]
        if what == "move":
            m = self.r[f"move_{kind}"]
            if f == "dwarves" and kind != "C":
                m = max(1, m - self.r["dwarf_move_penalty"])
            return m
        if what == "attack":
            return self.r[f"attack_{kind}"] + (self.r["orc_attack_bonus"] if f == "orcs" else 0)
        raise KeyError(what)

    def allowance(self, h: str) -> int:
        side, kind = self.owner(h), self.units[h].upper()
        m = self.stat(side, kind, "move")
        f = self.fac[side]
        if self.terrain(h) == "road" and (f in ("humans", "elves") or (f == "dwarves" and self.r["dwarf_road_bonus"])):
            m += self.r["road_bonus"]
        return m

    def destinations(self, h: str) -> dict[str, int]:
        """Every path by depth-first search; the best movement left at each hex."""
        dwarf = self.fac[self.owner(h)] == "dwarves"
        best: dict[str, int] = {}

        def walk(cur: str, left: int, seen: frozenset[str]) -> None:
            for n in neighbours(cur):
                if n in seen or n in self.units or self.terrain(n) in ("void", "castle"):
                    continue
                if self.terrain(n) == "mountain":
                    if dwarf and left >= 1:
                        best[n] = max(best.get(n, -1), 0)
                    continue
                if left >= 1:
                    best[n] = max(best.get(n, -1), left - 1)
                    walk(n, left - 1, seen | {n})

        walk(h, self.allowance(h), frozenset([h]))
        best.pop(h, None)
        return best

    def targets(self, at: str, side: str, kind: str) -> list[str]:
        enemy = "p2" if side == "p1" else "p1"
        ecastle = self.camps[enemy]["castle"]

        def is_target(t: str) -> bool:
            return self.owner(t) == enemy or t == ecastle

        if kind in "SC":
            return [n for n in neighbours(at) if is_target(n)]
        rng = self.r["range_A"] if kind == "A" else self.r["range_R"]
        f = self.fac[side]
        if self.terrain(at) == "hill" and f != "orcs":
            rng += self.r["hill_range_bonus"]
        if self.terrain(at) == "forest" and f != "elves":
            rng -= self.r["forest_range_penalty"]
        out = []
        x, z = axial(at)
        for dx, dz in DIRS:
            line = []
            k = 1
            while (t := name_of(x + dx * k, z + dz * k)) is not None:
                line.append(t)
                k += 1
            for k, t in enumerate(line, 1):
                m = sum(1 for b in line[: k - 1] if self.terrain(b) == "mountain")
                if k <= rng - self.r["mountain_range_penalty"] * m and is_target(t):
                    out.append(t)
        return out

    def legal(self) -> list[str]:
        p, r = self.p, self.r
        if p.get("victory"):
            return []
        side, ap = self.side, p["ap"]
        out = ["end"]
        for k in KINDS:
            flag = self.camps[side]["flags"][k]
            if ap >= r[f"produce_cost_{k}"] and flag not in self.units:
                out.append("+" + k)
        deck = p["decks"][side]
        limit = r["tiles_per_turn"]
        if deck and ap >= r["tile_cost"] and (not limit or p["tiles_placed"] < limit):
            top = deck[0]
            for q in COLS:
                for row in range(1, 10):
                    h = f"{q}{row}"
                    if h in self.tiles or h in self.units or h in self.castles or h in self.flags:
                        continue
                    if h in self.camp_hexes and not r["tiles_on_camp"]:
                        continue
                    if not any(n in self.tiles or n in self.camp_hexes for n in neighbours(h)):
                        continue
                    if top == "mountain":
                        if any(self.tiles.get(n) == "mountain" for n in neighbours(h)):
                            continue
                        if sum(1 for c in COLS if self.tiles.get(f"{c}{row}") == "mountain") >= r["max_mountains_per_row"]:
                            continue
                    out.append(f"#{h}={top[0]}")
        act_cost = r["activation_cost"]
        atk_cost = act_cost + r["attack_extra_cost"]
        marked = set(p.get("activated", [])) | set(p.get("fresh", []))
        for h, letter in self.units.items():
            if self.owner(h) != side or h in marked:
                continue
            kind = letter.upper()
            dest = self.destinations(h)
            if ap >= act_cost:
                out.extend(f"{h}-{t}" for t in dest)
            if ap >= atk_cost:
                out.extend(f"{h}x{g}" for g in self.targets(h, side, kind))
                for t, left in dest.items():
                    if left >= 1:
                        out.extend(f"{h}-{t}x{g}" for g in self.targets(t, side, kind))
        return sorted(out)

    def damage(self, at: str, side: str, kind: str, target: str) -> int:
        """Damage of an attack on ``target`` (a unit) from a unit of ``side``/``kind`` standing on ``at``."""
        dmg = self.stat(side, kind, "attack")
        target_side = self.owner(target)
        ignores = self.fac[side] == "elves" and (self.r["elf_cover_ignore"] == "all" or kind in "AR")
        orc_bare = self.fac[target_side] == "orcs" and not self.r["orc_forest_cover"]
        if self.terrain(target) == "forest" and not ignores and not orc_bare:
            dmg -= self.r["forest_cover"]
        return max(0, dmg)
