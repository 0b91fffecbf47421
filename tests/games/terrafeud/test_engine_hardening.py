"""Issue 13, engine side: an atomic ``play``, malformed actions refused clearly, section 8's fine print,
and every position reached in play surviving ``dump_scenario`` and back."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from enginehelp import piece, pos

import workbench.games.terrafeud.engine.state as state_module
from workbench.games.terrafeud.engine import IllegalActionError, new_game, state_to_dict
from workbench.games.terrafeud.scenarios import dump_scenario
from workbench.scenarios import load_scenario, load_scenario_text

ROOT = Path(__file__).resolve().parents[3]
FINE_PRINT = ROOT / "scenarios" / "terrafeud" / "fine-print"


# ----------------------------------------------------------------------------- the engine API
def test_play_is_atomic():
    st = new_game(seed=1)
    before = state_to_dict(st)
    with pytest.raises(IllegalActionError, match="zz-zz"):
        st.play("f3-f5", "f9-f7", "zz-zz")
    assert state_to_dict(st) == before and st.history == [] and st.ply == 0
    with pytest.raises(IllegalActionError, match="f3-f9"):
        st.play("f3-f5", "f3-f9")
    assert state_to_dict(st) == before
    st.play("f3-f5")
    assert st.ply == 1


@pytest.mark.parametrize(
    "action,words",
    [
        ((), "not an action: an action is a non-empty tuple"),
        (None, "not an action: an action is a non-empty tuple"),
        ([0, 1, 2, 0], "not an action: an action is a non-empty tuple"),
        ((0, -1, 5, 0), "(0, -1, 5, 0): not an action: field 1 is hex -1, outside the board's hexes 0..90"),
        ((0, 91, 5, 0), "field 1 is hex 91, outside"),
        ((0, 1, 2), "an action of kind 0 has 4 fields, this one has 3"),
        ((0, 1, 2, 9), "field 3 is promotion kind 9"),
        ((0, 1.0, 2, 0), "field 1 is float, not a whole number"),
        ((0, True, 2, 0), "field 1 is bool, not a whole number"),
        ((7, 1, 2), "unknown action kind 7"),
        (("move", 1, 2, 0), "unknown action kind 'move'"),
        ((3, 1, 2, 0, 4, 5), "an action of kind 3 has 4 or 7 or 10 fields, this one has 6"),
        ((4, 1), "an action of kind 4 has 1 fields, this one has 2"),
    ],
)
def test_malformed_actions_raise_illegal_action_error_with_the_reason(action, words):
    st = new_game(seed=1)
    with pytest.raises(IllegalActionError) as info:
        st.apply(action)
    assert words in str(info.value)
    assert "l6" not in str(info.value)  # (0, -1, 5, 0) is not read through negative indexing
    assert st.ply == 0


@pytest.mark.parametrize("action", [(), None, [0, 1, 2, 0], (0, -1, 5, 0), "f3-f5"])
def test_malformed_actions_are_refused_alike_by_both_engines_and_by_notation(action):
    from workbench.games.terrafeud import native

    st = new_game(seed=1)
    with pytest.raises(IllegalActionError, match="not an action"):
        st.action_to_string(action)  # (0, -1, 5, 0) was written "l6xa6"
    if native.available():
        nst = native.state_of(st, "native")
        with pytest.raises(IllegalActionError, match="not an action"):
            nst.apply(action)  # apply(None) was a TypeError in the native wrapper
        assert nst.to_dict() == st.to_dict()


def test_a_well_formed_illegal_action_still_names_the_rule():
    st = new_game(seed=1)
    with pytest.raises(IllegalActionError, match="f3xf9: the knight's slide stops earlier"):
        st.apply((0, 42, 48, 0))


# ----------------------------------------------------------------------------- section 8 additions
@pytest.mark.parametrize("path", sorted(FINE_PRINT.glob("*.yaml")), ids=lambda p: p.stem)
def test_fine_print_scenarios_pass(path):
    results = load_scenario(path).run()
    assert results and all(r.status == "pass" for r in results), [r.message for r in results]


def test_a_win_beats_draw_after():
    st = pos({"a1": "F", "a2": "I", "b1": "I", "b2": "K", "f11": "f", "d4": "c", "d5": "c"}, to_move="black",
             castled=["white"], rules={"season": "winter", "draw_after": 1})
    st.play("d5-d3")
    assert (st.winner, st.victory, st.quiet) == (1, "checkmate", 1)
    # castle captures beat the draw too
    castle = pos({"f1": "F", "a6": "f", "f10": "K"}, rules={"draw_after": 1})
    castle.play("f10-f11")
    assert (castle.winner, castle.victory) == (0, "castle")


def test_the_nested_mate_test_is_one_level(monkeypatch):
    layout = {"c1": "F", "a1": "f", "d2": "k", "a5": "K", "d7": "k", "h6": "K"}
    extra = {"rules": {"season": "winter"}, "castled": ["white", "black"]}
    st = pos(layout, **extra)
    assert st.victory is None and st.is_threatened(0)
    # the mate tests run at depth 0 (the start of White's turn) and 1 (after a parry), never deeper
    depths: list[int] = []
    original = state_module.GameState._has_parry

    def spy(self, side):
        depths.append(self._mate_depth)
        return original(self, side)

    monkeypatch.setattr(state_module.GameState, "_has_parry", spy)
    assert not st.is_checkmated(0)
    assert set(depths) == {0, 1}
    # without the nested level the mating parry c1-c2 would not count and White would be mated
    monkeypatch.setattr(state_module, "_MAX_MATE_DEPTH", 1)
    assert st.is_checkmated(0)


def test_a_knight_starting_on_a_bridge_slides_on():
    st = pos({"f1": "F", "f11": "f", "b4": "K", "a6": "i"})
    st.play("b4-b6")
    assert piece(st, "b6") == "K" and st.fired == ()


def test_a_castle_centre_already_held_wins_nothing():
    st = pos({"f1": "F", "l1": "I", "f11": "K", "a6": "f"}, to_move="black")
    st.play("a6-a5", "l1-l2")
    assert st.victory is None
    st.play("a5-a6", "f11-f10", "a6-a5", "f10-f11")
    assert (st.winner, st.victory) == (0, "castle")


def test_winter_river_is_ordinary_land_for_the_cavalry():
    text = "id: w\ntitle: t\nrules: {season: winter, hill: false, swamp: false}\nposition: {pieces: {f1: F, f11: f, c4: C}}\n"
    st = load_scenario_text(text).initial_state()
    assert piece(st, "c4") == "C" and "c4-a4" in {st.action_to_string(a) for a in st.legal_actions()}
    with pytest.raises(Exception, match="ordinary river is impassable in summer"):
        load_scenario_text(text.replace("winter", "summer")).initial_state()


# ----------------------------------------------------------------------------- the round trip property
CONFIGS = [
    "",
    "season=winter",
    "hill=false,swamp=false",
    "terrain=fixed",
    "castling=sacrifice",
    "archer_melee=true",
    "mate_defence=any",
    "draw_after=12",
    "pike_cavalry_mutual=true",
    "season=winter,archer_range=3,hill_bonus=2,aura_radius=3,aura_step=3,aura_memory=false",
    "coordinated=1,order_size=3,order_radius=3,castling_uses=2",
    "promotion=false,knight_bridge_stop=false,bridges=b4/e5/e6,fords=d5/h5/k4",
]


@pytest.mark.parametrize("rules", CONFIGS)
def test_every_position_reached_in_play_survives_dump_scenario(rules):
    # one random game per configuration, checked every other ply (YAML is the slow part)
    for seed in (len(rules) % 5 + 1,):
        st = new_game(rules or None, seed=seed)
        rng = random.Random(seed * 7 + len(rules))
        for ply in range(80):
            if st.is_terminal():
                break
            if ply % 2:
                st.apply(rng.choice(st.legal_actions()))
                continue
            text = dump_scenario(st, "reached", "a position reached in play")
            back = load_scenario_text(text, source=f"{rules} seed {seed} ply {st.ply}").initial_state()
            assert (back.key(), back.ply) == (st.key(), st.ply), text
            assert back.legal_actions() == st.legal_actions(), text
            st.apply(rng.choice(st.legal_actions()))
