"""Elo ratings with 95% intervals from a ladder's games: a strength yardstick for the agents.

The model is Bradley–Terry on the Elo scale. For a game where agent ``i`` holds the first seat (or the
first team) and agent ``j`` the other seats,

    P(first side scores) = 1 / (1 + 10 ** (-(R_i - R_j + S) / 400))

where ``S`` is the first seat's edge in Elo points, fitted with the ratings. A draw or an unfinished game
counts as half a point to each side (the binomial likelihood with a fractional score). ``random`` (or the
agent named by ``anchor``) is fixed at 0, so every rating reads "this many Elo points above random".

A weak prior keeps the fit finite when one agent wins every game (greedy beats random 99–0 in
TerraFeud): every pairing that was played gets ``prior_draws`` virtual draws, split evenly between the
seats (as BayesElo's prior does). With 100 real games a pairing the prior moves a rating by a few points;
with 99–0 it turns an infinite estimate into about +900.

The fit is a binomial GLM (statsmodels, logit link) on the aggregated pairings; the 95% intervals are
Wald intervals on the Elo scale. A drawn game is less uncertain than a coin toss: a game scoring 1, 1/2 or
0 with the mean ``p`` and a draw share ``d`` varies by ``p(1 - p) - d/4``, not the binomial ``p(1 - p)``.
So the covariance is the sandwich ``B⁻¹ M B⁻¹``: ``B`` the binomial information (the GLM's Hessian), ``M``
the same with each pairing-and-seat cell's variance scaled by its observed trinomial factor
``1 - d/(4 p(1 - p))`` (from its wins, draws and losses, with one pseudo-win and one pseudo-loss so that
an all-drawn cell keeps some doubt). Without draws ``M = B`` and the intervals are the GLM's own. The
ratings themselves are the plain draws-as-half estimates either way. Team and faction games are rated by seat: an agent
plays every seat of its team, and a ladder swaps the teams for half of the games, so the seat term
absorbs the first team's (or faction's) edge and the ratings the agents'.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .stats import Z95, BalanceError

ELO = 400.0 / math.log(10.0)  # Elo points per unit of log-odds
PRIOR_DRAWS = 2.0  # virtual draws per pairing played (one with each side first)
MAX_SE = 2000.0  # a standard error past this many Elo points is a separated fit, not a measurement


@dataclass(frozen=True)
class Result:
    """One game (or ``games`` games) of the ladder: who held the first side, who the other, the first's score."""

    first: str
    second: str
    score: float  # points of the first side: 1 win, 0.5 draw or unfinished, 0 loss (or a sum over ``games``)
    games: int = 1
    draws: float = 0.0  # of ``games``, how many were drawn or unfinished (the half points; 0: none counted)


@dataclass
class Rating:
    """One agent's rating in Elo points above the anchor, with its 95% interval."""

    agent: str
    elo: float
    low: float
    high: float
    games: int
    score: float  # its share of the points it played for (draws as half)
    engine: str = ""

    def label(self) -> str:
        """``alphabeta:depth=2, Elo 610 [570, 650]``."""
        if self.low == self.high == self.elo:
            return f"{self.agent}, Elo {self.elo:.0f}, the anchor"
        return f"{self.agent}, Elo {self.elo:.0f} [{self.low:.0f}, {self.high:.0f}]"


@dataclass
class EloFit:
    """Ratings of every agent, the first seat's edge, and how they were fitted."""

    ratings: list[Rating]
    seat: tuple[float, float, float]  # the first side's edge in Elo points (estimate, low, high)
    anchor: str
    prior_draws: float
    games: int
    covariance: Any = field(default=None, repr=False)  # Elo-scale covariance of the free ratings

    def by_agent(self) -> dict[str, Rating]:
        """Ratings keyed by agent spec."""
        return {r.agent: r for r in self.ratings}

    def difference(self, a: str, b: str) -> tuple[float, float, float]:
        """``R_a - R_b`` with its 95% interval (covariance of the fit included)."""
        names = [r.agent for r in self.ratings if r.agent != self.anchor]
        ra, rb = self.by_agent()[a], self.by_agent()[b]
        va = np.zeros(len(names))
        if a != self.anchor:
            va[names.index(a)] += 1
        if b != self.anchor:
            va[names.index(b)] -= 1
        se = math.sqrt(max(float(va @ self.covariance @ va), 0.0)) if self.covariance is not None else math.nan
        d = ra.elo - rb.elo
        return d, d - Z95 * se, d + Z95 * se

    def expected_score(self, a: str, b: str) -> float:
        """Expected score of ``a`` against ``b``, seats alternated (the seat term cancels)."""
        d = self.by_agent()[a].elo - self.by_agent()[b].elo
        return float(1.0 / (1.0 + 10.0 ** (-d / 400.0)))

    def to_rows(self) -> list[dict[str, Any]]:
        """Plain rows (agent, elo, low, high, games, score, engine), strongest first."""
        return [{"agent": r.agent, "elo": round(r.elo, 1), "low": round(r.low, 1), "high": round(r.high, 1),
                 "games": r.games, "score": round(r.score, 4), "engine": r.engine}
                for r in sorted(self.ratings, key=lambda r: -r.elo)]


def fit_elo(results: Iterable[Result], anchor: str = "random", prior_draws: float = PRIOR_DRAWS,
            engines: Mapping[str, str] | None = None) -> EloFit:
    """Fit Elo ratings (anchor at 0), the first seat's edge and 95% intervals from ``results``.

    ``BalanceError`` when the pairings do not connect every agent to the anchor (no common scale)."""
    import statsmodels.api as sm

    rows = [r for r in results if r.games > 0]
    if not rows:
        raise BalanceError("no games to rate")
    agents = sorted({r.first for r in rows} | {r.second for r in rows})
    if anchor not in agents:
        raise BalanceError(f"the anchor {anchor!r} played no game; agents: {', '.join(agents)}")
    _check_connected(agents, rows, anchor)
    free = [a for a in agents if a != anchor]
    col = {a: i for i, a in enumerate(free)}
    pairs: dict[tuple[str, str], list[float]] = {}  # (first, second) -> [score, games, draws]
    for r in rows:
        if not 0 <= r.score <= r.games:
            raise BalanceError(f"score {r.score} of {r.first} against {r.second} is outside 0..{r.games}")
        wins = r.score - r.draws / 2
        if not 0 <= r.draws <= r.games or wins < -1e-9 or wins + r.draws > r.games + 1e-9:
            raise BalanceError(f"{r.draws} draws of {r.first} against {r.second} do not fit {r.games} games "
                               f"scoring {r.score}")
        p = pairs.setdefault((r.first, r.second), [0.0, 0.0, 0.0])
        p[0] += r.score
        p[1] += r.games
        p[2] += r.draws
    if prior_draws > 0:  # virtual draws, half with each side first
        for a, b in {tuple(sorted(k)) for k in pairs}:
            for first, second in ((a, b), (b, a)):
                p = pairs.setdefault((first, second), [0.0, 0.0, 0.0])
                p[0] += prior_draws / 4
                p[1] += prior_draws / 2
                p[2] += prior_draws / 2
    x = np.zeros((len(pairs), len(free) + 1))
    y = np.zeros(len(pairs))
    w = np.zeros(len(pairs))
    shrink = np.ones(len(pairs))  # each cell's trinomial variance over the binomial one
    for k, ((first, second), (score, n, draws)) in enumerate(pairs.items()):
        shrink[k] = draw_factor(score, n, draws)
        x[k, 0] = 1.0  # the first side's edge
        if first in col:
            x[k, 1 + col[first]] += 1.0
        if second in col:
            x[k, 1 + col[second]] -= 1.0
        y[k] = score / n
        w[k] = n
    model = sm.GLM(y, x, family=sm.families.Binomial(), var_weights=w)
    with warnings.catch_warnings():  # near-separation (99-0) is what the prior is for: the fit stays finite
        warnings.simplefilter("ignore")
        fit = model.fit()
    if not np.all(np.isfinite(fit.params)):
        raise BalanceError("the Elo fit did not converge (give the prior some draws: prior_draws > 0)")
    beta = np.asarray(fit.params) * ELO
    mu = np.asarray(fit.fittedvalues)
    info = x.T @ (x * (w * mu * (1 - mu))[:, None])  # B: the binomial information (the GLM's Hessian)
    try:
        bread = np.linalg.inv(info)
    except np.linalg.LinAlgError:
        raise BalanceError("the Elo fit is singular (give the prior some draws: prior_draws > 0)") from None
    meat = x.T @ (x * (w * mu * (1 - mu) * shrink)[:, None])
    cov = bread @ meat @ bread * ELO * ELO
    se = np.sqrt(np.clip(np.diag(cov), 0.0, None))
    if not np.all(np.isfinite(se)) or se.max() > MAX_SE:
        raise BalanceError("an agent won or lost every game of its pairings: without a prior its rating is not "
                           "finite (give the prior some draws: prior_draws > 0)")
    played: dict[str, list[float]] = {a: [0.0, 0.0] for a in agents}
    for r in rows:
        played[r.first][0] += r.score
        played[r.first][1] += r.games
        played[r.second][0] += r.games - r.score
        played[r.second][1] += r.games
    engines = dict(engines or {})
    ratings = [Rating(anchor, 0.0, 0.0, 0.0, int(played[anchor][1]), played[anchor][0] / played[anchor][1],
                      engines.get(anchor, ""))]
    for a in free:
        i = 1 + col[a]
        ratings.append(Rating(a, float(beta[i]), float(beta[i] - Z95 * se[i]), float(beta[i] + Z95 * se[i]),
                              int(played[a][1]), played[a][0] / played[a][1], engines.get(a, "")))
    seat = (float(beta[0]), float(beta[0] - Z95 * se[0]), float(beta[0] + Z95 * se[0]))
    return EloFit(ratings, seat, anchor, prior_draws, int(sum(r.games for r in rows)), cov[1:, 1:])


def draw_factor(score: float, games: float, draws: float) -> float:
    """A cell's variance of one game's score (1, 1/2, 0) over the binomial ``p(1 - p)`` of its mean: ``1 - d/(4p(1-p))``.

    Read from its wins, draws and losses plus one pseudo-win and one pseudo-loss, so it lies in (0, 1]:
    1 without draws, small when nearly every game is drawn."""
    n = games + 2.0
    d = draws / n
    p = (score + 1.0) / n
    return float(max(1.0 - d / (4.0 * p * (1.0 - p)), 1e-6))


def _check_connected(agents: Sequence[str], rows: Sequence[Result], anchor: str) -> None:
    links: dict[str, set[str]] = {a: set() for a in agents}
    for r in rows:
        links[r.first].add(r.second)
        links[r.second].add(r.first)
    seen, todo = {anchor}, [anchor]
    while todo:
        for b in links[todo.pop()] - seen:
            seen.add(b)
            todo.append(b)
    missing = sorted(set(agents) - seen)
    if missing:
        raise BalanceError(f"no chain of games links {', '.join(missing)} to {anchor}: their ratings have no common scale")


__all__ = ["ELO", "PRIOR_DRAWS", "EloFit", "Rating", "Result", "draw_factor", "fit_elo"]
