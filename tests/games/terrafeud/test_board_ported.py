"""TerraFeud's old board tests (``test_widget.py``, ``test_widget_round2.py``, deleted with its own board in 1b4ab38),
ported to the one board (``workbench.widget``: ``GameBoard``/``HexBoard`` and ``GameBoardController``).

Each test keeps what a user sees and does on TerraFeud's board; only the way it reaches the board changed (page
messages ``{"type": "click", "cell": ...}``, move rows as dicts, buttons for choices). Where the one board words a
thing differently by design (the issue's sentences, ``White won``), the docstring says so.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from workbench.games.terrafeud import GAME
from workbench.games.terrafeud.engine import hex_name, make_game, new_game, parse_hex
from workbench.games.terrafeud.engine.pieces import parse_letter
from workbench.games.terrafeud.state import TerraFeudState
from workbench.widget import GameBoard, HexBoard
from workbench.widget.board_controller import GameBoardController
from workbench.widget.common import WidgetError

ROOT = Path(__file__).resolve().parents[3]
PLAIN = make_game("hill=false,swamp=false")


def pos(pieces: dict[str, str], to_move: int = 0, **extra: Any) -> TerraFeudState:
    """A hand-made position (rolled terrain off, so no swamp or hill interferes), as the protocol's state."""
    codes = {parse_hex(h): parse_letter(p) for h, p in pieces.items()}
    return TerraFeudState(PLAIN.state_from_pieces(codes, to_move=to_move, **extra))


def tf(state: Any = None, **kwargs: Any) -> GameBoard:
    if state is not None and not isinstance(state, TerraFeudState):
        state = TerraFeudState(state)
    return GameBoard("terrafeud", state=state, **kwargs)


def ctrl_of(state: Any = None, **kwargs: Any) -> GameBoardController:
    if state is not None and not isinstance(state, TerraFeudState):
        state = TerraFeudState(state)
    return GameBoardController(GAME, state=state, **kwargs)


def send(b: GameBoard, **msg: Any) -> dict[str, Any]:
    b._on_msg(b, msg, [])
    return b.view


def line(b: GameBoard) -> list[str]:
    """The moves that led to the position shown (what the old ``view()["moves"]`` listed)."""
    out, n = [], b.controller.node
    while n.parent is not None:
        out.append(n.text)
        n = n.parent
    return out[::-1]


def click_action(c: GameBoardController, action: Any) -> None:
    """Play ``action`` the way a user would: its cells clicked in order (an Order: its pieces and steps), a button
    for an action without cells (Pass), a named choice where the cells end several actions (promotion)."""
    text = c.state.action_to_string(action)
    cells = [c.names[x] for x in c.state.action_cells(action)]
    if not cells:
        c.choose(next(i for i, a in enumerate(c.buttons()) if c.state.action_to_string(a) == text))
        return
    for name in cells:
        if c.node.ply > 0 and c.state.move_number() != c.node.ply:
            break
        before = c.node.id
        c.click(name)
        if c.node.id != before:
            return
    c.choose(next(i for i, a in enumerate(c.buttons()) if c.state.action_to_string(a) == text))


# ---------------------------------------------------------------------------- test_widget.py


def test_clicking_through_a_whole_game_plays_each_chosen_action() -> None:
    ends = []
    for seed in range(6):
        rng = random.Random(seed)
        c = ctrl_of(new_game(seed=seed))
        while not c.state.is_terminal() and c.node.ply < 400:
            action = rng.choice(c.state.legal_actions())
            ply = c.node.ply
            click_action(c, action)
            assert c.node.ply == ply + 1, c.message
            assert c.node.action == action
        if c.state.is_terminal():
            ends.append(c)
            break
    assert ends, "no seeded game reached an end within 400 plies"
    c = ends[0]
    view = c.view()
    inner = c.state.inner
    assert inner.victory in view["status"] and c.result_text() in view["status"]
    assert c.result_text().lower().startswith(inner.winner_name() or "game over")
    assert len(view["moves"]) == inner.ply
    with pytest.raises(WidgetError, match="the game is over"):
        c.click("a1")


def test_selecting_a_piece_lights_moves_stops_and_shots() -> None:
    b = tf(new_game(seed=0))
    v = send(b, type="click", cell="f3")  # the knight: its slide up file f crosses the bridge f6 and must stop beyond it
    assert v["targets"]["f7"] == "stop"
    assert set(v["targets"]) == {hex_name(h) for h in b.state.inner.destinations(parse_hex("f3"))}
    v = send(b, type="click", cell="d2")  # another own piece: the selection moves to the archer
    shots = {hex_name(a[2]) for a in b.state.legal_actions() if a[0] == 1 and a[1] == parse_hex("d2")}
    assert shots and {h for h, k in v["targets"].items() if k == "shot"} == shots
    v = send(b, type="click", cell="d5")  # three hexes away: the engine explains the shot rule, not a move rule
    assert v["message"].startswith("d2*d5") and "(W8" in v["message"] and v["selection"] == []
    target = sorted(shots)[0]
    send(b, type="click", cell="d2")
    v = send(b, type="click", cell=target)
    assert b.state.inner.markers[0] == {parse_hex("d2"): parse_hex(target)}
    marks = {g["cell"]: g["marks"] for g in v["glyphs"]}  # the marker is drawn (the default overlay "markers")
    assert "marked-white" in marks[target] and "marker-archer" in marks["d2"]


def test_attack_and_illegal_click_show_the_engines_reason() -> None:
    from workbench.games.terrafeud.engine import MOVE, explain_illegal

    b = tf(pos({"f1": "F", "f11": "f", "d1": "K", "d4": "i", "l1": "k"}))
    assert send(b, type="click", cell="d1")["targets"]["d4"] == "attack"
    v = send(b, type="click", cell="l1")  # not on one of the knight's lines: the engine says why
    assert v["message"] == explain_illegal(b.state.inner, (MOVE, parse_hex("d1"), parse_hex("l1"), 0))
    assert v["selection"] == [] and b.state.move_number() == 0
    v = send(b, type="click", cell="f11")
    assert "black piece" in v["message"] and "white is to move" in v["message"]


def test_promotion_asks_which_destroyed_piece_to_take() -> None:
    b = tf(pos({"f1": "F", "l6": "f", "e9": "I"}, destroyed=[[4, 5], []]))  # cavalry, archer
    send(b, type="click", cell="e9")
    v = send(b, type="click", cell="e10")
    assert b.state.move_number() == 0 and len(v["buttons"]) == 2
    labels = [x["label"] for x in v["buttons"]]  # promotion buttons name the piece, not only its letter
    assert sorted(labels) == ["promote to A archer", "promote to C cavalry"]
    v = send(b, type="choose", index=labels.index("promote to C cavalry"))
    assert {g["cell"]: g["piece"] for g in v["glyphs"]}["e10"] == "C"
    assert b.state.inner.destroyed[0] == [5]


def test_castling_and_order() -> None:
    """The Order is a click sequence on the one board (its infantrymen and their steps, from the feudal's side)."""
    b = tf(pos({"f3": "F", "f11": "f", "f2": "I", "e3": "I", "g3": "I"}))
    v = send(b, type="click", cell="f3")
    assert v["targets"]["f2"] == "castle"
    send(b, type="cancel")
    v = send(b, type="click", cell="e3")
    assert v["targets"]["e4"] == "move"
    v = send(b, type="click", cell="e4")  # a step: a plain move ends here, or the Order goes on to another infantryman
    assert set(v["lit"]) == {"f2", "g3"} and [x["text"] for x in v["buttons"]] == ["e3-e4"]
    v = send(b, type="click", cell="a1")  # not a legal next step of the Order: refused, the steps so far kept
    assert v["level"] == "warn" and "no legal action" in v["message"] and v["selection"] == ["e3", "e4"]
    v = send(b, type="click", cell="g3")
    assert v["targets"] and set(v["targets"].values()) == {"order"}
    v = send(b, type="click", cell="g4")
    texts = [x["text"] for x in v["buttons"]]
    if "order e3-e4 g3-g4" in texts:
        v = send(b, type="choose", index=texts.index("order e3-e4 g3-g4"))
    assert line(b) == ["order e3-e4 g3-g4"]
    send(b, type="undo")
    send(b, type="click", cell="f3")
    v = send(b, type="click", cell="f2")
    assert line(b) == ["f3<>f2"] and {g["cell"]: g["piece"] for g in v["glyphs"]}["f2"] == "F"


def test_undo_redo_against_an_agent_keeps_the_humans_turn() -> None:
    b = tf(new_game(seed=1), seed=5)
    send(b, type="agent", seat=1, spec="random")
    send(b, type="click", cell="f3")
    send(b, type="click", cell="f4")
    b.wait(30)
    v = b.view
    assert b.state.move_number() == 2 and b.state.current_player() == 0 and "random" in v["message"]
    assert v["agents"] == {"Black": "random"}
    after = b.state.to_dict()
    v = send(b, type="undo")  # the agent's reply and the human's move go back together
    assert b.state.move_number() == 0 and v["can_redo"]
    v = send(b, type="redo")
    assert b.state.move_number() == 2 and b.state.to_dict() == after
    send(b, type="undo")
    send(b, type="click", cell="f3")
    send(b, type="click", cell="f5")  # a new action: the old line is kept as a variation, Redo follows the new one
    b.wait(30)
    assert not b.view["can_redo"] and line(b)[0] == "f3-f5"
    send(b, type="agent", seat=1, spec="")
    send(b, type="undo")
    assert b.state.move_number() == 1


def test_agent_as_white_moves_first_in_a_new_game() -> None:
    b = tf(seed=1)
    send(b, type="agent", seat=0, spec="greedy")
    b.wait(30)
    assert b.state.move_number() == 1 and b.state.current_player() == 1
    send(b, type="new_game", seed=2, rules={"season": "winter", "hill": False, "castling": "sacrifice"})
    b.wait(30)
    assert b.state.move_number() == 1
    assert b.state.inner.rules.season == "winter" and b.state.inner.rules.castling == "sacrifice"
    v = send(b, type="new_game", rules={"season": "autumn"})
    assert v["level"] == "error" and "season" in v["message"] and "autumn" in v["message"]


def test_scenario_loading_steps_through_its_play(tmp_path: Path) -> None:
    path = tmp_path / "probe.yaml"
    path.write_text(
        "id: probe\ntitle: Knight and ford probe\nrules: {hill: false, swamp: false}\n"
        "position:\n  to_move: white\n  pieces: {f1: F, f11: f, d3: K, a6: i}\n"
        "checks:\n  - play: [f1-f2, a6-a5]\n    pieces: {f2: F}\n",
        encoding="utf-8",
    )
    b = HexBoard(seed=0)
    b.load_scenario(path)
    v = b.view
    assert v["scenario"] == "probe.yaml" and "Knight and ford probe" in v["message"]
    assert v["check"].startswith("check 1/1: PASS") and "f1-f2" in v["check"] and "f2" in v["check"]
    assert {g["cell"]: g["piece"] for g in v["glyphs"] if g["piece"]} == {"a6": "I", "d3": "K", "f1": "F", "f11": "F"}
    assert {g["cell"]: g["owner"] for g in v["glyphs"] if g["piece"]}["a6"] == 1
    assert line(b) == [] and [m["text"] for m in v["moves"]] == ["f1-f2", "a6-a5"]  # the check's play, to step through
    for _ in range(3):
        v = send(b, type="redo")  # → steps; it stops at the last position
    assert {g["cell"]: g["piece"] for g in v["glyphs"]}["f2"] == "F" and line(b) == ["f1-f2", "a6-a5"]
    assert v["level"] == "error" and "nothing to redo" in v["message"]
    send(b, type="undo")
    send(b, type="undo")
    assert b.state.move_number() == 0
    bad = tmp_path / "bad.yaml"
    bad.write_text("id: bad\ntitle: Bad\nposition:\n  pieces: {j4: F}\n", encoding="utf-8")
    b.load_scenario(bad)
    assert b.view["level"] == "error" and "bad.yaml" in b.view["message"]


def test_editor_export_round_trips_through_the_scenario_loader() -> None:
    from workbench.scenarios import load_scenario_text

    b = tf(new_game("hill=false,swamp=false", seed=0))
    send(b, type="edit")
    send(b, type="edit_piece", piece="")
    for h in ("a1", "c2", "e3"):
        send(b, type="click", cell=h)
    send(b, type="edit_piece", piece="k")
    send(b, type="click", cell="d4")
    # the White archer on d2 marks the Black knight on d4: an ultimatum (markers are position data: set by paste)
    send(b, type="edit_to_move", seat=1)
    text = b.export_scenario("edited-probe", "Edited probe")
    loaded = load_scenario_text(text).initial_state()
    assert loaded.to_move == 1
    shown = {g["cell"]: g for g in b.view["glyphs"] if g["piece"]}
    assert {hex_name(h): loaded.squares[h] for h in loaded.pieces()} == {
        h: parse_letter(g["piece"] if g["owner"] == 0 else g["piece"].lower()) for h, g in shown.items()}
    v = send(b, type="edit_done")
    assert v["level"] == "info" and b.state.inner.key() == loaded.key()
    send(b, type="edit")
    send(b, type="edit_piece", piece="")
    v = send(b, type="click", cell="f1")  # no White feudal left: the editor says why, and Done refuses
    assert "feudal" in v["message"]
    v = send(b, type="edit_done")
    assert "feudal" in v["message"] and b.controller.editing
    v = send(b, type="edit_piece", piece="Q")
    assert v["level"] == "error" and "'Q' is not a piece" in v["message"]


def test_records_save_and_load(tmp_path: Path) -> None:
    b = tf(new_game(seed=4))
    b.play("f3-f5", "f9-f7", "d2*d4")
    path = b.save_record(tmp_path / "game.json")
    other = HexBoard(seed=1)
    other.load_record(path)
    assert other.state.to_dict() == b.state.to_dict() and line(other) == line(b)
    send(other, type="undo")
    assert other.state.move_number() == 2
    (tmp_path / "broken.json").write_text("{", encoding="utf-8")
    other.load_record(tmp_path / "broken.json")
    assert other.view["level"] == "error" and "broken.json" in other.view["message"]


def test_overlays_zones_aura_and_heat() -> None:
    b = tf(new_game(seed=0))
    b.show(zones=True, aura=True)
    marks = {g["cell"]: set(g["marks"]) for g in b.view["glyphs"]}
    zone = {hex_name(h) for h in b.state.inner.zone(0)}
    assert {c for c, m in marks.items() if m & {"zone-white", "zones"}} == zone
    assert marks["f3"] & {"aura-white", "auras"} and marks["f1"] & {"aura-white", "auras"}
    b.show(heat="threat", heat_side="black")  # one heat map at a time, labelled by who attacks, with its scale
    v = b.view
    assert v["heat_layer"] == "threat" and v["heat_player"] == 1
    assert len(v["heat"]) == 91 and v["heat_scale"][1] == max(v["heat_scale"]) > 0
    assert v["heat"]["f5"] > 0 and v["heat"]["f1"] == 0


def test_widget_messages_drive_the_controller() -> None:
    board = HexBoard(seed=3)
    board.controller._new_root(TerraFeudState(new_game(seed=0)))
    board.geometry = board.controller.geometry()
    assert len(board.geometry["cells"]) == 91 and board.state.inner.game.seed == 0
    v = send(board, type="click", cell="f3")
    assert v["selection"] == ["f3"] and v["targets"]["f5"] == "move"
    v = send(board, type="click", cell="f5")
    assert line(board) == ["f3-f5"] and v["to_move_name"] == "black"
    v = send(board, type="undo")
    assert line(board) == [] and v["can_redo"]
    v = send(board, type="goto", node=v["moves"][0]["id"])  # a click on the move in the list
    assert line(board) == ["f3-f5"]
    v = send(board, type="new_game", rules={"season": "winter", "hill": False, "terrain": "fixed",
                                            "castling": "sacrifice"}, seed=3)
    assert board.state.inner.rules.label() == "season=winter,hill=false,terrain=fixed,castling=sacrifice"
    assert "season=winter" in v["rules"] and "castling=sacrifice" in v["rules"] and "hill=false" in v["rules"]
    v = send(board, type="fly")
    assert "unknown" in v["message"] and "'fly'" in v["message"] and v["level"] == "error"
    send(board, type="download", kind="scenario")
    assert board.download["name"].endswith(".yaml") and "checks:" in board.download["text"]
    v = send(board, type="overlay", name="fog", on=True)
    assert v["level"] == "error" and "overlay" in v["message"]


def test_agent_with_parameters_from_the_panel() -> None:
    b = tf(new_game(seed=0))
    v = send(b, type="agent", seat=1, spec="alphabeta:depth=1,nodes=300")
    assert v["agents"]["Black"].startswith("alphabeta:depth=1,nodes=300")
    b.play("f3-f5")  # the agent answers with a legal Black action
    b.wait(30)
    assert b.state.move_number() == 2 and b.state.current_player() == 0


def test_checkmate_threat_and_order_step_are_in_the_view() -> None:
    b = HexBoard(seed=0)
    b.load_scenario(ROOT / "scenarios/terrafeud/rulebook/checkmate.yaml")
    v = b.view
    assert v["over"] and "checkmate" in v["status"]
    marks = {g["cell"]: g["marks"] for g in v["glyphs"]}
    assert "mated" in marks["a1"]  # the lost feudal is marked where it stands
    b = tf(pos({"f3": "F", "f11": "f", "f2": "I", "e3": "I", "g3": "I", "f9": "c"}))
    threatened = b.state.inner.is_threatened(0)
    assert ("threatened" in {g["cell"]: g["marks"] for g in b.view["glyphs"]}["f3"]) == threatened
    send(b, type="click", cell="e3")
    v = send(b, type="click", cell="e4")
    assert v["selection"] == ["e3", "e4"]  # the chosen first step is drawn (the selection's cells)


def test_move_line_goto_evaluations_and_fresh_terrain() -> None:
    b = tf(new_game(seed=0), seed=0)
    send(b, type="agent", seat=1, spec="greedy")
    b.play("e3-e4")
    b.wait(30)
    v = b.view
    assert "greedy" in v["message"] and "played" in v["message"] and v["level"] == "info"
    assert [m["text"] for m in v["moves"]][0] == "e3-e4" and len(v["moves"]) == 2
    assert [p[0] for p in v["eval"]["points"]] == [1, 2]  # every move has its evaluation (the graph's points)
    v = send(b, type="agent", seat=1, spec="")
    assert "played" not in v["message"]  # the agent's news does not outlive the agent
    b.goto_ply(0)
    assert b.state.move_number() == 0 and len(b.view["moves"]) == 2
    b.goto_ply(2)
    assert b.state.move_number() == 2 and not b.view["can_redo"]
    seeds = {HexBoard().state.inner.game.seed for _ in range(3)}
    assert len(seeds) > 1, "rolled terrain must not always use seed 0"
    v = send(b, type="new_game", seed=7, rules={"season": "winter", "castling": "sacrifice"})
    assert "season=winter" in v["rules"] and "castling=sacrifice" in v["rules"] and "seed 7" in v["message"]


def test_editor_cancel_clear_and_export_stub() -> None:
    from workbench.scenarios import load_scenario_text

    b = tf(new_game(seed=0))
    before = b.state.inner.key()
    send(b, type="edit")
    send(b, type="edit_piece", piece="")
    send(b, type="click", cell="f3")
    v = send(b, type="edit_cancel")
    assert not b.controller.editing and b.state.inner.key() == before
    assert {g["cell"]: g["piece"] for g in v["glyphs"]}["f3"] == "K"
    send(b, type="edit")
    v = send(b, type="edit_clear")
    assert b.controller.editing and not [g for g in v["glyphs"] if g["piece"]]
    send(b, type="edit_cancel")
    text = b.export_scenario("probe")
    assert "checks:" in text and "note:" in text
    assert load_scenario_text(text).initial_state().key() == before  # the stub loads as written


KNIGHT_HANGS = {"f3": "F", "f11": "f", "e5": "P", "f6": "k", "h9": "i", "b6": "i"}  # e5xf6 wins a knight


def test_evaluation_is_the_agents_search_value_and_best_move() -> None:
    """The one board's Evaluate: the capped analysis agent's choice and score (TerraFeud declares its ``search``,
    ``GameDef.analysis_agent``), in the game's units and words, beside the static evaluation of every seat."""
    c = ctrl_of(pos(KNIGHT_HANGS))
    static = c.state.evaluate(0)
    assert static < -3  # one ply sees Black a knight up
    text = c.evaluate()
    assert "e5xf6" in text and "material points" in text
    score = float(text.split("score ")[1].split()[0])
    assert 0.5 < score < 3  # White wins the knight: about a pikeman and a half up
    black = ctrl_of(pos({"f3": "F", "f11": "f", "e5": "p", "f6": "K", "d4": "I", "h4": "I"}, to_move=1))
    text = black.evaluate()  # Black wins the knight: the score is the seat to move's, which the text names
    assert "for Black: e5xf6" in text and 0.5 < float(text.split("score ")[1].split()[0]) < 3


def test_evaluation_spec_caps_the_clock_and_scores_are_worded() -> None:
    """The page's Evaluate runs a capped agent (at most ``AGENT_SECONDS``) and words its score with the game's unit
    and the seat whose view it is (``describe_score``'s words are back: test_board_terrafeud's forced win)."""
    from workbench.widget.common import AGENT_SECONDS, capped_agent_spec

    assert capped_agent_spec("alphabeta:seconds=30")[0] == f"alphabeta:seconds={AGENT_SECONDS}"
    assert capped_agent_spec("alphabeta:nodes=500")[0] == f"alphabeta:nodes=500,seconds={AGENT_SECONDS}"
    assert capped_agent_spec("greedy")[0] == "greedy"
    c = ctrl_of(pos(KNIGHT_HANGS))
    text = c.evaluate("alphabeta:depth=2,seconds=30")
    assert text.startswith(f"alphabeta:depth=2,seconds={AGENT_SECONDS}") and "for White: e5xf6" in text
    assert "material points" in text and "static (material points) White" in text


def test_agent_moves_carry_the_agents_own_score_and_records_are_labelled_static() -> None:
    b = tf(pos(KNIGHT_HANGS, to_move=1))
    send(b, type="agent", seat=0, spec="alphabeta:depth=2,engine=python")
    b.play("h9-h8")  # the agent (White) answers: it takes the knight
    b.wait(30)
    rows_ = b.view["moves"]
    assert [r["text"] for r in rows_] == ["h9-h8", "e5xf6"]
    assert rows_[0]["eval_kind"] == "static" and rows_[1]["eval_kind"] == "search"
    assert rows_[1]["eval"] > 0.5  # the agent's own value of taking the knight (White's view: it is White)
    text = b.controller.record_text()
    twin = GAME.native.agent("greedy", GAME.spec.defaults(), 0) if GAME.native.available() else None
    other = tf(pos(KNIGHT_HANGS, to_move=1))
    send(other, type="agent", seat=0, spec="greedy:engine=native")
    other.play("h9-h8")
    other.wait(30)
    if twin is not None:  # the native twin: native greedy reports no value, so its move is settled
        row = other.view["moves"][1]
        assert row["text"] == "e5xf6" and row["eval_kind"] == "settled", row
    else:  # no native twin on the board: said plainly, no traceback words
        assert other.view["message"].startswith("engine=native:") and "has no native twin" in other.view["message"]
    send(b, type="agent", seat=0, spec="")
    send(b, type="upload", kind="record", name="probe.json", text=text)
    assert {r["eval_kind"] for r in b.view["moves"]} == {"static"}  # a loaded record: static, and says so


def test_evaluate_from_the_page_runs_in_a_thread_under_a_busy_sign(monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    release = threading.Event()
    real = GameBoardController.think

    def held(self: GameBoardController, spec: str | None = None) -> Any:  # the search waits for the test
        release.wait(10)
        return real(self, spec)

    monkeypatch.setattr(GameBoardController, "think", held)
    board = tf(pos(KNIGHT_HANGS))
    board._on_msg(board, {"type": "evaluate"}, [])
    assert board.busy == "evaluating…" and board.view["evaluation"] == ""
    v = send(board, type="why", cell="e5")  # the page stays live meanwhile
    assert v["hover"]["cell"] == "e5"
    release.set()
    board.wait()
    assert board.busy == "" and "e5xf6" in board.view["evaluation"]


def test_evaluation_and_rule_change_diff() -> None:
    b = tf(new_game(seed=0))
    send(b, type="evaluate")
    b.wait(30)
    assert b.view["evaluation"]
    b.play("e3-e4")
    assert b.view["evaluation"] == ""  # an evaluation belongs to the position it was made for
    v = send(b, type="compare", change="season=winter")
    d = v["diff"]
    assert d["change"] == "season=winter" and d["n_added"] + d["n_removed"] > 0 and len(d["added"]) <= d["n_added"]
    v = send(b, type="compare", change="season=autumn")
    assert v["diff"] is None and v["level"] == "error" and "season" in v["message"]


def test_a_new_board_rolls_fresh_terrain_unless_seeded() -> None:
    seeds = {HexBoard().state.inner.game.seed for _ in range(4)}
    assert None not in seeds and len(seeds) > 1
    assert HexBoard(seed=5).state.inner.game.seed == 5


def test_bridges_and_fords_come_from_the_games_board() -> None:
    b = tf(new_game("bridges=b4/k4,fords=d5/h5/f6", seed=1))
    crossings = {g["cell"]: g["terrain"] for g in b.view["glyphs"] if g["terrain"] in ("bridge", "ford")}
    assert crossings == {"b4": "bridge", "k4": "bridge", "d5": "ford", "f6": "ford", "h5": "ford"}
    assert "bridges=b4" in b.view["rules"]


def test_new_game_reports_bad_parameters_and_start_files_in_the_panel(tmp_path: Path) -> None:
    b = HexBoard(seed=1)
    before = b.state
    for rules, words in [({"archer_range": 0}, "archer_range=0 is out of range; allowed: whole numbers 2..10"),
                         ({"bridges": "b4/e4"}, "e4 is not on the river"),
                         ({"fords": "d5/f6"}, "f6 is both a bridge and a ford")]:
        b.new_game(rules, seed=2)
        assert b.view["level"] == "error" and words in b.view["message"] and b.state is before, b.view["message"]
    bad = tmp_path / "bad.yaml"
    bad.write_text("id: bad\ntitle: t\nrules: {fords: [d5, f6]}\n", encoding="utf-8")
    for start, words in [(str(tmp_path / "none.yaml"), "the start file does not load"),
                         (str(bad), "line 3: parameters bridges and fords")]:
        b.new_game({"start": start}, seed=2)  # the notebook (Python) may name a start file; a bad one is said plainly
        assert b.view["level"] == "error" and words in b.view["message"] and b.state is before, b.view["message"]
    good = tmp_path / "good.yaml"
    good.write_text("id: duel\ntitle: t\nrules: {hill: false, swamp: false}\n"
                    "position:\n  to_move: black\n  pieces: {a1: F, l6: f, f9: k}\n", encoding="utf-8")
    b.new_game({"start": str(good), "archer_range": 3}, seed=2)
    assert b.view["level"] == "info"
    assert b.state.inner.game.start_id == "duel" and b.state.current_player() == 1
    assert b.state.inner.game.rules.archer_range == 3


def test_an_agent_answering_the_page_keeps_its_score_for_the_move_list() -> None:
    """The one board keeps an agent's move and its static evaluation (the graph's point, White's view)."""
    board = HexBoard(seed=0)
    board.controller._new_root(TerraFeudState(new_game(seed=0)))
    send(board, type="agent", seat=1, spec="greedy")
    send(board, type="click", cell="f3")
    send(board, type="click", cell="f5")  # the knight walks into the pikemen's reach
    board.wait(30)
    first, reply = board.view["moves"]
    assert first["eval_kind"] == "static" and reply["eval_kind"] == "settled"  # greedy reports no score
    assert reply["text"].endswith("xf5") and reply["eval"] < -3  # Black won the knight: White's view, negative
    assert board.view["eval"]["points"][-1][1] < -3


# ---------------------------------------------------------------------------- test_widget_round2.py


def rows(b: GameBoard) -> list[tuple[str, int]]:
    return [(m["text"], m["depth"]) for m in b.view["moves"]]


def node_of(b: GameBoard, text: str) -> int:
    return next(m["id"] for m in b.view["moves"] if m["text"] == text)


def test_playing_from_an_earlier_move_keeps_the_line_as_a_variation_and_promote_swaps_them() -> None:
    b = tf(new_game(seed=0))
    b.play("f3-f5", "f9-f7", "b1-d4")
    b.goto_ply(1)
    b.play("k7-h6")
    assert rows(b) == [("f3-f5", 0), ("f9-f7", 0), ("k7-h6", 1), ("b1-d4", 0)]
    assert not b.view["is_main"] and b.state.move_number() == 2
    send(b, type="promote", id=node_of(b, "k7-h6"))
    assert rows(b)[:3] == [("f3-f5", 0), ("k7-h6", 0), ("f9-f7", 1)]
    send(b, type="goto", node=node_of(b, "b1-d4"))
    assert b.state.move_number() == 3 and not b.view["is_main"]
    send(b, type="main_line")
    assert b.state.move_number() == 1 and b.view["is_main"]
    send(b, type="end")
    assert b.state.move_number() == 2 and line(b) == ["f3-f5", "k7-h6"]
    b.goto_ply(0)
    send(b, type="redo")
    send(b, type="redo")
    assert b.state.move_number() == 2
    send(b, type="delete", id=node_of(b, "f9-f7"))
    assert [t for t, _ in rows(b)] == ["f3-f5", "k7-h6"]


def test_records_keep_variations_and_drawings() -> None:
    b = tf(new_game(seed=0))
    b.play("f3-f5", "f9-f7")
    send(b, type="shape", **{"from": "c5", "to": "c7", "colour": "red"})
    send(b, type="shape", **{"from": "f5", "to": "f5", "colour": "green"})
    b.goto_ply(1)
    b.play("k7-h6")
    text = b.controller.record_text()
    data = json.loads(text)
    assert data["actions"] == ["f3-f5", "f9-f7"]
    assert data["variations"] == [{"at": 1, "moves": ["k7-h6"], "variations": [], "shapes": {}}]
    other = tf(new_game(seed=1))
    send(other, type="upload", kind="record", name="round.json", text=text)
    assert rows(other) == [("f3-f5", 0), ("f9-f7", 0), ("k7-h6", 1)]
    send(other, type="end")
    assert other.view["shapes"] == {"arrows": [["c5", "c7", "red"]], "circles": [["f5", "green"]]}
    data["variations"][0]["moves"] = ["k7-k1"]
    v = send(other, type="upload", kind="record", name="bad.json", text=json.dumps(data))
    assert v["level"] == "error" and "variations[0] move 1" in v["message"]


def test_a_coordinated_attack_says_who_dies_before_and_after() -> None:
    from workbench.games.terrafeud.engine.analysis import action_effects

    st = pos({"f1": "F", "c3": "I", "e3": "I", "d4": "f"})
    eff = action_effects(st.inner, st.inner.parse_action("e3-e4"))
    assert sorted(eff["removed"]) == [parse_hex("c3"), parse_hex("d4")] and eff["ends"] and eff["winner"] == 0
    assert set(eff["causes"]) == {"coordinated_kill"} and "black feudal on d4 dies" in eff["text"]
    b = tf(st)
    v = send(b, type="click", cell="e3")
    assert sorted(v["previews"]["e4"]["removed"]) == ["c3", "d4"] and v["previews"]["e4"]["ends"]
    v = send(b, type="click", cell="e4")
    assert sorted(v["last"]["removed"]) == ["c3", "d4"]  # the deaths are marked after the move
    assert "black feudal on d4 dies" in v["moves"][-1]["words"] and "White won" in v["moves"][-1]["result"]


def test_exact_reasons_name_the_first_failing_rule_and_the_blocking_hex() -> None:
    from workbench.games.terrafeud.engine.notation import illegal_detail
    from workbench.games.terrafeud.engine.state import MOVE

    cav = pos({"f1": "F", "f4": "C", "f11": "f", "d4": "p", "c3": "a"})
    d = illegal_detail(cav.inner, (MOVE, parse_hex("f4"), parse_hex("d5"), 0))
    assert d["text"] == "f4-d5: the gallop stops on e4: it is in the zone of the black pikeman on d4 (W2, W4)"
    assert d["blocks"] == [parse_hex("e4"), parse_hex("d4")]
    st = new_game(seed=0)
    d = illegal_detail(st, (MOVE, parse_hex("f3"), parse_hex("f9"), 0))
    assert "stops earlier, on f7" in d["text"] and "bridge f6" in d["text"] and parse_hex("f6") in d["blocks"]
    assert "river" not in illegal_detail(st, (MOVE, parse_hex("e3"), parse_hex("e6"), 0))["text"]
    b = tf(cav)
    send(b, type="click", cell="f4")
    v = send(b, type="why", cell="d5")  # the reason on hover
    assert "zone of the black pikeman on d4" in v["hover"]["text"]
    v = send(b, type="click", cell="d5")  # ... and on click, with the hexes that block it
    assert "zone of the black pikeman on d4" in v["message"] and v["level"] == "warn"
    assert v["blocks"] == ["e4", "d4"]


def test_attackers_of_a_threatened_feudal_are_drawn() -> None:
    from workbench.games.terrafeud.engine.analysis import attackers

    st = pos({"f1": "F", "l6": "f", "e9": "I", "f5": "k"})
    assert attackers(st.inner, 0) == [parse_hex("f5")]
    assert tf(st).view["attack_lines"] == [["f5", "f1", "Black"]]


def test_an_empty_check_is_not_a_pass() -> None:
    b = tf(new_game(seed=0))
    v = send(b, type="upload", kind="scenario", name="stub.yaml", text=b.export_scenario())
    assert v["check"].startswith("check 1/1: EMPTY") and "0/1 pass" in v["message"]


def test_python_changes_to_the_state_show_after_refresh_and_a_failed_compare_clears_the_old_diff() -> None:
    b = tf(new_game(seed=0))
    b.controller.play_text("f3-f5")
    b.refresh()
    assert line(b) == ["f3-f5"] and b.view["can_undo"]
    b.compare("castling=sacrifice")
    assert b.view["diff"] is not None
    b.compare("castling=nonsense")
    assert b.view["diff"] is None and b.view["level"] == "error"


def test_continuous_analysis_shows_several_lines_with_depth_then_stops() -> None:
    import time

    b = tf(new_game(seed=0))
    send(b, type="analysis", on=True)
    assert b.busy.startswith("analys")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not b.view.get("lines"):
        time.sleep(0.2)
    lines = b.view["lines"]
    assert len(lines) == 3 and len({ln["moves"][0] for ln in lines}) == 3
    assert all(ln["depth"] >= 1 and ln["unit"] == "material points" for ln in lines)
    send(b, type="analysis", on=False)
    if b._analyser is not None:
        b._analyser.join(30)
    assert b.busy == "" and b._analyser is None


def test_the_eval_graph_marks_large_swings_and_the_picker_shows_an_upload_as_unlisted() -> None:
    b = tf(pos({"f1": "F", "d1": "K", "f11": "f", "d4": "i", "h6": "a"}))
    b.play("d1xd4")  # a piece taken: the evaluation jumps
    b.play("f11-f10")
    graph = b.view["eval"]
    assert len(graph["points"]) == 2 and graph["swings"] and graph["swings"][0]["text"] == "d1xd4"
    v = send(b, type="pick_scenario", name="rulebook/checkmate.yaml")
    assert v["scenario"] == "rulebook/checkmate.yaml" and v["attack_lines"], "a mate draws its attackers"
    v = send(b, type="upload", kind="record", name="upload.json", text=tf(new_game(seed=0)).controller.record_text())
    assert v["scenario"] == ""
    rows_ = b.controller.catalog()
    assert any(r["name"] == "rulebook/checkmate.yaml" and r["title"] for r in rows_)


def test_the_protocol_state_asks_the_engine_what_an_action_changes() -> None:
    st = GAME.state_from_dict(pos({"f1": "F", "c3": "I", "e3": "I", "d4": "f"}).to_dict())
    eff = st.action_effects(st.string_to_action("e3-e4"))
    assert sorted(eff["removed"]) == [parse_hex("c3"), parse_hex("d4")] and eff["ends"]
    assert {"removed", "marks", "text", "ends"} <= set(eff)


def test_the_board_seats_and_evaluates_a_tuned_agent_with_learned_weights_chosen_by_name(tmp_path: Path,
                                                                                        monkeypatch: Any) -> None:
    """A weights file in the study's folder is offered by name; the tuned alphabeta searches with it on the board
    (its score is the learned sum's, not the hand evaluation's), and a path typed in the page is refused."""
    from workbench.agents import make_agent
    from workbench.core.weights import feature_names
    from workbench.widget.common import AGENT_SECONDS

    monkeypatch.chdir(tmp_path)
    (tmp_path / "w.json").write_text(json.dumps({"game": "terrafeud", "weights": dict.fromkeys(feature_names(GAME), 0.25)}))
    c = ctrl_of(pos(KNIGHT_HANGS))
    assert "w.json" in c.weights_files()
    assert c.set_agent(1, "alphabeta:depth=2,eval=w.json").endswith(f"alphabeta:depth=2,eval=w.json,seconds={AGENT_SECONDS}")
    with pytest.raises(WidgetError, match="never by a path"):
        c.set_agent(1, f"alphabeta:eval={tmp_path / 'w.json'}")
    learned, hand = (make_agent(s, seed=0, engine="python") for s in ("alphabeta:depth=2,eval=w.json", "alphabeta:depth=2"))
    st = c.state.inner.clone()
    learned.select_action(st.clone())
    hand.select_action(st.clone())
    assert learned.score != hand.score  # the weights change the search's values
    action, score, _ = c.think(f"alphabeta:depth=2,eval=w.json,seconds={AGENT_SECONDS}")
    assert score == pytest.approx(learned.score, abs=1e-9) and action in c.state.legal_actions()
    assert c.evaluate("alphabeta:depth=2,eval=w.json").startswith(f"alphabeta:depth=2,eval=w.json,seconds={AGENT_SECONDS}")


def test_the_page_asks_terrafeuds_tuned_agents_in_their_own_terms_and_generic_names_reach_the_generic_ones() -> None:
    """TerraFeud's own agents hold the generic names on its board as in every tool, so the page caps them by what
    the game declares (``GameDef.agent_caps``): ``search:qdepth`` and ``mcts:rollout=eval`` are theirs, a generic
    knob they lack is refused in words, and ``generic-<name>`` is the generic agent with the generic caps."""
    from workbench.widget.common import AGENT_SECONDS, WidgetError

    c = ctrl_of(pos(KNIGHT_HANGS))
    own = c.game_agents()
    assert set(own) == {"random", "greedy", "alphabeta", "mcts", "search"}
    from workbench.widget.common import capped_agent_spec

    assert capped_agent_spec("search:qdepth=40,depth=3", own)[0] == f"search:qdepth=12,depth=3,seconds={AGENT_SECONDS}"
    assert capped_agent_spec("mcts:rollout=eval,iterations=9999", own)[0] == \
        f"mcts:rollout=eval,iterations=5000,seconds={AGENT_SECONDS}"
    with pytest.raises(WidgetError, match="mcts: rollout must be one of eval, random"):
        capped_agent_spec("mcts:rollout=5", own)
    # learned weights (eval=NAME): the tuned searching agents take them by name from the board's list, never a path
    assert capped_agent_spec("alphabeta:eval=w.json,depth=9", own, weights=["w.json"])[0] == \
        f"alphabeta:eval=w.json,depth=6,seconds={AGENT_SECONDS}"
    assert capped_agent_spec("mcts:eval=w.json", own, weights=["w.json"])[0] == f"mcts:eval=w.json,seconds={AGENT_SECONDS}"
    for path in ("/tmp/w.json", "../w.json", "~/w.json", "sub/w.json"):
        with pytest.raises(WidgetError, match="chosen by name from the board's list, never by a path; offered: w.json"):
            capped_agent_spec(f"search:eval={path}", own, weights=["w.json"])
    with pytest.raises(WidgetError, match="not a weights file the board offers; offered: w.json"):
        capped_agent_spec("alphabeta:eval=x.json", own, weights=["w.json"])
    with pytest.raises(WidgetError, match="greedy: unknown parameter 'eval'"):  # greedy counts material only
        capped_agent_spec("greedy:eval=w.json", own, weights=["w.json"])
    assert capped_agent_spec("generic-mcts:rollout=500", own)[0] == f"generic-mcts:rollout=200,seconds={AGENT_SECONDS}"
    assert capped_agent_spec("generic-alphabeta:eval=w.json", own, weights=["w.json"])[0] == \
        f"generic-alphabeta:eval=w.json,seconds={AGENT_SECONDS}"
    assert capped_agent_spec("plan:beam=99", own)[0] == "plan:beam=16"  # a generic agent the game has no own one of
    with pytest.raises(WidgetError, match="unknown agent 'generic-turtle'"):
        capped_agent_spec("generic-turtle", own)
    # the board runs what it accepted: the tuned search with its own knob, and the generic alphabeta by its name
    assert c.evaluate("search:qdepth=2,depth=2").startswith(f"search:qdepth=2,depth=2,seconds={AGENT_SECONDS}")
    assert c.evaluate("generic-alphabeta:depth=1").startswith(f"generic-alphabeta:depth=1,seconds={AGENT_SECONDS}")
