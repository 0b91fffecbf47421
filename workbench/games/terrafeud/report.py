"""TerraFeud's own parts of a balance report (``GameDef.report_sections``, ``GameDef.report_location_maps``).

Its maps are drawn on its own terrain board (``viz.mpl.heatmap``, ``viz.heat.batch_heatmaps``): the batch
heatmaps (where pieces moved, captured and where feudals died) and where its rules with a place fired. The
report asks for them through the declarations and receives plain data (sentences, PNG bytes), so balance
imports no game.
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping, Sequence
from typing import Any

from workbench.core.protocol import ReportPart

from .engine import HEX_NAMES, RulesConfig, make_game

CLASSIC: dict[str, Any] = {"season": "summer", "hill": False, "swamp": False}


def _png(fig: Any) -> bytes:
    import matplotlib.pyplot as plt

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    plt.close(fig)
    return buf.getvalue()


def board_rules(games: Any) -> tuple[dict[str, Any], str]:
    """The board the maps are drawn on: the table's own season, bridges and fords when every game shares
    them (a grid over ``bridges`` or ``season`` mixes boards: the classic summer one then)."""
    import pandas as pd

    rules = dict(CLASSIC)
    for name in ("season", "bridges", "fords"):
        if name in games.columns and len(games) and games[name].nunique(dropna=False) == 1 and pd.notna(games[name].iloc[0]):
            rules[name] = str(games[name].iloc[0])
    try:
        config = RulesConfig.from_dict(rules)
    except ValueError:
        return dict(CLASSIC), "the classic summer board"
    if (config.bridges, config.fords) == (RulesConfig().bridges, RulesConfig().fords):
        return rules, f"the classic {config.season} board"
    return rules, f"the games' board: bridges {'/'.join(config.bridges)}, fords {'/'.join(config.fords)}"


def plot_rule_locations(locations: Mapping[str, Mapping[str, int]], games: int, columns: int = 4,
                        rules: dict[str, Any] | None = None, titles: Sequence[str] | None = None) -> bytes:
    """One board per spatial rule, each hex coloured by how often the rule fired there per game."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from .viz.mpl import heatmap

    board = make_game(rules or CLASSIC).state_from_pieces({})
    names = list(locations)
    if titles is None:
        titles = [f"{rule.replace('_', ' ')} ({sum(locations[rule].values())})" for rule in names]
    rows = math.ceil(len(names) / columns)
    cols = min(columns, len(names))
    fig, axes = plt.subplots(rows, cols, squeeze=False, figsize=(3.6 * cols, 3.4 * rows))
    for ax in axes.flat[len(names):]:
        ax.set_visible(False)
    for ax, rule, title in zip(axes.flat, names, titles, strict=False):
        counts = locations[rule]
        values = [counts.get(h, 0) / games for h in HEX_NAMES]
        heatmap(board, values, ax=ax, cmap="YlOrRd", annotate=False, overlays=(), colorbar=True, title=title,
                label="per game")
    fig.tight_layout()
    return _png(fig)


def location_maps(games: Any, locations: Mapping[str, Mapping[str, int]], titles: Sequence[str],
                  per: int) -> tuple[str, bytes]:
    """The report's rule-location maps on TerraFeud's board: (words naming the board, PNG)."""
    drawn, words = board_rules(games)
    return words, plot_rule_locations(locations, per, rules=drawn, titles=titles)


def _figures_of(result: Any) -> list[tuple[str, Any]]:
    """Figures from whatever ``batch_heatmaps`` returns: a Figure, Axes, or a dict/list of them."""
    from matplotlib.figure import Figure

    if isinstance(result, dict):
        items = list(result.items())
    elif isinstance(result, (list, tuple)):
        items = [(str(i), r) for i, r in enumerate(result)]
    else:
        items = [("heatmaps", result)]
    out = []
    for name, obj in items:
        fig = obj if isinstance(obj, Figure) else getattr(obj, "figure", None)
        if isinstance(fig, Figure):
            out.append((str(name), fig))
    return out


def _stem(name: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in name)[:40]


def heatmap_part(games: Any, events: Any) -> ReportPart:
    """Batch heatmaps from ``viz.heat`` when the events table exists; a note otherwise."""
    part = ReportPart("Where captures happen and where feudals die")
    if events is None or len(events) == 0:
        part.paragraphs.append("Skipped: no events table was given (simulate with events=True).")
        return part
    from .viz import heat

    try:
        drawn, words = board_rules(games)
        moved = words.startswith("the games' board") and "season" in games.columns and games["season"].nunique() == 1
        if moved:  # one season and the games' own crossings: draw those (the default draws the classic ones)
            result = heat.batch_heatmaps(games, events, state=make_game(drawn).state_from_pieces({}))
        else:
            result = heat.batch_heatmaps(games, events)
    except (ValueError, KeyError) as exc:  # e.g. an events table without the columns the maps read
        part.paragraphs.append(f"Skipped: the batch heatmaps could not be drawn ({exc}).")
        return part
    figures = _figures_of(result)
    if figures:
        part.paragraphs.append("Per season, from the events table (workbench.games.terrafeud.viz.heat.batch_heatmaps): "
                               "how often pieces entered each hex, where pieces died, and where feudals died.")
    else:
        part.paragraphs.append("Skipped: batch_heatmaps returned no figures.")
    for i, (name, fig) in enumerate(figures):
        part.figures.append((f"heatmap_{i}_{_stem(name)}", _png(fig)))
    return part


__all__ = ["board_rules", "heatmap_part", "location_maps", "plot_rule_locations"]
