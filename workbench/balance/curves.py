"""Response curves: how the first seat's advantage, decisiveness and game length move with a numeric rule parameter.

A comparison says whether ``archer_range=3`` differs from the rulebook's 2; a curve over 2, 3, 4
shows the trend a designer tunes along. Each point pools the games with that value over every other
column of the grid (full factorials, equal games per cell), like ``compare_toggles``. Advantage (the
first seat's share of decided games) and decisiveness (share decided) carry Wilson intervals, length
is the Kaplan-Meier median (capped games censored) with lifelines' interval.
"""

from __future__ import annotations

import math

import pandas as pd

from .cells import _is_missing, check_games, start_bound_columns
from .compare import game_default, sort_values, table_game
from .stats import BalanceError, mean_interval, wilson_interval
from .survival import length_summary
from .table import seats_of, table_schema

MIN_VALUES = 3  # fewer values make a comparison, not a curve


def curve_parameters(games: pd.DataFrame, min_values: int = MIN_VALUES) -> list[str]:
    """Numeric parameters that take at least ``min_values`` values in the table."""
    bound = set(start_bound_columns(games))  # set by the start files: part of the start, not a curve
    return [c for c in table_schema(games).numeric_rules if c in games.columns and c not in bound
            and games[c].map(lambda v: None if _is_missing(v) else v).dropna().nunique() >= min_values]


def response_curve(games: pd.DataFrame, column: str) -> pd.DataFrame:
    """One row per value of ``column``: games, White's win rate, decisiveness and mean plies with intervals."""
    usable = check_games(games, what="a response curve")
    if column not in usable.columns:
        raise BalanceError(f"the games table has no column {column!r} for a response curve")
    usable = usable[usable[column].map(lambda v: not _is_missing(v))]
    rows = []
    default = game_default(table_game(usable), column)
    for value in sort_values(set(usable[column])):
        g = usable[usable[column] == value]
        n = len(g)
        white = int((g["winner"] == "white").sum())
        decided = int(g["winner"].isin(["white", "black"]).sum())
        wl, wh = wilson_interval(white, n)
        dl, dh = wilson_interval(decided, n)
        pm, pl, ph = mean_interval(g["plies"].astype(float))
        first = seats_of(g)[0]
        won = g[g["outcome"] == "win"]
        k = int((won["winner"] == first).sum())
        al, ah = wilson_interval(k, len(won))
        km = length_summary(g["length"].astype(float), (g["outcome"] != "unfinished").to_numpy())
        rows.append({"value": value.item() if hasattr(value, "item") else value, "games": n,
                     "advantage": k / len(won) if len(won) else math.nan, "advantage_low": al, "advantage_high": ah,
                     "length_median": km.median, "length_low": km.low, "length_high": km.high,
                     "unfinished": float((g["outcome"] == "unfinished").mean()),
                     "white_rate": white / n, "white_low": wl, "white_high": wh,
                     "decisive": decided / n, "decisive_low": dl, "decisive_high": dh,
                     "plies_mean": pm, "plies_low": max(0.0, pl) if not math.isnan(pl) else pl, "plies_high": ph,
                     "default": value == default})
    return pd.DataFrame(rows)


def curve_sentence(column: str, curve: pd.DataFrame, seat: str = "white", unit: str = "plies") -> str:
    """``archer_range 2 → 3 → 4: White's share of decided games 44% → 56% → 67%; decided 90% → ...; median length ...``."""
    values = " → ".join(str(v) + (" (rulebook)" if d else "") for v, d in zip(curve["value"], curve["default"],
                                                                              strict=True))
    def arrow(xs: pd.Series, fmt: str) -> str:
        return " → ".join("–" if math.isnan(x) else ("not reached" if math.isinf(x) else fmt.format(x)) for x in xs)
    return (f"{column} {values}: {seat.capitalize()}'s share of decided games {arrow(100 * curve['advantage'], '{:.0f}%')}; "
            f"decided {arrow(100 * curve['decisive'], '{:.0f}%')}; median length {arrow(curve['length_median'], '{:.0f}')} "
            f"{unit}; unfinished {arrow(100 * curve['unfinished'], '{:.0f}%')} ({int(curve['games'].min())}+ games per value).")


def plot_response_curve(column: str, curve: pd.DataFrame, seat: str = "white") -> bytes:
    """Three panels against the value: advantage (orange), decisiveness (green), Kaplan-Meier median length
    (blue), 95% intervals; the rulebook value is a black square outline."""
    from . import palette
    from .figures import plt
    from .figures import png as _png

    fig, axes = plt.subplots(1, 3, figsize=(11, 3.2))
    x = curve["value"].astype(float)
    panels = (("advantage", "advantage_low", "advantage_high", f"{seat.capitalize()}'s share of decided games",
               True, palette.FIRST),
              ("decisive", "decisive_low", "decisive_high", "share of games decided", True, palette.DECIDED),
              ("length_median", "length_low", "length_high", "median length (Kaplan-Meier)", False, palette.LENGTH))
    for ax, (mid, lo, hi, label, share, colour) in zip(axes, panels, strict=True):
        y = curve[mid].replace([math.inf], math.nan)
        err = [(y - curve[lo]).clip(lower=0).fillna(0), (curve[hi].replace([math.inf], math.nan) - y).clip(lower=0).fillna(0)]
        ax.errorbar(x, y, yerr=err, fmt="o-", color=colour, capsize=3)
        default = curve[curve["default"]]
        if len(default):
            ax.plot(default["value"].astype(float), default[mid].replace([math.inf], math.nan), "s", ms=11, mfc="none",
                    mec=palette.REFERENCE, label="rulebook")
        if share:
            ax.set_ylim(-0.02, 1.02)
            if mid == "advantage":
                ax.axhline(0.5, color=palette.REFERENCE, lw=1, ls="--")
        ax.set_xticks(list(x))
        ax.set_xlabel(column)
        ax.set_title(label, fontsize=10)
    axes[0].legend(fontsize=8, frameon=False)
    fig.tight_layout()
    return _png(fig)


__all__ = ["MIN_VALUES", "curve_parameters", "curve_sentence", "plot_response_curve", "response_curve"]
