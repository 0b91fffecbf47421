"""The general board's analysis features on the controller (no browser): turns and words in the move list,
the evaluation line in the game's units, legends of what is drawn, big chess's card palette (King first,
prices), the turn indicator of a simultaneous setup, refusal reasons on hover, records with variations,
signs and comments, the outcome diff of a rule change, and the position as SVG."""

from __future__ import annotations

import json
import random

import pytest

import workbench.games as games
from workbench.widget.board_controller import GameBoardController
from workbench.widget.common import WidgetError


def play(c: GameBoardController, n: int, seed: int = 1) -> None:
    rng = random.Random(seed)
    for _ in range(n):
        if c.state.is_terminal():
            break
        c.play_text(c.state.action_to_string(rng.choice(c.state.legal_actions())))


def test_cursed_lands_moves_are_grouped_by_turn_with_units_and_legend() -> None:
    c = GameBoardController(games.get("cursed-lands"), games.get("cursed-lands").rules("turn_limit=25"), seed=1)
    play(c, 60)
    v = c.view()
    turns = [r["turn"] for r in v["moves"]]
    assert turns == sorted(turns) and len(set(turns)) < len(turns) / 2  # several actions per turn, numbered by turns
    assert v["eval"]["unit"] == "castle HP" and len(v["eval"]["points"]) >= 50
    signs = {e["sign"] for e in v["legend"]}
    assert any(s.endswith("hp") for s in signs) and all(e["words"] for e in v["legend"] if e["sign"].endswith("hp"))


def test_big_chess_setup_cards_king_first_with_prices_and_every_seat_to_act() -> None:
    c = GameBoardController(games.get("big-chess"), games.get("big-chess").rules("board=classic-4"))
    assert "player a, player b, player c, player d act" in c.status()
    king_cell = next(iter(c.view()["lit"]))
    c.click(king_cell)
    cards = c.view()["palette"]
    assert cards and cards[0]["first"] and cards[0]["card"] == "King"
    prices = [k["price"] for k in cards[1:]]
    assert prices == sorted(prices) and all(isinstance(p, int) for p in prices)
    single = next(k for k in cards if len(k["indexes"]) == 1)
    before = c.node
    c.choose(single["indexes"][0])  # one click plays a card with a single choice
    assert c.node.parent is before


def test_hover_reason_on_an_unlit_cell_and_a_lit_one() -> None:
    c = GameBoardController(games.get("pole"), seed=5)
    assert "no legal action starts" in c.hover_reason("j10") or c.hover_reason("j10")
    lit = c.view()["lit"][0]
    assert c.hover_reason(lit) and c.view()["hover"]["cell"] == lit
    with pytest.raises(WidgetError):
        c.hover_reason("zz99")


def test_record_round_trip_keeps_variations_signs_and_comments() -> None:
    g = games.get("pole")
    c = GameBoardController(g, seed=5)
    play(c, 8)
    c.annotate("!?", "a bold buy")
    mid = c.tree.ancestor_at(c.node, 4)
    c.goto(mid.id)
    play(c, 3, seed=9)  # a variation from move 4
    text = json.dumps(c.record_dict())
    d = GameBoardController(g, seed=0)
    d.load_record_data(json.loads(text))
    assert [n.text for n in d.tree.main_line()] == [n.text for n in c.tree.main_line()]
    assert len(d.tree.nodes) == len(c.tree.nodes)
    rows = d.view()["moves"]
    assert any(r["sign"] == "!?" and r["comment"] == "a bold buy" for r in rows)
    bad = json.loads(text)
    bad["actions"][2] = "zz@q9"
    with pytest.raises(WidgetError, match="move 3"):
        d.load_record_data(bad)
    with pytest.raises(WidgetError, match="newer"):
        d.load_record_data({**json.loads(text), "version": 99})


def test_outcome_diff_compares_what_actions_do() -> None:
    c = GameBoardController(games.get("cursed-lands"))
    c.pick_scenario("combat-counter-kill.yaml")
    d = c.compare("counterattack=none")
    assert d["n_added"] == d["n_removed"] == 0  # the same legal actions ...
    assert any(not o["same"] and o["what"] == "e3xe4" for o in d["outcomes"])  # ... that do different things
    assert d["svg"].startswith("<svg") and "under counterattack=none" in d["svg"]  # the position under the variant
    b = GameBoardController(games.get("big-chess"))
    d = b.compare("cost_knight=50")
    assert {"what": "price of Knight", "now": "30", "then": "50", "same": False} in d["outcomes"]


def test_export_svg_draws_the_position_on_its_own_board() -> None:
    c = GameBoardController(games.get("big-chess"))
    c.pick_scenario("bc-01-geometry-rock-blocks-leap.yaml")
    svg = c.export_svg()
    assert svg.startswith("<svg") and svg.count('data-cell="') == 49


def test_export_svg_of_a_game_without_cells_draws_its_observation_in_dark_text() -> None:
    """A text-only board's picture holds its observation, every row a dark ``<text>`` (it was a title over nothing)."""
    import xml.etree.ElementTree as ET

    c = GameBoardController(games.get("openspiel:tic_tac_toe"))
    c.choose(4)
    tree = ET.fromstring(c.export_svg())
    rows = [t for t in tree.iter("{http://www.w3.org/2000/svg}text") if t.get("class") == "observation"]
    assert [t.text for t in rows] == c.state.observation_string().splitlines() and "x" in rows[1].text
    assert all(t.get("fill") == "#1a1a1a" for t in rows)  # dark on the white ground
    assert float(tree.get("width")) >= 7 * len(f"{c.game.title}: {c.status()}")  # the title fits


def test_an_openspiel_game_without_cells_plays_by_buttons_over_its_observation() -> None:
    c = GameBoardController(games.get("openspiel:tic_tac_toe"))
    assert c.geometry()["cells"] == []
    v = c.view()
    assert "..." in v["observation"] and len(v["buttons"]) == 9
    while not c.state.is_terminal():
        c.choose(0)
    v = c.view()
    assert v["over"] and v["moves"][-1]["result"]


@pytest.fixture(scope="module")
def batch(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    from workbench.simulate import simulate

    tmp = tmp_path_factory.mktemp("batch")
    with_events, without = tmp / "pole.parquet", tmp / "noevents.parquet"
    simulate([{"max_turns": 30}], "greedy", "greedy", 4, seed=3, workers=0, events=True, out=with_events,
             progress=False, game="pole")
    simulate([{"max_turns": 30}], "greedy", "greedy", 1, seed=3, workers=0, out=without, progress=False, game="pole")
    return {"events": with_events, "none": without}


def test_a_game_of_a_batch_steps_through_its_events_and_rolls(batch: dict[str, object]) -> None:
    from workbench.simulate.dataset import read_events, read_results
    from workbench.widget.board import Board

    path = batch["events"]
    games_df = read_results(path)
    b = Board.from_batch(path, where="plies == plies.max()")
    gid = int(games_df.sort_values("plies").iloc[-1]["game_id"])
    events = read_events(path)
    mine = events[events["game_id"] == gid]
    assert [n.text for n in b.controller.tree.main_line()] == list(mine["action"])
    assert b.controller.node is b.controller.tree.root and len(b.batch) == 4
    b.redo()
    assert b.view["moves"][0]["text"] == mine["action"].iloc[0]
    b.pick_game(int(games_df["game_id"].iloc[0]))
    assert b.view["level"] == "info" and "game" in b.view["scenario"]
    with pytest.raises(WidgetError, match="no events table"):
        Board.from_batch(batch["none"])


def test_variations_drawings_drag_copy_paste_and_best_lines() -> None:
    from workbench.widget.board import GameBoard

    b = GameBoard("pole", seed=5)
    c = b.controller
    play(c, 6)
    line = c.copy_text("moves").splitlines()
    position = c.copy_text("position")
    c.goto(c.tree.ancestor_at(c.node, 3).id)
    play(c, 2, seed=8)  # a variation
    var = c.node
    assert not var.is_main()
    b._on_msg(b, {"type": "shape", "from": "a1", "to": "d4", "colour": "green"}, [])
    b._on_msg(b, {"type": "shape", "from": "e5", "to": "e5", "colour": "red"}, [])
    assert b.view["shapes"] == {"arrows": [["a1", "d4", "green"]], "circles": [["e5", "red"]]}
    assert c.record_dict()["variations"][0]["shapes"]  # drawings travel with the record
    b._on_msg(b, {"type": "main_line"}, [])
    assert c.node.is_main()
    b._on_msg(b, {"type": "promote", "id": var.id}, [])
    assert var.is_main()
    b._on_msg(b, {"type": "delete", "id": var.id}, [])
    assert var.id not in c.tree.nodes and b.view["level"] == "info"
    d = GameBoard("pole", seed=5)
    d._on_msg(d, {"type": "paste", "text": "\n".join(line)}, [])
    assert d.controller.copy_text("moves").splitlines() == line
    d._on_msg(d, {"type": "paste", "text": position}, [])
    assert d.controller.state.to_dict() == c.game.state_from_dict(__import__("json").loads(position)).to_dict()
    d._on_msg(d, {"type": "paste", "text": "zz@q99"}, [])
    assert d.view["level"] == "error" and "pasted move 1" in d.view["message"]
    d._on_msg(d, {"type": "drag", "from": "d1", "to": "d1"}, [])  # a drag onto itself selects nothing
    lines = d.controller.analyse(depth=1, lines=2, length=3)
    assert len(lines) == 2 and all(1 <= len(x["moves"]) <= 3 for x in lines) and lines[0]["moves"][0] != lines[1]["moves"][0]
    d.analysis(True)
    import time

    deadline = time.time() + 30
    while not d.view.get("lines") and time.time() < deadline:
        time.sleep(0.1)
    got = d.view.get("lines")
    d.analysis(False)
    assert got and got[0]["moves"] and got[0]["unit"] == "coins"


def test_the_last_move_and_what_it_removed_are_marked() -> None:
    c = GameBoardController(games.get("cursed-lands"))
    c.pick_scenario("combat-counter-kill.yaml")
    c.play_text("e3xe4")  # the counterattack removes the attacker
    last = c.view()["last"]
    assert last["cells"] == ["e3", "e4"] and "e3" in last["removed"]


def test_terrafeud_on_the_general_board_loads_a_scenario_by_path_from_the_notebook() -> None:
    from pathlib import Path

    from workbench.widget.board import Board

    b = Board("terrafeud")
    path = Path(__file__).resolve().parents[1] / "scenarios" / "terrafeud" / "rulebook" / "archer-melee.yaml"
    b.load_scenario(str(path))
    assert b.view["level"] in ("info", "warn") and b.view["scenario"] == "archer-melee.yaml", b.view["message"]
    p = Board("pole")
    p.load_scenario(path)
    assert p.view["level"] == "error" and "not of pole" in p.view["message"], p.view["message"]
    b._on_msg(b, {"type": "pick_scenario", "name": str(path)}, [])  # the page cannot name a path
    assert b.view["level"] == "error" and str(path.parent) not in b.view["message"]


def test_big_chess_cards_show_their_pattern_diagram() -> None:
    from workbench.widget.board import GameBoard

    b = GameBoard("big-chess")
    b.click(b.view["lit"][0])
    knight = next(k for k in b.view["palette"] if k["card"] == "Knight")
    b._on_msg(b, {"type": "pattern", "card": knight["pattern"]}, [])
    assert b.view["pattern"]["svg"].startswith("<svg") and "data-offset" in b.view["pattern"]["svg"]
    b._on_msg(b, {"type": "pattern", "card": "<script>"}, [])
    assert b.view["level"] == "error"


@pytest.mark.parametrize("kind", ["record", "scenario", "svg"])
def test_downloads_from_the_page(kind: str) -> None:
    from workbench.widget.board import GameBoard

    b = GameBoard("pole", seed=5)
    b._on_msg(b, {"type": "download", "kind": kind}, [])
    assert b.view["level"] == "info" and b.download["text"] and b.download["name"].startswith("pole-"), b.view["message"]
