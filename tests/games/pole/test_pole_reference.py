"""A second, deliberately naive reading of the contract, compared with the engine's legal actions.

The reference below works on (file, rank) coordinates and the contract's words (sections 5-8), with no
tables: a target is in an ARCHER zone when it lies on a rank, file or diagonal at the stated distance,
and so on. Random positions under random toggles must give the engine exactly the same legal action
strings and the same success counts.
"""

from __future__ import annotations

import random

import pytest

from workbench.games import get
from workbench.games.pole.position import build_state
from workbench.games.pole.tables import config

G = get("pole")
FILES = "abcdefghij"
COST = {"B": 3, "S": 3, "T": 10, "I": 2, "A": 2, "H": 3, "C": 4}
DAMAGE = {"B": 0, "S": 0, "T": 2, "I": 1, "A": 2, "H": 2, "C": 4, "P": 3}
ARMOUR = {"B": 5, "S": 5, "T": 6, "I": 2, "A": 1, "H": 2, "C": 3, "P": 5}


def name(x: int, y: int) -> str:
    return f"{FILES[x]}{y + 1}"


def cells_of(block: str) -> set[tuple[int, int]]:
    return {(FILES.index(c[0]), int(c[1:]) - 1) for c in block.split(",")}


def line(dx: int, dy: int) -> tuple[str, int] | None:
    """('orth' | 'diag', distance) when (dx, dy) lies on one of the 8 lines, else None."""
    if (dx, dy) == (0, 0):
        return None
    if dx == 0 or dy == 0:
        return "orth", max(abs(dx), abs(dy))
    if abs(dx) == abs(dy):
        return "diag", abs(dx)
    return None


def between(a: tuple[int, int], b: tuple[int, int]) -> list[tuple[int, int]]:
    dx, dy = b[0] - a[0], b[1] - a[1]
    k = max(abs(dx), abs(dy))
    sx, sy = (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)
    return [(a[0] + i * sx, a[1] + i * sy) for i in range(1, k)]


def reference_legal(pieces: dict[tuple[int, int], str], side: int, phase: str, coins: int, fresh: set, r: dict) -> set:
    """The legal action strings of a position, read straight from the contract's text."""
    own = {c: p for c, p in pieces.items() if (p.isupper()) == (side == 0)}
    out: set[str] = set()
    forts = [cells_of(r["fortress_red"]), cells_of(r["fortress_black"])]
    if phase == "buy":
        out.add("nobuy")
        zones = [{(x, y) for x in range(10) for y in range(10) if any(max(abs(x - fx), abs(y - fy)) <= 1
                                                                       for fx, fy in f)} for f in forts]
        zone = zones[side] | (zones[1 - side] if r["placement_fortress"] == "any" else set())
        kinds = {p.upper() for p in own.values()}
        for k, cost in COST.items():
            if coins < cost:
                continue
            needs = {"I": {"B"}, "A": {"B"}, "H": {"S"}, "C": {"B", "S"}}.get(k, set())
            if not needs <= kinds:
                continue
            for x in range(10):
                for y in range(10):
                    c = (x, y)
                    if c in pieces:
                        continue
                    if not r["fortress_buildings"] and k in "BST" and (c in forts[0] or c in forts[1]):
                        continue
                    if k == "T":
                        n = sum(1 for (ox, oy), p in own.items() if p.upper() == "I" and max(abs(ox - x), abs(oy - y)) == 1)
                        if n < r["tower_infantry"]:
                            continue
                    elif c not in zone:
                        continue
                    out.add(f"{k if side == 0 else k.lower()}@{name(x, y)}")
        return out
    out.add("pass")
    for a, p in own.items():
        if a in fresh:
            continue
        k = p.upper()
        for x in range(10):
            for y in range(10):
                b = (x, y)
                ln = line(x - a[0], y - a[1])
                if ln is None or b in pieces:
                    continue
                kind, dist = ln
                ok = False
                if k in "IA":
                    ok = dist == 1
                elif k == "C":
                    ok = kind == "orth" and dist == 1
                elif k in "HP":
                    reach = r["ride_orth"] if kind == "orth" else r["ride_diag"]
                    ok = dist <= reach and (r["ride_jump"] or not any(c in pieces for c in between(a, b)))
                if ok:
                    out.add(f"{name(*a)}-{name(x, y)}")
        if k in "BS" or DAMAGE[k] == 0:
            continue
        targets = []
        for b, q in pieces.items():
            if (q.isupper()) == (side == 0):
                continue
            ln = line(b[0] - a[0], b[1] - a[1])
            if k in "IH":
                ok = ln is not None and ln[1] == 1
            elif ln is None:
                ok = False
            else:
                kind, dist = ln
                if k == "C":
                    lo = r["catapult_dead"] + 1
                    hi = r["catapult_orth"] if kind == "orth" else r["catapult_diag"]
                else:
                    lo, hi = 1, (r["archer_orth"] if kind == "orth" else r["archer_diag"])
                ok = lo <= dist <= hi
                blocked = r["shot_blocking"] == "all" or (r["shot_blocking"] == "except_catapult" and k != "C")
                if ok and blocked and any(c in pieces for c in between(a, b)):
                    ok = False
            if ok:
                targets.append(b)
        if targets:
            if r["attack_mode"] == "all":
                out.add(f"{name(*a)}x*")
            else:
                out.update(f"{name(*a)}x{name(*b)}" for b in targets)
    return out


def reference_successes(a: tuple[int, int], b: tuple[int, int], ak: str, tk: str, r: dict) -> int:
    forts = [cells_of(r["fortress_red"]), cells_of(r["fortress_black"])]
    dmg = DAMAGE[ak]
    half = any(b in f and (r["fortress_inside"] == "halved" or a not in f) for f in forts)
    n = 0
    for ra in range(1, 7):
        for rd in range(1, 7):
            if half:
                ok = (2 * ra + dmg > 2 * (rd + ARMOUR[tk])) if r["fortress_rounding"] == "exact" else \
                    (ra + dmg // 2 > rd + ARMOUR[tk])
            else:
                ok = ra + dmg > rd + ARMOUR[tk]
            n += ok
    return n


TOGGLE_CHOICES = {
    "shot_blocking": ["none", "all", "except_catapult"], "attack_mode": ["single", "all"], "ride_jump": [False, True],
    "placement_fortress": ["own", "any"], "fortress_buildings": [True, False], "fortress_rounding": ["exact", "down"],
    "fortress_inside": ["full", "halved"], "catapult_dead": [0, 1, 2], "tower_infantry": [0, 1, 2, 3],
    "ride_orth": [1, 3, 5], "archer_diag": [1, 2, 4],
}


@pytest.mark.parametrize("seed", range(6))
def test_engine_agrees_with_a_naive_reading(seed):
    rng = random.Random(seed)
    for _ in range(60):
        values = {k: rng.choice(v) for k, v in TOGGLE_CHOICES.items() if rng.random() < 0.5}
        if rng.random() < 0.3:
            values.update(fortress_red="e1,f1,e2,f2", fortress_black="e9,f9,e10,f10")
        rules = G.rules(values)
        r = dict(rules)
        cells = [(x, y) for x in range(10) for y in range(10)]
        chosen = rng.sample(cells, rng.randint(2, 30))
        pieces = {chosen[0]: "P", chosen[1]: "p"}
        for c in chosen[2:]:
            k = rng.choice("BSTIAHCIIAH")
            pieces[c] = k if rng.random() < 0.5 else k.lower()
        side = rng.randint(0, 1)
        phase = rng.choice(["buy", "act"])
        coins = rng.choice([0, 2, 3, 4, 10, 30])
        own_cells = [c for c, p in pieces.items() if p.isupper() == (side == 0) and p.upper() != "P"]
        fresh = set(rng.sample(own_cells, min(1, len(own_cells)))) if phase == "act" and rng.random() < 0.5 else set()
        pos = {"to_move": ("red", "black")[side], "phase": phase, "coins": {"red": coins, "black": coins},
               "pieces": {name(*c): p for c, p in pieces.items()}, "fresh": [name(*c) for c in fresh]}
        state = build_state(pos, config(rules))
        got = {state.action_to_string(a) for a in state.legal_actions()}
        want = reference_legal(pieces, side, phase, coins, fresh, r)
        assert got == want, (values, pos, sorted(got ^ want))
        if phase == "act":
            for text in got:
                if "x" in text and not text.endswith("*"):
                    a, b = text.split("x")
                    ac = (FILES.index(a[0]), int(a[1:]) - 1)
                    bc = (FILES.index(b[0]), int(b[1:]) - 1)
                    n = state.success_count(ac[0] * 10 + ac[1], bc[0] * 10 + bc[1])
                    assert n == reference_successes(ac, bc, pieces[ac].upper(), pieces[bc].upper(), r), text


class FlowReference:
    """Section 4 and 9 as plain code: income, phases, fresh, bought, removed, quiet, draw, cap, victory."""

    def __init__(self, r: dict) -> None:
        self.r = r
        red, black = cells_of(r["fortress_red"]), cells_of(r["fortress_black"])
        p_red = min(red, key=lambda c: (c[1], c[0]))
        p_black = min(black, key=lambda c: (-c[1], c[0]))
        self.pieces = {p_red: "P", p_black: "p"}
        self.coins = [r["start_coins"], r["start_coins"]]
        self.side, self.turn, self.quiet = 0, 1, 0
        self.fresh: set = set()
        self.bought, self.removed = 0, False
        self.victory: str | None = None
        self.winner: int | None = None
        self.phase = "buy"
        self.begin()

    def begin(self) -> None:
        if self.r["income_timing"] == "start":
            self.coins[self.side] += self.r["income"]
        self.phase = "buy" if self.r["turn_order"] == "buy_first" and self.r["purchases_per_turn"] > 0 else "act"

    def end_buy(self) -> None:
        self.bought = 0
        if self.r["turn_order"] == "buy_first":
            self.phase = "act"
        else:
            self.end_turn()

    def end_act(self) -> None:
        if self.r["turn_order"] == "buy_first" or self.r["purchases_per_turn"] == 0:
            self.end_turn()
        else:
            self.phase = "buy"

    def clear(self) -> None:
        self.fresh, self.bought, self.removed = set(), 0, False

    def end_turn(self) -> None:
        if self.r["income_timing"] == "end":
            self.coins[self.side] += self.r["income"]
        self.quiet = 0 if self.removed else self.quiet + 1
        self.clear()
        if self.r["draw_after"] is not None and self.quiet >= self.r["draw_after"]:
            self.phase, self.victory = "over", "draw"
        elif self.turn >= self.r["max_turns"]:
            self.phase, self.victory = "over", "unfinished"
        else:
            self.turn += 1
            self.side = 1 - self.side
            self.begin()

    def play(self, text: str) -> None:
        cell = lambda s: (FILES.index(s[0]), int(s[1:]) - 1)  # noqa: E731
        if text == "nobuy":
            return self.end_buy()
        if text == "pass":
            return self.end_act()
        if "@" in text:
            k, c = text.split("@")
            self.pieces[cell(c)] = k.upper() if self.side == 0 else k.lower()
            self.coins[self.side] -= COST[k.upper()]
            self.bought += 1
            if self.r["turn_order"] == "buy_first":
                self.fresh.add(cell(c))
            if self.bought >= self.r["purchases_per_turn"]:
                self.end_buy()
            return None
        if "-" in text:
            a, b = text.split("-")
            self.pieces[cell(b)] = self.pieces.pop(cell(a))
            return self.end_act()
        move, dice = text.split()
        a, b = (cell(s) for s in move.split("x"))
        ra, rd = int(dice[0]), int(dice[2])
        n_ok = (ra - 1) * 6 + (rd - 1)
        hit = any(i == n_ok for i in _successful(a, b, self.pieces[a].upper(), self.pieces[b].upper(), self.r))
        if hit:
            victim = self.pieces.pop(b)
            self.removed = True
            if victim.upper() == "P":
                self.phase, self.victory, self.winner = "over", "prince", self.side
                self.clear()
                return None
        return self.end_act()

    def position(self) -> dict:
        d = {"to_move": ("red", "black")[self.side], "phase": self.phase, "turn": self.turn,
             "coins": {"red": self.coins[0], "black": self.coins[1]},
             "pieces": {name(*c): p for c, p in sorted(self.pieces.items())}}
        if self.fresh:
            d["fresh"] = [name(*c) for c in sorted(self.fresh)]
        if self.bought:
            d["bought"] = self.bought
        if self.removed:
            d["removed"] = True
        d["quiet"] = self.quiet
        if self.phase == "over":
            d["winner"] = None if self.winner is None else ("red", "black")[self.winner]
            d["victory"] = self.victory
        return d


def _successful(a, b, ak, tk, r) -> list[int]:
    """Outcome numbers (r_a - 1) * 6 + (r_d - 1) that remove the target, by the contract's comparison."""
    forts = [cells_of(r["fortress_red"]), cells_of(r["fortress_black"])]
    dmg = r[f"damage_{ak}"]
    arm = r[f"armour_{tk}"]
    half = any(b in f and (r["fortress_inside"] == "halved" or a not in f) for f in forts)
    out = []
    for ra in range(1, 7):
        for rd in range(1, 7):
            if not half:
                ok = ra + dmg > rd + arm
            elif r["fortress_rounding"] == "exact":
                ok = 2 * ra + dmg > 2 * (rd + arm)
            else:
                ok = ra + dmg // 2 > rd + arm
            if ok:
                out.append((ra - 1) * 6 + (rd - 1))
    return out


FLOW_RULES = [
    {}, {"income_timing": "end"}, {"turn_order": "act_first"}, {"purchases_per_turn": 2, "start_coins": 8},
    {"purchases_per_turn": 0}, {"turn_order": "act_first", "purchases_per_turn": 3, "income": 3},
    {"draw_after": 4, "max_turns": 80}, {"turn_order": "act_first", "draw_after": 3, "income_timing": "end"},
    {"fortress_red": "e1,f1,e2,f2", "fortress_black": "e9,f9,e10,f10", "max_turns": 50},
]


@pytest.mark.parametrize("values", FLOW_RULES, ids=lambda v: ",".join(f"{k}={x}" for k, x in v.items()) or "defaults")
def test_turn_flow_agrees_with_a_plain_reading(values):
    from workbench.games.pole import action_text, sample_chance
    from workbench.games.pole.state import position_dict

    rules = G.rules({"max_turns": 150, **values})
    r = dict(rules)
    endings = set()
    for seed in range(3):
        state = G.new_initial_state(rules, seed=seed)
        ref = FlowReference(r)
        dice, choice = random.Random(seed), random.Random(seed + 7)
        assert position_dict(state) == ref.position()
        while not state.is_terminal():
            acts = state.legal_actions()
            # prefer attacks now and then so that removals, victories and resets happen
            attacks = [a for a in acts if a >= 10702]
            action = choice.choice(attacks) if attacks and choice.random() < 0.5 else choice.choice(acts)
            state.apply_action(action)
            if state.current_player() == -1:
                outcome = sample_chance(state, dice)
                text = action_text(state, outcome)
                state.apply_action(outcome)
            else:
                text = _last_text(state)
            ref.play(text)
            assert position_dict(state) == ref.position(), text
        endings.add(state.victory())
    assert endings <= {"prince", "draw", "unfinished"} and endings

def _last_text(state) -> str:
    """The text of the last decision (undo, read, redo)."""
    action = state.history[-1]
    state.undo_action()
    text = state.action_to_string(action)
    state.apply_action(action)
    return text


@pytest.mark.parametrize("blocking", ["none", "all", "except_catapult"])
def test_reaches_matches_zone_targets(blocking):
    rng = random.Random(len(blocking))
    rules = G.rules({"shot_blocking": blocking})
    for _ in range(40):
        cells = rng.sample(range(100), 25)
        pieces = {f"{FILES[c // 10]}{c % 10 + 1}": rng.choice("BSTIAHCiahct") for c in cells[2:]}
        pieces[f"{FILES[cells[0] // 10]}{cells[0] % 10 + 1}"] = "P"
        pieces[f"{FILES[cells[1] // 10]}{cells[1] % 10 + 1}"] = "p"
        s = build_state({"phase": "act", "coins": {"red": 0, "black": 0}, "pieces": pieces}, config(rules))
        for a in range(100):
            if s.board[a]:
                assert {t for t in range(100) if s.board[t] and (s.board[t] - 1) >> 3 != (s.board[a] - 1) >> 3
                        and s.reaches(a, t)} == set(s.zone_targets(a))
