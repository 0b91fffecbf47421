"""Small, checked statistics for balance questions: intervals, tests, corrections, bootstrap, SPRT.

Every function works on plain counts or arrays so it can be checked against reference values
(scipy, textbooks) without a simulation. Nothing here knows about TerraFeud; ``cells`` and
``compare`` apply these to simulation tables. Deliberately left out: Bayesian models and
Elo-based (pentanomial) SPRT; a White win is a Bernoulli outcome here.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
from scipy import stats as _sp

Z95 = 1.959963984540054  # two-sided 95% normal quantile


class BalanceError(ValueError):
    """A table or argument that cannot give a balance answer; the message says why in plain words."""


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion: sound near 0 and 1, where the Wald interval fails.

    Returns ``(nan, nan)`` for ``n == 0`` (no games, no interval).
    """
    if n < 0 or successes < 0 or successes > n:
        raise BalanceError(f"wilson_interval needs 0 <= successes <= n, got successes={successes}, n={n}")
    if n == 0:
        return (math.nan, math.nan)
    return wilson_bounds(successes / n, n, z)


def wilson_bounds(p: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's bounds around an observed share ``p`` of ``n`` trials (``n`` > 0; ``p`` may be fractional)."""
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    # rounding can put a bound a hair past p at 0 or 1; the interval always contains p
    return (min(p, max(0.0, centre - half)), max(p, min(1.0, centre + half)))


def newcombe_interval(k1: int, n1: int, k2: int, n2: int, z: float = Z95) -> tuple[float, float]:
    """Interval for ``p2 - p1`` from two Wilson intervals (Newcombe 1998, method 10).

    Keeps good coverage with few games or rates near 0/1, unlike the Wald difference interval.
    """
    if n1 == 0 or n2 == 0:
        return (math.nan, math.nan)
    p1, p2 = k1 / n1, k2 / n2
    l1, u1 = wilson_interval(k1, n1, z)
    l2, u2 = wilson_interval(k2, n2, z)
    d = p2 - p1
    return (d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2), d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2))


def fisher_exact_p(table: Sequence[Sequence[int]]) -> float:
    """Two-sided Fisher exact p-value of a 2x2 table ``[[a, b], [c, d]]``.

    Sums the hypergeometric probabilities of all tables with the same margins that are no more
    likely than the observed one (the convention of R and scipy, with the same 1e-7 tolerance).
    """
    (a, b), (c, d) = table
    if min(a, b, c, d) < 0:
        raise BalanceError(f"fisher_exact_p needs non-negative counts, got {[[a, b], [c, d]]}")
    row1, col1, total = a + b, a + c, a + b + c + d
    if total == 0:
        return 1.0
    lo, hi = max(0, col1 - (total - row1)), min(row1, col1)

    def log_p(x: int) -> float:
        return _log_comb(col1, x) + _log_comb(total - col1, row1 - x) - _log_comb(total, row1)

    observed = log_p(a)
    cutoff = observed + math.log1p(1e-7)
    p = sum(math.exp(lp) for lp in (log_p(x) for x in range(lo, hi + 1)) if lp <= cutoff)
    return min(1.0, p)


def _log_comb(n: int, k: int) -> float:
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)


@dataclass(frozen=True)
class ProportionTest:
    """Result of comparing two proportions: ``diff = p2 - p1`` with interval and p-value."""

    k1: int
    n1: int
    k2: int
    n2: int
    diff: float
    low: float
    high: float
    p_value: float
    test: str  # "two-proportion z" or "Fisher exact"


def compare_proportions(k1: int, n1: int, k2: int, n2: int, min_expected: float = 5.0) -> ProportionTest:
    """Difference of two proportions with a Newcombe interval and a two-sided p-value.

    Uses the pooled two-proportion z-test when every expected cell count is at least
    ``min_expected`` (the usual textbook condition), otherwise Fisher's exact test.
    """
    for name, k, n in (("first", k1, n1), ("second", k2, n2)):
        if n <= 0 or k < 0 or k > n:
            raise BalanceError(f"compare_proportions: the {name} group needs 0 <= successes <= games and games > 0, "
                               f"got successes={k}, games={n}")
    p1, p2 = k1 / n1, k2 / n2
    low, high = newcombe_interval(k1, n1, k2, n2)
    pooled = (k1 + k2) / (n1 + n2)
    expected = [n * pooled for n in (n1, n2)] + [n * (1 - pooled) for n in (n1, n2)]
    if min(expected) < min_expected:
        p = fisher_exact_p([[k1, n1 - k1], [k2, n2 - k2]])
        test = "Fisher exact"
    else:
        se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
        p = 1.0 if se == 0 else float(2 * _sp.norm.sf(abs(p2 - p1) / se))
        test = "two-proportion z"
    return ProportionTest(k1, n1, k2, n2, p2 - p1, low, high, p, test)


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm step-down adjusted p-values: controls the family-wise error rate, no independence needed."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


def benjamini_hochberg(p_values: Sequence[float]) -> list[float]:
    """Benjamini-Hochberg adjusted p-values (q-values): controls the false discovery rate."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i], reverse=True)
    adjusted = [0.0] * m
    running = 1.0
    for pos, i in enumerate(order):
        rank = m - pos
        running = min(running, p_values[i] * m / rank)
        adjusted[i] = min(1.0, running)
    return adjusted


CORRECTIONS: dict[str, Callable[[Sequence[float]], list[float]]] = {"holm": holm, "bh": benjamini_hochberg}


def adjust(p_values: Sequence[float], method: str = "holm") -> list[float]:
    """Adjust p-values for multiple comparisons by name (``holm`` or ``bh``); ``none`` leaves them."""
    if method == "none":
        return list(p_values)
    if method not in CORRECTIONS:
        raise BalanceError(f"unknown correction {method!r}; choose holm, bh or none")
    return CORRECTIONS[method](p_values)


def bootstrap_difference(
    a: Sequence[float], b: Sequence[float], statistic: Callable[..., np.ndarray] = np.mean,
    n_boot: int = 2000, confidence: float = 0.95, seed: int = 0,
) -> tuple[float, float, float]:
    """``statistic(b) - statistic(a)`` with a percentile bootstrap interval (independent samples).

    ``statistic`` must accept ``axis=`` (``np.mean``, ``np.median``). Seeded, so a report is
    reproducible.
    """
    x, y = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if len(x) == 0 or len(y) == 0:
        raise BalanceError("bootstrap_difference needs at least one value in each group")
    rng = np.random.default_rng(seed)
    bx, by = _resampled(x, statistic, n_boot, rng), _resampled(y, statistic, n_boot, rng)
    tail = (1 - confidence) / 2 * 100
    low, high = np.percentile(by - bx, [tail, 100 - tail])
    return float(statistic(y) - statistic(x)), float(low), float(high)


def _resampled(x: np.ndarray, statistic: Callable[..., np.ndarray], n_boot: int, rng: np.random.Generator,
               budget: int = 2_000_000) -> np.ndarray:
    """``statistic`` of ``n_boot`` resamples of ``x``, drawn in blocks so memory stays near ``budget`` values."""
    rows = max(1, budget // len(x))
    return np.concatenate([statistic(x[rng.integers(0, len(x), size=(min(rows, n_boot - i), len(x)))], axis=1)
                           for i in range(0, n_boot, rows)])


def mean_interval(values: Sequence[float], confidence: float = 0.95) -> tuple[float, float, float]:
    """Mean with a Student-t interval; ``nan`` bounds for fewer than two values."""
    x = np.asarray(values, dtype=float)
    x = x[~np.isnan(x)]
    if len(x) == 0:
        return (math.nan, math.nan, math.nan)
    m = float(x.mean())
    if len(x) < 2:
        return (m, math.nan, math.nan)
    half = float(_sp.t.ppf(0.5 + confidence / 2, len(x) - 1) * x.std(ddof=1) / math.sqrt(len(x)))
    return (m, m - half, m + half)


@dataclass
class SPRTResult:
    """Outcome of a sequential probability ratio test on White wins (1) and non-wins (0)."""

    decision: str  # "H1" (shift of at least d accepted), "H0" (rejected) or "inconclusive"
    p0: float
    p1: float
    llr: float
    lower: float
    upper: float
    games: int
    wins: int
    history: list[tuple[int, float]] = field(default_factory=list)  # (games so far, LLR) after each batch
    skipped: int = 0  # games without a result (undecided ones, when only decided games are tested)

    @property
    def counted(self) -> int:
        """Games the test counted: played minus skipped."""
        return self.games - self.skipped

    def sentence(self) -> str:
        """The verdict in plain words, for reports and notebooks."""
        rate = self.wins / self.counted if self.counted else math.nan
        if self.skipped:
            played = (f"after {self.games} games ({self.counted} decided, {self.skipped} undecided left out; "
                      f"{self.wins} White wins, {rate:.1%} of decided games)")
        else:
            played = f"after {self.games} games ({self.wins} White wins, {rate:.1%})"
        if self.decision == "H1":
            return (f"SPRT accepts H1 {played}: White's win rate is nearer {self.p1:.3f} than {self.p0:.3f} "
                    f"(LLR {self.llr:.2f} >= {self.upper:.2f})")
        if self.decision == "H0":
            return (f"SPRT accepts H0 {played}: White's win rate is nearer {self.p0:.3f} than {self.p1:.3f} "
                    f"(LLR {self.llr:.2f} <= {self.lower:.2f})")
        return (f"SPRT inconclusive {played}: the game budget ran out with LLR {self.llr:.2f} "
                f"inside [{self.lower:.2f}, {self.upper:.2f}]")


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's log-likelihood-ratio bounds ``(log(beta/(1-alpha)), log((1-beta)/alpha))``."""
    if not (0 < alpha < 1 and 0 < beta < 1):
        raise BalanceError(f"SPRT needs 0 < alpha, beta < 1, got alpha={alpha}, beta={beta}")
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def sprt(
    run_batch: Callable[[int, int], Sequence[int | bool | None]], p0: float, p1: float | None = None, d: float | None = None,
    alpha: float = 0.05, beta: float = 0.05, batch: int = 20, max_games: int = 2000,
) -> SPRTResult:
    """Play batches until Wald's SPRT decides between ``p = p0`` and ``p = p1`` (or ``p0 + d``).

    ``run_batch(n, offset)`` returns ``n`` outcomes (1 = White won, 0 = lost, ``None`` = no result:
    left out, so a test of the first seat's share of decided games skips draws and unfinished games)
    for games numbered from ``offset`` (so seeds never repeat). The test stops at the first batch whose cumulative
    log-likelihood ratio leaves ``[log(beta/(1-alpha)), log((1-beta)/alpha)]``: chess-engine
    testing's way of spending no more games than the question needs. ``alpha`` is the chance of
    accepting H1 when ``p = p0``; ``beta`` of accepting H0 when ``p = p1``.
    """
    if (p1 is None) == (d is None):
        raise BalanceError("sprt needs exactly one of p1 (the alternative win rate) or d (the shift p1 - p0)")
    p1 = p0 + float(d or 0.0) if p1 is None else p1
    if not (0 < p0 < 1 and 0 < p1 < 1) or p0 == p1:
        raise BalanceError(f"sprt needs 0 < p0, p1 < 1 and p0 != p1, got p0={p0}, p1={p1}")
    if batch < 1 or max_games < 1:
        raise BalanceError(f"sprt needs batch >= 1 and max_games >= 1, got batch={batch}, max_games={max_games}")
    lower, upper = sprt_bounds(alpha, beta)
    win_step, loss_step = math.log(p1 / p0), math.log((1 - p1) / (1 - p0))
    games = wins = skipped = 0
    llr = 0.0
    history: list[tuple[int, float]] = []
    while games < max_games:
        n = min(batch, max_games - games)
        raw = list(run_batch(n, games))
        if len(raw) != n:
            raise BalanceError(f"sprt: run_batch({n}, {games}) returned {len(raw)} outcomes, expected {n}")
        outcomes = [int(bool(x)) for x in raw if x is not None]
        games += n
        skipped += n - len(outcomes)
        wins += sum(outcomes)
        llr = wins * win_step + (games - skipped - wins) * loss_step
        history.append((games, llr))
        if llr >= upper:
            return SPRTResult("H1", p0, p1, llr, lower, upper, games, wins, history, skipped)
        if llr <= lower:
            return SPRTResult("H0", p0, p1, llr, lower, upper, games, wins, history, skipped)
    return SPRTResult("inconclusive", p0, p1, llr, lower, upper, games, wins, history, skipped)
