"""Game length with the cap as censoring: Kaplan-Meier medians by hand and against lifelines."""

from __future__ import annotations

import math

import numpy as np
import pytest
from lifelines import KaplanMeierFitter

from workbench.balance.survival import compare_lengths, km_curve, km_median, km_time, length_summary


def test_km_median_by_hand_with_capped_games() -> None:
    # 10 games, cap 50: four cut at 50 (censored), others end at 10, 20, 20, 30, 40, 45.
    # At risk 10 -> S(10) = 9/10; S(20) = 0.9 * (1 - 2/9) = 0.7; S(30) = 0.7 * 5/6 = 0.5833;
    # S(40) = 0.5833 * 4/5 = 0.4667 <= 1/2, so the median is 40 (a mean of capped lengths would say 36.5).
    lengths = [10, 20, 20, 30, 40, 45, 50, 50, 50, 50]
    finished = [True] * 6 + [False] * 4
    assert km_median(lengths, finished) == 40
    assert km_time(lengths, finished, 0.75) == 20  # S(20) = 0.7 <= 0.75: a quarter over by 20
    assert math.isinf(km_time(lengths, finished, 0.25))  # never below 1/4 within the cap
    summary = length_summary(lengths, finished)
    assert summary.median == 40 and summary.unfinished == 4 and summary.low <= 40 <= summary.high
    assert summary.median == KaplanMeierFitter().fit(lengths, finished).median_survival_time_


def test_km_median_matches_lifelines_on_random_censored_samples() -> None:
    rng = np.random.default_rng(7)
    checked = 0
    for _ in range(200):
        n = int(rng.integers(2, 80))
        cap = int(rng.integers(10, 60))
        raw = rng.gamma(3.0, 12.0, n).round() + 1
        t, e = np.minimum(raw, cap), raw < cap
        kmf = KaplanMeierFitter().fit(t, e)
        sf = kmf.survival_function_.iloc[:, 0].to_numpy()
        if np.any(np.isclose(sf, 0.5, atol=1e-9)):
            continue  # a curve landing exactly on 1/2: lifelines' float sum may step past it
        assert km_median(t, e) == kmf.median_survival_time_
        checked += 1
    assert checked > 150


def test_median_not_reached_when_most_games_are_cut() -> None:
    summary = length_summary([30, 120, 120, 120], [True, False, False, False])
    assert math.isinf(summary.median) and "not reached" in summary.words()
    curve = km_curve([30, 120, 120, 120], [True, False, False, False])
    assert list(curve["survival"]) == pytest.approx([1.0, 0.75, 0.75])


def test_compare_lengths_sees_a_shift_and_not_noise() -> None:
    rng = np.random.default_rng(1)
    base = rng.integers(20, 100, 300).astype(float)
    cut = np.minimum(base, 90)
    shifted = np.minimum(base + 15, 90)
    c = compare_lengths(cut, base < 90, shifted, base + 15 < 90, n_boot=300)
    assert c.p_value < 1e-3 and c.low <= c.diff <= c.high and c.diff > 0
    same = compare_lengths(cut, base < 90, cut, base < 90, n_boot=100)
    assert same.diff == 0 and same.p_value == pytest.approx(1.0)
