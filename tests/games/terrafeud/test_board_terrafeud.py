"""TerraFeud on the one board (``workbench.widget``): what its own board did, now from its declarations on
``GameDef`` (target kinds, overlays, editor pieces, the class names of its older page), and ``HexBoard``, the
board's first name, with the notebook API it had."""

from __future__ import annotations

import pytest
from enginehelp import pos

from workbench.games.terrafeud import GAME
from workbench.games.terrafeud.engine import explain_illegal
from workbench.games.terrafeud.engine.geometry import parse_hex
from workbench.widget import GameBoard, HexBoard


def board(pieces: dict[str, str], to_move: str = "white", rules: dict | None = None, **extra: object) -> GameBoard:
    """The one board on a hand-made position (rolled terrain off, so no swamp or hill interferes)."""
    state = GAME.state_from_dict(pos(pieces, to_move, rules={"hill": False, "swamp": False, **(rules or {})},
                                     **extra).to_dict())
    return GameBoard("terrafeud", state=state)


def send(b: GameBoard, **msg: object) -> dict:
    b._on_msg(b, msg, [])
    return b.view


def test_hexboard_is_the_one_board_with_terrafeuds_page_names() -> None:
    b = HexBoard(seed=0)
    assert isinstance(b, GameBoard) and b.controller.game is GAME
    aliases = b.geometry["aliases"]
    assert aliases["cell"] == "tf-hex" and aliases["dest"] == "tf-target" and aliases["undo"] == "tf-btn-undo"
    assert b.view["to_move_name"] == "white"
    v = send(b, type="click", cell="f3")
    assert v["targets"]["f5"] == "move" and v["targets"]["f7"] == "stop"  # a knight's W2 stop
    v = send(b, type="click", cell="f5")
    assert [m["text"] for m in v["moves"]] == ["f3-f5"] and v["to_move_name"] == "black"
    v = send(b, type="click", cell="f5")
    assert "white piece" in v["message"] and "black is to move" in v["message"]
    v = send(b, type="undo")
    assert [m["future"] for m in v["moves"]] == [True]  # Redo plays it again


def test_attack_kind_and_the_engines_reason_for_an_illegal_click() -> None:
    b = board({"f1": "F", "f11": "f", "d1": "K", "d4": "i", "l1": "k"})
    v = send(b, type="click", cell="d1")
    assert v["targets"]["d4"] == "attack"
    v = send(b, type="click", cell="l1")  # not on one of the knight's lines: the engine says why
    st = b.controller.state.inner
    assert explain_illegal(st, (0, parse_hex("d1"), parse_hex("l1"), 0)).split(": ", 1)[-1] in v["message"]


@pytest.mark.parametrize(("size", "clicks", "played"), [
    (3, ["e3", "e4", "g3", "g4", "f2", "e2"], "order e3-e4 g3-g4 f2-e2"),
    (2, ["e3", "e4", "g3", "g4"], "order e3-e4 g3-g4"),
])
def test_castling_and_orders_of_any_size_are_click_sequences(size: int, clicks: list[str], played: str) -> None:
    b = board({"f3": "F", "f11": "f", "f2": "I", "e3": "I", "g3": "I"}, rules={"order_size": size})
    assert send(b, type="click", cell="f3")["targets"]["f2"] == "castle"
    send(b, type="cancel")
    for cell in clicks:
        v = send(b, type="click", cell=cell)
    texts = [x["text"] for x in v["buttons"]]
    if played in texts:  # the same cells also end a shorter action: the buttons name both
        v = send(b, type="choose", index=texts.index(played))
    assert [m["text"] for m in v["moves"]] == [played], v["message"]


def test_order_button_is_a_mode_of_the_declared_multi_step_action() -> None:
    """The Order as the old board had it: a button (``GameDef.action_modes``); with it on, clicks light only the
    Order's cells, so e3-e4 does not play a move but waits for the next infantryman; off, the same clicks move."""
    b = board({"f3": "F", "f11": "f", "f2": "I", "e3": "I", "g3": "I"})
    v = b.view
    assert v["modes"] == [{"name": "order", "label": "Order", "words": GAME.action_modes[0][2], "on": False,
                           "available": True}]
    v = send(b, type="mode", name="order", on=True)
    assert v["modes"][0]["on"] and v["level"] == "info" and "Order (" in v["message"]
    orders = [a for a in b.controller.state.legal_actions() if b.controller.state.action_mode(a) == "order"]
    firsts = {b.controller.names[b.controller.state.action_cells(a)[0]] for a in orders}
    assert set(v["lit"]) == firsts and "f3" not in v["lit"]  # only infantry that an Order can move
    v = send(b, type="click", cell="e3")
    v = send(b, type="click", cell="e4")
    assert v["moves"] == [] and v["buttons"] == [] and "click 3 of 4" in v["message"]  # no move played yet
    assert "g3" in v["lit"] and v["selection"] == ["e3", "e4"]
    v = send(b, type="click", cell="a5")  # not an Order's cell: said in the mode's words
    assert "Order: no Order picks" in v["message"]
    send(b, type="click", cell="g3")
    v = send(b, type="click", cell="g4")
    assert [m["text"] for m in v["moves"]] == ["order e3-e4 g3-g4"] and not v["modes"][0]["on"]  # played; mode ends
    send(b, type="undo")
    send(b, type="mode", name="order", on=True)
    v = send(b, type="mode", name="order", on=False)  # off again: the click sequences of every action
    send(b, type="click", cell="f2")
    v = send(b, type="click", cell="e2")  # a move that an Order could go on from: its button, and the lit next cells
    assert [x["text"] for x in v["buttons"]] == ["f2-e2"] and "e3" in v["lit"]
    v = send(b, type="choose", index=0)
    assert [m["text"] for m in v["moves"] if m["current"]] == ["f2-e2"] and not v["modes"][0]["on"]
    lone = board({"f3": "F", "f11": "f", "f2": "I"})  # one infantryman: no Order is legal; the button is disabled
    assert lone.view["modes"][0]["available"] is False
    v = send(lone, type="mode", name="order", on=True)
    assert v["level"] == "error" and "Order: none is legal here" in v["message"] and not v["modes"][0]["on"]
    v = send(lone, type="mode", name="castle", on=True)
    assert "mode must be one of order" in v["message"]


def test_evaluate_and_analysis_search_with_the_games_declared_agent_and_word_its_score() -> None:
    """Evaluate and the best lines run the agent TerraFeud declares for analysis (``GameDef.analysis_agent``, its
    tuned ``search``; a tool names no game), clock capped; the score is in material points and in words, and a
    forced result is said as one (never as the search's win value)."""
    from workbench.games.terrafeud.agents.evaluate import WIN_SCORE

    b = board({"f3": "F", "f11": "f", "e5": "P", "f6": "k", "h9": "i", "b6": "i"})
    c = b.controller
    assert GAME.analysis_agent and c.analysis_spec().split(":")[0] == GAME.analysis_agent.split(":")[0]
    assert c.analysis_spec().endswith("seconds=2") and c.analysis_spec(seconds=1).endswith("seconds=1")
    text = c.evaluate(c.analysis_spec(seconds=0.5))  # the declared agent, on a shorter clock (test time)
    assert text.startswith(c.analysis_spec(seconds=0.5)) and "for White: e5xf6" in text
    assert "material points: White is better by" in text  # the knight won, in the game's unit and in words
    lines = c.analyse(lines=2, length=2)
    assert lines[0]["moves"][0] == "e5xf6" and lines[0]["by"] == c.analysis_spec(seconds=1)
    assert lines[0]["words"].startswith("White is better by") and lines[1]["moves"][0] != "e5xf6"
    mate_board = board({"f3": "F", "e10": "P", "f11": "f"}).controller
    mate = mate_board.evaluate(mate_board.analysis_spec(seconds=0.5))
    assert "White wins by force" in mate and "score" not in mate.split(";")[0]  # no 1,000,000 "material points"
    st = c.state
    assert GAME.score_words(WIN_SCORE - 9, st, 1) == "Black wins by force (the game ends within 9 plies)"
    assert GAME.score_words(-(WIN_SCORE - 4), st, 1) == "White wins by force (the game ends within 4 plies)"
    assert GAME.score_words(1.5, st, 0) == ""  # an ordinary score: the board's own words
    assert c.score_words(0.0, st, 0) == "level (0.00 material points)"


def test_editor_places_archer_markers_by_two_clicks_and_refuses_naming_the_cell_and_rule() -> None:
    """The old editor's marker tool, declared (``edit_pairs``): the archer, then the hex it marks; a marker of the
    side that just acted on a piece of the side to move is a pending ultimatum; a non-archer or an unreachable
    hex is refused with the cell and the rule (W8)."""
    from workbench.games.terrafeud.engine.geometry import parse_hex

    b = board({"f3": "F", "f11": "f", "d2": "A", "d4": "i"})
    send(b, type="edit")
    codes = [p["code"] for p in b.view["editor"]["pieces"]]
    assert "marker" in codes and b.view["editor"]["pairs"] == ["marker"]
    send(b, type="edit_piece", piece="marker")
    v = send(b, type="click", cell="f3")
    v = send(b, type="click", cell="f5")
    assert v["level"] == "error" and "f3 holds no archer" in v["message"] and "W8" in v["message"]
    send(b, type="click", cell="d2")
    v = send(b, type="click", cell="k6")
    assert v["level"] == "error" and "cannot mark k6" in v["message"] and "W8" in v["message"]
    send(b, type="click", cell="d2")
    v = send(b, type="click", cell="d4")
    assert v["level"] == "info" and "d2-d4" in v["message"]
    assert b.controller.edit_data["markers"] == {"d2": "d4"}
    v = send(b, type="edit_to_move", seat=1)  # Black to move: the marked infantryman must answer the ultimatum
    assert b.controller.edit_data["ultimatum_pending"] == ["d4"] and not v["editor"]["error"]
    v = send(b, type="edit_done")
    inner = b.controller.state.inner
    assert inner.markers[0] == {parse_hex("d2"): parse_hex("d4")} and parse_hex("d4") in inner.pending
    assert "marked-white" in {m for g in v["glyphs"] for m in g["marks"]}  # drawn by the markers overlay
    send(b, type="edit")
    send(b, type="edit_piece", piece="marker")
    send(b, type="click", cell="d2")
    send(b, type="click", cell="d2")  # the archer twice: its marker removed
    assert b.controller.edit_data["markers"] == {} and b.controller.edit_data["ultimatum_pending"] == []


def test_overlays_zones_markers_aura_are_marks_with_legend_words() -> None:
    b = HexBoard(seed=3)
    assert b.view["overlays"] == ["markers"]
    b.show(zones=True, aura=True, heat="threat", heat_side="black")
    v = b.view
    marks = {m for g in v["glyphs"] for m in g["marks"]}
    assert {"zone-white", "zone-black", "aura-white", "aura-black"} <= marks | {"zones", "auras"}
    words = {x["sign"]: x["words"] for x in v["legend"]}
    assert words["zone-white"] == "in White's zone of control" and v["heat_layer"] == "threat" and v["heat_player"] == 1
    send(b, type="overlay", name="zones", on=False)
    assert not any(m.startswith("zone") for g in b.view["glyphs"] for m in g["marks"])
    assert send(b, type="overlay", name="nope", on=True)["level"] == "error"


def test_hexboard_notebook_api_play_agent_compare_editor_and_export() -> None:
    b = HexBoard(seed=0, agent="greedy", agent_side="black", agent_seed=1)
    b.play("e3-e4")
    b.wait(30)
    assert [m["text"] for m in b.view["moves"]][0] == "e3-e4" and len(b.view["moves"]) == 2
    b.compare("season=winter")
    assert b.view["diff"]["change"].startswith("season=winter")
    b.edit({"f5": "k"})
    text = b.export_scenario("winter-knight-probe", "A black knight on f5")
    assert "f5: k" in text and "checks:" in text
    b.edit(done=True)
    assert b.controller.state.to_dict()["pieces"]["f5"] == "k"


def test_load_scenario_by_path_from_the_notebook(tmp_path) -> None:  # noqa: ANN001
    f = tmp_path / "probe.yaml"
    f.write_text("id: probe\ntitle: a probe\nposition:\n  to_move: white\n  pieces: {e1: F, e9: f, f3: K}\n"
                 "checks:\n  - legal: [f3-f5]\n", encoding="utf-8")
    b = HexBoard(seed=0)
    b.load_scenario(f)
    assert b.view["scenario"] == "probe.yaml" and "checks 1/1 pass" in b.view["message"]
    assert {g["cell"] for g in b.view["glyphs"] if g["piece"]} == {"e1", "e9", "f3"}


def test_a_page_never_starts_a_game_from_a_server_file(tmp_path) -> None:  # noqa: ANN001
    f = tmp_path / "start.yaml"
    f.write_text("id: s\ntitle: s\nposition:\n  to_move: white\n  pieces: {e1: F, e9: f}\n", encoding="utf-8")
    b = HexBoard(seed=0)
    v = send(b, type="new_game", rules=f"start={f}", seed=1)
    assert v["level"] == "error" and str(tmp_path) not in v["message"]
    assert len([g for g in v["glyphs"] if g["piece"]]) > 2  # still the classic start


def test_the_protocol_state_asks_the_engine_what_an_action_changes() -> None:
    st = GAME.state_from_dict(pos({"f1": "F", "c3": "I", "e3": "I", "d4": "f"}).to_dict())
    eff = st.action_effects(st.string_to_action("e3-e4"))
    assert sorted(eff["removed"]) == [parse_hex("c3"), parse_hex("d4")] and eff["ends"]
    assert {"removed", "marks", "text", "ends"} <= set(eff)


def test_best_lines_are_one_agents_scores_on_one_scale_and_ordered(monkeypatch: pytest.MonkeyPatch) -> None:
    """TerraFeud's declared analysis agent (its tuned search) cannot exclude root moves: the generic alphabeta only
    proposes lines 2 and 3, and every line's score is the declared agent's own, searched after the line's first
    move (so "worse by 0.06" never sits under "better by 0.18" from another agent's scale), lines in score order."""
    monkeypatch.setattr(GAME, "analysis_agent", "search:depth=1")  # depth-bound: the same scores on every run
    c = GameBoard("terrafeud", seed=0).controller
    spec = c.analysis_spec(seconds=1)
    lines = c.analyse(lines=3, length=1)
    assert len(lines) == 3 and {x["by"] for x in lines} == {spec}
    assert spec in [x["proposed_by"] for x in lines] and len({x["moves"][0] for x in lines}) == 3
    scores = [x["score"] for x in lines]
    assert None not in scores and scores == sorted(scores, reverse=True), lines
    st = c.state
    for x in lines:  # each score is the declared agent's, from the position after the move, in White's view
        after = st.clone()
        after.apply_action(st.string_to_action(x["moves"][0]))
        agent = c.make_agent(spec)
        agent.select_action(after)
        assert x["score"] == round(-agent.score, 2) + 0.0, (x, agent.score)
        assert x["words"] == c.score_words(x["score"], st, 0)
