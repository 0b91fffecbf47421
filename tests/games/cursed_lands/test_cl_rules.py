"""The Cursed Lands: the contract's examples and test vectors, the rules spec, notation and hand-built rulings."""

from __future__ import annotations

import pytest

from workbench.core.protocol import TERMINAL, IllegalAction
from workbench.core.rulespec import RulesError
from workbench.games import get
from workbench.games.cursed_lands import GAME, SPEC
from workbench.games.cursed_lands import actions as act
from workbench.games.cursed_lands.deck import deal, deck_text, splitmix64
from workbench.games.cursed_lands.geometry import DISTANCE, HEX_NAMES, NEIGHBOURS, RAYS, mirror, parse_hex
from workbench.games.cursed_lands.position import PositionError, build_state

VECTORS = {
    0: ("rrphfrfpfprmpppfpmppphppmmrfhfhr", "pmrffpphhrfhprpffmhrfppmrmrppppp"),
    1: ("hrprhmffprhfmpppffhprppmprmprpfp", "frfpfmpmpppfprrppprfhphhrpfpmmrh"),
    42: ("pfppprpfphrprphprhpmmhmrpfrpffmf", "prpfrppprrpphhhrmphpprfpfffpmmfm"),
}


def names(hexes):
    return sorted(HEX_NAMES[h] for h in hexes)


def state(pos, rules=None, seed=None):
    return build_state(SPEC.make(rules or {}), pos, seed)


# ----------------------------------------------------------------- section 1: geometry
def test_registry_finds_the_game():
    assert get("cursed-lands") is GAME and get("Cursed_Lands") is GAME


@pytest.mark.parametrize("hex_, expected", [
    ("e5", "d4 d5 d6 e4 e6 f5"), ("e4", "d4 e3 e5 f3 f4 f5"), ("a1", "a2 b1"), ("i1", "h1 h2 i2"),
])
def test_neighbour_examples(hex_, expected):
    assert names(NEIGHBOURS[parse_hex(hex_)]) == expected.split()


def test_straight_line_examples():
    ne = RAYS[parse_hex("e5")][2]
    nw = RAYS[parse_hex("e2")][3]
    assert [HEX_NAMES[h] for h in ne] == ["e6", "f7", "f8", "g9"]
    assert [HEX_NAMES[h] for h in nw] == ["e3", "d4", "d5", "c6", "c7", "b8", "b9"]


def test_mirror_keeps_neighbours_and_distance():
    for a in range(81):
        assert {mirror(n) for n in NEIGHBOURS[a]} == set(NEIGHBOURS[mirror(a)])
        for b in (0, 40, 80):
            assert DISTANCE[a][b] == DISTANCE[mirror(a)][mirror(b)]


def test_hex_names_are_case_insensitive_and_bounded():
    assert parse_hex("E5") == parse_hex("e5")
    for bad in ("j1", "a0", "a10", "", "e"):
        with pytest.raises(ValueError):
            parse_hex(bad)


# ----------------------------------------------------------------- section 7: shuffle vectors
def test_splitmix64_check_value():
    assert next(splitmix64(0)) == 0xE220A8397B1DCDAF


@pytest.mark.parametrize("seed", sorted(VECTORS))
def test_shuffle_vectors(seed):
    p1, p2 = deal(SPEC.defaults(), seed)
    assert (deck_text(p1), deck_text(p2)) == VECTORS[seed]


def test_new_game_deals_from_the_seed_and_seed_mod_2_64():
    st = GAME.new_initial_state(None, 42)
    assert deck_text(st.decks[0]) == VECTORS[42][0]
    assert deck_text(GAME.new_initial_state(None, 2**64 + 1).decks[1]) == VECTORS[1][1]


# ----------------------------------------------------------------- sections 12-13: the spec
def test_spec_has_every_contract_parameter():
    expected = {
        "ap_per_turn", "ap_first_turn", "activation_cost", "attack_extra_cost", "tile_cost", "tiles_per_turn",
        "produce_cost_S", "produce_cost_A", "produce_cost_C", "produce_cost_R", "move_S", "move_C", "move_A", "move_R",
        "attack_S", "attack_C", "attack_A", "attack_R", "hp_S", "hp_A", "hp_C", "hp_R", "range_A", "range_R",
        "castle_hp", "deck_plain", "deck_road", "deck_forest", "deck_hill", "deck_mountain", "road_bonus",
        "forest_cover", "forest_range_penalty", "hill_range_bonus", "mountain_range_penalty", "max_mountains_per_row",
        "orc_attack_bonus", "dwarf_hp_bonus", "elf_archer_hp", "dwarf_move_penalty", "elf_melee_hp_penalty",
        "starting_units", "first_player", "factions", "turn_limit", "setup", "untiled", "tiles_on_camp",
        "deck_top_visible", "counterattack", "elf_cover_ignore", "orc_forest_cover", "setup_phase",
        "dwarf_road_bonus", "auto_end",
    }
    assert set(SPEC.names()) == expected
    d = SPEC.defaults()
    assert (d.ap_per_turn, d.castle_hp, d.factions, d.untiled, d.auto_end, d.deck_top_visible) == (
        3, 8, "humans/humans", "void", "exhausted", True)


@pytest.mark.parametrize("text, words", [
    ("ap_per_turn=11", ["ap_per_turn", "1 to 10"]),
    ("castle_hp=0", ["castle_hp", "1 to 30"]),
    ("untiled=lava", ["untiled", "void | plain"]),
    ("factions=humans/goblins", ["factions", "goblins"]),
    ("nonsense=1", ["nonsense", "known"]),
])
def test_spec_errors_name_the_parameter_and_range(text, words):
    with pytest.raises(RulesError) as exc:
        SPEC.make(text)
    for w in words:
        assert w in str(exc.value)


def test_factions_as_a_rule_value():
    assert SPEC.make("factions=Humans/ORCS").factions == "humans/orcs"
    assert SPEC.make({"factions": {"p1": "elves", "p2": "dwarves"}}).factions == "elves/dwarves"
    assert len(SPEC["factions"].grid_values) == 16
    st = GAME.new_initial_state(GAME.rules("factions=orcs/dwarves"), 0)
    assert st.factions == [2, 3]


def test_deck_must_hold_a_tile():
    with pytest.raises(RulesError, match="at least 1 tile"):
        SPEC.make("deck_plain=0,deck_road=0,deck_forest=0,deck_hill=0,deck_mountain=0")
    assert deck_text(deal(SPEC.make("deck_plain=0,deck_road=0,deck_forest=0,deck_hill=0,deck_mountain=1"), 5)[0]) == "m"


# ----------------------------------------------------------------- classic start and turn structure
def test_classic_start():
    st = GAME.new_initial_state(None, 0)
    assert st.current_player() == 0 and st.ap == 3 and st.turn() == 1
    assert st.castle_of(0) == parse_hex("e1") and st.castle_of(1) == parse_hex("e9")
    assert [HEX_NAMES[h] for h in st.camps[1][1]] == ["d9", "f9", "b9", "h9"]  # S A C R
    assert st.owner[parse_hex("c1")] == 0 and st.owner[parse_hex("c9")] == 1
    texts = [st.action_to_string(a) for a in st.legal_actions()]
    assert texts == sorted(texts)
    assert "#e2=r" in texts and "end" in texts and "c1-a1" in texts


def test_current_player_stays_for_the_whole_turn():
    st = GAME.new_initial_state(None, 0)
    for text in ("+S", "#e2"):
        st.apply_action(st.string_to_action(text))
        assert st.current_player() == 0
    st.apply_action(st.string_to_action("c1-b1"))
    assert st.current_player() == 1 and st.turn() == 2 and st.ap == 3


def test_first_player_p2():
    st = GAME.new_initial_state(GAME.rules("first_player=p2,ap_first_turn=1"), 0)
    assert st.current_player() == 1 and st.ap == 1
    st.apply_action(st.string_to_action("+S"))
    assert st.current_player() == 0 and st.ap == 3


# ----------------------------------------------------------------- rulings with hand-built positions
def test_movement_left_is_best_over_paths():
    # C9: a longer detour does not lower the movement left at a hex reachable directly
    st = state({"to_move": "p1", "ap": 3, "tiles_fill": "plain", "units": {"e3": "C", "i9": "s"}})
    left = st.reach(parse_hex("e3"))
    assert left[parse_hex("e4")] == 2 and left[parse_hex("e5")] == 1


def test_dwarf_mountain_entry_counts_and_stops():
    st = state({"to_move": "p1", "ap": 3, "factions": {"p1": "dwarves", "p2": "humans"}, "tiles_fill": "plain",
                "tiles": {"e4": "mountain"}, "units": {"e3": "C", "i9": "s"}})
    assert st.reach(parse_hex("e3"))[parse_hex("e4")] == 0
    st.apply_action(st.string_to_action("e3-e4"))
    assert st.counters()["dwarf_mountain_entries"] == [1, 0]
    assert ("dwarf_mountain_entries", 0, parse_hex("e4")) in st.fired()


def test_road_bonus_counter_counts_only_when_needed():
    st = state({"to_move": "p1", "ap": 3, "tiles_fill": "plain", "tiles": {"d3": "road"},
                "units": {"d3": "S", "i9": "s"}})
    st.apply_action(st.string_to_action("d3-d4"))
    assert st.counters()["road_bonus"] == [0, 0]
    st2 = state({"to_move": "p1", "ap": 3, "tiles_fill": "plain", "tiles": {"d3": "road"},
                 "units": {"d3": "S", "i9": "s"}})
    st2.apply_action(st2.string_to_action("d3-d6"))
    assert st2.counters()["road_bonus"] == [1, 0]


def test_attack_extra_cost():
    pos = {"to_move": "p1", "ap": 1, "tiles_fill": "plain", "units": {"e3": "S", "e4": "s"}}
    st = state(pos, {"attack_extra_cost": 1})
    assert "e3xe4" not in [st.action_to_string(a) for a in st.legal_actions()]
    assert "e3-d3" in [st.action_to_string(a) for a in st.legal_actions()]
    with pytest.raises(IllegalAction, match="needs 2 AP"):
        st.string_to_action("e3xe4")


def test_elf_and_dwarf_unit_tables():
    st = GAME.new_initial_state(GAME.rules("factions=elves/dwarves"), 0)
    assert [st.full_hp(0, k) for k in range(4)] == [2, 2, 1, 2]  # S A C R
    assert [st.full_hp(1, k) for k in range(4)] == [4, 2, 3, 3]
    assert [st.units.attack[2][k] for k in range(4)] == [3, 2, 3, 4]  # orcs +1


def test_castle_victory_counts_damage_and_freezes():
    st = state({"to_move": "p1", "ap": 3, "tiles_fill": "plain", "castle_hp": {"p2": 2},
                "units": {"e8": "R", "i9": "s"}})
    st.apply_action(st.string_to_action("e8xe9"))
    assert st.is_terminal() and st.current_player() == TERMINAL and st.returns() == [1.0, -1.0]
    assert st.victory() == "castle" and st.outcome() == "win" and st.winner() == 0
    assert st.counters()["castle_damage"] == [2, 0]
    assert ("castle_hit_from", 0, parse_hex("e8")) in st.fired() and ("victory_castle", 0, None) in st.fired()
    assert st.legal_actions() == [] and st.ap == 2
    with pytest.raises(IllegalAction, match="game is over"):
        st.apply_action(act.END)


def test_draw_outcome():
    st = GAME.new_initial_state(GAME.rules("turn_limit=1"), 0)
    st.apply_action(act.END)
    assert st.outcome() == "draw" and st.victory() == "draw" and st.returns() == [0.0, 0.0]
    assert st.turn() == 1 and st.current_player() == TERMINAL


# ----------------------------------------------------------------- notation
@pytest.mark.parametrize("text, canonical", [
    ("+s", "+S"), ("END", "end"), ("C1-B1", "c1-b1"), ("#E2", "#e2=r"), ("#e2=R", "#e2=r"),
])
def test_input_notation_is_case_insensitive(text, canonical):
    st = GAME.new_initial_state(None, 0)
    assert st.action_to_string(st.string_to_action(text)) == canonical


@pytest.mark.parametrize("text, words", [
    ("c1-c2", "void"), ("c1-e1", "castle"), ("c9-c8", "belongs to p2"), ("#e3", "rule 3"), ("#e2=p", "top tile"),
    ("#e1", "castle"), ("c1-c1", "different"), ("camp castle=e1 C=b1 S=d1 A=f1 R=h1 unit=S@c1", "setup phase"),
    ("zz", "not an action"), ("+K", "S, A, C or R"),
])
def test_illegal_actions_name_the_rule(text, words):
    st = GAME.new_initial_state(None, 0)
    with pytest.raises(IllegalAction) as exc:
        st.string_to_action(text)
    assert words in str(exc.value)
    assert words in st.explain_illegal(text)


def test_every_legal_action_round_trips_through_notation():
    st = GAME.new_initial_state(GAME.rules("untiled=plain"), 3)
    for a in st.legal_actions():
        assert st.string_to_action(st.action_to_string(a)) == a


# ----------------------------------------------------------------- setup phase (C44, C45)
def test_camp_list_is_lazy_sorted_and_indexable():
    st = GAME.new_initial_state(GAME.rules("setup_phase=true,starting_units=0"), 0)
    camps = st.legal_actions()
    assert len(camps) == 15120
    texts = [st.action_to_string(a) for a in camps]
    assert texts == sorted(texts) and len(set(texts)) == 15120
    assert [camps[i] for i in (0, 77, 15119)] == [list(camps)[i] for i in (0, 77, 15119)]
    assert all(st.string_to_action(t) == a for t, a in zip(texts[::997], list(camps)[::997], strict=True))


def test_camp_list_with_one_unit_matches_c45():
    st = GAME.new_initial_state(GAME.rules("setup_phase=true"), 0)
    camps = st.legal_actions()
    assert len(camps) == 9 * 8 * 7 * 6 * 5 * 8 * 4
    sample = [camps[i] for i in range(0, len(camps), 4801)]
    texts = [st.action_to_string(a) for a in sample]
    assert texts == sorted(texts)
    assert all(a in camps for a in sample)


def test_setup_phase_with_three_units_stays_lazy():
    st = GAME.new_initial_state(GAME.rules("setup_phase=true,starting_units=3"), 0)
    camps = st.legal_actions()
    assert len(camps) == 15120 * 56 * 64
    a = st.string_to_action("camp castle=e1 C=b1 S=d1 A=f1 R=h1 unit=S@a1 unit=A@c1 unit=R@i1")
    assert a in camps and st.action_to_string(camps[len(camps) - 1]).startswith("camp castle=i1")
    st.apply_action(a)
    assert st.current_player() == 1 and st.unit_count[0] == 3


# ----------------------------------------------------------------- information (C5, C46)
def test_view_reshuffles_only_what_is_hidden():
    st = GAME.new_initial_state(None, 0)
    v = st.view(0, seed=9)
    assert v.decks[0][0] == st.decks[0][0] and sorted(v.decks[0]) == sorted(st.decks[0])
    assert v.decks[0] != st.decks[0]
    assert v.to_dict()["position"]["units"] == st.to_dict()["position"]["units"]
    hidden = GAME.new_initial_state(GAME.rules("deck_top_visible=false"), 0)
    tops = {hidden.view(0, seed=s).decks[0][0] for s in range(30)}
    assert len(tops) > 1
    assert "top ?" in hidden.observation_string(0) and "top r" in st.observation_string(1)


def test_summary_for_the_status_bar():
    st = GAME.new_initial_state(None, 0)
    assert st.summary()["decks"]["p1"] == {"count": 32, "top": "road"}
    hidden = GAME.new_initial_state(GAME.rules("deck_top_visible=false"), 0).summary(0)
    assert hidden["decks"]["p2"]["top"] is None and hidden["ap"] == 3 and hidden["castle_hp"] == {"p1": 8, "p2": 8}


def test_agent_submits_hash_h_when_the_top_is_hidden():
    st = GAME.new_initial_state(GAME.rules("deck_top_visible=false"), 0)
    a = st.agent_string_to_action("#e2")
    assert st.agent_string(a) == "#e2" and st.action_to_string(a) == "#e2=r"
    with pytest.raises(IllegalAction, match="C46"):
        st.agent_string_to_action("#e2=r")


def test_info_and_encoding():
    info = GAME.info(SPEC.defaults())
    assert info.players == ("p1", "p2") and info.chance == "seeded" and info.num_players == 2
    n = GAME.num_distinct_actions(SPEC.defaults())
    st = GAME.new_initial_state(None, 0)
    assert all(0 <= GAME.action_to_int(st, a) < n for a in st.legal_actions())
    assert GAME.num_distinct_actions(GAME.rules("setup_phase=true")) > n
    assert GAME.max_chance_outcomes() == 0 and st.chance_outcomes() == []
    layout = GAME.layout()
    assert layout.shape == "hex-pointy" and len(layout.cells) == 81 and layout.by_name()["e5"].id == 40


def test_position_errors_name_the_key():
    with pytest.raises(PositionError) as exc:
        state({"to_move": "p1", "units": {"e5": "S"}})
    assert exc.value.key == "units" and "void" in str(exc.value)
