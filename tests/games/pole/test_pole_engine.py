"""Pole engine against the contract's tables, examples and rulings (hand-built positions)."""

from __future__ import annotations

import pytest

from workbench.core.protocol import CHANCE, TERMINAL, IllegalAction
from workbench.core.rulespec import RulesError
from workbench.games import get
from workbench.games.pole import apply_text
from workbench.games.pole.board import BY_NAME, NAMES
from workbench.games.pole.position import PositionError, build_state
from workbench.games.pole.tables import config, count_outcomes

G = get("pole")

# RULES-CONTRACT.md section 8: the success counts (out of 36), defenders A, I, H, C, P/B/S, T
DEFENDERS = ("A", "I", "H", "C", "P", "T")
CONTRACT = {
    "open": {"I": (15, 10, 10, 6, 1, 0), "A": (21, 15, 15, 10, 3, 1), "H": (21, 15, 15, 10, 3, 1),
             "T": (21, 15, 15, 10, 3, 1), "P": (26, 21, 21, 15, 6, 3), "C": (30, 26, 26, 21, 10, 6)},
    "exact": {"I": (15, 10, 10, 6, 1, 0), "A": (15, 10, 10, 6, 1, 0), "H": (15, 10, 10, 6, 1, 0),
              "T": (15, 10, 10, 6, 1, 0), "P": (21, 15, 15, 10, 3, 1), "C": (21, 15, 15, 10, 3, 1)},
    "down": {"I": (10, 6, 6, 3, 0, 0), "A": (15, 10, 10, 6, 1, 0), "H": (15, 10, 10, 6, 1, 0),
             "T": (15, 10, 10, 6, 1, 0), "P": (15, 10, 10, 6, 1, 0), "C": (21, 15, 15, 10, 3, 1)},
}
BY_K = {-6: 36, -5: 35, -4: 33, -3: 30, -2: 26, -1: 21, 0: 15, 1: 10, 2: 6, 3: 3, 4: 1, 5: 0}


def state(pieces: dict[str, str], rules: dict | None = None, **pos) -> object:
    """A position under ``rules`` (default coins 0/0, phase act unless given)."""
    cfg = config(G.rules(rules or {}))
    body = {"coins": {"red": 0, "black": 0}, "phase": "act", "pieces": pieces, **pos}
    return build_state(body, cfg)


def strings(s) -> list[str]:
    return [s.action_to_string(a) for a in s.legal_actions()]


def c(name: str) -> int:
    return BY_NAME[name]


def test_k_table_matches_contract():
    for k, n in BY_K.items():
        assert count_outcomes(2 * k) == n
    assert count_outcomes(-14) == 36 and count_outcomes(12) == 0


@pytest.mark.parametrize("mode", ["open", "exact", "down"])
def test_engine_success_table_equals_contract(mode):
    """The engine's 8 x 6 table (every attacker kind against every defender kind) equals section 8's."""
    rules = {"fortress_rounding": "down"} if mode == "down" else {}
    table = {}
    for att in "IAHTPC":
        row = []
        for dfd in DEFENDERS:
            # defender on the black fortress cell e8 for the fortress rows, else on e5; attacker adjacent-free
            tcell = "e8" if mode != "open" else "e5"
            acell = {"I": "e7", "H": "e7", "A": "e6", "T": "e6", "P": "e6", "C": "e6"}[att]
            if mode == "open":
                acell = {"I": "e4", "H": "e4", "A": "e3", "T": "e3", "P": "e3", "C": "e3"}[att]
            pieces = {acell: att, tcell: dfd.lower()}
            if att != "P":
                pieces["a1"] = "P"
            if dfd != "P":
                pieces["j10"] = "p"
            s = state(pieces, rules)
            assert c(tcell) in s.zone_targets(c(acell)), (att, dfd)
            row.append(s.success_count(c(acell), c(tcell)))
        table[att] = tuple(row)
    assert table == CONTRACT[mode]
    # B and S share the Prince's armour 5 column
    s = state({"e3": "C", "e5": "b", "a1": "P", "j10": "p"})
    assert s.success_count(c("e3"), c("e5")) == 10


def test_facts_worth_a_test():
    s = state({"e4": "I", "e5": "t", "a1": "P", "j10": "p"})
    assert s.success_count(c("e4"), c("e5")) == 0
    assert "e4xe5" in strings(s)  # P26: still legal
    s = state({"e5": "C", "e9": "p", "a1": "P"})
    assert s.success_count(c("e5"), c("e9")) == 3
    s = state({"e3": "C", "e6": "p", "a1": "P"})
    assert s.success_count(c("e3"), c("e6")) == 10


def test_classic_start():
    s = G.new_initial_state()
    d = s.to_dict()
    assert d["pieces"] == {"e2": "P", "e9": "p"}
    assert d["coins"] == {"red": 5, "black": 4}
    assert (d["phase"], d["turn"], d["to_move"]) == ("buy", 1, "red")
    assert s.current_player() == 0
    # P34: the back-edge fortresses put the Princes on e1 / e10
    s = G.new_initial_state(G.rules({"fortress_red": "e1,f1,e2,f2", "fortress_black": "e9,f9,e10,f10"}))
    assert s.to_dict()["pieces"] == {"e1": "P", "e10": "p"}
    # income at the end: Red starts with 4
    s = G.new_initial_state(G.rules({"income_timing": "end"}))
    assert s.to_dict()["coins"] == {"red": 4, "black": 4}


def test_placement_zone_is_4x4():
    s = G.new_initial_state()
    cells = {a % 100 for a in s.legal_actions() if a < 100}
    want = {f"{f}{r}" for f in "defg" for r in "1234"} - {"e2"}
    assert {NAMES[x] for x in cells} == want
    s = G.new_initial_state(G.rules({"fortress_red": "e1,f1,e2,f2", "fortress_black": "e9,f9,e10,f10"}))
    assert len(s.cfg.own_zone[0]) == 12


def test_prerequisites_and_tower():
    s = state({"e2": "P", "e9": "p", "d2": "B"}, phase="buy", coins={"red": 20, "black": 0})
    acts = strings(s)
    assert "I@d3" in acts and "A@d3" in acts and "H@d3" not in acts and "C@d3" not in acts
    assert "T@d3" not in acts
    s = state({"e2": "P", "e9": "p", "d2": "B", "g2": "S", "c5": "I", "e5": "I"}, phase="buy",
              coins={"red": 20, "black": 0})
    acts = strings(s)
    assert "C@g3" in acts and "H@g3" in acts
    assert [a for a in acts if a.startswith("T@")] == ["T@d4", "T@d5", "T@d6"]
    # enemy infantrymen do not count
    s = state({"e2": "P", "e9": "p", "c5": "I", "e5": "i"}, phase="buy", coins={"red": 20, "black": 0})
    assert not [a for a in strings(s) if a.startswith("T@")]
    with pytest.raises(IllegalAction, match="needs at least 2 own infantrymen"):
        s.string_to_action("T@d5")


def test_fortress_buildings_toggle():
    s = state({"e2": "P", "e9": "p"}, {"fortress_buildings": False}, phase="buy", coins={"red": 9, "black": 0})
    acts = strings(s)
    assert "B@f2" not in acts and "B@d2" in acts
    with pytest.raises(IllegalAction, match="P46"):
        s.string_to_action("B@f2")


def test_movement_patterns():
    s = state({"e5": "H", "e6": "i", "a1": "P", "j10": "p"})
    assert {NAMES[x] for x in s.destinations(c("e5"))} == {
        "e4", "e3", "e2", "d5", "c5", "b5", "f5", "g5", "h5", "d4", "c3", "f4", "g3", "d6", "c7", "f6", "g7"}
    s = state({"e5": "H", "e6": "i", "a1": "P", "j10": "p"}, {"ride_jump": True})
    assert {"e7", "e8"} <= {NAMES[x] for x in s.destinations(c("e5"))}
    s = state({"e5": "C", "a1": "P", "j10": "p"})
    assert {NAMES[x] for x in s.destinations(c("e5"))} == {"d5", "e4", "e6", "f5"}
    s = state({"a1": "P", "j10": "p"})
    assert {NAMES[x] for x in s.destinations(c("a1"))} == {"a2", "a3", "a4", "b1", "c1", "d1", "b2", "c3"}


def test_zones_and_blocking():
    s = state({"e5": "A", "e7": "I", "e8": "i", "h5": "i", "g7": "i", "f7": "i", "a1": "P", "j10": "p"})
    assert {NAMES[x] for x in s.zone_targets(c("e5"))} == {"e8", "h5", "g7"}  # f7 is a knight's offset
    s2 = state({"e5": "A", "e7": "I", "e8": "i", "h5": "i", "g7": "i", "a1": "P", "j10": "p"}, {"shot_blocking": "all"})
    assert {NAMES[x] for x in s2.zone_targets(c("e5"))} == {"h5", "g7"}
    # catapult dead cells and its ray
    s = state({"e5": "C", "e6": "i", "e7": "i", "e9": "i", "g7": "i", "h8": "i", "a1": "P", "j10": "p"})
    assert {NAMES[x] for x in s.zone_targets(c("e5"))} == {"e7", "e9", "g7", "h8"}
    s = state({"e5": "C", "e6": "i", "e7": "i", "a1": "P", "j10": "p"}, {"shot_blocking": "all"})
    assert s.zone_targets(c("e5")) == []
    s = state({"e5": "C", "e6": "i", "e7": "i", "a1": "P", "j10": "p"}, {"shot_blocking": "except_catapult"})
    assert {NAMES[x] for x in s.zone_targets(c("e5"))} == {"e7"}


def test_chance_node_and_dice():
    s = state({"e5": "C", "e9": "p", "a1": "P"})
    s.apply_action(s.string_to_action("e5xe9"))
    assert s.current_player() == CHANCE and s.legal_actions() == []
    out = s.chance_outcomes()
    assert [o for o, _ in out] == list(range(36)) and abs(sum(p for _, p in out) - 1) < 1e-12
    assert s.action_to_string(31) == "6:2"
    groups = s.chance_groups()
    assert sorted(len(g[2]) for g in groups) == [0, 1] and abs(sum(g[1] for g in groups) - 1) < 1e-12
    assert [g[1] for g in groups if g[2]][0] == pytest.approx(3 / 36)
    s.apply_action(s.string_to_action("6:2"))  # 2*6 + 4 > 2*(2 + 5): 16 > 14
    assert s.current_player() == TERMINAL and s.victory() == "prince" and s.winner() == 0
    assert s.to_dict()["turn"] == 1 and s.to_dict()["to_move"] == "red"


def test_attack_mode_all_uses_one_pair():
    s = state({"e5": "H", "e6": "a", "f6": "i", "d4": "s", "a1": "P", "j10": "p"}, {"attack_mode": "all"})
    assert "e5x*" in strings(s) and not any("xe6" in a for a in strings(s))
    apply_text(s, "e5x* 4:2")  # 4 + 2 > 2 + 1 (archer) yes; 4 + 2 > 2 + 2 yes; > 2 + 5 no
    assert s.board[c("e6")] == 0 and s.board[c("f6")] == 0 and s.board[c("d4")] != 0


def test_turn_flow_income_and_quiet():
    s = G.new_initial_state(G.rules({"draw_after": 3}))
    for text in ("B@d3", "pass", "nobuy", "pass", "nobuy", "pass"):
        apply_text(s, text)
    assert s.is_terminal() and s.victory() == "draw" and s.to_dict()["turn"] == 3
    assert s.to_dict()["coins"] == {"red": 3, "black": 5}
    s = G.new_initial_state(G.rules({"max_turns": 2, "income_timing": "end"}))
    for text in ("nobuy", "pass", "nobuy", "pass"):
        apply_text(s, text)
    d = s.to_dict()
    assert d["victory"] == "unfinished" and d["turn"] == 2 and d["to_move"] == "black"
    assert d["coins"] == {"red": 5, "black": 5}


def test_fresh_piece_cannot_act():
    s = state({"e2": "P", "e9": "p", "d2": "B"}, phase="buy", coins={"red": 5, "black": 0})
    apply_text(s, "I@d3")
    assert s.phase_name() == "act" and s.destinations(c("d3")) == []
    with pytest.raises(IllegalAction, match="fresh"):
        s.string_to_action("d3-d4")


def test_act_first_removed_mark():
    s = state({"e5": "I", "e6": "a", "a1": "P", "j10": "p"}, {"turn_order": "act_first"})
    apply_text(s, "e5xe6 6:1")
    assert s.phase_name() == "buy" and s.to_dict()["removed"] is True and s.to_dict()["quiet"] == 0


def test_notation_round_trip_and_errors():
    s = state({"e5": "C", "e9": "p", "a1": "P", "d2": "B"})
    for a in s.legal_actions():
        assert s.string_to_action(s.action_to_string(a)) == a
    with pytest.raises(IllegalAction, match="dice"):
        apply_text(s, "e5xe9")
    with pytest.raises(IllegalAction, match="occupied"):
        s.string_to_action("e5-e9")
    with pytest.raises(IllegalAction, match="empty"):
        s.string_to_action("e5xe8")
    with pytest.raises(IllegalAction, match="not Pole notation"):
        s.string_to_action("zz")


def test_rules_validation():
    with pytest.raises(RulesError, match="fortress_red"):
        G.rules({"fortress_red": "e2,f2,e3,g3"})
    with pytest.raises(RulesError, match="overlaps"):
        G.rules({"fortress_black": "e3,f3,e4,f4"})
    with pytest.raises(RulesError, match="catapult_dead"):
        G.rules({"catapult_dead": 3, "catapult_diag": 3})
    with pytest.raises(RulesError, match="unknown rule"):
        G.rules({"cost_P": 3})
    with pytest.raises(RulesError, match="draw_after"):
        G.rules({"draw_after": 0})
    with pytest.raises(RulesError, match="start"):
        G.rules({"start": {"coins": {"red": 1, "black": 1}, "pieces": {"e2": "P"}}})
    r = G.rules({"start": {"coins": {"red": 1, "black": 1}, "pieces": {"e2": "P", "e9": "p", "d2": "B"}}})
    assert G.new_initial_state(r).to_dict()["coins"] == {"red": 1, "black": 1}


def test_position_validation():
    cfg = config(G.rules({}))
    bad = [
        ({"coins": {"red": 1}, "pieces": {"e2": "P", "e9": "p"}}, "coins"),
        ({"coins": {"red": 1, "black": -1}, "pieces": {"e2": "P", "e9": "p"}}, "coins"),
        ({"coins": {"red": 1, "black": 1}, "pieces": {"e2": "P", "e9": "p"}, "turn": 2}, "turn"),
        ({"coins": {"red": 1, "black": 1}, "pieces": {"e2": "P"}}, "pieces"),
        ({"coins": {"red": 1, "black": 1}, "pieces": {"e2": "P", "e9": "p", "e3": "P"}}, "pieces"),
        ({"coins": {"red": 1, "black": 1}, "pieces": {"e2": "P", "e9": "p"}, "fresh": ["e2"], "phase": "act"}, "fresh"),
        ({"coins": {"red": 1, "black": 1}, "pieces": {"e2": "P", "e9": "p"}, "winner": "red"}, "winner"),
        ({"coins": {"red": 1, "black": 1}, "pieces": {"e2": "P", "e9": "p"}, "phase": "over"}, "victory"),
        ({"coins": {"red": 1, "black": 1}, "pieces": {"e2": "P", "e9": "p"}, "removed": True}, "removed"),
        ({"coins": {"red": 1, "black": 1}, "pieces": {"e2": "P", "e9": "p"}, "colour": "red"}, "colour"),
        ({"coins": {"red": 1, "black": 1}, "pieces": {"e2": "P", "e9": "p", "d2": "B"}, "fresh": ["d2"]}, "bought"),
    ]
    for pos, key in bad:
        with pytest.raises(PositionError) as err:
            build_state(pos, cfg)
        assert err.value.key == key or key in err.value.reason, (pos, err.value.reason)
    over = build_state({"coins": {"red": 1, "black": 1}, "pieces": {"e2": "P"}, "phase": "over", "victory": "prince",
                        "winner": "red"}, cfg)
    assert over.is_terminal() and over.returns() == [1.0, -1.0]


def test_bench_odds_table_equals_contract():
    from workbench.games.pole.bench import odds_table

    exact, down = odds_table({}), odds_table({"fortress_rounding": "down"})
    assert exact["open"] == CONTRACT["open"]
    assert exact["fortress"] == CONTRACT["exact"]
    assert down["fortress"] == CONTRACT["down"]
