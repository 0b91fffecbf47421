"""Balance reports: a self-contained HTML page (figures as base64 PNG) and a Markdown twin.

A report is a pure function of the games table (and optionally the events table): summary table,
win rates with Wilson interval bars, victory-kind stacked bars, length distributions, the
comparisons with their verdicts in plain words, captures by side and kind, and batch heatmaps
from ``workbench.viz.heat`` when that module and an events table are available.
"""

from __future__ import annotations

import base64
import html
import io
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from . import curves, usage  # noqa: E402
from .cells import (  # noqa: E402
    KINDS,
    SIDES,
    VICTORIES,
    _is_missing,
    cell_columns,
    check_games,
    start_bound_columns,  # noqa: E402
    summarize_cells,
)
from .compare import CORRECTION_NAMES, Comparison, compare_toggles, variant_name  # noqa: E402
from .stats import BalanceError  # noqa: E402

VICTORY_COLOURS = {"destroyed": "#b2182b", "checkmate": "#ef8a62", "castle": "#67a9cf", "draw": "#999999",
                   "unfinished": "#dddddd"}


@dataclass
class Section:
    """One heading of the report: paragraphs, an optional table and optional figures (PNG bytes)."""

    title: str
    paragraphs: list[str] = field(default_factory=list)
    table: pd.DataFrame | None = None
    figures: list[tuple[str, bytes]] = field(default_factory=list)  # (file stem, PNG)
    extra_tables: list[tuple[str, pd.DataFrame]] = field(default_factory=list)  # (caption, table) after the first


@dataclass
class Report:
    """A built report; ``write(dir)`` saves ``report.html`` and ``report.md`` (with ``figures/``)."""

    title: str
    sections: list[Section]
    summary: pd.DataFrame
    comparisons: list[Comparison]

    def html(self) -> str:
        """The whole report as one HTML page with every figure embedded."""
        parts = [f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{html.escape(self.title)}</title>"
                 f"<style>{_CSS}</style></head><body><h1>{html.escape(self.title)}</h1>"]
        for s in self.sections:
            parts.append(f"<h2>{html.escape(s.title)}</h2>")
            parts.extend(f"<p>{html.escape(p)}</p>" for p in s.paragraphs)
            if s.table is not None:
                parts.append("<div class='scroll'>" + s.table.to_html(index=False, border=0, classes="t", na_rep="–")
                             + "</div>")
            for caption, table in s.extra_tables:
                parts.append(f"<h3>{html.escape(caption)}</h3><div class='scroll'>"
                             + table.to_html(index=False, border=0, classes="t", na_rep="–") + "</div>")
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
        "img{max-width:100%}figure{margin:1em 0}")


def markdown_table(df: pd.DataFrame) -> str:
    """A GitHub-flavoured Markdown table (no extra dependency)."""
    def cell(v: Any) -> str:
        text = "–" if v is None or (isinstance(v, float) and math.isnan(v)) else str(v)
        return text.replace("|", "\\|")
    head = "| " + " | ".join(map(str, df.columns)) + " |"
    rule = "|" + "|".join("---" for _ in df.columns) + "|"
    body = ["| " + " | ".join(cell(v) for v in row) + " |" for row in df.itertuples(index=False)]
    return "\n".join([head, rule, *body])


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


def summary_table(summary: pd.DataFrame) -> pd.DataFrame:
    """The human-readable summary: one row per cell, intervals in brackets, percentages."""
    rows = []
    for r in summary.to_dict("records"):
        row = {
            "cell": r["label"], "games": r["games"],
            "White win % [95% CI]": _interval(r["white_rate"], r["white_low"], r["white_high"]),
            "Black win % [95% CI]": _interval(r["black_rate"], r["black_low"], r["black_high"]),
            "balance": f"{r['balance']:.3f}",
            "completion %": _pct(r["completion"]),
            "timeouts": r["timeouts"],
            **{f"{k} %": _pct(r[f"share_{k}"]) for k in ("destroyed", "checkmate", "castle")},
            "plies mean [CI]": _interval(r["plies_mean"], r["plies_low"], r["plies_high"], pct=False),
            "plies median (Q1–Q3)": f"{r['plies_median']:.0f} ({r['plies_q1']:.0f}–{r['plies_q3']:.0f})",
        }
        for col, name, digits in (("mean_branching", "branching", 1), ("decision_share", "decision %", 1),
                                  ("lead_changes", "lead changes", 2), ("drama", "drama", 3)):
            if col in r and not _missing(r.get(col)):
                if col == "decision_share":
                    row[name] = _interval(r[col], r[f"{col}_low"], r[f"{col}_high"])
                else:
                    row[name] = _interval(r[col], r[f"{col}_low"], r[f"{col}_high"], pct=False, digits=digits)
        rows.append(row)
    return pd.DataFrame(rows)


def _missing(v: Any) -> bool:
    return _is_missing(v)


def captures_table(summary: pd.DataFrame) -> pd.DataFrame | None:
    """Mean pieces lost per game, by side and kind, one row per cell (None without loss columns)."""
    cols = [(s, k) for s in SIDES for k in KINDS if f"lost_{s}_{k}" in summary.columns]
    if not cols:
        return None
    out = pd.DataFrame({"cell": summary["label"]})
    for s, k in cols:
        out[f"{s[0].upper()} {k}"] = summary[f"lost_{s}_{k}"].map(lambda v: f"{v:.2f}")
    return out


def comparisons_frame(comparisons: Sequence[Comparison]) -> pd.DataFrame:
    """The comparisons as a readable table."""
    return pd.DataFrame([{
        "variant": c.name, "baseline": c.baseline if not isinstance(c.baseline, bool) else ("on" if c.baseline else "off"),
        "games": f"{c.games_variant} vs {c.games_baseline}",
        "White win %": f"{100 * c.white_variant:.1f} vs {100 * c.white_baseline:.1f}",
        "diff [95% CI]": f"{100 * c.diff:+.1f} [{100 * c.low:.1f}, {100 * c.high:.1f}]",
        "test": c.test, "p": f"{c.p_value:.4f}", "p adjusted": f"{c.p_adjusted:.4f}",
        "plies diff [95% CI]": f"{c.length_diff:+.1f} [{c.length_low:.1f}, {c.length_high:.1f}]",
    } for c in comparisons])


def _png(fig: plt.Figure) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    plt.close(fig)
    return buf.getvalue()


def _height(n: int) -> float:
    return max(2.2, 0.45 * n + 1.2)


def plot_win_rates(summary: pd.DataFrame) -> bytes:
    """White and Black win rates per cell with 95% Wilson interval bars."""
    n = len(summary)
    fig, ax = plt.subplots(figsize=(8, _height(n)))
    y = range(n)
    for side, colour, shift in (("white", "#444444", -0.15), ("black", "#c0392b", 0.15)):
        rate = summary[f"{side}_rate"]
        err = [(rate - summary[f"{side}_low"]).clip(lower=0), (summary[f"{side}_high"] - rate).clip(lower=0)]
        ax.errorbar(rate, [v + shift for v in y], xerr=err, fmt="o", color=colour, capsize=3,
                    label=f"{side.capitalize()} wins")
    ax.axvline(0.5, color="#bbbbbb", lw=1, ls="--")
    ax.set_yticks(list(y), summary["label"])
    ax.invert_yaxis()
    ax.set_xlim(-0.02, 1.02)
    ax.set_xlabel("win rate (95% Wilson interval)")
    ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=2, fontsize=8, frameon=False)
    return _png(fig)


def plot_victory_kinds(summary: pd.DataFrame) -> bytes:
    """How games ended, per cell, as stacked bars of shares."""
    n = len(summary)
    fig, ax = plt.subplots(figsize=(8, _height(n)))
    left = pd.Series(0.0, index=summary.index)
    for kind in VICTORIES:
        share = summary[f"share_{kind}"]
        ax.barh(summary["label"], share, left=left, color=VICTORY_COLOURS[kind], label=kind)
        left = left + share
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("share of games")
    ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=len(VICTORIES), fontsize=8, frameon=False)
    return _png(fig)


# matplotlib 3.10 renamed boxplot's ``vert=False`` to ``orientation="horizontal"`` (3.13 drops the old name).
_HORIZONTAL: dict[str, Any] = ({"orientation": "horizontal"}
                               if tuple(int(x) for x in matplotlib.__version__.split(".")[:2]) >= (3, 10)
                               else {"vert": False})


def plot_lengths(games: pd.DataFrame, summary: pd.DataFrame, keys: list[str]) -> bytes:
    """Game-length distributions (plies) per cell as box plots."""
    data = []
    for r in summary.to_dict("records"):
        mask = pd.Series(True, index=games.index)
        for k in keys:
            mask &= games[k].map(lambda v: "none" if _missing(v) else v) == r[k]
        data.append(games.loc[mask, "plies"].astype(float).to_numpy())
    fig, ax = plt.subplots(figsize=(8, _height(len(data))))
    ax.boxplot(data, showmeans=True, **_HORIZONTAL)
    ax.set_yticks(range(1, len(data) + 1), summary["label"])
    ax.invert_yaxis()
    ax.set_xlabel("game length (plies); triangle = mean")
    return _png(fig)


def plot_comparisons(comparisons: Sequence[Comparison]) -> bytes:
    """Forest plot: change in White's win rate (points) per comparison with 95% intervals."""
    fig, ax = plt.subplots(figsize=(8, _height(len(comparisons))))
    for i, c in enumerate(comparisons):
        colour = "#c0392b" if c.significant else "#444444"
        ax.errorbar([100 * c.diff], [i], xerr=[[max(0.0, 100 * (c.diff - c.low))], [max(0.0, 100 * (c.high - c.diff))]],
                    fmt="o",
                    color=colour, capsize=3)
    ax.axvline(0, color="#bbbbbb", lw=1)
    ax.set_yticks(range(len(comparisons)),
                  [f"{c.name} vs {variant_name(c.column, c.baseline).lower()}" for c in comparisons])
    ax.set_ylim(len(comparisons) - 0.5, -0.5)
    ax.set_xlabel("change in White win rate, points (95% Newcombe interval; red = significant)")
    return _png(fig)


def heatmap_section(games: pd.DataFrame, events: pd.DataFrame | None) -> Section:
    """Batch heatmaps from ``workbench.viz.heat`` when it and the events table exist; a note otherwise."""
    section = Section("Where captures happen and where feudals die")
    if events is None or len(events) == 0:
        section.paragraphs.append("Skipped: no events table was given (simulate with events=True).")
        return section
    try:
        from workbench.viz import heat
    except ImportError:
        section.paragraphs.append("Skipped: the heatmap module workbench.viz.heat is not available in this install.")
        return section
    try:
        drawn, words = board_rules(games)
        moved = words.startswith("the games' board") and "season" in games.columns and games["season"].nunique() == 1
        if moved:  # one season and the games' own crossings: draw those (the default draws the classic ones)
            from workbench.engine import make_game

            result = heat.batch_heatmaps(games, events, state=make_game(drawn).state_from_pieces({}))
        else:
            result = heat.batch_heatmaps(games, events)
    except (ValueError, KeyError) as exc:  # e.g. an events table without the columns the maps read
        section.paragraphs.append(f"Skipped: the batch heatmaps could not be drawn ({exc}).")
        return section
    figures = _figures_of(result)
    if figures:
        section.paragraphs.append("Per season, from the events table (workbench.viz.heat.batch_heatmaps): how often "
                                  "pieces entered each hex, where pieces died, and where feudals died.")
    if not figures:
        section.paragraphs.append("Skipped: workbench.viz.heat.batch_heatmaps returned no figures.")
    for i, (name, fig) in enumerate(figures):
        section.figures.append((f"heatmap_{i}_{_stem(name)}", _png(fig)))
    return section


def _figures_of(result: Any) -> list[tuple[str, plt.Figure]]:
    """Figures from whatever ``batch_heatmaps`` returns: a Figure, Axes, or a dict/list of them."""
    if isinstance(result, dict):
        items = list(result.items())
    elif isinstance(result, (list, tuple)):
        items = [(str(i), r) for i, r in enumerate(result)]
    else:
        items = [("heatmaps", result)]
    out = []
    for name, obj in items:
        fig = obj if isinstance(obj, plt.Figure) else getattr(obj, "figure", None)
        if isinstance(fig, plt.Figure):
            out.append((str(name), fig))
    return out


def _stem(name: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in name)[:40]


def curves_section(games: pd.DataFrame) -> Section | None:
    """Response curves for every numeric parameter with three or more values (None when there is none)."""
    columns = curves.curve_parameters(games)
    if not columns:
        return None
    section = Section("Response curves", ["For each numeric rule parameter with three or more values: White's win "
                                          "rate and the share of games with a winner (95% Wilson intervals) and the "
                                          "mean game length (95% t-interval) against the value, pooled over the "
                                          "other columns; the red square is the rulebook value."])
    tables = []
    for column in columns:
        curve = curves.response_curve(games, column)
        section.paragraphs.append(curves.curve_sentence(column, curve))
        section.figures.append((f"curve_{column}", curves.plot_response_curve(column, curve)))
        tables.append(pd.DataFrame({
            "parameter": column, "value": curve["value"], "games": curve["games"],
            "White win % [95% CI]": [_interval(r, lo, hi) for r, lo, hi in
                                     zip(curve["white_rate"], curve["white_low"], curve["white_high"], strict=True)],
            "decisive % [95% CI]": [_interval(r, lo, hi) for r, lo, hi in
                                    zip(curve["decisive"], curve["decisive_low"], curve["decisive_high"], strict=True)],
            "plies mean [CI]": [_interval(r, lo, hi, pct=False) for r, lo, hi in
                                zip(curve["plies_mean"], curve["plies_low"], curve["plies_high"], strict=True)],
        }))
    section.table = pd.concat(tables, ignore_index=True)
    return section


def usage_table(summary: pd.DataFrame) -> pd.DataFrame:
    """The per-cell rule usage as a readable long table (one row per cell and rule)."""
    return pd.DataFrame({
        "cell": summary["label"], "rule": summary["rule"].map(usage.rule_words),
        "per game [95% CI]": [_interval(m, lo, hi, pct=False, digits=2) for m, lo, hi in
                              zip(summary["mean"], summary["low"], summary["high"], strict=True)],
        "White / Black per game": [f"{w:.2f} / {b:.2f}" for w, b in
                                   zip(summary["white_mean"], summary["black_mean"], strict=True)],
        "games fired % [95% CI]": [_interval(r, lo, hi) for r, lo, hi in
                                   zip(summary["share"], summary["share_low"], summary["share_high"], strict=True)],
        "dead": summary["dead"].map(lambda d: "dead" if d else ""),
    })


def plot_usage_matrix(summary: pd.DataFrame) -> bytes:
    """Rules x cells, coloured by the share of games where the rule fired, annotated with the mean per game."""
    labels = list(dict.fromkeys(summary["label"]))
    rules = list(dict.fromkeys(summary["rule"]))
    share = summary.pivot(index="rule", columns="label", values="share").reindex(index=rules, columns=labels)
    mean = summary.pivot(index="rule", columns="label", values="mean").reindex(index=rules, columns=labels)
    fig, ax = plt.subplots(figsize=(min(2.0 + 1.3 * len(labels), 16), 0.34 * len(rules) + 1.6))
    im = ax.imshow(share.to_numpy(dtype=float), cmap="Blues", vmin=0, vmax=1, aspect="auto")
    for i in range(len(rules)):
        for j in range(len(labels)):
            v = float(mean.iat[i, j])
            ax.text(j, i, usage._fmt_rate(v), ha="center", va="center", fontsize=7,
                    color="white" if float(share.iat[i, j]) > 0.6 else "#222")
    ax.set_yticks(range(len(rules)), [usage.rule_words(r) for r in rules], fontsize=8)
    ax.set_xticks(range(len(labels)), labels, rotation=30, ha="right", fontsize=8)
    fig.colorbar(im, ax=ax, shrink=0.8, label="share of games where the rule fired")
    ax.set_title("Rule usage: colour = share of games fired, number = mean per game", fontsize=9)
    return _png(fig)


def board_rules(games: pd.DataFrame) -> tuple[dict[str, Any], str]:
    """The board the location maps are drawn on: the table's own season, bridges and fords when every
    game shares them (a grid over ``bridges`` or ``season`` mixes boards: the classic summer one then)."""
    from workbench.engine import RulesConfig

    classic: dict[str, Any] = {"season": "summer", "hill": False, "swamp": False}
    rules = dict(classic)
    for name in ("season", "bridges", "fords"):
        if name in games.columns and len(games) and games[name].nunique(dropna=False) == 1 and pd.notna(games[name].iloc[0]):
            rules[name] = str(games[name].iloc[0])
    try:
        config = RulesConfig.from_dict(rules)
    except ValueError:
        return classic, "the classic summer board"
    if (config.bridges, config.fords) == (RulesConfig().bridges, RulesConfig().fords):
        return rules, f"the classic {config.season} board"
    return rules, f"the games' board: bridges {'/'.join(config.bridges)}, fords {'/'.join(config.fords)}"


def plot_rule_locations(locations: dict[str, Any], games: int, columns: int = 4,
                        rules: dict[str, Any] | None = None) -> bytes:
    """One board per spatial rule, each hex coloured by how often the rule fired there per game."""
    from workbench.engine import make_game
    from workbench.engine.geometry import HEX_NAMES
    from workbench.viz.mpl import heatmap

    board = make_game(rules or {"season": "summer", "hill": False, "swamp": False}).state_from_pieces({})
    names = list(locations)
    rows = math.ceil(len(names) / columns)
    cols = min(columns, len(names))
    fig, axes = plt.subplots(rows, cols, squeeze=False, figsize=(3.6 * cols, 3.4 * rows))
    for ax in axes.flat[len(names):]:
        ax.set_visible(False)
    for ax, rule in zip(axes.flat, names, strict=False):
        counts = locations[rule]
        values = [counts.get(h, 0) / games for h in HEX_NAMES]
        heatmap(board, values, ax=ax, cmap="YlOrRd", annotate=False, overlays=(), colorbar=True,
                title=f"{usage.rule_words(rule)} ({sum(counts.values())})", label="per game")
    fig.tight_layout()
    return _png(fig)


def usage_section(games: pd.DataFrame, events: pd.DataFrame | None, correction: str = "holm",
                  alpha: float = 0.05) -> Section:
    """The "Rule usage" section: per cell usage, dead rules, changes against the baseline,
    association with winning and where spatial rules fire."""
    section = Section("Rule usage")
    if not usage.rule_names(games):
        section.paragraphs.append("Skipped: the games table has no rule counters (rule_<name>_white/_black).")
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
    section.table = usage_table(summary)
    section.figures.append(("rule_usage", plot_usage_matrix(summary)))
    if changes:
        section.figures.append(("rule_usage_changes", plot_usage_changes(changes)))
    if events is not None and len(events) and "rules" in events.columns:
        locations = usage.rule_locations(events)
        if locations:
            n = int(events["game_id"].nunique())
            drawn, words = board_rules(games)
            section.paragraphs.append(
                f"Where rules with a place fire, per game over the {n} games with events, all cells together "
                f"(drawn on {words}).")
            section.figures.append(("rule_locations", plot_rule_locations(locations, n, rules=drawn)))
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
    ax.set_yticks(range(len(shown)), [f"{c.name}: {usage.rule_words(c.rule)}" for c in shown], fontsize=8)
    ax.set_ylim(len(shown) - 0.5, -0.5)
    ax.set_xlabel("change in uses per game vs baseline (95% Welch interval; red = significant)")
    return _png(fig)


def build_report(
    games: pd.DataFrame, events: pd.DataFrame | None = None, title: str = "TerraFeud balance report",
    correction: str = "holm", alpha: float = 0.05, n_boot: int = 2000, source: str | None = None,
) -> Report:
    """Build every section of the report from the tables (nothing is written until ``write``)."""
    usable = check_games(games, what="a balance report")
    summary = summarize_cells(usable, events)
    keys = cell_columns(usable)
    comparisons = compare_toggles(usable, correction=correction, alpha=alpha, n_boot=n_boot)
    errors = len(games) - len(usable)
    intro = [f"{len(usable)} games in {len(summary)} cell{'s' if len(summary) != 1 else ''}"
             + (f" from {source}" if source else "") + "."
             + (f" {errors} game{'s' if errors != 1 else ''} ended in an error and {'are' if errors != 1 else 'is'} left out."
                if errors else ""),
             "Win rates carry 95% Wilson intervals; means carry 95% Student-t intervals. Balance is "
             "1 - |White win rate - Black win rate|; completion is the share of games with a winner; "
             "timeouts are games that reached the ply cap. Where the table has them: branching is the mean "
             "number of legal actions per turn; decision % the share of turns with more than one legal action; "
             "lead changes how often the leader by the agents' evaluation changed in a game; drama how far "
             "behind the eventual winner was, on average over the positions they faced (Ludii's measures)."]
    sections = [Section("Summary", intro, summary_table(summary)),
                Section("Win rates", figures=[("win_rates", plot_win_rates(summary))]),
                Section("Victory kinds", figures=[("victory_kinds", plot_victory_kinds(summary))]),
                Section("Game lengths", figures=[("lengths", plot_lengths(usable, summary, keys))])]
    if comparisons:
        corr = CORRECTION_NAMES[correction]
        words = [c.verdict() + "." for c in comparisons] + [c.length_verdict() + "." for c in comparisons]
        sections.append(Section(
            "Comparisons",
            [f"Each varying toggle or rule parameter value against its rulebook default, pooled over the other columns. p-values are "
             f"two-proportion z-tests (Fisher's exact test for small counts), {corr}-corrected over "
             f"{len(comparisons)} comparison{'s' if len(comparisons) != 1 else ''}; significant at {alpha}. "
             f"Length differences carry percentile bootstrap intervals.", *_start_bound_words(usable), *words],
            comparisons_frame(comparisons), [("comparisons", plot_comparisons(comparisons))]))
    else:
        sections.append(Section("Comparisons", ["No comparison: every toggle, parameter and agent takes one value in "
                                                "this table."]))
    captures = captures_table(summary)
    if captures is not None:
        sections.append(Section("Captures", ["Mean pieces lost per game, by side (W/B) and kind."], captures))
    sections.append(heatmap_section(usable, events))
    curve = curves_section(usable)
    if curve is not None:
        sections.insert(5, curve)
    sections.append(usage_section(usable, events, correction=correction, alpha=alpha))
    return Report(title, sections, summary, comparisons)


def write_report(games: pd.DataFrame, out_dir: str | Path, events: pd.DataFrame | None = None,
                 **options: Any) -> tuple[Path, Path]:
    """Build and write ``report.html`` and ``report.md`` into ``out_dir``."""
    return build_report(games, events, **options).write(out_dir)


__all__ = ["BalanceError", "Report", "Section", "build_report", "curves_section", "markdown_table", "summary_table",
           "usage_section", "usage_table", "write_report"]
