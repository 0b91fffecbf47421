"""``workbench limits``: the limit sweep, its table and the rule of its sentences (docs/balance.md)."""

from __future__ import annotations

import pandas as pd
import pytest

from workbench.study.limits import limit_param, limit_rows, main, verdict


def _planted(decided: dict[int, tuple[int, int]], games: int = 100) -> pd.DataFrame:
    """A games table with, per turn_limit, the planted (first seat wins, second seat wins); the rest drawn."""
    rows = []
    for value, (first, second) in decided.items():
        for i in range(games):
            winner = "p1" if i < first else "p2" if i < first + second else "none"
            rows.append({"game": "cursed-lands", "players": "p1,p2", "turn_limit": value, "winner": winner,
                         "outcome": "draw" if winner == "none" else "win", "plies": 10 * value, "error": None})
    return pd.DataFrame(rows)


def test_the_limit_rule_is_the_one_the_game_declares() -> None:
    assert limit_param("cursed-lands") == "turn_limit"
    with pytest.raises(ValueError, match="no limit rule 'factions'"):
        limit_param("cursed-lands", "factions")
    with pytest.raises(ValueError, match="name one with --param"):
        limit_param("big-chess")  # two limit rules: the user names one


def test_a_limit_that_cuts_games_short_reads_the_limit_makes_draws() -> None:
    rows = limit_rows(_planted({400: (32, 28), 100: (11, 9)}), "turn_limit")
    assert [r.value for r in rows] == [100, 400] and [r.decided for r in rows] == [20, 60]
    assert rows[1].first_wins == 32 and rows[1].second_wins == 28
    text = verdict(rows, "turn_limit")
    assert text[0].startswith("The limit makes draws: 20% of games decided at turn_limit=100, 60% at turn_limit=400")
    assert "40% [31%, 50%] of the games are still undecided" in text[1]
    assert text[2].startswith("No first-seat edge is shown: the first seat wins 54% [43%, 64%] of 80 decided")


def test_a_flat_sweep_shows_no_effect_and_a_planted_edge_is_named() -> None:
    rows = limit_rows(_planted({100: (30, 10), 200: (31, 9)}), "turn_limit")
    text = verdict(rows, "turn_limit")
    assert text[0].startswith("No effect of the limit on the draws is shown")
    assert text[2].startswith("The first seat has an edge: it wins 76% [66%, 84%] of 80 decided games")
    assert "nan" not in " ".join(text)


def test_the_command_plays_the_sweep_and_refuses_bad_values(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--game", "cursed-lands", "--agents", "random", "--games", "2", "--workers", "0", "--no-progress"]
    assert main([*args, "--values", "1,2", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("| turn_limit | games | decided | first seat wins |")
    assert "| 1 | 2 |" in out and "| 2 | 2 |" in out and "s of CPU" in out
    assert main([*args, "--values", "5"]) == 2
    assert "at least two different values of turn_limit" in capsys.readouterr().out
    assert main([*args, "--values", "5,10", "--rules", "turn_limit=3"]) == 2
