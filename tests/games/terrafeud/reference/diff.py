"""Differential driver: the production engine against the reference rules, ply by ply.

At every ply the reference gets the engine's own position (``state_to_dict``), so one
disagreement does not snowball: the legal action sets are compared, then the engine's choice is
applied by both and the resulting positions are compared field by field.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from workbench.games.terrafeud.engine import new_game, state_from_dict, state_to_dict
from workbench.games.terrafeud.engine.geometry import HEX_NAMES, NEIGHBOURS

from .rules import apply_action, is_checkmated, legal_actions, successors

FIELDS = ("pieces", "to_move", "markers", "ultimatum_pending", "castled", "aura_ready", "winner", "victory", "ply")


def compare_positions(ref: dict, eng: dict) -> list[str]:
    out = []
    for k in FIELDS:
        a, b = ref.get(k), eng.get(k)
        if isinstance(a, list):
            a, b = sorted(a), sorted(b or [])
        if a != b:
            out.append(f"{k}: reference {a!r} engine {b!r}")
    for s in ("white", "black"):
        a = Counter(x.upper() for x in ref["destroyed"][s])
        b = Counter(x.upper() for x in eng["destroyed"][s])
        if a != b:
            out.append(f"destroyed.{s}: reference {sorted(a.elements())} engine {sorted(b.elements())}")
    if ref["rules"].get("draw_after") and ref.get("quiet") != eng.get("quiet"):
        out.append(f"quiet: reference {ref.get('quiet')} engine {eng.get('quiet')}")
    return out


@dataclass
class Disagreement:
    kind: str  # "legal" | "apply" | "mate-at-load"
    position: dict
    action: str | None
    detail: str


@dataclass
class Tally:
    games: int = 0
    plies: int = 0
    disagreements: list[Disagreement] = field(default_factory=list)
    events: Counter = field(default_factory=Counter)


def categorize(text: str, before: dict, after: dict) -> list[str]:
    """Rough labels of what an action exercised, for coverage counts."""
    out = []
    for mark, label in (("=", "promotion"), ("order", "order"), ("<>", "castling"), ("*", "shot"), ("pass", "pass")):
        if mark in text:
            out.append(label)
    lost = len(before["pieces"]) - len(after["pieces"])
    captures = text.count("x")
    if lost > captures:
        out.append("trigger-removal")
    if len(after["markers"]) < len(before["markers"]) and "*" not in text:
        out.append("marker-gone")
    if after["victory"]:
        out.append("victory-" + after["victory"])
    return out


INTERESTING = ("x", "=", "order", "<>", "*")


def pick(rng: random.Random, texts: list[str]) -> str:
    """Mostly uniform, sometimes an action of a rare kind, to reach rare rules more often."""
    if rng.random() < 0.35:
        rare = [t for t in texts if any(m in t for m in INTERESTING)]
        if rare:
            return rng.choice(rare)
    return rng.choice(texts)


def expand_all(st, tally: Tally) -> None:
    """Apply every legal action of ``st`` in both implementations and compare the results."""
    d = state_to_dict(st)
    eng_actions = {st.action_to_string(a): a for a in st.legal_actions()}
    ref_next = successors(d)
    ref_actions = set(ref_next)
    tally.plies += 1
    if set(eng_actions) != ref_actions:
        only_eng = sorted(set(eng_actions) - ref_actions)
        only_ref = sorted(ref_actions - set(eng_actions))
        tally.disagreements.append(Disagreement("legal", d, None, f"engine only {only_eng}; reference only {only_ref}"))
    for text in sorted(set(eng_actions) & ref_actions):
        child = st.clone()
        child.apply(eng_actions[text])
        eng_next = state_to_dict(child)
        tally.events.update(categorize(text, d, eng_next))
        diffs = compare_positions(ref_next[text], eng_next)
        if diffs:
            tally.disagreements.append(Disagreement("apply", d, text, "; ".join(diffs)))


def play(st, rng: random.Random, max_plies: int, tally: Tally, stop_after: int = 20, expand: float = 0.0) -> None:
    """Play one game from engine state ``st``, comparing at every ply."""
    tally.games += 1
    d0 = state_to_dict(st)
    if d0["victory"] == "checkmate":
        tally.events["mate-at-load"] += 1
    if d0.get("ply", 0) == 0 and d0["victory"] in (None, "checkmate"):
        ref_mate = is_checkmated(dict(d0, victory=None, winner=None))
        if ref_mate != (d0["victory"] == "checkmate"):
            tally.disagreements.append(
                Disagreement("mate-at-load", d0, None, f"reference mated={ref_mate}, engine victory={d0['victory']}")
            )
    for _ in range(max_plies):
        d = state_to_dict(st)
        if d["victory"] is not None:
            break
        if rng.random() < expand:
            expand_all(st, tally)
        eng_actions = {st.action_to_string(a): a for a in st.legal_actions()}
        ref_actions = legal_actions(d)
        tally.plies += 1
        if set(eng_actions) != ref_actions:
            only_eng = sorted(set(eng_actions) - ref_actions)
            only_ref = sorted(ref_actions - set(eng_actions))
            tally.disagreements.append(
                Disagreement("legal", d, None, f"engine only {only_eng}; reference only {only_ref}")
            )
            if len(tally.disagreements) >= stop_after:
                return
        common = sorted(set(eng_actions) & ref_actions)
        if not common:
            break
        text = pick(rng, common)
        st.apply(eng_actions[text])
        eng_next = state_to_dict(st)
        ref_next = apply_action(d, text)
        tally.events.update(categorize(text, d, eng_next))
        diffs = compare_positions(ref_next, eng_next)
        if diffs:
            tally.disagreements.append(Disagreement("apply", d, text, "; ".join(diffs)))
            if len(tally.disagreements) >= stop_after:
                return


# --- hand-made positions that make rare rules likely --------------------------------------------
LETTERS = "KPPCCAAIIIIII"


def scatter_position(rng: random.Random, rules: dict, seed: int) -> dict | None:
    """A random crowded position near the river and castles, with markers and pools."""
    base = state_to_dict(new_game(rules, seed=seed))
    # no piece on an enemy castle centre, and none on ordinary river in summer: no game reaches
    # those (the second is disagreement D1 of docs/reference-diff.md, pinned by its own test)
    unreachable = {"f1", "f11"}
    if rules.get("season", "summer") == "summer":
        unreachable |= {"a3", "a4", "c4", "c5", "e5", "e6", "g5", "g6", "i4", "i5", "l3", "l4"}
    hexes = [h for h in range(len(HEX_NAMES)) if HEX_NAMES[h] not in unreachable]
    pieces: dict[int, str] = {}
    # feudals near their castles or somewhere in their half, never adjacent
    wf = rng.choice([h for h in hexes if HEX_NAMES[h] in ("e1", "g1", "f2", "e2", "g2", "f3", "d3", "h3", "f4")])
    bf = rng.choice([h for h in hexes if HEX_NAMES[h] in ("e10", "g10", "f10", "e9", "g9", "f9", "d8", "h8", "f8")])
    focus = rng.choice(["river", "white_castle", "black_castle", "anywhere", "feudal", "duel"])
    if focus == "duel":  # feudals facing each other across the river: threats, parries, mates
        from workbench.games.terrafeud.engine.geometry import DISTANCE

        def row(h: int) -> int:
            return 2 * (int(HEX_NAMES[h][1:]) - 1) + abs("abcdefghikl".index(HEX_NAMES[h][0]) - 5)

        wf = rng.choice([h for h in hexes if 3 <= row(h) <= 8])
        near = [h for h in hexes if row(h) >= 9 and 2 <= DISTANCE[h][wf] <= 3]
        bf = rng.choice(near) if near else bf
        focus = "feudal"
    pieces[wf], pieces[bf] = "F", "f"

    def weight(h: int) -> float:
        name = HEX_NAMES[h]
        y = 2 * (int(name[1:]) - 1) + abs("abcdefghikl".index(name[0]) - 5)
        if focus == "river":
            return 4.0 if 6 <= y <= 14 else 1.0
        if focus == "white_castle":
            return 4.0 if y <= 5 else 1.0
        if focus == "black_castle":
            return 4.0 if y >= 15 else 1.0
        if focus == "feudal":
            from workbench.games.terrafeud.engine.geometry import DISTANCE

            return 4.0 if min(DISTANCE[h][wf], DISTANCE[h][bf]) <= 3 else 0.5
        return 1.0

    n_white = rng.randint(3, 11)
    n_black = rng.randint(3, 11)
    for side, n in (("white", n_white), ("black", n_black)):
        for letter in rng.sample(LETTERS, n):
            free = [h for h in hexes if h not in pieces]
            h = rng.choices(free, weights=[weight(x) for x in free])[0]
            pieces[h] = letter if side == "white" else letter.lower()
    # feudals must not be adjacent
    if bf in NEIGHBOURS[wf]:
        return None
    markers = {}
    for h, c in pieces.items():
        if c.upper() == "A" and rng.random() < 0.7:
            from workbench.games.terrafeud.engine.geometry import DISTANCE

            targets = [t for t in hexes if 1 <= DISTANCE[h][t] <= 3 and (t not in pieces or pieces[t].isupper() != c.isupper())]
            if targets:
                markers[h] = rng.choice(targets)
    to_move = rng.choice(["white", "black"])
    pending = [
        HEX_NAMES[t] for a, t in markers.items()
        if t in pieces and pieces[t].isupper() == (to_move == "white") and pieces[a].isupper() != (to_move == "white")
    ]
    pool_letters = "KPCAI"
    destroyed = {
        "white": [rng.choice(pool_letters) for _ in range(rng.randint(0, 4))],
        "black": [rng.choice(pool_letters).lower() for _ in range(rng.randint(0, 4))],
    }
    aura = [HEX_NAMES[h] for h, c in pieces.items() if c.upper() == "I" and rng.random() < 0.7]
    castled = [s for s in ("white", "black") if rng.random() < 0.3]
    d = {
        "rules": base["rules"],
        "seed": seed,
        "terrain": base["terrain"],
        "to_move": to_move,
        "pieces": {HEX_NAMES[h]: c for h, c in pieces.items()},
        "markers": {HEX_NAMES[a]: HEX_NAMES[t] for a, t in markers.items()},
        "ultimatum_pending": pending,
        "castled": castled,
        "aura_ready": aura,
        "destroyed": destroyed,
    }
    return d


def random_rules(rng: random.Random) -> dict:
    return {
        "season": rng.choice(["summer", "winter"]),
        "hill": rng.random() < 0.8,
        "swamp": rng.random() < 0.8,
        "terrain": rng.choice(["rolled", "fixed"]),
        "castling": rng.choice(["swap", "sacrifice"]),
        "archer_melee": rng.random() < 0.4,
        "mate_defence": rng.choice(["feudal", "any"]),
        "draw_after": rng.choice([None, None, 6, 20]),
        "pike_cavalry_mutual": rng.random() < 0.4,
    }


def run_game(seed: int, max_plies: int, tally: Tally, scatter: bool, expand: float = 0.0) -> None:
    rng = random.Random(seed)
    rules = random_rules(rng)
    if scatter:
        for _ in range(50):
            d = scatter_position(rng, rules, seed)
            if d is None:
                continue
            try:
                st = state_from_dict(d)
            except ValueError:
                continue
            break
        else:
            return
    else:
        st = new_game(rules, seed=seed)
    play(st, rng, max_plies, tally, expand=expand)
