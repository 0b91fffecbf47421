"""Pole's designer tools: evaluation, heat layers, glyphs, action effects, counters, rows and luck."""

from __future__ import annotations

import pytest

from workbench.games import get
from workbench.games.pole import apply_text
from workbench.games.pole.analysis import FORTRESS_BONUS, PRINCE_WEIGHT, prince_danger
from workbench.games.pole.board import BY_NAME
from workbench.games.pole.position import build_state
from workbench.games.pole.tables import config

G = get("pole")


def pos(pieces: dict[str, str], coins=(0, 0), rules=None, **extra):
    return build_state({"coins": {"red": coins[0], "black": coins[1]}, "phase": "act", "pieces": pieces, **extra},
                       config(G.rules(rules or {})))


def test_evaluate_terms():
    # symmetric start: only the tempo (half an income for the side to move) separates the sides
    s = G.new_initial_state()
    assert s.evaluate(0) == pytest.approx(1 + 0.5)  # Red has one coin more (its first income) and the move
    assert s.evaluate(0) == pytest.approx(-s.evaluate(1))
    # material counts the cost parameters; the Prince is not material
    s = pos({"a1": "P", "j10": "p", "d2": "B", "d3": "C"}, coins=(2, 0))
    assert s.evaluate(0) == pytest.approx(3 + 4 + 2 + 0.5)
    # fortress safety: an enemy catapult with the Prince in range costs PRINCE_WEIGHT * 10/36
    s = pos({"e5": "P", "e9": "p", "e1": "c"})
    assert prince_danger(s, 0) == pytest.approx(10 / 36)
    want = (0.5 - PRINCE_WEIGHT * 10 / 36) - (4 + FORTRESS_BONUS)
    assert s.evaluate(0) == pytest.approx(want)
    # a finished game
    s = pos({"a1": "P"}, phase="over", victory="prince", winner="red")
    assert s.evaluate(0) == 1000 and s.evaluate(1) == -1000


def test_heat_layers():
    s = pos({"a1": "P", "j10": "p", "e5": "I", "e6": "a", "e9": "c"})
    threat = s.heat("threat", 0)
    assert threat[BY_NAME["e6"]] == 1 and threat[BY_NAME["d4"]] == 1 and BY_NAME["e5"] not in threat
    assert threat[BY_NAME["b2"]] == 1  # the Prince's ARCHER zone
    control = s.heat("control", 0)
    assert control[BY_NAME["e5"]] < 0  # Black's archer and catapult reach e5
    odds = s.heat("odds", 0)
    assert odds[BY_NAME["e6"]] == pytest.approx(15 / 36)
    assert odds[BY_NAME["e9"]] == 0.0 and odds[BY_NAME["j10"]] == 0.0
    black = s.heat("odds", 1)
    assert black[BY_NAME["e5"]] == pytest.approx(26 / 36)  # catapult on e9 against the infantryman
    with pytest.raises(ValueError, match="threat"):
        s.heat("nope", 0)


def test_glyphs_and_effects():
    s = pos({"a1": "P", "e9": "p", "e5": "C", "d2": "B"}, coins=(5, 0))
    g = {x.cell: x for x in s.glyphs()}
    assert g[BY_NAME["e9"]].terrain == "fortress-black" and g[BY_NAME["e9"]].piece == "p"
    assert g[BY_NAME["e5"]].owner == 0 and "a3" in g[BY_NAME["e5"]].badges and "d4" in g[BY_NAME["e5"]].badges
    attack = s.string_to_action("e5xe9")
    eff = s.action_effects(attack)
    assert eff["odds"] == {"e9": "3/36"} and eff["may_end"] and eff["removed"] == [BY_NAME["e9"]]
    s.apply_action(attack)
    marks = {x.cell: x.marks for x in s.glyphs()}
    assert "attacker" in marks[BY_NAME["e5"]] and "target" in marks[BY_NAME["e9"]]
    hit = s.string_to_action("6:1")
    assert s.action_effects(hit)["ends"] is True
    assert s.action_effects(s.string_to_action("1:1"))["removed"] == []
    assert s.action_priority(0) == 0  # at a chance node


def test_counters_rows_and_luck():
    s = pos({"a1": "P", "j10": "p", "e5": "H", "e6": "i", "d2": "B"}, coins=(5, 5))
    row = G.event_row(s, s.string_to_action("e5xe6"))
    assert row["notation"] == "e5xe6" and row["chance_36"] == 15
    apply_text(s, "e5xe6 6:1")
    c = s.counters()
    assert c["attack"] == [1, 0] and c["attack_hit"] == [1, 0] and c["expected_36"] == [15, 0]
    assert ("removed", 0, BY_NAME["e6"]) in s.fired()
    apply_text(s, "nobuy")
    apply_text(s, "pass")
    apply_text(s, "I@d3")
    fresh_row = G.event_row(s, s.string_to_action("e5-e6"))
    assert fresh_row["phase"] == "act"
    s.apply_action(s.string_to_action("a1-a2"))
    row = G.game_row(s)
    assert row["attacks_red"] == 1 and row["attacks_succeeded_red"] == 1
    assert row["luck_red"] == pytest.approx(1 - 15 / 36) and row["luck_black"] == 0
    assert row["bought_I_red"] == 1 and row["coins_spent_red"] == 2
    # the dice row carries the full notation
    t = pos({"a1": "P", "j10": "p", "e5": "H", "e6": "i"})
    t.apply_action(t.string_to_action("e5xe6"))
    dice_row = G.event_row(t, t.string_to_action("4:3"))
    assert dice_row["notation"] == "e5xe6 4:3" and dice_row["dice"] == "4:3" and dice_row["removed"] == "e6"
    words = G.rule_words()
    assert set(words) == set(c)
