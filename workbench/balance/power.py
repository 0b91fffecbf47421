"""How many games a question needs, before a batch; what a batch could have seen, after it.

The comparisons in ``compare`` test a difference of two proportions (a share of decided games, or a
first seat's share of them) with the pooled two-proportion z-test. Its sample size has a closed form
(Fleiss, *Statistical Methods for Rates and Proportions*, without continuity correction):

    n1 = (z_{1-a/2} sqrt(pbar (1 - pbar) (1 + 1/r)) + z_{1-b} sqrt(p1 (1 - p1) + p2 (1 - p2) / r))^2 / d^2

with ``p2 = p1 + d``, ``n2 = r n1`` and ``pbar`` the pooled share; statsmodels'
``samplesize_proportions_2indep_onetail`` computes the same (the tests check it). The figure is per
comparison, before any correction for the many comparisons a grid makes (Holm makes each a little
stricter: plan a margin). Proportions near 1/2 need the most games, so ``base=0.5`` is the safe plan.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from scipy import stats as _sp
from scipy.optimize import brentq

from .stats import BalanceError


def _check(power: float, alpha: float) -> None:
    if not 0 < alpha < 1:
        raise BalanceError(f"alpha must be between 0 and 1, got {alpha}")
    if not 0 < power < 1:
        raise BalanceError(f"power must be between 0 and 1, got {power}")


def _pair(base: float, diff: float) -> tuple[float, float]:
    """(p1, p2) with p2 = p1 + diff inside (0, 1); a shift that would leave it goes the other way."""
    if not 0 < base < 1:
        raise BalanceError(f"base must be a proportion between 0 and 1, got {base}")
    if not 0 < abs(diff) < 1:
        raise BalanceError(f"diff must be a difference of proportions between 0 and 1 (0.05 = 5 points), got {diff}")
    p2 = base + abs(diff)
    if p2 >= 1:
        p2 = base - abs(diff)
    if p2 <= 0:
        raise BalanceError(f"no proportion lies {abs(diff)} away from {base} inside (0, 1)")
    return base, p2


def power_two_proportions(diff: float, n1: float, n2: float | None = None, alpha: float = 0.05,
                          base: float = 0.5) -> float:
    """Power of the two-sided pooled z-test to see ``p2 - p1 = diff`` with ``n1`` and ``n2`` games."""
    n2 = n1 if n2 is None else n2
    if n1 <= 0 or n2 <= 0:
        return 0.0
    p1, p2 = _pair(base, diff)
    pbar = (n1 * p1 + n2 * p2) / (n1 + n2)
    se0 = math.sqrt(pbar * (1 - pbar) * (1 / n1 + 1 / n2))
    se1 = math.sqrt(p1 * (1 - p1) / n1 + p2 * (1 - p2) / n2)
    z = _sp.norm.ppf(1 - alpha / 2)
    d = abs(p2 - p1)
    return float(_sp.norm.cdf((d - z * se0) / se1) + _sp.norm.cdf((-d - z * se0) / se1))


def games_needed(diff: float = 0.05, power: float = 0.8, alpha: float = 0.05, base: float = 0.5,
                 ratio: float = 1.0) -> int:
    """Games in the first group (``ratio`` times as many in the second) for the two-sided pooled z-test to
    see a difference of ``diff`` (0.05 = 5 points) from ``base`` with probability ``power`` at ``alpha``.

    >>> games_needed(0.05)   # two win shares of 50% and 55%
    1565
    """
    _check(power, alpha)
    if ratio <= 0:
        raise BalanceError(f"ratio must be positive, got {ratio}")
    p1, p2 = _pair(base, diff)
    pbar = (p1 + ratio * p2) / (1 + ratio)
    za, zb = _sp.norm.ppf(1 - alpha / 2), _sp.norm.ppf(power)
    root = za * math.sqrt(pbar * (1 - pbar) * (1 + 1 / ratio)) + zb * math.sqrt(p1 * (1 - p1) + p2 * (1 - p2) / ratio)
    return int(math.ceil(float(root ** 2 / (p2 - p1) ** 2 - 1e-9)))


def games_needed_one(diff: float = 0.05, power: float = 0.8, alpha: float = 0.05, base: float = 0.5) -> int:
    """Games for one group's share to be told from ``base`` (e.g. a cell's first-seat share from 50%)."""
    _check(power, alpha)
    p1, p2 = _pair(base, diff)
    za, zb = _sp.norm.ppf(1 - alpha / 2), _sp.norm.ppf(power)
    root = za * math.sqrt(p1 * (1 - p1)) + zb * math.sqrt(p2 * (1 - p2))
    return int(math.ceil(float(root ** 2 / (p2 - p1) ** 2 - 1e-9)))


def detectable_difference(n1: float, n2: float | None = None, power: float = 0.8, alpha: float = 0.05,
                          base: float = 0.5) -> float:
    """The smallest difference (a proportion) the two-sided z-test sees with probability ``power`` given
    ``n1`` and ``n2`` games; differences below it could not be seen. ``nan`` without games."""
    _check(power, alpha)
    n2 = n1 if n2 is None else n2
    if n1 < 1 or n2 < 1:
        return math.nan
    top = max(base, 1 - base) - 1e-6
    if power_two_proportions(top, n1, n2, alpha, base) < power:
        return math.nan  # not even the largest shift could be seen
    return float(brentq(lambda d: power_two_proportions(d, n1, n2, alpha, base) - power, 1e-6, top, xtol=1e-6))


@dataclass(frozen=True)
class PlanRow:
    """One comparison of a grid: its column, how many cells pool into each side, games needed."""

    column: str
    values: int
    cells_per_value: int
    games_per_value: int
    games_per_cell: int


def plan_grid(sizes: Mapping[str, int], diff: float = 0.05, power: float = 0.8, alpha: float = 0.05,
              base: float = 0.5) -> list[PlanRow]:
    """Games per cell for each varying column of a full factorial grid (``{"season": 2, "hill": 2}``).

    A comparison of one value against the baseline pools every cell with that value (the product of
    the other columns' sizes), so each cell needs ``games_needed / cells_per_value`` games.
    """
    per_value = games_needed(diff, power, alpha, base)
    total = math.prod(sizes.values()) if sizes else 1
    rows = []
    for column, k in sizes.items():
        if k < 2:
            continue
        cells = total // k
        rows.append(PlanRow(column, k, cells, per_value, math.ceil(per_value / cells)))
    return rows


def plan_text(sizes: Mapping[str, int], points: float, power: float = 0.8, alpha: float = 0.05,
              base: float = 0.5, games: int | None = None) -> list[str]:
    """The lines ``simulate --plan`` prints: games per cell for each comparison of the batch, no game played;
    with ``games`` (the batch's ``--games``), also what that many games a cell could not see."""
    diff = points / 100
    total = math.prod(sizes.values()) if sizes else 1
    varying = {k: v for k, v in sizes.items() if v > 1}
    rows = plan_grid(varying, diff, power, alpha, base)
    shape = " x ".join(f"{k} ({v})" for k, v in varying.items()) or "one cell"
    lines = [f"plan: {total} cell{'s' if total != 1 else ''} ({shape}); to see a {points:g}-point difference "
             f"with {100 * power:.0f}% power (two-sided alpha {alpha}, around {100 * base:.0f}%, before multiple-"
             "comparison correction):"]
    if not rows:
        one = games_needed_one(diff, power, alpha, base)
        lines.append(f"  one cell's first-seat share against {100 * base:.0f}%: {one} decided games")
        return lines
    need = max(r.games_per_cell for r in rows)
    for r in rows:
        lines.append(f"  {r.column}: each value against the baseline pools {r.cells_per_value} cell"
                     f"{'s' if r.cells_per_value != 1 else ''}: {r.games_per_value} games per value, "
                     f"{r.games_per_cell} games per cell")
    lines.append(f"  games per cell: {need} (decisiveness: share of games decided)")
    lines.append(f"  advantage counts decided games only: divide by the share decided, e.g. "
                 f"{math.ceil(need / 0.5)} games per cell if half the games are decided")
    if games:
        pooled = games * min(r.cells_per_value for r in rows)
        d = detectable_difference(pooled, pooled, power, alpha, base)
        seen = "no difference could be seen" if math.isnan(d) else \
            f"differences under {math.ceil(100 * d)} points could not be seen"
        lines.append(f"  with --games {games} ({pooled} games a value): {seen}")
    return lines


def detectable_sentence(games_per_cell: Sequence[int] | int, n1: float, n2: float, what: str = "",
                        power: float = 0.8, alpha: float = 0.05) -> str:
    """``With 200 games a cell, differences under 14 points could not be seen (80% power).``

    ``n1``/``n2`` are the games the comparison rests on; ``what`` names it (`` in decisiveness``).
    """
    d = detectable_difference(n1, n2, power, alpha)
    counts = sorted({int(games_per_cell)} if isinstance(games_per_cell, int) else set(map(int, games_per_cell)))
    per = f"{counts[0]}" if len(counts) == 1 else f"{counts[0]}–{counts[-1]}"
    if math.isnan(d):
        return f"With {per} games a cell, no difference{what} could be seen."
    return (f"With {per} games a cell, differences under {math.ceil(100 * d)} points{what} could not be seen "
            f"({100 * power:.0f}% power).")


__all__ = ["PlanRow", "detectable_difference", "detectable_sentence", "games_needed", "games_needed_one",
           "plan_grid", "plan_text", "power_two_proportions"]
