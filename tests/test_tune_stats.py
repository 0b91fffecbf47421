"""The statistics racing relies on, against scipy and hand values."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from workbench.balance.stats import wilson_interval
from workbench.tune.objectives import Context, Requirement, Sample, parse_objective, parse_requirement
from workbench.tune.stats import Contrast, bounded_mean, look_z, plain_mean, wilson_interval_real, z_one_sided


def test_z_and_looks():
    assert z_one_sided(0.025) == pytest.approx(1.959964, abs=1e-6)
    assert look_z(0.05, 10, 4) == pytest.approx(stats.norm.isf(0.05 / 40))
    assert look_z(0.05, 10, 8) > look_z(0.05, 10, 4) > look_z(0.05, 5, 4)
    with pytest.raises(ValueError):
        z_one_sided(0)


def test_wilson_real_matches_whole_counts_and_contains_mean():
    assert wilson_interval_real(30, 100, 1.96) == wilson_interval(30, 100, 1.96)
    lo, hi = wilson_interval_real(30.5, 100, 1.96)
    w_lo, w_hi = wilson_interval(30, 100, 1.96)
    assert w_lo < lo < 0.305 < hi and hi > w_hi


def test_bounded_mean_covers_at_the_nominal_rate():
    rng = np.random.default_rng(5)
    hits = 0
    for _ in range(400):
        x = rng.choice([0.0, 0.5, 1.0], size=200, p=[0.4, 0.2, 0.4])
        e = bounded_mean(x, 1.96)
        hits += e.lo <= 0.5 <= e.hi
    assert hits / 400 >= 0.93  # Wilson on the summed score is conservative for scores with draws


def test_plain_mean_is_the_normal_interval():
    x = np.arange(1.0, 101.0)
    e = plain_mean(x, 2.0)
    se = np.std(x, ddof=1) / 10
    assert e.value == pytest.approx(50.5) and e.hi - e.value == pytest.approx(2 * se)


def test_contrast_p_value_is_one_sided_normal():
    c = Contrast(0.05, 0.02)
    assert c.p_positive() == pytest.approx(stats.norm.sf(2.5))
    assert c.lower(1.96) == pytest.approx(0.05 - 1.96 * 0.02)


def _sample(wins: int, draws: int, losses: int, plies: float = 100.0) -> Sample:
    s = Sample()
    for outcome, n in (("w", wins), ("d", draws), ("l", losses)):
        for _ in range(n):
            winner = {"w": "white", "d": "none", "l": "black"}[outcome]
            s.add({"winner": winner, "outcome": "draw" if outcome == "d" else "win", "plies": plies,
                   "players": "white,black"})
    return s


def test_an_unfinished_game_is_censored_not_a_draw():
    """As in ``report``: games cut by the cap carry no score, so timing out never looks balanced."""
    s = _sample(70, 0, 10)
    for _ in range(920):
        s.add({"winner": "none", "outcome": "unfinished", "plies": 300.0, "players": "white,black"})
    ctx = Context(1.96)
    from workbench.tune.objectives import metric

    score, decisive, balance = metric("score", s, ctx), metric("decisive", s, ctx), metric("balance", s, ctx)
    assert score.n == 80 and score.value == pytest.approx(70 / 80)  # the decided games' share, not 0.53
    assert decisive.value == pytest.approx(0.08) and balance.lo > 0.25
    stalled = Sample()
    for _ in range(50):
        stalled.add({"winner": "none", "outcome": "unfinished", "plies": 300.0, "players": "white,black"})
    assert math.isnan(metric("score", stalled, ctx).value)
    assert parse_objective("balance").diff_lower(stalled, _sample(50, 0, 50), ctx) == (-math.inf, 1.0)


def test_balance_comparison_is_folded_and_symmetric():
    fair, white_heavy, black_heavy = _sample(500, 0, 500), _sample(620, 0, 380), _sample(380, 0, 620)
    obj = parse_objective("balance")
    ctx = Context(2.5)
    for unfair in (white_heavy, black_heavy):
        lower, p = obj.diff_lower(unfair, fair, ctx)
        assert lower > 0 and p < 1e-6  # an unfair variant is clearly worse, on either side of 0.5
        lower, p = obj.diff_lower(fair, unfair, ctx)
        assert lower < 0 and p > 0.5
    # two variants equally unfair on opposite sides: no difference can be claimed
    lower, p = obj.diff_lower(white_heavy, black_heavy, ctx)
    assert lower < 0 and p > 0.3


def test_loss_interval_of_balance_holds_zero_near_half():
    e = parse_objective("balance").loss(_sample(51, 0, 49), Context(1.96))
    assert e.lo == 0.0 and e.value == pytest.approx(0.01) and e.hi > 0.09


def test_decisiveness_and_requirements():
    s = _sample(40, 20, 40)
    ctx = Context(1.96)
    e = parse_objective("decisiveness").loss(s, ctx)
    assert e.value == pytest.approx(0.2)
    assert parse_requirement("decisive>=0.95").judge(bounded_mean(s.array("decisive"), 1.96)) == "broken"
    assert parse_requirement("decisive>=0.6").judge(bounded_mean(s.array("decisive"), 1.96)) == "met"
    assert parse_requirement("decisive>=0.8").judge(bounded_mean(s.array("decisive"), 1.96)) == "unknown"
    assert parse_requirement("plies<=200") == Requirement("plies", "<=", 200.0)
    assert parse_requirement("usage>=5%").threshold == pytest.approx(0.05)
    with pytest.raises(ValueError, match="unknown metric"):
        parse_requirement("fun>=1")
    with pytest.raises(ValueError, match="unknown objective"):
        parse_objective("fun")


def test_usage_is_the_least_used_rule_and_errors_measure_nothing():
    s = Sample()
    for i in range(100):
        s.add({"winner": "white", "outcome": "win", "plies": 10, "players": "white,black",
               "rule_shot_white": 1, "rule_castle_black": int(i % 10 == 0), "rule_dead_white": 0})
    s.add({"outcome": "error", "victory": "error", "players": "white,black"})
    assert s.games == 101 and s.n == 100 and s.errors == 1
    from workbench.tune.objectives import metric

    e = metric("usage", s, Context(1.96))
    assert e.value == pytest.approx(0.1) and e.lo < 0.1 < e.hi
    assert sorted(s.rules()) == ["castle", "shot"]
    assert not math.isnan(e.value)
