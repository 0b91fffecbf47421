"""What a tune hands back: the ranked table, the recommendation sentence, the Pareto picture and
the search's progress, and a Markdown report holding them all.

Intervals shown are 95% intervals (easy to read); the race's own decisions used its stricter
``z`` (``TuneResult.z``), which the report states.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from workbench.balance.tunefiles import report_section  # noqa: F401  (its old home; the report reads it from balance)

from .objectives import PERCENT
from .race import Tuner, VariantRecord
from .stats import Estimate

Z_SHOW = 1.959963984540054


@dataclass
class TuneResult:
    """The outcome of a tune (``table`` ranked best first; ``history`` one row per round)."""

    table: pd.DataFrame
    history: pd.DataFrame
    sentence: str
    recommended: str | None
    games: int
    budget: int
    z: float
    stop_reason: str
    grid_games: int | None = None  # a full grid's games for the same answer, estimated from the samples
    seconds: float = 0.0
    meta: dict[str, Any] = field(default_factory=dict)

    def markdown(self) -> str:
        """The report: sentence, cost, ranked table (dropped variants and why), pictures' files."""
        lines = [f"# Tune: {self.meta.get('game', '')}", "", self.sentence, ""]
        lines += [f"Cost: {self.cost_text()}.", "",
                  f"Decisions used intervals at z = {self.z:.2f} (alpha {self.meta.get('alpha', 0.05)} shared by "
                  "Bonferroni over variants, objectives, requirements and looks); the table shows 95% intervals.", ""]
        for key in ("space", "within", "objectives", "requirements", "agents"):
            if self.meta.get(key):
                lines.append(f"- {key}: {self.meta[key]}")
        lines += ["", _markdown_table(self.table), ""]
        for key in ("pareto", "progress"):
            if self.meta.get(key):
                lines.append(f"![{key}]({Path(self.meta[key]).name})")
        return "\n".join(lines) + "\n"


    def cost_text(self) -> str:
        """"798 games of a budget of 800, 0.2 minutes; stopped: budget spent"."""
        cost = f"{self.games} games of a budget of {self.budget}"
        if self.seconds:
            cost += f", {self.seconds / 60:.1f} minutes"
        if self.grid_games:
            cost += f"; a full grid would need about {self.grid_games} games for the same answer " \
                    f"({100 * self.games / self.grid_games:.0f}% of it)"
        return f"{cost}; stopped: {self.stop_reason}"

    def summary_json(self) -> str:
        """The sentence, the cost and the settings as JSON (``FILE.tune.json``): what ``report`` shows of a tune."""
        import json

        keep = {k: v for k, v in self.meta.items() if isinstance(v, (str, int, float)) and k != "report"}
        return json.dumps({"sentence": self.sentence, "recommended": self.recommended, "games": self.games,
                           "budget": self.budget, "z": self.z, "stop_reason": self.stop_reason,
                           "grid_games": self.grid_games, "seconds": self.seconds, "cost": self.cost_text(),
                           "meta": keep}, indent=1)


def _markdown_table(df: pd.DataFrame) -> str:
    if df.empty:
        return "(no variants)"
    cols = list(df.columns)
    out = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for _, row in df.iterrows():
        out.append("| " + " | ".join("" if (isinstance(v, float) and math.isnan(v)) else str(v) for v in row) + " |")
    return "\n".join(out)


def _fmt(e: Estimate, name: str) -> str:
    return e.text(percent=name in PERCENT)


def ranked(tuner: Tuner) -> list[VariantRecord]:
    """Best first: fit and alive, then alive, then dropped (latest drop first), each by first-objective loss."""
    def key(r: VariantRecord) -> tuple[Any, ...]:
        loss = tuner.loss(r).value
        loss = math.inf if math.isnan(loss) else loss
        group = 0 if (r.alive and tuner.feasible(r)) else 1 if r.alive else 2
        return (group, -(r.dropped_at or 0) if group == 2 else 0, loss, r.index)

    return sorted((r for r in tuner.variants if r.sample.games > 0), key=key)


def build_result(tuner: Tuner, meta: dict[str, Any] | None = None, seconds: float = 0.0) -> TuneResult:
    """The table, the sentence and the history of a finished search."""
    meta = dict(meta or {})
    order = ranked(tuner)
    rows = []
    recommended = order[0] if order and order[0].alive else None
    for rank, r in enumerate(order, 1):
        row: dict[str, Any] = {"rank": rank, "variant": r.label,
                               "status": "recommended" if r is recommended else r.status, "games": r.sample.games}
        for obj in tuner.objectives:
            row[obj.name] = _fmt(tuner.objectives[tuner.objectives.index(obj)].loss(r.sample, tuner.context(Z_SHOW)),
                                 obj.metric if obj.sign > 0 else "")
        for name in ("score", "decisive", "plies"):
            row[name] = _fmt(tuner.metric(r, name, Z_SHOW), name)
        for req in tuner.requirements:
            row[req.text] = r.verdicts.get(req.text, "unknown")
        row["dropped at"] = "" if r.dropped_at is None else r.dropped_at
        row["why"] = r.reason
        if r.sample.errors:
            row["why"] = (row["why"] + "; " if row["why"] else "") + f"{r.sample.errors} error games"
        rows.append(row)
    table = pd.DataFrame(rows)
    sentence = recommendation(tuner, order, recommended)
    history = pd.DataFrame(tuner.history)
    return TuneResult(table, history, sentence, recommended.label if recommended else None, tuner.spent,
                      tuner.budget, tuner.z, tuner.stop_reason, grid_estimate(tuner, recommended), seconds, meta)


def recommendation(tuner: Tuner, order: list[VariantRecord], best: VariantRecord | None) -> str:
    """"archer_range=3,castling=sacrifice: White 50.8% (48.9-52.7), 91% decisive, 142 plies; the next best is
    worse with p = 0.01"."""
    if best is None:
        broke = [r for r in order if r.reason.startswith("breaks")]
        if broke and len(broke) == len(order):
            return "No variant to recommend: every variant breaks a requirement with confidence."
        return "No variant to recommend."
    seat = tuner.players[0].capitalize() if tuner.players else "First seat"
    score = tuner.metric(best, "score", Z_SHOW)
    dec = tuner.metric(best, "decisive", Z_SHOW)
    plies = tuner.metric(best, "plies", Z_SHOW)
    text = (f"{best.label}: {seat} {100 * score.value:.1f}% ({100 * score.lo:.1f}\u2013{100 * score.hi:.1f}), "
            f"{100 * dec.value:.0f}% decisive, {plies.value:.0f} plies")
    for obj in tuner.objectives:
        if obj.metric in ("spread", "worst", "usage"):
            text += f", {obj.name} {obj.loss(best.sample, tuner.context(Z_SHOW)).text()}"
    others = [r for r in order if r is not best and not r.reason.startswith("breaks") and r.sample.n > 0]
    if others:
        nxt = others[0]
        obj = tuner.objectives[0]
        _, p = obj.diff_lower(nxt.sample, best.sample, tuner.context())
        mine, theirs = tuner.loss(best).value, tuner.loss(nxt).value
        pending = [r.text for r in tuner.requirements if nxt.verdicts.get(r.text) != "met"]
        if theirs < mine and pending:
            # ranked below only because it is not yet shown fit: say so, not "worse with p = 0.8"
            text += (f"; {nxt.label} is better on {obj.name} so far ({theirs:.3g} against {mine:.3g}) but has not "
                     f"yet shown {', '.join(pending)}")
        elif theirs < mine:
            text += f"; the next best ({nxt.label}) is not shown worse on {obj.name} (p = {p:.2g})"
        else:
            text += f"; the next best ({nxt.label}) is worse with p = {p:.2g}"
    else:
        text += "; every other variant breaks a requirement"
    unknown = [req for req in tuner.requirements if best.verdicts.get(req.text) != "met"]
    if unknown:
        text += " (not yet confirmed: " + ", ".join(r.text for r in unknown) + ")"
    return text + "."


def grid_estimate(tuner: Tuner, best: VariantRecord | None) -> int | None:
    """Games a full grid would need for the same answer at the same confidence, from the samples.

    The grid plays every variant equally, once, with one comparison per variant against the best:
    it needs, per variant, the games that separate the best from its nearest rival (the plug-in
    size ``z^2 (var_a + var_b) / gap^2``, with the grid's own ``z`` for K - 1 comparisons).
    Rivals within the tolerance need no separating. Only for the first objective's linear or
    folded form; None otherwise.
    """
    obj = tuner.objectives[0]
    if best is None or obj.column is None or len(tuner.variants) < 2 or not tuner.stop_reason.startswith(("one", "the")):
        return None  # without a decided answer there is no "same answer" to price
    from .stats import look_z, mean_variance

    k = len(tuner.variants)
    z = look_z(tuner.alpha, (k - 1) * (len(tuner.objectives) + len(tuner.requirements)), 1)
    lb = tuner.loss(best).value
    vb = mean_variance(best.sample.array(obj.column), obj.bounded)
    need = 0.0
    for r in tuner.variants:
        if r is best or r.sample.n == 0:
            continue
        gap = tuner.loss(r).value - lb
        if gap <= max(tuner.tolerance, 1e-9):
            continue
        vr = mean_variance(r.sample.array(obj.column), obj.bounded)
        need = max(need, z * z * (vb + vr) / (gap * gap))
    if need == 0:
        return None
    return int(math.ceil(need)) * k * len(tuner.inner)


# ---------------------------------------------------------------------- pictures
def pareto_figure(tuner: Tuner, path: str | Path | None = None) -> Any:
    """Balance against length, decisiveness as colour; dropped variants hollow, the recommendation starred."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5))
    recs = [r for r in tuner.variants if r.sample.n > 0]
    order = ranked(tuner)
    best = order[0] if order and order[0].alive else None
    if recs:
        xs = [tuner.metric(r, "plies", Z_SHOW).value for r in recs]
        ys = [tuner.metric(r, "balance", Z_SHOW).value for r in recs]
        cs = [tuner.metric(r, "decisive", Z_SHOW).value for r in recs]
        sizes = [20 + 180 * math.sqrt(r.sample.n / max(x.sample.n for x in recs)) for r in recs]
        sc = ax.scatter(xs, ys, c=cs, s=sizes, cmap="viridis", vmin=0, vmax=1,
                        edgecolors=["black" if r.alive else "none" for r in recs], linewidths=1.0,
                        alpha=[1.0 if r.alive else 0.45 for r in recs])  # type: ignore[arg-type]  # per point
        fig.colorbar(sc, ax=ax, label="decisive share")
        points = [(x, y, r) for x, y, r in zip(xs, ys, recs, strict=True)]
        front = _front([p for p in points if p[2].alive] or points)  # the trade-offs still on offer
        fx = sorted((x, y) for x, y, _ in front)
        if len(fx) > 1:
            ax.plot([p[0] for p in fx], [p[1] for p in fx], "--", color="grey", lw=1,
                    label="Pareto front (variants still in the race)")
        if best is not None:
            ax.scatter([tuner.metric(best, "plies").value], [tuner.metric(best, "balance").value], marker="*",
                       s=300, color="red", label=f"recommended: {best.label}", zorder=5)
        ax.legend(loc="best", fontsize=8)
    ax.set_xlabel("mean plies")
    ax.set_ylabel("|first seat's score - 0.5|")
    ax.set_title("Variants: balance against length (size: games played; faded: dropped)")
    fig.tight_layout()
    if path is not None:
        fig.savefig(path, dpi=110)
        plt.close(fig)
    return fig


def _front(points: list[tuple[float, float, Any]]) -> list[tuple[float, float, Any]]:
    """Points no other point beats on both length and balance (both smaller is better)."""
    out = []
    for x, y, r in points:
        if not any((x2 <= x and y2 <= y) and (x2 < x or y2 < y) for x2, y2, _ in points):
            out.append((x, y, r))
    return out


def progress_figure(result: TuneResult, path: str | Path | None = None) -> Any:
    """The best variant's loss with its 95% interval, and the contenders left, against games spent."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    h = result.history
    if not h.empty:
        ax.plot(h["games"], h["loss"], "o-", color="C0", label="best variant's loss")
        ax.fill_between(h["games"], h["lo"], h["hi"], color="C0", alpha=0.2, label="95% interval")
        ax.set_ylabel(result.meta.get("objective_name", "loss"))
        ax2 = ax.twinx()
        ax2.step(h["games"], h["alive"], where="post", color="C1", label="contenders left")
        ax2.set_ylabel("contenders left")
        ax2.set_ylim(bottom=0)
        lines = ax.get_legend_handles_labels()
        lines2 = ax2.get_legend_handles_labels()
        ax.legend(lines[0] + lines2[0], lines[1] + lines2[1], loc="upper right", fontsize=8)
    if result.grid_games:
        ax.axvline(result.grid_games, color="grey", ls=":", lw=1)
        ax.text(result.grid_games, ax.get_ylim()[1], " full grid", va="top", fontsize=8, color="grey")
    ax.axvline(result.budget, color="black", ls="--", lw=0.8)
    ax.set_xlabel("games spent")
    ax.set_title("Search progress")
    fig.tight_layout()
    if path is not None:
        fig.savefig(path, dpi=110)
        plt.close(fig)
    return fig
