"""The few statistics racing needs: intervals for one variant, one-sided comparisons of two.

Kept small and separate from ``workbench.balance`` (being rebuilt): a proportion's interval is
Wilson's (``balance.stats.wilson_interval``), a bounded mean's (a score with draws counted 0.5) is
Wilson's on the summed score (its variance is at most a Bernoulli's of the same mean, so the
interval is conservative), an unbounded mean's (plies) is the normal one. Comparisons are Welch
z-tests on the difference of means; variances of bounded outcomes get two pseudo-games at 0 and 1,
so a handful of identical games never looks certain.

Several looks at growing samples and several variants share one error budget ``alpha`` by
Bonferroni (``look_z``): valid under any dependence between looks, which racing has.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

from workbench.balance.stats import wilson_bounds, wilson_interval

_N = NormalDist()


def norm_sf(x: float) -> float:
    """P(Z > x) for a standard normal (math.erfc: exact, and far quicker than scipy per call)."""
    return 0.5 * math.erfc(x / math.sqrt(2.0))


def z_one_sided(delta: float) -> float:
    """The normal quantile with ``delta`` above it (``delta=0.025`` -> 1.96)."""
    if not 0 < delta < 1:
        raise ValueError(f"delta={delta} must be between 0 and 1")
    return float(-_N.inv_cdf(delta))


def look_z(alpha: float, comparisons: int, looks: int) -> float:
    """One-sided z for each test when ``comparisons`` tests at each of ``looks`` looks share ``alpha``."""
    return z_one_sided(alpha / max(1, comparisons) / max(1, looks))


@dataclass(frozen=True)
class Estimate:
    """A point estimate with a two-sided interval at the caller's z (``lo <= value <= hi``)."""

    value: float
    lo: float
    hi: float
    n: int

    def text(self, percent: bool = False, digits: int = 3) -> str:
        """``0.508 (0.489-0.527)`` or ``50.8% (48.9-52.7)``."""
        if self.n == 0 or math.isnan(self.value):
            return "n/a"
        if percent:
            return f"{100 * self.value:.1f}% ({100 * self.lo:.1f}\u2013{100 * self.hi:.1f})"
        return f"{self.value:.{digits}g} ({self.lo:.{digits}g}\u2013{self.hi:.{digits}g})"


NAN = Estimate(math.nan, math.nan, math.nan, 0)


def bounded_mean(x: np.ndarray, z: float) -> Estimate:
    """Mean of outcomes in [0, 1] with Wilson's interval on the summed outcome."""
    n = len(x)
    if n == 0:
        return NAN
    s = float(np.sum(x))
    lo, hi = wilson_interval_real(s, n, z)
    return Estimate(s / n, lo, hi, n)


def bounded_from(n: int, mean: float, z: float) -> Estimate:
    """``bounded_mean`` from a sample's size and mean."""
    if n == 0:
        return NAN
    total = mean * n
    if abs(total - round(total)) < 1e-9:
        total = float(round(total))
    lo, hi = wilson_interval_real(total, n, z)
    return Estimate(mean, min(lo, mean), max(hi, mean), n)


def plain_from(n: int, mean: float, ss: float, z: float) -> Estimate:
    """``plain_mean`` from a sample's size, mean and sum of squared deviations."""
    if n == 0:
        return NAN
    se = math.sqrt(moment_variance(n, mean, ss, bounded=False) / n)
    return Estimate(mean, mean - z * se, mean + z * se, n)


def wilson_interval_real(successes: float, n: int, z: float) -> tuple[float, float]:
    """Wilson's interval for a (possibly fractional) success count: whole counts go to balance.stats."""
    if float(successes).is_integer():
        return wilson_interval(int(successes), n, z)
    return wilson_bounds(successes / n, n, z)


def plain_mean(x: np.ndarray, z: float) -> Estimate:
    """Mean of an unbounded outcome (plies) with the normal interval."""
    n = len(x)
    if n == 0:
        return NAN
    m = float(np.mean(x))
    se = math.sqrt(mean_variance(x, bounded=False) / n)
    return Estimate(m, m - z * se, m + z * se, n)


def mean_variance(x: np.ndarray, bounded: bool) -> float:
    """The variance used in comparisons: two pseudo-games at 0 and 1 for bounded outcomes, a floor of 1
    for counts (a few equal lengths must not look exact)."""
    n = len(x)
    if n == 0:
        return math.inf
    m = float(np.mean(x))
    return moment_variance(n, m, float(np.sum((x - m) ** 2)), bounded)


def moment_variance(n: int, m: float, ss: float, bounded: bool) -> float:
    """``mean_variance`` from a sample's size, mean and sum of squared deviations."""
    if n == 0:
        return math.inf
    if bounded:
        # pseudo-games at 0 and 1 around the mean: (n*var + (0-m)^2 + (1-m)^2) / (n + 1)
        return (ss + m * m + (1 - m) ** 2) / (n + 1)
    return max(1.0, ss / max(1, n - 1))


@dataclass(frozen=True)
class Contrast:
    """``diff = mean_a - mean_b`` with its Welch standard error."""

    diff: float
    se: float

    def lower(self, z: float) -> float:
        return self.diff - z * self.se

    def upper(self, z: float) -> float:
        return self.diff + z * self.se

    def p_positive(self) -> float:
        """One-sided p-value of 'the true difference is <= 0' (small: a is confidently larger)."""
        if self.se == 0:
            return 0.0 if self.diff > 0 else 1.0
        return float(norm_sf(self.diff / self.se))


def welch(a: np.ndarray, b: np.ndarray, bounded: bool, shift_a: float = 0.0, sign_a: float = 1.0,
          sign_b: float = 1.0) -> Contrast:
    """``sign_a * mean(a) + shift_a - sign_b * mean(b)`` and its standard error (independent samples)."""
    if len(a) == 0 or len(b) == 0:
        return Contrast(math.nan, math.inf)
    d = sign_a * float(np.mean(a)) + shift_a - sign_b * float(np.mean(b))
    se = math.sqrt(mean_variance(a, bounded) / len(a) + mean_variance(b, bounded) / len(b))
    return Contrast(d, se)


def p_from_lower(lower_at: Callable[[float], float], z_lo: float = 0.0, z_hi: float = 8.0) -> float:
    """The one-sided p-value of a bound function: the largest ``z`` with ``lower_at(z) > 0``, as Φ(-z).

    For comparisons built from several intervals (a spread, a worst cell) there is no single
    statistic; bisection on z gives the p-value that matches the bound the race uses.
    """
    if lower_at(z_lo) <= 0:
        return 0.5
    if lower_at(z_hi) > 0:
        return float(norm_sf(z_hi))
    for _ in range(40):
        mid = (z_lo + z_hi) / 2
        if lower_at(mid) > 0:
            z_lo = mid
        else:
            z_hi = mid
    return float(norm_sf(z_lo))
