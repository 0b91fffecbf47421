"""The general board's generic features taken from TerraFeud's board: the graphical position editor (through
``GameDef.edit_palette``/``edit_cell``), scenario upload as text (opening no server file), and best lines
searched with the earlier bests excluded at the root."""

from __future__ import annotations

import pytest

from workbench.games import get
from workbench.widget.board import GameBoard, validate_message


def send(b: GameBoard, **msg: object) -> dict:
    b._on_msg(b, msg, [])
    return b.view


@pytest.mark.parametrize(("game", "cell", "code", "owner"), [("terrafeud", "f5", "k", 1), ("pole", "e5", "C", 0)])
def test_editor_sets_a_piece_by_click_and_plays_on_from_it(game: str, cell: str, code: str, owner: int) -> None:
    b = GameBoard(game, seed=0)
    assert b.geometry["can_edit"]
    v = send(b, type="edit")
    assert {p["code"] for p in v["editor"]["pieces"]} >= {code} and v["lit"] == [] and v["buttons"] == []
    send(b, type="edit_piece", piece=code)
    v = send(b, type="click", cell=cell)
    assert [g for g in v["glyphs"] if g["cell"] == cell][0]["piece"].lower() == code.lower()
    v = send(b, type="edit_done")
    assert v["editor"] == {} and v["message"] == "edited position ready" and v["scenario"] == "edited position"
    g = [g for g in v["glyphs"] if g["cell"] == cell][0]
    assert g["owner"] == owner and g["piece"].lower() == code.lower()
    assert b.controller.state.to_dict()["pieces"][cell] == code


def test_cursed_lands_editor_places_units_of_each_faction_with_hit_points_and_tiles() -> None:
    """The Cursed Lands declares its editor pieces (``edit_pieces``: each seat's four kinds in its faction, tiles)
    and a unit's hit points (``edit_options``); its own position checks refuse a unit on a void hex or a castle,
    naming the hex and the rule, and Done plays on only from a legal position."""
    b = GameBoard("cursed-lands", seed=1, rules="factions=dwarves/elves")
    assert b.geometry["can_edit"]
    v = send(b, type="edit")
    pieces = {p["code"]: (p["owner"], p["words"]) for p in v["editor"]["pieces"]}
    assert pieces["S"] == (0, "p1 dwarves Swordsman") and pieces["a"] == (1, "p2 elves Archer")
    assert pieces["tile:forest"][0] == -1
    send(b, type="edit_piece", piece="S")
    assert b.view["editor"]["options"][0]["choices"] == ["4", "3", "2", "1"]  # a dwarf Swordsman: 3 + 1 HP
    send(b, type="edit_option", name="hp", value="2")
    v = send(b, type="click", cell="e5")  # an untiled hex: void
    assert v["level"] == "warn" and "e5 is void" in v["message"] and "C2" in v["message"]
    v = send(b, type="edit_done")
    assert v["editor"] and "e5 is void" in v["message"]  # not played on: still editing
    send(b, type="edit_piece", piece="tile:forest")
    send(b, type="click", cell="e5")
    send(b, type="edit_piece", piece="S")
    v = send(b, type="click", cell="e5")
    assert v["level"] == "info" and "hp 2" in v["message"]
    assert [g for g in v["glyphs"] if g["cell"] == "e5"][0]["terrain"] == "forest"
    v = send(b, type="click", cell="e1")
    assert "e1 is a castle" in v["message"] and "C12" in v["message"]
    send(b, type="edit_piece", piece="")
    send(b, type="click", cell="e1")  # the unit off the castle again
    send(b, type="edit_to_move", seat=1)
    v = send(b, type="edit_done")
    assert v["message"] == "edited position ready" and v["to_move"] == "Player 2"
    st = b.controller.state.to_dict()["position"]
    assert st["units"]["e5"] == "S" and st["hp"]["e5"] == 2 and st["tiles"]["e5"] == "forest"
    send(b, type="edit")
    v = send(b, type="edit_option", name="hp", value="9")
    assert v["level"] == "error" and "hit points must be one of" in v["message"]


def test_big_chess_editor_places_every_seats_cards_with_facing_and_level_judged_by_its_position_checks() -> None:
    """Big chess edits its scenario position (``edit_form``/``edit_state``: section 17's checks, naming the cell and
    the rule): every card of every seat, the King first, a vector piece's facing and a level; two Kings refused."""
    b = GameBoard("big-chess", rules="start=army")
    v = send(b, type="edit")
    pieces = v["editor"]["pieces"]
    assert pieces[0] == {"code": "a:king", "owner": 0, "words": "player a king (300)"}
    assert {p["owner"] for p in pieces} == {0, 1} and len(pieces) == 2 * len({p["code"][2:] for p in pieces})
    send(b, type="edit_piece", piece="a:infantry")
    assert [(o["name"], o["choices"][0]) for o in b.view["editor"]["options"]] == [("facing", "N"), ("level", "none")]
    send(b, type="edit_option", name="facing", value="E")
    send(b, type="edit_option", name="level", value="1")
    v = send(b, type="click", cell="5,5")
    g = [g for g in v["glyphs"] if g["cell"] == "5,5"][0]
    assert v["level"] == "info" and g["facing"] == 90.0 and g["badges"] == ["L1"] and g["owner"] == 0
    send(b, type="edit_piece", piece="a:king")
    v = send(b, type="click", cell="6,6")
    assert v["level"] == "warn" and "pieces 6,6: player a has two Kings (13: at most one)" in v["message"]
    v = send(b, type="edit_done")
    assert v["editor"] and "two Kings" in v["message"]  # Done refuses: still editing
    send(b, type="edit_piece", piece="")
    send(b, type="click", cell="6,6")
    send(b, type="edit_to_move", seat=1)
    v = send(b, type="edit_done")
    assert v["message"] == "edited position ready" and v["to_move"] == "player b"
    assert b.controller.state.to_dict()["pieces"]["5,5"]["piece"] == "a:infantry:E"


def test_big_chess_editor_seats_twenty_five_and_keeps_the_setup_rules() -> None:
    b = GameBoard("big-chess", rules="board=free-25")
    v = send(b, type="edit")
    assert len({p["owner"] for p in v["editor"]["pieces"]}) == 25
    c = b.controller
    zone = c.state.ctx.zone
    y_cell = next(n for n in c.names if zone[c.ids[n]] == "y")
    a_cell = next(n for n in c.names if zone[c.ids[n]] == "a" and n not in {g["cell"] for g in v["glyphs"] if g["piece"]})
    send(b, type="edit_piece", piece="y:knight")
    v = send(b, type="click", cell=a_cell)  # outside its owner's zone in the setup phase
    assert v["level"] == "warn" and f"pieces {a_cell}: in the setup phase a piece stands in its owner's zone (y; 13)" in v["message"]
    send(b, type="edit_piece", piece="")
    send(b, type="click", cell=a_cell)
    send(b, type="edit_piece", piece="y:knight")
    v = send(b, type="click", cell=y_cell)
    assert v["level"] == "info" and not v["editor"]["error"]
    v = send(b, type="edit_to_move", seat=3)
    assert v["level"] == "error" and "setup phase has no seat to move" in v["message"]
    # what Done would start from (its first view lists the 25 seats' thousands of placements: left out here)
    assert c.game.edit_state(c.edit_data).to_dict()["pieces"][y_cell]["piece"] == "y:knight"


def test_editor_says_what_is_not_a_position_yet_and_cancel_discards() -> None:
    b = GameBoard("terrafeud", seed=0)
    before = b.controller.state.to_dict()["pieces"]
    send(b, type="edit")
    v = send(b, type="edit_clear")
    assert "not a position yet" in v["message"] and "feudal" in v["message"]
    assert not any(g["piece"] for g in v["glyphs"])  # the cleared board is drawn, terrain kept
    v = send(b, type="edit_done")
    assert v["level"] == "warn" and v["editor"]  # still editing: the game's reason, nothing played
    send(b, type="edit_piece", piece="zz")
    assert b.view["level"] == "error" and "not a piece" in b.view["message"]
    v = send(b, type="edit_cancel")
    assert v["editor"] == {} and b.controller.state.to_dict()["pieces"] == before
    send(b, type="edit")
    send(b, type="undo")  # any other gesture leaves the editor
    assert b.view["editor"] == {}


def test_a_game_without_editor_pieces_keeps_the_text_editor() -> None:
    b = GameBoard("openspiel:tic_tac_toe")
    assert not b.geometry["can_edit"]
    v = send(b, type="edit")
    assert v["level"] == "error" and "Paste" in v["message"]
    with pytest.raises(Exception, match="piece"):
        validate_message({"type": "edit_piece", "piece": "x" * 50})


SCENARIO = """id: upload-probe
title: An uploaded TerraFeud position
rules: {season: winter}
position:
  to_move: white
  pieces: {e1: F, e9: f, f3: K}
checks:
  - legal: [f3-f5]
"""


def test_scenario_upload_as_text_is_checked_and_opens_no_server_file(tmp_path) -> None:  # noqa: ANN001
    b = GameBoard("terrafeud", seed=0)
    v = send(b, type="upload", kind="scenario", name="probe.yaml", text=SCENARIO)
    assert v["scenario"] == "probe.yaml" and "checks 1/1 pass" in v["message"], v["message"]
    assert {g["cell"]: g["piece"] for g in v["glyphs"] if g["piece"]} == {"e1": "F", "e9": "F", "f3": "K"}
    secret = tmp_path / "start.yaml"
    secret.write_text(SCENARIO)
    evil = f"id: evil\ntitle: a start file\nrules: {{start: {secret}}}\nchecks:\n  - legal: [f3-f5]\n"
    v = send(b, type="upload", kind="scenario", name="evil.yaml", text=evil)
    assert v["level"] == "error" and str(tmp_path) not in v["message"] and v["scenario"] == "probe.yaml", v["message"]
    p = GameBoard("pole", seed=0)
    pole_text = f"game: pole\nid: x\ntitle: t\nrules: {{start: {secret}}}\nchecks: []\n"
    v = send(p, type="upload", kind="scenario", name="p.yaml", text=pole_text)
    assert v["level"] == "error" and str(tmp_path) not in v["message"]


def test_best_lines_are_searched_with_the_earlier_bests_excluded_at_the_root() -> None:
    from workbench.agents.generic import make_protocol_agent

    b = GameBoard("pole", seed=5)
    lines = b.controller.analyse(depth=1, lines=3, length=1)
    firsts = [x["moves"][0] for x in lines]
    assert len(set(firsts)) == len(firsts) == 3
    scores = [x["score"] for x in lines]
    assert scores == sorted(scores, reverse=True)
    # line 2 is the search's own choice once line 1's move is excluded (not a shortlist by static evaluation)
    st = b.controller.state
    agent = make_protocol_agent("alphabeta:depth=1,nodes=20000,seconds=1", get("pole"), b.controller.rules, seed=b.controller.seed)
    agent.exclude = [a for a in st.legal_actions() if st.action_to_string(a) == firsts[0]]
    assert st.action_to_string(agent.select_action(st.clone())) == firsts[1]


def test_best_lines_of_a_declared_analysis_agent_that_cannot_exclude_are_proposed_by_the_generic_search(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Line 1 is the game's declared analysis agent's choice (``GameDef.analysis_agent``); where it cannot leave root
    moves out (``greedy`` here), the generic alphabeta proposes lines 2 and 3 with the earlier bests excluded and
    says so (``proposed_by``); every score is still the declared agent's, and greedy gives none."""
    pole = get("pole")
    monkeypatch.setattr(pole, "analysis_agent", "greedy")
    b = GameBoard("pole", seed=5)
    assert b.controller.analysis_spec() == "greedy"
    lines = b.controller.analyse(depth=1, lines=3, length=1)
    assert [x["proposed_by"].split(":")[0] for x in lines] == ["greedy", "generic-alphabeta", "generic-alphabeta"]
    assert [x["by"] for x in lines] == ["greedy"] * 3 and [x["score"] for x in lines] == [None] * 3
    assert [x["words"] for x in lines] == [""] * 3  # no score, no words: never a generic figure under greedy's name
    assert len({x["moves"][0] for x in lines}) == 3
    assert b.controller.evaluate().startswith("greedy (")


def test_keyboard_steps_queued_into_one_nav_message() -> None:
    b = GameBoard("pole", seed=5)
    c = b.controller
    for _ in range(6):
        c.choose(0) if c.buttons() else c.click(c.names[next(iter(c._legal_cells()))[1][0]])
    plies = c.node.ply
    v = send(b, type="nav", to="back", count=3)
    assert v["level"] == "info" and c.node.ply < plies
    v = send(b, type="nav", to="back", count=1000)  # more presses than moves: it stops at the start
    assert c.node.parent is None and v["can_redo"]
    v = send(b, type="nav", to="end", count=1)
    assert c.node.ply == plies
    v = send(b, type="nav", to="home", count=1)
    assert c.node.parent is None
    assert send(b, type="nav", to="sideways", count=1)["level"] == "error"


def test_pole_editor_sets_black_to_move_by_moving_the_turn_on() -> None:
    b = GameBoard("pole", seed=0)
    send(b, type="edit")
    v = send(b, type="edit_to_move", seat=1)
    assert v["editor"]["to_move"] == 1 and v["editor"]["error"] == ""
    v = send(b, type="edit_done")
    assert v["to_move_index"] == 1 and b.controller.state.to_dict()["turn"] == 2
