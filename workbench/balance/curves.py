"""Response curves: how White's win rate, game length and decisiveness move with a numeric rule parameter.

A comparison says whether ``archer_range=3`` differs from the rulebook's 2; a curve over 2, 3, 4
shows the trend a designer tunes along. Each point pools the games with that value over every other
column of the grid (full factorials, equal games per cell), like ``compare_toggles``. Win rate and
decisiveness (share of games with a winner) carry Wilson intervals, mean length a Student-t interval.
"""

from __future__ import annotations

import math

import pandas as pd

from .cells import NUMERIC_PARAMETERS, _is_missing, check_games, start_bound_columns
from .compare import DEFAULTS, sort_values
from .stats import BalanceError, mean_interval, wilson_interval

MIN_VALUES = 3  # fewer values make a comparison, not a curve


def curve_parameters(games: pd.DataFrame, min_values: int = MIN_VALUES) -> list[str]:
    """Numeric parameters that take at least ``min_values`` values in the table."""
    bound = set(start_bound_columns(games))  # set by the start files: part of the start, not a curve
    return [c for c in NUMERIC_PARAMETERS if c in games.columns and c not in bound
            and games[c].map(lambda v: None if _is_missing(v) else v).dropna().nunique() >= min_values]


def response_curve(games: pd.DataFrame, column: str) -> pd.DataFrame:
    """One row per value of ``column``: games, White's win rate, decisiveness and mean plies with intervals."""
    usable = check_games(games, what="a response curve")
    if column not in usable.columns:
        raise BalanceError(f"the games table has no column {column!r} for a response curve")
    usable = usable[usable[column].map(lambda v: not _is_missing(v))]
    rows = []
    for value in sort_values(set(usable[column])):
        g = usable[usable[column] == value]
        n = len(g)
        white = int((g["winner"] == "white").sum())
        decided = int(g["winner"].isin(["white", "black"]).sum())
        wl, wh = wilson_interval(white, n)
        dl, dh = wilson_interval(decided, n)
        pm, pl, ph = mean_interval(g["plies"].astype(float))
        rows.append({"value": value.item() if hasattr(value, "item") else value, "games": n,
                     "white_rate": white / n, "white_low": wl, "white_high": wh,
                     "decisive": decided / n, "decisive_low": dl, "decisive_high": dh,
                     "plies_mean": pm, "plies_low": max(0.0, pl) if not math.isnan(pl) else pl, "plies_high": ph,
                     "default": value == DEFAULTS.get(column)})
    return pd.DataFrame(rows)


def curve_sentence(column: str, curve: pd.DataFrame) -> str:
    """``archer_range 2 → 3 → 4: White wins 41% → 48% → 57%; games 88 → 71 → 60 plies; decisive 70% → 80% → 90%.``"""
    values = " → ".join(str(v) + (" (rulebook)" if d else "") for v, d in zip(curve["value"], curve["default"],
                                                                              strict=True))
    white = " → ".join(f"{100 * x:.0f}%" for x in curve["white_rate"])
    plies = " → ".join(f"{x:.0f}" for x in curve["plies_mean"])
    decisive = " → ".join(f"{100 * x:.0f}%" for x in curve["decisive"])
    return (f"{column} {values}: White wins {white}; games last {plies} plies on average; "
            f"{decisive} of games have a winner ({int(curve['games'].min())}+ games per value).")


def plot_response_curve(column: str, curve: pd.DataFrame) -> bytes:
    """Three panels against the value: White's win rate, mean game length, decisiveness (95% intervals)."""
    from .report import _png, plt

    fig, axes = plt.subplots(1, 3, figsize=(11, 3.2))
    x = curve["value"].astype(float)
    panels = (("white_rate", "white_low", "white_high", "White win rate", True),
              ("plies_mean", "plies_low", "plies_high", "mean game length (plies)", False),
              ("decisive", "decisive_low", "decisive_high", "share of games with a winner", True))
    for ax, (mid, lo, hi, label, share) in zip(axes, panels, strict=True):
        err = [(curve[mid] - curve[lo]).clip(lower=0).fillna(0), (curve[hi] - curve[mid]).clip(lower=0).fillna(0)]
        ax.errorbar(x, curve[mid], yerr=err, fmt="o-", color="#2c3e50", capsize=3)
        default = curve[curve["default"]]
        if len(default):
            ax.plot(default["value"].astype(float), default[mid], "s", color="#c0392b", label="rulebook")
        if share:
            ax.set_ylim(-0.02, 1.02)
            if mid == "white_rate":
                ax.axhline(0.5, color="#bbbbbb", lw=1, ls="--")
        ax.set_xticks(list(x))
        ax.set_xlabel(column)
        ax.set_title(label, fontsize=10)
    axes[0].legend(fontsize=8, frameon=False)
    fig.tight_layout()
    return _png(fig)


__all__ = ["MIN_VALUES", "curve_parameters", "curve_sentence", "plot_response_curve", "response_curve"]
