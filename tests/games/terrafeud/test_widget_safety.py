"""A board served to others is not a backdoor (issue 13): messages are checked, paths never come from the page."""

from __future__ import annotations

import os
import time

import pytest

from workbench.games.terrafeud.engine import new_game
from workbench.games.terrafeud.widget.controller import SCENARIO_ROOT, BoardController, WidgetError, read_small_file

anywidget = pytest.importorskip("anywidget")
from workbench.games.terrafeud.widget.hexboard import MESSAGE_FIELDS, HexBoard  # noqa: E402


def send(board: HexBoard, **content: object) -> dict:
    board._on_msg(board, content, [])
    return board.view


def test_no_message_names_a_server_path() -> None:
    assert all("path" not in fields for fields in MESSAGE_FIELDS.values())
    board = HexBoard(seed=0)
    for kind in ("load_record", "save_record", "load_scenario", "export"):
        view = send(board, type=kind, path="/etc/passwd")
        assert view["level"] == "error" and "unknown widget message" in view["message"]
    view = send(board, type="pick_scenario", name="../../../etc/passwd")
    assert "pick a scenario from the list" in view["message"] and board.state.ply == 0
    assert view["scenario_files"] and all(not n.startswith(("/", "..")) for n in view["scenario_files"])
    view = send(board, type="pick_scenario", name=view["scenario_files"][0])
    assert view["level"] == "info" and view["scenario"]["checks"]


def test_huge_and_mistyped_fields_are_refused_not_echoed() -> None:
    board = HexBoard(seed=0)
    secret = "Z" * 20_000_000
    for content in ({"type": "click", "hex": secret}, {"type": "compare", "change": secret},
                    {"type": secret}, {"type": "upload", "kind": "record", "name": "x", "text": secret}):
        view = send(board, **content)
        assert view["level"] == "error" and len(view["message"]) < 200 and "ZZZ" not in view["message"]
    view = send(board, type="heat", kind="threat", side=5)
    assert "'side' must be text" in view["message"]
    view = send(board, type="agent", name="random", side=5)
    assert view["agent"] == {"name": None, "side": None} and view["to_move"] == "white"
    view = send(board, type="click", hex="zz99")
    assert "not a hex name" in view["message"]
    view = send(board, type="goto", ply=-5)
    assert "between 0 and" in view["message"]
    view = send(board, type="click", hex="f3", extra=1)
    assert "unexpected field 'extra'" in view["message"] and view["selected"] is None
    assert send(board, type="heat", kind="threat", side="white")["heat"]["side"] == "white"


def test_page_agents_are_capped_and_think_in_a_thread() -> None:
    board = HexBoard(new_game(seed=0))
    view = send(board, type="agent", name="alphabeta:depth=30,nodes=10^9", side="black")
    assert view["agent"]["name"] == "alphabeta:depth=6,nodes=60000,seconds=2.0"
    assert "depth 30 capped to 6" in view["message"] and view["level"] == "warning"
    start = time.perf_counter()
    send(board, type="click", hex="f3")
    send(board, type="click", hex="f5")
    assert board.busy.endswith("thinking…")  # the page shows the busy sign while the agent thinks
    view = send(board, type="click", hex="d2")
    assert "thinking" in view["message"] and view["selected"] is None
    board.wait(30)
    assert board.state.ply == 2 and board.busy == "" and time.perf_counter() - start < 10
    view = send(board, type="agent", name="mcts:iterations=10^9,rollout_depth=99", side="white")
    assert view["agent"]["name"] == "mcts:iterations=5000,rollout_depth=8,seconds=2.0" and view["flipped"]
    board.wait(30)
    view = send(board, type="agent", name="mcts:nodes=5", side="white")
    assert "unknown parameter 'nodes'" in view["message"]
    view = send(board, type="agent", name="", side="white")
    assert view["agent"]["name"] is None and "stopped" in view["message"]


def test_reads_take_small_regular_files_only_and_echo_nothing(tmp_path) -> None:
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
    ctrl = BoardController()
    for load in (ctrl.load_scenario, ctrl.load_record):
        with pytest.raises(WidgetError) as info:
            load(secret)
        assert "TOPSECRET" not in str(info.value) and "secret.yaml" in str(info.value)
    with pytest.raises(WidgetError, match="cannot open"):
        read_small_file(tmp_path / "missing.json")
    assert SCENARIO_ROOT.is_dir()


def test_upload_and_download_round_trip_a_record() -> None:
    board = HexBoard(new_game(seed=4))
    board.play("f3-f5", "f9-f7")
    send(board, type="download", kind="record")
    name, text = board.download["name"], board.download["text"]
    assert name.endswith(".json")
    other = HexBoard(seed=1)
    view = send(other, type="upload", kind="record", name=name, text=text)
    assert view["moves"] == ["f3-f5", "f9-f7"] and other.state.key() == board.state.key()
    assert all("eval" in row for row in view["line"])  # a loaded record shows per-move evaluations
    view = send(other, type="upload", kind="record", name="../../x.json", text="[" * 100_000)
    assert view["level"] == "error" and "x.json" in view["message"] and "[[[" not in view["message"]


def test_the_page_cannot_set_the_boards_traits() -> None:
    board = HexBoard(new_game(seed=0))
    before = dict(board.view)
    board._handle_msg({"content": {"data": {"method": "update", "state": {"view": {"x": "Z" * 1000}, "busy": "hacked"}}},
                       "buffers": []})
    assert board.view == before and board.busy == ""


def test_a_new_game_while_the_agent_thinks_gets_its_own_reply() -> None:
    board = HexBoard(new_game(seed=0))
    send(board, type="agent", name="alphabeta:depth=3,nodes=6000", side="white")  # it moves first, in a thread
    assert board.busy
    send(board, type="new_game", seed="7", rules={}, other="")  # allowed while it thinks about the old game
    for _ in range(3):
        board.wait(30)
    assert board.state.game.seed == 7 and board.state.ply == 1 and board.busy == ""  # it answered the new game


def test_a_page_may_not_start_a_game_from_a_server_file(tmp_path) -> None:
    board = HexBoard(new_game(seed=0))
    for fields in ({"rules": {}, "other": "start=/etc/passwd"}, {"rules": {"start": "/etc/hostname"}, "other": ""}):
        view = send(board, type="new_game", seed="7", **fields)
        assert view["level"] == "error" and "names a server file" in view["message"]
        assert "line" not in view["message"] and board.state.game.start is None
    good = tmp_path / "duel.yaml"
    good.write_text("id: duel\ntitle: t\nposition:\n  pieces: {a1: F, l6: f}\n", encoding="utf-8")
    board.new_game(seed=1, start=str(good))  # Python (the notebook's owner) may
    assert board.state.game.start_id == "duel"


def test_the_new_game_panel_offers_every_parameter_and_plays_them() -> None:
    from workbench.games.terrafeud.engine import RulesConfig

    board = HexBoard(new_game(seed=0))
    offered = {f["name"]: f for f in board.geometry["rule_fields"]}
    assert set(RulesConfig.names()) - set(offered) == {"hills", "swamps", "start"}
    assert offered["archer_range"]["default"] == 2 and "2..10" in offered["archer_range"]["title"]
    view = send(board, type="new_game", seed="3", other="",
                rules={"archer_range": "3", "castling_uses": "0", "bridges": "b4,k4", "fords": "d5,f6,h5"})
    rules = board.state.game.rules
    assert view["level"] == "info" and (rules.archer_range, rules.castling_uses) == (3, 0)
    assert rules.fords == ("d5", "f6", "h5") and view["terrain"]["f6"]["kind"] == "ford"
    view = send(board, type="new_game", seed="3", other="", rules={"aura_step": "0"})
    assert view["level"] == "error" and "aura_step=0 is out of range; allowed: whole numbers 1..10" in view["message"]


def test_no_page_route_opens_a_server_file_through_start(tmp_path) -> None:
    """``start=PATH`` names a server file: refused from the new-game box, the diff box and uploaded files."""
    secret = tmp_path / "secret.yaml"
    secret.write_text("TOPSECRET: 1\n", encoding="utf-8")
    board = HexBoard(new_game(seed=0))
    sends = [
        {"type": "new_game", "seed": "1", "rules": {"start": str(secret)}, "other": ""},
        {"type": "new_game", "seed": "1", "rules": {}, "other": f"start={secret}"},
        {"type": "new_game", "seed": "1", "rules": {}, "other": "start=/nonexistent/x.yaml"},
        {"type": "compare", "change": f"start={secret}"},
        {"type": "upload", "kind": "scenario", "name": "s.yaml", "text": f"id: s\ntitle: t\nrules: {{start: {secret}}}\n"},
    ]
    messages = [send(board, **content)["message"] for content in sends]
    for message in messages:
        assert "TOPSECRET" not in message and "No such file" not in message and "server file" in message
    assert board.state.ply == 0 and board.state.game.rules.start is None


def test_an_uploaded_long_play_list_costs_linear_memory_and_still_steps() -> None:
    """A copy of the state after every ply copied its undo stack: 2,000 uploaded actions took 3.2 GB."""
    import tracemalloc

    cycle = ["a1-a2", "a6-b6", "a2-a1", "b6-a6"]
    text = ("id: long\ntitle: long\nrules: {draw_after: none, hill: false, swamp: false}\nchecks:\n  - play: ["
            + ", ".join((cycle * 400)[:1500]) + "]\n")
    board = HexBoard(new_game(seed=0))
    tracemalloc.start()
    try:
        view = send(board, type="upload", kind="scenario", name="long.yaml", text=text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert "1 of 1 checks pass" in view["message"] and peak < 60_000_000, peak  # was about 1.3 GB
    send(board, type="step", delta=3)
    expected = board.controller.scenario.initial_state()
    expected.play(*cycle[:3])
    assert board.state.key() == expected.key() and board.state.ply == 3
    send(board, type="check", index=1)
    assert board.state.ply == 1500 and len(board.controller.scenario_states) == 1501
    board.undo()
    assert board.state.ply == 1499
