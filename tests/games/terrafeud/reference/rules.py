"""Reference rules of TerraFeud: plain, slow and readable.

Positions are the dicts of ``workbench.games.terrafeud.engine.state_to_dict`` (scenario vocabulary). The two entry
points are ``legal_actions(d) -> set[str]`` and ``apply_action(d, text) -> dict``. Every rule cites
the contract (BOARD-AND-RULINGS.md, "W<n>" or "fine print") or docs/rulings.md ("ruling doc").
Only hex names, neighbours, rays and distances come from ``workbench.games.terrafeud.engine.geometry``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import permutations

from workbench.games.terrafeud.engine.geometry import DISTANCE, HEX_BY_NAME, HEX_NAMES, NEIGHBOURS, RAYS, cube, qy

WHITE, BLACK = "white", "black"
ALL_HEXES = range(len(HEX_NAMES))


def H(name: str) -> int:
    return HEX_BY_NAME[name]


def other(side: str) -> str:
    return BLACK if side == WHITE else WHITE


def side_of(letter: str) -> str:
    return WHITE if letter.isupper() else BLACK


def kind(letter: str) -> str:
    return letter.upper()


def in_case(k: str, side: str) -> str:
    return k.upper() if side == WHITE else k.lower()


def adjacent(h: int) -> list[int]:
    return [n for n in NEIGHBOURS[h] if n is not None]


# --- section 2: river and crossings -------------------------------------------------------------
RIVER = {h for h in ALL_HEXES if qy(h)[1] in (9, 10, 11)}
BRIDGES = {H("b4"), H("f6"), H("k4")}
FORDS = {H("d5"), H("h5")}
ORDINARY_RIVER = RIVER - BRIDGES - FORDS
assert len(RIVER) == 17 and len(ORDINARY_RIVER) == 12

# --- section 3: castles ---------------------------------------------------------------------------
CENTRE = {WHITE: H("f1"), BLACK: H("f11")}
CASTLE_ZONE = {s: {CENTRE[s], *adjacent(CENTRE[s])} for s in (WHITE, BLACK)}


def half_of(h: int) -> str | None:
    y = qy(h)[1]
    return WHITE if y < 9 else BLACK if y > 11 else None


# --- geometry written out from the contract ----------------------------------------------------
def pike_zone(h: int) -> set[int]:
    """12-hex flower: 6 neighbours + the second hex on each straight axis (fine print: geometric)."""
    out = set(adjacent(h))
    for d in range(6):
        if len(RAYS[h][d]) >= 2:
            out.add(RAYS[h][d][1])
    return out


def cavalry_paths(h: int) -> list[tuple[int, list[int]]]:
    """W4: (landing, intermediates): 6 straight (2 steps) and 12 L (2 steps then a 60-degree turn)."""
    out = []
    for d in range(6):
        ray = RAYS[h][d]
        if len(ray) < 2:
            continue
        out.append((ray[1], [ray[0]]))
        for turn in (1, 5):
            land = NEIGHBOURS[ray[1]][(d + turn) % 6]
            if land is not None:
                out.append((land, [ray[0], ray[1]]))
    return out


def hexes_between(a: int, b: int) -> list[int]:
    """W8: hexes whose centre lies strictly between a and b on the straight segment."""
    ca, cb = cube(a), cube(b)
    n = DISTANCE[a][b]
    out = []
    for t in range(1, n):
        p = [Fraction(ca[i]) + Fraction(cb[i] - ca[i]) * Fraction(t, n) for i in range(3)]
        if all(x.denominator == 1 for x in p):
            for h in ALL_HEXES:
                if cube(h) == tuple(int(x) for x in p):
                    out.append(h)
    return out


_BETWEEN: dict[tuple[int, int], list[int]] = {}


def between(a: int, b: int) -> list[int]:
    if (a, b) not in _BETWEEN:
        _BETWEEN[(a, b)] = hexes_between(a, b)
    return _BETWEEN[(a, b)]


# --- the position ---------------------------------------------------------------------------------
@dataclass
class Pos:
    rules: dict
    terrain: dict
    seed: object
    to_move: str
    pieces: dict[int, str]
    markers: dict[int, int]  # archer hex -> marked hex (the archer's side is the piece's side)
    pending: set[int]
    castled: set[str]
    aura: set[int]
    destroyed: dict[str, list[str]]
    ply: int = 0
    quiet: int = 0
    winner: str | None = None
    victory: str | None = None

    def copy(self) -> Pos:
        return Pos(
            self.rules, self.terrain, self.seed, self.to_move, dict(self.pieces), dict(self.markers),
            set(self.pending), set(self.castled), set(self.aura),
            {s: list(v) for s, v in self.destroyed.items()}, self.ply, self.quiet, self.winner, self.victory,
        )

    # terrain and season
    @property
    def summer(self) -> bool:
        return self.rules.get("season", "summer") == "summer"

    def hills(self) -> set[int]:
        if not self.rules.get("hill", True):
            return set()
        return {H(v) for v in (self.terrain.get("hills") or {}).values() if v}

    def swamp_owner(self, h: int) -> str | None:
        if not self.rules.get("swamp", True):
            return None
        for side, v in (self.terrain.get("swamps") or {}).items():
            if v and H(v) == h:
                return side
        return None

    # queries
    def side_at(self, h: int) -> str | None:
        c = self.pieces.get(h)
        return side_of(c) if c else None

    def kind_at(self, h: int) -> str | None:
        c = self.pieces.get(h)
        return kind(c) if c else None

    def feudal(self, side: str) -> int | None:
        for h, c in self.pieces.items():
            if c == in_case("F", side):
                return h
        return None

    def zone_of_enemy(self, side: str) -> set[int]:
        """Union of the zones of the pikemen of the other side."""
        out: set[int] = set()
        for h, c in self.pieces.items():
            if c == in_case("P", other(side)):
                out |= pike_zone(h)
        return out

    def marker_targets(self, side: str) -> dict[int, list[int]]:
        """marked hex -> archer hexes, for markers of ``side``."""
        out: dict[int, list[int]] = {}
        for a, t in self.markers.items():
            if side_of(self.pieces[a]) == side:
                out.setdefault(t, []).append(a)
        return out


def from_dict(d: dict) -> Pos:
    pieces = {H(k): v for k, v in (d.get("pieces") or {}).items()}
    return Pos(
        rules=dict(d.get("rules") or {}),
        terrain=dict(d.get("terrain") or {}),
        seed=d.get("seed"),
        to_move=d.get("to_move", WHITE),
        pieces=pieces,
        markers={H(a): H(t) for a, t in (d.get("markers") or {}).items()},
        pending={H(h) for h in d.get("ultimatum_pending") or []},
        castled=set(d.get("castled") or []),
        aura={H(h) for h in d.get("aura_ready") or []},
        destroyed={s: [in_case(x, s) for x in (d.get("destroyed") or {}).get(s, [])] for s in (WHITE, BLACK)},
        ply=d.get("ply", 0),
        quiet=d.get("quiet", 0),
        winner=d.get("winner"),
        victory=d.get("victory"),
    )


def to_dict(p: Pos) -> dict:
    return {
        "rules": p.rules,
        "seed": p.seed,
        "terrain": p.terrain,
        "to_move": p.to_move,
        "pieces": {HEX_NAMES[h]: c for h, c in sorted(p.pieces.items())},
        "markers": {HEX_NAMES[a]: HEX_NAMES[t] for a, t in sorted(p.markers.items())},
        "ultimatum_pending": [HEX_NAMES[h] for h in sorted(p.pending)],
        "castled": [s for s in (WHITE, BLACK) if s in p.castled],
        "aura_ready": [HEX_NAMES[h] for h in sorted(p.aura)],
        "destroyed": {s: list(p.destroyed[s]) for s in (WHITE, BLACK)},
        "ply": p.ply,
        "quiet": p.quiet,
        "winner": p.winner,
        "victory": p.victory,
    }


# --- movement --------------------------------------------------------------------------------------
def walkable(p: Pos, h: int) -> bool:
    """Section 2: one-hex movers (feudal, pikeman, archer, infantry) may enter a hex."""
    return not (p.summer and h in ORDINARY_RIVER)


def knight_can_enter(p: Pos, h: int) -> bool:
    """Section 2: in summer the knight can enter neither ordinary river nor a ford (ruling 1)."""
    return not (p.summer and (h in ORDINARY_RIVER or h in FORDS))


def is_stop(p: Pos, side: str, h: int) -> bool:
    """W2 (a)-(c) plus the fine print's mines, for knights and aura moves."""
    if h in p.zone_of_enemy(side):
        return True
    if p.swamp_owner(h) == other(side):
        return True
    if p.summer and h in FORDS:
        return True
    if h in p.marker_targets(other(side)):
        return True
    return False


def infantry_may_attack_alone(p: Pos, side: str, target: int) -> bool:
    """W6: archers and infantry; a knight or cavalry standing in the zone of an own pikeman."""
    k = p.kind_at(target)
    if k in ("A", "I"):
        return True
    if k in ("K", "C"):
        own_zone: set[int] = set()
        for h, c in p.pieces.items():
            if c == in_case("P", side):
                own_zone |= pike_zone(h)
        return target in own_zone
    return False


def aura_active(p: Pos, h: int) -> bool:
    """W5: within distance 2 of its feudal now and at the end of its side's previous turn."""
    side = p.side_at(h)
    f = p.feudal(side)
    return f is not None and DISTANCE[h][f] <= 2 and h in p.aura


def move_targets(p: Pos, h: int) -> list[tuple[int, tuple[int, ...]]]:
    """Move/attack destinations of the piece on h: (final hex, enemies killed in passing)."""
    c = p.pieces[h]
    side, k = side_of(c), kind(c)
    out: list[tuple[int, tuple[int, ...]]] = []

    def free_or_enemy(x: int) -> bool:
        return p.side_at(x) != side

    if k == "K":  # W3, section 2 bridges, fine print
        mines = p.marker_targets(other(side))
        for d in range(6):
            ray = RAYS[h][d]
            i = 0
            while i < len(ray):
                x = ray[i]
                if not knight_can_enter(p, x):
                    break
                if x in BRIDGES:
                    if p.side_at(x) == side:
                        break
                    if x in mines:  # fine print: the slide ends on the bridge, the knight dies
                        out.append((x, ()))
                        break
                    passing = (x,) if p.side_at(x) == other(side) else ()
                    if i + 1 >= len(ray):
                        break
                    n = ray[i + 1]
                    if not knight_can_enter(p, n) or p.side_at(n) == side:
                        break
                    out.append((n, passing))
                    break
                if x in p.pieces:
                    if p.side_at(x) != side:
                        out.append((x, ()))
                    break
                out.append((x, ()))
                if is_stop(p, side, x):
                    break
                i += 1
    elif k == "C":  # W4, W2 exception, fine print
        zone = p.zone_of_enemy(side)
        seen = set()
        for land, inter in cavalry_paths(h):
            exact_pike = p.pieces.get(land) == in_case("P", other(side))
            final = land
            for m in inter:
                if p.swamp_owner(m) == other(side) or (m in zone and not exact_pike):
                    final = m
                    break
            if p.summer and final in ORDINARY_RIVER:
                continue
            if p.side_at(final) == side or final in seen:
                continue
            seen.add(final)
            out.append((final, ()))
    elif k == "P":
        for n in adjacent(h):
            if walkable(p, n) and free_or_enemy(n):
                out.append((n, ()))
    elif k == "F":  # W9
        enemy_f = p.feudal(other(side))
        for n in adjacent(h):
            if not walkable(p, n) or not free_or_enemy(n):
                continue
            if enemy_f is not None and (n == enemy_f or enemy_f in adjacent(n)):
                continue
            out.append((n, ()))
    elif k == "A":  # W8: moves only onto a free hex; archer_melee lets it attack
        for n in adjacent(h):
            if not walkable(p, n):
                continue
            if n not in p.pieces or (p.rules.get("archer_melee") and p.side_at(n) == other(side)):
                out.append((n, ()))
    elif k == "I":  # W5, W6
        def ok_final(x: int) -> bool:
            if not walkable(p, x):
                return False
            if x not in p.pieces:
                return True
            return p.side_at(x) == other(side) and infantry_may_attack_alone(p, side, x)

        for n in adjacent(h):
            if ok_final(n):
                out.append((n, ()))
        if aura_active(p, h):
            for d in range(6):
                ray = RAYS[h][d]
                if len(ray) < 2:
                    continue
                m, n = ray[0], ray[1]
                if not walkable(p, m) or m in p.pieces or is_stop(p, side, m):
                    continue
                if ok_final(n):
                    out.append((n, ()))
    return out


# --- actions -----------------------------------------------------------------------------------------
# Base actions (before promotion choices):
#   ("move", frm, to, passing) ("shot", archer, target) ("castle", feudal, infantry)
#   ("order", (frm1, to1), (frm2, to2)) ("pass",)


def base_actions(p: Pos) -> list[tuple]:
    if p.winner is not None or p.victory is not None:
        return []
    side = p.to_move
    out: list[tuple] = []
    for h in sorted(p.pieces):
        if p.side_at(h) != side:
            continue
        for to, passing in move_targets(p, h):
            out.append(("move", h, to, passing))
        if p.kind_at(h) == "A" and not (p.summer and h in FORDS):  # W8 shots
            rng = 3 if h in p.hills() else 2
            for t in ALL_HEXES:
                if not 2 <= DISTANCE[h][t] <= rng:
                    continue
                if p.side_at(t) == side or p.markers.get(h) == t:
                    continue
                if any(b in p.pieces for b in between(h, t)):
                    continue
                out.append(("shot", h, t))
    f = p.feudal(side)
    if f is not None and side not in p.castled:  # W11
        enemy_f = p.feudal(other(side))
        for n in adjacent(f):
            if p.pieces.get(n) == in_case("I", side):
                if enemy_f is not None and enemy_f in adjacent(n):
                    continue
                if not walkable(p, n):  # docs/rulings.md: a hex the feudal may stand on (D1)
                    continue
                out.append(("castle", f, n))
    if f is not None:  # W12 Order
        near = [h for h in sorted(p.pieces) if p.pieces[h] == in_case("I", side) and DISTANCE[h][f] <= 2]
        if len(near) >= 2:
            for a, b in permutations(near, 2):
                for s1 in order_steps(p, a):
                    q = p.copy()
                    step_board(q, a, s1)
                    for s2 in order_steps(q, b):
                        out.append(("order", (a, s1), (b, s2)))
    if not out:
        out.append(("pass",))
    return out


def order_steps(p: Pos, h: int) -> list[int]:
    """W12: a 1-hex step, moving or attacking any enemy piece (ruling doc: the feudal too)."""
    side = p.side_at(h)
    return [n for n in adjacent(h) if walkable(p, n) and p.side_at(n) != side]


def step_board(q: Pos, frm: int, to: int) -> None:
    """Board-only step for writing an Order's second step (no bookkeeping)."""
    q.pieces[to] = q.pieces.pop(frm)


# --- resolution --------------------------------------------------------------------------------------
class Resolution:
    def __init__(self, p: Pos):
        self.p = p
        self.deaths: list[str] = []  # letters in order of death
        self.entered: list[tuple[int, str]] = []  # (final hex, letter) of each step, in order
        self.swapped: list[int] = []  # castling's two hexes (not "entering", but the action ended there)

    def remove(self, h: int) -> None:
        p = self.p
        c = p.pieces.pop(h)
        p.markers.pop(h, None)  # an archer's marker goes with it
        if kind(c) != "F":
            p.destroyed[side_of(c)].append(c)
        self.deaths.append(c)

    def use_up(self, side: str, t: int) -> None:
        for a in [a for a, x in self.p.markers.items() if x == t and side_of(self.p.pieces[a]) == side]:
            del self.p.markers[a]

    def step(self, frm: int, to: int, passing: tuple[int, ...] = ()) -> None:
        p = self.p
        for x in passing:
            self.remove(x)
        mover = p.pieces.pop(frm)
        p.markers.pop(frm, None)  # W8: the archer moving removes its marker
        if to in p.pieces:
            victim = p.pieces[to]
            self.remove(to)
            if p.rules.get("pike_cavalry_mutual") and {kind(mover), kind(victim)} == {"P", "C"}:
                p.destroyed[side_of(mover)].append(mover)  # W15: both destroyed
                self.deaths.append(mover)
                return
        p.pieces[to] = mover
        self.entered.append((to, mover))

    # W7 triggers
    def mines(self) -> None:
        p = self.p
        for h, c in self.entered:
            if p.pieces.get(h) != c:
                continue
            if h in p.marker_targets(other(side_of(c))):
                self.remove(h)
                self.use_up(other(side_of(c)), h)

    def archers(self) -> None:
        p = self.p
        dying = [
            h for h, c in p.pieces.items()
            if kind(c) == "A" and any(p.side_at(n) == other(side_of(c)) for n in adjacent(h))
        ]
        for h in sorted(dying):
            self.remove(h)

    def coordinated(self) -> None:
        p = self.p
        for h in ALL_HEXES:
            c = p.pieces.get(h)
            if c is None or kind(c) not in ("K", "P", "C", "F"):
                continue
            enemy_inf = in_case("I", other(side_of(c)))
            inf = sorted(n for n in adjacent(h) if p.pieces.get(n) == enemy_inf)
            if len(inf) >= 2:
                self.remove(h)
                self.remove(inf[0])

    def ultimatums(self, pending: set[int], side: str) -> None:
        p = self.p
        for h in sorted(pending):
            if p.side_at(h) == side and h in p.marker_targets(other(side)):
                self.remove(h)
                self.use_up(other(side), h)

    def promotion_slots(self, side: str) -> list[int]:
        """W13: infantry steps ending in the enemy castle zone (not the centre), still alive."""
        p = self.p
        zone = CASTLE_ZONE[other(side)] - {CENTRE[other(side)]}
        return [h for h, c in self.entered if kind(c) == "I" and h in zone and p.pieces.get(h) == c]


def resolve(pos: Pos, base: tuple) -> tuple[Resolution, list[int]]:
    """Play the action and triggers 1-4; return the resolution and the promotion slots."""
    p = pos.copy()
    side = p.to_move
    r = Resolution(p)
    t = base[0]
    if t == "move":
        r.step(base[1], base[2], base[3])
    elif t == "shot":
        p.markers[base[1]] = base[2]
    elif t == "castle":
        f, i = base[1], base[2]
        p.castled.add(side)
        r.swapped = [f, i]
        if p.rules.get("castling", "swap") == "sacrifice":
            r.remove(i)
            p.pieces[i] = p.pieces.pop(f)
        else:
            p.pieces[f], p.pieces[i] = p.pieces[i], p.pieces[f]
    elif t == "order":
        for frm, to in (base[1], base[2]):
            r.step(frm, to)
    r.mines()
    r.archers()
    r.coordinated()
    r.ultimatums(pos.pending, side)
    return r, r.promotion_slots(side)


def promotion_choices(r: Resolution, side: str, slots: list[int]) -> list[tuple[str, ...]]:
    """All promotion choice tuples (one letter or '' per slot), in the mover's case."""
    combos: list[tuple[str, ...]] = [()]
    results = []

    def rec(i: int, pool: list[str], chosen: tuple[str, ...]) -> None:
        if i == len(slots):
            results.append(chosen)
            return
        kinds = sorted(set(pool))
        if not kinds:
            rec(i + 1, pool, chosen + ("",))
            return
        for k in kinds:
            rest = list(pool)
            rest.remove(k)
            rec(i + 1, rest, chosen + (k,))

    rec(0, list(r.p.destroyed[side]), ())
    return results or combos


def finish(pos: Pos, r: Resolution, slots: list[int], choice: tuple[str, ...], depth: int) -> Pos:
    p = r.p
    side = pos.to_move
    promoted = False
    for h, k in zip(slots, choice, strict=True):
        if k:
            p.destroyed[side].remove(k)
            p.pieces[h] = k
            promoted = True
    if promoted:  # ruling doc: triggers 2 and 3 run again
        r.archers()
        r.coordinated()
    # (6) victory: a destroyed feudal first (the first to die loses), then castle capture
    dead_feudals = [c for c in r.deaths if kind(c) == "F"]
    if dead_feudals:
        loser = side_of(dead_feudals[0])
        p.winner, p.victory = other(loser), "destroyed"
    elif p.side_at(CENTRE[other(side)]) == side and CENTRE[other(side)] in [h for h, _ in r.entered] + r.swapped:
        # section 8: only a piece that ended this action there wins (not one set up there)
        p.winner, p.victory = side, "castle"
    # the turn passes
    p.to_move = other(side)
    p.ply += 1
    p.quiet = 0 if r.deaths else p.quiet + 1
    p.pending = {t for a, t in p.markers.items() if side_of(p.pieces[a]) == side and p.side_at(t) == other(side)}
    f = p.feudal(side)
    aura = {h for h in p.aura if p.pieces.get(h) == in_case("I", other(side))}
    if f is not None:
        aura |= {h for h, c in p.pieces.items() if c == in_case("I", side) and DISTANCE[h][f] <= 2}
    p.aura = aura
    # section 8: a win (checkmate included) beats draw_after
    if p.victory is None and depth > 0 and mated(p, depth - 1):
        p.winner, p.victory = side, "checkmate"
    if p.victory is None and p.rules.get("draw_after") and p.quiet >= p.rules["draw_after"]:
        p.winner, p.victory = None, "draw"
    return p


# --- notation ----------------------------------------------------------------------------------------
def step_text(p: Pos, frm: int, to: int, promo: str, side: str) -> str:
    sep = "x" if p.side_at(to) == other(side) else "-"
    suffix = f"={in_case(promo, side)}" if promo else ""
    return f"{HEX_NAMES[frm]}{sep}{HEX_NAMES[to]}{suffix}"


def text_of(p: Pos, base: tuple, choice: tuple[str, ...], slots: list[int], r: Resolution) -> str:
    side = p.to_move
    t = base[0]
    if t == "pass":
        return "pass"
    if t == "shot":
        return f"{HEX_NAMES[base[1]]}*{HEX_NAMES[base[2]]}"
    if t == "castle":
        return f"{HEX_NAMES[base[1]]}<>{HEX_NAMES[base[2]]}"
    promo_by_hex: dict[int, str] = dict(zip(slots, choice, strict=True))
    if t == "move":
        return step_text(p, base[1], base[2], promo_by_hex.get(base[2], ""), side)
    (a, s1), (b, s2) = base[1], base[2]
    first = step_text(p, a, s1, promo_by_hex.get(s1, ""), side)
    q = p.copy()
    step_board(q, a, s1)
    second = step_text(q, b, s2, promo_by_hex.get(s2, ""), side)
    return f"order {first} {second}"


def full_actions(p: Pos, depth: int):
    """Yield (text, resulting position) for every legal action."""
    for base in base_actions(p):
        r0, slots = resolve(p, base)
        for i, choice in enumerate(promotion_choices(r0, p.to_move, slots)):
            r = r0 if i == 0 else resolve(p, base)[0]
            yield text_of(p, base, choice, slots, r), base, (r, slots, choice)


def apply_full(p: Pos, packed, depth: int) -> Pos:
    r, slots, choice = packed
    return finish(p, r, slots, choice, depth)


# --- W10 threat and checkmate ---------------------------------------------------------------------
def threatened(p: Pos, side: str) -> bool:
    """The opponent, given the move in this position, has an action after which side's feudal is dead."""
    if p.feudal(side) is None:
        return False
    q = p.copy()
    q.to_move = other(side)
    q.pending = set()
    q.winner = q.victory = None
    for _text, _base, packed in full_actions(q, 0):
        after = apply_full(q, packed, 0)
        if after.feudal(side) is None:
            return True
    return False


def mated(p: Pos, level: int) -> bool:
    """Start-of-turn mate test for the side to move (ruling doc "Depth": one nested level)."""
    side = p.to_move
    if not threatened(p, side):
        return False
    f = p.feudal(side)
    any_mode = p.rules.get("mate_defence", "feudal") == "any"
    for _text, base, packed in full_actions(p, 0):
        if not any_mode and not (base[0] in ("move", "castle") and base[1] == f):
            continue
        after = apply_full(p, packed, 0)
        if after.victory is not None:
            if after.winner != other(side):
                return False
            continue
        if not threatened(after, side):
            return False
        if level > 0 and mated(after, level - 1):
            return False
    return True


# --- public API ------------------------------------------------------------------------------------
def legal_actions(d: dict) -> set[str]:
    p = from_dict(d)
    return {text for text, _b, _k in full_actions(p, 0)}


def apply_action(d: dict, text: str) -> dict:
    p = from_dict(d)
    for t, _b, packed in full_actions(p, 0):
        if t == text:
            return to_dict(apply_full(p, packed, 2))
    raise ValueError(f"reference: {text!r} is not legal")


def successors(d: dict) -> dict[str, dict]:
    """Every legal action and the position it leads to."""
    p = from_dict(d)
    return {t: to_dict(apply_full(p, packed, 2)) for t, _b, packed in full_actions(p, 0)}


def is_checkmated(d: dict) -> bool:
    """The load-time mate test for the side to move."""
    p = from_dict(d)
    if p.victory is not None or p.feudal(p.to_move) is None:
        return False
    return mated(p, 1)
