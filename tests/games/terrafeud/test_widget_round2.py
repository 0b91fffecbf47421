"""Issue 23/24 controller logic without a browser: the variation tree, effects, exact reasons, records, cost."""

from __future__ import annotations

import json
import time

import pytest

from workbench.games.terrafeud.engine import make_game, new_game, parse_hex
from workbench.games.terrafeud.engine.analysis import action_effects, attackers
from workbench.games.terrafeud.engine.notation import illegal_detail
from workbench.games.terrafeud.engine.pieces import parse_letter
from workbench.games.terrafeud.engine.serialize import record_dict
from workbench.games.terrafeud.engine.state import MOVE
from workbench.games.terrafeud.widget import BoardController
from workbench.games.terrafeud.widget.hexboard import HexBoard

PLAIN = make_game("hill=false,swamp=false")


def pos(pieces: dict[str, str], to_move: int = 0):  # noqa: ANN201
    return PLAIN.state_from_pieces({parse_hex(h): parse_letter(p) for h, p in pieces.items()}, to_move=to_move)


def test_playing_from_an_earlier_move_keeps_the_line_as_a_variation_and_promote_swaps_them() -> None:
    ctrl = BoardController(new_game(seed=0))
    for text in ("f3-f5", "f9-f7", "b1-d4"):
        ctrl.play(text)
    ctrl.goto(1)
    ctrl.play("k7-h6")
    rows = ctrl.move_rows()
    assert [(r["text"], r["depth"]) for r in rows] == [("f3-f5", 0), ("f9-f7", 0), ("k7-h6", 1), ("b1-d4", 0)]
    assert ctrl.view()["in_variation"] and ctrl.state.ply == 2
    ctrl.promote()
    assert [(r["text"], r["depth"]) for r in ctrl.move_rows()][:3] == [("f3-f5", 0), ("k7-h6", 0), ("f9-f7", 1)]
    ctrl.goto_node(next(r["id"] for r in ctrl.move_rows() if r["text"] == "b1-d4"))
    assert ctrl.state.ply == 3 and ctrl.view()["in_variation"]
    ctrl.to_main_line()
    assert ctrl.state.ply == 1 and not ctrl.view()["in_variation"]
    ctrl.nav("end")
    assert ctrl.state.ply == 2 and ctrl.move_list() == ["f3-f5", "k7-h6"]
    ctrl.nav("home")
    ctrl.nav("forward", 2)
    assert ctrl.state.ply == 2
    ctrl.delete_variation(next(r["id"] for r in ctrl.move_rows() if r["text"] == "f9-f7"))
    assert [r["text"] for r in ctrl.move_rows()] == ["f3-f5", "k7-h6"]


def test_records_keep_variations_and_drawings() -> None:
    ctrl = BoardController(new_game(seed=0))
    ctrl.play("f3-f5")
    ctrl.play("f9-f7")
    ctrl.shape("c5", "c7", "red")
    ctrl.shape("f5")
    ctrl.goto(1)
    ctrl.play("k7-h6")
    text = ctrl.record_text()
    data = json.loads(text)
    assert data["actions"] == ["f3-f5", "f9-f7"]
    assert data["variations"] == [{"at": 1, "moves": ["k7-h6"], "variations": [], "shapes": {}}]
    other = BoardController(new_game(seed=1))
    other.load_record_text(text, "round.json")
    assert [(r["text"], r["depth"]) for r in other.move_rows()] == [("f3-f5", 0), ("f9-f7", 0), ("k7-h6", 1)]
    other.nav("end")
    assert other.view()["shapes"] == {"arrows": [["c5", "c7", "red"]], "circles": [["f5", "green"]]}
    data["variations"][0]["moves"] = ["k7-k1"]
    with pytest.raises(Exception, match=r"variations\[0\] move 1"):
        other.load_record_text(json.dumps(data), "bad.json")


def test_a_coordinated_attack_says_who_dies_before_and_after() -> None:
    st = pos({"f1": "F", "c3": "I", "e3": "I", "d4": "f"})
    eff = action_effects(st, st.parse_action("e3-e4"))
    assert sorted(eff["removed"]) == [parse_hex("c3"), parse_hex("d4")] and eff["ends"] and eff["winner"] == 0
    assert set(eff["causes"]) == {"coordinated_kill"} and "black feudal on d4 dies" in eff["text"]
    ctrl = BoardController(st)
    ctrl.click("e3")
    assert ctrl.view()["previews"]["e4"]["removed"][0][0] in ("c3", "d4")
    ctrl.click("e4")
    view = ctrl.view()
    assert sorted(d[0] for d in view["deaths"]) == ["c3", "d4"]
    assert "✕fd4" in view["line"][-1]["note"] and view["destroyed"]["black"] == ["f"]


def test_exact_reasons_name_the_first_failing_rule_and_the_blocking_hex() -> None:
    cav = pos({"f1": "F", "f4": "C", "f11": "f", "d4": "p", "c3": "a"})
    d = illegal_detail(cav, (MOVE, parse_hex("f4"), parse_hex("d5"), 0))
    assert d["text"] == "f4-d5: the gallop stops on e4: it is in the zone of the black pikeman on d4 (W2, W4)"
    assert d["blocks"] == [parse_hex("e4"), parse_hex("d4")]
    st = new_game(seed=0)
    d = illegal_detail(st, (MOVE, parse_hex("f3"), parse_hex("f9"), 0))
    assert "stops earlier, on f7" in d["text"] and "bridge f6" in d["text"] and parse_hex("f6") in d["blocks"]
    assert "river" not in illegal_detail(st, (MOVE, parse_hex("e3"), parse_hex("e6"), 0))["text"]
    ctrl = BoardController(cav)
    ctrl.click("f4")
    assert "zone of the black pikeman on d4" in ctrl.view()["reasons"]["d5"]["text"]
    ctrl.click("d5")
    assert ctrl.view()["illegal"]["blocks"] == ["e4", "d4"] and ctrl.level == "warning"


def test_attackers_of_a_threatened_feudal_are_drawn() -> None:
    st = pos({"f1": "F", "l6": "f", "e9": "I", "f5": "k"})
    assert attackers(st, 0) == [parse_hex("f5")]
    assert BoardController(st).view()["attack_lines"] == [["f5", "f1", "black"]]


def test_an_empty_check_is_not_a_pass() -> None:
    ctrl = BoardController(new_game(seed=0))
    ctrl.load_scenario_text(ctrl.export_scenario(), "stub.yaml")
    assert ctrl.scenario_checks[0]["status"] == "empty" and "0 of 0 checks pass" in ctrl.message


def test_any_handler_exception_is_one_plain_message_and_the_busy_sign_clears(monkeypatch) -> None:  # noqa: ANN001
    board = HexBoard(new_game(seed=0))
    board._do(board._set_agent, "alphabeta:depth=" + "9" * 330, "black")  # was OverflowError (the page caps names at 200)
    assert "330-digit" in board.view["message"] and "Traceback" not in board.view["message"]
    board.set_agent(None)

    def boom() -> None:
        raise KeyError("/srv/secret/path.py")

    monkeypatch.setattr(board.controller, "start_order", boom)
    seq = board.view["seq"]
    board._on_msg(None, {"type": "order"}, [])
    assert board.view["message"].startswith("the board could not do that (KeyError") and "/srv" not in board.view["message"]
    assert board.view["seq"] > seq and board.busy == ""


def test_a_20000_ply_record_costs_a_bounded_number_of_engine_steps_per_click(monkeypatch) -> None:  # noqa: ANN001
    """Each click on a 20,000-ply record replays at most a few snapshots' worth of actions, never the record.

    Counted in engine steps, not seconds, because CI machines are noisy: it was a replay from the start,
    1.8-3.3 s a click, and is about 5-25 ms now.
    """
    from workbench.games.terrafeud.engine.state import GameState
    from workbench.widget.tree import SNAPSHOT_EVERY

    st = pos({"f1": "F", "f11": "f", "a1": "K", "l1": "k"})
    start = st.clone()
    cycle = ["f1-f2", "f11-f10", "f2-f1", "f10-f11"]
    texts = [cycle[i % 4] for i in range(20_000)]
    for t in texts:
        st.apply(st.parse_action(t))
    board = HexBoard(new_game(seed=0))
    board._on_msg(None, {"type": "upload", "kind": "record", "name": "long.json",
                         "text": json.dumps(record_dict(start, texts, st))}, [])
    assert board.state.ply == 20_000
    steps = {"n": 0}
    real_apply, real_undo = GameState.apply, GameState.undo

    def counted_apply(self, action, check: bool = True):  # noqa: ANN001, ANN202
        steps["n"] += 1
        return real_apply(self, action, check)

    def counted_undo(self):  # noqa: ANN001, ANN202
        steps["n"] += 1
        return real_undo(self)

    monkeypatch.setattr(GameState, "apply", counted_apply)
    monkeypatch.setattr(GameState, "undo", counted_undo)
    worst = 0
    for msg in ({"type": "goto", "ply": 19_999}, {"type": "undo"}, {"type": "redo"}, {"type": "nav", "to": "back", "count": 3},
                {"type": "goto", "ply": 10_000}, {"type": "goto", "ply": 20_000}, {"type": "click", "hex": "f1"},
                {"type": "click", "hex": "f2"}):
        steps["n"] = 0
        board._on_msg(None, msg, [])
        worst = max(worst, steps["n"])
    assert board.state.ply == 20_001 and len(json.dumps(board.view)) < 100_000
    assert 0 < worst <= 4 * SNAPSHOT_EVERY, f"{worst} engine steps for one click"


def test_the_protocol_state_asks_the_engine_what_an_action_changes() -> None:
    from workbench.games.terrafeud import GAME

    st = GAME.state_from_dict(pos({"f1": "F", "c3": "I", "e3": "I", "d4": "f"}).to_dict())
    eff = st.action_effects(st.string_to_action("e3-e4"))
    assert sorted(eff["removed"]) == [parse_hex("c3"), parse_hex("d4")] and eff["ends"]
    assert {"removed", "marks", "text", "ends"} <= set(eff)


def test_python_changes_to_the_state_show_after_refresh_and_a_failed_compare_clears_the_old_diff() -> None:
    board = HexBoard(new_game(seed=0))
    board.state.apply(board.state.parse_action("f3-f5"))
    board.refresh()
    assert board.view["moves"] == ["f3-f5"] and board.view["can_undo"]
    board.compare("castling=sacrifice")
    assert board.view["diff"] is not None
    board.compare("castling=nonsense")
    assert board.view["diff"] is None and board.view["level"] == "error"


def test_continuous_analysis_shows_several_lines_with_depth_and_nodes_then_stops() -> None:
    board = HexBoard(new_game(seed=0))
    board._on_msg(None, {"type": "analysis", "on": True}, [])
    assert board.busy == "analysing…"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not board.view.get("lines"):
        time.sleep(0.2)
    lines = board.view["lines"]["lines"]
    assert len(lines) == 3 and len({ln["moves"][0] for ln in lines}) == 3
    assert all(ln["depth"] >= 1 and ln["nodes"] > 0 for ln in lines) and board.view["eval_bar"]["source"] == "analysis"
    board._on_msg(None, {"type": "analysis", "on": False}, [])
    if board._analyser is not None:
        board._analyser.join(15)
    assert board.busy == "" and board._analyser is None


def test_the_eval_graph_marks_large_swings_and_the_picker_shows_an_upload_as_unlisted() -> None:
    ctrl = BoardController(pos({"f1": "F", "d1": "K", "f11": "f", "d4": "i", "h6": "a"}))
    ctrl.show_evals = True
    ctrl.play("d1xd4")  # a piece taken: the evaluation jumps
    ctrl.play("f11-f10")
    graph = ctrl.view()["eval_graph"]
    assert len(graph["points"]) == 3 and graph["swings"] and graph["swings"][0]["text"] == "d1xd4"
    ctrl.pick_scenario("terrafeud/rulebook/checkmate.yaml")
    assert ctrl.view()["scenario_source"] == "terrafeud/rulebook/checkmate.yaml"
    assert ctrl.view()["attack_lines"], "a mate draws its attackers"
    ctrl.load_record_text(BoardController(new_game(seed=0)).record_text(), "upload.json")
    assert ctrl.view()["scenario_source"] is None
    rows = ctrl.catalog_rows()
    assert any(r["name"] == "terrafeud/rulebook/checkmate.yaml" and r["title"] and r["verdict"] is None for r in rows)


def test_the_widget_front_end_loads_nothing_from_outside_the_page() -> None:
    import re as _re
    from pathlib import Path

    here = Path(__file__).resolve().parents[3] / "workbench" / "games" / "terrafeud" / "widget"
    for name in ("hexboard.js", "hexboard.css"):
        text = (here / name).read_text()
        urls = [u for u in _re.findall(r"https?://[^\s\"')]+", text) if u != "http://www.w3.org/2000/svg"]
        assert not urls, (name, urls)
        assert "@import" not in text and "url(http" not in text and "fetch(" not in text
