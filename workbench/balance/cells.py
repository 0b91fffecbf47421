"""Per-cell balance summaries of a simulation games table (and, where given, its events table).

A *cell* is one combination of the rule toggles (season, hill, swamp, terrain, castling, ...), the
rule parameters (archer_range, aura_radius, ..., the ``start`` scenario) and the agent pairing. Every rate carries a 95% interval: Wilson for proportions, Student-t for means.
This module reads only the table columns written by ``workbench.simulate``; it never imports the
engine, so a table from an older run or another machine summarizes the same way.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from .stats import BalanceError, mean_interval, wilson_interval

# Rule toggles in the contract's order (BOARD-AND-RULINGS.md section 7), then the agent pairing.
TOGGLES: tuple[str, ...] = (
    "season", "hill", "swamp", "terrain", "castling", "archer_melee", "mate_defence", "draw_after",
    "pike_cavalry_mutual",
)
# Rule parameters (issue 11) in the table's order; a ``start=`` scenario is keyed by its id (``start_id``),
# not its path, so the same start read from two places pools into one cell.
PARAMETERS: tuple[str, ...] = (
    "archer_range", "hill_bonus", "aura_radius", "aura_step", "aura_memory", "coordinated", "order_size",
    "order_radius", "castling_uses", "promotion", "knight_bridge_stop", "bridges", "fords", "start_id",
)
NUMERIC_PARAMETERS: tuple[str, ...] = (
    "archer_range", "hill_bonus", "aura_radius", "aura_step", "coordinated", "order_size", "order_radius",
    "castling_uses",
)
AGENTS: tuple[str, ...] = ("white_agent", "black_agent")
SIDES: tuple[str, ...] = ("white", "black")
KINDS: tuple[str, ...] = ("feudal", "knight", "pikeman", "cavalry", "archer", "infantry")
VICTORIES: tuple[str, ...] = ("destroyed", "checkmate", "castle", "draw", "unfinished")
REQUIRED: tuple[str, ...] = ("winner", "victory", "plies")


def check_games(games: pd.DataFrame, minimum: int = 2, what: str = "a balance summary") -> pd.DataFrame:
    """The usable games of a table (rows with ``victory == 'error'`` dropped), or a plain-words error.

    A table with fewer than ``minimum`` usable games has no spread to measure, so it is refused
    rather than summarized into intervals that mean nothing.
    """
    if not isinstance(games, pd.DataFrame):
        raise BalanceError(f"{what} needs a pandas DataFrame of games, got {type(games).__name__}")
    missing = [c for c in REQUIRED if c not in games.columns]
    if missing:
        raise BalanceError(f"the games table has no column {missing[0]!r}; is it a table written by "
                           f"`python -m workbench simulate`? (columns: {', '.join(map(str, games.columns))})")
    usable = games[games["victory"] != "error"]
    if len(usable) < minimum:
        errors = len(games) - len(usable)
        also = f" ({errors} more ended in an error)" if errors else ""
        raise BalanceError(f"the games table has {len(usable)} finished or timed-out game"
                           f"{'' if len(usable) == 1 else 's'}{also}; {what} needs at least {minimum}. "
                           f"Simulate more games first.")
    return usable


def cell_columns(games: pd.DataFrame) -> list[str]:
    """The toggle, parameter and agent columns present in the table: the key of a cell."""
    return [c for c in (*TOGGLES, *PARAMETERS, *AGENTS) if c in games.columns]


def varying_columns(games: pd.DataFrame) -> list[str]:
    """Cell columns that take more than one value in this table (the ones worth naming)."""
    return [c for c in cell_columns(games) if games[c].astype(str).nunique() > 1]


def start_bound_columns(games: pd.DataFrame) -> list[str]:
    """Varying columns that only change with the ``start=`` file (its own ``rules:`` set them): their
    effect cannot be told apart from the start's, so they are compared as part of ``start_id``."""
    if "start_id" not in games.columns:
        return []
    starts = games["start_id"].astype(str)
    if starts.nunique() < 2:
        return []
    bound = []
    for c in varying_columns(games):
        if c in ("start_id", *AGENTS):
            continue
        if (games[c].astype(str).groupby(starts).nunique() == 1).all():
            bound.append(c)
    return bound


def compared_columns(games: pd.DataFrame) -> list[str]:
    """The varying columns a comparison pools over, without those bound to a start file."""
    bound = set(start_bound_columns(games))
    return [c for c in varying_columns(games) if c not in bound]


def cell_label(row: pd.Series | dict, columns: Sequence[str]) -> str:
    """A short label such as ``season=winter swamp=off · greedy vs random`` from the varying columns."""
    parts = [f"{c}={_fmt(row[c])}" for c in columns if c not in AGENTS]
    if any(c in AGENTS for c in columns):
        parts.append(f"· {row.get('white_agent', '?')} vs {row.get('black_agent', '?')}")
    return " ".join(parts) or "all games"


def _fmt(value: object) -> str:
    if isinstance(value, (bool, np.bool_)):
        return "on" if value else "off"
    if _is_missing(value):
        return "none"
    return str(value)


def _is_missing(value: object) -> bool:
    """None, NaN or pandas' NA (``draw_after`` is a nullable integer column)."""
    try:
        return bool(pd.isna(value))
    except (TypeError, ValueError):  # lists and other non-scalars are values, not missing
        return False


def _group_keys(games: pd.DataFrame) -> tuple[pd.DataFrame, list[str]]:
    """The games with string-safe grouping keys (None in draw_after would drop rows in groupby)."""
    keys = cell_columns(games)
    frame = games.copy()
    for c in keys:
        frame[c] = frame[c].astype(object).map(lambda v: "none" if _is_missing(v) else v)
    return frame, keys


def summarize_cells(games: pd.DataFrame, events: pd.DataFrame | None = None) -> pd.DataFrame:
    """One row per cell: win rates with Wilson intervals, balance, completion, victory kinds,
    length, captures by side and kind, branching/decision share and lead change/drama with intervals.

    ``events`` (the simulation's event table) fills branching factor, decision share, lead
    changes and drama when the games table lacks them.
    """
    usable = check_games(games)
    frame, keys = _group_keys(usable)
    per_game = per_game_event_measures(events, usable.set_index("game_id")["winner"]
                                       if "game_id" in usable.columns else None) if events is not None and len(events) else None
    if per_game is not None and "game_id" in frame.columns:
        frame = frame.merge(per_game, on="game_id", how="left", suffixes=("", "_events"))
        for col in per_game.columns.drop("game_id"):
            if f"{col}_events" in frame.columns:
                frame[col] = frame[col].where(frame[col].notna(), frame[f"{col}_events"])
    varying = varying_columns(usable)
    rows = []
    groups = frame.groupby(keys, sort=True, dropna=False) if keys else [((), frame)]
    for key, g in groups:
        key = key if isinstance(key, tuple) else (key,)
        row: dict[str, object] = dict(zip(keys, key, strict=True))
        row["label"] = cell_label(row, varying)
        row.update(summarize_games(g))
        rows.append(row)
    return pd.DataFrame(rows)


def summarize_games(g: pd.DataFrame) -> dict[str, float]:
    """All the measures of one group of games (no error rows), as a flat dict."""
    n = len(g)
    white = int((g["winner"] == "white").sum())
    black = int((g["winner"] == "black").sum())
    out: dict[str, float] = {"games": n, "white_wins": white, "black_wins": black, "no_winner": n - white - black}
    for side, k in (("white", white), ("black", black)):
        lo, hi = wilson_interval(k, n)
        out[f"{side}_rate"], out[f"{side}_low"], out[f"{side}_high"] = k / n, lo, hi
    out["balance"] = 1 - abs(out["white_rate"] - out["black_rate"])
    decided = white + black
    out["completion"] = decided / n
    out["completion_low"], out["completion_high"] = wilson_interval(decided, n)
    timeouts = int((g["victory"] == "unfinished").sum())
    out["timeouts"] = timeouts
    out["timeout_rate"] = timeouts / n
    for kind in VICTORIES:
        out[f"share_{kind}"] = float((g["victory"] == kind).mean())
    plies = g["plies"].astype(float)
    out["plies_mean"], out["plies_low"], out["plies_high"] = _non_negative(mean_interval(plies))
    out["plies_median"] = float(plies.median())
    out["plies_q1"], out["plies_q3"] = (float(q) for q in plies.quantile([0.25, 0.75]))
    for side in SIDES:
        for kind in KINDS:
            col = f"lost_{side}_{kind}"
            if col in g.columns:
                out[col] = float(g[col].astype(float).mean())
    for col in ("mean_branching", "decision_share", "lead_changes", "drama"):
        if col in g.columns and g[col].notna().any():
            out[col], out[f"{col}_low"], out[f"{col}_high"] = _non_negative(mean_interval(g[col].astype(float)))
    return out


def _non_negative(interval: tuple[float, float, float]) -> tuple[float, float, float]:
    """A t-interval of a measure that cannot be negative (plies, counts, shares), cut at 0."""
    mean, low, high = interval
    return mean, low if math.isnan(low) else max(0.0, low), high


def per_game_event_measures(events: pd.DataFrame, winners: pd.Series | None = None) -> pd.DataFrame:
    """Per game from the events table: mean branching factor, decision share, lead changes, drama.

    The same definitions as the games table columns that ``workbench.simulate`` writes, so either
    source gives the same numbers:

    - branching factor: mean number of legal actions at each turn (``n_legal``);
    - decision share: share of turns with more than one legal action;
    - lead changes: how often the leader (sign of ``eval_white`` after each action) changes,
      level evaluations skipped (Ludii's *lead change*, as a count per game);
    - drama: mean, over the positions the eventual winner faced (after the opponent's actions),
      of how far behind the winner was (0 when ahead); Ludii's *drama*. 0 without a winner.
      Needs ``winners`` (game_id -> 'white'|'black'|'none').
    """
    need = {"game_id", "ply", "n_legal"}
    if not need <= set(events.columns):
        raise BalanceError(f"the events table needs columns {sorted(need)}; it has {sorted(map(str, events.columns))}")
    ev = events.sort_values(["game_id", "ply"])
    out = ev.groupby("game_id").agg(
        mean_branching=("n_legal", "mean"),
        decision_share=("n_legal", lambda s: float((s > 1).mean())),
    )
    if "eval_white" in ev.columns:
        out["lead_changes"] = ev.groupby("game_id")["eval_white"].apply(lead_changes)
        if winners is not None and "side" in ev.columns:
            out["drama"] = [drama(g["eval_white"], g["side"], str(winners.get(gid, "none")))
                            for gid, g in ev.groupby("game_id")]
    return out.reset_index()


def lead_changes(evals: Sequence[float] | pd.Series) -> int:
    """Number of times the sign of White's evaluation changes along a game, level evaluations skipped."""
    signs = [np.sign(v) for v in np.asarray(evals, dtype=float) if not np.isnan(v) and v != 0]
    return int(sum(a != b for a, b in zip(signs, signs[1:], strict=False)))


def drama(evals: Sequence[float], movers: Sequence[str], winner: str) -> float:
    """Mean shortfall of the winner over the positions they faced (after the opponent moved).

    ``evals`` are White's evaluations after each action (positive: White ahead) and ``movers``
    the side ('white'/'black') that made it. 0 when nobody won or the winner never faced one.
    """
    if winner not in SIDES:
        return 0.0
    sign = 1.0 if winner == "white" else -1.0
    faced = [max(0.0, -sign * float(v)) for v, m in zip(evals, movers, strict=True) if m != winner]
    return sum(faced) / len(faced) if faced else 0.0
