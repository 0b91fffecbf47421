"""Dominant strategies: a payoff table among play styles with intervals, and OpenSpiel's α-Rank on it.

An archetype tournament (``workbench archetypes``) plays every pair of a game's archetypes on paired seeds
with the seats swapped. Here the games table becomes a payoff table: the row style's score against the
column style (a win 1, a draw or an unfinished game 1/2), with a 95% interval over the seeds (Student t on
a seed's mean score, Wilson's bounds when every seed scored the same). α-Rank (Omidshafiei et al. 2019,
``open_spiel.python.egt.alpharank``, infinite-α, single population) then ranks the styles on the table
with every score whose interval holds 50% set to 50%, so noise draws no edge: one style with nearly all
the mass that beats every other is dominant; mass spread over styles that beat each other in a ring is a
cycle (rock-paper-scissors: every plan has an answer, a healthy sign).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats as _sp

from .stats import BalanceError, wilson_bounds

DOMINANT_MASS = 0.5  # α-Rank mass a style needs, besides beating every other, to be named dominant


@dataclass
class StrategyRanking:
    """The payoff table (score, low, high: row against column, in %), α-Rank's masses and the verdict."""

    styles: list[str]
    score: pd.DataFrame
    low: pd.DataFrame
    high: pd.DataFrame
    games: pd.DataFrame
    mass: pd.Series
    verdict: str
    dominant: str | None
    cycle: list[str]

    def text(self) -> str:
        """The payoff table with intervals, the α-Rank masses and the verdict, as printed."""
        width = max(8, *(len(s) for s in self.styles)) + 2
        lines = ["payoff: row's score against column, % (95% interval over paired seeds, seats swapped)",
                 " " * width + "".join(f"{s:>{width + 8}}" for s in self.styles)]
        for r in self.styles:
            cells = []
            for c in self.styles:
                if r == c:
                    cells.append(f"{'-':>{width + 8}}")
                else:
                    txt = f"{self.score.loc[r, c]:.0f} [{self.low.loc[r, c]:.0f}, {self.high.loc[r, c]:.0f}]"
                    cells.append(f"{txt:>{width + 8}}")
            lines.append(f"{r:<{width}}" + "".join(cells))
        lines.append("α-Rank mass: " + ", ".join(f"{s} {self.mass[s]:.2f}" for s in self.mass.sort_values(ascending=False).index))
        lines.append(self.verdict)
        return "\n".join(lines)


def _seed_interval(y: np.ndarray, n_games: int) -> tuple[float, float, float]:
    mean = float(y.mean())
    sd = float(y.std(ddof=1)) if len(y) > 1 else 0.0
    if sd > 0:
        half = float(_sp.t.ppf(0.975, len(y) - 1)) * sd / math.sqrt(len(y))
        return mean, max(0.0, mean - half), min(1.0, mean + half)
    lo, hi = wilson_bounds(mean, max(1, n_games))
    return mean, lo, hi


def payoff_table(games: pd.DataFrame, column: str = "style") -> tuple[list[str], pd.DataFrame, pd.DataFrame,
                                                                      pd.DataFrame, pd.DataFrame]:
    """Styles, and score/low/high/games tables (row against column) from a two-seat tournament table.

    ``column``: each seat's style is ``<column>_<seat>`` when the table has it, else the seat's agent spec.
    """
    if games is None or not len(games):
        raise BalanceError("no games: run `workbench archetypes` first")
    ok = games[games["outcome"] != "error"] if "outcome" in games.columns else games
    seats = str(ok["players"].iloc[0]).split(",")
    if len(seats) != 2:
        raise BalanceError(f"a payoff table needs two seats; these games have {len(seats)}")
    name = [f"{column}_{s}" if f"{column}_{s}" in ok.columns else f"agent_{s}" for s in seats]
    rows = []
    for rec in ok.to_dict("records"):
        a, b = str(rec[name[0]]), str(rec[name[1]])
        sa = (float(rec.get(f"score_{seats[0]}", 0.0)) + 1) / 2
        rows.append({"seed": rec["seed"], "row": a, "col": b, "score": sa})
        rows.append({"seed": rec["seed"], "row": b, "col": a, "score": 1 - sa})
    long = pd.DataFrame(rows)
    styles = list(dict.fromkeys([*long["row"], *long["col"]]))
    score, low, high, n = (pd.DataFrame(50.0, index=styles, columns=styles) for _ in range(4))
    for (r, c), part in long[long["row"] != long["col"]].groupby(["row", "col"]):
        y = part.groupby("seed")["score"].mean().to_numpy()
        m, lo, hi = _seed_interval(y, len(part))
        score.loc[r, c], low.loc[r, c], high.loc[r, c], n.loc[r, c] = 100 * m, 100 * lo, 100 * hi, len(part)
    return styles, score, low, high, n


def rank_strategies(games: pd.DataFrame, column: str = "style") -> StrategyRanking:
    """Payoff table and α-Rank: a dominant style, a cycle, or neither (module docstring)."""
    import networkx as nx
    from open_spiel.python.egt import alpharank

    styles, score, low, high, n = payoff_table(games, column)
    beats = (low > 50) & (score > 50)  # row beats column: the whole interval above 50%
    table = np.where(beats, score / 100, np.where(beats.T, score / 100, 0.5))
    np.fill_diagonal(table, 0.5)
    if len(styles) < 2:
        raise BalanceError("a payoff table needs at least two styles")
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pi = alpharank.compute([table], use_inf_alpha=True, inf_alpha_eps=0.01)[2]
    mass = pd.Series(np.asarray(pi, dtype=float), index=styles)
    graph = nx.DiGraph()
    graph.add_nodes_from(styles)
    graph.add_edges_from((r, c) for r in styles for c in styles if r != c and beats.loc[r, c])
    top = str(mass.idxmax())
    dominant = top if mass[top] > DOMINANT_MASS and all(beats.loc[top, c] for c in styles if c != top) else None
    cycle: list[str] = []
    if dominant is not None:
        verdict = (f"α-Rank names {dominant} dominant (mass {mass[top]:.2f}): it beats every other style, each "
                   "with the whole 95% interval above 50%")
    else:
        heavy = [s for s in styles if mass[s] >= 1 / (2 * len(styles))]
        loops = [c for c in nx.simple_cycles(graph.subgraph(heavy)) if len(c) >= 3]
        if loops:
            cycle = max(loops, key=len)
            ring = " -> ".join([*cycle, cycle[0]])
            verdict = (f"α-Rank finds a cycle, no dominant style: {ring} (each beats the next; "
                       "rock-paper-scissors, a healthy sign)")
        else:
            shared = ", ".join(f"{s} {mass[s]:.2f}" for s in mass.sort_values(ascending=False).index if mass[s] >= 0.05)
            verdict = (f"no style dominates and no cycle is measurable: α-Rank's mass is shared ({shared}); "
                       "more games may separate them")
    return StrategyRanking(styles, score, low, high, n, mass, verdict, dominant, cycle)


__all__ = ["StrategyRanking", "payoff_table", "rank_strategies"]
