"""Differential test: the production engine against the clean-room reference rules (``reference/`` beside this file).

Lean on purpose (a few games and hand-made positions); the big sweep is run by hand with
``reference.diff.run_game`` over hundreds of seeds, see docs/reference-diff.md.
"""

from __future__ import annotations

import random

import pytest
from reference.diff import Tally, expand_all, play, run_game
from reference.rules import is_checkmated

from workbench.games.terrafeud.engine import new_game, state_from_dict, state_to_dict

NO_TERRAIN = {"hill": False, "swamp": False}


def _report(tally: Tally) -> str:
    lines = []
    for d in tally.disagreements[:5]:
        lines.append(f"{d.kind} {d.action!r}: {d.detail}\n  position: {d.position}")
    return "\n".join(lines)


@pytest.mark.parametrize(
    "rules,seed",
    [
        ({}, 1),
        ({"season": "winter", "castling": "sacrifice", "archer_melee": True}, 2),
        ({"mate_defence": "any", "pike_cavalry_mutual": True, "draw_after": 12, "terrain": "fixed"}, 3),
    ],
)
def test_classic_games_agree(rules, seed):
    tally = Tally()
    play(new_game(rules, seed=seed), random.Random(seed), 50, tally)
    assert tally.plies > 10
    assert not tally.disagreements, _report(tally)


@pytest.mark.parametrize("seed", [11, 12, 13, 14, 15, 16])
def test_scattered_positions_agree(seed):
    """Crowded random positions (river, castles, markers, pools) with some plies fully expanded."""
    tally = Tally()
    run_game(seed, 25, tally, scatter=True, expand=0.2)
    assert not tally.disagreements, _report(tally)


def P(pieces, to_move="white", rules=None, **extra):
    r = dict(NO_TERRAIN)
    r.update(rules or {})
    return {"rules": r, "pieces": pieces, "to_move": to_move, **extra}


HANDMADE = {
    # knight through the centre bridge kills the infantryman on it (section 2)
    "bridge-kill": P({"f1": "F", "f11": "f", "f4": "K", "f6": "i", "e8": "i", "g8": "i"}),
    # an enemy mine on the bridge ends the slide there (fine print)
    "bridge-mine": P({"f1": "F", "f11": "f", "f4": "K", "f6": "i", "f9": "a"}, markers={"f9": "f6"}),
    # knight blocked by a ford in summer, passes in winter (ruling 1)
    "knight-ford-winter": P({"f1": "F", "f11": "f", "d3": "K", "d7": "p"}, rules={"season": "winter"}),
    # cavalry stopped in a pikeman's zone vs exact landing (W2, W4)
    "cavalry-zone": P({"f1": "F", "f11": "f", "d4": "C", "e7": "p", "f7": "i", "c7": "p"}),
    # coordinated attack: two infantry next to a knight, first in board order dies (ruling 6)
    "coordinated": P({"f1": "F", "f11": "f", "e5": "I", "g4": "I", "f6": "k", "d6": "i", "h6": "i"}),
    # Order with promotions from the pool (W12, W13)
    "order-promotion": P(
        {"f8": "F", "f11": "f", "e9": "I", "g9": "I", "h8": "I", "a6": "i"},
        destroyed={"white": ["A", "K", "A"], "black": []},
        aura_ready=["e9", "g9"],
    ),
    # ultimatum on the feudal, castling moves it onto the infantryman (W11, fine print)
    "castling-ultimatum": P(
        {"f1": "F", "f2": "I", "e1": "I", "f11": "f", "f3": "a", "d3": "a"},
        markers={"f3": "f1", "d3": "e1"},
        ultimatum_pending=["f1", "e1"],
    ),
    # the feudal is attacked by a knight with few escapes (W10)
    "threat": P({"e1": "F", "f11": "f", "e6": "k", "d1": "I", "f2": "I", "c4": "c", "h3": "c"}),
    # archers in melee range and a mine in front of an infantryman (W7 1-2)
    "archers": P(
        {"f1": "F", "f11": "f", "c3": "I", "c5": "a", "e4": "A", "e6": "a", "h3": "P", "h6": "c"},
        markers={"c5": "c4", "e4": "e6", "e6": "e3"},
        ultimatum_pending=[],
        to_move="white",
    ),
    # pike_cavalry_mutual with the pikeman on its own side's marker: does the mine still fire? (W15, W7 1)
    "mutual-mine": P(
        {"f1": "F", "f11": "f", "d4": "C", "d6": "p", "d8": "a"},
        markers={"d8": "d6"},
        rules={"pike_cavalry_mutual": True},
    ),
    # both feudals die in one action: the white feudal on a mine (trigger 1) before the coordinated
    # attack on the black one (trigger 3) (fine print: victory precedence)
    "both-feudals": P({"e3": "F", "f9": "f", "e8": "I", "g8": "I", "h5": "a", "h8": "I"}, markers={"h5": "f4"}),
    # a quiet move that mates and reaches draw_after at once (section 8: the checkmate wins)
    "draw-and-mate": P(
        {"a1": "F", "a2": "I", "b1": "I", "b2": "K", "f11": "f", "d4": "c", "d5": "c"},
        to_move="black",
        castled=["white"],
        rules={"season": "winter", "draw_after": 1},
    ),
    # the same mate with mate_defence=any (W10 toggle)
    "mate-any": P(
        {"a1": "F", "a2": "I", "b1": "I", "b2": "K", "f11": "f", "d4": "c", "d5": "c"},
        to_move="black",
        castled=["white"],
        rules={"season": "winter", "mate_defence": "any"},
    ),
}


@pytest.mark.parametrize("name", sorted(HANDMADE))
@pytest.mark.parametrize("season", ["summer", "winter"])
def test_handmade_positions_agree(name, season):
    d = dict(HANDMADE[name])
    d["rules"] = dict(d["rules"], season=d["rules"].get("season", season))
    st = state_from_dict(d)
    loaded = state_to_dict(st)
    assert is_checkmated(dict(loaded, victory=None, winner=None)) == (loaded["victory"] == "checkmate")
    tally = Tally()
    if loaded["victory"] is None:
        expand_all(st, tally)
        play(st, random.Random(len(name)), 8, tally)
    assert not tally.disagreements, _report(tally)


@pytest.mark.parametrize("castling", ["swap", "sacrifice"])
def test_castling_onto_summer_river(castling):
    """D1 of docs/reference-diff.md, now a ruling: no castling onto ordinary summer river."""
    st = state_from_dict(P({"e4": "F", "e5": "I", "f11": "f"}, rules={"castling": castling}))
    tally = Tally()
    expand_all(st, tally)
    assert not tally.disagreements, _report(tally)
