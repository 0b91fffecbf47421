"""One or more tests per W-ruling and per piece, written from BOARD-AND-RULINGS.md, not from the engine."""

from __future__ import annotations

import pytest
from enginehelp import dest, piece, pos, texts

from workbench.games.terrafeud.engine import IllegalActionError, RulesConfig, RulesError, new_game
from workbench.games.terrafeud.engine.geometry import ADJACENT, CAVALRY_PATHS, DISTANCE, PIKE_ZONE, hex_name, parse_hex

KINGS = {"f1": "F", "f11": "f"}


# ---------------------------------------------------------------- geometry and board (sections 1-4)
def test_geometry_counts_and_names():
    from workbench.games.terrafeud.engine.geometry import HEX_NAMES

    assert len(HEX_NAMES) == 91 and HEX_NAMES[0] == "a1" and HEX_NAMES[-1] == "l6" and "j1" not in HEX_NAMES
    assert DISTANCE[parse_hex("f1")][parse_hex("f11")] == 10
    assert {hex_name(h) for h in ADJACENT[parse_hex("f6")]} == {"f5", "f7", "e5", "e6", "g5", "g6"}
    assert all(len(CAVALRY_PATHS[h]) == 18 for h in [parse_hex("f6")])
    assert len(PIKE_ZONE[parse_hex("f6")]) == 12


def test_river_and_setup():
    st = new_game()
    bd = st.board
    assert len(bd.river) == 12 and {hex_name(h) for h in bd.bridges} == {"b4", "f6", "k4"}
    assert {hex_name(h) for h in bd.fords} == {"d5", "h5"}
    assert {hex_name(h) for h in bd.castle_zone[1]} == {"f11", "e10", "f10", "g10"}
    assert piece(st, "f9") == "k" and piece(st, "a6") == "i" and piece(st, "e9") == "p"
    assert len(st.pieces(0)) == len(st.pieces(1)) == 14


def test_terrain_rolled_is_seeded_and_fixed_matches_ua_text():
    a, b = new_game(seed=5), new_game(seed=5)
    assert a.game.terrain == b.game.terrain
    hills = {tuple(new_game(seed=s).game.terrain.hills) for s in range(40)}
    assert len(hills) > 3
    fixed = new_game("terrain=fixed").game.terrain.to_dict()
    assert fixed == {"hills": {"white": "e4", "black": "e7"}, "swamps": {"white": "b3", "black": "b5"}}
    off = new_game("hill=false,swamp=false").game.terrain.to_dict()
    assert off["hills"] == {"white": None, "black": None}


def test_rules_config_parsing_and_errors():
    r = RulesConfig.parse("season=winter,castling=sacrifice,draw_after=40")
    assert r.season == "winter" and r.castling == "sacrifice" and r.draw_after == 40
    assert RulesConfig.from_dict(r.to_dict()) == r
    for bad in ("season=autumn", "colour=red", "hill=maybe", "draw_after=-3", "season"):
        with pytest.raises(RulesError):
            RulesConfig.parse(bad)


# ---------------------------------------------------------------- W1 / W16
def test_w16_pass_only_when_nothing_else():
    assert "pass" not in texts(new_game())
    # White's feudal is hemmed in by the kings' rule and the summer river; its archer stands on a
    # summer ford (no shooting) with an enemy knight on its only free hex: nothing is legal but pass.
    st = pos({"d4": "F", "d5": "A", "d3": "f", "d6": "k"})
    assert texts(st) == {"pass"}
    st.play("pass")
    assert piece(st, "d5") is None  # the triggers still run: the archer dies next to the knight (W7)
    assert st.to_move == 1 and st.ply == 1


# ---------------------------------------------------------------- W2 / W3 knight
def test_knight_slides_and_stops_before_own_and_on_first_enemy():
    st = pos({"d1": "K", "d3": "I", "a1": "F", "f11": "f"}, rules={"season": "winter"})
    d = dest(st, "d1")
    assert "d2" in d and "d3" not in d and "d4" not in d
    st = pos({"c3": "K", "f3": "i", "a1": "F", "f11": "f"}, rules={"season": "winter"})
    d = dest(st, "c3")
    assert {"d3", "e3", "f3"} <= d and "g2" not in d


def test_ruling_1_knight_and_ford_summer_blockade_winter_passable():
    pieces = {"d3": "K", "a1": "F", "f11": "f"}
    summer = pos(pieces, rules={"season": "summer"})
    assert dest(summer, "d3") >= {"d4"} and not {"d5", "d6"} & dest(summer, "d3")
    winter = pos(pieces, rules={"season": "winter"})
    assert {"d4", "d5", "d6", "d7"} <= dest(winter, "d3")


def test_knight_never_stops_on_bridge_and_kills_in_passing():
    st = pos({"f4": "K", "f6": "i", "a1": "F", "l6": "f"})
    d = dest(st, "f4")
    assert "f6" not in d and "f7" in d and "f5" in d
    st.play("f4-f7")
    assert piece(st, "f6") is None and piece(st, "f7") == "K"
    assert st.destroyed[1] == [6]


def test_knight_bridge_needs_next_hex_free_of_own_and_attacks_enemy_there():
    st = pos({"f4": "K", "f7": "I", "a1": "F", "l6": "f"})
    assert "f7" not in dest(st, "f4") and "f6" not in dest(st, "f4")
    st = pos({"f4": "K", "f6": "i", "f7": "c", "a1": "F", "l6": "f"})
    st.play("f4xf7")
    assert piece(st, "f6") is None and piece(st, "f7") == "K" and sorted(st.destroyed[1]) == [4, 6]


def test_knight_stops_after_bridge_even_in_winter_and_in_zone():
    st = pos({"f4": "K", "a1": "F", "l6": "f"}, rules={"season": "winter"})
    d = dest(st, "f4")
    assert "f7" in d and "f8" not in d and "f6" not in d


def test_w2_pikeman_zone_stops_knight_on_first_zone_hex():
    # Black pikeman on d8: its zone includes d6 (two straight steps) and d7.
    st = pos({"d1": "K", "d8": "p", "a1": "F", "l6": "f"}, rules={"season": "winter"})
    d = dest(st, "d1")
    assert "d6" in d and "d7" not in d and "d8" not in d


def test_w3_pikeman_only_attacked_by_knight_from_adjacent():
    st = pos({"d1": "K", "d8": "p", "a1": "F", "l6": "f"}, rules={"season": "winter"})
    assert "d8" not in dest(st, "d1")
    st = pos({"d7": "K", "d8": "p", "a1": "F", "l6": "f"}, rules={"season": "winter"})
    assert "d8" in dest(st, "d7")


def test_w2_enemy_swamp_stops_knight_own_swamp_does_not():
    rules = {"season": "winter", "swamp": True, "swamps": {"white": "e4", "black": "e7"}}
    st = pos({"e1": "K", "a1": "F", "l6": "f"}, rules=rules)
    d = dest(st, "e1")
    assert {"e5", "e6", "e7"} <= d and "e8" not in d  # own swamp e4 ignored, Black's e7 stops
    st = pos({"e10": "k", "a1": "F", "l6": "f"}, to_move="black", rules=rules)
    d = dest(st, "e10")
    assert "e4" in d and "e3" not in d


def test_mine_ends_knight_slide_and_kills():
    st = pos({"d1": "K", "d8": "a", "a1": "F", "l6": "f"}, rules={"season": "winter"}, markers={"d8": "d6"})
    d = dest(st, "d1")
    assert "d6" in d and "d7" not in d
    st.play("d1-d6")
    assert piece(st, "d6") is None and st.markers[1] == {}


# ---------------------------------------------------------------- W4 cavalry
def test_cavalry_eighteen_landings_on_open_board():
    st = pos({"f6": "C", "a1": "F", "l6": "f"}, rules={"season": "winter"})
    assert len(dest(st, "f6")) == 18


def test_cavalry_leaps_pieces_and_river_but_never_lands_on_summer_river():
    st = pos({"f4": "C", "f5": "i", "f6": "i", "a1": "F", "l6": "f"})
    d = dest(st, "f4")
    assert "f6" in d  # attack over a piece on f5
    assert "e5" not in d and "g5" not in d  # ordinary river in summer
    st2 = pos({"d3": "C", "a1": "F", "l6": "f"})
    assert "d5" in dest(st2, "d3")  # cavalry may land on a ford


def test_cavalry_exact_landing_on_pikeman_and_stop_in_zone():
    # Black pikeman on f8: landing exactly on it attacks, whatever zones lie between.
    st = pos({"f6": "C", "f8": "p", "a1": "F", "l6": "f"}, rules={"season": "winter"})
    d = dest(st, "f6")
    assert "f8" in d


def test_cavalry_stopped_in_zone_never_reaches_target():
    # White cavalry e3, straight charge north e4,e5; Black pikeman at e7 has e5 in its zone (two steps south).
    st = pos({"e3": "C", "e7": "p", "a1": "F", "l6": "f"}, rules={"season": "winter"})
    d = dest(st, "e3")
    assert "e5" in d  # landing e5 directly (in zone, fine)
    # L paths e4,e5 -> d5/f6? e4,e5 -> turn: e5 + dir -> lands d6? those pass e5 as intermediate -> stop at e5
    lands_via_e5 = {hex_name(land) for land, inter in CAVALRY_PATHS[parse_hex("e3")] if parse_hex("e5") in inter}
    assert lands_via_e5 and not (lands_via_e5 & d)


def test_cavalry_enemy_swamp_intermediate_stops_even_exact_pike():
    rules = {"season": "winter", "swamp": True, "swamps": {"white": "b3", "black": "e7"}}
    # path e5 -> e6 -> e7? straight charge from e5 to e7 has intermediate e6; use L: e5,e6,e7 -> f8 lands with e6,e7 inter.
    st = pos({"e5": "C", "f8": "p", "a1": "F", "l6": "f"}, rules=rules)
    d = dest(st, "e5")
    assert "e7" in d and "f8" not in d


# ---------------------------------------------------------------- pikeman, archer
def test_pikeman_steps_and_attacks_anyone():
    st = pos({"e4": "P", "e5": "f", "a1": "F", "f4": "k"}, rules={"season": "winter"}, to_move="white")
    d = dest(st, "e4")
    assert {"e5", "f4"} <= d and len(d) == 6


def test_archer_moves_only_to_free_hexes_and_shoots_distance_two():
    st = pos({"d3": "A", "d4": "i", "a1": "F", "l6": "f"}, rules={"season": "winter"})
    assert "d4" not in dest(st, "d3")
    acts = texts(st)
    assert "d3*d5" not in acts  # blocked by the piece on d4 (ruling 3)
    assert "d3*e5" in acts and "d3*d4" not in acts  # point blank not allowed
    shots = [a for a in st.legal_actions() if a[0] == 1]
    assert shots and all(DISTANCE[a[1]][a[2]] == 2 for a in shots)  # exactly 2 without a hill


def test_ruling_3_line_of_shot_blocked_by_own_piece_too():
    st = pos({"d3": "A", "d4": "I", "d5": "i", "a1": "F", "l6": "f"}, rules={"season": "winter"})
    assert "d3*d5" not in texts(st)


def test_hill_extends_archer_range_to_three():
    rules = {"hill": True, "hills": {"white": "h4", "black": "b6"}, "season": "winter"}
    st = pos({"h4": "A", "a1": "F", "l6": "f"}, rules=rules)
    acts = texts(st)
    assert "h4*h7" in acts and "h4*h6" in acts and "h4*h8" not in acts


def test_archer_cannot_shoot_from_summer_ford_but_can_in_winter():
    st = pos({"d5": "A", "a1": "F", "l6": "f"})
    assert not any("*" in a for a in texts(st))
    st = pos({"d5": "A", "a1": "F", "l6": "f"}, rules={"season": "winter"})
    assert any("*" in a for a in texts(st))


def test_w8_marker_mine_and_ultimatum():
    st = pos({"d3": "A", "a1": "F", "l6": "f", "d7": "i", "c6": "i"}, rules={"season": "winter"})
    st.play("d3*d5")
    assert st.markers[0] == {parse_hex("d3"): parse_hex("d5")}
    st.play("d7-d6")
    # re-marking the same hex is not an action
    with pytest.raises(IllegalActionError, match="already"):
        st.play("d3*d5")
    st.play("a1-a2")
    st.play("d6-d5")  # Black infantry walks into the mine
    assert piece(st, "d5") is None and st.markers[0] == {}


def test_w8_ultimatum_kills_if_the_piece_stays():
    st = pos({"d3": "A", "a1": "F", "l6": "f", "d5": "i", "k6": "i"}, rules={"season": "winter"})
    st.play("d3*d5")
    assert st.pending == frozenset({parse_hex("d5")})
    st.play("k6-k5")  # Black ignores the ultimatum
    assert piece(st, "d5") is None and st.markers[0] == {}


def test_w8_ultimatum_left_becomes_mine():
    st = pos({"d3": "A", "a1": "F", "l6": "f", "d5": "i"}, rules={"season": "winter"})
    st.play("d3*d5", "d5-d6")
    assert piece(st, "d6") == "i" and st.markers[0] == {parse_hex("d3"): parse_hex("d5")}


def test_archer_moving_removes_its_marker():
    st = pos({"d3": "A", "a1": "F", "l6": "f", "k6": "i"}, rules={"season": "winter"})
    st.play("d3*d5", "k6-k5", "d3-d2")
    assert st.markers[0] == {}


def test_w7_archer_dies_adjacent_to_enemy_and_two_archers_both_die():
    st = pos({"d3": "A", "a1": "F", "l6": "f", "d6": "i"}, rules={"season": "winter"}, to_move="black")
    st.play("d6-d5")
    assert piece(st, "d3") == "A"  # d5 not adjacent to d3
    st.play("a1-a2", "d5-d4")
    assert piece(st, "d3") is None and piece(st, "d4") == "i"
    st = pos({"d3": "A", "d5": "a", "a1": "F", "l6": "f"}, rules={"season": "winter"})
    st.play("d3-d4")
    assert piece(st, "d4") is None and piece(st, "d5") is None


def test_archer_melee_toggle():
    pieces = {"d3": "A", "d4": "i", "a1": "F", "l6": "f"}
    assert "d4" not in dest(pos(pieces, rules={"season": "winter"}), "d3")
    assert "d4" in dest(pos(pieces, rules={"season": "winter", "archer_melee": True}), "d3")


# ---------------------------------------------------------------- W5 / W6 infantry
def test_w6_infantry_alone_attacks_only_archer_and_infantry():
    st = pos({"e3": "I", "e4": "k", "d3": "i", "a1": "F", "l6": "f"}, rules={"season": "winter"})
    d = dest(st, "e3")
    assert "d3" in d and "e4" not in d
    with pytest.raises(IllegalActionError, match="infantryman alone may only attack an archer or an infantryman"):
        st.play("e3xe4")


def test_w6_exception_knight_in_own_pikeman_zone():
    st = pos({"e3": "I", "e4": "k", "e2": "P", "a1": "F", "l6": "f"}, rules={"season": "winter"})
    assert "e4" in dest(st, "e3")


def test_w5_aura_bonus_needs_both_now_and_last_turn():
    pieces = {"f2": "F", "e3": "I", "l6": "f", "a6": "i"}
    st = pos(pieces, rules={"season": "winter"})
    assert "e5" not in dest(st, "e3")
    st = pos(pieces, rules={"season": "winter"}, aura_ready=["e3"])
    assert {"e5", "e4"} <= dest(st, "e3")
    # leaving the zone removes the bonus at once: move the feudal away first
    st = pos({"f1": "F", "e3": "I", "l6": "f", "a6": "i"}, rules={"season": "winter"}, aura_ready=["e3"])
    assert "e5" not in dest(st, "e3")  # distance 3 from the feudal now


def test_w5_aura_ready_is_earned_at_end_of_turn():
    st = pos({"f2": "F", "e4": "I", "l6": "f", "a6": "i"}, rules={"season": "winter"})
    st.play("e4-e3")  # ends within distance 2 of f2
    assert parse_hex("e3") in st.aura_ready
    st.play("a6-a5")
    assert "e5" in dest(st, "e3")


def test_aura_move_blocked_by_piece_between_and_stopped_by_zone():
    st = pos({"f2": "F", "e3": "I", "e4": "I", "l6": "f", "a6": "i"}, rules={"season": "winter"}, aura_ready=["e3", "e4"])
    assert "e5" not in dest(st, "e3")
    st = pos({"f2": "F", "e3": "I", "e6": "p", "l6": "f", "a6": "i"}, rules={"season": "winter"}, aura_ready=["e3"])
    assert "e4" in dest(st, "e3") and "e5" not in dest(st, "e3")  # e4 is in the pikeman's zone: the move stops there


# ---------------------------------------------------------------- W7 coordinated attacks, ruling 6
def test_coordinated_attack_kills_target_and_first_infantry_in_board_order():
    st = pos({"e5": "k", "d4": "I", "f6": "I", "f4": "I", "a1": "F", "l6": "f"}, rules={"season": "winter"})
    # e5's neighbours: e6 f6 f5 e4 d4 d5; d4 and f6 are adjacent already -> they resolve on the next action
    st.play("a1-a2")
    assert piece(st, "e5") is None
    assert piece(st, "d4") is None and piece(st, "f6") == "I"  # d4 comes first in board order


def test_coordinated_attack_completed_by_a_move():
    st = pos({"e5": "k", "d4": "I", "f4": "I", "a1": "F", "l6": "f"}, rules={"season": "winter"})
    st.play("f4-f5")
    assert piece(st, "e5") is None and piece(st, "d4") is None and piece(st, "f5") == "I"


def test_coordinated_attack_kills_feudal_and_ends_game():
    st = pos({"e5": "f", "d4": "I", "f4": "I", "a1": "F", "k6": "i"}, rules={"season": "winter"})
    st.play("f4-f5")
    assert st.winner == 0 and st.victory == "destroyed"


# ---------------------------------------------------------------- W9 feudal, W10 threat and mate
def test_w9_feudals_do_not_strike_each_other_and_kings_rule():
    st = pos({"e4": "F", "e6": "f"}, rules={"season": "winter"})
    d = dest(st, "e4")
    assert "e5" not in d and {"f5", "f4", "e3", "d3", "d4"} <= d  # e5 is adjacent to e6
    st = pos({"e4": "F", "e5": "i", "e6": "f"}, rules={"season": "winter"})
    assert "e5" not in dest(st, "e4")  # even an attack may not end adjacent to the enemy feudal
    st = pos({"e4": "F", "e5": "i", "e7": "f"}, rules={"season": "winter"})
    assert "e5" in dest(st, "e4")


def test_w9_feudal_attacks_adjacent_enemy():
    st = pos({"e4": "F", "e5": "k", "e9": "f"}, rules={"season": "winter"})
    st.play("e4xe5")
    assert piece(st, "e5") == "F"


def test_w10_mate_by_knight_on_file():
    # Black's feudal is walled in by its own infantry, has castled, and White's cavalry can land on f11.
    pieces = {"f11": "f", "e10": "i", "f10": "i", "g10": "i", "d8": "C", "a1": "F"}
    st = pos(pieces, to_move="black", rules={"season": "winter"}, castled=["black"])
    assert st.is_threatened(1) and st.victory == "checkmate" and st.winner == 0
    # Not castled yet: castling with e10 moves the feudal off the cavalry's landing -> no mate.
    st = pos(pieces, to_move="black", rules={"season": "winter"})
    assert st.is_threatened(1) and st.victory is None
    assert {t for t in texts(st) if "<>" in t} == {"f11<>e10", "f11<>f10", "f11<>g10"}


def test_w10_threatened_feudal_that_can_step_away_is_not_mated():
    st = pos({"f6": "f", "f4": "K", "a1": "F"}, to_move="black", rules={"season": "winter"})
    assert st.is_threatened(1) and st.victory is None
    # every step is legal, even f5 and f7 that stay on the knight's file: moving into danger is allowed (W9)
    assert dest(st, "f6") == {"f7", "g6", "g5", "f5", "e5", "e6"}


def test_w10_mate_defence_any_toggle():
    # White's feudal is walled in by its own infantry and has castled; Black's cavalry can land on a1.
    # Only other pieces can parry (the knight takes c3, or an Order sends b2 against it).
    pieces = {"a1": "F", "a2": "I", "b1": "I", "b2": "I", "c6": "K", "c3": "c", "l6": "f"}
    base = pos(pieces, rules={"season": "winter"}, castled=["white"])
    assert base.is_threatened(0) and base.victory == "checkmate" and base.winner == 1
    anyd = pos(pieces, rules={"season": "winter", "mate_defence": "any"}, castled=["white"])
    assert anyd.victory is None and "c6xc3" in texts(anyd)


# ---------------------------------------------------------------- W11 castling
def test_w11_castling_swap_and_once_per_game():
    st = pos({"f1": "F", "f2": "I", "f11": "f", "a6": "i"})
    st.play("f1<>f2")
    assert piece(st, "f1") == "I" and piece(st, "f2") == "F" and st.castled[0]
    st.play("a6-a5")
    assert not any("<>" in t for t in texts(st))


def test_w11_castling_sacrifice_removes_infantryman():
    st = pos({"f1": "F", "f2": "I", "f11": "f", "a6": "i"}, rules={"castling": "sacrifice"})
    st.play("f1<>f2")
    assert piece(st, "f1") is None and piece(st, "f2") == "F" and st.destroyed[0] == [6]


def test_ruling_5_threatening_piece_stays_and_ultimatum_falls_on_swapped_piece():
    st = pos(
        {"f1": "F", "f2": "I", "d2": "a", "f11": "f"},
        to_move="white",
        markers={"d2": "f1"},
        ultimatum_pending=["f1"],
        rules={"season": "winter"},
    )
    st.play("f1<>f2")
    assert piece(st, "d2") == "a" and piece(st, "f1") is None and piece(st, "f2") == "F"
    assert st.winner is None


# ---------------------------------------------------------------- W12 Order
def test_w12_order_two_steps_any_attack():
    st = pos({"f2": "F", "e3": "I", "g3": "I", "e4": "k", "l6": "f"}, rules={"season": "winter"})
    acts = texts(st)
    assert "order e3xe4 g3-g4" in acts and "order g3-g4 e3xe4" in acts
    st.play("order e3xe4 g3-g4")
    assert piece(st, "e4") == "I" and piece(st, "g4") == "I"


def test_w12_second_step_may_take_the_hex_the_first_left():
    st = pos({"f2": "F", "e3": "I", "e2": "I", "l6": "f"}, rules={"season": "winter"})
    assert "order e3-e4 e2-e3" in texts(st)


def test_w12_order_needs_two_infantry_in_range():
    st = pos({"f2": "F", "e3": "I", "a1": "I", "l6": "f"}, rules={"season": "winter"})
    assert not any(t.startswith("order") for t in texts(st))


# ---------------------------------------------------------------- W13 promotion, ruling 4
def test_w13_promotion_with_choice_and_empty_pool():
    pieces = {"e9": "I", "a1": "F", "l6": "f"}
    st = pos(pieces, rules={"season": "winter"}, destroyed={"white": ["A", "K"]})
    acts = texts(st)
    assert {"e9-e10=A", "e9-e10=K", "e9-f10=A", "e9-f10=K"} <= acts and "e9-e10" not in acts
    with pytest.raises(IllegalActionError, match="W13"):
        st.play("e9-e10")
    st.play("e9-e10=k")  # the letter is read in either case
    assert piece(st, "e10") == "K" and st.destroyed[0] == [5]
    st2 = pos(pieces, rules={"season": "winter"})
    assert "e9-e10" in texts(st2)


def test_ruling_4_promoted_piece_acts_next_turn_zone_at_once():
    st = pos({"e9": "I", "a1": "F", "l6": "f", "d8": "k"}, rules={"season": "winter"}, destroyed={"white": ["P"]})
    st.play("e9-e10=P")
    assert st.victory is None and piece(st, "e10") == "P"
    assert st.to_move == 1
    assert parse_hex("e8") in st.zone(0)  # the new pikeman's zone holds at once


def test_infantry_entering_enemy_centre_wins_castle():
    st = pos({"f10": "I", "a1": "F", "l6": "f"}, rules={"season": "winter"})
    st.play("f10-f11")
    assert st.winner == 0 and st.victory == "castle" and st.to_move == 1


# ---------------------------------------------------------------- W14, W15
def test_w14_draw_after_quiet_plies():
    st = pos({"a1": "F", "l6": "f"}, rules={"draw_after": 2})
    st.play("a1-a2")
    assert st.victory is None
    st.play("l6-l5")
    assert st.victory == "draw" and st.winner is None


def test_w15_pike_cavalry_mutual_toggle():
    pieces = {"e4": "C", "e6": "p", "a1": "F", "l6": "f"}
    st = pos(pieces, rules={"season": "winter"})
    st.play("e4xe6")
    assert piece(st, "e6") == "C"
    st = pos(pieces, rules={"season": "winter", "pike_cavalry_mutual": True})
    st.play("e4xe6")
    assert piece(st, "e6") is None and piece(st, "e4") is None


# ---------------------------------------------------------------- errors speak the rule
def test_illegal_actions_explain_the_rule():
    st = new_game()
    with pytest.raises(IllegalActionError, match="^e3-e5: "):
        st.play("e3-e5")
    with pytest.raises(IllegalActionError, match="no piece on e4"):
        st.play("e4-e5")
    with pytest.raises(IllegalActionError, match="Black|black"):
        st.play("e8-e7")
    with pytest.raises(IllegalActionError, match="unknown hex"):
        st.play("j4-j5")
    with pytest.raises(IllegalActionError, match="ford|knight"):
        pos({"d4": "K", "a1": "F", "l6": "f"}).play("d4-d5")


def test_promotion_probe_does_not_disturb_generation():
    # Regression: the probe that finds promotion choices used to leave the generator reading a
    # board on which the infantryman had already moved (phantom actions from f10).
    st = pos({"f9": "I", "a1": "F", "l6": "f"}, rules={"season": "winter"}, destroyed={"white": ["K"]})
    acts = texts(st)
    assert not any(t.startswith("f10") for t in acts)
    assert {"f9-f10=K", "f9-e9", "f9-g9"} <= acts
    st = pos({"f9": "I", "a1": "F", "l6": "f"}, rules={"season": "winter"})
    assert not any(t.startswith("f10") for t in texts(st))


@pytest.mark.parametrize(("move", "d5_after"), [("b6-c7", "I"), ("b6-b5", None)])
def test_w7_order_archer_dies_before_its_ultimatum_falls(move, d5_after):
    # Black's archer on d7 holds an ultimatum on White's d5, which White ignores. Walking next to the
    # archer (b6-c7) kills it at trigger 2, before trigger 4, so its marker goes with it and d5 lives;
    # any other move (b6-b5) lets the ultimatum fall. Either way no Black marker is left.
    st = pos(
        {"a1": "F", "d5": "I", "b6": "I", "d7": "a", "l6": "f"},
        rules={"season": "winter"},
        markers={"d7": "d5"},
        ultimatum_pending=["d5"],
    )
    st.play(move)
    assert piece(st, "d5") == d5_after and st.markers[1] == {}
    assert (piece(st, "d7") is None) == (move == "b6-c7")


def test_victory_precedence_first_feudal_to_die_loses():
    # White's feudal takes e5, where Black's own mine lies (trigger 1 kills it first); the coordinated
    # attack on Black's feudal (trigger 3) comes later in the same action: White loses.
    st = pos(
        {"e4": "F", "e5": "i", "e7": "a", "a6": "f", "a5": "I", "b6": "I"},
        rules={"season": "winter"},
        markers={"e7": "e5"},
    )
    st.play("e4xe5")
    assert st.feudal == [-1, -1]
    assert st.winner == 1 and st.victory == "destroyed"


def test_mine_on_the_enemy_centre_prevents_castle_capture():
    # White's cavalry lands on f11, but Black's mine there kills it (trigger 1): no castle capture.
    st = pos({"a1": "F", "d8": "C", "f9": "a", "l1": "f"}, rules={"season": "winter"}, markers={"f9": "f11"})
    st.play("d8-f11")
    assert piece(st, "f11") is None and st.victory is None


def test_triggers_after_the_board_has_settled():
    # After the first action the engine looks only around arrivals; these arrivals must still fire.
    st = pos({"e5": "k", "d4": "I", "f4": "I", "a1": "F", "l6": "f", "h8": "a"}, rules={"season": "winter"})
    st.play("a1-a2", "l6-l5")  # settle the board
    st.play("f4-f5")  # the second infantryman arrives: coordinated attack on e5
    assert piece(st, "e5") is None and piece(st, "d4") is None and piece(st, "f5") == "I"
    st.play("h8-h7", "f5-g5", "h7-h6")
    assert piece(st, "h6") == "a"
    st.play("g5-g6")  # White's infantryman arrives next to Black's archer: the archer dies
    assert piece(st, "h6") is None
    # A castling swap is an arrival on both hexes: the feudal lands between two enemy infantry.
    st = pos({"f1": "F", "f2": "I", "f3": "i", "g2": "i", "f11": "f", "a6": "i"}, rules={"season": "winter"})
    st.play("f2-e2", "a6-a5", "e2-f2", "a5-a4")
    st.play("f1<>f2")
    assert st.winner == 1 and st.victory == "destroyed"


def test_promotion_suffix_outside_the_castle_zone_is_explained():
    with pytest.raises(IllegalActionError, match="only an infantryman entering the enemy castle zone"):
        new_game().play("e3-e4=K")
