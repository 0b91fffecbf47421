"""The general board's controller without a browser: every registered game played to its end by clicks
and buttons (a random legal action each time, entered the way a person enters it), plus the board's
chance rolls, undo across them, previews, explanations, palettes, scenarios, the rule diff and safety."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

import workbench.games as games
from workbench.core.protocol import CHANCE
from workbench.widget.board_controller import GameBoardController
from workbench.widget.common import WidgetError

sys.path.insert(0, str(Path(__file__).resolve().parent))
games.register("stones", "tinygame")


def enter(c: GameBoardController, action: object) -> None:
    """Enter ``action`` as a person does: click its cells in order, then press its button if one is asked for."""
    st = c.state
    text = st.action_to_string(action)
    cells = st.action_cells(action)
    start = c.node
    for cell in cells:
        if c.node is not start:
            break
        c.click(c.names[cell])
    if c.node is start:
        buttons = c.view()["buttons"]
        match = [b["index"] for b in buttons if b["text"] == text]
        assert match, f"{text}: no button after clicking {[c.names[x] for x in cells]} ({c.message})"
        c.choose(match[0])
    # the played node is the action (chance rolls may follow it)
    n = c.node
    while n.parent is not None and n.effects.get("player") == CHANCE:
        n = n.parent
    assert n.text == text and n.parent is start, (text, n.text)


def play_out(name: str, rules: str | None = None, seed: int = 1, limit: int = 3000) -> GameBoardController:
    g = games.get(name)
    c = GameBoardController(g, g.rules(rules) if rules else None, seed=seed)
    rng = random.Random(seed)
    plies = 0
    while not c.state.is_terminal() and plies < limit:
        enter(c, rng.choice(c.state.legal_actions()))
        plies += 1
    return c


@pytest.mark.parametrize(("name", "rules"), [
    ("stones", None),
    ("pole", "max_turns=60"),
    ("cursed-lands", "turn_limit=25"),
    ("big-chess", "start=army,max_turns=12"),
    ("terrafeud", None),
])
def test_a_whole_game_by_clicks_and_buttons(name: str, rules: str | None) -> None:
    c = play_out(name, rules, limit=4000 if name != "terrafeud" else 400)
    if name != "terrafeud":  # TerraFeud's random games run long: 400 plies by clicks suffice there
        assert c.state.is_terminal(), c.status()
        assert c.result_text()
    v = c.view()
    assert v["moves"] and v["status"]
    assert {g["cell"] for g in v["glyphs"]} <= set(c.names)


def test_pole_buy_then_attack_odds_dice_and_undo_across_the_roll() -> None:
    g = games.get("pole")
    c = GameBoardController(g, seed=5)
    # buy: a cell next to the fortress opens a palette whose buttons say what each piece costs
    c.click("d1")
    texts = [b["text"] for b in c.view()["buttons"] if "@" in b["text"]]
    assert len(texts) > 1 and all("@d1" in t for t in texts)
    assert all(b["price"] > 0 and str(b["price"]) in b["hint"] for b in c.view()["buttons"] if "@" in b["text"])
    c.cancel()
    assert "d1" in GameBoardController(g, seed=5).view()["buy_cells"]
    # play on by clicks until an attack is offered, then preview its odds on the target
    rng = random.Random(2)
    for _ in range(400):
        st = c.state
        attacks = [a for a in st.legal_actions() if "x" in st.action_to_string(a)]
        if attacks:
            break
        enter(c, rng.choice(st.legal_actions()))
    else:
        pytest.fail("no attack in 400 plies")
    a = attacks[0]
    cells = st.action_cells(a)
    c.click(c.names[cells[0]])
    previews = c.view()["previews"]
    target = c.names[cells[-1]]
    assert target in previews and previews[target]["odds"], previews.get(target)
    assert all(v.endswith("/36") for v in previews[target]["odds"].values())
    before = c.state.to_dict()
    ply = c.node.ply
    for cell in cells[1:]:
        c.click(c.names[cell])
    rows = c.view()["moves"]
    assert rows[-1]["chance"] and ":" in rows[-1]["text"], rows[-1]  # the dice, a move of its own
    assert c.node.ply == ply + 2
    c.undo()  # the roll goes back with the attack
    assert c.node.ply == ply and c.state.to_dict() == before
    c.redo()
    assert c.node.ply == ply + 2


def test_pole_roll_button_when_rolls_are_not_automatic() -> None:
    c = GameBoardController(games.get("pole"), seed=5, auto_roll=False)
    st = c.state
    rng = random.Random(3)
    for _ in range(400):
        if c.state.current_player() == CHANCE:
            break
        enter(c, rng.choice(c.state.legal_actions()))
    assert c.view()["chance"]
    with pytest.raises(WidgetError, match="Roll"):
        c.click("a1")
    c.roll()
    assert c.state.current_player() != CHANCE and st is c.state


def test_cursed_lands_tiles_production_end_turn_and_status() -> None:
    c = GameBoardController(games.get("cursed-lands"), seed=1)
    v = c.view()
    assert "ap 3" in v["status"] and "decks p1 count 32" in v["status"] and "castle hp p1 8" in v["status"], v["status"]
    assert {"+A", "end"} <= {b["text"] for b in v["buttons"]}
    c.choose([b["text"] for b in v["buttons"]].index("+A"))  # production
    assert "ap 2" in c.status()
    tile = next(a for a in c.state.legal_actions() if c.state.action_to_string(a).startswith("#"))
    enter(c, tile)  # one click lays the deck's top tile
    assert "tiles placed 1" in c.status() or "tiles_placed 1" in c.status()
    end = [b["index"] for b in c.view()["buttons"] if b["text"] == "end"]
    if end:
        c.choose(end[0])
        assert "Player 2 to move" in c.status()


def test_unlit_click_is_explained_by_the_game() -> None:
    c = GameBoardController(games.get("pole"), seed=5)
    c.click("j10")  # nothing of Red's starts there
    assert c.level == "warn" and "j10" in c.message


def test_big_chess_setup_palette_groups_and_four_players() -> None:
    g = games.get("big-chess")
    c = GameBoardController(g, g.rules("board=classic-4"), seed=1)
    assert c.info().num_players == 4
    v = c.view()
    assert "budget" in v["status"]
    cell = v["lit"][0]
    c.click(cell)
    buttons = c.view()["buttons"]
    assert len(buttons) > 24 and any("group" in b for b in buttons)


def test_rule_diff_and_new_game_and_agent() -> None:
    g = games.get("pole")
    c = GameBoardController(g, seed=5)
    d = c.compare("cost_B=9")  # Red's 5 coins no longer buy barracks on the first turn
    assert d["n_removed"] > 0 and all(t.startswith("B@") for t in d["removed"]) and not d["added"]
    with pytest.raises(WidgetError):
        c.compare("no_such_rule=1")
    with pytest.raises(WidgetError, match="max_turns"):
        c.new_game({"max_turns": "-5"})
    assert "capped" in c.set_agent(1, "mcts:iterations=10^9")
    assert 1 in c.agents
    with pytest.raises(WidgetError):
        c.set_agent(3, "greedy")


def test_the_general_board_takes_the_generic_agents_parameters_not_terrafeuds() -> None:
    """The general board plays the generic agents: ``rollout`` is a number of random actions, ``plan`` has a
    beam; TerraFeud's words and knobs (``rollout=eval``, ``qdepth``) are refused with the board's message."""
    c = GameBoardController(games.get("cursed-lands"), games.get("cursed-lands").rules("turn_limit=4"), seed=1)
    assert c.set_agent(0, "mcts:iterations=30,rollout=5").endswith("mcts:iterations=30,rollout=5,seconds=2.0")
    assert "beam 99 capped to 16" in c.set_agent(1, "plan:beam=99,reply=1")
    assert c.agents[1] == "plan:beam=16,reply=1"
    c.make_agent(c.agents[0]), c.make_agent(c.agents[1])  # both build: the caps are the agents' own ranges
    with pytest.raises(WidgetError, match="rollout=eval is not a number"):
        c.set_agent(0, "mcts:rollout=eval")
    with pytest.raises(WidgetError, match="unknown parameter 'qdepth'"):
        c.set_agent(0, "search:qdepth=2")
    with pytest.raises(WidgetError, match="unknown agent 'nosuch'"):
        c.set_agent(0, "nosuch")


def test_scenarios_pick_and_step_checks() -> None:
    c = GameBoardController(games.get("pole"), seed=0)
    rows = list(c.scenario_files())[:1]
    assert rows
    name = str(rows[0].relative_to(rows[0].parents[0]))
    c.pick_scenario(name)
    assert c.scenario_name == name and "checks" in c.message
    if c.check_results:
        c.step_check(1)
        assert c.check_text().startswith("check")
    with pytest.raises(WidgetError):
        c.pick_scenario("../../etc/passwd")


@pytest.mark.parametrize("msg", [
    None, [], {"type": "nope"}, {"type": "click"}, {"type": "click", "cell": 5}, {"type": "click", "cell": "x" * 500},
    {"type": "click", "cell": "zz99"}, {"type": "choose", "index": -1}, {"type": "choose", "index": True},
    {"type": "new_game", "rules": {"start": "/etc/passwd"}}, {"type": "new_game", "rules": "start=../x"},
    {"type": "pick_scenario", "name": "/etc/passwd"}, {"type": "agent", "seat": 99, "spec": "greedy"},
    {"type": "heat", "layer": "nonsense", "player": 0}, {"type": "goto", "node": 10**6}, {"type": "click", "cell": "a1", "x": 1},
])
def test_every_page_message_is_checked_and_fails_plainly(msg: object) -> None:
    from workbench.widget.board import GameBoard

    b = GameBoard("pole", seed=1)
    before = b.state.to_dict()
    b._on_msg(b, msg, [])
    b.wait()
    v = b.view
    assert v["level"] in ("error", "warn") and v["message"]
    assert "/work" not in v["message"] and "Traceback" not in v["message"] and "/etc" not in v["message"]
    assert b.state.to_dict() == before


def _native_built(name: str) -> bool:
    return games.get(name).native.available()


@pytest.mark.parametrize(("name", "rules", "spec"), [
    ("pole", "max_turns=20", "greedy"), ("pole", "max_turns=20", "alphabeta:depth=1"),
    ("cursed-lands", "turn_limit=10", "greedy"), ("cursed-lands", "turn_limit=10", "mcts:iterations=20")])
def test_the_board_s_agent_is_native_when_built_and_picks_what_python_picks(name: str, rules: str, spec: str) -> None:
    from workbench.agents.generic import make_protocol_agent

    if not _native_built(name):
        pytest.skip("the native core is not built (make native)")
    g = games.get(name)
    c = GameBoardController(g, g.rules(rules), seed=3)
    rng = random.Random(2)
    for _ in range(6):  # a few plies in (the board rolls the dice itself)
        enter(c, rng.choice(c.state.legal_actions()))
    assert c.state.current_player() >= 0
    agent = c.make_agent(spec)
    twin = make_protocol_agent(spec, g, c.rules, seed=c.seed + c.node.ply)
    assert agent.engine == "native" and c.agent_engine(spec) == "native"
    assert agent.select_action(c.state.clone()) == twin.select_action(c.state.clone())
    # the score the board's Evaluate reads: the twin's own, where it keeps one (alphabeta, mcts), else none
    assert getattr(agent, "score", None) == (getattr(twin, "score", None))
    python = c.make_agent(spec + (",engine=python" if ":" in spec else ":engine=python"))
    assert python.engine == "python" and c.agent_engine("greedy:engine=python") == "python"
    seat = c.state.current_player()
    c.set_agent(seat, spec)
    c.agent_move()
    assert "native engine" in c.message and c.last_engine == "native", c.message
    if not c.state.is_terminal() and c.state.current_player() >= 0:
        assert "(native engine)" in c.evaluate("greedy")


def test_an_unbuilt_core_plays_python_with_auto_and_refuses_engine_native(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("pole", "cursed-lands"):
        g = games.get(name)
        monkeypatch.setattr(type(g.native), "available", lambda self: False)
        c = GameBoardController(g, seed=1)
        assert c.agent_engine("greedy") == "python" and c.make_agent("greedy").engine == "python"
        with pytest.raises(WidgetError, match="not built"):
            c.make_agent("greedy:engine=native")
        c.set_agent(c.state.current_player(), "random")
        c.agent_move()
        assert "python engine" in c.message, c.message
    from workbench.core.protocol import NativeBackend

    chess = games.get("big-chess")  # without a native core: Python, and engine=native is refused by name
    monkeypatch.setattr(type(chess), "native", NativeBackend())
    c = GameBoardController(chess, chess.rules("start=army,max_turns=12"), seed=1)
    assert c.make_agent("greedy").engine == "python"
    with pytest.raises(WidgetError, match="no native core"):
        c.make_agent("greedy:engine=native")


def test_the_widget_s_agent_thread_says_which_engine_played() -> None:
    from workbench.widget.board import GameBoard

    b = GameBoard("cursed-lands", seed=1)
    b._on_msg(b, {"type": "agent", "seat": 0, "spec": "greedy:engine=python"}, [])
    b.wait()
    assert b.controller.node.ply > 0 and "python engine" in b.view["message"], b.view["message"]
    if _native_built("cursed-lands"):
        b = GameBoard("cursed-lands", seed=1)
        b._on_msg(b, {"type": "agent", "seat": 0, "spec": "greedy"}, [])
        b.wait()
        assert "native engine" in b.view["message"], b.view["message"]


def test_status_facts_come_from_the_declared_summary_method_with_its_default() -> None:
    """``State.summary`` is a declared method (``{}`` by default), called, never looked up: a game that declares none
    (the tiny test game) gets the turn and the side to move only; a game's own facts come from its override."""
    from workbench.core.protocol import State

    c = GameBoardController(games.get("stones"), seed=0)
    assert type(c.state).summary is State.summary and c.state.summary() == {}
    assert c.status() == "turn 1 · First to move", c.status()
    pole = GameBoardController(games.get("pole"), seed=0)
    assert type(pole.state).summary is not State.summary and "coins red 5" in pole.status(), pole.status()
