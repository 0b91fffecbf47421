"""Team games in the generic balance report: the sides are the teams (``ab,cd``), fair is one in as many teams,
each team's wins and score carry intervals, and a table without teams reads as before."""

from __future__ import annotations

import pandas as pd
import pytest

from workbench.balance.cells import summarize_cells
from workbench.balance.compare import compare_toggles
from workbench.balance.report import build_report, summary_table
from workbench.balance.table import first_side_won, parse_rules_label, teams_of


def _games(teams: str, winners: list[str], draws: int = 0, players: str = "a,b,c,d") -> pd.DataFrame:
    rows = []
    for w in [*winners, *["none"] * draws]:
        rows.append({"game": "big-chess", "players": players, "teams": teams, "rules": f"teams={teams},max_turns=80",
                     "winner": w, "outcome": "win" if w != "none" else "draw", "victory": "king" if w != "none" else "draw",
                     "plies": 100, "turns": 40, "max_plies": 5000, "agent_a": "greedy", "agent_b": "greedy",
                     "agent_c": "greedy", "agent_d": "greedy"})
    return pd.DataFrame(rows)


def test_rules_labels_with_comma_values_parse() -> None:
    assert parse_rules_label("teams=ab,cd,max_turns=80") == {"teams": "ab,cd", "max_turns": "80"}
    assert parse_rules_label("max_turns=80,teams=a,b,c,d") == {"max_turns": "80", "teams": "a,b,c,d"}


def test_teams_are_the_sides_and_fair_is_one_in_two() -> None:
    # ab,cd: the winner column holds the first seat of the winning team (a or c); 20 wins each, 10 draws
    games = _games("ab,cd", ["a"] * 20 + ["c"] * 20, draws=10)
    assert teams_of(games) == ("ab", "cd")
    row = summarize_cells(games).iloc[0]
    assert row["advantage"] == pytest.approx(0.5) and row["fair"] == 0.5
    assert row["b_rate"] == row["a_rate"] == pytest.approx(0.4)  # a seat wins when its team wins
    assert not row["verdict"].startswith("favours")  # 50% of decided games is fair for two teams, not 25%
    names = [t[0] for t in row["team_results"]]
    assert names == ["team ab", "team cd"]
    ab = row["team_results"][0]
    assert ab[1] == 20 and ab[2] == pytest.approx(0.4) and ab[5] == pytest.approx((20 + 5) / 50)  # score, draws 1/2
    shown = summary_table(summarize_cells(games), ("a", "b", "c", "d"), "turns").iloc[0]
    assert shown["moves first"] == "team ab"
    assert shown["win % of all games by team [95% CI]"].startswith("ab 40.0 [") and "; cd 40.0 [" in shown[
        "win % of all games by team [95% CI]"]
    assert shown["score % by team (draws 1/k) [95% CI]"].startswith("ab 50.0 [")


def test_a_strong_first_team_is_called_and_the_other_team_named() -> None:
    row = summarize_cells(_games("ab,cd", ["a"] * 45 + ["c"] * 5)).iloc[0]
    assert row["verdict"].startswith("favours Team ab")
    row = summarize_cells(_games("ab,cd", ["a"] * 5 + ["c"] * 45)).iloc[0]
    assert row["verdict"].startswith("favours Team cd (Team ab 10%")


def test_ac_bd_cells_and_comparisons_count_the_first_seats_team() -> None:
    # with ac,bd the first seat's team is ac; its wins are recorded as winner a (the team's first seat)
    games = pd.concat([_games("ab,cd", ["a"] * 10 + ["c"] * 30), _games("ac,bd", ["a"] * 30 + ["b"] * 10)],
                      ignore_index=True)
    assert list(first_side_won(games)) == [True] * 10 + [False] * 30 + [True] * 30 + [False] * 10
    summary = summarize_cells(games)
    by_teams = {r["sides"]: r for r in summary.to_dict("records")}
    assert by_teams["ab,cd"]["advantage"] == pytest.approx(0.25) and by_teams["ac,bd"]["advantage"] == pytest.approx(0.75)
    (c,) = compare_toggles(games)
    assert c.seat == "a's team" and c.adv_baseline == pytest.approx(0.25) and c.adv_variant == pytest.approx(0.75)
    assert "A's team's share of decided games" in c.verdict()


def test_report_names_teams_not_white_and_black() -> None:
    games = pd.concat([_games("ab,cd", ["a"] * 12 + ["c"] * 12), _games("ac,bd", ["a"] * 12 + ["b"] * 12)],
                      ignore_index=True)
    md = build_report(games, n_boot=50).markdown()
    assert md.startswith("# Big Chess balance report")
    assert "Teams ab,cd and ac,bd: a seat wins when its team wins" in md
    assert "| team ab |" in md and "| team ac |" in md and "White" not in md


def test_every_seat_for_itself_keeps_seats() -> None:
    games = _games("a,b,c,d", ["a"] * 10 + ["b"] * 10 + ["c"] * 10 + ["d"] * 10)
    assert teams_of(games) is None
    row = summarize_cells(games).iloc[0]
    assert "team_results" not in row.index and row["advantage"] == pytest.approx(0.25)
    assert row["verdict"].startswith("no clear advantage") or row["verdict"].startswith("balanced")
    assert "A share of decided % [95% CI]" in summary_table(summarize_cells(games), ("a", "b", "c", "d")).columns


def test_another_games_counter_named_like_a_terrafeud_parameter_is_no_cell() -> None:
    # big chess's rows count promotions in ``promotion``, TerraFeud's parameter of that name; no cell split
    games = _games("ab,cd", ["a"] * 10 + ["c"] * 10)
    games["promotion"] = [0, 1, 2, 0, 5] * 4
    summary = summarize_cells(games)
    assert len(summary) == 1 and summary.iloc[0]["games"] == 20
