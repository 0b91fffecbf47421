"""Does a verdict depend on skill? The same rule cells played at two or more agent strengths.

A rule that favours White between random players may do nothing between strong ones (or the
reverse): a designer tuning for real players needs the trend. When a table holds the same rule
cells under several agent pairings, this module shows the first seat's share of decided games
against strength, and for each rule change whether its effect on that share grows or shrinks.

Strength order: a ``strength`` column when the table has one (bigger = stronger); otherwise the
agents' names, ``random`` < ``greedy`` < any search agent, then by the numbers in their options
(``alphabeta:depth=1`` < ``alphabeta:depth=3``). The order is an assumption the report states.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from . import palette
from .cells import _fmt, cell_label, check_games, compared_columns, is_agent
from .compare import _key, baseline_value, sort_values, table_game, variant_name
from .stats import Z95, compare_proportions, wilson_interval
from .table import agent_columns, seats_of

BASE_STRENGTH = {"random": 0, "greedy": 1}


def agent_strength(agent: str) -> tuple[int, str, tuple[float, ...]]:
    """A sort key for one agent spec: its family's rank, name, then the numbers in its options."""
    name, _, options = str(agent).partition(":")
    return (BASE_STRENGTH.get(name, 2), name, tuple(float(x) for x in re.findall(r"\d+(?:\.\d+)?", options)))


def pairings(games: pd.DataFrame) -> list[str]:
    """The table's agent pairings (``greedy vs greedy``), weakest first."""
    agents = agent_columns(games)
    if not agents:
        return []
    labels = games[agents].astype(str).agg(" vs ".join, axis=1)
    if "strength" in games.columns:
        order = games.assign(_p=labels).groupby("_p")["strength"].mean().sort_values()
        return list(order.index)
    return sorted(set(labels), key=lambda p: sorted((agent_strength(a) for a in p.split(" vs ")), reverse=True))


def _with_pairing(games: pd.DataFrame) -> pd.DataFrame:
    agents = agent_columns(games)
    return games.assign(pairing=games[agents].astype(str).agg(" vs ".join, axis=1))


def rule_columns(games: pd.DataFrame) -> list[str]:
    """The varying rule columns (agents left out): what defines a rule cell across strengths."""
    return [c for c in compared_columns(games) if not is_agent(c, games)]


def has_skill_levels(games: pd.DataFrame) -> bool:
    """True when at least two pairings each hold at least two of the same rule cells (or one cell, no rule varying)."""
    usable = check_games(games, what="a skill comparison")
    if len(pairings(usable)) < 2:
        return False
    frame = _with_pairing(usable)
    rules = rule_columns(usable)
    if not rules:
        return True
    cells = frame.groupby("pairing")[rules].apply(lambda g: set(map(tuple, g.astype(str).to_numpy())))
    shared = set.intersection(*cells.tolist())
    return len(shared) >= 2


def advantage_by_strength(games: pd.DataFrame) -> pd.DataFrame:
    """Per (pairing, rule cell): games, decided, first seat's share of decided games with a Wilson interval."""
    usable = check_games(games, what="a skill comparison")
    frame = _with_pairing(usable)
    rules = rule_columns(usable)
    first = seats_of(usable)[0]
    order = pairings(usable)
    rows = []
    groups = frame.groupby(["pairing", *rules], sort=False) if rules else frame.groupby(["pairing"], sort=False)
    for key, g in groups:
        key = key if isinstance(key, tuple) else (key,)
        cell = dict(zip(["pairing", *rules], key, strict=True))
        decided = g[g["outcome"] == "win"]
        k = int((decided["winner"] == first).sum())
        lo, hi = wilson_interval(k, len(decided))
        rows.append({**cell, "strength": order.index(cell["pairing"]), "cell": cell_label(cell, rules),
                     "games": len(g), "decided": len(decided),
                     "advantage": k / len(decided) if len(decided) else math.nan, "low": lo, "high": hi,
                     "unfinished": float((g["outcome"] == "unfinished").mean())})
    return pd.DataFrame(rows).sort_values(["strength", "cell"]).reset_index(drop=True)


@dataclass
class SkillTrend:
    """One rule change's effect on the first seat's share of decided games at each strength, and its trend."""

    column: str
    baseline: Any
    variant: Any
    seat: str
    levels: list[str]
    effects: list[float]  # variant - baseline at each level (proportions)
    lows: list[float]
    highs: list[float]
    change: float  # effect at the strongest minus at the weakest
    change_low: float
    change_high: float

    @property
    def name(self) -> str:
        return variant_name(self.column, self.variant)

    def sentence(self) -> str:
        """``Winter: its effect on White's share of decided games grows with skill (+2 → +15 points ...)``."""
        path = " → ".join(f"{100 * e:+.0f}" if not math.isnan(e) else "–" for e in self.effects)
        levels = " → ".join(self.levels)
        seat = self.seat.capitalize()
        if math.isnan(self.change):
            return f"{self.name}: its effect on {seat}'s share of decided games by skill ({levels}): {path} points."
        clear = self.change_low > 0 or self.change_high < 0
        weak, strong = self.effects[0], self.effects[-1]
        if not clear:
            trend = "does not clearly change with skill"
        elif abs(strong) > abs(weak):
            trend = "grows with skill"
        else:
            trend = "shrinks with skill"
        flip = " (it changes sign)" if clear and weak * strong < 0 else ""
        return (f"{self.name}: its effect on {seat}'s share of decided games {trend}{flip}: {path} points "
                f"({levels}); strongest minus weakest {100 * self.change:+.1f} points, 95% CI "
                f"[{100 * self.change_low:.1f}, {100 * self.change_high:.1f}].")


def skill_trends(games: pd.DataFrame) -> list[SkillTrend]:
    """For each varying rule value against its baseline: its advantage effect at each strength, and
    the difference between the strongest and the weakest pairing (normal approximation, Newcombe widths)."""
    usable = check_games(games, what="a skill comparison")
    frame = _with_pairing(usable)
    order = pairings(usable)
    first = seats_of(usable)[0]
    out = []
    game = table_game(usable)
    for column in rule_columns(usable):
        values = sort_values({_key(v) for v in usable[column]})
        baseline = baseline_value(column, values, game)
        for variant in values:
            if variant == baseline:
                continue
            effects: list[float] = []
            lows: list[float] = []
            highs: list[float] = []
            ses: list[float] = []
            for level in order:
                part = frame[(frame["pairing"] == level) & (frame["outcome"] == "win")]
                keys = part[column].map(_key)
                a, b = part[keys == baseline], part[keys == variant]
                if len(a) == 0 or len(b) == 0:
                    for values in (effects, lows, highs, ses):
                        values.append(math.nan)
                    continue
                t = compare_proportions(int((a["winner"] == first).sum()), len(a), int((b["winner"] == first).sum()),
                                        len(b))
                effects.append(t.diff)
                lows.append(t.low)
                highs.append(t.high)
                ses.append((t.high - t.low) / (2 * Z95))
            known = [i for i, e in enumerate(effects) if not math.isnan(e)]
            change = low = high = math.nan
            if len(known) >= 2:
                i, j = known[0], known[-1]
                change = effects[j] - effects[i]
                se = math.hypot(ses[i], ses[j])
                low, high = change - Z95 * se, change + Z95 * se
            out.append(SkillTrend(column, baseline, variant, first, order, effects, lows, highs, change, low, high))
    return out


def plot_advantage_by_strength(table: pd.DataFrame, seat: str = "white", threshold: float = 0.2) -> bytes:
    """The first seat's share of decided games (95% Wilson) against strength, one line per rule cell; a point
    whose cell has more unfinished games than ``threshold`` is drawn open (no verdict there)."""
    from .figures import plt
    from .figures import png as _png

    fig, ax = plt.subplots(figsize=(7, 3.6))
    styles = ["-", "--", ":", "-."]
    markers = ["o", "s", "^", "D", "v", "P"]
    levels = list(dict.fromkeys(table.sort_values("strength")["pairing"]))
    for i, (cell, part) in enumerate(table.groupby("cell", sort=True)):
        part = part.sort_values("strength")
        x = part["strength"].to_numpy(dtype=float) + (i - 0.5 * table["cell"].nunique()) * 0.03
        y = part["advantage"].to_numpy(dtype=float)
        err = np.vstack([(y - part["low"]).clip(lower=0).fillna(0), (part["high"] - y).clip(lower=0).fillna(0)])
        ax.errorbar(x, y, yerr=err, color=palette.FIRST, ls=styles[i % len(styles)], marker=markers[i % len(markers)],
                    capsize=2, lw=1.2, label=_fmt(cell))
        over = (part["unfinished"] > threshold).to_numpy()
        if over.any():
            ax.plot(x[over], y[over], ls="none", marker=markers[i % len(markers)], mfc="white", mec=palette.FIRST)
    ax.axhline(0.5, color=palette.REFERENCE, lw=0.8, ls="--")
    ax.set_xticks(range(len(levels)), levels, fontsize=8)
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel(f"agents, weakest to strongest (assumed order); open = over {100 * threshold:.0f}% unfinished")
    ax.set_ylabel(f"{seat.capitalize()}'s share of decided games")
    ax.legend(fontsize=7, frameon=False, loc="center left", bbox_to_anchor=(1.0, 0.5))
    fig.tight_layout()
    return _png(fig)


__all__ = ["SkillTrend", "advantage_by_strength", "agent_strength", "has_skill_levels", "pairings",
           "plot_advantage_by_strength", "skill_trends"]
