"""Synthetic tables whose truth is known: capped cells are never balanced, decisiveness is not advantage,
the cap is one per study, generic tables (any seats, a rules label, agent_<seat>) read the same way,
and a rule's effect against agent strength."""

from __future__ import annotations

import math

import pandas as pd
import pytest
from lifelines import KaplanMeierFitter

from workbench.balance import BalanceError, build_report, compare_toggles, summarize_cells
from workbench.balance.skill import has_skill_levels, pairings, skill_trends
from workbench.balance.table import derive_outcome, normalize, study_of


def exact_games(cells: dict[str, tuple[int, int, int, int]], cap: int = 120, column: str = "season",
                **fixed: object) -> pd.DataFrame:
    """Games with exact counts per cell value: (white wins, black wins, draws, unfinished); lengths spread
    1..cap-1 for finished games, the cap for unfinished ones."""
    rows, gid = [], 0
    for value, (w, b, d, u) in cells.items():
        for winner, victory, k in (("white", "castle", w), ("black", "destroyed", b), ("none", "draw", d),
                                   ("none", "unfinished", u)):
            for i in range(k):
                plies = cap if victory == "unfinished" else 20 + (7 * i) % (cap - 21)
                rows.append({"game_id": gid, column: value, "winner": winner, "victory": victory, "plies": plies,
                             "max_plies": cap, "white_agent": "greedy", "black_agent": "greedy", **fixed})
                gid += 1
    return pd.DataFrame(rows)


def test_an_all_capped_cell_is_never_called_balanced() -> None:
    games = exact_games({"summer": (500, 500, 0, 0), "winter": (0, 0, 0, 60)})
    s = summarize_cells(games).set_index("season")
    assert s.loc["summer", "verdict"].startswith("balanced")  # 1,000 decided games at exactly 50%
    winter = s.loc["winter"]
    assert winter["flagged"] and winter["unfinished_rate"] == 1.0 and math.isnan(winter["advantage"])
    assert math.isnan(winter["balance"]) and s.loc["summer", "balance"] == 1.0  # was 1.000 for the capped cell
    assert "balanced" not in winter["verdict"] and "no balance verdict" in winter["verdict"]
    assert math.isinf(winter["length_median"])  # every game cut: the median is not reached, not "120"
    md = build_report(games, n_boot=50).markdown()
    row = next(line for line in md.splitlines() if line.startswith("| season=winter"))
    assert "balanced" not in row and "⚠" in row
    assert "⚠ season=winter: 100% of its 60 games are unfinished (over the 20% threshold)" in md


def test_a_mostly_capped_even_cell_is_flagged_not_balanced() -> None:
    # the case: 73% unfinished, the rest split evenly; the old "balance 1.000"
    games = exact_games({"summer": (500, 500, 0, 0), "winter": (135, 135, 0, 730)})
    winter = summarize_cells(games, threshold=0.2).set_index("season").loc["winter"]
    assert winter["flagged"] and winter["advantage"] == 0.5 and "balanced" not in winter["verdict"]
    relaxed = summarize_cells(games, threshold=0.8).set_index("season").loc["winter"]
    assert not relaxed["flagged"]  # the threshold is a parameter
    assert not relaxed["verdict"].startswith("balanced")  # 270 decided games: interval too wide for +-5 points


def test_few_decided_games_are_no_clear_advantage_not_balanced() -> None:
    s = summarize_cells(exact_games({"summer": (15, 15, 0, 0), "winter": (16, 14, 0, 0)})).set_index("season")
    assert all(v.startswith("no clear advantage") for v in s["verdict"])


def test_raising_both_sides_wins_equally_is_decisiveness_not_advantage() -> None:
    # summer: 300 White, 300 Black, 400 unfinished; winter: 400, 400, 200 (both +10 points of all games)
    games = exact_games({"summer": (600, 600, 0, 800), "winter": (800, 800, 0, 400)}, cap=200)
    (c,) = compare_toggles(games, n_boot=200)
    assert c.decisive_significant and c.dec_diff == pytest.approx(0.2)
    assert not c.significant and c.adv_baseline == c.adv_variant == 0.5 and c.diff == 0
    assert c.moved()[0] == "decisiveness" and "advantage" not in c.moved()
    v = c.verdict()
    assert v.startswith("Winter: games are more decisive (+20.0 points, 80% vs 60% decided, 95% CI [")
    assert "White's share of decided games is unchanged (50% vs 50%, +0.0 points" in v
    assert "White wins" not in v
    assert "Caution: 40% of summer games are unfinished" in v


def test_a_real_advantage_with_equal_decisiveness() -> None:
    games = exact_games({"summer": (450, 450, 0, 100), "winter": (560, 340, 0, 100)})
    (c,) = compare_toggles(games, n_boot=100)
    assert c.moved()[0] == "advantage" and not c.decisive_significant
    assert c.verdict().startswith("Winter: White's share of decided games rises (62% vs 50%, +12.2 points")
    assert "decisiveness is unchanged (90% vs 90% decided" in c.verdict()


def test_censored_lengths_match_lifelines_in_a_cell() -> None:
    games = exact_games({"summer": (30, 25, 6, 20)}, cap=90)
    r = summarize_cells(games).iloc[0]
    finished = games["victory"] != "unfinished"
    kmf = KaplanMeierFitter().fit(games["plies"], finished)
    assert r["length_median"] == kmf.median_survival_time_ == 57
    assert r["unfinished"] == 20 and r["draws"] == 6 and r["decided"] == 55
    assert r["score"] == pytest.approx((30 + 3) / 61)  # draws as halves, unfinished left out
    # one draw fewer: 40 of 80 games still running after 57 plies, S(57) = 1/2 exactly, so the median is 57
    # by hand (the first length where S <= 1/2); lifelines' floating sum lands a hair above 1/2 and says 62
    tie = exact_games({"summer": (30, 25, 5, 20)}, cap=90)
    assert summarize_cells(tie).iloc[0]["length_median"] == 57


def test_outcome_is_derived_and_draws_are_not_unfinished() -> None:
    assert derive_outcome("white", "castle") == "win"
    assert derive_outcome("none", "draw") == "draw" and derive_outcome("none", "repetition") == "draw"
    assert derive_outcome("none", "unfinished") == "unfinished"
    games = normalize(exact_games({"summer": (1, 1, 1, 1)}))
    assert list(games["outcome"]) == ["win", "win", "draw", "unfinished"]


def test_one_cap_per_study() -> None:
    a = exact_games({"summer": (5, 5, 0, 2)}, cap=120)
    b = exact_games({"summer": (5, 5, 0, 2)}, cap=160).assign(game_id=lambda d: d["game_id"] + 100)
    mixed = pd.concat([a, b], ignore_index=True)
    with pytest.raises(BalanceError, match=r"mixes caps: 120 plies \(12 games\), 160 plies \(12 games\)"):
        build_report(mixed, n_boot=20)
    report = build_report(mixed, n_boot=20, mixed_caps="warn")
    assert report.markdown().split("## Summary")[0].count("WARNING: The table mixes caps") == 1
    assert "Cap: 120 plies (the table's max_plies column)" in build_report(a, n_boot=20).markdown()
    inferred = study_of(normalize(a.drop(columns="max_plies")))
    assert inferred.cap == 120 and "inferred" in inferred.cap_source
    assert study_of(normalize(a.drop(columns="max_plies")), {"max_plies": 150}).cap == 150


def test_a_generic_table_with_its_own_seats_rules_and_agents() -> None:
    rows, gid = [], 0
    for rules, (p1, p2, draw, cut) in (("", (40, 40, 10, 10)), ("wind=strong", (60, 20, 10, 10))):
        for winner, outcome, k in (("p1", "win", p1), ("p2", "win", p2), ("none", "draw", draw),
                                   ("none", "unfinished", cut)):
            for _ in range(k):
                rows.append({"game_id": gid, "game": "pole", "players": "p1,p2", "rules": rules, "winner": winner,
                             "victory": "stalemate" if outcome == "draw" else ("unfinished" if outcome == "unfinished"
                                                                               else "goal"),
                             "outcome": outcome, "plies": 80 if outcome == "unfinished" else 30 + gid % 40,
                             "turns": 40 if outcome == "unfinished" else 15 + gid % 20, "max_plies": 80,
                             "agent_p1": "greedy", "agent_p2": "greedy"})
                gid += 1
    games = pd.DataFrame(rows)
    s = summarize_cells(games).set_index("wind")
    assert s.loc["default", "advantage"] == 0.5 and s.loc["strong", "advantage"] == 0.75
    assert "p1_rate" in s.columns and s.loc["strong", "p1_wins"] == 60
    (c,) = compare_toggles(games, n_boot=50)
    assert (c.column, c.baseline, c.variant) == ("wind", "default", "strong")
    assert c.verdict().startswith("Wind strong: P1's share of decided games rises (75% vs 50%")
    md = build_report(games, title="Pole", n_boot=50).markdown()
    assert "200 games of pole (P1, P2; P1 moves first)" in md and "median turns" in md


def test_a_rules_effect_against_agent_strength() -> None:
    weak = exact_games({"summer": (250, 250, 0, 0), "winter": (260, 240, 0, 0)})
    strong = exact_games({"summer": (250, 250, 0, 0), "winter": (350, 150, 0, 0)}).assign(
        white_agent="alphabeta:depth=2", black_agent="alphabeta:depth=2", game_id=lambda d: d["game_id"] + 10_000)
    middle = exact_games({"summer": (250, 250, 0, 0), "winter": (300, 200, 0, 0)}).assign(
        white_agent="alphabeta:depth=1", black_agent="alphabeta:depth=1", game_id=lambda d: d["game_id"] + 20_000)
    games = pd.concat([strong, weak, middle], ignore_index=True)
    assert has_skill_levels(games)
    assert pairings(games) == ["greedy vs greedy", "alphabeta:depth=1 vs alphabeta:depth=1",
                               "alphabeta:depth=2 vs alphabeta:depth=2"]
    (trend,) = skill_trends(games)
    assert trend.effects == pytest.approx([0.02, 0.10, 0.20]) and trend.change == pytest.approx(0.18)
    assert "grows with skill: +2 → +10 → +20 points" in trend.sentence()
    md = build_report(games, n_boot=50).markdown()
    assert "## Does the verdict depend on skill?" in md and "grows with skill" in md
    assert "Agent pairings are not compared here" in md and "White agent" not in md
    assert "](figures/advantage_by_strength.png)" in md


def test_an_effect_that_fades_with_skill_is_said_to_shrink() -> None:
    weak = exact_games({"summer": (250, 250, 0, 0), "winter": (350, 150, 0, 0)}).assign(
        white_agent="random", black_agent="random")
    strong = exact_games({"summer": (250, 250, 0, 0), "winter": (255, 245, 0, 0)}).assign(
        game_id=lambda d: d["game_id"] + 10_000)
    (trend,) = skill_trends(pd.concat([weak, strong], ignore_index=True))
    assert trend.levels == ["random vs random", "greedy vs greedy"]
    assert "shrinks with skill" in trend.sentence()


def test_rule_usage_reads_any_seats_counters() -> None:
    from workbench.balance.usage import rule_association, rule_names, usage_matrix, usage_summary

    rows = []
    for gid in range(40):
        wind = "strong" if gid % 2 else ""
        rows.append({"game_id": gid, "players": "p1,p2", "rules": f"wind={wind}" if wind else "", "plies": 30,
                     "winner": "p1" if gid % 4 < 2 else "p2", "victory": "goal", "max_plies": 80,
                     "rule_gust_p1": 3 if wind else 0, "rule_gust_p2": 1 if wind else 0,
                     "rule_tack_p1": gid % 3, "rule_tack_p2": 1, "rule_calm_p1": 0, "rule_calm_p2": 0})
    games = pd.DataFrame(rows)
    assert rule_names(normalize(games)) == ["gust", "tack", "calm"]
    summary = usage_summary(games)
    assert {"p1_mean", "p2_mean"} <= set(summary.columns)
    mean, dead = usage_matrix(summary)
    assert list(mean.index) == ["gust", "tack", "calm"]  # gust appears with strong wind: the biggest change
    assert dead.loc["gust", "wind=default"] and not dead.loc["gust", "wind=strong"] and dead.loc["calm"].all()
    assert mean.loc["gust", "wind=strong"] == 4.0 and mean.loc["gust", "change"] == 1.0
    assert len(rule_association(games)) == 2


def test_the_cap_the_caller_played_with() -> None:
    fresh = exact_games({"summer": (5, 5, 0, 2)}, cap=120).drop(columns="max_plies")
    md = build_report(fresh, n_boot=20, max_plies=120).markdown()
    assert "Cap: 120 plies (given by the caller, as played). 2 of 12 games (17%) reached it" in md
    with pytest.raises(BalanceError, match="max_plies=90 but the table's max_plies column says"):
        build_report(exact_games({"summer": (5, 5, 0, 2)}, cap=120), n_boot=20, max_plies=90)
