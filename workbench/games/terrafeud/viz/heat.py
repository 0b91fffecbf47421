"""Heatmap values: per-position maps from the engine's analysis, batch maps from simulation events.

A heatmap is 91 floats in board order (NaN where a hex has no value), ready for ``mpl.heatmap``,
``svg.board_svg(heat=...)`` or a DataFrame. Position maps wrap ``workbench.games.terrafeud.engine.analysis`` (the
rules stay in the engine); batch maps only read the event table the simulator writes.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import pandas as pd

from workbench.games.terrafeud.engine import analysis
from workbench.games.terrafeud.engine.geometry import HEX_BY_NAME, HEX_NAMES, N_HEXES
from workbench.games.terrafeud.engine.serialize import state_from_dict, state_to_dict

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from workbench.games.terrafeud.engine.state import GameState

SIDES = ("white", "black")
EVENT_COLUMNS = ("game_id", "ply", "side", "action", "piece", "from", "to", "captured", "victims")


def side_index(side: int | str) -> int:
    """0 for White, 1 for Black, from an index or a name."""
    if side in (0, 1):
        return int(side)
    if isinstance(side, str) and side.lower() in SIDES:
        return SIDES.index(side.lower())
    raise ValueError(f"unknown side {side!r}: use 0/'white' or 1/'black'")


def zone_control(state: GameState, side: int | str) -> list[float]:
    """How many of the side's pikeman zones cover each hex."""
    return [float(v) for v in analysis.zone_counts(state, side_index(side))]


def threat(state: GameState, side: int | str) -> list[float]:
    """How many enemy pieces could attack each hex next turn (coordinated attacks, mines, ultimatums)."""
    return [float(v) for v in analysis.threat_counts(state, side_index(side))]


def safe_feudal_hexes(state: GameState, side: int | str) -> list[float]:
    """1 where the side's feudal would stand out of threat, 0 where not, NaN where it cannot stand."""
    return analysis.safe_feudal_hexes(state, side_index(side))


def mobility(state: GameState, side: int | str, per: str = "reach") -> list[float]:
    """How many of the side's pieces can end a move on each hex (``per="piece"``: actions per piece)."""
    return analysis.mobility(state, side_index(side), per)


METRICS: dict[str, Callable[..., list[float]]] = {
    "zone_control": zone_control,
    "threat": threat,
    "safe_feudal_hexes": safe_feudal_hexes,
    "mobility": mobility,
}


def with_rules(state: GameState, **toggles: Any) -> GameState:
    """The same position under other rule toggles (``with_rules(st, season="winter")``).

    The drawn terrain is kept, so only the toggles differ between the two positions.
    """
    d = state_to_dict(state)
    d["rules"] = {**d["rules"], **toggles}
    return state_from_dict(d)


def position_table(state: GameState) -> pd.DataFrame:
    """Every position metric for both sides, one row per hex (index: hex names)."""
    cols: dict[str, list[float]] = {}
    for name, fn in METRICS.items():
        for s in SIDES:
            cols[f"{name}_{s}"] = fn(state, s)
    return pd.DataFrame(cols, index=pd.Index(HEX_NAMES, name="hex"))


def compare_sides(state: GameState, metric: str = "threat", **options: Any) -> Figure:
    """The metric for White and Black side by side on one colour scale, from 0 (an empty hex reads 0 on
    the colour bar, not the smallest count) with whole-number ticks for counts."""
    from .mpl import compare, zero_norm

    fn = _metric(metric)
    a, b = fn(state, 0), fn(state, 1)
    options.setdefault("norm", zero_norm([*a, *b]))
    return compare((state, a), (state, b), titles=[f"{metric}: white", f"{metric}: black"], label=metric, **options)


def compare_rules(state: GameState, metric: str = "mobility", side: int | str = 0,
                  toggles: Sequence[dict[str, Any]] = ({"season": "summer"}, {"season": "winter"}),
                  **options: Any) -> Figure:
    """The metric of one side for the same position under two (or more) rule toggles."""
    from .mpl import compare, zero_norm

    fn = _metric(metric)
    panels = [with_rules(state, **t) for t in toggles]
    titles = [f"{metric} {SIDES[side_index(side)]}: " + ", ".join(f"{k}={v}" for k, v in t.items()) for t in toggles]
    values = [fn(st, side) for st in panels]
    options.setdefault("norm", zero_norm([v for vals in values for v in vals]))
    return compare(*zip(panels, values, strict=True), titles=titles, label=metric, **options)


def _metric(metric: str) -> Callable[..., list[float]]:
    if metric not in METRICS:
        raise ValueError(f"unknown metric {metric!r}: choose from {', '.join(METRICS)}")
    return METRICS[metric]


# ---------------------------------------------------------------------- batch maps from events
def _check_events(events: pd.DataFrame, need: Sequence[str]) -> None:
    missing = [c for c in need if c not in events.columns]
    if missing:
        raise ValueError(f"event table lacks column(s) {', '.join(missing)} (the simulator writes {', '.join(EVENT_COLUMNS)})")


def _count_hexes(names: Any, where: str) -> list[float]:
    out = [0.0] * N_HEXES
    for row, name in names:
        h = HEX_BY_NAME.get(str(name))
        if h is None:
            raise ValueError(f"event table row {row}: unknown hex {name!r} in column {where!r}")
        out[h] += 1.0
    return out


def _per_game(counts: list[float], events: pd.DataFrame, per_game: bool) -> list[float]:
    games = events["game_id"].nunique() if len(events) else 0
    if per_game and games:
        return [c / games for c in counts]
    return counts


_STEP = re.compile(r"([a-l][0-9]{1,2})[-x]([a-l][0-9]{1,2})")


def _arrivals(action: str, to: Any) -> list[str]:
    """Hexes a piece arrives on in one event: each Order step's end, or ``to`` (shots and passes: none)."""
    text = str(action)
    if "*" in text or text == "pass":
        return []
    if text.startswith("order"):
        return [m.group(2) for m in _STEP.finditer(text)]
    return [str(to)] if isinstance(to, str) and to else []


def occupancy(events: pd.DataFrame, per_game: bool = True) -> list[float]:
    """How often a piece arrives on each hex (moves, attacks, both Order steps, castling; not shots).

    With ``per_game`` (default) the counts are divided by the number of games in the table.
    """
    _check_events(events, ("game_id", "action", "to"))
    pairs = ((i, h) for i, a, to in zip(events.index, events["action"], events["to"], strict=True)
             for h in _arrivals(a, to))
    return _per_game(_count_hexes(pairs, "to"), events, per_game)


def _split(cell: Any) -> list[str]:
    return str(cell).split() if isinstance(cell, str) else []


def capture_locations(events: pd.DataFrame, per_game: bool = True) -> list[float]:
    """How often a piece (of either side) died on each hex (the ``victims`` column)."""
    _check_events(events, ("game_id", "victims"))
    pairs = ((i, h) for i, v in zip(events.index, events["victims"], strict=True) for h in _split(v))
    return _per_game(_count_hexes(pairs, "victims"), events, per_game)


def feudal_deaths(events: pd.DataFrame, per_game: bool = False) -> list[float]:
    """How many feudals died on each hex (the loser's last stand); a count, not per game, by default.

    ``captured`` says a feudal died (F or f) but not where when several pieces died at once, so each
    feudal is followed through its game's events from its castle centre (its moves and castling);
    the hex it stands on is its death hex. A single victim is taken as is.
    """
    _check_events(events, ("game_id", "ply", "piece", "action", "to", "captured", "victims"))
    pairs = []
    for _, game in events.sort_values(["game_id", "ply"]).groupby("game_id", sort=False):
        where = {"F": "f1", "f": "f11"}
        for i, piece, action, to, cap, vic in zip(game.index, game["piece"], game["action"], game["to"],
                                                  game["captured"], game["victims"], strict=True):
            if piece in where and "*" not in str(action) and isinstance(to, str) and to:
                where[piece] = to
            hexes = _split(vic)
            for letter in _split(cap):
                if letter in where:
                    if where[letter] in hexes:
                        pairs.append((i, where[letter]))
                    elif len(hexes) == 1:
                        pairs.append((i, hexes[0]))
    return _per_game(_count_hexes(pairs, "victims"), events, per_game)


def with_season(games: pd.DataFrame, events: pd.DataFrame) -> pd.DataFrame:
    """The events with each game's ``season`` joined from the games table."""
    if "season" in events.columns:
        return events
    if "game_id" not in games.columns or "season" not in games.columns:
        raise ValueError("games table needs columns game_id and season to split events by season")
    return events.merge(games[["game_id", "season"]].drop_duplicates("game_id"), on="game_id", how="left")


BATCH_MAPS: dict[str, Callable[[pd.DataFrame], list[float]]] = {
    "occupancy per game": occupancy,
    "deaths per game": capture_locations,
    "feudal deaths": feudal_deaths,
}


def batch_table(games: pd.DataFrame, events: pd.DataFrame) -> pd.DataFrame:
    """Every batch map per season as columns ``<map> | <season>``, one row per hex."""
    ev = with_season(games, events)
    cols = {}
    for season, part in ev.groupby("season", sort=True):
        for name, fn in BATCH_MAPS.items():
            cols[f"{name} | {season}"] = fn(part)
    return pd.DataFrame(cols, index=pd.Index(HEX_NAMES, name="hex"))


def batch_heatmaps(games: pd.DataFrame, events: pd.DataFrame, state: GameState | None = None,
                   cmap: str = "YlOrRd", width: float = 4.2) -> Figure:
    """A figure: one row per season, columns occupancy, capture locations and feudal deaths.

    Each column shares one colour scale across seasons so summer and winter compare directly.
    ``state`` gives the board drawn under the colours (the classic start of each season by default).
    """
    import matplotlib.pyplot as plt
    from matplotlib.colors import Normalize

    from workbench.games.terrafeud.engine import make_game

    from .layout import Layout
    from .mpl import heatmap

    table = batch_table(games, events)
    seasons = sorted({c.split(" | ")[1] for c in table.columns})
    if not seasons:
        raise ValueError("no events to draw: the event table is empty")
    lay = Layout()
    fig, axes = plt.subplots(len(seasons), len(BATCH_MAPS), squeeze=False,
                             figsize=(width * len(BATCH_MAPS) + 1.2, width * lay.height / lay.width * len(seasons)))
    for j, name in enumerate(BATCH_MAPS):
        vmax = max(float(table[f"{name} | {s}"].max()) for s in seasons) or 1.0
        norm = Normalize(0.0, vmax)
        for i, season in enumerate(seasons):
            board = state if state is not None else make_game(
                {"season": season, "hill": False, "swamp": False}).state_from_pieces({})
            heatmap(board, table[f"{name} | {season}"].tolist(), ax=axes[i][j], cmap=cmap, norm=norm,
                    colorbar=i == len(seasons) - 1, annotate=False, overlays=(), title=f"{name}: {season}",
                    label=name)
    return fig


__all__ = [
    "METRICS", "batch_heatmaps", "batch_table", "capture_locations", "compare_rules", "compare_sides",
    "feudal_deaths", "mobility", "occupancy", "position_table", "safe_feudal_hexes", "threat", "with_rules",
    "with_season", "zone_control",
]
