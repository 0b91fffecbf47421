"""The ply cap a tool uses when the user names none comes from the game (``GameInfo.default_max_plies``)."""

from __future__ import annotations

from workbench.games import get
from workbench.simulate import simulate
from workbench.simulate.protocol_play import DEFAULT_MAX_PLIES, default_max_plies
from workbench.study import ladder
from workbench.tune.runner import GameRunner


def test_pole_s_cap_is_its_own_turn_cap_in_plies_and_follows_the_rules() -> None:
    pole = get("pole")
    assert pole.info().default_max_plies == 400 * 3 == default_max_plies("pole")
    assert default_max_plies("pole", [pole.rules({"max_turns": 10}), pole.rules({"max_turns": 30})]) == 90
    assert default_max_plies("pole", [{"max_turns": 10, "purchases_per_turn": 3}]) == 50


def test_games_without_a_cap_keep_the_tool_s_default() -> None:
    assert DEFAULT_MAX_PLIES == 300 and ladder.LADDER_MAX_PLIES == 200
    assert default_max_plies("terrafeud") == 300
    assert default_max_plies("terrafeud", fallback=ladder.LADDER_MAX_PLIES) == 200
    assert get("big-chess").info().default_max_plies is None
    assert default_max_plies("big-chess") == 300


def test_simulate_and_tune_without_max_plies_let_pole_s_rules_end_the_game() -> None:
    df = simulate([{"max_turns": 150}], "random", "random", 2, seed=3, game="pole", workers=0, progress=False,
                  engine="python")
    assert list(df.max_plies) == [450, 450]
    assert ((df.victory == "prince") | (df.turns == 150)).all()  # the rules' cap, never the tool's
    tf = simulate(None, "random", "random", 1, seed=3, workers=0, progress=False, engine="python")
    assert list(tf.max_plies) == [300]  # TerraFeud's default stays
    pole = get("pole")
    runner = GameRunner(pole, ("random",), [{}], workers=0)
    assert runner.cap_for(pole.rules({"max_turns": 20})) == 60
    assert GameRunner(pole, ("random",), [{}], max_plies=77, workers=0).cap_for(pole.rules()) == 77
