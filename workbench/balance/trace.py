"""Does the verdict hold at strong play? A study's question asked again as one agent's budget doubles.

A skill-trace table (``workbench trace --skill-trace mcts:iterations=50..800``) holds the same rule cells
played at four or more doubling budgets of one agent, in self-play; its ``skill_budget`` column says
which rung a game belongs to. At every rung this module measures the study's three quantities with 95%
intervals: advantage (the first side's share of decided games, Wilson), decisiveness (share decided,
Wilson) and length (Kaplan-Meier median, capped games censored, lifelines' interval).

The verdict follows one quantity, the question's *signal*: with one rule cell, the first side's
advantage over fair (``advantage - 1/2``, or ``1/teams``); with two or more cells, the first varying rule
value's effect on that advantage against its rulebook value (a difference of proportions, Newcombe).
The trend is a weighted least-squares line of the signal over log2(budget), each rung weighted by its
variance under "no trend" (the proportions pooled over the rungs, as the Cochran-Armitage test for trend
has it), so the slope's interval carries the rungs' sampling error and a small rung won 4-0 does not pass
for a precise one; rungs scattered about the line beyond that error widen the interval by the excess
(Pearson's chi-square over its degrees of freedom, when above 1); then the rule (docs/balance.md):

- **flips** when the signal's interval lies wholly on one side of fair at the weakest rung and wholly
  on the other at the strongest;
- **grows** / **shrinks** when the slope's 95% interval excludes 0: grows when the slope points the way
  of the imbalance at the strongest rung (the imbalance widens with skill), shrinks otherwise;
- **stable** when the slope's whole interval lies within ±``STABLE_POINTS`` points per doubling;
- otherwise **undecided**, with about how many games a rung a decision would need if the slope held.

Nothing is extrapolated: every sentence names the budgets measured and claims nothing past the
strongest rung.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from .cells import check_games
from .compare import _key, baseline_value, sort_values, table_game, variant_name
from .skill import rule_columns
from .stats import Z95, BalanceError, compare_proportions, wilson_interval
from .survival import length_summary
from .table import seats_of, teams_of

BUDGET = "skill_budget"  # the rung of a skill-trace table: the doubled parameter's value
AGENT_OF = "skill_agent"  # the agent spec played at that rung
STABLE_POINTS = 2.0  # a slope within ±2 points of advantage per doubling is "stable"
MIN_RUNGS = 4


def has_trace(games: pd.DataFrame) -> bool:
    """True when the table is a skill trace (a ``skill_budget`` column with at least two budgets)."""
    return BUDGET in games.columns and games[BUDGET].nunique() >= 2


def _first_wins(g: pd.DataFrame, first: str) -> pd.Series:
    """Decided games won by the first side (the first team in team games)."""
    if "winner_team" in g.columns and teams_of(g) is not None:
        return g["winner_team"].astype(float) == 0
    return g["winner"].astype(str) == first


def _fair(games: pd.DataFrame) -> float:
    teams = teams_of(games)
    return 1.0 / (len(teams) if teams else len(seats_of(games)))


@dataclass
class Rung:
    """One budget's measurements (over every rule cell of that rung) and its signal."""

    budget: float
    agent: str
    games: int
    decided: int
    advantage: float
    advantage_low: float
    advantage_high: float
    decisive: float
    decisive_low: float
    decisive_high: float
    length: float
    length_low: float
    length_high: float
    signal: float  # the verdict's quantity (advantage - fair, or the variant's effect)
    signal_low: float
    signal_high: float
    signal_se: float = math.nan  # its standard error under "no trend" (pooled proportions), the trend's weight
    counts: tuple[int, ...] = ()  # (first-side wins, decided) or, for a rule's effect, (baseline k, n, variant k, n)
    repeats: int = 0  # games equal to an earlier game of the rung in every figure of their play (``repeats``)


@dataclass
class Trace:
    """A skill trace: the rungs, the trend of the signal over log2(budget), and the verdict."""

    question: str  # "Red's advantage" or "Winter's effect on White's advantage"
    rungs: list[Rung]
    slope: float  # proportion per doubling
    slope_low: float
    slope_high: float
    verdict: str  # grows | shrinks | flips | stable | undecided
    games_needed: int | None  # per rung, for an undecided trace
    stable_points: float = STABLE_POINTS
    opening: int = 0  # plies of fixed random opening the games began with (the table's ``opening`` column)

    def sentence(self) -> str:
        """The verdict in words, with the budgets measured and nothing beyond them."""
        lo, hi = self.rungs[0], self.rungs[-1]
        span = f"from {lo.agent} to {hi.agent} ({len(self.rungs)} rungs, budgets doubling)"
        path = " → ".join(f"{100 * r.signal:+.0f}" if not math.isnan(r.signal) else "–" for r in self.rungs)
        fitted = sum(1 for r in self.rungs if not math.isnan(r.signal))
        over = "" if fitted == len(self.rungs) else f" over the {fitted} rungs with decided games"
        slope = (f"{100 * self.slope:+.1f} points per doubling{over}, 95% CI [{100 * self.slope_low:+.1f}, "
                 f"{100 * self.slope_high:+.1f}]")
        words = {
            "grows": "grows with skill: the imbalance widens as the budget doubles",
            "shrinks": "shrinks with skill: the imbalance narrows as the budget doubles",
            "flips": "flips: it lies wholly on one side of fair at the weakest rung and on the other at the strongest",
            "stable": f"is stable: the slope's interval lies within ±{self.stable_points:g} points per doubling",
            "undecided": "is undecided: the slope's interval neither excludes 0 nor lies within "
                         f"±{self.stable_points:g} points per doubling",
        }[self.verdict]
        need = ""
        if self.verdict == "undecided":
            need = (f" About {self.games_needed:,} games a rung would decide it if the slope held."
                    if self.games_needed else " No number of games would decide it at this slope.")
        return (f"{self.question} {words} ({path} points {span}; trend {slope}).{need} "
                f"Nothing is claimed past {hi.agent}, the strongest rung measured.{self.repeat_warning()}")

    def repeat_warning(self) -> str:
        """" Games repeat: 16 of 100 at ..." when a rung holds copies (``simulate.repeats.repeated_rows``), else ""."""
        hit = [r for r in self.rungs if r.repeats]
        if not hit:
            return ""
        shown = ", ".join(f"{r.repeats} of {r.games} at {r.agent}" for r in hit)
        remedy = "" if self.opening else "; a random opening (trace --opening K) makes the games differ"
        return (f" Games repeat one another ({shown}: equal in length, result and every counter to an earlier game "
                "of their rung, which short games can be without being copies); the intervals count every game as "
                f"independent, so where the copies are many they are too narrow{remedy}.")


def _length(g: pd.DataFrame) -> tuple[float, float, float]:
    km = length_summary(g["length"].astype(float), (g["outcome"] != "unfinished").to_numpy())
    return km.median, km.low, km.high


def _question(usable: pd.DataFrame) -> tuple[str, Any, Any, Any]:
    """(words, column, baseline, variant): the trace's question; column None for the first side's advantage."""
    first = seats_of(usable)[0].capitalize()
    teams = teams_of(usable)
    side = f"{first}'s team" if teams else first
    rules = [c for c in rule_columns(usable) if c not in (BUDGET, AGENT_OF)]
    for column in rules:
        values = sort_values({_key(v) for v in usable[column]})
        if len(values) < 2:
            continue
        baseline = baseline_value(column, values, table_game(usable))
        variant = next(v for v in values if v != baseline)
        return f"{variant_name(column, variant)}'s effect on {side}'s advantage", column, baseline, variant
    return f"{side}'s advantage (share of decided games, fair at {100 * _fair(usable):.0f}%)", None, None, None


def trace(games: pd.DataFrame, stable_points: float = STABLE_POINTS) -> Trace:
    """Measure every rung and fit the trend; ``BalanceError`` when the table is no skill trace."""
    usable = check_games(games, what="a skill trace")
    if BUDGET not in usable.columns:
        raise BalanceError(f"a skill trace needs a {BUDGET!r} column (python -m workbench trace --skill-trace ...)")
    budgets = sorted(float(b) for b in usable[BUDGET].dropna().unique())
    if len(budgets) < 2 or min(budgets) <= 0:
        raise BalanceError(f"a skill trace needs at least two positive budgets, got {budgets}")
    from workbench.simulate.repeats import repeated_rows

    first = seats_of(usable)[0]
    fair = _fair(usable)
    question, column, baseline, variant = _question(usable)
    rungs = []
    for b in budgets:
        g = usable[usable[BUDGET].astype(float) == b]
        won = g[g["outcome"] == "win"]
        k, d, n = int(_first_wins(won, first).sum()), len(won), len(g)
        al, ah = wilson_interval(k, d)
        dl, dh = wilson_interval(d, n)
        med, ml, mh = _length(g)
        if column is None:
            sig = k / d - fair if d else math.nan
            sl, sh = al - fair, ah - fair
            counts: tuple[int, ...] = (k, d)
        else:
            keys = won[column].map(_key)
            a, v = won[keys == baseline], won[keys == variant]
            counts = (int(_first_wins(a, first).sum()), len(a), int(_first_wins(v, first).sum()), len(v))
            if len(a) and len(v):
                t = compare_proportions(*counts)
                sig, sl, sh = t.diff, t.low, t.high
            else:
                sig = sl = sh = math.nan
        agent = str(g[AGENT_OF].iloc[0]) if AGENT_OF in g.columns else f"budget {b:g}"
        rungs.append(Rung(b, agent, n, d, k / d if d else math.nan, al, ah, d / n if n else math.nan, dl, dh,
                          med, ml, mh, sig, sl, sh, counts=counts, repeats=repeated_rows(g).repeats))
    opening = int(usable["opening"].fillna(0).max()) if "opening" in usable.columns else 0
    return Trace(question, rungs, *fit(rungs, stable_points), stable_points, opening)


def fit(rungs: list[Rung], stable_points: float = STABLE_POINTS) -> tuple[float, float, float, str, int | None]:
    """(slope, its 95% interval, verdict, games a rung needed) from rungs carrying their win counts."""
    _pooled_errors(rungs)
    slope, lo, hi, se = _trend(rungs)
    verdict, need = _verdict(rungs, slope, lo, hi, se, stable_points)
    return slope, lo, hi, verdict, need


def _pooled_errors(rungs: list[Rung]) -> None:
    """Each rung's standard error of its signal under "no trend": every proportion pooled over the rungs.

    A rung's own Wilson width understates the error where its share sits at 0 or 1 by chance (4 games won
    4-0), and a line through such rungs then reads a slope that is only noise. Under "no trend" the share
    is the same at every rung, so its variance comes from the pooled share (Cochran-Armitage), with one
    pseudo-win and one pseudo-loss so a side that won every game keeps a non-zero variance."""
    width = max((len(r.counts) for r in rungs), default=0)
    if not width:
        return
    pooled = []
    for j in range(0, width, 2):
        k = sum(r.counts[j] for r in rungs if len(r.counts) == width)
        n = sum(r.counts[j + 1] for r in rungs if len(r.counts) == width)
        p = (k + 1) / (n + 2)
        pooled.append(p * (1 - p))
    for r in rungs:
        if len(r.counts) != width or any(r.counts[j + 1] == 0 for j in range(0, width, 2)):
            continue
        r.signal_se = math.sqrt(sum(v / r.counts[2 * i + 1] for i, v in enumerate(pooled)))


def _trend(rungs: list[Rung]) -> tuple[float, float, float, float]:
    """WLS slope of the signal over log2(budget), weights 1/variance of each rung under "no trend"."""
    import statsmodels.api as sm

    ok = [r for r in rungs if not (math.isnan(r.signal) or math.isnan(r.signal_se))]
    if len(ok) < 2:
        return math.nan, math.nan, math.nan, math.nan
    x = np.log2([r.budget for r in ok])
    y = np.array([r.signal for r in ok])
    se = np.array([max(r.signal_se, 1e-3) for r in ok])
    fit = sm.WLS(y, sm.add_constant(x), weights=1.0 / se**2).fit(cov_type="fixed scale")
    slope, s = float(fit.params[1]), float(fit.bse[1])
    # rungs scattered about the line more than their sampling errors allow (games of deterministic agents
    # repeating one another, or a signal that is no line in log2(budget)) widen the interval by that excess
    # (quasi-likelihood: Pearson's chi-square over its degrees of freedom, never below 1)
    if len(ok) > 2:
        chi2 = float(np.sum((y - fit.fittedvalues) ** 2 / se**2))
        s *= math.sqrt(max(1.0, chi2 / (len(ok) - 2)))
    return slope, slope - Z95 * s, slope + Z95 * s, s


def _verdict(rungs: list[Rung], slope: float, lo: float, hi: float, se: float,
             stable_points: float) -> tuple[str, int | None]:
    """The rule of docs/balance.md, in its order: flips, grows/shrinks, stable, undecided (with games needed)."""
    if math.isnan(slope):
        return "undecided", None
    weak, strong = rungs[0], rungs[-1]
    if (weak.signal_low > 0 and strong.signal_high < 0) or (weak.signal_high < 0 and strong.signal_low > 0):
        return "flips", None
    if lo > 0 or hi < 0:
        fitted = strong.signal if not math.isnan(strong.signal) else slope
        return ("grows" if slope * fitted > 0 else "shrinks"), None
    band = stable_points / 100
    if -band <= lo and hi <= band:
        return "stable", None
    n = int(np.mean([r.games for r in rungs]))
    # games a rung for the slope's interval to exclude 0, or to fit inside the band, if the slope held
    needs = []
    if abs(slope) > 0:
        needs.append(n * (Z95 * se / abs(slope)) ** 2)
    if abs(slope) < band:
        needs.append(n * (Z95 * se / (band - abs(slope))) ** 2)
    return "undecided", (int(math.ceil(min(needs) / 10.0) * 10) if needs else None)


def trace_frame(t: Trace) -> pd.DataFrame:
    """The report's table: one row per rung, every figure with its interval."""
    def iv(x: float, lo: float, hi: float, pct: bool = True, decided: int = 1) -> str:
        if math.isnan(x):
            return "–"
        if math.isinf(x):  # over half the games cut by the cap: the median is beyond it
            if not decided:
                return "not reached (every game capped)"
            low = "" if math.isnan(lo) or math.isinf(lo) else f"; 95% CI from {lo:.0f}"
            return f"not reached (over half capped{low})"
        def f(v: float) -> str:
            if pct:
                return f"{100 * v:.0f}%"
            return "not reached" if math.isinf(v) else f"{v:.0f}"

        return f"{f(x)} [{f(lo) if not math.isnan(lo) else '–'}, {f(hi) if not math.isnan(hi) else '–'}]"

    def pts(x: float, lo: float, hi: float) -> str:
        return "–" if math.isnan(x) else f"{100 * x:+.1f} [{100 * lo:+.1f}, {100 * hi:+.1f}]"

    return pd.DataFrame([{"agent": r.agent, "budget": f"{r.budget:g}", "games": r.games,
                          "advantage": iv(r.advantage, r.advantage_low, r.advantage_high),
                          "decided": iv(r.decisive, r.decisive_low, r.decisive_high),
                          "median length": iv(r.length, r.length_low, r.length_high, pct=False, decided=r.decided),
                          "signal (points)": pts(r.signal, r.signal_low, r.signal_high)} for r in t.rungs])


def plot_trace(t: Trace) -> bytes:
    """The signal at each rung (95% intervals) over log2(budget) and the fitted trend, drawn only over the rungs."""
    from . import palette
    from .figures import plt
    from .figures import png as _png

    fig, ax = plt.subplots(figsize=(6.5, 3.4))
    x = np.log2([r.budget for r in t.rungs])
    y = np.array([100 * r.signal for r in t.rungs])
    err = np.vstack([np.nan_to_num(y - [100 * r.signal_low for r in t.rungs]),
                     np.nan_to_num([100 * r.signal_high for r in t.rungs] - y)])
    ax.errorbar(x, y, yerr=err, color=palette.FIRST, marker="o", ls="none", capsize=3, label="measured (95% CI)")
    if not math.isnan(t.slope):
        used = [not (math.isnan(r.signal) or math.isnan(r.signal_se)) for r in t.rungs]
        w = np.array([1.0 / max(r.signal_se, 1e-3) ** 2 for r, u in zip(t.rungs, used, strict=True) if u])
        xs = np.array([xi for xi, u in zip(x, used, strict=True) if u])
        ys = np.array([yi for yi, u in zip(y, used, strict=True) if u])
        xm, ym = np.average(xs, weights=w), np.average(ys, weights=w)
        ax.plot([x[0], x[-1]], [ym + 100 * t.slope * (x[0] - xm), ym + 100 * t.slope * (x[-1] - xm)],
                color=palette.REFERENCE, lw=1.2, label=f"trend {100 * t.slope:+.1f} pts/doubling ({t.verdict})")
    ax.axhline(0, color=palette.REFERENCE, lw=0.8, ls="--")
    ax.set_xticks(x, [f"{r.budget:g}" for r in t.rungs])
    ax.set_xlabel("budget (log2 scale; the trend is drawn over the measured rungs only)")
    ax.set_ylabel("signal, points from fair")
    ax.legend(fontsize=7, frameon=False)
    fig.tight_layout()
    return _png(fig)


__all__ = ["AGENT_OF", "BUDGET", "MIN_RUNGS", "STABLE_POINTS", "Rung", "Trace", "fit", "has_trace", "plot_trace", "trace",
           "trace_frame"]
