"""Rule usage and response curves on synthetic tables whose answers are known by construction."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sp
from test_balance_cells import game_row

from workbench.balance import build_report, compare_toggles
from workbench.balance.curves import curve_parameters, curve_sentence, response_curve
from workbench.balance.stats import BalanceError, wilson_interval
from workbench.balance.usage import (
    association_sentences,
    change_sentences,
    dead_rule_sentences,
    parse_fired,
    rule_association,
    rule_locations,
    rule_names,
    usage_changes,
    usage_summary,
    welch,
)

RULES = ("ford_stop", "order", "mine_kill")


def counted(game_id: int, winner: str, season: str = "summer", counts: dict | None = None, plies: int = 40,
            **extra: object) -> dict:
    """A games row with rule counters: ``counts`` maps rule -> (white, black); unlisted rules are 0."""
    row = game_row(game_id, winner, "destroyed" if winner != "none" else "unfinished", plies, season, **extra)
    for rule in RULES:
        w, b = (counts or {}).get(rule, (0, 0))
        row[f"rule_{rule}_white"], row[f"rule_{rule}_black"] = w, b
    return row


def seasons_table() -> pd.DataFrame:
    """Summer: ford stops 2.1 per game, Orders 2.0; winter: no ford stops, Orders 2.7 (+35%)."""
    summer_ford = [2] * 9 + [3]
    summer_order = [1, 3] * 5
    winter_order = [2, 3, 3, 3, 2, 3, 3, 2, 3, 3]
    rows, gid = [], 0
    for _ in range(4):
        for i in range(10):
            rows.append(counted(gid, "white" if i % 2 else "black", "summer",
                                {"ford_stop": (summer_ford[i], 0), "order": (summer_order[i], 0)}))
            gid += 1
            rows.append(counted(gid, "white" if i % 2 else "black", "winter", {"order": (0, winter_order[i])}))
            gid += 1
    return pd.DataFrame(rows)


def test_rule_names_come_from_paired_columns() -> None:
    games = pd.DataFrame([counted(0, "white")]).assign(rule_lonely_white=1, game="terrafeud")
    assert rule_names(games) == list(RULES)


def test_usage_summary_known_means_shares_and_dead_rules() -> None:
    counts = [{"ford_stop": (1, 1)}, {"ford_stop": (0, 3)}] + [{} for _ in range(8)]
    games = pd.DataFrame([counted(i, "white", counts=c) for i, c in enumerate(counts)])
    s = usage_summary(games).set_index("rule")
    ford = s.loc["ford_stop"]
    assert ford["mean"] == pytest.approx(0.5) and ford["white_mean"] == pytest.approx(0.1)
    assert ford["black_mean"] == pytest.approx(0.4)
    per_game = [2, 3] + [0] * 8
    half = sp.t.ppf(0.975, 9) * np.std(per_game, ddof=1) / math.sqrt(10)
    assert ford["high"] == pytest.approx(0.5 + half) and ford["low"] == 0.0  # cut at zero
    assert ford["fired_games"] == 2 and ford["share"] == pytest.approx(0.2)
    assert (ford["share_low"], ford["share_high"]) == pytest.approx(wilson_interval(2, 10))
    assert not ford["dead"] and s.loc["order", "dead"] and s.loc["mine_kill", "dead"]
    assert dead_rule_sentences(usage_summary(games)) == [
        "Dead rules (fired in under 1% of games in 10 games): Orders, mine kills."]


def test_dead_in_some_cells_only_is_named_per_cell() -> None:
    sentences = dead_rule_sentences(usage_summary(seasons_table()))
    assert sentences == [
        "Dead rules (fired in under 1% of games in every cell): mine kills.",
        "Ford stops: dead in 1 of 2 cells (fired in under 1% of games) (switched off by season=winter: it cannot "
        "fire): season=winter (0 of 40 games).",
    ]


def test_changes_against_baseline_in_sentences() -> None:
    changes = usage_changes(seasons_table())
    by_rule = {c.rule: c for c in changes}
    assert set(by_rule) == {"ford_stop", "order"}  # mine kills never fired: nothing to compare
    ford, order = by_rule["ford_stop"], by_rule["order"]
    assert (ford.baseline, ford.variant) == ("summer", "winter")
    assert ford.mean_baseline == pytest.approx(2.1) and ford.mean_variant == 0.0
    assert order.relative == pytest.approx(0.35)
    assert ford.significant and order.significant
    assert change_sentences(changes) == ["Winter: ford stops fall from 2.1 to 0.0 per game; "
                                         "Orders rise 35% (2.0 to 2.7 per game)."]


def test_no_clear_change_is_said_in_words() -> None:
    games = seasons_table()
    games.loc[games["season"] == "winter", "rule_ford_stop_white"] = games.loc[games["season"] == "summer",
                                                                                "rule_ford_stop_white"].to_numpy()
    games.loc[games["season"] == "winter", "rule_order_black"] = 0
    games.loc[games["season"] == "winter", "rule_order_white"] = games.loc[games["season"] == "summer",
                                                                           "rule_order_white"].to_numpy()
    assert change_sentences(usage_changes(games)) == [
        "Winter: no rule's usage changes clearly against summer (Holm-adjusted p >= 0.05 for all 2 rules seen)."]


def test_welch_matches_scipy_and_handles_constant_groups() -> None:
    a, b = [1, 3, 1, 3, 2, 2], [2, 3, 4, 3, 5, 4, 3]
    diff, low, high, p = welch(a, b)
    ref = sp.ttest_ind(b, a, equal_var=False)
    assert diff == pytest.approx(np.mean(b) - np.mean(a)) and p == pytest.approx(ref.pvalue)
    ci = ref.confidence_interval(0.95)
    assert (low, high) == pytest.approx((ci.low, ci.high))
    assert welch([0, 0], [0, 0])[3] == 1.0 and welch([0, 0], [2, 2]) == (2.0, 2.0, 2.0, 0.0)
    with pytest.raises(BalanceError, match="at least 2 games"):
        welch([1], [1, 2])


def test_association_side_that_used_more_won() -> None:
    rows = []
    for i in range(10):  # the side with more Orders wins 8 of 10; one draw and one equal game are left out
        more_white = i % 2 == 0
        won = ("white" if more_white else "black") if i < 8 else ("black" if more_white else "white")
        rows.append(counted(i, won, counts={"order": (3, 1) if more_white else (1, 3)}))
    rows.append(counted(10, "none", counts={"order": (5, 0)}))
    rows.append(counted(11, "white", counts={"order": (2, 2)}))
    assoc = rule_association(pd.DataFrame(rows)).set_index("rule")
    assert list(assoc.index) == ["order"]
    r = assoc.loc["order"]
    assert (r["games"], r["more_won"], r["rate"]) == (10, 8, 0.8)
    assert (r["low"], r["high"]) == pytest.approx(wilson_interval(8, 10))
    assert r["p_value"] == pytest.approx(sp.binomtest(8, 10).pvalue)
    text = association_sentences(assoc.reset_index())
    assert text == ["Orders: the side with more of them won 80% [49, 94] of 10 decided games, not clearly "
                    "different from the side with fewer (adjusted p = 0.109; association, not cause)."]


def test_rule_locations_from_events() -> None:
    assert parse_fired("ford_stop@d5,order,mine_kill@e6") == [("ford_stop", "d5"), ("order", None),
                                                              ("mine_kill", "e6")]
    assert parse_fired("") == [] and parse_fired(None) == []
    events = pd.DataFrame({"game_id": [0, 0, 1], "rules": ["ford_stop@d5,order", "shot@e4,ford_stop@d5", None]})
    where = rule_locations(events)
    assert list(where) == ["ford_stop", "shot"]  # spatial order; Orders have no hex
    assert where["ford_stop"] == {"d5": 2} and where["shot"] == {"e4": 1}
    with pytest.raises(BalanceError, match="no 'rules' column"):
        rule_locations(events.drop(columns="rules"))


def curve_table() -> pd.DataFrame:
    """archer_range 2, 3, 4 (and 10, to check numeric order) with White win rates 40%, 50%, 60%, 70%."""
    rows, gid = [], 0
    for value, whites in ((3, 5), (10, 7), (2, 4), (4, 6)):
        for i in range(10):
            winner = "white" if i < whites else ("black" if i < 9 else "none")
            rows.append(counted(gid, winner, archer_range=value, plies=30 + value))
            gid += 1
    return pd.DataFrame(rows)


def test_response_curve_known_rates_in_numeric_order() -> None:
    games = curve_table()
    assert curve_parameters(games) == ["archer_range"]
    curve = response_curve(games, "archer_range")
    assert list(curve["value"]) == [2, 3, 4, 10]
    assert list(curve["white_rate"]) == pytest.approx([0.4, 0.5, 0.6, 0.7])
    assert list(curve["decisive"]) == pytest.approx([0.9] * 4)
    assert list(curve["plies_mean"]) == pytest.approx([32, 33, 34, 40])
    assert (curve.loc[0, "white_low"], curve.loc[0, "white_high"]) == pytest.approx(wilson_interval(4, 10))
    assert list(curve["default"]) == [True, False, False, False]
    assert list(curve["advantage"]) == pytest.approx([4 / 9, 5 / 9, 6 / 9, 7 / 9])
    assert list(curve["length_median"]) == [32, 33, 34, 40]
    # was "White wins 40% → ...; games last 32 → ... plies on average": the three quantities apart now
    assert curve_sentence("archer_range", curve) == (
        "archer_range 2 (rulebook) → 3 → 4 → 10: White's share of decided games 44% → 56% → 67% → 78%; "
        "decided 90% → 90% → 90% → 90%; median length 32 → 33 → 34 → 40 plies; unfinished 10% → 10% → 10% → 10% "
        "(10+ games per value).")


def test_parameter_comparisons_use_the_rulebook_value_as_baseline() -> None:
    comps = compare_toggles(curve_table(), n_boot=100)
    assert [(c.baseline, c.variant) for c in comps] == [(2, 3), (2, 4), (2, 10)]
    # was diff == 0.3 (White's win rate over all games, 70% - 40%); now over decided games: 7/9 - 4/9
    assert comps[-1].name == "Archer range 10" and comps[-1].diff == pytest.approx(7 / 9 - 4 / 9)
    assert comps[0].correction == "holm" and comps[-1].p_adjusted >= comps[-1].p_value


def test_report_has_curves_and_rule_usage_sections() -> None:
    games = pd.concat([seasons_table(), curve_table().assign(season="winter", game_id=lambda d: d["game_id"] + 100)])
    games["archer_range"] = games["archer_range"].fillna(2).astype(int)
    events = pd.DataFrame({"game_id": [0, 1], "ply": [1, 1], "side": ["white", "white"], "n_legal": [30, 30],
                           "eval_white": [0.0, 0.0], "rules": ["ford_stop@d5", "mine_kill@e6,order"]})
    report = build_report(games, events, n_boot=100)
    titles = [s.title for s in report.sections]
    assert titles.index("Comparisons") < titles.index("Response curves") < titles.index("Rule usage")
    md = report.markdown()
    assert "archer_range 2 (rulebook) → 3 → 4 → 10" in md and "](figures/curve_archer_range.png)" in md
    assert "Winter: ford stops fall" in md and "association, not cause" in md
    assert "](figures/rule_usage.png)" in md and "](figures/rule_locations.png)" in md
    # was "| cell | rule | per game [95% CI]": one row per (cell, rule); now rules x cells, biggest change first
    assert "### Usage changes against the baseline" in md and "| rule | change across cells | " in md
    table = next(s for s in report.sections if s.title == "Rule usage").table
    assert len(table) == len(RULES) and table["rule"].iloc[0] in ("ford stops", "mine kills", "Orders")


def test_tables_without_counters_skip_rule_usage() -> None:
    games = seasons_table()
    for rule in RULES:  # a table written before the counters existed reads back with empty columns
        games[f"rule_{rule}_white"] = games[f"rule_{rule}_black"] = float("nan")
    assert rule_names(games) == []
    with pytest.raises(BalanceError, match="no rule counters"):
        usage_summary(games)
    usage = next(s for s in build_report(games, n_boot=50).sections if s.title == "Rule usage")
    assert usage.paragraphs == ["Skipped: the games table has no rule counters (rule_<name>_<seat> columns)."]


def test_a_dead_rule_and_its_breakdown_are_named_once() -> None:
    games = seasons_table()
    for name in ("promotion", "promotion_knight"):
        games[f"rule_{name}_white"] = games[f"rule_{name}_black"] = 0
    assert dead_rule_sentences(usage_summary(games))[0] == (
        "Dead rules (fired in under 1% of games in every cell): mine kills, promotions (every kind).")


def test_a_mostly_dead_rule_names_where_it_lives() -> None:
    games = pd.concat([seasons_table(), seasons_table().assign(season="autumn", game_id=lambda d: d["game_id"] + 80)])
    games.loc[games["season"] != "summer", "rule_ford_stop_white"] = 0
    sentences = dead_rule_sentences(usage_summary(games))
    assert sentences[1] == ("Ford stops: dead in 2 of 3 cells (fired in under 1% of games); it fired only in "
                            "season=summer (40 of 40 games).")


def test_rule_location_maps_are_drawn_on_the_games_own_crossings() -> None:
    from workbench.games.terrafeud.report import board_rules

    moved = pd.DataFrame({"season": ["summer"] * 2, "bridges": ["b4,k4"] * 2, "fords": ["d5,f6,h5"] * 2})
    rules, words = board_rules(moved)
    assert (rules["bridges"], rules["fords"]) == ("b4,k4", "d5,f6,h5")
    assert words == "the games' board: bridges b4/k4, fords d5/f6/h5"
    mixed = moved.assign(bridges=["b4,k4", "b4,f6,k4"], fords=["d5,h5", "d5,h5"])
    assert board_rules(mixed)[1] == "the classic summer board"
    assert board_rules(pd.DataFrame({"season": ["winter"]}))[1] == "the classic winter board"


def test_columns_set_by_start_files_are_compared_as_part_of_the_start() -> None:
    """A start file's own rules (archer_range: 3) change with the start: no separate archer-range finding."""
    from workbench.balance.cells import compared_columns, start_bound_columns
    from workbench.balance.curves import curve_parameters

    rows = [game_row(i, "white" if i % 3 else "black", "destroyed", 40 + i, season=season, start_id=s, archer_range=a)
            for i, (s, a, season) in enumerate([("classic", 2, "summer"), ("duel", 3, "summer"),
                                                ("wide", 4, "summer"), ("classic", 2, "winter"),
                                                ("duel", 3, "winter"), ("wide", 4, "winter")] * 4)]
    games = pd.DataFrame(rows)
    assert start_bound_columns(games) == ["archer_range"]
    assert "archer_range" not in compared_columns(games) and {"start_id", "season"} <= set(compared_columns(games))
    assert {c.column for c in compare_toggles(games, n_boot=20)} == {"start_id", "season"}
    assert "archer_range" not in curve_parameters(games)
    md = build_report(games, n_boot=20).markdown()
    assert "archer_range changes only with the start file" in md


def test_rules_switched_off_by_the_cells_rules_are_named_so() -> None:
    from workbench.balance.usage import off_reason
    from workbench.games import get

    switches = get("terrafeud").table.rule_switches  # the game's own declaration, read generically
    assert off_reason("castling", {"castling_uses": 0}, switches) == "castling_uses=0"
    assert off_reason("promotion_knight", {"promotion": False}, switches) == "promotion=false"
    assert off_reason("aura_move", {"aura_radius": 2, "aura_step": 1}, switches) == "aura_step=1"
    assert off_reason("castling", {"castling_uses": 2}, switches) is None
    assert off_reason("mine_kill", {"season": "winter"}, switches) is None
    assert off_reason("castling", {"castling_uses": 0}) is None  # a game that declares no switches
    games = seasons_table().assign(castling_uses=0)
    games["rule_castling_white"] = games["rule_castling_black"] = 0
    assert dead_rule_sentences(usage_summary(games))[0] == (
        "Dead rules (fired in under 1% of games in every cell): mine kills, castlings (switched off by "
        "castling_uses=0: it cannot fire).")
