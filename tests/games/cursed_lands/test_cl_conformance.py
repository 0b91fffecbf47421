"""The Cursed Lands conformance: random games under several rule settings, checked at every ply.

At every ply: legal actions in code-point order (C51) and stable, notation round trip for every legal
action, clone and undo equal by ``to_dict``, ``to_dict``/``state_from_dict`` exact, and the C39 round
trip (dump_scenario -> the generic loader -> same position and same legal actions). At the end: the
record saves, loads and replays to the same state; the same seed plays the same game.
"""

from __future__ import annotations

import json
import random

import pytest

from workbench.core.protocol import TERMINAL
from workbench.games.cursed_lands import GAME
from workbench.games.cursed_lands.record import RecordError, load_record_text, save_record
from workbench.scenarios.loader import load_scenario_text

SETTINGS = [
    "turn_limit=14",
    "turn_limit=12,untiled=plain,counterattack=melee,factions=orcs/elves",
    "turn_limit=12,factions=dwarves/humans,tiles_on_camp=true,dwarf_road_bonus=true,auto_end=zero_ap",
    "turn_limit=10,setup_phase=true,deck_top_visible=false,factions=elves/dwarves,produce_cost_S=0,tiles_per_turn=1",
    "turn_limit=10,first_player=p2,ap_first_turn=0,starting_units=2,attack_extra_cost=1",
]


def position(st):
    return st.to_dict()["position"]


def texts(st):
    return [st.action_to_string(a) for a in st.legal_actions()]


def play_checked(rules_text: str, seed: int, deep_every: int = 1) -> tuple:
    rules = GAME.rules(rules_text)
    st = GAME.new_initial_state(rules, seed)
    rng = random.Random(seed)
    ply = 0
    while not st.is_terminal():
        legal = st.legal_actions()
        assert legal, "a running game always has a legal action"
        if st.phase == "play":
            ts = texts(st)
            assert ts == sorted(ts), f"ply {ply}: not in code-point order"
            assert ts == texts(st), "legal actions are stable"
            assert len(set(ts)) == len(ts)
            for a, t in zip(legal, ts, strict=True):
                assert st.string_to_action(t) == a
        if ply % deep_every == 0:
            d = st.to_dict()
            assert GAME.state_from_dict(json.loads(json.dumps(d))).to_dict() == d
            c = st.clone()
            assert c.to_dict() == d and c.legal_actions() == legal
            text = GAME.dump_scenario(st, "cl-round-trip", "round trip")
            back = load_scenario_text(text, "<dump>").initial_state()
            assert position(back) == position(st), f"ply {ply}: C39 round trip changed the state"
            assert back.legal_actions() == legal
        a = rng.choice(legal)
        before = st.to_dict()
        st.apply_action(a)
        after = st.to_dict()
        st.undo_action()
        assert st.to_dict() == before, f"ply {ply}: undo is not exact"
        st.apply_action(a)
        assert st.to_dict() == after
        ply += 1
        assert ply < 3000
    assert st.current_player() == TERMINAL and st.legal_actions() == []
    assert st.outcome() in ("win", "draw")
    d = st.to_dict()
    assert GAME.state_from_dict(d).to_dict() == d
    back = load_scenario_text(GAME.dump_scenario(st, "cl-end", "end"), "<dump>").initial_state()
    assert position(back) == position(st) and back.legal_actions() == []
    return st, ply


@pytest.mark.parametrize("rules_text", SETTINGS)
def test_random_games_every_ply(rules_text):
    for seed in (1, 2):
        st, plies = play_checked(rules_text, seed, deep_every=1 if seed == 1 else 5)
        assert plies > 10


@pytest.mark.parametrize("rules_text", SETTINGS[:3])
def test_records_replay(rules_text):
    st, _ = play_checked(rules_text, 7, deep_every=50)
    text = save_record(st)
    data = json.loads(text)
    assert data["game"] == "cursed-lands" and data["start"] is None and len(data["decks"]["p1"]) > 0
    assert all(isinstance(a, str) for a in data["actions"])
    back = load_record_text(text)
    assert back.to_dict()["position"] == st.to_dict()["position"]
    assert GAME.load_record(text).victory() == st.victory()
    bad = json.loads(text)
    bad["actions"][3] = "a1-a9"
    with pytest.raises(RecordError, match="ply 4"):
        load_record_text(json.dumps(bad))
    bad = json.loads(text)
    bad["decks"]["p1"] = list(reversed(bad["decks"]["p1"]))
    with pytest.raises(RecordError, match="decks p1"):
        load_record_text(json.dumps(bad))
    bad = json.loads(text)
    bad["result"]["victory"] = "castle" if st.victory() != "castle" else "draw"
    with pytest.raises(RecordError, match="result victory"):
        load_record_text(json.dumps(bad))
    with pytest.raises(RecordError, match="field rules"):
        load_record_text(json.dumps({**json.loads(text), "rules": {"ap_per_turn": 99}}))


def test_record_from_a_scenario_position_stores_the_start():
    case = load_scenario_text(open("scenarios/cursed-lands/activation.yaml").read(), "activation")
    st = case.initial_state()
    for t in ("e3-e4xf5", "d3-e5xf5"):
        st.apply_action(st.string_to_action(t))
    data = json.loads(save_record(st))
    assert data["start"] is not None and data["actions"] == ["e3-e4xf5", "d3-e5xf5"]
    assert load_record_text(json.dumps(data)).to_dict()["position"] == st.to_dict()["position"]


def test_same_seed_same_game():
    a, _ = play_checked("turn_limit=8", 11, deep_every=1000)
    b, _ = play_checked("turn_limit=8", 11, deep_every=1000)
    assert a.played == b.played and a.to_dict() == b.to_dict()


def test_state_from_dict_refuses_bad_data():
    d = GAME.new_initial_state(None, 0).to_dict()
    with pytest.raises(ValueError, match="rules"):
        GAME.state_from_dict({**d, "rules": {"untiled": "lava"}})
    with pytest.raises(ValueError, match="position"):
        GAME.state_from_dict({k: v for k, v in d.items() if k != "position"})


def test_protocol_extras_work_on_random_positions():
    rng = random.Random(5)
    st = GAME.new_initial_state(GAME.rules("untiled=plain"), 5)
    for _ in range(120):
        if st.is_terminal():
            break
        legal = st.legal_actions()
        for a in legal[:20]:
            eff = st.action_effects(a)
            assert set(eff) >= {"removed", "marks", "text", "ends"}
            assert st.action_cells(a) == [] or all(0 <= c < 81 for c in st.action_cells(a))
        if st.phase == "play":  # the threat layer of the side to move agrees with its legal attacks
            threat = st.heat("threat", st.to_move)
            attacked = {int(t.split("x")[1][1:]) * 9 - 9 + "abcdefghi".index(t.split("x")[1][0])
                        for t in texts(st) if "x" in t}
            enemies = {h for h in range(81) if st.owner[h] == 1 - st.to_move} | {st.castle_of(1 - st.to_move)}
            assert {h for h in enemies if threat.get(h)} == attacked
        row = GAME.event_row(st, legal[0])
        assert row["ap_left"] <= row["ap_before"] == st.ap and row["action_kind"]
        st.apply_action(rng.choice(legal))
    for layer in GAME.heat_layers:
        for p in (0, 1):
            assert all(0 <= h < 81 for h in st.heat(layer, p))
    assert len(st.glyphs()) == 81
    assert isinstance(st.evaluate(0), float) and st.evaluate(0) == pytest.approx(-st.evaluate(1))
    row = GAME.game_row(st)
    assert {"faction_p1", "faction_p2", "victory_kind", "turns", "castle_hp_p1", "castle_hp_p2",
            "produced_S_p1", "tiles_placed_p2"} <= set(row)
    assert set(GAME.rule_words()) == set(st.counters())
