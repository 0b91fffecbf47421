"""Game length as a censored time: Kaplan-Meier curves, medians with intervals, and comparisons.

A game cut by the cap lasted *at least* the cap; averaging its length as if it ended there (or a box
plot stopped at the cap) hides how long games really are. Kaplan-Meier (lifelines) treats it as
censored. The median is the first length at which the estimated share of games still running is at
or below one half (lifelines' convention); when more than half the games are cut, it is "not
reached" (infinite), and the report says so rather than printing the cap.

``km_median`` is a small numpy twin of lifelines' median, used for bootstrap intervals of a
difference of medians (hundreds of refits) and checked against lifelines in the tests.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from .stats import BalanceError


def _arrays(durations: Sequence[float] | np.ndarray[Any, Any], finished: Sequence[bool] | np.ndarray[Any, Any]) -> tuple[np.ndarray, np.ndarray]:
    t = np.asarray(durations, dtype=float)
    e = np.asarray(finished, dtype=bool)
    if t.shape != e.shape:
        raise BalanceError(f"lengths and finished flags differ in size ({t.size} and {e.size})")
    if t.size and (np.isnan(t).any() or (t < 0).any()):
        raise BalanceError("game lengths must be non-negative numbers")
    return t, e


def km_time(durations: Sequence[float] | np.ndarray[Any, Any], finished: Sequence[bool] | np.ndarray[Any, Any], remaining: float = 0.5) -> float:
    """Kaplan-Meier by hand: the first time the share of games still running falls to ``remaining`` or
    below (``inf`` if it never does, NaN without games). Exact fractions are compared with a 1e-12
    tolerance, so a curve that lands on exactly 1/2 gives that time (lifelines' floating sum may step past it).
    """
    t, e = _arrays(durations, finished)
    if t.size == 0:
        return math.nan
    times = np.unique(t[e])
    if times.size == 0:
        return math.inf
    at_risk = t.size - np.searchsorted(np.sort(t), times, side="left")
    deaths = np.bincount(np.searchsorted(times, t[e]), minlength=times.size)
    survival = np.cumprod(1.0 - deaths / at_risk)
    below = np.nonzero(survival <= remaining + 1e-12)[0]
    return float(times[below[0]]) if below.size else math.inf


def km_median(durations: Sequence[float] | np.ndarray[Any, Any], finished: Sequence[bool] | np.ndarray[Any, Any]) -> float:
    """Kaplan-Meier median length: half the games are over by then (``inf``: not reached within the cap)."""
    return km_time(durations, finished, 0.5)


@dataclass(frozen=True)
class LengthSummary:
    """Kaplan-Meier summary of one group's lengths (``inf`` = not reached: too many games cut)."""

    games: int
    unfinished: int
    median: float
    low: float
    high: float
    q1: float  # 25% of games over by then
    q3: float  # 75% of games over by then

    @property
    def unfinished_share(self) -> float:
        return self.unfinished / self.games if self.games else math.nan

    def words(self, unit: str = "plies") -> str:
        """``median 64 plies [58, 71]`` or ``median not reached (over half the games hit the cap)``."""
        if math.isnan(self.median):
            return "no games"
        if math.isinf(self.median):
            return "median not reached (over half the games hit the cap)"
        hi = "open" if math.isinf(self.high) or math.isnan(self.high) else f"{self.high:.0f}"
        lo = "–" if math.isnan(self.low) else f"{self.low:.0f}"
        return f"median {self.median:.0f} {unit} [{lo}, {hi}]"


def _fitter(durations: np.ndarray[Any, Any], finished: np.ndarray[Any, Any], label: str = "games") -> Any:
    from lifelines import KaplanMeierFitter

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # lifelines warns about ties and all-censored groups: both are fine here
        return KaplanMeierFitter(label=label).fit(durations, event_observed=finished)


def length_summary(durations: Sequence[float] | np.ndarray[Any, Any], finished: Sequence[bool] | np.ndarray[Any, Any]) -> LengthSummary:
    """Median and quartiles of length (``km_time``) with the median's 95% interval from lifelines (the
    log(-log) bounds of the curve read at 1/2); capped games are censored."""
    t, e = _arrays(durations, finished)
    if t.size == 0:
        return LengthSummary(0, 0, math.nan, math.nan, math.nan, math.nan, math.nan)
    from lifelines.utils import median_survival_times

    kmf = _fitter(t, e)
    bounds = median_survival_times(kmf.confidence_interval_)
    low, high = (float(x) for x in np.asarray(bounds).ravel()[:2])
    return LengthSummary(int(t.size), int((~e).sum()), km_median(t, e), low, high, km_time(t, e, 0.75),
                         km_time(t, e, 0.25))


def km_curve(durations: Sequence[float] | np.ndarray[Any, Any], finished: Sequence[bool] | np.ndarray[Any, Any]) -> pd.DataFrame:
    """The step curve: ``time``, share of games still running ``survival`` and its 95% band ``low``/``high``."""
    t, e = _arrays(durations, finished)
    kmf = _fitter(t, e)
    ci = kmf.confidence_interval_
    return pd.DataFrame({"time": kmf.survival_function_.index.to_numpy(dtype=float),
                         "survival": kmf.survival_function_.iloc[:, 0].to_numpy(),
                         "low": ci.iloc[:, 0].to_numpy(), "high": ci.iloc[:, 1].to_numpy()})


@dataclass(frozen=True)
class LengthComparison:
    """Variant minus baseline median length (bootstrap interval) and the log-rank test of the two curves."""

    baseline: LengthSummary
    variant: LengthSummary
    diff: float
    low: float
    high: float
    p_value: float


def compare_lengths(a: Sequence[float], a_finished: Sequence[bool], b: Sequence[float], b_finished: Sequence[bool],
                    n_boot: int = 1000, seed: int = 0) -> LengthComparison:
    """Compare two groups' lengths with censoring: log-rank p-value, median difference with a percentile
    bootstrap interval (NaN when a median is not reached in too many resamples to say)."""
    ta, ea = _arrays(a, a_finished)
    tb, eb = _arrays(b, b_finished)
    if ta.size == 0 or tb.size == 0:
        raise BalanceError("a length comparison needs games in both groups")
    from lifelines.statistics import logrank_test

    sa, sb = length_summary(ta, ea), length_summary(tb, eb)
    if not ea.any() and not eb.any():
        p = 1.0
    else:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            p = float(logrank_test(ta, tb, event_observed_A=ea, event_observed_B=eb).p_value)
    diff = sb.median - sa.median if math.isfinite(sa.median) and math.isfinite(sb.median) else math.nan
    low = high = math.nan
    if not math.isnan(diff) and n_boot > 0:
        rng = np.random.default_rng(seed)
        draws = []
        for _ in range(n_boot):
            ia, ib = rng.integers(0, ta.size, ta.size), rng.integers(0, tb.size, tb.size)
            draws.append(km_median(tb[ib], eb[ib]) - km_median(ta[ia], ea[ia]))
        d = np.asarray(draws)
        finite = d[np.isfinite(d)]
        if finite.size >= 0.95 * n_boot:  # a few resamples without a median would bias the interval
            low, high = (float(x) for x in np.percentile(finite, [2.5, 97.5]))
    return LengthComparison(sa, sb, diff, low, high, p)


__all__ = ["LengthComparison", "LengthSummary", "compare_lengths", "km_curve", "km_median", "km_time", "length_summary"]
