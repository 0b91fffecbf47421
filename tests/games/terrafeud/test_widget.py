"""The HexBoard's click logic (``BoardController``) and message wiring, without a browser."""

from __future__ import annotations

import random

import pytest

from workbench.games.terrafeud.engine import (
    CASTLE,
    MOVE,
    ORDER,
    PASS,
    SHOT,
    Action,
    explain_illegal,
    hex_name,
    make_game,
    new_game,
    parse_hex,
)
from workbench.games.terrafeud.engine.pieces import parse_letter
from workbench.games.terrafeud.widget import BoardController, WidgetError


def position(pieces: dict[str, str], to_move: str = "white", **extra: object) -> BoardController:
    """A controller on a hand-made position (rolled terrain off, so no swamp or hill interferes)."""
    game = make_game("hill=false,swamp=false")
    codes = {parse_hex(h): parse_letter(p) for h, p in pieces.items()}
    return BoardController(game.state_from_pieces(codes, to_move=0 if to_move == "white" else 1, **extra))


def click_action(ctrl: BoardController, action: Action) -> None:
    """Play ``action`` the way a user would: clicks, the Order button, a promotion pick."""
    if action[0] == PASS:
        ctrl.pass_turn()
        return
    if action[0] == ORDER:
        ctrl.click(ctrl.state.feudal[ctrl.state.to_move])
        ctrl.start_order()
        for h in (action[1], action[2], action[4], action[5]):
            ctrl.click(h)
    else:
        ctrl.click(action[1])
        ctrl.click(action[2])
    if ctrl.choices:
        ctrl.choose(ctrl.choices.index(action))


def test_clicking_through_a_whole_game_plays_each_chosen_action() -> None:
    ends = []
    for seed in range(6):
        rng = random.Random(seed)
        ctrl = BoardController(new_game(seed=seed))
        while not ctrl.state.is_terminal() and ctrl.state.ply < 400:
            action = rng.choice(ctrl.state.legal_actions())
            ply = ctrl.state.ply
            click_action(ctrl, action)
            assert ctrl.state.ply == ply + 1, ctrl.message
            assert ctrl.state.history[-1] == action
        if ctrl.state.is_terminal():
            ends.append(ctrl)
            break
    assert ends, "no seeded game reached an end within 400 plies"
    view = ends[0].view()
    st = ends[0].state
    assert view["result"].lower().startswith(st.winner_name() or "game over")
    assert st.victory in view["result"]
    assert len(view["moves"]) == st.ply
    ends[0].click(0)
    assert "the game is over" in ends[0].message


def test_selecting_a_piece_lights_moves_stops_and_shots() -> None:
    ctrl = BoardController(new_game(seed=0))
    ctrl.click("f3")  # the knight: its slide up file f crosses the bridge f6 and must stop beyond it
    assert ctrl.view()["targets"]["f7"] == "stop"
    assert set(ctrl.view()["targets"]) == {hex_name(h) for h in ctrl.state.destinations(parse_hex("f3"))}
    ctrl.click("d2")  # another own piece: the selection moves to the archer
    lit = ctrl.view()["targets"]
    shots = {hex_name(a[2]) for a in ctrl.state.legal_actions() if a[0] == SHOT and a[1] == parse_hex("d2")}
    assert shots and {h for h, c in lit.items() if c == "shot"} == shots
    ctrl.click("d5")  # three hexes away: the engine explains the shot rule, not a move rule
    assert ctrl.message.startswith("d2*d5") and "(W8" in ctrl.message and ctrl.selected is None
    target = sorted(shots)[0]
    ctrl.click("d2")
    ctrl.click(target)
    assert ctrl.state.markers[0] == {parse_hex("d2"): parse_hex(target)}
    assert ctrl.view()["markers"] == [["d2", target, 0]]


def test_attack_and_illegal_click_show_the_engines_reason() -> None:
    ctrl = position({"f1": "F", "f11": "f", "d1": "K", "d4": "i", "l1": "k"})
    ctrl.click("d1")
    assert ctrl.targets(parse_hex("d1"))[parse_hex("d4")] == "attack"
    ctrl.click("l1")  # not on one of the knight's lines: the engine says why
    assert ctrl.message == explain_illegal(ctrl.state, (MOVE, parse_hex("d1"), parse_hex("l1"), 0))
    assert ctrl.selected is None and ctrl.state.ply == 0
    ctrl.click("f11")
    assert "black piece" in ctrl.message and "white is to move" in ctrl.message


def test_promotion_asks_which_destroyed_piece_to_take() -> None:
    ctrl = position({"f1": "F", "l6": "f", "e9": "I"}, destroyed=[[4, 5], []])  # cavalry, archer
    ctrl.click("e9")
    ctrl.click("e10")
    assert ctrl.state.ply == 0 and len(ctrl.choices) == 2
    labels = ctrl.view()["choices"]  # promotion buttons name the piece, not only its letter
    assert sorted(labels) == ["A archer", "C cavalry"]
    ctrl.choose(labels.index("C cavalry"))
    assert ctrl.view()["pieces"]["e10"] == "C"
    assert ctrl.state.destroyed[0] == [5]


def test_castling_and_order() -> None:
    ctrl = position({"f3": "F", "f11": "f", "f2": "I", "e3": "I", "g3": "I"})
    ctrl.click("f3")
    assert ctrl.view()["targets"]["f2"] == "castle" and ctrl.view()["can_order"]
    ctrl.start_order()
    ctrl.click("e3")
    assert set(ctrl.view()["targets"].values()) == {"order"}
    ctrl.click("a1")  # not a step of the infantryman on e3
    assert "not a legal step" in ctrl.message and ctrl.order_steps == [parse_hex("e3")]
    for h in ("e4", "g3", "g4"):
        ctrl.click(h)
    assert ctrl.state.history[-1][0] == ORDER
    assert ctrl.view()["moves"] == ["order e3-e4 g3-g4"]
    ctrl.undo()
    ctrl.click("f3")
    ctrl.click("f2")
    assert ctrl.state.history[-1] == (CASTLE, parse_hex("f3"), parse_hex("f2"))
    assert ctrl.view()["pieces"]["f2"] == "F"


def test_undo_redo_against_an_agent_keeps_the_humans_turn() -> None:
    ctrl = BoardController(new_game(seed=1))
    ctrl.set_agent("random", "black", seed=5)
    ctrl.click("f3")
    ctrl.click("f4")
    assert ctrl.state.ply == 2 and ctrl.state.to_move == 0 and ctrl.message.startswith("random played")
    assert "random" in ctrl.view()["agents"] and ctrl.view()["agent"] == {"name": "random", "side": "black"}
    after = ctrl.state.key()
    ctrl.undo()
    assert ctrl.state.ply == 0 and ctrl.view()["can_redo"]
    ctrl.redo()
    assert ctrl.state.ply == 2 and ctrl.state.key() == after
    ctrl.undo()
    ctrl.click("f3")
    ctrl.click("f5")  # a new action drops the redo line
    assert not ctrl.view()["can_redo"]
    ctrl.set_agent(None)
    ctrl.undo()
    assert ctrl.state.ply == 1


def test_agent_as_white_moves_first_in_a_new_game() -> None:
    ctrl = BoardController()
    ctrl.set_agent("greedy", "white", seed=1)
    assert ctrl.state.ply == 1 and ctrl.state.to_move == 1
    ctrl.new_game(seed=2, season="winter", hill=False, castling="sacrifice")
    assert ctrl.state.ply == 1 and ctrl.state.rules.season == "winter" and ctrl.state.rules.castling == "sacrifice"
    ctrl.new_game(season="autumn")
    assert "season" in ctrl.message and "autumn" in ctrl.message


def test_scenario_loading_steps_through_its_play(tmp_path) -> None:
    pytest.importorskip("workbench.scenarios")
    path = tmp_path / "probe.yaml"
    path.write_text(
        "id: probe\ntitle: Knight and ford probe\nrules: {hill: false, swamp: false}\n"
        "position:\n  to_move: white\n  pieces: {f1: F, f11: f, d3: K, a6: i}\n"
        "checks:\n  - play: [f1-f2, a6-a5]\n    pieces: {f2: F}\n",
        encoding="utf-8",
    )
    ctrl = BoardController()
    ctrl.load_scenario(path)
    view = ctrl.view()
    assert {k: view["scenario"][k] for k in ("title", "index", "count")} == {
        "title": "Knight and ford probe", "index": 0, "count": 3}
    [check] = view["scenario"]["checks"]  # each check: pass or fail, and what it asserts in words
    assert check["status"] == "pass" and check["asserts"] == "after f1-f2 a6-a5; pieces: f2 F"
    assert view["pieces"] == {"a6": "i", "d3": "K", "f1": "F", "f11": "f"}
    ctrl.step(1)
    ctrl.step(1)
    ctrl.step(1)  # clamps at the last position
    assert ctrl.view()["pieces"]["f2"] == "F" and ctrl.view()["moves"] == ["f1-f2", "a6-a5"]
    ctrl.step(-2)
    assert ctrl.state.ply == 0
    bad = tmp_path / "bad.yaml"
    bad.write_text("id: bad\ntitle: Bad\nposition:\n  pieces: {j4: F}\n", encoding="utf-8")
    with pytest.raises(WidgetError, match="bad.yaml"):
        ctrl.load_scenario(bad)


def test_editor_export_round_trips_through_the_scenario_loader() -> None:
    scenarios = pytest.importorskip("workbench.scenarios")
    ctrl = BoardController(new_game("hill=false,swamp=false", seed=0))
    ctrl.start_editing()
    ctrl.set_edit_piece("")
    for h in ("a1", "c2", "e3"):
        ctrl.click(h)
    ctrl.set_edit_piece("k")
    ctrl.click("d4")
    ctrl.set_edit_piece("marker")
    ctrl.click("d2")
    ctrl.click("d4")  # the White archer on d2 marks the Black knight on d4: an ultimatum
    ctrl.set_edit_to_move("black")
    text = ctrl.export_scenario("edited-probe", "Edited probe")
    loaded = scenarios.load_scenario_text(text).initial_state()
    assert loaded.to_move == 1
    assert {hex_name(h): loaded.squares[h] for h in loaded.pieces()} == {
        h: parse_letter(p) for h, p in ctrl.view()["pieces"].items()
    }
    assert loaded.markers[0] == {parse_hex("d2"): parse_hex("d4")}
    assert loaded.pending == {parse_hex("d4")}  # Black must move the knight away this turn
    assert ctrl.finish_editing() and ctrl.state.key() == loaded.key()
    ctrl.start_editing()
    ctrl.set_edit_piece("")
    ctrl.click("f1")  # no White feudal left: the editor refuses and says why
    assert not ctrl.finish_editing() and "feudal" in ctrl.message and ctrl.editing
    with pytest.raises(ValueError, match="unknown piece letter"):
        ctrl.set_edit_piece("Q")


def test_records_save_and_load(tmp_path) -> None:
    ctrl = BoardController(new_game(seed=4))
    for text in ("f3-f5", "f9-f7", "d2*d4"):
        ctrl.play(text)
    path = ctrl.save_record(tmp_path / "game.json")
    other = BoardController()
    other.load_record(path)
    assert other.state.key() == ctrl.state.key() and other.view()["moves"] == ctrl.view()["moves"]
    other.undo()
    assert other.state.ply == 2
    (tmp_path / "broken.json").write_text("{", encoding="utf-8")
    with pytest.raises(WidgetError, match="broken.json"):
        other.load_record(tmp_path / "broken.json")


def test_overlays_zones_aura_and_heat() -> None:
    ctrl = BoardController(new_game(seed=0))
    ctrl.overlays.update(zones=True, aura=True)
    view = ctrl.view()
    assert set(view["zones"][0]) == {hex_name(h) for h in ctrl.state.zone(0)}
    assert "f3" in view["aura"][0] and "f1" in view["aura"][0]
    ctrl.heat, ctrl.heat_side = "threat", 1  # one heat map at a time, labelled by who attacks
    heat = ctrl.view()["heat"]
    assert heat["kind"] == "threat" and heat["label"].startswith("attacked by black")
    assert len(heat["values"]) == 91 and heat["max"] == max(heat["values"]) > 0
    assert heat["values"][parse_hex("f5")] > 0 and heat["values"][parse_hex("f1")] == 0


def test_widget_messages_drive_the_controller() -> None:
    pytest.importorskip("anywidget")
    from workbench.games.terrafeud.widget import HexBoard

    board = HexBoard(seed=3)
    board.state = new_game(seed=0)
    assert len(board.geometry["centres"]) == 91 and board.state.game.seed == 0
    assert {"a", "l", "1", "11"} <= {t for _, _, t in board.geometry["coords"]}  # rim coordinates
    board._on_msg(board, {"type": "click", "hex": "f3"}, [])
    assert board.view["selected"] == "f3" and board.view["targets"]["f5"] == "move"
    board._on_msg(board, {"type": "click", "hex": "f5"}, [])
    assert board.view["moves"] == ["f3-f5"] and board.view["to_move"] == "black"
    board._on_msg(board, {"type": "undo"}, [])
    assert board.view["moves"] == [] and board.view["can_redo"]
    board._on_msg(board, {"type": "goto", "ply": 1}, [])  # a click on the move in the list
    assert board.view["moves"] == ["f3-f5"]
    board._on_msg(board, {"type": "new_game", "rules": {"season": "winter", "hill": False, "terrain": "fixed"},
                          "other": "castling=sacrifice", "seed": "3"}, [])
    assert board.state.rules.label() == "season=winter,hill=false,terrain=fixed,castling=sacrifice"
    active = board.view["active_rules"]
    assert active["season"] == "winter" and "castling=sacrifice" in active["toggles"] and "hill: off" in active["hexes"]
    board._on_msg(board, {"type": "fly"}, [])
    assert "unknown widget message 'fly'" in board.view["message"] and board.view["level"] == "error"
    board._on_msg(board, {"type": "download", "kind": "scenario"}, [])
    assert board.download["name"] == "edited-position.yaml" and "checks:" in board.download["text"]
    with pytest.raises(WidgetError, match="overlays"):
        board.show(fog=True)


def test_agent_with_parameters_from_the_panel():
    from workbench.games.terrafeud.widget.controller import BoardController

    c = BoardController()
    c.set_agent("alphabeta:depth=1,nodes=300", side="black")
    assert c.view()["agent"] == {"name": "alphabeta:depth=1,nodes=300", "side": "black"}
    c.play("f3-f5")  # the agent answers at once with a legal Black action
    assert c.state.ply == 2 and c.state.to_move == 0


def test_checkmate_threat_and_order_step_are_in_the_view() -> None:
    from pathlib import Path

    ctrl = BoardController()
    ctrl.load_scenario(Path(__file__).resolve().parents[3] / "scenarios/terrafeud/rulebook/checkmate.yaml")
    view = ctrl.view()
    assert view["terminal"] and view["lost_feudal"] == {"side": "white", "hex": "a1", "victory": "checkmate"}
    assert view["threatened_hexes"] == []
    ctrl = position({"f3": "F", "f11": "f", "f2": "I", "e3": "I", "g3": "I", "f9": "c"})
    assert ctrl.view()["threatened_hexes"] == (["f3"] if ctrl.state.is_threatened(0) else [])
    ctrl.click("f3")
    ctrl.start_order()
    ctrl.click("e3")
    ctrl.click("e4")
    assert ctrl.view()["order_from"] == [["e3", "e4"]]  # the chosen first step is drawn


def test_move_line_goto_evaluations_and_fresh_terrain() -> None:
    ctrl = BoardController(new_game(seed=0))
    ctrl.set_agent("greedy", "black", seed=1)
    ctrl.play("e3-e4")
    assert ctrl.message.startswith("greedy played") and ctrl.level == "info"
    rows = ctrl.view()["line"]
    assert [r["ply"] for r in rows] == [1, 2] and all("eval" in r for r in rows)
    ctrl.set_agent(None)
    assert "played" not in ctrl.message  # the agent's news does not outlive the agent
    ctrl.goto(0)
    assert ctrl.state.ply == 0 and [r["ply"] for r in ctrl.view()["line"]] == [1, 2]
    ctrl.goto(2)
    assert ctrl.state.ply == 2 and not ctrl.view()["can_redo"]
    seeds = set()
    for _ in range(3):
        ctrl.new_game()
        seeds.add(ctrl.state.game.seed)
    assert len(seeds) > 1, "rolled terrain must not always use seed 0"
    ctrl.new_game(seed=7, season="winter", castling="sacrifice")
    summary = ctrl.view()["active_rules"]
    assert summary["season"] == "winter" and summary["toggles"] == ["castling=sacrifice"] and summary["seed"] == 7
    assert summary["hexes"][0].startswith("hill: white ") and ", black " in summary["hexes"][0]


def test_editor_cancel_clear_and_export_stub() -> None:
    ctrl = BoardController(new_game(seed=0))
    before = ctrl.state.key()
    ctrl.start_editing()
    ctrl.set_edit_piece("")
    ctrl.click("f3")
    ctrl.cancel_editing()
    assert not ctrl.editing and ctrl.state.key() == before and ctrl.view()["pieces"]["f3"] == "K"
    ctrl.clear_board()
    assert ctrl.editing and ctrl.view()["pieces"] == {}
    ctrl.cancel_editing()
    text = ctrl.export_scenario("probe")
    assert "title: White to move, 28 pieces, summer" in text and "checks:" in text and "note:" in text
    from workbench.scenarios import load_scenario_text

    assert load_scenario_text(text).initial_state().key() == before  # the stub loads as written


KNIGHT_HANGS = {"f3": "F", "f11": "f", "e5": "P", "f6": "k", "h9": "i", "b6": "i"}  # e5xf6 wins a knight


@pytest.mark.parametrize("spec", ["search:seconds=1,engine=python", "search", "greedy"])
def test_evaluation_is_the_agents_search_value_and_best_move(spec: str) -> None:
    from workbench.games.terrafeud.agents.evaluate import evaluate

    ctrl = position(KNIGHT_HANGS)
    static = evaluate(ctrl.state, 0)
    assert static < -3  # one ply sees Black a knight up: the old board said so
    result = ctrl.analyse(spec)
    assert result["best"] == "e5xf6" and result["arrows"] == [(parse_hex("e5"), parse_hex("f6"), "move")]
    assert 0.5 < result["eval"] < 3  # White wins the knight: about a pikeman and a half up, White's view
    assert result["text"].startswith(f"{result['eval']:+.2f} for White: White is better")
    # both searches (Python and native) report their root value; greedy has none, so its move is settled
    assert result["source"] == ("settled" if spec == "greedy" else "search")
    view = ctrl.view()["analysis"]
    assert view["arrows"] == [["e5", "f6", "move"]] and "knight 4.5" in view["text"]
    black = position({"f3": "F", "f11": "f", "e5": "p", "f6": "K", "d4": "I", "h4": "I"}, to_move="black")
    mirrored = black.analyse(spec)  # Black wins the knight: negative, still White's view
    assert mirrored["best"] == "e5xf6" and -3 < mirrored["eval"] < -0.5 and "Black is better" in mirrored["text"]


def test_evaluation_spec_caps_the_clock_and_scores_are_worded() -> None:
    from workbench.games.terrafeud.widget.controller import EVAL_SECONDS, describe_score, evaluation_spec

    assert evaluation_spec("search:seconds=2") == f"search:seconds={EVAL_SECONDS}"
    assert evaluation_spec("search:nodes=500") == f"search:nodes=500,seconds={EVAL_SECONDS}"
    assert evaluation_spec("greedy") == "greedy"
    assert describe_score(-2.0, 0).startswith("-2.00 for White: Black is better by 2.00")
    assert describe_score(100_000.0 - 9, 4) == "White wins by force (the game ends within 5 plies)"
    assert describe_score(0.01, 0).startswith("0.00: level")


def test_agent_moves_carry_the_agents_own_score_and_records_are_labelled_static() -> None:
    ctrl = position(KNIGHT_HANGS, to_move="black")
    ctrl.set_agent("search:seconds=1,engine=python", "white", seed=0)
    ctrl.play("h9-h8")  # the agent (White) answers: it takes the knight
    rows = ctrl.view()["line"]
    assert [r["text"] for r in rows] == ["h9-h8", "e5xf6"]
    assert rows[0]["eval_kind"] == "static" and rows[1]["eval_kind"] == "search"
    assert rows[1]["eval"] == round(ctrl.agent.score, 1) and rows[1]["eval"] > 0.5  # the agent's own value
    text = ctrl.record_text()
    from workbench.games.terrafeud import native

    if native.available():  # the native search reports its root value; native greedy has none: settled
        for spec, kind in (("search:seconds=1,engine=native", "search"), ("greedy:engine=native", "settled")):
            other = position(KNIGHT_HANGS, to_move="black")
            other.set_agent(spec, "white", seed=0)
            other.play("h9-h8")
            row = other.view()["line"][1]
            assert row["text"] == "e5xf6" and row["eval_kind"] == kind and row["eval"] > 0.5, (spec, row)
    ctrl.set_agent(None)
    ctrl.load_record_text(text, "probe.json")
    assert {r["eval_kind"] for r in ctrl.view()["line"]} == {"static"}  # a loaded record: static, and says so


def test_evaluate_from_the_page_runs_in_a_thread_under_a_busy_sign(monkeypatch) -> None:
    pytest.importorskip("anywidget")
    import threading

    from workbench.games.terrafeud.widget import HexBoard, hexboard

    release = threading.Event()
    real = hexboard.scored_choice

    def held(agent, state):  # the search waits until the test has looked at the page
        release.wait(10)
        return real(agent, state)

    monkeypatch.setattr(hexboard, "scored_choice", held)
    board = HexBoard()
    board.state = position(KNIGHT_HANGS).state
    board._on_msg(board, {"type": "analyse"}, [])
    assert board.busy == "evaluating…" and board.view["analysis"] is None
    board._on_msg(board, {"type": "flip"}, [])  # the page stays live meanwhile
    assert board.view["flipped"]
    release.set()
    board.wait()
    assert board.busy == "" and board.view["analysis"]["arrows"] == [["e5", "f6", "move"]]


def test_evaluation_and_rule_change_diff() -> None:
    ctrl = BoardController(new_game(seed=0))
    result = ctrl.analyse("greedy")
    assert result["best"] and ctrl.view()["analysis"]["arrows"]
    ctrl.play("e3-e4")
    assert ctrl.view()["analysis"] is None  # an evaluation belongs to the position it was made for
    diff = ctrl.compare_toggle("season=winter")
    view = ctrl.view()["diff"]
    assert view["change"] == "season=winter" and len(view["gained"]) == len(diff["gained"]) > 0
    assert all(x["arrows"] for x in view["gained"])
    with pytest.raises(WidgetError, match="season"):
        ctrl.compare_toggle("season=autumn")


def test_a_new_board_rolls_fresh_terrain_unless_seeded() -> None:
    pytest.importorskip("anywidget")
    from workbench.games.terrafeud.widget import HexBoard

    seeds = {HexBoard().state.game.seed for _ in range(4)}
    assert None not in seeds and len(seeds) > 1
    assert HexBoard(seed=5).state.game.seed == 5


def test_bridges_and_fords_come_from_the_games_board() -> None:
    ctrl = BoardController(new_game("bridges=b4/k4,fords=d5/h5/f6", seed=1))
    view = ctrl.view()
    crossings = {h: t["kind"] for h, t in view["terrain"].items() if t["kind"] in ("bridge", "ford")}
    assert crossings == {"b4": "bridge", "k4": "bridge", "d5": "ford", "f6": "ford", "h5": "ford"}
    assert "bridges=b4,k4" in view["active_rules"]["toggles"]


def test_new_game_reports_bad_parameters_and_start_files_in_the_panel(tmp_path) -> None:
    ctrl = BoardController(new_game(seed=1))
    before = ctrl.state
    bad = tmp_path / "bad.yaml"
    bad.write_text("id: bad\ntitle: t\nrules: {fords: [d5, f6]}\n", encoding="utf-8")
    for kw, words in [({"archer_range": 0}, "archer_range=0 is out of range; allowed: whole numbers 2..10"),
                      ({"bridges": "b4/e4"}, "bridges: e4 is not on the river"),
                      ({"fords": "d5/f6"}, "f6 is both a bridge and a ford"),
                      ({"start": str(tmp_path / "none.yaml")}, "the start file does not load"),
                      ({"start": str(bad)}, "line 3: parameters bridges and fords")]:
        ctrl.new_game(seed=2, **kw)
        assert ctrl.level == "error" and words in ctrl.message and ctrl.state is before
    good = tmp_path / "good.yaml"
    good.write_text("id: duel\ntitle: t\nrules: {hill: false, swamp: false}\n"
                    "position:\n  to_move: black\n  pieces: {a1: F, l6: f, f9: k}\n", encoding="utf-8")
    ctrl.new_game(seed=2, start=str(good), archer_range=3)
    assert ctrl.level == "info" and ctrl.state.game.start_id == "duel" and ctrl.state.to_move == 1
    assert ctrl.state.game.rules.archer_range == 3


def test_an_agent_answering_the_page_keeps_its_score_for_the_move_list() -> None:
    pytest.importorskip("anywidget")
    from workbench.games.terrafeud.widget import HexBoard

    board = HexBoard(seed=0)
    board._on_msg(board, {"type": "agent", "name": "greedy", "side": "black"}, [])
    board._on_msg(board, {"type": "click", "hex": "f3"}, [])
    board._on_msg(board, {"type": "click", "hex": "f5"}, [])  # the knight walks into the pikemen's reach
    board.wait()
    first, reply = board.view["line"]
    assert first["eval_kind"] == "static" and reply["eval_kind"] == "settled"  # greedy reports no score
    assert reply["text"].endswith("xf5") and reply["eval"] < -3  # Black won the knight: White's view, negative
