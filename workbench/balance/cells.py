"""Per-cell balance summaries of a simulation games table (and, where given, its events table).

A *cell* is one combination of the rules (TerraFeud's toggle and parameter columns, or a generic
table's ``rules`` label) and the agent pairing. Each cell gets three separate quantities, each with a
95% interval, because they answer different questions:

- **advantage**: the first seat's share of *decided* games (Wilson), and its score with draws as 1/k;
- **decisiveness**: the share of games decided (Wilson);
- **length**: Kaplan-Meier median and quartiles, games cut by the cap censored (``survival``).

A game cut by the cap is unfinished, not a draw: it counts in no advantage, and a cell with more
unfinished games than a threshold (20%) gets no balance verdict at all. "Balanced" is said only
when the advantage interval lies within a margin (5 points) of the fair share: never from a lack of
decided games. This module reads only table columns (see ``table``); it never imports an engine.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from .stats import BalanceError, mean_interval, wilson_interval
from .survival import length_summary
from .table import (
    UNFINISHED_THRESHOLD,
    _game_def,
    agent_columns,
    expand_rules,
    label_rule_names,
    normalize,
    seats_of,
    table_schema,
    team_members,
    teams_of,
)

MARGIN = 0.05  # "balanced" needs the first seat's share of decided games within 5 points of fair, interval and all

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
    if "outcome" in usable.columns and "length" in usable.columns and "players" in usable.columns:
        return usable  # already normalized (the report normalizes once and passes the table on)
    return expand_rules(normalize(usable))


def cell_columns(games: pd.DataFrame) -> list[str]:
    """The rule and agent columns present in the table: the key of a cell.

    The plain rule columns are those the table's game declares (``GameDef.table.rule_columns``): another
    game's row may hold a column of the same name that is no rule (big chess counts promotions in
    ``promotion``), and a game that declares none names its rules by the ``rules`` label."""
    named = [c for c in table_schema(games).rule_columns if c in games.columns]
    generic = [c for c in label_rule_names(games) if c in games.columns and c not in named]
    return [*named, *generic, *agent_columns(games)]


def is_agent(column: str, games: pd.DataFrame | str | None = None) -> bool:
    """An agent column: ``agent_<seat>``, or a name older tables of the table's game (``games``: the table or its
    game's name) gave one, as the game declares it (``TableSchema.renamed_columns``, which ``migrate_table``
    maps to today's). No other column, whatever its name ends with: a rule or a count may end in ``_agent``."""
    if column.startswith("agent_"):
        return True
    if games is None:
        return False
    schema = table_schema(games) if isinstance(games, pd.DataFrame) else _game_def(games).table
    return column in {old for old, new in schema.renamed_columns if new.startswith("agent_")}


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
        if c == "start_id" or is_agent(c, games):
            continue
        if (games[c].astype(str).groupby(starts).nunique() == 1).all():
            bound.append(c)
    return bound


def compared_columns(games: pd.DataFrame) -> list[str]:
    """The varying columns a comparison pools over, without those bound to a start file."""
    bound = set(start_bound_columns(games))
    return [c for c in varying_columns(games) if c not in bound]


def cell_label(row: pd.Series | dict[str, Any], columns: Sequence[str]) -> str:
    """A short label such as ``season=winter swamp=off · greedy vs random`` from the varying columns."""
    parts = [f"{c}={_fmt(row[c])}" for c in columns if not is_agent(c)]
    agents = [c for c in columns if is_agent(c)]
    if agents:
        named = [c for c in row if is_agent(str(c))] if isinstance(row, dict) else [c for c in row.index if is_agent(c)]
        parts.append("· " + " vs ".join(str(row.get(c, "?")) for c in named))
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


def summarize_cells(games: pd.DataFrame, events: pd.DataFrame | None = None,
                    threshold: float = UNFINISHED_THRESHOLD, margin: float = MARGIN) -> pd.DataFrame:
    """One row per cell: advantage, decisiveness and length with intervals, unfinished share and flag,
    the verdict in words, per-seat win shares, victory kinds, captures, Ludii's measures.

    ``events`` (the simulation's event table) fills branching factor, decision share, lead
    changes and drama when the games table lacks them.
    """
    usable = check_games(games)
    frame, keys = _group_keys(usable)
    per_game = per_game_event_measures(events, usable.set_index("game_id")["winner"]
                                       if "game_id" in usable.columns else None,
                                       seats_of(usable)) if events is not None and len(events) else None
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
        row.update(summarize_games(g, threshold=threshold, margin=margin))
        rows.append(row)
    return pd.DataFrame(rows)


def summarize_games(g: pd.DataFrame, threshold: float = UNFINISHED_THRESHOLD, margin: float = MARGIN) -> dict[str, Any]:
    """All the measures of one group of (normalized, error-free) games, as a flat dict."""
    if "outcome" not in g.columns:
        g = normalize(g)
    seats = seats_of(g)
    schema = table_schema(g)  # the game's own vocabulary: victory kinds in the rulebook's order, piece kinds
    n = len(g)
    outcome = g["outcome"]
    decided = int((outcome == "win").sum())
    draws = int((outcome == "draw").sum())
    unfinished = int((outcome == "unfinished").sum())
    # draws forced by a limit rule (Param.limit: a turn limit) count with the unfinished games, never as even play
    limit = int(g["limit_draw"].astype(bool).sum()) if "limit_draw" in g.columns else 0
    out: dict[str, object] = {"games": n, "decided": decided, "draws": draws, "unfinished": unfinished,
                              "limit_draws": limit}
    draws -= limit
    teams = teams_of(g)
    if teams:  # the sides are the teams: a seat wins when its team wins, the first team holds the first seat
        side_of = {s: t for t in teams for s in team_members(t, seats)}
        won = g["winner"].astype(str).map(side_of)
        sides = tuple(f"team {t}" for t in teams)
        side_wins = {f"team {t}": int(((outcome == "win") & (won == t)).sum()) for t in teams}
        wins = {s: side_wins[f"team {side_of[s]}"] for s in seats}
    else:
        wins = {s: int(((outcome == "win") & (g["winner"] == s)).sum()) for s in seats}
        sides, side_wins = seats, wins
    for side, k in wins.items():
        lo, hi = wilson_interval(k, n)
        out[f"{side}_wins"] = k
        out[f"{side}_rate"], out[f"{side}_low"], out[f"{side}_high"] = k / n, lo, hi  # share of all games
    out["no_winner"] = n - decided
    first = side_wins[sides[0]]
    out["advantage"] = first / decided if decided else math.nan  # the first side's share of decided games
    out["advantage_low"], out["advantage_high"] = wilson_interval(first, decided)
    finished = decided + draws
    points = first + draws / len(sides)
    if teams:
        out["sides"] = ",".join(teams)
        out["fair"] = 1 / len(sides)
        results = []
        for side, k in side_wins.items():  # each team: wins of all games, and its score with draws as 1/k
            pts = k + draws / len(sides)
            lo, hi = wilson_interval(k, n)
            slo, shi = (wilson_interval(pts, finished)  # type: ignore[arg-type]  # draws count 1/k
                        if finished else (math.nan, math.nan))
            results.append((side, k, k / n, lo, hi, pts / finished if finished else math.nan, slo, shi))
        out["team_results"] = tuple(results)
    out["score"] = points / finished if finished else math.nan  # draws as 1/k (a half for two seats)
    out["score_low"], out["score_high"] = (wilson_interval(points, finished)  # type: ignore[arg-type]  # draws as 1/k
                                          if finished else (math.nan, math.nan))
    out["decisive"] = decided / n
    out["decisive_low"], out["decisive_high"] = wilson_interval(decided, n)
    out["completion"] = out["decisive"]  # the older name of the share decided
    out["completion_low"], out["completion_high"] = out["decisive_low"], out["decisive_high"]
    out["unfinished_rate"] = unfinished / n
    out["unfinished_low"], out["unfinished_high"] = wilson_interval(unfinished, n)
    out["limit_rate"] = limit / n
    out["limit_low"], out["limit_high"] = wilson_interval(limit, n)
    out["flagged"] = (unfinished + limit) / n > threshold
    out["timeouts"] = unfinished
    out["timeout_rate"] = unfinished / n
    out["verdict"] = cell_verdict(out, sides, threshold, margin)
    # the older single number, now over decided games and never for a flagged cell (it read 1.000 for a cell
    # whose games all hit the cap): 1 - |first side's share - second side's share| of the decided games
    second = side_wins[sides[1]] if len(sides) > 1 else 0
    out["balance"] = (math.nan if out["flagged"] or not decided
                      else 1 - abs(first - second) / decided)
    victories = schema.victories
    for kind in (*[k for k in victories if k not in ("draw", "unfinished")],
                 *sorted(set(map(str, g["victory"])) - set(victories) - {"draw", "unfinished"}), "draw", "unfinished"):
        out[f"share_{kind}"] = float((g["victory"] == kind).mean())
    km = length_summary(g["length"].astype(float), (outcome != "unfinished").to_numpy())
    out["length_median"], out["length_low"], out["length_high"] = km.median, km.low, km.high
    out["length_q1"], out["length_q3"] = km.q1, km.q3
    plies = g["plies"].astype(float)  # raw plies, capped games at the cap: descriptive only, not a length estimate
    out["plies_mean"], out["plies_low"], out["plies_high"] = _non_negative(mean_interval(plies))
    out["plies_median"] = float(plies.median())
    out["plies_q1"], out["plies_q3"] = (float(q) for q in plies.quantile([0.25, 0.75]))
    for side in seats:
        for kind in schema.loss_kinds:
            col = f"lost_{side}_{kind}"
            if col in g.columns:
                out[col] = float(g[col].astype(float).mean())
    for col in ("mean_branching", "decision_share", "lead_changes", "drama"):
        if col in g.columns and g[col].notna().any():
            out[col], out[f"{col}_low"], out[f"{col}_high"] = _non_negative(mean_interval(g[col].astype(float)))
    return out


def cell_verdict(row: dict[str, Any], seats: Sequence[str], threshold: float = UNFINISHED_THRESHOLD,
                 margin: float = MARGIN) -> str:
    """The cell's balance in words; "balanced" only with enough finished games and a narrow interval.

    ``seats`` are the sides: the seats, or in a team game the teams (``team ab``), fair being one in as many."""
    first, fair = seats[0].capitalize(), 1 / len(seats)
    limit = int(row.get("limit_draws", 0) or 0)
    share = (row["unfinished"] + limit) / row["games"] if row["games"] else math.nan
    if share > threshold:
        if limit:
            return (f"unfinished: {100 * share:.0f}% of games hit the cap or were drawn by a limit rule "
                    f"({limit} limit draws; over {100 * threshold:.0f}%), no balance verdict")
        return (f"unfinished: {100 * share:.0f}% of games hit the cap (over {100 * threshold:.0f}%), "
                "no balance verdict")
    if not row["decided"]:
        return "no decided game: no balance verdict"
    lo, hi = row["advantage_low"], row["advantage_high"]
    if lo > fair:
        return f"favours {first} ({100 * row['advantage']:.0f}% of decided games)"
    if hi < fair:
        other = seats[1].capitalize() if len(seats) == 2 else \
            f"the {'teams' if first.startswith('Team ') else 'seats'} after {first}"
        return f"favours {other} ({first} {100 * row['advantage']:.0f}% of decided games)"
    if fair - margin <= lo and hi <= fair + margin:
        return f"balanced (within {100 * margin:.0f} points of {100 * fair:.0f}%)"
    return (f"no clear advantage, too few decided games to call it balanced "
            f"(interval {100 * lo:.0f}–{100 * hi:.0f}%)")


def _non_negative(interval: tuple[float, float, float]) -> tuple[float, float, float]:
    """A t-interval of a measure that cannot be negative (plies, counts, shares), cut at 0."""
    mean, low, high = interval
    return mean, low if math.isnan(low) else max(0.0, low), high


def per_game_event_measures(events: pd.DataFrame, winners: pd.Series | None = None,
                            seats: Sequence[str] | None = None) -> pd.DataFrame:
    """Per game from the events table: mean branching factor, decision share, lead changes, drama.

    The same definitions as the games table columns that ``workbench.simulate`` writes, so either
    source gives the same numbers:

    - branching factor: mean number of legal actions at each turn (``n_legal``);
    - decision share: share of turns with more than one legal action;
    - lead changes: how often the leader (sign of ``eval_<first seat>`` after each action, the first seat's
      evaluation) changes, level evaluations skipped (Ludii's *lead change*, as a count per game);
    - drama: mean, over the positions the eventual winner faced (after the opponent's actions),
      of how far behind the winner was (0 when ahead); Ludii's *drama*. 0 without a winner.
      Needs ``winners`` (game_id -> a seat or 'none') and ``seats`` (the two seats, the first first).
    """
    need = {"game_id", "ply", "n_legal"}
    if not need <= set(events.columns):
        raise BalanceError(f"the events table needs columns {sorted(need)}; it has {sorted(map(str, events.columns))}")
    ev = events.sort_values(["game_id", "ply"])
    out = ev.groupby("game_id").agg(
        mean_branching=("n_legal", "mean"),
        decision_share=("n_legal", lambda s: float((s > 1).mean())),
    )
    evals = [c for c in ev.columns if str(c).startswith("eval_")]
    first = f"eval_{seats[0]}" if seats else (evals[0] if len(evals) == 1 else None)
    if first is not None and first in ev.columns:
        pair = tuple(seats) if seats else (first[len("eval_"):],)
        out["lead_changes"] = ev.groupby("game_id")[first].apply(lead_changes)
        if winners is not None and "side" in ev.columns and len(pair) == 2:
            out["drama"] = [drama(g[first], g["side"], str(winners.get(gid, "none")), pair)
                            for gid, g in ev.groupby("game_id")]
    return out.reset_index()


def lead_changes(evals: Sequence[float] | pd.Series) -> int:
    """Number of times the sign of the first seat's evaluation changes along a game, level evaluations skipped."""
    signs = [np.sign(v) for v in np.asarray(evals, dtype=float) if not np.isnan(v) and v != 0]
    return int(sum(a != b for a, b in zip(signs, signs[1:], strict=False)))


def drama(evals: Sequence[float], movers: Sequence[str], winner: str, seats: Sequence[str]) -> float:
    """Mean shortfall of the winner over the positions they faced (after the opponent moved).

    ``evals`` are the first seat's evaluations after each action (positive: the first seat ahead) and
    ``movers`` the seat that made it, one of the two ``seats`` (the first first). 0 when nobody won or the
    winner never faced one.
    """
    if winner not in seats:
        return 0.0
    sign = 1.0 if winner == seats[0] else -1.0
    faced = [max(0.0, -sign * float(v)) for v, m in zip(evals, movers, strict=True) if m != winner]
    return sum(faced) / len(faced) if faced else 0.0
