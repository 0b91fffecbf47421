"""Comparisons between cells: does a toggle or a rule parameter shift White's win rate or the game length, and how sure are we?

Each comparison pools the games of a variant value (winter) against the rulebook's default value
(summer) over every other toggle in the table. ``workbench.simulate`` grids are full factorials with
the same number of games per cell, so this is the toggle's average effect over the others; pass
``where`` to compare inside one slice instead. p-values are corrected for multiple comparisons
(Holm by default) because a grid asks many questions at once. The sequential test (SPRT) that plays
games until a shift is accepted or rejected is ``sprt_variant``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import pandas as pd

from .cells import AGENTS, _fmt, _is_missing, check_games, compared_columns
from .stats import BalanceError, SPRTResult, adjust, bootstrap_difference, compare_proportions, sprt

# The rulebook default of each toggle (BOARD-AND-RULINGS.md section 7): the baseline of a comparison.
DEFAULTS: dict[str, Any] = {
    "season": "summer", "hill": True, "swamp": True, "terrain": "rolled", "castling": "swap",
    "archer_melee": False, "mate_defence": "feudal", "draw_after": "none", "pike_cavalry_mutual": False,
    # rule parameters (issue 11); "none" = the classic start
    "archer_range": 2, "hill_bonus": 1, "aura_radius": 2, "aura_step": 2, "aura_memory": True, "coordinated": 2,
    "order_size": 2, "order_radius": 2, "castling_uses": 1, "promotion": True, "knight_bridge_stop": True,
    "bridges": "b4,f6,k4", "fords": "d5,h5", "start_id": "none",
}
CORRECTION_NAMES = {"holm": "Holm", "bh": "Benjamini-Hochberg", "none": "uncorrected"}


class VariantFinding:
    """What every finding of a variant against its baseline has: a plain name, and significance once the
    p-values of the whole family are corrected (win rates here, rule usage in ``usage``)."""

    column: str
    variant: Any
    p_adjusted: float
    alpha: float

    @property
    def name(self) -> str:
        """Plain name of the variant, e.g. ``Winter``, ``Swamp off``, ``Castling sacrifice``."""
        return variant_name(self.column, self.variant)

    @property
    def significant(self) -> bool:
        """True when the corrected p-value is below ``alpha``."""
        return self.p_adjusted < self.alpha


@dataclass
class Comparison(VariantFinding):
    """White's win rate and game length under ``variant`` minus under ``baseline`` of one column."""

    column: str
    baseline: Any
    variant: Any
    games_baseline: int
    games_variant: int
    white_baseline: float
    white_variant: float
    diff: float  # variant - baseline, as a proportion
    low: float
    high: float
    p_value: float
    test: str
    p_adjusted: float = math.nan
    correction: str = "holm"
    length_diff: float = math.nan  # mean plies, variant - baseline
    length_low: float = math.nan
    length_high: float = math.nan
    alpha: float = 0.05

    def verdict(self) -> str:
        """The win-rate finding in words, e.g. ``Winter: White wins 4.1 points more often, 95% CI [1.2, 7.0], p = 0.006``."""
        points, lo, hi = 100 * self.diff, 100 * self.low, 100 * self.high
        base = variant_name(self.column, self.baseline).lower()
        against = f"than with {base}"
        p_text = f"p {_p(self.p_value)}"
        if self.correction != "none":
            p_text += f", {CORRECTION_NAMES[self.correction]}-adjusted p {_p(self.p_adjusted)}"
        if self.significant:
            how = "more" if self.diff > 0 else "less"
            return (f"{self.name}: White wins {abs(points):.1f} points {how} often {against}, "
                    f"95% CI [{lo:.1f}, {hi:.1f}], {p_text}")
        return (f"{self.name}: no clear change in White's win rate vs {base} ({points:+.1f} points, "
                f"95% CI [{lo:.1f}, {hi:.1f}], {p_text})")

    def length_verdict(self) -> str:
        """The game-length finding in words, with the bootstrap interval of the mean difference."""
        if math.isnan(self.length_diff):
            return f"{self.name}: game length not compared"
        clear = self.length_low > 0 or self.length_high < 0
        word = ("longer" if self.length_diff > 0 else "shorter") if clear else "about as long"
        return (f"{self.name}: games are {word} ({self.length_diff:+.1f} plies on average, "
                f"95% bootstrap CI [{self.length_low:.1f}, {self.length_high:.1f}])")

    def as_row(self) -> dict[str, Any]:
        """A flat dict for a DataFrame, with the verdicts."""
        row = asdict(self)
        row.update(name=self.name, significant=self.significant, verdict=self.verdict(),
                   length_verdict=self.length_verdict())
        return row


def _p(p: float) -> str:
    """``= 0.006`` or ``< 0.001``: the relation comes with the number, so the text never says ``p = < 0.001``."""
    return "< 0.001" if p < 0.001 else f"= {p:.3f}"


def variant_name(column: str, value: Any) -> str:
    """``season``/``winter`` -> ``Winter``; ``swamp``/False -> ``Swamp off``; agents -> ``White agent greedy``."""
    if column == "season":
        return str(value).capitalize()
    if column == "start_id":
        return "Classic start" if _is_missing(value) or value == "none" else f"Start {value}"
    words = column.replace("_", " ")
    return f"{words[0].upper()}{words[1:]} {_fmt(value)}"


def _key(value: Any) -> Any:
    return "none" if _is_missing(value) else value


def sort_values(values: Any) -> list[Any]:
    """Column values in a reading order: numbers numerically (2, 3, 10), then the rest as text."""
    def order(v: Any) -> tuple[int, float, str]:
        if isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, (bool, np.bool_)):
            return (0, float(v), "")
        return (1, 0.0, str(v))
    return sorted(values, key=order)


def compare(
    games: pd.DataFrame, column: str, baseline: Any, variant: Any, where: Mapping[str, Any] | None = None,
    n_boot: int = 2000, seed: int = 0,
) -> Comparison:
    """Compare the games with ``column == variant`` against those with ``column == baseline``.

    Win rate: Newcombe interval and a two-proportion z-test (Fisher's exact test for small
    counts). Length: percentile bootstrap of the difference in mean plies.
    """
    usable = check_games(games, what="a comparison")
    if column not in usable.columns:
        raise BalanceError(f"the games table has no column {column!r} to compare on")
    for name, value in (where or {}).items():
        if name not in usable.columns:
            raise BalanceError(f"the games table has no column {name!r} to select on")
        usable = usable[usable[name].map(_key) == _key(value)]
    values = usable[column].map(_key)
    a, b = usable[values == _key(baseline)], usable[values == _key(variant)]
    for value, part in ((baseline, a), (variant, b)):
        if len(part) == 0:
            raise BalanceError(f"no games with {column}={_fmt(value)}"
                               + (f" where {dict(where)}" if where else "") + "; nothing to compare")
    wa, wb = int((a["winner"] == "white").sum()), int((b["winner"] == "white").sum())
    test = compare_proportions(wa, len(a), wb, len(b))
    ld, llo, lhi = bootstrap_difference(a["plies"], b["plies"], n_boot=n_boot, seed=seed)
    return Comparison(column, baseline, variant, len(a), len(b), wa / len(a), wb / len(b), test.diff, test.low,
                      test.high, test.p_value, test.test, test.p_value, "none", ld, llo, lhi)


def compare_toggles(
    games: pd.DataFrame, correction: str = "holm", alpha: float = 0.05, n_boot: int = 2000, seed: int = 0,
) -> list[Comparison]:
    """Every varying toggle (and agent) against its baseline value, with corrected p-values.

    The baseline is the rulebook default where the table has it, otherwise the first value in
    sorted order; each other value of the column is one comparison.
    """
    usable = check_games(games, what="a comparison")
    comparisons: list[Comparison] = []
    for column in compared_columns(usable):
        values = sort_values({_key(v) for v in usable[column]})
        default = DEFAULTS.get(column)
        baseline = default if column not in AGENTS and default in values else values[0]
        for variant in values:
            if variant != baseline:
                comparisons.append(compare(usable, column, baseline, variant, n_boot=n_boot, seed=seed))
    adjusted = adjust([c.p_value for c in comparisons], correction)
    for c, p in zip(comparisons, adjusted, strict=True):
        c.p_adjusted, c.correction, c.alpha = p, correction, alpha
    return comparisons


def comparisons_table(comparisons: list[Comparison]) -> pd.DataFrame:
    """The comparisons as a DataFrame (one row each, verdicts included)."""
    return pd.DataFrame([c.as_row() for c in comparisons])


def simulation_runner(
    rules: str | Mapping[str, Any], white: str, black: str, seed: int = 0, max_plies: int = 300,
    simulate: Callable[..., pd.DataFrame] | None = None, **options: Any,
) -> Callable[[int, int], list[int]]:
    """A ``run_batch(n, offset)`` for ``sprt`` that plays ``n`` real games of one cell.

    The batch starting at game ``offset`` is simulated with seed ``seed + offset``; ``simulate``
    hashes (seed, cell, index) into each game's seed, so no two batches repeat a game.
    """
    if simulate is None:
        from workbench.simulate import simulate

    def run_batch(n: int, offset: int) -> list[int]:
        df = simulate([rules], white, black, games=n, seed=seed + offset, max_plies=max_plies, progress=False,
                      **options)
        if isinstance(df, tuple):
            df = df[0]
        return [int(w == "white") for w in df["winner"]]

    return run_batch


def sprt_variant(
    rules: str | Mapping[str, Any], white: str, black: str, p0: float, d: float, alpha: float = 0.05,
    beta: float = 0.05, batch: int = 20, max_games: int = 1000, seed: int = 0, max_plies: int = 300,
    **options: Any,
) -> SPRTResult:
    """Play games of the variant ``rules`` until "it shifts White's win rate from ``p0`` by at least ``d``"
    is accepted or rejected (Wald's SPRT). ``p0`` is the baseline win rate (from an earlier batch)."""
    return sprt(simulation_runner(rules, white, black, seed=seed, max_plies=max_plies, **options),
                p0, d=d, alpha=alpha, beta=beta, batch=batch, max_games=max_games)

