"""Comparisons between cells: does a rule make games more decisive, shift the first seat's advantage, or change length?

The three are kept apart because a designer acts on them differently: winter raising both sides'
wins by ten points makes games more decisive and favours nobody. Each comparison says which moved.

Each comparison pools the games of a variant value (winter) against the rulebook's default value
(summer) over every other toggle in the table. ``workbench.simulate`` grids are full factorials with
the same number of games per cell, so this is the toggle's average effect over the others; pass
``where`` to compare inside one slice instead. p-values are corrected for multiple comparisons
(Holm by default) because a grid asks many questions at once. The sequential test (SPRT) that plays
games until a shift is accepted or rejected is ``sprt_variant``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import pandas as pd

from .cells import _fmt, _is_missing, cell_columns, check_games, compared_columns, is_agent
from .power import detectable_difference
from .stats import BalanceError, SPRTResult, adjust, compare_proportions, sprt
from .survival import compare_lengths
from .table import DEFAULT_RULE, UNFINISHED_THRESHOLD, first_side_name, first_side_won, length_unit, normalize

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
    """``variant`` against ``baseline`` of one column, on the three quantities apart.

    - advantage: the first seat's share of decided games (``diff``, ``low``, ``high``, ``p_value``,
      ``p_adjusted``: the finding's significance);
    - decisiveness: the share of games decided (``dec_*``);
    - length: Kaplan-Meier medians, their difference with a bootstrap interval, the log-rank test (``length_*``).

    p-values are corrected over every test of the family at once (three per comparison).
    """

    column: str
    baseline: Any
    variant: Any
    games_baseline: int
    games_variant: int
    seat: str = "white"
    decided_baseline: int = 0
    decided_variant: int = 0
    adv_baseline: float = math.nan
    adv_variant: float = math.nan
    diff: float = math.nan  # advantage, variant - baseline, as a proportion
    low: float = math.nan
    high: float = math.nan
    p_value: float = math.nan
    test: str = ""
    p_adjusted: float = math.nan
    correction: str = "holm"
    dec_baseline: float = math.nan
    dec_variant: float = math.nan
    dec_diff: float = math.nan
    dec_low: float = math.nan
    dec_high: float = math.nan
    dec_p: float = math.nan
    dec_p_adjusted: float = math.nan
    median_baseline: float = math.nan
    median_variant: float = math.nan
    length_diff: float = math.nan  # Kaplan-Meier median, variant - baseline
    length_low: float = math.nan
    length_high: float = math.nan
    length_p: float = math.nan  # log-rank
    length_p_adjusted: float = math.nan
    unit: str = "plies"
    unfinished_baseline: float = math.nan
    unfinished_variant: float = math.nan
    threshold: float = 0.2
    adv_detectable: float = math.nan  # smallest advantage difference these decided games could see (80% power)
    dec_detectable: float = math.nan
    per_cell: int = 0  # games a cell (the smallest cell of either side)
    alpha: float = 0.05

    @property
    def decisive_significant(self) -> bool:
        return self.dec_p_adjusted < self.alpha

    @property
    def length_significant(self) -> bool:
        return self.length_p_adjusted < self.alpha

    def moved(self) -> list[str]:
        """Which of the three quantities moved clearly: a sublist of advantage, decisiveness, length."""
        return [name for name, yes in (("advantage", self.significant), ("decisiveness", self.decisive_significant),
                                       ("length", self.length_significant)) if yes]

    def _pp(self, raw: float, adjusted: float) -> str:
        text = f"p {_p(raw)}"
        if self.correction != "none":
            text += f", {CORRECTION_NAMES[self.correction]}-adjusted p {_p(adjusted)}"
        return text

    @staticmethod
    def _unchanged(low: float, high: float, margin: float = 0.05) -> str:
        """``is unchanged`` when the interval rules out a shift of ``margin``; else ``shows no clear change``."""
        return "is unchanged" if -margin <= low and high <= margin else "shows no clear change"

    def decisive_words(self) -> str:
        """``games are more decisive (+19.0 points, 95% CI [12.0, 26.0], p ...)`` or ``... unchanged``."""
        a, b = 100 * self.dec_baseline, 100 * self.dec_variant
        if self.decisive_significant:
            how = "more" if self.dec_diff > 0 else "less"
            return (f"games are {how} decisive ({100 * self.dec_diff:+.1f} points, {b:.0f}% vs {a:.0f}% decided, "
                    f"95% CI [{100 * self.dec_low:.1f}, {100 * self.dec_high:.1f}], "
                    f"{self._pp(self.dec_p, self.dec_p_adjusted)})")
        return (f"decisiveness {self._unchanged(self.dec_low, self.dec_high)} ({b:.0f}% vs {a:.0f}% decided, {100 * self.dec_diff:+.1f} points, "
                f"95% CI [{100 * self.dec_low:.1f}, {100 * self.dec_high:.1f}], {self._pp(self.dec_p, self.dec_p_adjusted)})")

    def advantage_words(self) -> str:
        """``White's share of decided games rises ...`` or ``White's share of decided games is unchanged (51% vs 50%, p = 0.7)``."""
        seat = self.seat.capitalize()
        a, b = 100 * self.adv_baseline, 100 * self.adv_variant
        if math.isnan(self.diff):
            return f"{seat}'s share of decided games cannot be compared (no decided game on one side)"
        ci = f"95% CI [{100 * self.low:.1f}, {100 * self.high:.1f}]"
        if self.significant:
            how = "rises" if self.diff > 0 else "falls"
            return (f"{seat}'s share of decided games {how} ({b:.0f}% vs {a:.0f}%, {100 * self.diff:+.1f} points, "
                    f"{ci}, {self._pp(self.p_value, self.p_adjusted)})")
        return (f"{seat}'s share of decided games {self._unchanged(self.low, self.high)} ({b:.0f}% vs {a:.0f}%, {100 * self.diff:+.1f} points, "
                f"{ci}, {self._pp(self.p_value, self.p_adjusted)})")

    def length_words(self) -> str:
        """``games are shorter (median 64 vs 80 plies, ...)``; medians not reached are said so."""
        def med(x: float) -> str:
            return "not reached" if math.isinf(x) else ("–" if math.isnan(x) else f"{x:.0f}")
        medians = f"median {med(self.median_variant)} vs {med(self.median_baseline)} {self.unit}"
        if not math.isnan(self.length_low):
            medians += f", difference {self.length_diff:+.0f} [{self.length_low:.0f}, {self.length_high:.0f}]"
        test = f"log-rank {self._pp(self.length_p, self.length_p_adjusted)}"
        if math.isnan(self.length_p):
            return f"length not compared ({medians})"
        if self.length_significant:
            longer = (self.length_diff > 0 if not math.isnan(self.length_diff)
                      else math.isinf(self.median_variant) and not math.isinf(self.median_baseline))
            return f"games are {'longer' if longer else 'shorter'} ({medians}, {test})"
        return f"length shows no clear change ({medians}, {test})"

    def caution(self) -> str:
        """A warning when either side has more unfinished games than the threshold (empty otherwise)."""
        over = [(name, share) for name, share in ((variant_name(self.column, self.variant), self.unfinished_variant),
                                                  (variant_name(self.column, self.baseline), self.unfinished_baseline))
                if share > self.threshold]
        if not over:
            return ""
        listing = " and ".join(f"{100 * share:.0f}% of {name.lower()} games" for name, share in over)
        return (f" Caution: {listing} are unfinished (over {100 * self.threshold:.0f}%): advantage is measured on "
                "the games that finished in time, and decisiveness depends on the cap.")

    def verdict(self) -> str:
        """All three in one sentence, the ones that moved first, e.g. ``Winter: games are more decisive
        (+19.0 points, ...); White's share of decided games is unchanged (51% vs 50%, p = 0.700); ...``."""
        parts = [(self.decisive_significant, self.decisive_words()), (self.significant, self.advantage_words()),
                 (self.length_significant, self.length_words())]
        parts.sort(key=lambda x: not x[0])
        return f"{self.name}: " + "; ".join(p for _, p in parts) + "." + self.caution()

    def length_verdict(self) -> str:
        """The game-length finding alone, in words."""
        return f"{self.name}: {self.length_words()}"

    def detectable_words(self) -> str:
        """What these games could not have seen: ``Winter: with 200 games a cell, differences under 14 points in
        decisiveness (...) and under 15 points in advantage (...) could not be seen (80% power).``"""
        parts = []
        if not math.isnan(self.dec_detectable):
            parts.append(f"differences under {math.ceil(100 * self.dec_detectable)} points in decisiveness "
                         f"({self.games_variant} against {self.games_baseline} games)")
        if not math.isnan(self.adv_detectable):
            parts.append(f"under {math.ceil(100 * self.adv_detectable)} points in advantage "
                         f"({self.decided_variant} against {self.decided_baseline} decided games)")
        per = f"with {self.per_cell} games a cell, " if self.per_cell else ""
        if not parts:
            return f"{self.name}: {per}too few games to see any difference."
        return f"{self.name}: {per}" + " and ".join(parts) + " could not be seen (80% power)."

    def as_row(self) -> dict[str, Any]:
        """A flat dict for a DataFrame, with the verdicts."""
        row = asdict(self)
        row.update(name=self.name, significant=self.significant, moved=",".join(self.moved()), verdict=self.verdict(),
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
    n_boot: int = 2000, seed: int = 0, threshold: float = UNFINISHED_THRESHOLD,
) -> Comparison:
    """Compare the games with ``column == variant`` against those with ``column == baseline``.

    Advantage (first seat's share of decided games) and decisiveness (share decided): Newcombe
    intervals and two-proportion z-tests (Fisher's exact test for small counts). Length: Kaplan-Meier
    medians, log-rank test, bootstrap interval of the median difference. p-values here are
    uncorrected; ``compare_toggles`` corrects a whole family.
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
    first = first_side_name(usable)  # the first seat, or its team in a team game
    keys = [k for k in cell_columns(usable) if k in usable.columns]
    per_cell = int(min(part.groupby([part[k].map(_key) for k in keys]).size().min() if keys else len(part)
                       for part in (a, b)))
    da, db = a[a["outcome"] == "win"], b[b["outcome"] == "win"]
    fa, fb = int(first_side_won(da).sum()), int(first_side_won(db).sum())
    c = Comparison(column, baseline, variant, len(a), len(b), seat=first, decided_baseline=len(da),
                   decided_variant=len(db), unit=length_unit(usable), threshold=threshold,
                   unfinished_baseline=float((a["outcome"] == "unfinished").mean()),
                   unfinished_variant=float((b["outcome"] == "unfinished").mean()), correction="none",
                   per_cell=per_cell)
    if len(da) and len(db):
        adv = compare_proportions(fa, len(da), fb, len(db))
        c.adv_baseline, c.adv_variant = fa / len(da), fb / len(db)
        c.diff, c.low, c.high, c.p_value, c.test = adv.diff, adv.low, adv.high, adv.p_value, adv.test
        c.adv_detectable = detectable_difference(len(da), len(db))
    else:
        c.p_value = 1.0
    dec = compare_proportions(len(da), len(a), len(db), len(b))
    c.dec_baseline, c.dec_variant = len(da) / len(a), len(db) / len(b)
    c.dec_diff, c.dec_low, c.dec_high, c.dec_p = dec.diff, dec.low, dec.high, dec.p_value
    c.dec_detectable = detectable_difference(len(a), len(b))
    lengths = compare_lengths(a["length"].astype(float), (a["outcome"] != "unfinished").to_numpy(),
                              b["length"].astype(float), (b["outcome"] != "unfinished").to_numpy(),
                              n_boot=max(0, n_boot // 4), seed=seed)
    c.median_baseline, c.median_variant = lengths.baseline.median, lengths.variant.median
    c.length_diff, c.length_low, c.length_high, c.length_p = lengths.diff, lengths.low, lengths.high, lengths.p_value
    c.p_adjusted, c.dec_p_adjusted, c.length_p_adjusted = c.p_value, c.dec_p, c.length_p
    return c


def compare_toggles(
    games: pd.DataFrame, correction: str = "holm", alpha: float = 0.05, n_boot: int = 2000, seed: int = 0,
    threshold: float = UNFINISHED_THRESHOLD, agents: bool = True,
) -> list[Comparison]:
    """Every varying rule (and, with ``agents``, agent) value against its baseline value, with corrected p-values.

    The baseline is the rulebook default where the table has it (``default`` in a generic ``rules``
    table), otherwise the first value in sorted order; each other value of the column is one
    comparison. Its three tests (advantage, decisiveness, length) all join the corrected family.
    """
    usable = check_games(games, what="a comparison")
    comparisons: list[Comparison] = []
    game = table_game(usable)
    for column in compared_columns(usable):
        if not agents and is_agent(column, usable):
            continue
        values = sort_values({_key(v) for v in usable[column]})
        baseline = baseline_value(column, values, game)
        for variant in values:
            if variant != baseline:
                comparisons.append(compare(usable, column, baseline, variant, n_boot=n_boot, seed=seed,
                                           threshold=threshold))
    raw = [p for c in comparisons for p in (c.p_value, c.dec_p, c.length_p)]
    adjusted = adjust([1.0 if math.isnan(p) else p for p in raw], correction)
    for i, c in enumerate(comparisons):
        c.p_adjusted, c.dec_p_adjusted, c.length_p_adjusted = adjusted[3 * i: 3 * i + 3]
        c.correction, c.alpha = correction, alpha
    return comparisons


_NO_DEFAULT = object()


def table_game(games: pd.DataFrame) -> str | None:
    """The one game a table holds (``table.table_game``: its metadata, ``game`` column or declared columns), or
    None when the table says no game."""
    from .table import table_game as game_of

    try:
        return game_of(games)
    except BalanceError:
        return None


def game_default(game: str | None, column: str) -> Any:
    """The default of ``column`` in ``game``'s rules spec, as the table writes it (``_NO_DEFAULT`` if none).

    ``game`` None is a table of no known game: no default is known. ``start_id`` ``none`` is simulate's own
    column for the game's classic start (``start=PATH`` names another).
    """
    if column == "start_id":
        return "none"
    try:
        from workbench.core.rulespec import format_value
        from workbench.games import get

        if game is None:
            return _NO_DEFAULT
        spec = get(game).spec
    except (ImportError, KeyError, ValueError):
        return _NO_DEFAULT
    if column not in spec:
        return _NO_DEFAULT
    value = spec[column].default
    return value if isinstance(value, (bool, int, float)) else format_value(value)


def baseline_value(column: str, values: list[Any], game: str | None = None) -> Any:
    """The value others are compared against: the rulebook default when present, else the first.

    ``game`` (the table's ``game`` column) names whose rulebook: the game's rules spec gives its defaults.
    """
    if is_agent(column, game):
        return values[0]
    if DEFAULT_RULE in values:
        return DEFAULT_RULE
    default = game_default(game, column)
    return default if default is not _NO_DEFAULT and default in values else values[0]


def comparisons_table(comparisons: list[Comparison]) -> pd.DataFrame:
    """The comparisons as a DataFrame (one row each, verdicts included)."""
    return pd.DataFrame([c.as_row() for c in comparisons])


def seats_of(first: str | Sequence[str], second: str | None = None) -> tuple[str, ...]:
    """The seats' agents: ``first`` a sequence (one for every seat, or one per seat), or the two-seat shorthand
    ``first, second`` (the first and second seat's agents, taking turns in a game of more seats)."""
    if isinstance(first, str):
        return (first,) if second is None else (first, second)
    if second is not None:
        raise ValueError("give the seats' agents as one sequence, or the two-seat shorthand first, second")
    seats = tuple(first)
    if not seats:
        raise ValueError("name the seats' agents")
    return seats


def simulation_runner(
    rules: str | Mapping[str, Any], first: str | Sequence[str], second: str | None = None, seed: int = 0,
    max_plies: int = 300,
    simulate: Callable[..., pd.DataFrame] | None = None, decided_only: bool = False, **options: Any,
) -> Callable[[int, int], list[int | None]]:
    """A ``run_batch(n, offset)`` for ``sprt`` that plays ``n`` real games of one cell.

    The batch starting at game ``offset`` is simulated with seed ``seed + offset``; ``simulate``
    hashes (seed, cell, index) into each game's seed, so no two batches repeat a game. With
    ``decided_only`` a game without a winner is ``None`` (left out: the test is then on the first seat's
    share of decided games, its advantage, not on a mix of advantage and decisiveness). ``first``: the seats'
    agents (``seats_of``: a sequence, or with ``second`` the two-seat shorthand); ``options`` go to ``simulate``
    (``game=`` ...). A game is a 1 when the first seat (or its team) won.
    """
    seats = seats_of(first, second)
    if simulate is None:
        from workbench.simulate import simulate as play
    else:
        play = simulate

    def run_batch(n: int, offset: int) -> list[int | None]:
        df = play([rules], games=n, agents=seats, seed=seed + offset, max_plies=max_plies, progress=False,
                  **options)
        if isinstance(df, tuple):
            df = df[0]
        table = normalize(df)
        won = first_side_won(table)
        return [None if decided_only and o != "win" else int(w) for o, w in zip(table["outcome"], won, strict=True)]

    return run_batch


def sprt_variant(
    rules: str | Mapping[str, Any], first: str | Sequence[str], second: str | None = None, *, p0: float, d: float,
    alpha: float = 0.05,
    beta: float = 0.05, batch: int = 20, max_games: int = 1000, seed: int = 0, max_plies: int = 300,
    decided_only: bool = True, **options: Any,
) -> SPRTResult:
    """Play games of the variant ``rules`` until "it shifts the first seat's share of decided games from ``p0`` by
    at least ``d``" is accepted or rejected (Wald's SPRT). ``p0`` is the baseline share (from an earlier
    batch). Undecided games are left out (``decided_only=False``: the first seat's wins over all games, as
    before). ``first``: the seats' agents (one sequence), or with ``second`` the two-seat shorthand (``seats_of``)."""
    return sprt(simulation_runner(rules, first, second, seed=seed, max_plies=max_plies, decided_only=decided_only,
                                  **options),
                p0, d=d, alpha=alpha, beta=beta, batch=batch, max_games=max_games)

