"""Pole conformance: random playthroughs, clone/undo, round trips, records, scenarios and the CLI."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from workbench.core.protocol import CHANCE, TERMINAL, IllegalAction
from workbench.core.scenario import ScenarioError
from workbench.games import get
from workbench.games.pole import play_random, sample_chance
from workbench.games.pole.record import RecordError, load_record_text, record_dict, save_record
from workbench.games.pole.state import position_dict
from workbench.scenarios.loader import load_scenario, load_scenario_text

G = get("pole")
ROOT = Path(__file__).resolve().parents[3]
SCENARIOS = ROOT / "scenarios" / "pole"
BAD = Path(__file__).parent / "bad"
TOGGLES = [
    {},
    {"attack_mode": "all", "shot_blocking": "all"},
    {"turn_order": "act_first", "purchases_per_turn": 2, "income_timing": "end", "draw_after": 12},
    {"purchases_per_turn": 3, "start_coins": 20, "ride_jump": True, "fortress_rounding": "down",
     "fortress_inside": "halved", "placement_fortress": "any", "fortress_buildings": False,
     "shot_blocking": "except_catapult", "tower_infantry": 1},
    {"purchases_per_turn": 0, "start_coins": 0, "max_turns": 30},
    {"turn_order": "act_first", "purchases_per_turn": 0, "draw_after": 5},
]


def _game(rules: dict, seed: int, cap: int = 60):
    """A seeded random game under ``rules`` (cap in turns keeps the test fast), with every state."""
    r = G.rules({"max_turns": cap, **rules}) if "max_turns" not in rules else G.rules(rules)
    s = G.new_initial_state(r, seed=seed)
    dice, choice = random.Random(seed), random.Random(seed + 1000)
    states = [s.clone()]
    while not s.is_terminal():
        if s.current_player() == CHANCE:
            s.apply_action(sample_chance(s, dice))
        else:
            acts = s.legal_actions()
            s.apply_action(acts[choice.randrange(len(acts))])
        states.append(s.clone())
    return s, states


@pytest.mark.parametrize("rules", TOGGLES)
def test_random_games_round_trip_everywhere(rules):
    s, states = _game(rules, seed=7)
    assert s.current_player() == TERMINAL and s.outcome() in ("win", "draw", "unfinished")
    for st in states:
        d = st.to_dict()
        assert G.state_from_dict(json.loads(json.dumps(d))).to_dict() == d
        if st.current_player() == CHANCE:
            out = st.chance_outcomes()
            assert len(out) == 36 and abs(sum(p for _, p in out) - 1.0) < 1e-12
            assert abs(sum(g[1] for g in st.chance_groups()) - 1.0) < 1e-12
            continue
        acts = st.legal_actions()
        assert acts == sorted(acts) and acts == st.legal_actions()
        for a in acts:
            text = st.action_to_string(a)
            assert st.string_to_action(text) == a
            assert 0 <= G.action_to_int(st, a) < G.num_distinct_actions()
        # the scenario position round trip: dump -> load -> same position and legal actions
        text = G.dump_scenario(st, "pole-round-trip", "round trip")
        back = load_scenario_text(text, "<round-trip>").initial_state()
        assert position_dict(back) == position_dict(st)
        assert back.legal_actions() == acts


@pytest.mark.parametrize("rules", TOGGLES[:3])
def test_undo_and_clone_are_exact(rules):
    s, states = _game(rules, seed=11)
    for st in reversed(states[:-1]):
        s.undo_action()
        assert s.to_dict() == st.to_dict()
    c = states[5].clone()
    before = states[5].to_dict()
    play_random(c, 3)
    assert states[5].to_dict() == before


def test_same_seed_same_game_and_other_processes():
    a = play_random(G.new_initial_state(seed=5), 5)
    b = play_random(G.new_initial_state(seed=5), 5)
    assert a.history == b.history
    code = ("from workbench.games import get; from workbench.games.pole import play_random;"
            "print(play_random(get('pole').new_initial_state(seed=5), 5).history)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True,
                         env={"PYTHONPATH": str(ROOT), "PYTHONHASHSEED": "123"})
    assert json.loads(out.stdout) == a.history


def test_record_round_trip_and_corruption():
    s, _ = _game({}, seed=3, cap=200)
    text = save_record(s)
    data = json.loads(text)
    assert data["game"] == "pole" and data["start"] is None and data["seed"] == 3
    assert all(" " in t for t in data["actions"] if "x" in t.split()[0])  # attacks carry their dice
    assert len(data["dice"]) == sum(1 for t in data["actions"] if " " in t)
    assert data["moves"][0].startswith("1. ")
    back = load_record_text(text)
    assert back.to_dict()["pieces"] == s.to_dict()["pieces"] and back.history == s.history
    # corrupt: change a die of the first attack
    i = next(k for k, t in enumerate(data["actions"]) if " " in t)
    bad = dict(data, actions=list(data["actions"]))
    move, dice = bad["actions"][i].split()
    bad["actions"][i] = f"{move} {'1' if dice[0] != '1' else '2'}:{dice[2]}"
    with pytest.raises(RecordError):
        load_record_text(json.dumps(bad))
    bad = dict(data, actions=data["actions"][:3] + ["e9-e1"] + data["actions"][4:])
    with pytest.raises(RecordError, match=r"actions\[3\]"):
        load_record_text(json.dumps(bad))
    with pytest.raises(RecordError, match="game"):
        load_record_text(json.dumps(dict(data, game="chess")))
    with pytest.raises(RecordError, match="rules"):
        load_record_text(json.dumps(dict(data, rules={"income": 99})))
    with pytest.raises(RecordError, match="result"):
        load_record_text(json.dumps(dict(data, result={"victory": "prince", "winner": "red"})))


def test_record_from_a_start_position():
    r = G.rules({"start": {"coins": {"red": 4, "black": 4}, "pieces": {"e2": "P", "e9": "p", "d2": "B"}},
                 "max_turns": 20})
    s = play_random(G.new_initial_state(r, seed=1), 1)
    data = record_dict(s)
    assert isinstance(data["rules"]["start"], dict)
    assert load_record_text(json.dumps(data)).to_dict()["pieces"] == s.to_dict()["pieces"]


def test_scenario_folder_passes():
    out = subprocess.run([sys.executable, "-m", "workbench", "check", str(SCENARIOS)], capture_output=True,
                         text=True, cwd=ROOT, env={"PYTHONPATH": str(ROOT)})
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.count("PASS") >= 40


def test_every_bad_file_is_refused_with_a_line():
    files = sorted(BAD.glob("*.yaml"))
    assert len(files) >= 25
    for path in files:
        with pytest.raises(ScenarioError) as err:
            load_scenario(path)
        assert err.value.line, path


def test_wrong_expectations_fail_and_p37():
    text = """
id: pole-wrong
game: pole
title: wrong on purpose
position: {phase: act, coins: {red: 0, black: 0}, pieces: {a1: P, e9: p, e5: C, e6: i}}
checks:
  - chance: {e5xe9: 10/36}
  - chance: {e5xe6: 0/36}
  - chance: {e5xe7: 1/36}
  - targets: {e5: [e9, e6]}
  - play: [e5xe9 6:2]
    winner: black
"""
    results = load_scenario_text(text, "<wrong>").run()
    assert [r.status for r in results] == ["fail"] * 5
    assert "expected 10/36, found 3/36" in results[0].message
    assert "P37" in results[1].message and "P37" in results[2].message
    assert "extra" not in results[3].message and "missing [e6]" in results[3].message
    assert "winner: expected black, found red" in results[4].message


def test_rules_override_changes_outcomes():
    case = load_scenario(SCENARIOS / "fortress-halving-exact.yaml")
    assert all(r.ok for r in case.run())
    flipped = case.run({"fortress_rounding": "down"})
    assert any(r.status == "fail" for r in flipped)
    bad = case.run({"fortress_red": "a1"})
    assert bad[0].status == "error" and "fortress_red" in bad[0].message


def test_illegal_play_is_an_error_naming_the_step():
    text = """
id: pole-illegal-play
game: pole
title: illegal step
checks:
  - play: [nobuy, e2-e9]
"""
    res = load_scenario_text(text, "<illegal>").run()
    assert res[0].status == "error" and "play step 2" in res[0].message and "e2-e9" in res[0].message


def test_protocol_surface():
    s = G.new_initial_state()
    info = G.info()
    assert info.players == ("red", "black") and info.chance == "explicit"
    assert G.max_chance_outcomes() == 36 and G.num_distinct_actions() == 20802
    assert len(G.layout().cells) == 100 and G.layout().shape == "square"
    assert len(s.glyphs()) == 100
    assert set(G.heat_layers) == {"threat", "control", "odds"}
    with pytest.raises(IllegalAction):
        s.apply_action(701)  # pass in the buy phase
    assert "act phase; the phase is buy" in s.explain_illegal("pass")
    assert s.counters()["income"] == [1, 0]
    row = G.game_row(play_random(G.new_initial_state(G.rules({"max_turns": 60}), seed=2), 2))
    for key in ("victory_kind", "turns", "coins_spent_red", "bought_C_black", "attacks_red", "attacks_succeeded_black",
                "attacks_expected_red", "luck_red", "luck_black"):
        assert key in row
    assert abs(row["luck_red"] - (row["removed_red"] - row["attacks_expected_red"])) < 1e-6


VARIANTS = [
    {"attack_mode": "all"}, {"shot_blocking": "all"}, {"shot_blocking": "except_catapult"}, {"ride_jump": "true"},
    {"fortress_rounding": "down"}, {"income_timing": "end"}, {"turn_order": "act_first"},
    {"placement_fortress": "any"}, {"fortress_buildings": "false"}, {"fortress_inside": "halved"},
    {"purchases_per_turn": "0"}, {"purchases_per_turn": "3"}, {"draw_after": "1"}, {"max_turns": "1"},
]


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: ",".join(f"{k}={x}" for k, x in v.items()))
def test_every_scenario_runs_under_every_toggle(variant):
    """--rules never makes the engine raise: a check passes, fails, or is an error that names its cause."""
    for path in sorted(SCENARIOS.glob("*.yaml")):
        for result in load_scenario(path).run(variant):
            assert "engine raised" not in result.message, (path.name, result.message)


def test_garbage_positions_only_raise_position_errors():
    from workbench.games.pole.position import PositionError, build_state
    from workbench.games.pole.tables import config

    cfg = config(G.rules({}))
    rng = random.Random(0)
    values = [None, 0, -1, 3, "x", "e2", "P", [], {}, ["e2"], {"red": 1}, {"red": 1, "black": 2}, True, 10**12]
    keys = ["to_move", "phase", "turn", "coins", "pieces", "fresh", "bought", "removed", "quiet", "winner", "victory"]
    for _ in range(2000):
        pos = {k: rng.choice(values) for k in rng.sample(keys, rng.randint(0, len(keys)))}
        pos.setdefault("coins", {"red": 1, "black": 1})
        try:
            build_state(pos, cfg)
        except PositionError:
            pass


def test_record_from_turn_lines_only():
    s, _ = _game({}, seed=4, cap=80)
    data = record_dict(s)
    lines_only = {k: v for k, v in data.items() if k not in ("actions", "dice")}
    back = load_record_text(json.dumps(lines_only))
    assert back.history == s.history
    with pytest.raises(RecordError, match=r"moves\[0\]"):
        load_record_text(json.dumps(dict(lines_only, moves=["B@d3 pass"])))


@pytest.mark.parametrize("rules", [{}, {"turn_order": "act_first", "purchases_per_turn": 2}])
def test_finished_games_round_trip(rules):
    """A prince victory and a capped game, each written as a position and loaded back."""
    kinds = set()
    for seed in range(40):
        s = play_random(G.new_initial_state(G.rules({"max_turns": 300, **rules}), seed=seed), seed)
        if s.victory() in kinds:
            continue
        kinds.add(s.victory())
        back = load_scenario_text(G.dump_scenario(s, "pole-finished", "finished"), "<finished>").initial_state()
        assert position_dict(back) == position_dict(s) and back.legal_actions() == []
        assert back.is_terminal() and back.winner() == s.winner()
        if s.victory() == "prince":
            assert s.to_move == s.winner() and s.prince_of(1 - s.winner()) is None
        if len(kinds) == 2:
            break
    assert kinds == {"prince", "unfinished"}


def test_clone_and_original_undo_independently():
    s, states = _game({}, seed=21, cap=30)
    c = s.clone()
    for _ in range(10):
        s.undo_action()
    play_random(s, 99)  # the original plays on from an earlier ply
    for st in reversed(states[-11:-1]):
        c.undo_action()
        assert c.to_dict() == st.to_dict()
