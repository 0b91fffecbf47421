"""A board served to others is not a backdoor: TerraFeud's board's safety tests (``test_widget_safety.py`` and the
safety parts of ``test_widget_round2.py``, deleted with its own board in 1b4ab38), ported to the one board.

Messages are checked, paths never come from the page, agents are capped and think in a thread, any failure is one
plain message. They run on the workbench's default game (TerraFeud, whose board they were written for); the rules
they test are the one board's, for every game.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest

from workbench.games.terrafeud.engine import make_game, new_game, parse_hex
from workbench.games.terrafeud.engine.pieces import parse_letter
from workbench.games.terrafeud.state import TerraFeudState
from workbench.widget import GameBoard, HexBoard
from workbench.widget.board import MESSAGE_FIELDS
from workbench.widget.common import SCENARIO_ROOT, WidgetError, read_small_file

PLAIN = make_game("hill=false,swamp=false")


def tf(inner: Any = None, **kwargs: Any) -> GameBoard:
    return GameBoard("terrafeud", state=TerraFeudState(inner) if inner is not None else None, **kwargs)


def send(board: GameBoard, **content: Any) -> dict[str, Any]:
    board._on_msg(board, content, [])
    return board.view


def test_no_message_names_a_server_path() -> None:
    assert all("path" not in fields for fields in MESSAGE_FIELDS.values())
    board = HexBoard(seed=0)
    for kind in ("load_record", "save_record", "load_scenario", "export"):
        view = send(board, type=kind, path="/etc/passwd")
        assert view["level"] == "error" and "unknown" in view["message"]
    view = send(board, type="pick_scenario", name="../../../etc/passwd")
    assert "pick one from the list" in view["message"] and board.state.move_number() == 0
    names = [str(p.relative_to(SCENARIO_ROOT / "terrafeud")) for p in board.controller.scenario_files()]
    assert names and all(not n.startswith(("/", "..")) for n in names)
    view = send(board, type="pick_scenario", name=names[0])
    assert view["level"] in ("info", "warn") and view["check"].startswith("check 1/")


def test_huge_and_mistyped_fields_are_refused_not_echoed() -> None:
    board = HexBoard(seed=0)
    secret = "Z" * 20_000_000
    for content in ({"type": "click", "cell": secret}, {"type": "compare", "change": secret},
                    {"type": secret}, {"type": "upload", "kind": "record", "name": "x", "text": secret}):
        view = send(board, **content)
        assert view["level"] == "error" and len(view["message"]) < 200 and "ZZZ" not in view["message"]
    view = send(board, type="heat", layer="threat", player="white")
    assert view["level"] == "error" and "'player'" in view["message"]
    view = send(board, type="agent", seat="black", spec="random")
    assert view["agents"] == {} and view["to_move_name"] == "white"
    view = send(board, type="click", cell="zz99")
    assert "no cell 'zz99'" in view["message"]
    view = send(board, type="goto", node=-5)
    assert view["level"] == "error" and "'node'" in view["message"]
    view = send(board, type="click", cell="f3", extra=1)
    assert "unexpected field 'extra'" in view["message"] and view["selection"] == []
    assert send(board, type="heat", layer="threat", player=0)["heat_layer"] == "threat"


def test_page_agents_are_capped_and_think_in_a_thread() -> None:
    board = tf(new_game(seed=0))
    view = send(board, type="agent", seat=1, spec="alphabeta:depth=30,nodes=10^9")
    assert view["agents"]["Black"] == "alphabeta:depth=6,nodes=60000,seconds=2.0"
    assert "depth 30 capped to 6" in view["message"] and view["level"] == "warn"
    start = time.perf_counter()
    send(board, type="click", cell="f3")
    send(board, type="click", cell="f5")
    assert board.busy.endswith("thinking…")  # the page shows the busy sign while the agent thinks
    view = send(board, type="click", cell="d2")
    assert "thinking" in view["message"] and view["selection"] == []
    board.wait(30)
    assert board.state.move_number() == 2 and board.busy == "" and time.perf_counter() - start < 10
    view = send(board, type="agent", seat=1, spec="generic-mcts:iterations=10^9,rollout=999")  # the generic mcts
    assert view["agents"]["Black"].startswith("generic-mcts:iterations=5000,rollout=200") and "capped" in view["message"]
    view = send(board, type="agent", seat=1, spec="mcts:iterations=10^9,rollout_depth=99")  # TerraFeud's own, its terms
    assert view["agents"]["Black"].startswith("mcts:iterations=5000,rollout_depth=8") and "capped" in view["message"]
    view = send(board, type="agent", seat=1, spec="mcts:nodes=5")
    assert view["level"] == "error" and "nodes" in view["message"]
    view = send(board, type="agent", seat=1, spec="")
    assert view["agents"] == {} and "stopped" in view["message"]


def test_reads_take_small_regular_files_only_and_echo_nothing(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(WidgetError, match="not a regular file"):
        read_small_file(fifo)  # returns at once: opened non-blocking, refused by its type
    with pytest.raises(WidgetError, match="not a regular file"):
        read_small_file("/dev/zero")
    with pytest.raises(WidgetError, match="not a regular file"):
        read_small_file(tmp_path)
    big = tmp_path / "big.json"
    big.write_bytes(b" " * 600_000)
    with pytest.raises(WidgetError, match="bytes; the board reads files up to"):
        read_small_file(big)
    secret = tmp_path / "secret.yaml"
    secret.write_text("root:x:0:0:TOPSECRET\n", encoding="utf-8")
    board = HexBoard(seed=0)
    for load in (board.load_scenario, board.load_record):
        load(secret)
        message = board.view["message"]
        assert board.view["level"] == "error" and "TOPSECRET" not in message and "secret.yaml" in message
    board.load_record(fifo)  # the notebook's own loader: small regular files too, never blocking
    assert board.view["level"] == "error" and "fifo" in board.view["message"]
    with pytest.raises(WidgetError, match="cannot open"):
        read_small_file(tmp_path / "missing.json")
    assert SCENARIO_ROOT.is_dir()


def test_upload_and_download_round_trip_a_record() -> None:
    board = tf(new_game(seed=4))
    board.play("f3-f5", "f9-f7")
    send(board, type="download", kind="record")
    name, text = board.download["name"], board.download["text"]
    assert name.endswith(".json")
    other = HexBoard(seed=1)
    view = send(other, type="upload", kind="record", name=name, text=text)
    assert [m["text"] for m in view["moves"]] == ["f3-f5", "f9-f7"] and other.state.to_dict() == board.state.to_dict()
    assert [p[0] for p in view["eval"]["points"]] == [1, 2]  # a loaded record shows per-move evaluations
    view = send(other, type="upload", kind="record", name="../../x.json", text="[" * 100_000)
    assert view["level"] == "error" and "x.json" in view["message"] and "[[[" not in view["message"]
    assert "/" not in view["message"].split(":")[0]  # the page's name, cleaned: no path


def test_the_page_cannot_set_the_boards_traits() -> None:
    board = tf(new_game(seed=0))
    before = dict(board.view)
    board._handle_msg({"content": {"data": {"method": "update", "state": {"view": {"x": "Z" * 1000}, "busy": "hacked"}}},
                       "buffers": []})
    assert board.view == before and board.busy == ""


def test_a_new_game_while_the_agent_thinks_gets_its_own_reply() -> None:
    board = tf(new_game(seed=0))
    send(board, type="agent", seat=0, spec="alphabeta:depth=3,nodes=6000")  # it moves first, in a thread
    assert board.busy
    view = send(board, type="new_game", seed=7, rules={})  # allowed while it thinks about the old game
    assert view["level"] == "info", view["message"]
    for _ in range(3):
        board.wait(30)
    assert board.state.inner.game.seed == 7 and board.state.move_number() == 1 and board.busy == ""  # it answered the new game


def test_a_page_may_not_start_a_game_from_a_server_file(tmp_path: Path) -> None:
    board = tf(new_game(seed=0))
    for rules in ({"start": "/etc/passwd"}, "start=/etc/hostname"):
        view = send(board, type="new_game", seed=7, rules=rules)
        assert view["level"] == "error" and "file" in view["message"] and "/etc" not in view["message"]
        assert "line" not in view["message"] and board.state.inner.game.start is None
    good = tmp_path / "duel.yaml"
    good.write_text("id: duel\ntitle: t\nposition:\n  pieces: {a1: F, l6: f}\n", encoding="utf-8")
    board.new_game({"start": str(good)}, seed=1)  # Python (the notebook's owner) may
    assert board.state.inner.game.start_id == "duel"


def test_the_new_game_panel_offers_every_parameter_and_plays_them() -> None:
    from workbench.games.terrafeud.engine import RulesConfig

    board = tf(new_game(seed=0))
    offered = {f["name"]: f for f in board.geometry["rule_fields"]}
    assert set(RulesConfig.names()) - set(offered) == {"start"}  # a file: never from the page
    assert offered["archer_range"]["default"] == "2" and "10" in offered["archer_range"]["title"]
    assert offered["season"]["choices"] and offered["hill"]["choices"] == ["true", "false"]
    view = send(board, type="new_game", seed=3,
                rules={"archer_range": "3", "castling_uses": "0", "bridges": "b4/k4", "fords": "d5/f6/h5"})
    rules = board.state.inner.game.rules
    assert view["level"] == "info" and (rules.archer_range, rules.castling_uses) == (3, 0)
    assert rules.fords == ("d5", "f6", "h5") and {g["cell"]: g["terrain"] for g in view["glyphs"]}["f6"] == "ford"
    assert {f["name"]: f["value"] for f in board.geometry["rule_fields"]}["archer_range"] == "3"  # the form shows it
    view = send(board, type="new_game", seed=3, rules={"aura_step": "0"})
    assert view["level"] == "error" and "aura_step=0 is out of range; allowed: whole numbers 1..10" in view["message"]


def test_no_page_route_opens_a_server_file_through_start(tmp_path: Path) -> None:
    """``start=PATH`` names a server file: refused from the new-game box, the diff box and uploaded files."""
    secret = tmp_path / "secret.yaml"
    secret.write_text("TOPSECRET: 1\n", encoding="utf-8")
    board = tf(new_game(seed=0))
    sends = [
        {"type": "new_game", "seed": 1, "rules": {"start": str(secret)}},
        {"type": "new_game", "seed": 1, "rules": f"start={secret}"},
        {"type": "new_game", "seed": 1, "rules": "start=/nonexistent/x.yaml"},
        {"type": "compare", "change": f"start={secret}"},
        {"type": "upload", "kind": "scenario", "name": "s.yaml", "text": f"id: s\ntitle: t\nrules: {{start: {secret}}}\n"},
    ]
    for content in sends:
        message = send(board, **content)["message"]
        assert "TOPSECRET" not in message and "No such file" not in message and str(tmp_path) not in message
        assert "name a file" in message or "server file" in message or "outside" in message, message
    assert board.state.move_number() == 0 and board.state.inner.game.rules.start is None


def test_an_uploaded_long_play_list_costs_linear_memory_and_still_steps() -> None:
    """A copy of the state after every ply copied its undo stack: 2,000 uploaded actions took 3.2 GB."""
    import tracemalloc

    cycle = ["a1-a2", "a6-b6", "a2-a1", "b6-a6"]
    text = ("id: long\ntitle: long\nrules: {draw_after: none, hill: false, swamp: false}\n"
            "position:\n  to_move: white\n  pieces: {a1: F, a6: f}\nchecks:\n  - play: ["
            + ", ".join((cycle * 400)[:1500]) + "]\n")
    board = tf(new_game(seed=0))
    tracemalloc.start()
    try:
        view = send(board, type="upload", kind="scenario", name="long.yaml", text=text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert "checks 1/1 pass" in view["message"] and peak < 60_000_000, (view["message"], peak)  # was about 1.3 GB
    for _ in range(3):
        send(board, type="redo")  # → steps through the check's play
    expected = board.controller.root_state.clone()
    for t in cycle[:3]:
        expected.apply_action(expected.string_to_action(t))
    assert board.state.to_dict() == expected.to_dict() and board.state.move_number() == 3
    send(board, type="end")
    assert board.state.move_number() == 1500
    send(board, type="undo")
    assert board.state.move_number() == 1499


def test_any_handler_exception_is_one_plain_message_and_the_busy_sign_clears(monkeypatch: pytest.MonkeyPatch) -> None:
    board = tf(new_game(seed=0))
    view = send(board, type="agent", seat=1, spec="alphabeta:depth=" + "9" * 180)  # a 180-digit depth (the page caps names at 200)
    assert "180-digit" in view["message"] and "Traceback" not in view["message"]
    send(board, type="agent", seat=1, spec="")

    def boom(*_a: Any, **_k: Any) -> None:
        raise KeyError("/srv/secret/path.py")

    monkeypatch.setattr(board.controller, "cancel", boom)
    seq = board.view["seq"]
    board._on_msg(None, {"type": "cancel"}, [])
    assert board.view["message"].startswith("the board could not do that (KeyError") and "/srv" not in board.view["message"]
    assert board.view["seq"] > seq and board.busy == ""
    monkeypatch.setattr(board.controller, "evaluate", boom)  # a failure in a thread clears the busy sign too
    send(board, type="evaluate")
    board.wait(30)
    assert board.busy == "" and "KeyError" in board.view["message"] and "/srv" not in board.view["message"]


def test_a_20000_ply_record_costs_a_bounded_number_of_engine_steps_per_click(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each click on a 20,000-ply record replays at most a few snapshots' worth of actions, never the record.

    Counted in engine steps, not seconds, because CI machines are noisy.
    """
    from workbench.games.terrafeud.engine.state import GameState
    from workbench.widget.tree import SNAPSHOT_EVERY

    start = PLAIN.state_from_pieces({parse_hex(h): parse_letter(p) for h, p in
                                     {"f1": "F", "f11": "f", "a1": "K", "l1": "k"}.items()}, to_move=0)
    cycle = ["f1-f2", "f11-f10", "f2-f1", "f10-f11"]
    texts = [cycle[i % 4] for i in range(20_000)]
    board = tf(new_game(seed=0))
    data = {"game": "terrafeud", "version": 1, "rules": {"hill": False, "swamp": False}, "seed": 0,
            "start": TerraFeudState(start).to_dict(), "actions": texts}
    view = send(board, type="upload", kind="record", name="long.json", text=json.dumps(data))
    assert board.state.move_number() == 20_000, view["message"]
    steps = {"n": 0}
    real_apply, real_undo = GameState.apply, GameState.undo

    def counted_apply(self: GameState, action: Any, check: bool = True) -> Any:
        steps["n"] += 1
        return real_apply(self, action, check)

    def counted_undo(self: GameState) -> Any:
        steps["n"] += 1
        return real_undo(self)

    monkeypatch.setattr(GameState, "apply", counted_apply)
    monkeypatch.setattr(GameState, "undo", counted_undo)
    worst = 0
    for msg in ({"type": "undo"}, {"type": "redo"}, {"type": "undo"}, {"type": "undo"}, {"type": "end"},
                {"type": "click", "cell": "f1"}, {"type": "click", "cell": "f2"}):
        steps["n"] = 0
        board._on_msg(None, msg, [])
        worst = max(worst, steps["n"])
    for ply in (19_999, 10_000, 20_001):
        steps["n"] = 0
        board.goto_ply(ply)
        worst = max(worst, steps["n"])
    assert board.state.move_number() == 20_001 and len(json.dumps(board.view)) < 300_000
    assert 0 < worst <= 4 * SNAPSHOT_EVERY, f"{worst} engine steps for one click"


def test_the_widget_front_end_loads_nothing_from_outside_the_page() -> None:
    """The one board's page script and stylesheet name no URL but SVG's namespace, import nothing and fetch nothing
    (the browser tests also block and record every request outside 127.0.0.1, and assert there is none)."""
    import re as _re

    here = Path(__file__).resolve().parents[1] / "workbench" / "widget"
    for name in ("board.js", "board.css"):
        text = (here / name).read_text(encoding="utf-8")
        urls = [u for u in _re.findall(r"https?://[^\s\"'`)]+", text) if u != "http://www.w3.org/2000/svg"]
        assert not urls, (name, urls)
        assert "@import" not in text and "url(http" not in text and "fetch(" not in text
        assert not _re.search(r"^\s*import\s", text, _re.M), name  # an ES module importing nothing
