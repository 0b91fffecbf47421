"""Balance reports: a self-contained HTML page (figures as base64 PNG) and a Markdown twin.

A report is a pure function of the games table (and optionally the events table): summary table,
win rates with Wilson interval bars, victory-kind stacked bars, length distributions, the
comparisons with their verdicts in plain words, captures by side and kind, and the parts the table's
game declares (``GameDef.report_sections``, e.g. TerraFeud's batch heatmaps when an events table is given).
"""

from __future__ import annotations

import base64
import html
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from . import curves, palette, power, skill, trace, usage  # noqa: E402
from . import worth as worth_tables  # noqa: E402
from .cells import (  # noqa: E402
    _is_missing,
    cell_columns,
    check_games,
    start_bound_columns,  # noqa: E402
    summarize_cells,
)
from .compare import CORRECTION_NAMES, Comparison, compare_toggles, variant_name  # noqa: E402
from .figures import markdown_table  # noqa: E402
from .figures import png as _png  # noqa: E402
from .stats import BalanceError  # noqa: E402
from .table import UNFINISHED_THRESHOLD, Study, length_unit, seats_of, study_of, teams_of  # noqa: E402


@dataclass
class Section:
    """One heading of the report: paragraphs, an optional table and optional figures (PNG bytes)."""

    title: str
    paragraphs: list[str] = field(default_factory=list)
    table: pd.DataFrame | None = None
    figures: list[tuple[str, bytes]] = field(default_factory=list)  # (file stem, PNG)
    extra_tables: list[tuple[str, pd.DataFrame]] = field(default_factory=list)  # (caption, table) after the first
    table_html: str | None = None  # the table drawn by hand (greyed entries) in the HTML page
    markdown_text: str | None = None  # a game's own section (``GameDef.report_sections``): its Markdown
    html_text: str | None = None  # ... and its HTML, placed after the paragraphs


def _table_html(table: pd.DataFrame) -> str:
    """A table as HTML with every cell whole (pandas cuts cells at 50 characters by default: a tune's "why")."""
    with pd.option_context("display.max_colwidth", None):
        return str(table.to_html(index=False, border=0, classes="t", na_rep="–"))


@dataclass
class Report:
    """A built report; ``write(dir)`` saves ``report.html`` and ``report.md`` (with ``figures/``)."""

    title: str
    sections: list[Section]
    summary: pd.DataFrame
    comparisons: list[Comparison]
    study: Study | None = None

    def html(self) -> str:
        """The whole report as one HTML page with every figure embedded."""
        parts = [f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{html.escape(self.title)}</title>"
                 f"<style>{_CSS}</style></head><body><h1>{html.escape(self.title)}</h1>"]
        for s in self.sections:
            parts.append(f"<h2>{html.escape(s.title)}</h2>")
            parts.extend(f"<p class='warn'>{html.escape(p)}</p>" if p.startswith(("WARNING", "⚠"))
                         else f"<p>{html.escape(p)}</p>" for p in s.paragraphs)
            if s.html_text is not None:
                parts.append(s.html_text)
            if s.table_html is not None:
                parts.append("<div class='scroll'>" + s.table_html + "</div>")
            elif s.table is not None:
                parts.append("<div class='scroll'>" + _table_html(s.table) + "</div>")
            for caption, table in s.extra_tables:
                parts.append(f"<h3>{html.escape(caption)}</h3><div class='scroll'>" + _table_html(table) + "</div>")
            for stem, png in s.figures:
                data = base64.b64encode(png).decode("ascii")
                parts.append(f"<figure><img alt='{html.escape(stem)}' src='data:image/png;base64,{data}'></figure>")
        parts.append("</body></html>")
        return "\n".join(parts)

    def markdown(self, figure_dir: str = "figures") -> str:
        """The report as Markdown; figures are linked from ``figure_dir`` (``write`` saves them there)."""
        lines = [f"# {self.title}", ""]
        for s in self.sections:
            lines += [f"## {s.title}", ""]
            for p in s.paragraphs:
                lines += [p, ""]
            if s.markdown_text is not None:
                lines += [s.markdown_text, ""]
            if s.table is not None:
                lines += [markdown_table(s.table), ""]
            for caption, table in s.extra_tables:
                lines += [f"### {caption}", "", markdown_table(table), ""]
            for stem, _ in s.figures:
                lines += [f"![{stem}]({figure_dir}/{stem}.png)", ""]
        return "\n".join(lines)

    def write(self, out_dir: str | Path) -> tuple[Path, Path]:
        """Write ``report.html``, ``report.md`` and ``figures/*.png`` into ``out_dir``; return both paths."""
        out = Path(out_dir)
        (out / "figures").mkdir(parents=True, exist_ok=True)
        for s in self.sections:
            for stem, png in s.figures:
                (out / "figures" / f"{stem}.png").write_bytes(png)
        html_path, md_path = out / "report.html", out / "report.md"
        html_path.write_text(self.html(), encoding="utf-8")
        md_path.write_text(self.markdown(), encoding="utf-8")
        return html_path, md_path

    def _repr_html_(self) -> str:
        return self.html()


_CSS = ("body{font-family:system-ui,sans-serif;max-width:1300px;margin:2em auto;padding:0 1em;color:#222}"
        ".scroll{overflow-x:auto}"
        "table.t{border-collapse:collapse;font-size:13px;margin:1em 0}"
        "table.t th,table.t td{padding:3px 8px;border-bottom:1px solid #ddd;text-align:right}"
        "table.t td:first-child,table.t th:first-child{text-align:left}"
        "img{max-width:100%}figure{margin:1em 0}"
        "table.usage td.dead,table.usage tr.dead td{color:#aaa}"
        "p.warn{background:#fff3cd;border-left:4px solid #d95f02;padding:.4em .8em}")


def _pct(x: float) -> str:
    return "–" if x is None or math.isnan(x) else f"{100 * x:.1f}"


def _interval(x: float, lo: float, hi: float, pct: bool = True, digits: int = 1) -> str:
    if x is None or math.isnan(x):
        return "–"
    if pct:
        return f"{100 * x:.{digits}f} [{100 * lo:.{digits}f}, {100 * hi:.{digits}f}]"
    if math.isnan(lo):
        return f"{x:.{digits}f}"
    return f"{x:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"


def _has_teams(summary: pd.DataFrame) -> bool:
    """Whether some cell of the summary is a team game (its sides are teams, ``cells.summarize_games``)."""
    return "team_results" in summary.columns and bool(summary["team_results"].map(lambda v: isinstance(v, tuple)).any())


def _team_row(r: dict[str, Any], seats: Sequence[str], unit: str) -> dict[str, Any]:
    """A summary row of a table with team games: the side that moves first (its team, or the first seat where
    every seat plays for itself), its share and score, and every team's (or seat's) wins and score."""
    teams = r.get("team_results")
    if isinstance(teams, tuple):
        first = teams[0][0]
        wins = "; ".join(f"{name[5:]} {_interval(rate, lo, hi)}" for name, _, rate, lo, hi, *_ in teams)
        scores = "; ".join(f"{name[5:]} {_interval(sc, slo, shi)}" for name, *_, sc, slo, shi in teams)
    else:
        first = f"seat {seats[0]}"
        wins = "; ".join(f"{s} {_interval(r[f'{s}_rate'], r[f'{s}_low'], r[f'{s}_high'])}" for s in seats)
        scores = "–"
    return {
        "cell": r["label"], "games": r["games"], "verdict": r["verdict"], "moves first": first,
        "its share of decided % [95% CI]": _interval(r["advantage"], r["advantage_low"], r["advantage_high"]),
        "its score % (draws 1/k) [95% CI]": _interval(r["score"], r["score_low"], r["score_high"]),
        "win % of all games by team [95% CI]": wins,
        "score % by team (draws 1/k) [95% CI]": scores,
        "decided % [95% CI]": _interval(r["decisive"], r["decisive_low"], r["decisive_high"]),
        "draws": r["draws"],
        "unfinished % [95% CI]": ("⚠ " if r["flagged"] else "")
        + _interval(r["unfinished_rate"], r["unfinished_low"], r["unfinished_high"]),
        f"median {unit} [95% CI] (KM)": _km(r["length_median"], r["length_low"], r["length_high"]),
        "quartiles (KM)": f"{_km_point(r['length_q1'])}–{_km_point(r['length_q3'])}",
    }


def summary_table(summary: pd.DataFrame, seats: Sequence[str], unit: str = "plies") -> pd.DataFrame:
    """The human-readable summary: one row per cell, the three quantities with intervals, the verdict.

    With team games (``teams`` such as ``ab,cd``) the advantage is the first-moving team's, and each team's
    wins and score are listed instead of one column per seat (a seat wins when its team wins)."""
    first = seats[0].capitalize()
    teams = _has_teams(summary)
    rows = []
    for r in summary.to_dict("records"):
        if teams:
            row = _team_row(r, seats, unit)
            for col, name, digits in (("mean_branching", "branching", 1), ("decision_share", "decision %", 1),
                                      ("lead_changes", "lead changes", 2), ("drama", "drama", 3)):
                if col in r and not _missing(r.get(col)):
                    row[name] = (_interval(r[col], r[f"{col}_low"], r[f"{col}_high"]) if col == "decision_share" else
                                 _interval(r[col], r[f"{col}_low"], r[f"{col}_high"], pct=False, digits=digits))
            rows.append(row)
            continue
        row = {
            "cell": r["label"], "games": r["games"], "verdict": r["verdict"],
            f"{first} share of decided % [95% CI]": _interval(r["advantage"], r["advantage_low"], r["advantage_high"]),
            f"{first} score % (draws half)": _interval(r["score"], r["score_low"], r["score_high"]),
            "decided % [95% CI]": _interval(r["decisive"], r["decisive_low"], r["decisive_high"]),
            "draws": r["draws"],
            "unfinished % [95% CI]": ("⚠ " if r["flagged"] else "")
            + _interval(r["unfinished_rate"], r["unfinished_low"], r["unfinished_high"]),
            f"median {unit} [95% CI] (KM)": _km(r["length_median"], r["length_low"], r["length_high"]),
            "quartiles (KM)": f"{_km_point(r['length_q1'])}–{_km_point(r['length_q3'])}",
        }
        for side in seats:
            row[f"{side.capitalize()} win % of all games"] = _pct(r[f"{side}_rate"])
        for col, name, digits in (("mean_branching", "branching", 1), ("decision_share", "decision %", 1),
                                  ("lead_changes", "lead changes", 2), ("drama", "drama", 3)):
            if col in r and not _missing(r.get(col)):
                if col == "decision_share":
                    row[name] = _interval(r[col], r[f"{col}_low"], r[f"{col}_high"])
                else:
                    row[name] = _interval(r[col], r[f"{col}_low"], r[f"{col}_high"], pct=False, digits=digits)
        rows.append(row)
    return pd.DataFrame(rows)


def _km_point(x: float) -> str:
    return "–" if x is None or math.isnan(x) else ("cap+" if math.isinf(x) else f"{x:.0f}")


def _km(x: float, lo: float, hi: float) -> str:
    """A Kaplan-Meier median with its interval; ``not reached`` when over half the games hit the cap."""
    if x is None or math.isnan(x):
        return "–"
    if math.isinf(x):
        return "not reached (over half cut)"
    return f"{x:.0f} [{_km_point(lo)}, {_km_point(hi)}]"


def _missing(v: Any) -> bool:
    return _is_missing(v)


def captures_table(summary: pd.DataFrame) -> pd.DataFrame | None:
    """Mean pieces lost per game, by seat and kind, one row per cell (None without loss columns): the
    ``lost_<seat>_<kind>`` columns of the game's declared kinds (``TableSchema.loss_kinds``), as the summary has them."""
    cols = []
    for c in summary.columns:
        seat, _, kind = str(c).removeprefix("lost_").partition("_")
        if str(c).startswith("lost_") and seat and kind:
            cols.append((seat, kind))
    if not cols:
        return None
    out = pd.DataFrame({"cell": summary["label"]})
    for s, k in cols:
        out[f"{s[0].upper()} {k}"] = summary[f"lost_{s}_{k}"].map(lambda v: f"{v:.2f}")
    return out


def comparisons_frame(comparisons: Sequence[Comparison]) -> pd.DataFrame:
    """The comparisons as a readable table: the three quantities side by side, and what moved."""
    def med(x: float) -> str:
        return "not reached" if math.isinf(x) else ("–" if math.isnan(x) else f"{x:.0f}")
    rows = []
    for c in comparisons:
        seat = c.seat.capitalize()
        rows.append({
            "variant": c.name, "baseline": c.baseline if not isinstance(c.baseline, bool) else ("on" if c.baseline else "off"),
            "games": f"{c.games_variant} vs {c.games_baseline}", "moved": ", ".join(c.moved()) or "nothing clear",
            "decided %": _pair(c.dec_variant, c.dec_baseline),
            "decided diff [95% CI]": _diff(c.dec_diff, c.dec_low, c.dec_high),
            "p adj (decided)": _pfmt(c.dec_p_adjusted),
            f"{seat} share of decided %": _pair(c.adv_variant, c.adv_baseline),
            "advantage diff [95% CI]": _diff(c.diff, c.low, c.high),
            "p adj (advantage)": _pfmt(c.p_adjusted),
            f"median {c.unit}": f"{med(c.median_variant)} vs {med(c.median_baseline)}",
            "p adj (log-rank)": _pfmt(c.length_p_adjusted),
            "unfinished %": f"{100 * c.unfinished_variant:.0f} vs {100 * c.unfinished_baseline:.0f}",
            "could not see (points)": f"decided < {_ceil_pts(c.dec_detectable)}, advantage < {_ceil_pts(c.adv_detectable)}",
        })
    return pd.DataFrame(rows)


NO_DECIDED = "no decided games"  # what a share of decided games reads when there are none (never "nan")


def _pair(a: float, b: float) -> str:
    """``61.0 vs 50.0`` of two shares; a side without decided games says so."""
    if math.isnan(a) and math.isnan(b):
        return NO_DECIDED
    return " vs ".join(NO_DECIDED if math.isnan(x) else f"{100 * x:.1f}" for x in (a, b))


def _diff(d: float, lo: float, hi: float) -> str:
    """``+11.0 [-2.0, 24.0]`` in points, or why there is no difference to give."""
    if math.isnan(d):
        return f"– ({NO_DECIDED} on one side)"
    if math.isnan(lo) or math.isnan(hi):
        return f"{100 * d:+.1f} (no interval)"
    return f"{100 * d:+.1f} [{100 * lo:.1f}, {100 * hi:.1f}]"


def _pfmt(p: float) -> str:
    return "–" if math.isnan(p) else ("< 0.001" if p < 0.001 else f"{p:.3f}")


def _ceil_pts(d: float) -> str:
    return "–" if math.isnan(d) else f"{math.ceil(100 * d)}"


def _height(n: int) -> float:
    return max(2.2, 0.45 * n + 1.2)


def _marker(ax: Any, x: float, y: float, err: tuple[float, float], colour: str, filled: bool = True,
            axis: str = "x", label: str | None = None) -> None:
    """A point with its interval: filled when it is the finding (significant), open otherwise."""
    lo, hi = (0.0 if math.isnan(e) else max(0.0, e) for e in err)
    kw = {"fmt": "o", "color": colour, "capsize": 3, "mfc": colour if filled else "white", "mec": colour, "label": label}
    if axis == "x":
        ax.errorbar([x], [y], xerr=[[lo], [hi]], **kw)
    else:
        ax.errorbar([x], [y], yerr=[[lo], [hi]], **kw)


def _teamed(r: dict[str, Any]) -> bool:
    return isinstance(r.get("team_results"), tuple)


def plot_advantage(summary: pd.DataFrame, seats: Sequence[str], threshold: float = 0.2) -> bytes:
    """Per cell, side by side: the first seat's share of decided games (orange) and the share decided
    (green), 95% Wilson intervals; a cell over the unfinished threshold is drawn open and marked. In a
    team game the first seat's team's share, its fair share one over the number of teams (dashed)."""
    n = len(summary)
    fig, axes = plt.subplots(1, 2, figsize=(10, _height(n)), sharey=True)
    first = seats[0].capitalize()
    for i, r in enumerate(summary.to_dict("records")):
        if not math.isnan(r["advantage"]):
            _marker(axes[0], r["advantage"], i, (r["advantage"] - r["advantage_low"], r["advantage_high"] - r["advantage"]),
                    palette.FIRST, filled=not r["flagged"])
        _marker(axes[1], r["decisive"], i, (r["decisive"] - r["decisive_low"], r["decisive_high"] - r["decisive"]),
                palette.DECIDED)
        axes[1].barh([i], [r["unfinished_rate"]], left=[1 - r["unfinished_rate"]], color=palette.UNFINISHED, height=0.5)
    fair = [r.get("fair") if _teamed(r) else 1 / len(seats) for r in summary.to_dict("records")]
    if len(set(fair)) == 1:
        axes[0].axvline(fair[0], color=palette.REFERENCE, lw=1, ls="--")
    else:  # cells with teams and cells without: each row's own fair share
        for i, f in enumerate(fair):
            axes[0].plot([f, f], [i - 0.4, i + 0.4], color=palette.REFERENCE, lw=1, ls="--")
    xlabel = (f"share of decided games won by {first}'s team" if _has_teams(summary)
              else f"{first}'s share of decided games")
    labels = [("⚠ " if f else "") + lab for lab, f in zip(summary["label"], summary["flagged"], strict=True)]
    axes[0].set_yticks(range(n), labels)
    axes[0].set_ylim(n - 0.5, -0.5)
    axes[0].set_xlim(-0.02, 1.02)
    axes[1].set_xlim(-0.02, 1.02)
    axes[0].set_xlabel(xlabel)
    axes[1].set_xlabel("share decided (grey bar: unfinished)")
    axes[0].set_title(f"advantage; open + ⚠ = over {100 * threshold:.0f}% unfinished, no verdict", fontsize=9)
    axes[1].set_title("decisiveness", fontsize=9)
    fig.suptitle("95% Wilson intervals", fontsize=8, y=0.01, va="bottom")
    fig.tight_layout()
    return _png(fig)


def plot_victory_kinds(summary: pd.DataFrame) -> bytes:
    """How games ended, per cell, as stacked bars of shares: decided kinds in greens, draws, unfinished."""
    n = len(summary)
    # only the victory kinds this table's games ended by: TerraFeud's checkmate never shows in a Pole report
    kinds = [c[len("share_"):] for c in summary.columns
             if c.startswith("share_") and (c in ("share_draw", "share_unfinished") or summary[c].fillna(0).sum() > 0)]
    decided = [k for k in kinds if k not in ("draw", "unfinished")]
    fig, ax = plt.subplots(figsize=(8, _height(n)))
    left = pd.Series(0.0, index=summary.index)
    colours = {k: palette.DECIDED_SHADES[i % len(palette.DECIDED_SHADES)] for i, k in enumerate(decided)}
    colours.update(draw=palette.DRAW, unfinished=palette.UNFINISHED)
    for kind in [*decided, "draw", "unfinished"]:
        if f"share_{kind}" not in summary.columns:
            continue
        share = summary[f"share_{kind}"].fillna(0.0)
        ax.barh(summary["label"], share, left=left, color=colours[kind], label=kind, edgecolor="white", lw=0.5)
        left = left + share
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("share of games (greens: decided, by victory kind)")
    ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=min(6, len(kinds)), fontsize=8, frameon=False)
    return _png(fig)


def plot_lengths(games: pd.DataFrame, summary: pd.DataFrame, keys: list[str], cap: int | None = None,
                 unit: str = "plies", columns: int = 4) -> bytes:
    """Kaplan-Meier survival curves of game length, one small panel per cell on shared axes: the share
    of games still running against length, with its 95% band; capped games are censored, the cap a
    grey line, the median a dot. Not box plots: those stop at the cap and hide the distribution."""
    from .survival import km_curve

    n = len(summary)
    cols = min(columns, n)
    rows = math.ceil(n / cols)
    fig, axes = plt.subplots(rows, cols, squeeze=False, sharex=True, sharey=True, figsize=(3.2 * cols, 2.5 * rows))
    for ax in axes.flat[n:]:
        ax.set_visible(False)
    for ax, r in zip(axes.flat, summary.to_dict("records"), strict=False):
        mask = pd.Series(True, index=games.index)
        for k in keys:
            mask &= games[k].map(lambda v: "none" if _missing(v) else v) == r[k]
        g = games[mask]
        curve = km_curve(g["length"].astype(float), (g["outcome"] != "unfinished").to_numpy())
        ax.step(curve["time"], curve["survival"], where="post", color=palette.LENGTH, lw=1.5)
        ax.fill_between(curve["time"], curve["low"], curve["high"], step="post", color=palette.LENGTH, alpha=0.15, lw=0)
        if cap is not None and unit == "plies":
            ax.axvline(cap, color=palette.UNFINISHED, lw=2)
        if math.isfinite(r["length_median"]):
            ax.plot([r["length_median"]], [0.5], "o", color=palette.LENGTH, ms=4)
        ax.axhline(0.5, color=palette.REFERENCE, lw=0.5, ls=":")
        ax.set_ylim(0, 1.02)
        ax.set_title(("⚠ " if r["flagged"] else "") + r["label"] + f"\n{100 * r['unfinished_rate']:.0f}% unfinished",
                     fontsize=8)
    for ax in axes[-1]:
        ax.set_xlabel(f"game length ({unit})")
    for ax in axes[:, 0]:
        ax.set_ylabel("share still running")
    fig.suptitle("Kaplan-Meier length curves (95% band); grey line = the cap; dot = median", fontsize=9)
    fig.tight_layout()
    return _png(fig)


def plot_comparisons(comparisons: Sequence[Comparison]) -> bytes:
    """Forest plot in three panels, one per quantity: change in decisiveness (green), in the first seat's
    share of decided games (orange), in median length (blue); filled = significant after correction."""
    m = len(comparisons)
    fig, axes = plt.subplots(1, 3, figsize=(12, _height(m)), sharey=True)
    for i, c in enumerate(comparisons):
        _marker(axes[0], 100 * c.dec_diff, i, (100 * (c.dec_diff - c.dec_low), 100 * (c.dec_high - c.dec_diff)),
                palette.DECIDED, c.decisive_significant)
        if not math.isnan(c.diff):
            _marker(axes[1], 100 * c.diff, i, (100 * (c.diff - c.low), 100 * (c.high - c.diff)), palette.FIRST,
                    c.significant)
        if not math.isnan(c.length_diff):
            err = ((c.length_diff - c.length_low, c.length_high - c.length_diff) if not math.isnan(c.length_low)
                   else (0.0, 0.0))
            _marker(axes[2], c.length_diff, i, err, palette.LENGTH, c.length_significant)
    for ax in axes:
        ax.axvline(0, color=palette.REFERENCE, lw=0.8)
    axes[0].set_yticks(range(m), [f"{c.name} vs {variant_name(c.column, c.baseline).lower()}" for c in comparisons])
    axes[0].set_ylim(m - 0.5, -0.5)
    seat = comparisons[0].seat.capitalize() if comparisons else "first seat"
    axes[0].set_xlabel("decided games, points")
    axes[1].set_xlabel(f"{seat}'s share of decided games, points")
    axes[2].set_xlabel(f"median length, {comparisons[0].unit if comparisons else 'plies'}")
    axes[0].set_title("decisiveness", fontsize=9)
    axes[1].set_title("advantage", fontsize=9)
    axes[2].set_title("length (KM median)", fontsize=9)
    fig.suptitle("Variant minus baseline, 95% intervals; filled = significant after correction", fontsize=9)
    fig.tight_layout()
    return _png(fig)


def _event_records(events: pd.DataFrame) -> Any:
    """The events table's rows as dicts, lazily (a batch's events can run to millions of rows)."""
    columns = list(events.columns)
    for values in events.itertuples(index=False, name=None):
        yield dict(zip(columns, values, strict=True))


def plot_cell_maps(game: Any, maps: Sequence[tuple[str, dict[int, float]]], columns: int = 2, label: str = "count",
                   integer: bool = True) -> bytes:
    """Heat maps on the game's board (``viz.generic.draw_board``), colour bars from 0 (whole numbers for counts)."""
    from workbench.viz.generic import draw_board

    n = len(maps)
    cols = min(columns, n)
    rows = math.ceil(n / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.6 * cols, 4.2 * rows), squeeze=False)
    for ax, (caption, values) in zip(axes.flat, maps, strict=False):
        draw_board(ax, game, None, values=values, label=label, integer=integer)
        ax.set_title(caption, fontsize=10)
    for ax in list(axes.flat)[n:]:
        ax.axis("off")
    fig.tight_layout()
    return _png(fig)


def _table_gamedef(games: pd.DataFrame) -> Any:
    """The ``GameDef`` of the one game a table holds (its ``game`` column), else None."""
    from .compare import table_game

    name = table_game(games)
    if name is None:
        return None
    try:
        from workbench.games import get

        return get(name)
    except (ImportError, KeyError, ValueError):
        return None


def _cell_values(game: Any, counts: dict[str, int], games: int) -> dict[int, float]:
    """Counts keyed by a cell's id (as text) or name, per game, keyed by cell id."""
    cells = game.layout().cells
    ids = {str(c.id): c.id for c in cells} | {c.name: c.id for c in cells}
    out: dict[int, float] = {}
    for where, k in counts.items():
        if str(where) in ids:
            cid = ids[str(where)]
            out[cid] = out.get(cid, 0.0) + k / max(games, 1)
    return out


def _stem(name: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in name)[:40]


def curves_section(games: pd.DataFrame) -> Section | None:
    """Response curves for every numeric parameter with three or more values (None when there is none)."""
    columns = curves.curve_parameters(games)
    if not columns:
        return None
    section = Section("Response curves", ["For each numeric rule parameter with three or more values: the first "
                                          "seat's share of decided games and the share of games decided (95% Wilson "
                                          "intervals) and the Kaplan-Meier median length (95% interval) against the "
                                          "value, pooled over the other columns; the black square outline is the "
                                          "rulebook value."])
    tables = []
    for column in columns:
        curve = curves.response_curve(games, column)
        section.paragraphs.append(curves.curve_sentence(column, curve, seats_of(games)[0], length_unit(games)))
        section.figures.append((f"curve_{column}", curves.plot_response_curve(column, curve, seats_of(games)[0])))
        tables.append(pd.DataFrame({
            "parameter": column, "value": curve["value"], "games": curve["games"],
            "first seat's share of decided % [95% CI]": [
                _interval(r, lo, hi) for r, lo, hi in
                zip(curve["advantage"], curve["advantage_low"], curve["advantage_high"], strict=True)],
            "decisive % [95% CI]": [_interval(r, lo, hi) for r, lo, hi in
                                    zip(curve["decisive"], curve["decisive_low"], curve["decisive_high"], strict=True)],
            "median length [95% CI] (KM)": [_km(r, lo, hi) for r, lo, hi in
                                            zip(curve["length_median"], curve["length_low"], curve["length_high"],
                                                strict=True)],
            "unfinished %": [_pct(x) for x in curve["unfinished"]],
        }))
    section.table = pd.concat(tables, ignore_index=True)
    return section


def usage_table(summary: pd.DataFrame) -> pd.DataFrame:
    """Rule usage as a rules x cells table (mean uses per game), biggest change across cells first;
    a dead entry (fired in under 1% of the cell's games) reads ``dead``."""
    mean, dead = usage.usage_matrix(summary)
    words = summary.attrs.get(usage.WORDS_ATTR)
    out = pd.DataFrame({"rule": [usage.rule_words(r, words) for r in mean.index],
                        "change across cells": [f"{100 * x:.0f}%" for x in mean["change"]]})
    for label in mean.columns[1:]:
        out[label] = [("dead" if d else usage._fmt_rate(float(v))) for v, d in
                      zip(mean[label], dead[label], strict=True)]
    return out


def usage_table_html(summary: pd.DataFrame) -> str:
    """The rules x cells table as HTML, dead entries and rules dead everywhere greyed."""
    mean, dead = usage.usage_matrix(summary)
    labels = list(mean.columns[1:])
    head = "".join(f"<th>{html.escape(str(x))}</th>" for x in ["rule", "change across cells", *labels])
    body = []
    for rule in mean.index:
        everywhere = bool(dead.loc[rule].all())
        cells = [f"<td>{html.escape(usage.rule_words(rule, summary.attrs.get(usage.WORDS_ATTR)))}</td>", f"<td>{100 * mean.at[rule, 'change']:.0f}%</td>"]
        for label in labels:
            d = bool(dead.at[rule, label])
            text = usage._fmt_rate(float(mean.at[rule, label]))
            cells.append(f"<td class='dead' title='dead: fired in under 1% of games'>{text}</td>" if d else f"<td>{text}</td>")
        row_class = " class='dead'" if everywhere else ""
        body.append(f"<tr{row_class}>" + "".join(cells) + "</tr>")
    return (f"<table class='t usage'><thead><tr>{head}</tr></thead><tbody>" + "".join(body) + "</tbody></table>")


def plot_usage_matrix(summary: pd.DataFrame) -> bytes:
    """Rules x cells, coloured by the share of games where the rule fired (0 to 100%, 0 included),
    annotated with the mean per game; rows as in the table (biggest change first), dead rules greyed."""
    mean, dead = usage.usage_matrix(summary)
    labels = list(mean.columns[1:])
    rules = list(mean.index)
    share = summary.pivot(index="rule", columns="label", values="share").reindex(index=rules, columns=labels)
    fig, ax = plt.subplots(figsize=(min(2.0 + 1.3 * len(labels), 16), 0.34 * len(rules) + 1.6))
    im = ax.imshow(share.to_numpy(dtype=float), cmap="Blues", vmin=0, vmax=1, aspect="auto")
    for i, rule in enumerate(rules):
        for j, label in enumerate(labels):
            d = bool(dead.at[rule, label])
            ax.text(j, i, "dead" if d else usage._fmt_rate(float(mean.at[rule, label])), ha="center", va="center",
                    fontsize=7, color="#999999" if d else ("white" if float(share.iat[i, j]) > 0.6 else "#222"))
    ax.set_yticks(range(len(rules)), [usage.rule_words(r, summary.attrs.get(usage.WORDS_ATTR)) for r in rules],
                  fontsize=8)
    for tick, rule in zip(ax.get_yticklabels(), rules, strict=True):
        if bool(dead.loc[rule].all()):
            tick.set_color("#999999")
    ax.set_xticks(range(len(labels)), labels, rotation=30, ha="right", fontsize=8)
    bar = fig.colorbar(im, ax=ax, shrink=0.8, label="share of games where the rule fired", ticks=[0, 0.25, 0.5, 0.75, 1])
    bar.ax.set_yticklabels(["0%", "25%", "50%", "75%", "100%"])
    ax.set_title("Rule usage: colour = share of games fired, number = mean per game; biggest change first", fontsize=9)
    return _png(fig)


def usage_section(games: pd.DataFrame, events: pd.DataFrame | None, correction: str = "holm",
                  alpha: float = 0.05) -> Section:
    """The "Rule usage" section: per cell usage, dead rules, changes against the baseline,
    association with winning and where spatial rules fire."""
    section = Section("Rule usage")
    if not usage.rule_names(games):
        section.paragraphs.append("Skipped: the games table has no rule counters (rule_<name>_<seat> columns).")
        return section
    summary = usage.usage_summary(games)
    corr = CORRECTION_NAMES[correction]
    section.paragraphs.append(
        "How often each rule fired, per cell: the mean per game (both sides; 95% t-interval) and the share of games "
        "where it fired at least once (95% Wilson interval). A rule is dead in a cell when it fired in under "
        f"{100 * usage.DEAD_SHARE:.0f}% of its games.")
    section.paragraphs += usage.dead_rule_sentences(summary)
    changes = usage.usage_changes(games, correction=correction, alpha=alpha)
    if changes:
        section.paragraphs.append(
            f"Against the baseline (the rulebook value), pooled over the other columns: Welch t-tests on the "
            f"per-game counts, {corr}-corrected over {len(changes)} (variant, rule) pairs; at most three clearest "
            "changes per variant.")
        section.paragraphs += usage.change_sentences(changes)
    else:
        section.paragraphs.append("No usage comparison between variants: no toggle or parameter varies in this "
                                  "table, or no rule fired in either group.")
    assoc = usage.rule_association(games, correction=correction)
    if len(assoc):
        section.paragraphs.append(
            "Association with winning, over all decided games where the two sides used a rule a different number "
            "of times: how often the side that used it more won (95% Wilson interval; exact binomial test "
            f"against 50%, {corr}-corrected). This is an association, not a cause: a side that is ahead may "
            "simply get more chances to use a rule (and a side under threat more often is usually losing).")
        section.paragraphs += usage.association_sentences(assoc, alpha=alpha)
    section.paragraphs.append("The table: rules x cells, mean uses per game (both sides), the rules whose use changes "
                              "most across cells first; 'dead' (greyed) where a rule fired in under "
                              f"{100 * usage.DEAD_SHARE:.0f}% of the cell's games. Intervals per cell are in "
                              "workbench.balance.usage.usage_summary.")
    section.table = usage_table(summary)
    section.table_html = usage_table_html(summary)
    section.figures.append(("rule_usage", plot_usage_matrix(summary)))
    if changes:
        section.figures.append(("rule_usage_changes", plot_usage_changes(changes)))
    if events is not None and len(events) and "rules" in events.columns:
        gamedef = _table_gamedef(games)
        locations = usage.rule_locations(events, first=gamedef.table.spatial_rules if gamedef is not None else ())
        n = int(events["game_id"].nunique())
        words = usage.game_rule_words(games)
        titles = [f"{usage.rule_words(rule, words)} ({sum(c.values())})" for rule, c in locations.items()]
        own = gamedef.report_location_maps(games, locations, titles, n) if locations and gamedef is not None else None
        if own is not None:  # the game draws them on its own board (GameDef.report_location_maps)
            words, picture = own
            section.paragraphs.append(
                f"Where rules with a place fire, per game over the {n} games with events, all cells together "
                f"(drawn on {words}).")
            section.figures.append(("rule_locations", picture))
        elif locations and gamedef is not None:  # on the game's layout, cells by id or name
            section.paragraphs.append(f"Where rules with a place fire, per game over the {n} games with events, all "
                                      f"cells together (on {board_words(gamedef.title)}).")
            section.figures.append(("rule_locations", plot_cell_maps(
                gamedef, [(t, _cell_values(gamedef, c, n)) for t, c in zip(titles, locations.values(), strict=True)],
                columns=4, label="per game", integer=False)))
        elif locations:
            section.paragraphs.append("Rule locations skipped: the table's game is not installed here.")
        else:
            section.paragraphs.append("No rule with a place (stops, kills, shots) fired in the events table.")
    else:
        section.paragraphs.append("Rule locations skipped: no events table with a 'rules' column was given.")
    section.extra_tables = [("Usage changes against the baseline", usage.changes_frame(changes))] if changes else []
    if len(assoc):
        section.extra_tables.append(("Association with winning (not cause)", association_table(assoc)))
    return section


def _start_bound_words(games: pd.DataFrame) -> list[str]:
    """Say which columns are not compared on their own because the start files set them."""
    bound = start_bound_columns(games)
    if not bound:
        return []
    return [f"{', '.join(bound)} {'change' if len(bound) > 1 else 'changes'} only with the start file (its own rules), so "
            f"{'they are' if len(bound) > 1 else 'it is'} compared as part of the start (start_id), not on "
            f"{'their' if len(bound) > 1 else 'its'} own."]


def association_table(assoc: pd.DataFrame) -> pd.DataFrame:
    """The association table in words and percentages."""
    return pd.DataFrame({
        "rule": assoc["rule"].map(usage.rule_words), "decided games with unequal use": assoc["games"],
        "side with more won % [95% CI]": [_interval(r, lo, hi) for r, lo, hi in
                                          zip(assoc["rate"], assoc["low"], assoc["high"], strict=True)],
        "p": assoc["p_value"].map(lambda p: f"{p:.4f}"), "p adjusted": assoc["p_adjusted"].map(lambda p: f"{p:.4f}"),
    })


def plot_usage_changes(changes: Sequence[usage.UsageChange], top: int = 20) -> bytes:
    """Forest plot of the largest usage changes (per game, variant minus baseline, 95% Welch intervals)."""
    shown = sorted(changes, key=lambda c: c.p_adjusted)[:top]
    fig, ax = plt.subplots(figsize=(8, _height(len(shown))))
    for i, c in enumerate(shown):
        ax.errorbar([c.diff], [i], xerr=[[max(0.0, c.diff - c.low)], [max(0.0, c.high - c.diff)]], fmt="o",
                    color="#c0392b" if c.significant else "#444444", capsize=3)
    ax.axvline(0, color="#bbbbbb", lw=1)
    ax.set_yticks(range(len(shown)), [f"{c.name}: {c.words or usage.rule_words(c.rule)}" for c in shown], fontsize=8)
    ax.set_ylim(len(shown) - 0.5, -0.5)
    ax.set_xlabel("change in uses per game vs baseline (95% Welch interval; red = significant)")
    return _png(fig)


def study_section(study: Study, usable: pd.DataFrame, summary: pd.DataFrame, errors: int,
                  source: str | None) -> Section:
    """The top of the report: the one cap, loud warnings, how to read the three quantities, the colours."""
    seats = ", ".join(x.capitalize() for x in study.seats)
    team_sets = _team_sets(usable)
    teams = (f" Teams {' and '.join(team_sets)}: a seat wins when its team wins, so a cell's advantage is the share of "
             f"decided games won by {study.first.capitalize()}'s team (the team that moves first), fair at one in as "
             "many as there are teams, and the summary gives every team's wins and score." if team_sets else "")
    paragraphs = [*study.warnings,
                  f"{len(usable)} games of {study.game} ({seats}; {study.first.capitalize()} moves first) in "
                  f"{len(summary)} cell{'s' if len(summary) != 1 else ''}" + (f" from {source}" if source else "") + "."
                  + teams
                  + (f" {errors} game{'s' if errors != 1 else ''} ended in an error and "
                     f"{'are' if errors != 1 else 'is'} left out." if errors else ""),
                  study.sentence()]
    from workbench.simulate.repeats import repeated_rows

    copies = repeated_rows(usable)
    if copies.repeats:  # deterministic agents replaying one game: fewer independent samples than counted
        paragraphs.append("⚠ " + copies.sentence("in length, result and every counter"))
    flagged = summary[summary["flagged"]]
    for r in flagged.to_dict("records"):
        limit = int(r.get("limit_draws", 0) or 0)
        if limit:
            paragraphs.append(
                f"⚠ {r['label']}: {100 * (r['unfinished'] + limit) / r['games']:.0f}% of its {r['games']} games have "
                f"no result of play: {limit} drawn by a limit rule ({_pct_interval(r, 'limit')}) and "
                f"{r['unfinished']} cut by the cap (over the {100 * study.threshold:.0f}% threshold). A draw forced by "
                "a limit rule is counted as unfinished, never as balanced: no balance verdict for this cell.")
            continue
        paragraphs.append(f"⚠ {r['label']}: {100 * r['unfinished_rate']:.0f}% of its {r['games']} games are "
                          f"unfinished (over the {100 * study.threshold:.0f}% threshold): no balance verdict for "
                          "this cell; raise the cap or read it as 'too long to tell'.")
    limited = summary[summary.get("limit_draws", pd.Series(0, index=summary.index)).fillna(0) > 0] \
        if "limit_draws" in summary.columns else summary.iloc[:0]
    for r in limited[~limited["flagged"]].to_dict("records"):
        paragraphs.append(f"⚠ {r['label']}: {int(r['limit_draws'])} of its {r['games']} games "
                          f"({_pct_interval(r, 'limit')}) were drawn by a limit rule; they count as unfinished, "
                          "not as draws of play.")
    paragraphs += [
        "Three quantities, kept apart: advantage is the first seat's share of decided games (and its score over "
        "finished games with a draw as a half); decisiveness is the share of games decided; length is the "
        "Kaplan-Meier distribution of game length with capped games censored. Shares carry 95% Wilson intervals, "
        "medians lifelines' 95% intervals. A cell is called balanced only when its advantage interval lies within "
        "5 points of fair and at most "
        f"{100 * study.threshold:.0f}% of its games are unfinished. A cell's verdict reads its own 95% interval, "
        f"uncorrected across the {len(summary)} cells (with many cells one spurious 'favours' is not unusual); "
        "the comparisons below are corrected.",
        palette.legend(study.seats, team=bool(team_sets))]
    paragraphs.append(strength_words(usable, study.game))
    per_cell = sorted(set(summary["games"].astype(int)))
    n = per_cell[0]
    paragraphs.append(power.detectable_sentence(per_cell, n, n, " in decisiveness between two cells"))
    decided = summary["decided"].astype(int)
    if decided.min() > 0:
        d = power.detectable_difference(int(decided.min()), int(decided.min()))
        if not math.isnan(d):
            paragraphs.append(f"With {int(decided.min())} decided games in the smallest cell, differences in "
                              f"advantage under {math.ceil(100 * d)} points between two cells could not be seen "
                              "(80% power).")
    return Section("Study", paragraphs)


def _pct_interval(r: dict[str, Any], key: str) -> str:
    """``58% [49, 66]`` of a summary row's ``{key}_rate`` with its Wilson interval."""
    return f"{100 * r[f'{key}_rate']:.0f}% [{100 * r[f'{key}_low']:.0f}, {100 * r[f'{key}_high']:.0f}]"


def board_words(title: str) -> str:
    """``the board of The Cursed Lands`` / ``the Pole board``: a title that carries its own article is not given a
    second one ("the The Cursed Lands board")."""
    return f"the board of {title}" if title.lower().startswith("the ") else f"the {title} board"


def strength_words(games: pd.DataFrame, game: str | None) -> str:
    """Who played, and how strong each agent is by the game's shipped Elo table (``workbench ladder --write``)."""
    from workbench.core.strength import agent_strength

    from .table import agent_columns

    specs = sorted({str(a) for c in agent_columns(games) for a in games[c].dropna()})
    engines = sorted({str(e) for e in games["engine"].dropna()}) if "engine" in games.columns else []
    engine = engines[0] if len(engines) == 1 else ""
    try:
        from workbench.games import get

        gdef = get(game) if game else None  # a table of no known game has no shipped Elo table
    except (ImportError, KeyError, ValueError):
        gdef = None
    words = []
    for spec in specs:
        try:
            known = agent_strength(gdef, spec, engine) if gdef is not None else None
        except ValueError as exc:  # a damaged table: say so, never guess
            known = f"{spec} (strength table unreadable: {exc})"
        words.append(known or f"{spec} (strength not measured: python -m workbench ladder --write)")
    return ("Agents' strength, Elo points above random with 95% intervals from the game's ladder: "
            + "; ".join(words) + ".") if words else "The table names no agents."


def trace_section(games: pd.DataFrame) -> Section:
    """"Does the verdict hold at strong play?": the study's question at each doubling budget, the trend, the verdict."""
    t = trace.trace(games)
    paragraphs = [
        f"The same question at {len(t.rungs)} budgets of one agent in self-play, each double the last. At each rung: "
        "advantage (the first side's share of decided games), decisiveness (share decided) and the Kaplan-Meier "
        "median length, with 95% intervals; the signal is the verdict's quantity in points from fair. The trend is "
        "a weighted least-squares line of the signal over log2(budget); its verdict follows the rule of "
        f"docs/balance.md (flips, grows or shrinks when the slope's interval excludes 0, stable within "
        f"±{t.stable_points:g} points per doubling, otherwise undecided).",
        t.sentence()]
    if len(t.rungs) < trace.MIN_RUNGS:
        paragraphs.insert(0, f"⚠ only {len(t.rungs)} rungs: a trace needs at least {trace.MIN_RUNGS} to carry a trend.")
    return Section("Does the verdict hold at strong play?", paragraphs, trace.trace_frame(t),
                   [("skill_trace", trace.plot_trace(t))])


def _team_sets(games: pd.DataFrame) -> list[str]:
    """The distinct team lists of the table's team games (``ab,cd``), in first-seen order; [] without teams."""
    if "teams" not in games.columns:
        return []
    out = []
    for text, g in games.groupby(games["teams"].astype(str), sort=False):
        if teams_of(g):
            out.append(str(text))
    return out


def skill_section(games: pd.DataFrame, threshold: float = UNFINISHED_THRESHOLD) -> Section | None:
    """Advantage against agent strength, and whether each rule's effect grows or shrinks with skill."""
    if not skill.has_skill_levels(games):
        return None
    table = skill.advantage_by_strength(games)
    seat = seats_of(games)[0]
    order = skill.pairings(games)
    paragraphs = [f"The same rule cells at {len(order)} agent strengths ({' < '.join(order)}; the order is assumed "
                  "from the agents' names, or read from a strength column). The figure shows "
                  f"{seat.capitalize()}'s share of decided games against strength, per rule cell."]
    paragraphs += [t.sentence() for t in skill.skill_trends(games)]
    over = table[table["unfinished"] > threshold]
    if len(over):
        paragraphs.append("⚠ Over the unfinished threshold (drawn open; their advantage rests on the games that "
                          "finished in time): " + "; ".join(f"{p}, {c}: {100 * u:.0f}% unfinished" for p, c, u in
                                                             zip(over["pairing"], over["cell"], over["unfinished"],
                                                                 strict=True)) + ".")
    shown = pd.DataFrame({
        "agents": table["pairing"], "cell": table["cell"], "games": table["games"], "decided": table["decided"],
        f"{seat.capitalize()} share of decided % [95% CI]": [_interval(a, lo, hi) for a, lo, hi in
                                                            zip(table["advantage"], table["low"], table["high"], strict=True)],
        "unfinished %": [_pct(x) for x in table["unfinished"]],
    })
    return Section("Does the verdict depend on skill?", paragraphs, shown,
                   [("advantage_by_strength", skill.plot_advantage_by_strength(table, seat, threshold))])


DEFAULT_TITLE = None  # "<the table's game's title> balance report"


def _game_title(name: str) -> str:
    """The registered game's title (``Big Chess``), else its name: balance imports no game package."""
    try:
        from workbench.games import get

        return str(get(name).title)
    except (ImportError, KeyError, ValueError):
        return name


def build_report(
    games: pd.DataFrame, events: pd.DataFrame | None = None, title: str | None = DEFAULT_TITLE,
    correction: str = "holm", alpha: float = 0.05, n_boot: int = 2000, source: str | None = None,
    threshold: float = UNFINISHED_THRESHOLD, manifest: dict[str, Any] | None = None, mixed_caps: str = "refuse",
    max_plies: int | None = None,
) -> Report:
    """Build every section of the report from the tables (nothing is written until ``write``).

    ``threshold``: the unfinished share over which a cell gets no balance verdict; ``manifest``: the
    batch's run record (its ``max_plies`` is the cap when the table has no column); ``max_plies``: the
    cap the caller played with (the same, for a table fresh from ``simulate``); ``mixed_caps``:
    ``refuse`` (default) a table whose games have different caps, or ``warn`` loudly and pool them.
    """
    usable = check_games(games, what="a balance report")
    if title is None:
        title = (f"{_game_title(str(usable['game'].iloc[0]))} balance report" if len(usable) and "game" in usable
                 else "Balance report")
    if max_plies is not None:
        if "max_plies" in usable.columns and usable["max_plies"].notna().any() \
                and set(usable["max_plies"].dropna().astype(int)) != {int(max_plies)}:
            raise BalanceError(f"max_plies={max_plies} but the table's max_plies column says "
                               f"{sorted(set(usable['max_plies'].dropna().astype(int)))}")
        manifest = {**(manifest or {}), "max_plies": int(max_plies)}
        if "max_plies" not in usable.columns:
            usable = usable.assign(max_plies=int(max_plies))
    study = study_of(usable, manifest, mixed_caps=mixed_caps, threshold=threshold)
    if max_plies is not None:
        study.cap_source = "given by the caller, as played"
    summary = summarize_cells(usable, events, threshold=threshold)
    keys = cell_columns(usable)
    # agent pairings are then the skill question (a skill trace's rungs are its own section), not a rule comparison
    # an ablation's agents (greedy:bar=...) are the worth section's question, not skill levels
    levels = skill.has_skill_levels(usable) and not trace.has_trace(usable) and not worth_tables.is_ablation(usable)
    comparisons = compare_toggles(usable, correction=correction, alpha=alpha, n_boot=n_boot, threshold=threshold,
                                  agents=not levels)
    errors = len(games) - len(usable)
    sections = [study_section(study, usable, summary, errors, source), *tune_sections(source, manifest),
                Section("Summary", [f"One row per cell; ⚠ marks a cell over {100 * threshold:.0f}% unfinished. Where "
                                    "the table has them: branching is the mean number of legal actions per turn; "
                                    "decision % the share of turns with more than one legal action; lead changes how "
                                    "often the leader by the agents' evaluation changed in a game; drama how far "
                                    "behind the eventual winner was (Ludii's measures)."],
                        summary_table(summary, study.seats, study.unit)),
                Section("Advantage and decisiveness", [r["label"] + ": " + r["verdict"] + "."
                                                       for r in summary.to_dict("records")],
                        figures=[("advantage", plot_advantage(summary, study.seats, threshold))]),
                Section("How games ended", figures=[("victory_kinds", plot_victory_kinds(summary))]),
                Section("Game length", [
                    "Kaplan-Meier curves: the share of games still running at each length, capped games censored "
                    "(they lasted at least the cap), so the curve is not cut short at the cap as a box plot would be.",
                    *[f"{r['label']}: {_length_words(r, study.unit)}." for r in summary.to_dict("records")]],
                    figures=[("lengths", plot_lengths(usable, summary, keys, study.cap, study.unit))])]
    if comparisons:
        corr = CORRECTION_NAMES[correction]
        sections.append(Section(
            "Comparisons",
            [f"Each varying rule or agent value against its rulebook default, pooled over the other columns, on "
             "the three quantities apart: decisiveness (share decided) and advantage (first seat's share of decided "
             "games) by two-proportion z-tests (Fisher's exact test for small counts), length by the log-rank test "
             f"with a bootstrap interval of the median difference. p-values are {corr}-corrected over all "
             f"{3 * len(comparisons)} tests; significant at {alpha}. Each sentence names what moved first."
             + (" Agent pairings are not compared here: the same rule cells at several strengths are the skill "
                "section's question, and these comparisons pool over the strengths." if levels else ""),
             *_start_bound_words(usable), *[c.verdict() for c in comparisons],
             "What these games could not have seen:", *[c.detectable_words() for c in comparisons]],
            comparisons_frame(comparisons), [("comparisons", plot_comparisons(comparisons))]))
    else:
        sections.append(Section("Comparisons", ["No comparison: every toggle, parameter and agent takes one value in "
                                                "this table."]))
    if trace.has_trace(usable):
        sections.append(trace_section(usable))
    level = skill_section(usable, threshold) if levels else None
    if level is not None:
        sections.append(level)
    curve = curves_section(usable)
    if curve is not None:
        sections.append(curve)
    captures = captures_table(summary)
    if captures is not None:
        sections.append(Section("Captures", ["Mean pieces lost per game, by seat (its initial) and kind."], captures))
    sections.append(usage_section(usable, events, correction=correction, alpha=alpha))
    sections += game_sections(usable, events)
    sections += worth_sections(usable, manifest)
    return Report(title, sections, summary, comparisons, study)


def worth_sections(games: pd.DataFrame, manifest: dict[str, Any] | None = None) -> list[Section]:
    """"What each option is worth" for an ablation table (agents with ``bar=``), and the payoff table with
    α-Rank's verdict for an archetype tournament's (its run record's ``command``). Class words come from the
    table's game through the registry, as ``game_sections`` does; balance imports no game."""
    from . import strategies, worth

    out = []
    gdef = None
    if "game" in games.columns and games["game"].nunique() == 1:
        try:
            from workbench.games import get

            gdef = get(str(games["game"].iloc[0]))
        except (ImportError, KeyError, ValueError):
            gdef = None
    decl = gdef.action_classes if gdef is not None else None
    if worth.is_ablation(games):
        result = worth.worth(games, decl.words() if decl else None, decl.role if decl else "")
        section = Section("What each option is worth", [
            f"Restricted play (Jaffe et al. 2012): for each class of actions, {result.agent} barred from it played "
            f"{result.agent} unbarred on paired seeds with the seats swapped. Worth is the barred side's loss in "
            "score in points (a draw or an unfinished game counts half); intervals hold for all of a variant's "
            "classes at once (Bonferroni), verdicts use Holm-corrected p-values. Usage is the unbarred side's share "
            "of its own actions in the class. A class never used by this agent may still matter to a stronger one.",
            *[f"{cell}: the smallest worth these games could have seen is {v:.0f} points (80% power)."
              for cell, v in result.smallest.items()],
            *worth.variant_sentences(result)], worth.worth_frame(result),
            [("worth", worth.plot_worth(result))])
        if len(result.seats):
            section.extra_tables.append(("Per seat (and role): the barred side against the same seat in the control "
                                         "games (95%)", result.seats.round(1)))
        if len(result.variants):
            section.extra_tables.append(("Worth under each variant against the first (Holm over all pairs)",
                                         result.variants.round(3)))
        out.append(section)
    if (manifest or {}).get("command") == "archetypes":
        named = games.copy()
        if gdef is not None:  # each seat's style by name (its agent spec is what the row keeps)
            by_spec = {a.spec(): a.name for a in gdef.archetypes}
            for col in [c for c in games.columns if str(c).startswith("agent_")]:
                named["style_" + col[len("agent_"):]] = games[col].map(lambda x: by_spec.get(str(x), str(x)))
        ranking = strategies.rank_strategies(named)
        table = ranking.score.round(0).astype(int).astype(str) + " [" + ranking.low.round(0).astype(int).astype(str) \
            + ", " + ranking.high.round(0).astype(int).astype(str) + "]"
        for style in ranking.styles:
            table.loc[style, style] = "-"
        out.append(Section("Does one plan beat everything?", [
            "Each pair of the game's archetypes played on paired seeds with the seats swapped: the row style's score "
            "against the column style, % with a 95% interval. α-Rank (OpenSpiel, infinite α) ranks them on the "
            "table with every score whose interval holds 50% set to 50%.",
            "α-Rank mass: " + ", ".join(f"{k} {v:.2f}" for k, v in ranking.mass.items()) + ".", ranking.verdict],
            table.reset_index(names="style")))
    return out


def tune_sections(source: str | None, manifest: dict[str, Any] | None) -> list[Section]:
    """A tune's dataset (its run record names the tune): the tune's recommendation, ranked table and pictures."""
    from .tunefiles import report_section

    part = report_section(source, manifest)
    if part is None:
        return []
    return [Section(part["title"], list(part["paragraphs"]), part.get("table"), list(part.get("figures", [])))]


def game_sections(games: pd.DataFrame, events: pd.DataFrame | None) -> list[Section]:
    """The sections the table's game adds (``GameDef.report_sections``), found through the registry.

    Balance imports no game: the ``game`` column names it, ``workbench.games.get`` finds it; a table of
    several games, an unknown game or one without the hook adds nothing.
    """
    if "game" not in games.columns:
        return []
    names = games["game"].dropna().unique()
    if len(names) != 1:
        return []
    try:
        from workbench.games import get

        game = get(str(names[0]))
    except (ImportError, KeyError, ValueError):
        return []
    out = []
    for i, piece in enumerate(game.report_sections(games, events) or []):
        if isinstance(piece, dict):  # ready text and figures
            out.append(Section(str(piece["title"]), figures=list(piece.get("figures", [])),
                               markdown_text=piece.get("markdown"), html_text=piece.get("html")))
            continue
        if piece.matchup is not None:  # the role matrix the game asks for, built by balance
            from .matchups import matchup_section

            first, second, word, roles = piece.matchup
            ready = matchup_section(games, first, second, word, roles)
            out.append(Section(str(ready["title"]), figures=list(ready.get("figures", [])),
                               markdown_text=ready.get("markdown"), html_text=ready.get("html")))
            continue
        if piece.rule_maps and events is not None and len(events):
            out.append(_rule_map_section(game, piece, events))
            continue
        table = None  # a ReportPart: plain data the report lays out and draws
        if piece.table:
            table = pd.DataFrame(piece.table)
            table = table[[c for c in table.columns if not str(c).startswith("_")]]
        section = Section(piece.title, list(piece.paragraphs), table)
        maps = [(caption, values) for caption, values in piece.maps if values]
        if maps:
            section.figures.append((f"{_stem(game.name)}_{i}_maps", plot_cell_maps(game, maps)))
        section.figures.extend(piece.figures)
        out.append(section)
    return out


def _rule_map_section(game: Any, piece: Any, events: pd.DataFrame) -> Section:
    """A game's declared ``rule_maps``: one board panel per rule, where it fired per game over the events."""
    from workbench.viz.generic import batch_rule_maps

    fig = batch_rule_maps(game, events, piece.rule_maps)
    section = Section(piece.title, list(piece.paragraphs))
    section.figures.append((f"{_stem(game.name)}_rule_maps", _png(fig)))
    return section


def _length_words(r: dict[str, Any], unit: str) -> str:
    if math.isinf(r["length_median"]):
        return (f"median not reached: {100 * r['unfinished_rate']:.0f}% of games hit the cap, so over half "
                "lasted longer than it")
    return (f"median {r['length_median']:.0f} {unit} [{_km_point(r['length_low'])}, {_km_point(r['length_high'])}], "
            f"quartiles {_km_point(r['length_q1'])}–{_km_point(r['length_q3'])}; "
            f"{100 * r['unfinished_rate']:.0f}% unfinished")


def write_report(games: pd.DataFrame, out_dir: str | Path, events: pd.DataFrame | None = None,
                 **options: Any) -> tuple[Path, Path]:
    """Build and write ``report.html`` and ``report.md`` into ``out_dir``."""
    return build_report(games, events, **options).write(out_dir)


__all__ = ["BalanceError", "Report", "Section", "build_report", "curves_section", "game_sections", "markdown_table",
           "plot_cell_maps", "summary_table",
           "usage_section", "usage_table", "write_report"]
