"""Big chess: the contract's test vectors (Q, ring rotation, over-cells), cards, boards, rules, records."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from workbench.core.jsonlines import loads
from workbench.core.rulespec import RulesError
from workbench.games.big_chess import GAME, cards, render_card
from workbench.games.big_chess.boards import BoardError, named_board, parse_teams
from workbench.games.big_chess.cards import CardError, load_card_file, parse_card, starter_cards
from workbench.games.big_chess.geometry import FACING_NAMES, over_cells, quantize, rot
from workbench.games.big_chess.record import RecordError, load_record_text, save_record


@pytest.mark.parametrize(("v", "name"), [((1, -2), "NE"), ((1, -3), "N"), ((3, 1), "E"), ((-2, 2), "SW"), ((5, -4), "NE")])
def test_quantize_examples(v: tuple[int, int], name: str) -> None:
    assert FACING_NAMES[quantize(*v)] == name


@pytest.mark.parametrize(("v", "f", "out"), [((0, -1), 1, (1, -1)), ((-1, -1), 1, (0, -1)), ((1, -1), 1, (1, 0)),
                                             ((0, -2), 1, (2, -2)), ((1, -2), 1, (2, -1)), ((1, -2), 2, (2, 1)),
                                             ((0, -1), 4, (0, 1))])
def test_ring_rotation_examples(v: tuple[int, int], f: int, out: tuple[int, int]) -> None:
    assert rot(v[0], v[1], f) == out


def test_ring_rotation_is_exact_at_90_degrees_and_keeps_distance() -> None:
    for x in range(-3, 4):
        for y in range(-3, 4):
            if (x, y) == (0, 0):
                continue
            assert rot(x, y, 2) == (-y, x)
            for f in range(8):
                rx, ry = rot(x, y, f)
                assert max(abs(rx), abs(ry)) == max(abs(x), abs(y))
            assert rot(*rot(x, y, 3), 5) == (x, y)


@pytest.mark.parametrize(("v", "cells"), [((0, 2), {(0, 1)}), ((1, 2), {(0, 1), (1, 1)}), ((2, 1), {(1, 0), (1, 1)}),
                                          ((2, 2), {(1, 1)}), ((1, 3), {(0, 1), (1, 2)}), ((0, 3), {(0, 1), (0, 2)}),
                                          ((3, 3), {(1, 1), (2, 2)}), ((1, 1), set()), ((-1, -2), {(0, -1), (-1, -1)})])
def test_over_cells_table(v: tuple[int, int], cells: set[tuple[int, int]]) -> None:
    assert set(over_cells(*v)) == cells


def test_starter_set_is_complete_and_valid() -> None:
    keys = {c.key for c in starter_cards()}
    assert keys == {"victim", "slave", "infantry", "saboteur", "keeper", "veteran", "legionary", "guard", "berserk",
                    "commander", "jester", "prince", "bastion", "lbishop", "lrook", "lqueen", "bishop", "rook", "queen",
                    "knight", "camel", "aeros", "portax", "omnigon", "waiter", "king"}
    by = {c.key: c for c in starter_cards()}
    assert [by[k].id for k in ("victim", "slave", "infantry", "saboteur", "keeper", "veteran", "legionary", "guard",
                               "berserk", "commander")] == list(range(10))
    assert by["king"].id == 255 and by["waiter"].id == 30 and by["waiter"].income == 5
    assert not by["slave"].pushable and not by["berserk"].pushable and not by["bastion"].pushable
    assert {"jester_immune"} <= by["berserk"].tags and "untouchable" in by["bastion"].tags
    assert not by["victim"].mobile and not by["waiter"].mobile and not by["king"].mobile and by["infantry"].mobile
    assert by["commander"].aura == (0, 1) and by["veteran"].aura == (0,)


def test_cards_listing_and_rendering() -> None:
    rows = cards()
    knight = next(r for r in rows if r["key"] == "knight")
    assert knight["cost"] == 30 and set(knight["patterns"]) == {"base", "L0", "L1"}
    text = render_card("knight")
    grid = text.splitlines()[1:]
    assert grid[1][2 * 2] == "J" and grid[3][2 * 3] == "P"  # (−1,−2) leap, the piece in the centre
    assert "x" in render_card("infantry", facing="E")


def test_card_errors_name_file_line_and_field(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{\n "key": "blob",\n "id": 70,\n "vector": false,\n "cost": 5,\n "base": [\n  {"act": "fly", "slide": [0, -1]}\n ]\n}\n')
    with pytest.raises(CardError) as err:
        load_card_file(bad)
    assert "bad.json: line 7" in str(err.value) and "field act" in str(err.value)
    with pytest.raises(CardError, match="line 2.*field colour"):
        parse_card(loads('{"key": "x",\n "colour": 1, "id": 1, "cost": 1, "vector": true}'), "inline")
    with pytest.raises(CardError, match="push needs a slide of range 1"):
        parse_card({"key": "p", "id": 71, "cost": 1, "vector": True, "base": [{"act": "push", "leap": [0, -2]}]}, "x")
    with pytest.raises(CardError, match="shadow is only for a pawn"):
        parse_card({"key": "p", "id": 71, "cost": 1, "vector": True,
                    "base": [{"act": "move", "slide": [0, -1], "min": 2, "range": 2, "shadow": True}]}, "x")


def test_boards_and_teams() -> None:
    b2 = named_board("classic-2")
    assert (b2.width, b2.height) == (12, 12)
    assert b2.portal_pair[b2.parse_cell("7,5")] == b2.parse_cell("4,6")
    b4 = named_board("classic-4")
    assert parse_teams("ac,bd", b4) == (("a", "c"), ("b", "d"))
    for bad in ("aa,bc", "ab,cz", "a", "ab,", ",ab", "AB,cd", "a b,cd", "ab,ce"):
        with pytest.raises(BoardError):
            parse_teams(bad, b4)
    with pytest.raises(BoardError, match="leading zeros"):
        b2.parse_cell("03,4")


def test_rules_spec_checks() -> None:
    assert GAME.rules({"board": "classic-4", "teams": "a,b,c,d"})["teams"] == "a,b,c,d"
    for bad in ({"teams": "a,c"}, {"start": "army", "board": "classic-4"}, {"promotion_targets": "knight,slave"},
                {"king_cost": 10001}, {"jester_blocks": "none"}, {"cost_knight": -1}, {"cost_king": 5}):
        with pytest.raises(RulesError):
            GAME.rules(bad)
    r = GAME.rules("cost_knight=40,fort_levels=1")
    assert r["cost_knight"] == 40 and r["fort_levels"] == (1,)
    assert GAME.context(r).cost[GAME.context(r).card_index["knight"]] == 40


def test_record_round_trip_and_refusals() -> None:
    st = GAME.new_initial_state(GAME.rules({"start": "army", "max_turns": 60}))
    rng = random.Random(3)
    while not st.is_terminal():
        st.apply_action(rng.choice(st.legal_actions()))
    text = save_record(st)
    back = load_record_text(text)
    assert back.to_dict() == st.to_dict()
    data = json.loads(text)
    data["actions"][5] = "0,0-9,9"
    with pytest.raises(RecordError, match="ply 6"):
        load_record_text(json.dumps(data))
    data = json.loads(text)
    data["result"]["result"] = "win"
    with pytest.raises(RecordError, match="field result"):
        load_record_text(json.dumps(data))
    with pytest.raises(RecordError, match="field seed"):
        load_record_text(json.dumps({**json.loads(text), "seed": "x"}))


def test_record_from_a_scenario_start() -> None:
    from bc_helpers import four_player_state

    st = four_player_state(9)
    rng = random.Random(1)
    for _ in range(40):
        st.apply_action(rng.choice(st.legal_actions()))
    st.resign("c")
    back = load_record_text(save_record(st))
    assert back.to_dict() == st.to_dict()
