"""What tools read off a position besides the rules: glyphs, heat layers, the static evaluation,
an action's effects and cells, and the extra columns of game and event rows.

All of it is computed by the engine's own queries (``reach``, ``targets_from``, apply/undo), never by
re-deriving a rule, so a toggle changes these pictures exactly as it changes play.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import product
from typing import Any

from workbench.core.protocol import ClickStep, Glyph

from . import actions as act
from .deck import CODE_NAMES, FOREST, HILL, LETTERS, MOUNTAIN, PLAIN, VOID
from .geometry import DISTANCE, HEX_NAMES, NEIGHBOURS, NUM_HEXES, RAYS, SIZE, WITHIN, column, hex_of
from .rules import DWARVES, ELVES, FACTIONS, KIND_WORDS, KINDS, ORCS, RANGED, SIDES
from .state import ACTIVATED, CAMP_CASTLE, CAMP_FLAG, CAMP_FREE, CAMP_ROWS, CASTLE, FRESH, CursedState

# Evaluation weights, in "castle HP" units (the terms are documented in ``evaluate`` and docs/rulings.md).
W_CASTLE = 3.0  # one castle HP: the win condition, so it dominates
W_UNIT = 1.0  # a unit on the board (production cost 1 AP)
W_HP = 0.5  # one HP of a unit
W_ATTACK = 0.25  # one point of a unit's attack
W_THREAT_UNIT = 0.3  # an enemy unit within one of ours' movement + reach
W_THREAT_CASTLE = 1.0  # the enemy castle within movement + reach of one of our units
W_ADVANCE = 0.25  # per walking step a unit has come closer to its firing place (within ADVANCE_HORIZON)
ADVANCE_HORIZON = 20  # walking cost beyond which a unit earns no advance (and a unit with no route none)
VOID_STEP = 2  # walking cost of an untiled hex on the route (a tile is still to be laid there)
W_SIEGE = 2.0  # per attack point of a unit standing where it can attack the enemy castle
W_AP = 0.2  # AP the side to move still has (tempo)
W_HANG = 0.5  # share of a unit's value lost when an enemy unit within reach would destroy it
W_DECK = 0.02  # a tile left in the own deck (board-building options)
W_DEPTH = 0.5  # a row of walkable board built out from the own camp, up to DEPTH_CAP rows
DEPTH_CAP = 7  # row 8 (or 2): next to the enemy's camp row, so a route across the board exists
WALK_CLASS = (0, 1, 0, 2)  # the walk table a kind reads: S and C walk next to the castle, A and R to firing hexes
WIN = 1000.0


def glyphs(st: CursedState) -> list[Glyph]:
    """Terrain class, unit letter (upper p1, lower p2), owner and badges (HP, marks, flag kind, castle HP)."""
    out = []
    for h in range(NUM_HEXES):
        ck = st.camp_kind[h]
        ter = st.terrain[h]
        side_of_row = 0 if h < 9 else 1
        if ck == CAMP_CASTLE:
            out.append(Glyph(h, "castle", "K" if side_of_row == 0 else "k", side_of_row,
                             (f"{st.castle_hp[side_of_row]}hp",)))
            continue
        terrain = "void" if ter == VOID else CODE_NAMES[ter] if ter != CASTLE else "castle"
        badges: list[str] = []
        marks: list[str] = []
        if ck == CAMP_FLAG:
            camp = st.camps[side_of_row]
            if camp:
                badges.append(f"flag {KINDS[camp[1].index(h)]}")
                marks.append(f"flag-{SIDES[side_of_row]}")
        elif ck == CAMP_FREE:
            marks.append(f"camp-{SIDES[side_of_row]}")
        if st.tile[h] and ck:
            marks.append("tiled-camp")
        if st.owner[h] >= 0:
            side = st.owner[h]
            letter = KINDS[st.kind[h]]
            badges.insert(0, f"{st.hp[h]}hp")
            if st.mark[h] == ACTIVATED:
                badges.append("done")
            elif st.mark[h] == FRESH:
                badges.append("fresh")
            badges.append(FACTIONS[st.factions[side]][:2])
            out.append(Glyph(h, terrain, letter if side == 0 else letter.lower(), side, tuple(badges),
                             marks=tuple(marks)))
        else:
            out.append(Glyph(h, terrain, "", None, tuple(badges), marks=tuple(marks)))
    return out


def attack_reach(st: CursedState, side: int, now: bool) -> dict[int, int]:
    """Hex -> how many of ``side``'s units could attack it (from where they stand or after a move).

    ``now``: only units that may act this turn (side to move, not activated or fresh, AP enough); else
    every unit, as at the start of the side's next turn. Empty hexes count too: it is a zone of fire.
    """
    out: dict[int, int] = {}
    if st.phase != "play" or st.is_terminal() or (now and (st.to_move != side or st.ap < st.attack_cost)):
        return out
    open_ = st.open_hexes()
    for h in range(NUM_HEXES):
        if st.owner[h] != side or (now and st.mark[h]):
            continue
        k = st.kind[h]
        spots = {h}
        spots.update(t for t, lt in st.reach(h, open_).items() if lt >= 1)
        hit: set[int] = set()
        for spot in spots:
            hit.update(_zone(st, spot, side, k))
        for t in hit:
            out[t] = out.get(t, 0) + 1
    return out


def _zone(st: CursedState, at: int, side: int, kind: int) -> list[int]:
    """Hexes a unit could hit from ``at`` whatever stands there (the line-of-fire rules of section 8)."""
    if not RANGED[kind]:
        return list(NEIGHBOURS[at])
    rng = st.shot_range(at, side, kind)
    out = []
    for ray in RAYS[at]:
        m = 0
        for i, t in enumerate(ray, 1):
            if i > rng - st.mountain_penalty * m:
                break
            out.append(t)
            if st.terrain[t] == MOUNTAIN:
                m += 1
    return out


def heat(st: CursedState, layer: str, player: int) -> dict[int, float]:
    """``threat``: hexes ``player`` can attack this turn (to move) or next turn (not to move), by unit count;
    ``control``: +1..-1 by nearness of ``player``'s units against the enemy's (sum of 1/(1+distance))."""
    if layer == "threat":
        now = st.to_move == player
        return {h: float(n) for h, n in attack_reach(st, player, now).items()}
    if layer == "control":
        own = [h for h in range(NUM_HEXES) if st.owner[h] == player]
        enemy = [h for h in range(NUM_HEXES) if st.owner[h] == 1 - player]
        out = {}
        for h in range(NUM_HEXES):
            a = sum(1.0 / (1 + DISTANCE[u][h]) for u in own)
            b = sum(1.0 / (1 + DISTANCE[u][h]) for u in enemy)
            if a + b > 0:
                out[h] = round((a - b) / (a + b), 4)
        return out
    raise ValueError(f"unknown heat layer {layer!r}; cursed-lands has threat and control")


def evaluate(st: CursedState, player: int) -> float:
    """Static evaluation from ``player``'s side, in castle-HP units (positive = ``player`` is better).

    Per side, own minus enemy:
    - 3 x castle HP; per unit 1 + 0.5 x HP + 0.25 x attack; 0.02 per tile left in the deck; 0.5 per row of
      walkable board built out from the own camp (``board_depth``, up to 7 rows);
    - *board reach*: per unit 0.25 x (20 - its walking cost to its firing place), where the firing place of a
      Swordsman or Cavalry is a hex next to the enemy castle and of an Archer or Artillery a hex from which
      it could shoot the castle (its range from that hex's terrain, mountains on the line), and the walking
      cost counts 1 per walkable hex and 2 per untiled hex still to be tiled (``walk_costs``: units ignored,
      castles and, but for dwarves, mountains closed; no route, no advance). So a tile that opens or
      shortens a route, and a step along it, both pay;
    - *siege*: 2 x attack per unit already on its firing place;
    - *threat*: 1.0 when the enemy castle, and 0.3 per enemy unit, lies within ``movement + reach`` of one of
      this side's units (reach 1 for melee, the range from where the unit stands for ranged units; a
      distance bound, fast enough for searches);
    - *hanging units*: minus 0.5 x the value of each unit that an enemy unit holding it within its
      ``movement + reach`` would destroy with one attack (forest cover counted);
    - plus 0.2 x AP left for the side to move.
    A won game is +-1000, a draw 0. The native core (``state.rs``) computes the same floats in the same order.
    """
    if st.is_terminal():
        if st.winner_side is None:
            return 0.0
        return WIN if st.winner_side == player else -WIN
    tables = _terrain_tables(st)
    score = [0.0, 0.0]
    units: list[list[int]] = [[], []]
    zones: list[set[int]] = [set(), set()]  # hexes within movement + reach of a unit of each side
    zone_of: dict[int, frozenset[int]] = {}
    values: dict[int, float] = {}
    owner, kind, hp = st.owner, st.kind, st.hp
    table = st.units
    for h in range(NUM_HEXES):
        side = owner[h]
        if side < 0:
            continue
        k = kind[h]
        f = st.factions[side]
        value = W_UNIT + W_HP * hp[h] + W_ATTACK * table.attack[f][k]
        score[side] += value
        values[h] = value
        radius = st.allowance(h) + (st.shot_range(h, side, k) if RANGED[k] else 1)
        units[side].append(h)
        zone = WITHIN[min(16, max(0, radius))][h]
        zone_of[h] = zone
        zones[side] |= zone
    walk, depth = tables
    for side in (0, 1):
        s = W_CASTLE * st.castle_hp[side] + W_DECK * len(st.decks[side]) + W_DEPTH * depth[side]
        ecastle = st.castle_of(1 - side)
        if ecastle >= 0:
            attack = table.attack[st.factions[side]]
            for h in units[side]:
                w = walk[side][WALK_CLASS[kind[h]]][h]
                if w >= 0:
                    s += W_ADVANCE * max(0, ADVANCE_HORIZON - w)
                    if w == 0:
                        s += W_SIEGE * attack[kind[h]]
            if ecastle in zones[side]:
                s += W_THREAT_CASTLE
        s += W_THREAT_UNIT * sum(1 for e in units[1 - side] if e in zones[side])
        score[side] += s
    if st.phase == "play":
        score[st.to_move] += W_AP * st.ap
    for side in (0, 1):  # hanging units
        for h in units[side]:
            for a in units[1 - side]:
                if h in zone_of[a] and st._damage(1 - side, kind[a], h) >= hp[h]:
                    score[side] -= W_HANG * values[h]
                    break
    return round(score[player] - score[1 - player], 6)


def walk_costs(st: CursedState, side: int) -> tuple[list[int], list[int], list[int]]:
    """Per hex, for ``side``'s melee units, Archers and Artillery: the walking cost to the nearest firing place
    against the enemy castle (-1: no route). The evaluation's *board reach*; see ``evaluate``."""
    walk, _depth = _terrain_tables(st)
    return (list(walk[side][0]), list(walk[side][1]), list(walk[side][2]))


def _terrain_tables(st: CursedState) -> tuple[tuple[tuple[tuple[int, ...], ...], ...], tuple[int, int]]:
    """The evaluation's tables of the board (walk costs by side and class, depth by side), cached per board."""
    return _tables_cached(tuple(st.terrain), (st.castle_of(0), st.castle_of(1)), tuple(st.factions), st.untiled_plain,
                          (st.camps[0] is not None, st.camps[1] is not None), tuple(st.units.range),
                          st.hill_bonus, st.forest_penalty, st.mountain_penalty)


@lru_cache(maxsize=4096)
def _tables_cached(terrain: tuple[int, ...], castles: tuple[int, int], factions: tuple[int, ...], untiled_plain: bool,
                   placed: tuple[bool, bool], ranges: tuple[int, ...], hill_bonus: int, forest_penalty: int,
                   mountain_penalty: int) -> tuple[tuple[tuple[tuple[int, ...], ...], ...], tuple[int, int]]:
    """``_terrain_tables`` on the terrain and the game's constants alone."""
    walk: list[tuple[tuple[int, ...], ...]] = []
    for side in (0, 1):
        castle = castles[1 - side]
        if castle < 0:
            walk.append(((-1,) * NUM_HEXES,) * 3)
            continue
        f = factions[side]
        dwarf = f == DWARVES
        void = {h for h in range(NUM_HEXES) if terrain[h] == VOID}
        open_ = {h for h in range(NUM_HEXES)
                 if terrain[h] != VOID and terrain[h] != CASTLE and (terrain[h] != MOUNTAIN or dwarf)}
        classes = [_walk_from(set(NEIGHBOURS[castle]), open_, void)]
        for k in (1, 3):  # Archer, Artillery
            fire = set()
            for h in range(NUM_HEXES):
                for ray in RAYS[h]:
                    if castle in ray:
                        pos = ray.index(castle) + 1
                        t = terrain[h]
                        rng = ranges[k]
                        if t == HILL and f != ORCS:
                            rng += hill_bonus
                        elif t == FOREST and f != ELVES:
                            rng -= forest_penalty
                        m = sum(1 for x in ray[:pos - 1] if terrain[x] == MOUNTAIN)
                        if pos <= rng - mountain_penalty * m:
                            fire.add(h)
                        break
            classes.append(_walk_from(fire, open_, void))
        walk.append(tuple(classes))
    depth = (_depth_cached(terrain, 0, factions[0] == DWARVES, untiled_plain, placed[0]),
             _depth_cached(terrain, 1, factions[1] == DWARVES, untiled_plain, placed[1]))
    return tuple(walk), depth


def _walk_from(targets: set[int], open_: set[int], void: set[int]) -> tuple[int, ...]:
    """Cheapest walking cost from every hex to one of ``targets``: entering an open hex costs 1, an untiled hex
    ``VOID_STEP`` (Dijkstra by cost buckets; -1 where no route exists)."""
    passable = open_ | void
    dist = [-1] * NUM_HEXES
    buckets: dict[int, list[int]] = {0: sorted(targets & passable)}
    d = 0
    while buckets:
        for y in buckets.pop(d, []):
            if dist[y] >= 0:
                continue
            dist[y] = d
            nd = d + (VOID_STEP if y in void else 1)
            for x in NEIGHBOURS[y]:
                if x in passable and dist[x] < 0:
                    buckets.setdefault(nd, []).append(x)
        d += 1
    return tuple(dist)


def board_depth(st: CursedState, side: int, cap: int = DEPTH_CAP) -> int:
    """Rows (up to ``cap``) that the walkable board connected to ``side``'s camp row reaches toward the enemy.

    Walkable is what a unit of the side's faction may enter, units ignored: not void, not a castle, not a
    mountain (dwarves walk mountains). Under ``untiled=plain`` every hex is walkable and the depth is ``cap``.
    """
    return _depth_cached(tuple(st.terrain), side, st.factions[side] == DWARVES, st.untiled_plain,
                         st.camps[side] is not None, cap)


@lru_cache(maxsize=8192)
def _depth_cached(terrain: tuple[int, ...], side: int, dwarf: bool, untiled_plain: bool, placed: bool,
                  cap: int = DEPTH_CAP) -> int:
    """``board_depth`` on the terrain alone (searches evaluate many children with the same board)."""
    if untiled_plain:
        return cap
    if not placed:
        return 0
    home = 1 if side == 0 else 9
    start = [h for h in range((home - 1) * 9, home * 9) if terrain[h] != CASTLE]
    seen = set(start)
    frontier = start
    depth = 0
    while frontier and depth < cap:
        nxt = []
        for cur in frontier:
            for n in NEIGHBOURS[cur]:
                if n in seen:
                    continue
                t = terrain[n]
                if t == VOID or t == CASTLE or (t == MOUNTAIN and not dwarf):
                    continue
                seen.add(n)
                nxt.append(n)
                d = abs(n // 9 + 1 - home)
                if d > depth:
                    depth = d
        frontier = nxt
    return min(depth, cap)


def action_priority(st: CursedState, a: int) -> int:
    """Move ordering: castle attacks, then attacks on units, then production, tiles, moves, end last."""
    kind, _f, _t, g = act.decode(a)
    if g >= 0:
        return 30 if g == st.castle_of(1 - st.to_move) else 20
    return {"produce": 10, "tile": 5, "move": 8, "camp": 1, "end": 0}.get(kind, 0)


def action_cells(st: CursedState, a: int) -> list[int]:
    """Hexes a click sequence picks: unit, destination, target; the hex of a tile; [] for buttons."""
    kind, f, t, g = act.decode(a)
    if kind in ("move",):
        return [f, t]
    if kind == "attack":
        return [f, g]
    if kind == "move_attack":
        return [f, t, g]
    if kind == "tile":
        return [t]
    return []


CAMP_CLICKS = ("castle", "C flag", "S flag", "A flag", "R flag")  # the first five clicks of a camp, in notation order


def camp_step(st: CursedState, cells: Sequence[int]) -> ClickStep:
    """The setup phase's camp built by clicks on the side's camp row (C45): the castle, the flags in notation
    order (C, S, A, R: five different hexes), then ``starting_units`` different hexes other than the castle's;
    the camps those clicks complete are one per choice of the units' kinds (4^n, by button). Returns the next
    clickable hexes, the completed camps in canonical order and what the next click picks; nothing for a click
    off the rules."""
    r = CAMP_ROWS[st.to_move]
    n = st.starting_units
    row_hexes = [hex_of(c, r) for c in range(SIZE)]
    seq = list(cells)
    if any(h not in row_hexes for h in seq) or len(seq) > 5 + n:
        return ClickStep([], [])
    head, units = seq[:5], seq[5:]
    if len(set(head)) != len(head) or len(set(units)) != len(units) or (units and head[0] in units):
        return ClickStep([], [])
    if len(seq) < 5:
        return ClickStep([h for h in row_hexes if h not in head], [], f"the {CAMP_CLICKS[len(seq)]}'s hex on row {r}")
    if len(seq) < 5 + n:
        return ClickStep([h for h in row_hexes if h != head[0] and h not in units], [],
                         f"the hex of starting unit {len(units) + 1} of {n} (not the castle's)")
    castle = column(head[0])
    flags = [0] * 4
    for k, h in zip(act.CAMP_KIND_ORDER, head[1:], strict=True):
        flags[k] = column(h)
    cols = [column(h) for h in units]
    done = sorted(act.camp_action(castle, flags, list(zip(cols, kinds, strict=True)), n)
                  for kinds in product(range(len(KINDS)), repeat=n))
    return ClickStep([], done, "the starting units' kinds (a button)")


def attackers(st: CursedState) -> list[tuple[int, int, int]]:
    """Every attack a unit could make on its side's next activation (section 6, C41's ranges and mountains): from
    where it stands, or after a move within its reach, as ``_generate`` lists ATTACK and MOVE_ATTACK; AP and the
    activation marks aside, so the side not to move shows what it attacks on its turn."""
    if st.is_terminal() or st.phase != "play":
        return []
    out: set[tuple[int, int, int]] = set()
    open_ = st.open_hexes()
    for h in range(NUM_HEXES):
        side = st.owner[h]
        if side < 0:
            continue
        k = st.kind[h]
        out.update((h, g, side) for g in st.targets_from(h, side, k))
        for t, left in st.reach(h, open_).items():
            if left >= 1 and t != h:
                out.update((h, g, side) for g in st.targets_from(t, side, k))
    return sorted(out)


def _doing(kind: str, f: int, t: int, g: int, side: int, kinds: list[int], after: CursedState) -> str:
    """What an action is, in words (``after``: the position it made, for a tile's terrain and a unit produced)."""
    me = SIDES[side]
    if kind == "produce":
        h = after.flag_of(side, f)
        return f"{me} produces {_a(KIND_WORDS[f])} on its flag {HEX_NAMES[h]} (section 9)"
    if kind == "tile":
        return f"{me} lays {_a(CODE_NAMES[after.tile[t]])} tile on {HEX_NAMES[t]} (section 7)"
    if kind == "move":
        return f"the {KIND_WORDS[kinds[f]].lower()} of {me} on {HEX_NAMES[f]} moves to {HEX_NAMES[t]}"
    if kind in ("attack", "move_attack"):
        where = f"moves to {HEX_NAMES[t]} and " if kind == "move_attack" else ""
        target = f"the castle on {HEX_NAMES[g]}" if g in (after.castle_of(0), after.castle_of(1)) else (
            f"the {KIND_WORDS[kinds[g]].lower()} on {HEX_NAMES[g]}")
        verb = "shoots at" if RANGED[kinds[f]] else "attacks"  # a ranged unit's attack (section 8)
        return f"the {KIND_WORDS[kinds[f]].lower()} of {me} on {HEX_NAMES[f]} {where}{verb} {target}"
    if kind == "end":
        return f"{me} ends its turn"
    return f"{me} sets up its camp (section 2)"


def _a(word: str) -> str:
    word = word.lower()
    return f"{'an' if word[:1] in 'aeiou' else 'a'} {word}"


def action_effects(st: CursedState, a: int) -> dict[str, Any]:
    """What ``a`` would change, found by playing it and taking it back: removed units, marked hexes,
    a sentence, and whether it ends the game or the turn."""
    if not st.is_legal(a):
        return {}
    before_units = [h for h in range(NUM_HEXES) if st.owner[h] >= 0]
    text = st.action_to_string(a)
    side = st.to_move
    turn = st.turn_no
    hp_before = list(st.hp)
    kind_before = list(st.kind)
    castle_before = list(st.castle_hp)
    st.apply_action(a)
    try:
        kind, f, t, _g = act.decode(a)
        moved_from = f if kind in ("move", "move_attack") else -1
        removed = [h for h in before_units if st.owner[h] < 0 and h != moved_from]
        if moved_from >= 0 and st.owner[t] < 0:
            removed.append(t)  # the mover fell to a counterattack (C41)
        marks = [h for h in range(NUM_HEXES) if st.owner[h] >= 0 and h in before_units and st.hp[h] != hp_before[h]]
        words = [f"{text}: {_doing(kind, f, t, _g, side, kind_before, st)}"]
        for h in marks:  # damage in words, as the move list reads it
            words.append(f"the {KIND_WORDS[kind_before[h]].lower()} on {HEX_NAMES[h]} takes "
                         f"{hp_before[h] - st.hp[h]} damage ({hp_before[h]} -> {st.hp[h]} hp)")
        for h in removed:
            words.append(f"the {KIND_WORDS[kind_before[h]].lower()} on {HEX_NAMES[h]} is destroyed")
        for s in (0, 1):
            if st.castle_hp[s] != castle_before[s]:
                words.append(f"{SIDES[s]} castle {castle_before[s]} -> {st.castle_hp[s]}")
        ends = st.is_terminal()
        if ends:
            words.append(f"ends the game ({st.victory_kind})")
        elif (st.turn_no != turn or st.to_move != side) and kind != "end":
            words.append("ends the turn")
        return {"removed": sorted(removed), "marks": marks, "text": "; ".join(words), "ends": ends,
                "damage": {h: hp_before[h] - st.hp[h] for h in marks if hp_before[h] > st.hp[h]},
                "ends_turn": not ends and (st.turn_no != turn or st.to_move != side)}
    finally:
        st.undo_action()


def game_row(st: CursedState) -> dict[str, Any]:
    """Extra columns of a finished game (issue 18): factions, victory, turns, castle HP, tiles and production."""
    c = st.counters()
    row: dict[str, Any] = {
        "faction_p1": FACTIONS[st.factions[0]], "faction_p2": FACTIONS[st.factions[1]],
        "victory_kind": st.victory_kind or "unfinished", "turns": st.turn_no,
        "castle_hp_p1": st.castle_hp[0], "castle_hp_p2": st.castle_hp[1],
        "deck_seed": st.seed,
    }
    for side, name in enumerate(SIDES):
        row[f"tiles_placed_{name}"] = sum(c[f"tiles_placed_{t}"][side] for t in ("plain", "road", "forest", "hill",
                                                                                 "mountain"))
        for k in KINDS:
            row[f"produced_{k}_{name}"] = c[f"produced_{k}"][side]
    for t in ("plain", "road", "forest", "hill", "mountain"):
        row[f"tiles_{t}"] = c[f"tiles_placed_{t}"][0] + c[f"tiles_placed_{t}"][1]
    return row


def event_row(st: CursedState, a: int) -> dict[str, Any]:
    """Extra columns of one event (called before ``a`` is applied): its kind, the AP before and left after it,
    and the tile a placement lays (the generic row already has the action's notation, turn and side)."""
    kind = act.decode(a)[0]
    cost = 0
    if kind == "produce":
        cost = st.produce_cost[a - act.PRODUCE]
    elif kind == "tile":
        cost = st.tile_cost
    elif kind in ("move",):
        cost = st.activation_cost
    elif kind in ("attack", "move_attack"):
        cost = st.attack_cost
    top = st.deck_top(st.to_move)
    return {"action_kind": kind, "ap_before": st.ap, "ap_left": st.ap - cost,
            "tile": LETTERS[top - PLAIN] if kind == "tile" and top else None}


FEATURE_WEIGHTS = {"castle_hp": W_CASTLE, "unit_hp": W_HP, "unit_attack": W_ATTACK, "deck": W_DECK, "depth": W_DEPTH,
                   "advance": W_ADVANCE, "siege": W_SIEGE, "threat_castle": W_THREAT_CASTLE,
                   "threat_units": W_THREAT_UNIT, "ap": W_AP, "hanging": -W_HANG}


def feature_weights() -> dict[str, float]:
    """The hand weights of ``features`` (``evaluate``'s constants): every unit kind ``W_UNIT``, then the terms."""
    from .rules import KIND_WORDS

    return {**{w.lower(): W_UNIT for w in KIND_WORDS}, **FEATURE_WEIGHTS}


def features(st: CursedState, player: int) -> dict[str, float]:
    """``evaluate``'s terms from ``player``'s side (own minus enemy), by name, for ``workbench learn``: a count
    per unit kind, the units' HP and attack, castle HP, deck, depth, advance, siege, threats, AP and hanging
    units. Under ``feature_weights`` the sum is ``evaluate`` (to rounding)."""
    from .rules import KIND_WORDS

    names = [w.lower() for w in KIND_WORDS]
    terms = [dict.fromkeys([*names, *FEATURE_WEIGHTS], 0.0), dict.fromkeys([*names, *FEATURE_WEIGHTS], 0.0)]
    if st.is_terminal():
        return dict.fromkeys(terms[0], 0.0)
    walk, depth = _terrain_tables(st)
    units: list[list[int]] = [[], []]
    zones: list[set[int]] = [set(), set()]
    zone_of: dict[int, frozenset[int]] = {}
    values: dict[int, float] = {}
    owner, kind, hp, table = st.owner, st.kind, st.hp, st.units
    for h in range(NUM_HEXES):
        side = owner[h]
        if side < 0:
            continue
        k = kind[h]
        t = terms[side]
        t[names[k]] += 1
        t["unit_hp"] += hp[h]
        t["unit_attack"] += table.attack[st.factions[side]][k]
        values[h] = W_UNIT + W_HP * hp[h] + W_ATTACK * table.attack[st.factions[side]][k]
        radius = st.allowance(h) + (st.shot_range(h, side, k) if RANGED[k] else 1)
        units[side].append(h)
        zone_of[h] = WITHIN[min(16, max(0, radius))][h]
        zones[side] |= zone_of[h]
    for side in (0, 1):
        t = terms[side]
        t["castle_hp"] += st.castle_hp[side]
        t["deck"] += len(st.decks[side])
        t["depth"] += depth[side]
        if st.castle_of(1 - side) >= 0:
            attack = table.attack[st.factions[side]]
            for h in units[side]:
                w = walk[side][WALK_CLASS[kind[h]]][h]
                if w >= 0:
                    t["advance"] += max(0, ADVANCE_HORIZON - w)
                    if w == 0:
                        t["siege"] += attack[kind[h]]
            if st.castle_of(1 - side) in zones[side]:
                t["threat_castle"] += 1
        t["threat_units"] += sum(1 for e in units[1 - side] if e in zones[side])
    if st.phase == "play":
        terms[st.to_move]["ap"] += st.ap
    for side in (0, 1):
        for h in units[side]:
            for a in units[1 - side]:
                if h in zone_of[a] and st._damage(1 - side, kind[a], h) >= hp[h]:
                    terms[side]["hanging"] += values[h]
                    break
    return {k: float(terms[player][k] - terms[1 - player][k]) for k in terms[0]}
