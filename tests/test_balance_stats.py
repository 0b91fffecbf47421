"""Balance statistics against reference values: scipy, Newcombe (1998), hand-worked corrections, SPRT streams."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats as sp

from workbench.balance.stats import (
    BalanceError,
    adjust,
    benjamini_hochberg,
    bootstrap_difference,
    compare_proportions,
    fisher_exact_p,
    holm,
    mean_interval,
    newcombe_interval,
    sprt,
    sprt_bounds,
    wilson_interval,
)


@pytest.mark.parametrize("k,n", [(0, 10), (1, 10), (5, 10), (10, 10), (81, 263), (0, 1), (1, 1), (499, 1000), (3, 7)])
def test_wilson_matches_scipy(k: int, n: int) -> None:
    ref = sp.binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    lo, hi = wilson_interval(k, n)
    assert lo == pytest.approx(ref.low, abs=1e-9)
    assert hi == pytest.approx(ref.high, abs=1e-9)


def test_wilson_closed_form_at_zero_and_empty() -> None:
    z2 = 1.959963984540054 ** 2
    assert wilson_interval(0, 10) == pytest.approx((0.0, z2 / (10 + z2)))
    # all wins or none: the interval reaches exactly 1 or 0 (rounding must not leave p outside it)
    assert all(wilson_interval(n, n)[1] == 1.0 and wilson_interval(0, n)[0] == 0.0 for n in range(1, 200))
    assert all(math.isnan(x) for x in wilson_interval(0, 0))
    with pytest.raises(BalanceError, match="successes <= n"):
        wilson_interval(11, 10)


def test_newcombe_method_10_published_example() -> None:
    # Newcombe (1998), Stat Med 17:873, example (a): 56/70 - 48/80, score interval (method 10).
    lo, hi = newcombe_interval(48, 80, 56, 70)
    assert (lo, hi) == pytest.approx((0.0524, 0.3339), abs=1e-4)


@pytest.mark.parametrize("table", [[[3, 1], [1, 3]], [[8, 2], [1, 5]], [[0, 5], [5, 0]], [[10, 10], [10, 10]],
                                   [[1, 9], [11, 3]], [[0, 0], [4, 2]], [[25, 15], [12, 30]], [[2, 7], [8, 2]]])
def test_fisher_matches_scipy(table: list[list[int]]) -> None:
    assert fisher_exact_p(table) == pytest.approx(sp.fisher_exact(table).pvalue, rel=1e-9)


def test_fisher_random_tables_match_scipy() -> None:
    rng = np.random.default_rng(5)
    for _ in range(40):
        table = rng.integers(0, 30, size=(2, 2)).tolist()
        assert fisher_exact_p(table) == pytest.approx(sp.fisher_exact(table).pvalue, rel=1e-9, abs=1e-15)


def test_two_proportion_z_equals_uncorrected_chi_square() -> None:
    t = compare_proportions(120, 300, 150, 300)
    chi = sp.chi2_contingency([[120, 180], [150, 150]], correction=False)
    assert t.test == "two-proportion z"
    assert t.p_value == pytest.approx(chi.pvalue, rel=1e-9)
    assert t.diff == pytest.approx(0.1)
    assert t.low < 0.1 < t.high


def test_small_counts_use_fisher() -> None:
    t = compare_proportions(1, 8, 6, 8)
    assert t.test == "Fisher exact"
    assert t.p_value == pytest.approx(sp.fisher_exact([[1, 7], [6, 2]]).pvalue)
    with pytest.raises(BalanceError, match="games > 0"):
        compare_proportions(0, 0, 1, 2)


def test_holm_and_bh_hand_worked() -> None:
    p = [0.01, 0.04, 0.03, 0.005]
    assert holm(p) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert benjamini_hochberg(p) == pytest.approx([0.02, 0.04, 0.04, 0.02])
    assert benjamini_hochberg(p) == pytest.approx(list(sp.false_discovery_control(p)))
    assert adjust(p, "none") == p
    with pytest.raises(BalanceError, match="unknown correction"):
        adjust(p, "bonferonni")


def test_bootstrap_recovers_a_known_shift() -> None:
    rng = np.random.default_rng(1)
    a = rng.normal(50, 10, 400)
    b = a + 3.0
    diff, lo, hi = bootstrap_difference(a, b, seed=2)
    assert diff == pytest.approx(3.0)
    assert lo < 3.0 < hi
    # width close to the normal theory 2 * 1.96 * sqrt(2 * 100 / 400) = 2.77
    assert 2.2 < hi - lo < 3.3
    assert bootstrap_difference(a, b, seed=2) == (diff, lo, hi)
    with pytest.raises(BalanceError, match="at least one value"):
        bootstrap_difference([], b)


def test_mean_interval_matches_scipy_t() -> None:
    x = [3.0, 5.0, 4.0, 8.0, 6.0, 7.0]
    m, lo, hi = mean_interval(x)
    ref = sp.t.interval(0.95, len(x) - 1, loc=np.mean(x), scale=sp.sem(x))
    assert (m, lo, hi) == pytest.approx((np.mean(x), *ref))
    assert math.isnan(mean_interval([2.0])[1])


def _bernoulli(p: float, rng: np.random.Generator, offsets: list[int]):
    def run_batch(n: int, offset: int) -> list[int]:
        offsets.append(offset)
        return (rng.random(n) < p).astype(int).tolist()
    return run_batch


def _rates(p_true: float, runs: int = 150, seed: int = 0) -> tuple[float, float]:
    rng = np.random.default_rng(seed)
    decisions, games = [], []
    for _ in range(runs):
        r = sprt(_bernoulli(p_true, rng, []), 0.5, 0.6, alpha=0.05, beta=0.05, batch=10, max_games=5000)
        decisions.append(r.decision)
        games.append(r.games)
    return decisions.count("H1") / runs, float(np.mean(games))


def test_sprt_error_rates_and_early_stopping_on_known_p() -> None:
    # A fixed-size one-sided test of 0.5 vs 0.6 with alpha = beta = 0.05 needs about 270 games.
    h1_at_p0, games_at_p0 = _rates(0.5, seed=1)
    h1_at_p1, games_at_p1 = _rates(0.6, seed=2)
    h1_far, games_far = _rates(0.75, runs=60, seed=3)
    assert h1_at_p0 <= 0.10  # alpha = 0.05, with sampling slack for 150 runs
    assert h1_at_p1 >= 0.90  # 1 - beta = 0.95
    assert h1_far == 1.0
    assert games_at_p0 < 270 and games_at_p1 < 270
    assert games_far < games_at_p1 / 2  # a big shift is settled much sooner


def test_sprt_bookkeeping() -> None:
    offsets: list[int] = []
    r = sprt(_bernoulli(0.55, np.random.default_rng(0), offsets), 0.5, d=0.1, batch=7, max_games=20)
    assert r.decision == "inconclusive"
    assert offsets == [0, 7, 14]
    assert r.games == 20 and [g for g, _ in r.history] == [7, 14, 20]
    assert r.llr == pytest.approx(r.wins * math.log(0.6 / 0.5) + (20 - r.wins) * math.log(0.4 / 0.5))
    assert (r.lower, r.upper) == pytest.approx(sprt_bounds(0.05, 0.05))
    assert "inconclusive" in r.sentence()
    wins = sprt(lambda n, o: [1] * n, 0.5, p1=0.6, batch=5)
    assert wins.decision == "H1" and wins.games == 20  # 17 straight wins pass log(19) = 2.94
    assert wins.sentence().startswith("SPRT accepts H1 after 20 games (20 White wins, 100.0%)")


def test_sprt_rejects_bad_arguments() -> None:
    with pytest.raises(BalanceError, match="exactly one of p1"):
        sprt(lambda n, o: [0] * n, 0.5, p1=0.6, d=0.1)
    with pytest.raises(BalanceError, match="p0 != p1"):
        sprt(lambda n, o: [0] * n, 0.5, d=0.0)
    with pytest.raises(BalanceError, match="returned 2 outcomes"):
        sprt(lambda n, o: [0, 1], 0.5, d=0.1, batch=5)


def test_sprt_leaves_out_undecided_games() -> None:
    # 3 wins, 1 loss and 2 undecided per batch: the test counts decided games only
    r = sprt(lambda n, o: [1, 1, 1, 0, None, None][:n], 0.5, p1=0.75, batch=6, max_games=60)
    assert r.skipped == r.games // 3 and r.wins == 3 * r.games // 6 and r.counted == 4 * r.games // 6
    assert r.llr == pytest.approx(r.wins * math.log(0.75 / 0.5) + (r.counted - r.wins) * math.log(0.25 / 0.5))
    assert "undecided left out" in r.sentence() and "of decided games" in r.sentence()
