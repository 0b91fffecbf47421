"""Matchups: which role (faction, deck, civilisation) is strong, with the seat advantage taken out.

Generic over tables: a games table with one role column per seat (``faction_p1``, ``faction_p2``) and the
usual outcome columns. Two answers, kept apart:

- the *matrix*: the first seat's score (a win 1, a draw 1/2) over finished games for every ordered pair of
  roles, with a Wilson interval; unfinished games (cut by the cap) count in no score;
- the *strengths*: a Bradley-Terry model with a seat term, fitted as a binomial GLM (statsmodels) on the
  first seat's score: ``logit P(first scores) = seat + s[role of first] - s[role of second]``, with the
  strengths summing to zero. A role's overall score is ``logistic(s)``: its expected score against the
  average role from a neutral seat. Mirror games carry no strength information, only the seat term.
  A draw is half a win (a fractional binomial outcome, quasi-likelihood). To keep a role that won or lost
  everything finite, every ordered pair of different roles gets one pseudo-game scored 1/2 (a light
  shrinkage toward equal strength, said in the report).

The words name the strongest and weakest role only when the batch can tell them apart: the Wald test of "all
roles equal" rejects and the strongest's interval lies clear of the weakest's; otherwise they say no role can be
named strongest, with the highest and lowest estimates and their intervals.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from .stats import Z95, wilson_interval
from .table import first_seat_score, seats_of

PSEUDO_WEIGHT = 1.0  # pseudo-games scored 1/2 per ordered pair of different roles


@dataclass
class Strengths:
    """The fitted model: per-role overall score with its interval, the seat term, the test of equality."""

    table: pd.DataFrame  # role, strength, low, high (logit), score, score_low, score_high, games
    seat: float  # logit of the first seat's advantage against an equal opponent
    seat_low: float
    seat_high: float
    p_equal: float  # Wald test: every role equally strong
    games: int  # finished games in the fit
    pseudo: float  # pseudo-games added

    @property
    def seat_score(self) -> tuple[float, float, float]:
        """The first seat's expected score against an equal opponent, with its interval."""
        return _logistic(self.seat), _logistic(self.seat_low), _logistic(self.seat_high)


def _logistic(x: float) -> float:
    return math.nan if math.isnan(x) else 1.0 / (1.0 + math.exp(-x))


def _finished(games: pd.DataFrame, first: str, second: str) -> pd.DataFrame:
    g = games[games["outcome"].isin(["win", "draw", "unfinished"])].copy()
    g["score"] = first_seat_score(g, seats_of(g))
    return g[[first, second, "outcome", "score"]]


def matchup_matrix(games: pd.DataFrame, first: str = "faction_p1", second: str = "faction_p2",
                   roles: Sequence[str] | None = None) -> pd.DataFrame:
    """One row per ordered pair: games, wins/draws/losses of the first seat, unfinished, score with interval."""
    g = _finished(games, first, second)
    roles = list(roles) if roles is not None else sorted(set(g[first]) | set(g[second]))
    rows = []
    for a in roles:
        for b in roles:
            cell = g[(g[first] == a) & (g[second] == b)]
            done = cell[cell["outcome"] != "unfinished"]
            wins = int((done["score"] == 1.0).sum())
            draws = int((done["outcome"] == "draw").sum())
            n = len(done)
            points = wins + 0.5 * draws
            lo, hi = _points_interval(points, n)
            rows.append({"first": a, "second": b, "games": len(cell), "finished": n, "wins": wins, "draws": draws,
                         "losses": n - wins - draws, "unfinished": len(cell) - n,
                         "score": points / n if n else math.nan, "low": lo, "high": hi})
    return pd.DataFrame(rows)


def _points_interval(points: float, n: int) -> tuple[float, float]:
    """Wilson on fractional points (a draw is half a win), as the report's score interval: conservative with
    draws, since a score's variance is at most the binomial one."""
    if n == 0:
        return math.nan, math.nan
    whole = int(points)
    if points == whole:
        return wilson_interval(whole, n)
    p, z2 = points / n, Z95 * Z95
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def fit_strengths(games: pd.DataFrame, first: str = "faction_p1", second: str = "faction_p2",
                  roles: Sequence[str] | None = None, pseudo: float = PSEUDO_WEIGHT) -> Strengths:
    """The Bradley-Terry fit with a seat term (see the module text); NaNs when nothing is finished."""
    import statsmodels.api as sm

    g = _finished(games, first, second)
    g = g[g["outcome"] != "unfinished"]
    roles = list(roles) if roles is not None else sorted(set(games[first]) | set(games[second]))
    k = len(roles)
    index = {r: i for i, r in enumerate(roles)}
    if k < 2 or len(g) == 0:
        empty = pd.DataFrame({"role": roles, "strength": math.nan, "low": math.nan, "high": math.nan,
                              "score": math.nan, "score_low": math.nan, "score_high": math.nan, "games": 0})
        return Strengths(empty, math.nan, math.nan, math.nan, math.nan, len(g), 0.0)
    # deviation coding: column j < k-1 is role j; the last role is minus the sum of the others
    contrast = np.vstack([np.eye(k - 1), -np.ones(k - 1)])

    def design(a: str, b: str) -> np.ndarray:
        return np.concatenate([[1.0], contrast[index[a]] - contrast[index[b]]])

    rows = [design(a, b) for a, b in zip(g[first], g[second], strict=True)]
    y = list(g["score"].astype(float))
    w = [1.0] * len(rows)
    added = 0.0
    if pseudo > 0:
        for a in roles:
            for b in roles:
                if a != b:
                    rows.append(design(a, b))
                    y.append(0.5)
                    w.append(pseudo)
                    added += pseudo
    x = np.array(rows)
    model = sm.GLM(np.array(y), x, family=sm.families.Binomial(), var_weights=np.array(w))
    fit = model.fit()
    params = np.asarray(fit.params)
    cov = np.asarray(fit.cov_params())
    full = np.vstack([np.eye(k - 1), -np.ones(k - 1)])  # strengths of all k roles from the k-1 parameters
    strength = full @ params[1:]
    scov = full @ cov[1:, 1:] @ full.T
    se = np.sqrt(np.clip(np.diag(scov), 0.0, None))
    played = pd.concat([g[first], g[second]]).value_counts()
    table = pd.DataFrame({"role": roles, "strength": strength, "low": strength - Z95 * se,
                          "high": strength + Z95 * se})
    table["score"] = table["strength"].map(_logistic)
    table["score_low"] = table["low"].map(_logistic)
    table["score_high"] = table["high"].map(_logistic)
    table["games"] = [int(played.get(r, 0)) for r in roles]
    seat_se = math.sqrt(max(cov[0, 0], 0.0))
    # Wald test that the k-1 free strengths are all 0 (every role equal)
    from scipy.stats import chi2

    free = np.asarray(params[1:], dtype=float)
    try:
        stat = float(free @ np.linalg.solve(cov[1:, 1:], free))
        p_equal = float(chi2.sf(stat, k - 1))
    except np.linalg.LinAlgError:
        p_equal = math.nan
    return Strengths(table.sort_values("strength", ascending=False, ignore_index=True), float(params[0]),
                     float(params[0] - Z95 * seat_se), float(params[0] + Z95 * seat_se), p_equal, len(g), added)


def strength_sentence(fit: Strengths, word: str = "faction", alpha: float = 0.05) -> str:
    """Name the strongest and the weakest role and say how sure the batch is."""
    t = fit.table
    if t["strength"].isna().all():
        return f"No {word} strengths: no finished game in the table."
    top, bottom = t.iloc[0], t.iloc[-1]

    def pct(r: pd.Series) -> str:
        return f"{100 * r['score']:.0f}% [{100 * r['score_low']:.0f}, {100 * r['score_high']:.0f}]"

    if not math.isnan(fit.p_equal) and fit.p_equal < alpha and top["low"] > bottom["high"]:
        # a "strongest" only when the test says the roles differ and the two intervals lie apart (issue 34)
        return (f"Strongest {word}: {top['role']} (expected score {pct(top)} against the average {word}, seat "
                f"advantage removed); weakest: {bottom['role']} ({pct(bottom)}). We are fairly sure: the {word}s "
                f"differ (Wald test of equal strength p = {_p(fit.p_equal)}) and the two 95% intervals do not "
                "overlap.")
    text = (f"No strongest {word} can be named: the highest estimate, {top['role']} ({pct(top)} expected score "
            f"against the average {word}, seat advantage removed), and the lowest, {bottom['role']} "
            f"({pct(bottom)}), " + ("have overlapping 95% intervals. " if top["low"] <= bottom["high"] else
                                    "have 95% intervals apart, but the test below does not back it. "))
    if math.isnan(fit.p_equal):
        return text + "How sure: the fit gives no test (too few games)."
    if fit.p_equal < alpha:
        return text + (f"The {word}s differ (Wald test of equal strength p = {_p(fit.p_equal)}), but their order "
                       "is not settled.")
    return text + (f"Not sure: the batch cannot tell the {word}s apart (Wald test of equal strength "
                   f"p = {_p(fit.p_equal)}); more games are needed before naming one strong.")


def seat_sentence(fit: Strengths, seat: str = "p1") -> str:
    """The first seat's advantage against an equal opponent, from the same fit."""
    s, lo, hi = fit.seat_score
    if math.isnan(s):
        return "No first-player estimate: no finished game."
    verdict = ("favours the first seat" if lo > 0.5 else "favours the second seat" if hi < 0.5
               else "shows no clear first-player advantage")
    return (f"First-player advantage, factions accounted for: {seat} scores {100 * s:.0f}% [{100 * lo:.0f}, "
            f"{100 * hi:.0f}] against an equally strong opponent; the batch {verdict}.")


def _p(p: float) -> str:
    return "< 0.001" if p < 0.001 else f"{p:.3f}"


def matrix_frame(matrix: pd.DataFrame, seat: str = "p1") -> pd.DataFrame:
    """The matrix for reading: rows the first seat's role, columns the second's, cells 'score% [lo, hi] (n)'."""
    roles = list(dict.fromkeys(matrix["first"]))
    out = {f"{seat} \\ opponent": roles}
    for b in roles:
        col = []
        for a in roles:
            r = matrix[(matrix["first"] == a) & (matrix["second"] == b)].iloc[0]
            col.append("–" if math.isnan(r["score"]) else
                       f"{100 * r['score']:.0f} [{100 * r['low']:.0f}, {100 * r['high']:.0f}] ({r['finished']})")
        out[b] = col
    return pd.DataFrame(out)


def plot_matrix(matrix: pd.DataFrame, seat: str = "p1", word: str = "faction") -> bytes:
    """The 4x4 (k x k) heat of the first seat's score, colour bar from 0 to 1, intervals written in."""
    import matplotlib.pyplot as plt

    roles = list(dict.fromkeys(matrix["first"]))
    k = len(roles)
    grid = np.full((k, k), np.nan)
    for r in matrix.to_dict("records"):
        grid[roles.index(r["first"]), roles.index(r["second"])] = r["score"]
    fig, ax = plt.subplots(figsize=(1.5 * k + 2, 1.2 * k + 1.2))
    im = ax.imshow(grid, cmap="PuOr_r", vmin=0.0, vmax=1.0)
    for r in matrix.to_dict("records"):
        i, j = roles.index(r["first"]), roles.index(r["second"])
        text = "–" if math.isnan(r["score"]) else f"{100 * r['score']:.0f}%\n[{100 * r['low']:.0f}, {100 * r['high']:.0f}]"
        ax.text(j, i, f"{text}\nn={r['finished']}", ha="center", va="center", fontsize=7)
    ax.set_xticks(range(k), roles)
    ax.set_yticks(range(k), roles)
    ax.set_xlabel(f"second seat's {word}")
    ax.set_ylabel(f"{seat}'s {word}")
    bar = fig.colorbar(im, ax=ax, fraction=0.046, pad=0.04)
    bar.set_label(f"{seat}'s score (win 1, draw 1/2), finished games")
    ax.set_title(f"{seat}'s score by {word} pair, 95% Wilson intervals", fontsize=9)
    fig.tight_layout()
    return _png(fig)


def plot_strengths(fit: Strengths, word: str = "faction") -> bytes:
    """Each role's expected score against the average role (seat removed), with its 95% interval."""
    import matplotlib.pyplot as plt

    from . import palette

    t = fit.table
    fig, ax = plt.subplots(figsize=(6, 0.5 * len(t) + 1.2))
    for i, r in enumerate(t.to_dict("records")):
        if math.isnan(r["score"]):
            continue
        ax.errorbar([r["score"]], [i], xerr=[[r["score"] - r["score_low"]], [r["score_high"] - r["score"]]],
                    fmt="o", color=palette.FIRST, capsize=3)
    ax.axvline(0.5, color=palette.REFERENCE, lw=1, ls="--")
    ax.set_yticks(range(len(t)), list(t["role"]))
    ax.set_ylim(len(t) - 0.5, -0.5)
    ax.set_xlim(0, 1)
    ax.set_xlabel(f"expected score against the average {word}, seat advantage removed (95% interval)")
    fig.tight_layout()
    return _png(fig)


def _png(fig: object) -> bytes:
    from .figures import png

    return png(fig)


def matchup_section(games: pd.DataFrame, first: str = "faction_p1", second: str = "faction_p2",
                    word: str = "faction", roles: Sequence[str] | None = None) -> dict[str, Any]:
    """A report piece ``{"title", "markdown", "html", "figures"}`` for ``GameDef.report_sections``."""
    import html as html_mod

    from .figures import markdown_table

    seat = seats_of(games)[0]
    matrix = matchup_matrix(games, first, second, roles)
    fit = fit_strengths(games, first, second, roles)
    frame = matrix_frame(matrix, seat)
    strengths = pd.DataFrame({
        word: fit.table["role"], "games": fit.table["games"],
        "score vs average % [95% CI]": [
            "–" if math.isnan(s) else f"{100 * s:.1f} [{100 * lo:.1f}, {100 * hi:.1f}]"
            for s, lo, hi in zip(fit.table["score"], fit.table["score_low"], fit.table["score_high"], strict=True)],
        "strength (logit) [95% CI]": [
            "–" if math.isnan(s) else f"{s:+.2f} [{lo:+.2f}, {hi:+.2f}]"
            for s, lo, hi in zip(fit.table["strength"], fit.table["low"], fit.table["high"], strict=True)],
    })
    unfinished = int(matrix["unfinished"].sum())
    words = [
        strength_sentence(fit, word), seat_sentence(fit, seat),
        f"The matrix: {seat}'s score (a win 1, a draw 1/2) over finished games for each pair, rows {seat}'s {word}, "
        f"columns the opponent's, 95% Wilson intervals and the finished games in brackets; {unfinished} unfinished "
        "games (cut by the cap) count in no score.",
        f"Overall strengths: a Bradley-Terry fit with a seat term (binomial GLM on {seat}'s score, statsmodels) "
        f"over {fit.games} finished games; each {word}'s score is its expected score against the average {word} "
        f"from a neutral seat. {fit.pseudo:.0f} pseudo-games scored 1/2 (one per ordered pair of different "
        f"{word}s) keep a {word} that won or lost everything finite; mirror games inform only the seat term.",
    ]
    figures = [(f"{word}_matrix", plot_matrix(matrix, seat, word)), (f"{word}_strengths", plot_strengths(fit, word))]
    md = "\n\n".join([*words, markdown_table(frame), markdown_table(strengths)])
    page = "".join(f"<p>{html_mod.escape(w)}</p>" for w in words)
    page += "<div class='scroll'>" + frame.to_html(index=False, border=0, classes="t") + "</div>"
    page += "<div class='scroll'>" + strengths.to_html(index=False, border=0, classes="t") + "</div>"
    return {"title": f"{word.capitalize()}s", "markdown": md, "html": page, "figures": figures,
            "matrix": matrix, "strengths": fit}


__all__ = ["Strengths", "fit_strengths", "matchup_matrix", "matchup_section", "matrix_frame", "plot_matrix",
           "plot_strengths", "seat_sentence", "strength_sentence"]
