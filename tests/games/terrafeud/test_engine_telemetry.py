"""Rule-usage telemetry (issue 12): which rule fired, for whom, where; restored by undo and clone."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from enginehelp import pos

from workbench.games.terrafeud.engine import RULES, hex_name, new_game, parse_hex, state_from_dict, state_to_dict
from workbench.games.terrafeud.engine.telemetry import RULE_INDEX, counters_dict, fired_text

W = {"season": "winter"}


def _fired(st) -> list[tuple[str, str, str | None]]:
    """``fired`` with side and hex names, for readable expectations."""
    return [(r, ("white", "black")[s], None if h < 0 else hex_name(h)) for r, s, h in st.fired]


def _nonzero(st) -> dict[str, list[int]]:
    return {k: v for k, v in counters_dict(st.counters).items() if any(v)}


# (name, position pieces, extra pos() arguments, actions, expected fired of the last action)
CASES = [
    ("bridge_stop", {"f1": "F", "f11": "f", "f3": "K"}, {}, ["f3-f7"],
     [("bridge_stop", "white", "f7"), ("threat", "black", "f11")]),
    ("ford_stop", {"d3": "F", "f11": "f", "d4": "I"}, {"aura_ready": ["d4"]}, ["d4-d5"],
     [("ford_stop", "white", "d5")]),
    ("zone_stop knight", {"f1": "F", "f11": "f", "e2": "K", "e8": "p"}, {"rules": W}, ["e2-e6"],
     [("zone_stop", "white", "e6")]),
    ("zone_stop cavalry", {"f1": "F", "f11": "f", "e2": "C", "e6": "p"}, {"rules": W}, ["e2-e4"],
     [("zone_stop", "white", "e4")]),
    ("swamp_stop", {"f1": "F", "f11": "f", "g3": "K"},
     {"rules": {"season": "winter", "swamp": True, "swamps": {"white": "e4", "black": "g7"}}}, ["g3-g7"],
     [("swamp_stop", "white", "g7")]),
    ("shot", {"f1": "F", "f11": "f", "d2": "A"}, {}, ["d2*d4"], [("shot", "white", "d4")]),
    ("hill_shot", {"f1": "F", "f11": "f", "h4": "A"}, {"rules": {"hill": True, "hills": {"white": "h4", "black": "c6"}}},
     ["h4*h7"], [("shot", "white", "h7"), ("hill_shot", "white", "h7")]),
    ("mine_kill", {"f1": "F", "f11": "f", "d8": "a", "d3": "I"}, {"markers": {"d8": "d4"}}, ["d3-d4"],
     [("mine_kill", "black", "d4")]),
    ("ultimatum_kill", {"f1": "F", "f11": "f", "d8": "a", "d4": "I"},
     {"markers": {"d8": "d4"}, "ultimatum_pending": ["d4"]}, ["f1-f2"], [("ultimatum_kill", "black", "d4")]),
    ("coordinated_kill", {"f1": "F", "f11": "f", "e5": "k", "d4": "I", "e3": "I"}, {}, ["e3-e4"],
     [("coordinated_kill", "white", "e5")]),
    ("coordinated_kill credited to the infantry", {"f1": "F", "f11": "f", "c4": "K", "b6": "i", "c7": "i"},
     {"rules": W}, ["c4-c6"], [("coordinated_kill", "black", "c6")]),
    ("archer_melee_death", {"f1": "F", "f11": "f", "d8": "a", "d6": "K"}, {}, ["d6-d7"],
     [("archer_melee_death", "black", "d8")]),
    ("zone_attack", {"f1": "F", "f11": "f", "e4": "I", "e5": "k", "d4": "P"}, {"rules": W}, ["e4xe5"],
     [("zone_attack", "white", "e5")]),
    ("aura_move", {"f1": "F", "f11": "f", "f2": "I"}, {"aura_ready": ["f2"]}, ["f2-f4"],
     [("aura_move", "white", "f4")]),
    ("order", {"f1": "F", "f11": "f", "e2": "I", "g2": "I"}, {}, ["order e2-e3 g2-g3"], [("order", "white", None)]),
    ("castling", {"f1": "F", "f11": "f", "f2": "I"}, {}, ["f1<>f2"], [("castling", "white", "f2")]),
    ("promotion", {"f1": "F", "a6": "f", "e9": "I"}, {"destroyed": {"white": ["C"]}}, ["e9-e10=C"],
     [("promotion", "white", "e10"), ("promotion_cavalry", "white", "e10")]),
    ("pass", {"d4": "F", "d5": "A", "d3": "f", "d6": "k"}, {}, ["pass"],
     [("pass", "white", None), ("archer_melee_death", "white", "d5")]),
    ("pike_cavalry_mutual", {"f1": "F", "f11": "f", "e2": "C", "e4": "p"}, {"rules": {"pike_cavalry_mutual": True}},
     ["e2xe4"], [("pike_cavalry_mutual", "white", "e4")]),
    ("threat", {"f1": "F", "f11": "f", "f7": "K", "a6": "i"}, {}, ["f7-f8"],
     [("threat", "black", "f11")]),
]


@pytest.mark.parametrize("name,pieces,extra,actions,expected", CASES, ids=[c[0] for c in CASES])
def test_each_rule_fires_for_the_right_side_and_hex(name, pieces, extra, actions, expected):
    st = pos(pieces, **extra)
    st.play(*actions)
    assert _fired(st) == expected
    # the counters hold exactly what fired (one action was played)
    want: dict[str, list[int]] = {}
    for rule, side, _ in expected:
        want.setdefault(rule, [0, 0])[("white", "black").index(side)] += 1
    assert _nonzero(st) == want
    assert state_to_dict(st)["counters"] == counters_dict(st.counters)
    st.undo()
    assert not any(st.counters) and st.fired == ()


def test_counts_over_several_plies_and_both_archers_dying():
    st = pos({"f1": "F", "f11": "f", "d2": "A", "h8": "a"})
    st.play("d2*d4", "h8*h6", "d2*c3", "h8*f8")
    assert counters_dict(st.counters)["shot"] == [2, 2]
    assert fired_text(st.fired) == "shot@f8"
    # two adjacent enemy archers both die: one archer_melee_death each
    duel = pos({"f1": "F", "f11": "f", "e4": "A", "e7": "a"}, rules=W)
    duel.play("e4-e5", "e7-e6")
    assert [r for r, _, _ in duel.fired] == ["archer_melee_death", "archer_melee_death"]
    assert counters_dict(duel.counters)["archer_melee_death"] == [1, 1]


def test_a_loaded_position_starts_at_zero_and_a_saved_state_keeps_its_counts():
    st = pos({"f1": "F", "f11": "f", "f3": "K"})  # Black would be threatened at once if it were a turn
    assert not any(st.counters) and st.fired == ()
    st.play("f3-f7")
    back = state_from_dict(state_to_dict(st))
    assert back.counters == st.counters
    with pytest.raises(ValueError, match="counters: unknown rule 'nonsense'"):
        state_from_dict({**state_to_dict(st), "counters": {"nonsense": [1, 0]}})


@pytest.mark.parametrize(
    "rules,dead",
    [
        ("season=winter", ["ford_stop"]),
        ("knight_bridge_stop=false,hill=false,swamp=false", ["bridge_stop", "hill_shot", "swamp_stop"]),
        ("promotion=false,order_size=0,castling_uses=0", [
            "promotion", "order", "castling", "promotion_knight", "promotion_pikeman", "promotion_cavalry",
            "promotion_archer", "promotion_infantryman"]),
        ("", ["pike_cavalry_mutual"]),
        ("aura_step=1", ["aura_move", "ford_stop"]),
    ],
)
def test_counters_stay_zero_where_their_rule_cannot_fire(rules, dead):
    for seed in (1, 2):
        st = new_game(rules or None, seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal() and st.ply < 160:
            st.apply(rng.choice(st.legal_actions()))
        counts = counters_dict(st.counters)
        assert all(counts[r] == [0, 0] for r in dead), {r: counts[r] for r in dead}
    # and a game of lone feudals fires nothing at all
    st = pos({"a1": "F", "l6": "f"})
    for _ in range(8):
        st.apply(st.legal_actions()[0])
    assert not any(st.counters)


@pytest.mark.parametrize("rules", ["", "season=winter,castling=sacrifice,archer_melee=true,pike_cavalry_mutual=true",
                                   "coordinated=1,order_size=3,aura_step=3,mate_defence=any"])
def test_counters_equal_the_sum_of_fired_and_undo_and_clone_restore_them(rules):
    st = new_game(rules or None, seed=4)
    rng = random.Random(4)
    history: list[list[int]] = [st.counters[:]]
    total: Counter[tuple[str, int]] = Counter()
    while not st.is_terminal() and st.ply < 120:
        st.apply(rng.choice(st.legal_actions()))
        for rule, side, _ in st.fired:
            total[(rule, side)] += 1
        history.append(st.counters[:])
        assert all(c >= 0 for c in st.counters)
    assert {(r, s): st.counters[2 * RULE_INDEX[r] + s] for r in RULES for s in (0, 1) if st.counters[2 * RULE_INDEX[r] + s]} == dict(total)
    assert sum(st.counters) > 0
    copy = st.clone()
    assert copy.counters == st.counters and copy.fired == st.fired
    copy.undo()
    assert copy.counters == history[-2] and st.counters == history[-1]
    while st.history:
        st.undo()
        assert st.counters == history[len(st.history)]
    assert not any(st.counters) and st.fired == ()


def test_fired_text_is_the_events_field():
    st = pos({"f1": "F", "f11": "f", "f3": "K"})
    st.play("f3-f7")
    assert fired_text(st.fired) == "bridge_stop@f7,threat@f11"
    st2 = pos({"f1": "F", "f11": "f", "e2": "I", "g2": "I"})
    st2.play("order e2-e3 g2-g3")
    assert fired_text(st2.fired) == "order"
    assert parse_hex("f7") == st.fired[0][2]
