"""Property-based tests over random playthroughs, the perft table, records and serialisation."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from workbench.games.terrafeud.engine import (
    RecordError,
    load_record,
    new_game,
    record_of,
    save_record,
    state_from_dict,
    state_to_dict,
)
from workbench.games.terrafeud.engine.pieces import ARCHER, FEUDAL
from workbench.games.terrafeud.perft import expected_table, perft

RULES = st.fixed_dictionaries(
    {
        "season": st.sampled_from(["summer", "winter"]),
        "hill": st.booleans(),
        "swamp": st.booleans(),
        "terrain": st.sampled_from(["rolled", "fixed"]),
        "castling": st.sampled_from(["swap", "sacrifice"]),
        "archer_melee": st.booleans(),
        "mate_defence": st.sampled_from(["feudal", "any"]),
        "pike_cavalry_mutual": st.booleans(),
    }
)


def check_invariants(s) -> None:
    sq = s.squares
    for side in (0, 1):
        f = s.feudal[side]
        feudals = [h for h in range(91) if sq[h] == (FEUDAL | side << 3)]
        assert feudals == ([f] if f >= 0 else [])
        for a, t in s.markers[side].items():
            assert sq[a] == (ARCHER | side << 3), "a marker belongs to a living archer"
            assert 0 <= t < 91
    for h in s.aura_ready:
        assert sq[h] & 7 == 6
    assert len(s.pieces()) <= 28


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    phases=[Phase.explicit, Phase.reuse, Phase.generate],  # a failing seed replays as is; no slow shrinking
)
@given(rules=RULES, seed=st.integers(0, 10_000))
def test_random_playthrough_invariants(rules, seed):
    _playthrough(rules, seed, 120)


# Rule parameters (issue 11) at non-default values: the same invariants, the fast threat test included.
PARAMETERS = st.fixed_dictionaries(
    {
        "season": st.sampled_from(["summer", "winter"]),
        "archer_range": st.sampled_from([2, 3]),
        "hill_bonus": st.sampled_from([0, 1, 2]),
        "aura_radius": st.sampled_from([0, 1, 2, 3]),
        "aura_step": st.sampled_from([1, 2, 3]),
        "aura_memory": st.booleans(),
        "coordinated": st.sampled_from([1, 2, 3]),
        "order_size": st.sampled_from([0, 1, 2, 3]),
        "order_radius": st.sampled_from([1, 2, 3]),
        "castling_uses": st.sampled_from([0, 1, 2]),
        "promotion": st.booleans(),
        "knight_bridge_stop": st.booleans(),
        "fords": st.sampled_from(["d5,h5", "d5,f6,h5", "none"]),
    }
)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(rules=PARAMETERS, seed=st.integers(0, 10_000))
def test_random_playthrough_invariants_with_parameters(rules, seed):
    if "f6" in rules["fords"]:
        rules["bridges"] = "b4,k4"
    _playthrough(rules, seed, 70)


def _playthrough(rules: dict, seed: int, plies: int) -> None:
    rng = random.Random(seed)
    s = new_game(rules, seed=seed)
    count = len(s.pieces())
    for _ in range(plies):
        if s.is_terminal():
            break
        actions = s.legal_actions()
        assert actions and len(set(actions)) == len(actions), "no duplicate actions"
        a = rng.choice(actions)
        text = s.action_to_string(a)
        assert s.parse_action(text) == a and s.action_to_string(s.parse_action(text)) == text
        before = s.key()
        s.apply(a)
        check_invariants(s)
        now = len(s.pieces())
        assert now <= count, "piece counts only fall (promotion replaces)"
        count = now
        # undo restores the exact state, redo gives the same result
        after = s.key()
        s.undo()
        assert s.key() == before
        s.apply(a)
        assert s.key() == after
        # clone and dict round trips
        c = s.clone()
        assert c == s
        assert state_from_dict(json.loads(json.dumps(state_to_dict(s)))).key() == s.key()
        # the fast threat test agrees with playing every opponent action
        for side in (0, 1):
            if s.feudal[side] >= 0 and not s.is_terminal():
                slow = s._threat_by_search(side, s._generate(1 - side))
                assert s.is_threatened(side) == slow, (side, str(s))


def test_every_legal_action_applies_from_many_positions():
    rng = random.Random(3)
    for g in range(6):
        s = new_game("season=" + ("winter" if g % 2 else "summer"), seed=g)
        for _ in range(60):
            if s.is_terminal():
                break
            for a in s.legal_actions():
                s.apply(a)
                s.undo()
            s.apply(rng.choice(s.legal_actions()))


@pytest.mark.parametrize("row", expected_table(), ids=lambda r: r["rules"])
def test_perft_table(row):
    s = new_game(row["rules"], seed=row["seed"])
    assert [perft(s, d) for d in range(1, len(row["counts"]) + 1)] == row["counts"]


def test_record_round_trip_and_corruption(tmp_path):
    rng = random.Random(11)
    s = new_game("season=winter", seed=4)
    for _ in range(40):
        if s.is_terminal():
            break
        s.apply(rng.choice(s.legal_actions()))
    path = save_record(s, tmp_path / "game.json")
    loaded = load_record(path)
    assert loaded.key() == s.key() and loaded.game.terrain == s.game.terrain
    data = json.loads(path.read_text())
    data["actions"][5] = "a1-a6"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(RecordError, match=r"bad.json: ply 6: a1-a6: "):
        load_record(bad)
    data = record_of(s)
    data["result"]["plies"] = 999
    with pytest.raises(RecordError, match="plies"):
        load_record(data)
    (tmp_path / "junk.json").write_text("{not json")
    with pytest.raises(RecordError, match="junk.json"):
        load_record(tmp_path / "junk.json")


def test_rolled_terrain_is_restored_from_record(tmp_path):
    s = new_game(seed=123)
    s.apply(s.legal_actions()[0])
    loaded = load_record(save_record(s, tmp_path / "r.json"))
    assert loaded.game.terrain == s.game.terrain


def test_a_clone_shares_undo_snapshots_without_either_state_changing_the_other():
    """clone() shares the undo stack (O(1) per snapshot); each side's undo and new play leave the other's past intact."""
    rng = random.Random(11)
    st = new_game("season=winter", seed=3)
    seen = [state_to_dict(st)]
    while st.ply < 80 and not st.is_terminal():
        st.apply(rng.choice(st.legal_actions()))
        seen.append(state_to_dict(st))
    twin = st.clone()
    for _ in range(30):  # the original takes 30 back and plays another line
        st.undo()
    while st.ply < 90 and not st.is_terminal():
        st.apply(rng.choice(st.legal_actions()))
    grandchild = twin.clone()
    for k in range(twin.ply, 0, -1):  # the clone walks its whole past back, and it is the recorded one
        assert state_to_dict(twin) == seen[k]
        twin.undo()
    assert state_to_dict(twin) == seen[0]
    while grandchild.ply > 40:
        grandchild.undo()
    assert state_to_dict(grandchild) == seen[40]
