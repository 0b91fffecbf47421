"""What each option is worth: restricted play's statistics, from a games table (Jaffe et al., AIIDE 2012).

An ablation batch (``workbench ablate``) plays, for every action class, the same agent barred from it
(its seat's agent spec carries ``bar=<class>``) against itself unbarred (``bar=none``), on paired seeds
with the seats swapped, plus control games with nothing barred. This module reads such a table and says,
per class and variant (grid cell):

- **worth**: the barred side's loss in score, in percentage points (a win 1, a draw or an unfinished game
  1/2, a loss 0), against 50% in two-sided games (exact by symmetry: seats are swapped on every seed)
  or the control games' share with more sides. Its interval is over the paired seeds (Student t on a
  seed's mean score; Wilson's bounds over the games when every seed scored the same), Bonferroni-widened
  to hold for all the variant's classes at once, and its p-value (t, or the exact binomial test over the
  games when the seeds agree) is Holm-corrected over them (statsmodels);
- **usage**: the share of the unbarred side's own actions in the class (its per-seat class counters);
- **verdict**: "never used" (the unbarred side never played it), "dominant" (barred, the side scores
  under 20% with the interval's top under 30%), "worth N points" (Holm p < alpha, or the interval leaves 0), else
  "used, worth nothing measurable";
- the smallest worth the batch could have seen (80% power, same correction; the spread of a seed's score
  is the control games' first seat's, so a deterministic agent's identical replays do not shrink it).

Per seat, and per role where the game has roles (``faction``), the barred side's score is compared with
the same seat's (and role's) score in the control games. With a grid, each variant's worth is compared
with the first cell's. Plain tables in, plain tables out: balance imports no game and no agent.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats as _sp

from .stats import BalanceError, wilson_bounds

CONTROL = "none"  # the class name of the control games (nothing barred)
DOMINANT_SCORE = 0.20  # barred, the side scores under this ...
DOMINANT_TOP = 0.30  # ... with the interval's top under this
POWER = 0.8
_BAR = re.compile(r"(?:^|[:,])bar=([^,]*)")


def barred_of(spec: str) -> str | None:
    """The ``bar=`` value of an agent spec (``greedy:bar=castling`` -> ``castling``; ``none`` for nothing), else None."""
    m = _BAR.search(str(spec))
    if m is None:
        return None
    value = m.group(1).strip()
    return CONTROL if value.lower() in ("", "none") else value


def base_agent(spec: str) -> str:
    """The agent spec without its ``bar=`` parameter (``greedy:bar=castling`` -> ``greedy``)."""
    name, _, rest = str(spec).partition(":")
    params = [p for p in rest.split(",") if p.strip() and not p.strip().startswith("bar=")]
    return f"{name}:{','.join(params)}" if params else name


def _seats(games: pd.DataFrame) -> list[str]:
    players = games["players"].iloc[0] if "players" in games.columns and len(games) else "white,black"
    return str(players).split(",")


def long_table(games: pd.DataFrame, role: str = "") -> pd.DataFrame:
    """One row per (game, seat): its class barred (``CONTROL`` for nothing), score, counters and role.

    Rows of games that failed (``outcome == 'error'``) are left out; seats whose agent carries no
    ``bar=`` are not part of an ablation and are left out too.
    """
    if games is None or not len(games):
        raise BalanceError("no games: run `workbench ablate` first")
    ok = games[games["outcome"] != "error"] if "outcome" in games.columns else games
    seats = _seats(ok)
    rows = []
    for seat_index, seat in enumerate(seats):
        col = f"agent_{seat}"
        if col not in ok.columns:
            continue
        others = [f"agent_{s}" for s in seats if s != seat]
        for rec in ok.to_dict("records"):
            mine = barred_of(rec[col])
            if mine is None:
                continue
            theirs = [barred_of(rec[o]) for o in others]
            if mine == CONTROL and any(t not in (None, CONTROL) for t in theirs):
                mine = "__opponent__"  # the unbarred side of a class's game
            score = rec.get(f"score_{seat}", 0.0)
            rows.append({
                "game_id": rec["game_id"], "cell": rec.get("cell", "default"), "seed": rec["seed"], "seat": seat,
                "seat_index": seat_index, "barred": mine, "opponent_barred": next((t for t in theirs if t), CONTROL),
                "agent": base_agent(rec[col]), "score": (float(score if score == score else 0.0) + 1.0) / 2.0,
                "decisions": int(rec.get(f"decisions_{seat}", 0) or 0), "forced": int(rec.get(f"forced_{seat}", 0) or 0),
                "role": str(rec.get(f"{role}_{seat}", "")) if role else "",
                **{k[len("class_"):-len(seat) - 1]: int(v or 0) for k, v in rec.items()
                   if k.startswith("class_") and k.endswith(f"_{seat}") and v == v},
            })
    if not rows:
        raise BalanceError("no seat played with bar=: this is not an ablation table (run `workbench ablate`)")
    return pd.DataFrame(rows)


@dataclass
class WorthTable:
    """Worth per (variant, class), the per-seat/role breakdown, the variant comparison and the batch's sentences."""

    table: pd.DataFrame
    seats: pd.DataFrame
    variants: pd.DataFrame
    smallest: dict[str, float]
    agent: str
    alpha: float
    notes: list[str] = field(default_factory=list)

    def text(self, elo: str = "") -> str:
        """The tables as plain text, as ``workbench ablate`` prints them."""
        return worth_text(self, elo)


def _interval(y: np.ndarray, n_games: int, level: float) -> tuple[float, float, float]:
    """(mean, low, high) of the seeds' mean scores at ``level``: Student t, or Wilson's bounds when all are equal."""
    mean = float(y.mean())
    sd = float(y.std(ddof=1)) if len(y) > 1 else 0.0
    if sd > 0:
        half = float(_sp.t.ppf(1 - (1 - level) / 2, len(y) - 1)) * sd / math.sqrt(len(y))
        return mean, max(0.0, mean - half), min(1.0, mean + half)
    z = float(_sp.norm.ppf(1 - (1 - level) / 2))
    lo, hi = wilson_bounds(mean, max(1, n_games), z)
    return mean, lo, hi


def _p_value(y: np.ndarray, centre: float, n_games: int) -> float:
    """Two-sided p of the seeds' mean score against ``centre``: Student's t over the seeds, or, when every seed
    scored the same (no spread to estimate), the exact binomial test over the games, as the interval does."""
    if len(y) >= 2 and float(y.std(ddof=1)) > 0:
        return float(_sp.ttest_1samp(y, centre).pvalue)
    if abs(float(y.mean()) - centre) < 1e-12 or n_games < 1:
        return 1.0
    k = int(round(float(y.mean()) * n_games))
    return float(_sp.binomtest(k, n_games, centre).pvalue)


def _verdict(used: int, score: float, lo: float, hi: float, centre: float, p_holm: float, worth: float,
             alpha: float) -> str:
    if used == 0:
        return "never used"
    if score < DOMINANT_SCORE and hi < DOMINANT_TOP:
        return "dominant"
    if p_holm < alpha or not lo <= centre <= hi:  # Holm, or the Bonferroni interval (stricter) leaves the centre
        return f"worth {worth:+.0f} points" if worth < 0 else f"worth {worth:.0f} points"
    return "used, worth nothing measurable"


def worth(games: pd.DataFrame, words: Mapping[str, str] | None = None, role: str = "", alpha: float = 0.05,
          baseline_cell: str | None = None) -> WorthTable:
    """Worth of every barred class in every variant of an ablation table (see the module docstring)."""
    from statsmodels.stats.multitest import multipletests

    if not 0 < alpha < 1:
        raise BalanceError(f"alpha must be between 0 and 1, got {alpha}")
    words = dict(words or {})
    long = long_table(games, role)
    n_seats = long["seat"].nunique()
    rows, seat_rows, smallest, notes = [], [], {}, []
    control = long[long["barred"] == CONTROL]
    for cell, part in long.groupby("cell", sort=False):
        barred = part[~part["barred"].isin([CONTROL, "__opponent__"])]
        unbarred = part[part["barred"] == "__opponent__"]
        ctrl = control[control["cell"] == cell]
        centre = 0.5 if n_seats == 2 or not len(ctrl) else float(ctrl["score"].mean())
        classes = list(dict.fromkeys(barred["barred"]))
        m = max(1, len(classes))
        level = 1 - alpha / m
        cell_rows = []
        ns = []
        for c in classes:
            mine = barred[barred["barred"] == c]
            y = mine.groupby("seed")["score"].mean().to_numpy()
            score, lo, hi = _interval(y, len(mine), level)
            ns.append(len(y))
            opp = unbarred[unbarred["opponent_barred"] == c]
            opp_decisions = int(opp["decisions"].sum())
            used = int(opp[c].sum()) if c in opp.columns else 0
            cell_rows.append({
                "cell": cell, "class": c, "words": words.get(c, c), "seeds": len(y), "games": len(mine),
                "barred_score": 100 * score, "worth": 100 * (centre - score), "low": 100 * (centre - hi),
                "high": 100 * (centre - lo), "p": _p_value(y, centre, len(mine)),
                "usage": 100 * used / opp_decisions if opp_decisions else 0.0,
                "used_in_games": 100 * float((opp[c] > 0).mean()) if c in opp.columns and len(opp) else 0.0,
                "forced": int(mine["forced"].sum()), "barred_decisions": int(mine["decisions"].sum()),
                "_used": used, "_score": score, "_lo": lo, "_hi": hi})
        if cell_rows:
            holm = multipletests([r["p"] for r in cell_rows], alpha=alpha, method="holm")[1]
            for r, ph in zip(cell_rows, holm, strict=True):
                r["p_holm"] = float(ph)
                r["verdict"] = _verdict(r.pop("_used"), r.pop("_score"), r.pop("_lo"), r.pop("_hi"), centre, r["p_holm"],
                                        r["worth"], alpha)
            rows.extend(cell_rows)
            sd = _null_spread(ctrl, n_seats)
            n = min(ns)
            z = float(_sp.norm.ppf(1 - alpha / (2 * m)) + _sp.norm.ppf(POWER))
            smallest[str(cell)] = 100 * z * sd / math.sqrt(max(1, n))
        seat_rows.extend(_by_seat(barred, ctrl, cell))
    table = pd.DataFrame(rows)
    if len(table):
        order = {c: i for i, c in enumerate(dict.fromkeys(long.sort_values("game_id")["cell"]))}  # the grid's order
        table = (table.assign(_order=table["cell"].map(order)).sort_values(["_order", "worth"], ascending=[True, False],
                                                                            kind="stable")
                 .drop(columns="_order").reset_index(drop=True))
    else:
        notes.append("no class was barred in these games")
    agent = str(long["agent"].iloc[0])
    variants = _variants(table, baseline_cell, alpha)
    return WorthTable(table, pd.DataFrame(seat_rows), variants, smallest, agent, alpha, notes)


def _null_spread(ctrl: pd.DataFrame, n_seats: int) -> float:
    """The spread of a seed's mean score when nothing is barred: the first seat's score across the control
    games' seeds (its variance over the seats of a seed, as if independent), else a coin's (no draws)."""
    first = ctrl[ctrl["seat_index"] == 0]["score"] if len(ctrl) else pd.Series(dtype=float)
    var = float(first.var(ddof=1)) if len(first) > 1 else 0.0
    return math.sqrt((var if var > 0 else 0.25) / n_seats)


def _by_seat(barred: pd.DataFrame, ctrl: pd.DataFrame, cell: str) -> list[dict[str, Any]]:
    """Per class, seat and role: the barred side's score against the control games' same seat and role (95%)."""
    out: list[dict[str, Any]] = []
    if not len(ctrl):
        return out
    for (c, seat, role), mine in barred.groupby(["barred", "seat", "role"], sort=False):
        ref = ctrl[(ctrl["seat"] == seat) & (ctrl["role"] == role)]
        if not len(ref) or not len(mine):
            continue
        p1, n1, p2, n2 = float(mine["score"].mean()), len(mine), float(ref["score"].mean()), len(ref)
        l1, u1 = wilson_bounds(p1, n1)
        l2, u2 = wilson_bounds(p2, n2)
        d = p2 - p1  # Newcombe's hybrid interval of a difference of two shares
        lo = d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2)
        hi = d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2)
        out.append({"cell": cell, "class": c, "seat": seat, "role": role, "games": n1, "barred_score": 100 * p1,
                    "control_score": 100 * p2, "worth": 100 * d, "low": 100 * lo, "high": 100 * hi})
    return out


def _variants(table: pd.DataFrame, baseline_cell: str | None, alpha: float) -> pd.DataFrame:
    """Each class's worth in each variant minus its worth in the baseline cell, with a Holm-corrected p."""
    from statsmodels.stats.multitest import multipletests

    if not len(table) or table["cell"].nunique() < 2:
        return pd.DataFrame()
    base = baseline_cell if baseline_cell is not None else str(table["cell"].iloc[0])
    ref = table[table["cell"] == base].set_index("class")
    rows = []
    for _, r in table[table["cell"] != base].iterrows():
        if r["class"] not in ref.index:
            continue
        b = ref.loc[r["class"]]
        se = math.hypot(_se(r), _se(b))
        d = r["worth"] - b["worth"]
        p = 1.0 if se == 0 else float(2 * _sp.norm.sf(abs(d) / se))
        rows.append({"cell": r["cell"], "baseline": base, "class": r["class"], "words": r["words"], "change": d,
                     "low": d - 1.959963984540054 * se, "high": d + 1.959963984540054 * se, "p": p})
    out = pd.DataFrame(rows)
    if len(out):
        out["p_holm"] = multipletests(out["p"], alpha=alpha, method="holm")[1]
    return out


def _se(row: pd.Series) -> float:
    """Standard error of a worth from its (Bonferroni-widened) interval: a conservative reading."""
    return float((row["high"] - row["low"]) / (2 * 1.959963984540054))


def variant_sentences(result: WorthTable) -> list[str]:
    """"under archer_range=4 the archer's shot is worth 12 points more [5, 19]": every class's change against the
    first variant with its 95% interval, the ones Holm keeps first; a change Holm does not keep says so."""
    v = result.variants
    if not len(v):
        return []
    out = []
    for _, r in v.sort_values(["p_holm", "change"], ascending=[True, False]).iterrows():
        more = "more" if r["change"] > 0 else "less"
        name = r["words"].split(":")[0]
        tail = "" if r["p_holm"] < result.alpha else f" (not measurable: Holm p {r['p_holm']:.2f})"
        if abs(r["change"]) < 0.5:
            out.append(f"under {r['cell']} {name} is worth the same as under {r['baseline']} "
                       f"[{_fmt(r['low'])}, {_fmt(r['high'])}]{tail}")
        else:
            n = round(abs(r['change']))
            out.append(f"under {r['cell']} {name} is worth {n:.0f} point{'' if n == 1 else 's'} {more} "
                       f"[{_fmt(r['low'])}, {_fmt(r['high'])}] than under {r['baseline']}{tail}")
    if not (v["p_holm"] < result.alpha).any():
        out.append(f"no option's worth changes measurably from {v['baseline'].iloc[0]} to another variant "
                   f"(Holm over {len(v)} comparisons)")
    return out


def _fmt(x: float) -> str:
    """A whole number of points; never "-0" (a bound of -0.3 prints 0), never "nan" (no games: "-")."""
    return str(int(round(x))) if x == x and abs(x) != float("inf") else "-"


def worth_text(result: WorthTable, elo: str = "") -> str:
    """Plain-text tables: per variant the classes by worth (intervals, usage, verdict), then seats and variants."""
    lines = []
    t = result.table
    who = f"{result.agent}" + (f" ({elo})" if elo else "")
    lines.append(f"What each option is worth to {who}: barred side's loss in score, points (draws half)")
    for cell, part in t.groupby("cell", sort=False):
        m = len(part)
        lines.append(f"\nvariant {cell}: {m} classes, {int(part['seeds'].min())}+ paired seeds each, seats swapped; "
                     f"intervals {100 * (1 - result.alpha / m):.1f}% (Bonferroni), p Holm-corrected over {m}")
        head = f"  {'class':<22} {'worth':>6} {'interval':>12} {'barred %':>8} {'usage %':>7} {'forced':>6}  verdict"
        lines.append(head)
        for _, r in part.iterrows():
            lines.append(f"  {r['class']:<22} {_fmt(r['worth']):>6} {'[' + _fmt(r['low']) + ', ' + _fmt(r['high']) + ']':>12} "
                         f"{_fmt(r['barred_score']):>8} {r['usage']:>7.1f} {int(r['forced']):>6}  {r['verdict']}")
        small = result.smallest.get(str(cell))
        if small is not None:
            lines.append(f"  smallest worth these games could have seen (80% power): {small:.0f} points")
    s = result.seats
    if len(s):
        lines.append("\nper seat" + (" and role" if (s["role"] != "").any() else "") +
                     " (barred side against the same seat in the control games, 95%):")
        for _, r in s.iterrows():
            role = f" {r['role']}" if r["role"] else ""
            lines.append(f"  {r['cell']} {r['class']:<22} {r['seat']}{role}: worth {_fmt(r['worth'])} "
                         f"[{_fmt(r['low'])}, {_fmt(r['high'])}] over {int(r['games'])} games")
    sentences = variant_sentences(result)
    if sentences:
        lines.append("\nacross variants:")
        lines.extend(f"  {x}" for x in sentences)
    lines.extend(result.notes)
    return "\n".join(lines)


def worth_frame(result: WorthTable) -> pd.DataFrame:
    """The printed table's columns, rounded as printed (what a notebook shows and a test compares)."""
    t = result.table
    if not len(t):
        return pd.DataFrame()
    out = t[["cell", "class", "worth", "low", "high", "barred_score", "usage", "forced", "verdict"]].copy()
    for c in ("worth", "low", "high", "barred_score"):
        out[c] = out[c].round(0).astype(int)
    out["usage"] = out["usage"].round(1)
    return out.reset_index(drop=True)


__all__ = ["CONTROL", "WorthTable", "barred_of", "base_agent", "long_table", "variant_sentences", "worth",
           "worth_frame", "worth_text"]


def plot_worth(result: WorthTable) -> bytes:
    """Sorted bars of worth with their intervals, one row of panels per variant, usage beside (PNG)."""
    import io

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    t = result.table
    cells = list(dict.fromkeys(t["cell"]))
    heights = [max(1.6, 0.38 * len(t[t["cell"] == c]) + 0.9) for c in cells]
    fig, axes = plt.subplots(len(cells), 2, figsize=(9.5, sum(heights)), squeeze=False,
                             gridspec_kw={"width_ratios": [3, 1], "height_ratios": heights})
    for row, cell in enumerate(cells):
        part = t[t["cell"] == cell].sort_values("worth")
        y = np.arange(len(part))
        colours = ["#b2182b" if v == "dominant" else "#ef8a62" if v.startswith("worth") else
                   "#bbbbbb" if v == "never used" else "#67a9cf" for v in part["verdict"]]
        ax = axes[row][0]
        ax.barh(y, part["worth"], color=colours)
        ax.errorbar(part["worth"], y, xerr=[part["worth"] - part["low"], part["high"] - part["worth"]], fmt="none",
                    ecolor="black", capsize=3, lw=1)
        ax.axvline(0, color="black", lw=0.8)
        ax.set_yticks(y, part["class"])
        ax.set_xlabel("worth: barred side's loss in score, points")
        ax.set_title(f"{cell}  (smallest visible worth {result.smallest.get(str(cell), 0):.0f} points)", fontsize=9)
        ux = axes[row][1]
        ux.barh(y, part["usage"], color="#999999")
        ux.set_yticks(y, [""] * len(part))
        ux.set_xlabel("usage, % of actions")
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90)
    plt.close(fig)
    return buf.getvalue()


def is_ablation(games: pd.DataFrame) -> bool:
    """True when some seat's agent spec carries ``bar=`` (a table ``workbench ablate`` wrote)."""
    cols = [c for c in games.columns if str(c).startswith("agent_")]
    return any(games[c].astype(str).str.contains(r"(?:^|[:,])bar=", regex=True).any() for c in cols)
