"""The section-15 turtle (``workbench/games/pole/turtle.py``): its rules of play, its registration through
``GameDef.game_agents`` (simulate, the board) and its native twin's identical choices."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from workbench.agents.generic import make_protocol_agent
from workbench.core.protocol import CHANCE
from workbench.games import get
from workbench.games.pole import apply_text, native
from workbench.games.pole.position import build_state
from workbench.games.pole.rules import P
from workbench.games.pole.state import MOVE0, NOBUY
from workbench.games.pole.tables import config
from workbench.simulate import simulate
from workbench.simulate.protocol_play import play_protocol_game, protocol_specs
from workbench.widget.board_controller import GameBoardController

G = get("pole")


def position(pieces: dict[str, str], phase: str = "act", coins: tuple[int, int] = (0, 0)) -> object:
    return build_state({"to_move": "red", "phase": phase, "coins": {"red": coins[0], "black": coins[1]},
                        "pieces": pieces}, config(G.rules()))


def turtle(seed: int = 0) -> object:
    return make_protocol_agent("turtle", G, G.rules(), seed=seed)


def test_the_turtle_is_pole_s_own_agent_and_no_other_game_s() -> None:
    assert "turtle" in G.game_agents() and turtle().name == "turtle"
    with pytest.raises(ValueError, match="unknown agent 'turtle'"):
        make_protocol_agent("turtle", get("big-chess"))
    with pytest.raises(ValueError, match="bad parameters"):
        make_protocol_agent("turtle:depth=2", G)


def test_it_buys_the_missing_buildings_first_on_the_cell_nearest_the_enemy_prince() -> None:
    s = G.new_initial_state(G.rules(), 0)
    act = turtle().select_action(s)
    assert s.action_to_string(act) == "B@d4"  # d4..g4 are 5 from e9; d4 is the first in board order
    apply_text(s, "B@d4")
    apply_text(s, "pass")
    assert s.action_to_string(turtle().select_action(s)) == "b@d7"  # Black's income makes 5: its barracks


def test_it_saves_for_a_missing_stable_then_buys_a_catapult_when_it_can() -> None:
    s = position({"e2": "P", "e9": "p", "d3": "B"}, phase="buy", coins=(2, 0))
    assert turtle().select_action(s) == NOBUY  # the stable (3) is missing and unaffordable: save
    s = position({"e2": "P", "e9": "p", "d3": "B", "d2": "S"}, phase="buy", coins=(4, 0))
    assert s.action_to_string(turtle().select_action(s)) == "C@d4"
    s = position({"e2": "P", "e9": "p", "d3": "B", "d2": "S"}, phase="buy", coins=(3, 0))
    kinds = {s.action_to_string(turtle(seed).select_action(s))[0] for seed in range(30)}
    assert kinds == {"I", "A", "H"}  # a random unit, always on the nearest free cell


def test_it_shoots_at_the_enemy_prince_at_any_odds_then_attacks_at_one_third() -> None:
    # an infantryman next to a Prince in its fortress: 1/36, still taken before a 15/36 attack elsewhere
    s = position({"e2": "P", "e9": "p", "d8": "I", "b5": "A", "b6": "i"})
    assert s.success_count(37, 48) == 1
    assert s.action_to_string(turtle().select_action(s)) == "d8xe9"
    s = position({"e2": "P", "e9": "p", "b5": "I", "b6": "a", "h5": "I", "h6": "c"})
    assert s.action_to_string(turtle().select_action(s)) == "b5xb6"  # 15/36 on the archer; 6/36 on the catapult
    s = position({"e2": "P", "e9": "p", "h5": "I", "h6": "c"})
    assert s.action_to_string(turtle().select_action(s)) != "h5xh6"  # 6/36 < 1/3: march instead


def test_it_marches_and_never_moves_its_prince() -> None:
    s = position({"e2": "P", "e9": "p", "a1": "I"})
    act = turtle().select_action(s)
    assert s.action_to_string(act) in ("a1-a2", "a1-b2")  # 7 from e9 (a1 and b1 are 8); the tie drawn
    s = G.new_initial_state(G.rules({"max_turns": 120}), 4)
    agents, dice = [turtle(1), turtle(2)], random.Random(4)
    while not s.is_terminal():
        if s.current_player() == CHANCE:
            s.apply_action(dice.randrange(36))
            continue
        act = agents[s.current_player()].select_action(s)
        if MOVE0 <= act < 10702:
            assert (s.board[(act - MOVE0) // 100] - 1) & 7 != P
        s.apply_action(act)
    assert s.prince_of(0) in (None, 41) and s.prince_of(1) in (None, 48)  # still on e2 and e9


def test_simulate_and_the_board_play_it() -> None:
    df = simulate(None, "turtle", "greedy", 2, seed=1, game="pole", workers=0, progress=False, max_plies=200,
                  engine="python")
    assert set(df.agent_red) | set(df.agent_black) == {"turtle", "greedy"} and (df.victory != "error").all()
    board = GameBoardController(G, seed=2)
    assert board.set_agent(0, "turtle") == "Red: turtle"
    action, _, _ = board.think()
    assert action in board.state.legal_actions()


@pytest.mark.skipif(not native.available(), reason="the native core is not built (make native)")
@pytest.mark.parametrize("values", [{}, {"attack_mode": "all", "start_coins": 9}, {"purchases_per_turn": 2}])
def test_the_native_twin_plays_the_same_games(values: dict) -> None:
    values = {**values, "max_turns": 150}
    for spec in protocol_specs("pole", [G.spec.make(values)], ("turtle",), 2, 5, 100_000, True,
                               "native"):
        n, p = play_protocol_game(spec), play_protocol_game(replace(spec, engine="python"))
        assert (n.row["engine"], p.row["engine"]) == ("native", "python")
        drop = ("seconds", "engine")
        assert {k: v for k, v in n.row.items() if k not in drop} == {k: v for k, v in p.row.items() if k not in drop}
        assert n.events == p.events
