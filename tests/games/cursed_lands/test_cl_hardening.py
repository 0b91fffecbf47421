"""Untrusted input: random junk in positions and checks only ever gives a named error, never a crash."""

from __future__ import annotations

import random

from workbench.core.rulespec import RulesError
from workbench.core.scenario import ScenarioError
from workbench.games.cursed_lands.position import POSITION_KEYS, PositionError, build_state
from workbench.games.cursed_lands.rules import SPEC
from workbench.games.cursed_lands.scenario import CHECK_KEYS, load_case

JUNK = [None, 0, -1, 3, 10**9, "x", "e5", "p1", "p3", "S", "s", "K", [], ["e5"], ["zz"], [1], {}, {"e5": "S"},
        {"e5": None}, {"p1": 3}, {"p1": None}, {"p1": {"castle": "e1"}}, {"p1": {"castle": "e1", "flags": []}},
        {"p1": "mp"}, {"p1": ["m", 3]}, True, 1.5, {"e5": 2}, {"e5": "mountain"}, {"z9": 1}, {1: 2}, "humans/orcs",
        {"p1": "elves", "p2": "x"}, "setup", "draw", "castle", {"e5": ["e6"]}, {"+S": "+S"}, ["+S", 3], "+S",
        {"p1": {"castle": "e1", "flags": {"C": "b1", "S": "d1", "A": "f1", "R": "x1"}}}]


def test_junk_positions_raise_position_errors_only():
    rng = random.Random(0)
    base = {"to_move": "p1", "ap": 3, "tiles_fill": "plain", "units": {"e5": "S", "i9": "s"}}
    rejected = 0
    for _ in range(3000):
        pos = dict(base)
        for _ in range(rng.randint(1, 3)):
            pos[rng.choice(POSITION_KEYS)] = rng.choice(JUNK)
        try:
            build_state(SPEC.defaults(), pos, rng.choice([None, 0, 5]))
        except (PositionError, RulesError) as exc:
            assert str(exc).startswith("position") or "parameter" in str(exc)
            rejected += 1
    assert rejected > 1000


def test_junk_checks_give_scenario_errors_or_results():
    rng = random.Random(1)
    for _ in range(1500):
        check = {rng.choice(CHECK_KEYS): rng.choice(JUNK) for _ in range(rng.randint(1, 3))}
        data = {"game": "cursed-lands", "id": "cl-junk", "title": "junk", "checks": [check]}
        try:
            case = load_case(data, "junk.yaml")
        except ScenarioError as exc:
            assert str(exc).startswith("junk.yaml")
            continue
        for result in case.run():
            assert result.status in ("pass", "fail", "error")
            assert "engine raised" not in result.message
