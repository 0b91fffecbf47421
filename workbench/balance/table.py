"""The games-table contract that balance reads, for any game: outcomes, seats, agents, rules and the cap.

A balance question is asked of a table, never of an engine. The contract (multi-game):

- ``winner``: the winning seat's name or ``"none"``; ``victory``: the game's own word, ``"unfinished"``
  for a game cut by the cap, ``"draw"`` for a draw by the rules; ``outcome`` in {win, draw, unfinished}
  (derived from winner and victory when absent);
- ``plies`` (actions played), ``turns`` (optional: plies stand in), ``max_plies`` (the cap; optional:
  then the batch manifest, else inferred from the longest unfinished game, and the report says so);
- ``game`` and ``players`` (comma-joined seat names in seat order): the table's metadata says them
  (``DataFrame.attrs["workbench.table"]``, written by simulate), else its columns; a table older than both
  is recognised by the columns its game declares (``GameDef.table.games_columns``), never assumed;
- agents: ``agent_<seat>`` (older tables' names, such as ``white_agent``, are the ones the game declares
  in ``TableSchema.renamed_columns``; ``migrate_table`` adds today's); rules: the plain rule columns the
  game declares (``TableSchema.rule_columns``), or a ``rules`` column with the cell's non-default rules
  (``"season=winter,x=3"``).

Why censoring matters: a game cut by the cap is not a draw. It says only "longer than the cap", so
length is a censored time (Kaplan-Meier, ``survival``) and a cell with many such games has no
balance verdict: who would have won is unknown.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from workbench.core.protocol import TableSchema

from .stats import BalanceError

OUTCOMES: tuple[str, ...] = ("win", "draw", "unfinished")
UNFINISHED_THRESHOLD = 0.20  # a cell with more unfinished games than this has no balance verdict
DEFAULT_RULE = "default"  # the value of a rule a generic ``rules`` label does not name


def _blank(value: object) -> bool:
    if value is None:
        return True
    try:
        if pd.isna(value):
            return True
    except (TypeError, ValueError):
        return False
    return str(value).strip() in ("", "none")


def derive_outcome(winner: object, victory: object) -> str:
    """``win`` when a seat won, ``unfinished`` when the cap cut the game, ``draw`` otherwise.

    A game without a winner whose victory word is neither ``unfinished`` nor ``error`` was ended
    by its rules (a draw by agreement, repetition, ``draw_after``...): a draw.
    """
    if str(victory) == "unfinished":
        return "unfinished"
    return "draw" if _blank(winner) else "win"


TABLE_ATTR = "workbench.table"  # DataFrame.attrs key of the table's own metadata (simulate's read_results)


def table_meta(games: pd.DataFrame) -> dict[str, Any] | None:
    """The metadata a table carries (game, rules spec, seats, cap, schema version), or None (an older table)."""
    meta = games.attrs.get(TABLE_ATTR)
    return meta if isinstance(meta, dict) else None


def _game_def(name: str) -> Any:
    from workbench.games import get

    try:
        return get(name)
    except (ImportError, KeyError, ValueError) as exc:
        raise BalanceError(f"the table's game {name!r} is not one of this workbench's games ({exc})") from None


def _game_by_columns(columns: Sequence[object]) -> str | None:
    """The one registered game whose declared columns (``TableSchema.games_columns``, older names included) hold
    every column of a table that names no game: a table from before tables said their game. None when no
    game, or more than one, declares such columns (a game without declared columns is never recognised)."""
    from workbench.games import get, names

    have = {str(c) for c in columns}
    found = []
    for name in names():
        try:
            table = get(name).table
        except (ImportError, ValueError):
            continue
        declared = {c for c, _ in table.games_columns} | {old for old, _ in table.renamed_columns}
        if declared and {"winner", "victory", "plies"} <= have and have <= declared:
            found.append(name)
    return found[0] if len(found) == 1 else None


def table_game(games: pd.DataFrame, game: str | None = None) -> str:
    """The game of a table: ``game`` when the caller names it, else its metadata, else its ``game`` column,
    else the one game whose declared columns it has (a table older than both); a ``BalanceError`` otherwise."""
    if game:
        return str(_game_def(game).name)
    meta = table_meta(games) or {}
    if meta.get("game"):
        return str(meta["game"])
    if "game" in games.columns:
        values = {str(v) for v in games["game"] if not _blank(v)}
        if len(values) == 1:
            return values.pop()
        if len(values) > 1:
            raise BalanceError(f"the table mixes games ({', '.join(sorted(values))}); report one game at a time")
    found = _game_by_columns(list(games.columns))
    if found is None:
        raise BalanceError("the table says nothing of its game (no metadata, no game column, and its columns are "
                           "not those any game declares); pass the game: migrate_table(games, game=NAME)")
    return found


def table_schema(games: pd.DataFrame) -> TableSchema:
    """How the table's game lays out its rows (``GameDef.table``); an unknown or mixed table declares nothing."""
    try:
        return _game_def(table_game(games)).table  # type: ignore[no-any-return]
    except BalanceError:
        return TableSchema()


def migrate_table(games: pd.DataFrame, game: str | None = None) -> pd.DataFrame:
    """The one migration of tables written by earlier versions to today's columns (a copy; today's table as is).

    Its game is ``table_game``'s (metadata, ``game`` column, or the game whose declared columns a round-2
    table has). Its seats are the metadata's, else its ``players`` column, else its game's. Each seat's agent
    is ``agent_<seat>``: a table that names them as its game's older columns (``TableSchema.renamed_columns``,
    TerraFeud's ``white_agent``/``black_agent``) gets today's columns too (the old ones stay, so old code reads
    them). The cap is the metadata's when the rows have none.
    """
    meta = table_meta(games) or {}
    df = games.copy()
    try:
        name: str | None = table_game(games, game)
    except BalanceError:  # a table of no known game: read by its own columns, if they say its seats
        if "players" not in df.columns or df["players"].map(_blank).any():
            raise
        name = None
    if name is None:
        return df
    gdef = _game_def(name)
    if "game" not in df.columns:
        df["game"] = name
    df["game"] = df["game"].map(lambda v: name if _blank(v) else str(v))
    if "players" not in df.columns or df["players"].map(_blank).any():
        seats = ",".join(meta.get("seats") or []) or ",".join(gdef.info(gdef.spec.defaults()).players)
        if "players" not in df.columns:
            df["players"] = seats
        df["players"] = df["players"].map(lambda v: seats if _blank(v) else v)
    for old, new in gdef.table.renamed_columns:
        if old not in df.columns:
            continue
        if new not in df.columns:
            df[new] = df[old]
        else:  # a resumed old dataset: its older rows have no value under today's name
            df[new] = df[new].where(~df[new].map(_blank), df[old])
    if "max_plies" not in df.columns and meta.get("max_plies"):
        df["max_plies"] = int(meta["max_plies"])
    return df


def normalize(games: pd.DataFrame) -> pd.DataFrame:
    """The table with the contract's derived columns filled: ``outcome``, ``game``, ``players``, ``length``.

    Refuses (in words) a table that mixes games or seat lists, an unknown ``outcome`` value, or a
    win whose winner is not one of the seats. ``length`` is ``turns`` where given, else ``plies``.
    """
    df = migrate_table(games)
    df["players"] = df["players"].map(lambda v: str(v).replace(" ", ""))
    for col, what in (("game", "games"), ("players", "seat lists")):
        if col not in df.columns:  # a table of no known game, read by its own columns
            continue
        values = sorted(df[col].unique())
        if len(values) > 1:
            raise BalanceError(f"the table mixes {what} ({', '.join(values)}); a balance study reads one game "
                               f"with one seat order: select one first, e.g. games[games.{col} == {values[0]!r}]")
    if "outcome" in df.columns and df["outcome"].notna().all():
        bad = sorted(set(map(str, df["outcome"])) - set(OUTCOMES))
        if bad:
            raise BalanceError(f"outcome {bad[0]!r} is not one of {', '.join(OUTCOMES)}")
        df["outcome"] = df["outcome"].astype(str)
    else:
        df["outcome"] = [derive_outcome(w, v) for w, v in zip(df["winner"], df["victory"], strict=True)]
    seats = seats_of(df)
    if "teams" in df.columns:  # a team game's winner is its team ("cd"): read as its first seat, which wins with it
        df["winner"] = [_seat_of_winner(w, t, seats) for w, t in zip(df["winner"], df["teams"], strict=True)]
    wins = df["outcome"] == "win"
    strangers = sorted(set(map(str, df.loc[wins, "winner"])) - set(seats))
    if strangers:
        raise BalanceError(f"winner {strangers[0]!r} is not a seat of players {','.join(seats)!r}")
    if "limit_draw" not in df.columns:
        df["limit_draw"] = limit_draws(df)
    if "turns" in df.columns and df["turns"].notna().all():
        df["length"] = df["turns"].astype(float)
    else:
        df["length"] = df["plies"].astype(float)
    return df


def _seat_of_winner(winner: object, teams: object, seats: Sequence[str]) -> object:
    """``cd`` (a team text in ``teams``) -> ``c``; a seat or no winner unchanged."""
    if _blank(winner) or _blank(teams) or str(winner) in seats:
        return winner
    for t in str(teams).replace(" ", "").split(","):
        if str(winner) == t:
            members = team_members(t, seats)
            if members and members[0] in seats:
                return members[0]
    return winner


def limit_rules(game: str) -> tuple[Any, ...]:
    """The ``Param``s a game declares as limit rules (``Param.limit``: a turn cap, a quiet-move draw); () when the
    game is not installed here."""
    try:
        from workbench.games import get

        spec = get(game).spec
    except (ImportError, KeyError, ValueError, AttributeError):
        return ()
    return tuple(p for p in spec if getattr(p, "limit", False))


def limit_draws(games: pd.DataFrame) -> pd.Series:
    """Per game, True for a draw forced by a limit rule: a draw of a game whose declared limit rules were on.

    Why: such a draw says "nobody won in time", not "the sides are even"; reports count it with the
    unfinished games, never as a balanced result. A limit rule is on when its value (the table's column,
    else the rulebook default) is set and not 0.
    """
    out = pd.Series(False, index=games.index)
    if "outcome" not in games.columns or "game" not in games.columns or not len(games):
        return out
    params = limit_rules(str(games["game"].iloc[0]))
    if not params:
        return out
    on = pd.Series(False, index=games.index)
    for p in params:
        col = games[p.name] if p.name in games.columns else pd.Series([p.default] * len(games), index=games.index)
        on |= col.map(lambda v: not _blank(v) and v not in (0, False, "0", "none", "false"))
    return (games["outcome"] == "draw") & on


def seats_of(games: pd.DataFrame) -> tuple[str, ...]:
    """Seat names in seat order (the first is the first to move), from ``players``, else the table's
    metadata, else its game's seats."""
    if "players" in games.columns and len(games) and not _blank(games["players"].iloc[0]):
        return tuple(str(games["players"].iloc[0]).replace(" ", "").split(","))
    meta = table_meta(games) or {}
    if meta.get("seats"):
        return tuple(str(s) for s in meta["seats"])
    gdef = _game_def(table_game(games))
    return tuple(gdef.info(gdef.spec.defaults()).players)


def team_members(team: str, seats: Sequence[str]) -> tuple[str, ...]:
    """The seats of one team text: ``ab`` -> (a, b) for one-letter seats, ``p1+p2`` for longer names, a seat alone."""
    if team in seats:
        return (team,)
    if "+" in team:
        return tuple(team.split("+"))
    return tuple(team)


def teams_of(games: pd.DataFrame) -> tuple[str, ...] | None:
    """The teams of a group of games (its ``teams`` column, ``ab,cd``), ordered by who moves first, when every
    row has the same teams and some team has two or more seats; None otherwise (every seat for itself, or a
    table without teams: its sides are its seats).

    The first team is the one holding the first seat: a team game's advantage is that team's share.
    """
    if "teams" not in games.columns or not len(games):
        return None
    values = games["teams"].map(lambda v: "" if _blank(v) else str(v).replace(" ", "")).unique()
    if len(values) != 1 or not values[0]:
        return None
    seats = seats_of(games)
    teams = [t for t in values[0].split(",") if t]
    members = [team_members(t, seats) for t in teams]
    if all(len(m) == 1 for m in members) or any(s not in seats for m in members for s in m):
        return None
    order = {s: i for i, s in enumerate(seats)}
    return tuple(t for t, _ in sorted(zip(teams, members, strict=True), key=lambda tm: min(order[s] for s in tm[1])))


def first_side_won(games: pd.DataFrame) -> pd.Series:
    """Per game, whether the side of the first seat won: the seat itself, or in a team game (row by row, so a
    table whose cells have different teams works) any seat of its team."""
    if not len(games):
        return pd.Series([], index=games.index, dtype=bool)
    seats = seats_of(games)
    first = seats[0]
    if "teams" not in games.columns:
        return games["winner"].astype(str) == first

    def won(winner: object, teams: object) -> bool:
        if _blank(teams):
            return str(winner) == first
        for t in str(teams).replace(" ", "").split(","):
            members = team_members(t, seats)
            if first in members:
                return str(winner) in members
        return str(winner) == first

    return pd.Series([won(w, t) for w, t in zip(games["winner"], games["teams"], strict=True)], index=games.index,
                     dtype=bool)


def first_side_name(games: pd.DataFrame) -> str:
    """``a`` (the first seat), or ``a's team`` when some game of the table is a team game."""
    first = seats_of(games)[0]
    if "teams" in games.columns and any(teams_of(g) for _, g in games.groupby(games["teams"].astype(str))):
        return f"{first}'s team"
    return first


def length_unit(games: pd.DataFrame) -> str:
    """``turns`` when the table counts them, else ``plies``."""
    return "turns" if "turns" in games.columns and games["turns"].notna().all() else "plies"


def agent_columns(games: pd.DataFrame) -> list[str]:
    """The columns naming each seat's agent: ``agent_<seat>``, or in a table not yet migrated the older name its
    game declares for it (``TableSchema.renamed_columns``: ``white_agent``); ``migrate_table`` adds today's."""
    if all(f"agent_{s}" in games.columns for s in seats_of(games)):
        return [f"agent_{s}" for s in seats_of(games)]
    older = {new: old for old, new in table_schema(games).renamed_columns}
    out = []
    for s in seats_of(games):
        name = f"agent_{s}" if f"agent_{s}" in games.columns else older.get(f"agent_{s}", "")
        if name in games.columns:
            out.append(name)
    return out


def parse_rules_label(text: object) -> dict[str, str]:
    """``"season=winter,archer_range=3"`` -> ``{"season": "winter", "archer_range": "3"}``; blank -> {}.

    A value may hold commas (``Rules.label`` writes a list or a team string as ``teams=ab,cd``): an item
    without ``=`` continues the value before it, so ``teams=ab,cd,max_turns=80`` is two rules.
    """
    if _blank(text) or str(text).strip() == DEFAULT_RULE:
        return {}
    out: dict[str, str] = {}
    name = None
    for item in str(text).split(","):
        item = item.strip()
        if not item:
            continue
        if "=" not in item:
            if name is None:
                raise BalanceError(f"rules label {text!r}: {item!r} is not name=value")
            out[name] = f"{out[name]},{item}"
            continue
        name, value = item.split("=", 1)
        name = name.strip()
        out[name] = value.strip()
    return out


def label_rule_names(games: pd.DataFrame) -> list[str]:
    """Rule names that a generic ``rules`` column names anywhere in the table, in first-seen order."""
    if "rules" not in games.columns:
        return []
    names: dict[str, None] = {}
    for label in games["rules"].dropna().unique():
        for name in parse_rules_label(label):
            names[name] = None
    return list(names)


def expand_rules(games: pd.DataFrame) -> pd.DataFrame:
    """One column per rule a ``rules`` label names (``default`` where a cell leaves it at the rulebook's).

    A column the table already has (TerraFeud's plain toggle columns) is left as it is.
    """
    names = [n for n in label_rule_names(games) if n not in games.columns]
    if not names:
        return games
    parsed = games["rules"].map(parse_rules_label)
    df = games.copy()
    for name in names:
        df[name] = parsed.map(lambda d, n=name: d.get(n, DEFAULT_RULE))
    return df


@dataclass
class Study:
    """What every number of a report shares: the game, its seats, the one cap and where it came from."""

    game: str
    seats: tuple[str, ...]
    cap: int | None
    cap_source: str
    unit: str
    games: int
    unfinished: int
    threshold: float = UNFINISHED_THRESHOLD
    caps: dict[int, int] = field(default_factory=dict)  # every cap in the table -> its games (mixed: > 1)
    warnings: list[str] = field(default_factory=list)

    @property
    def first(self) -> str:
        """The first seat's name (``white``)."""
        return self.seats[0]

    @property
    def fair(self) -> float:
        """The first seat's share of decided games in a fair game (1/2 for two seats)."""
        return 1.0 / len(self.seats)

    def sentence(self) -> str:
        """The cap stated once at the top of a report, with how many games it cut."""
        share = self.unfinished / self.games if self.games else math.nan
        cut = (f"{self.unfinished} of {self.games} games ({100 * share:.0f}%) reached it and are unfinished: "
               "censored in the length curves, left out of advantage, never counted as draws.")
        if self.cap is None:
            return (f"Cap: unknown ({self.cap_source}); no game is marked unfinished, so nothing was cut. "
                    f"{self.games} games.")
        return f"Cap: {self.cap} plies ({self.cap_source}). {cut}"


def manifest_cap(manifest: Mapping[str, Any] | None) -> int | None:
    """``max_plies`` of a batch manifest (``simulate``'s run record), if it has one."""
    if not manifest:
        return None
    value = manifest.get("max_plies")
    return None if value is None else int(value)


def study_of(games: pd.DataFrame, manifest: Mapping[str, Any] | None = None, mixed_caps: str = "refuse",
             threshold: float = UNFINISHED_THRESHOLD) -> Study:
    """The study a normalized table belongs to; one cap, or a refusal (``mixed_caps="warn"``: a loud warning).

    The cap comes from the ``max_plies`` column, else the manifest, else the longest unfinished game
    (a lower bound of the cap, said so).
    """
    if mixed_caps not in ("refuse", "warn"):
        raise BalanceError(f"mixed_caps must be 'refuse' or 'warn', got {mixed_caps!r}")
    if not 0 <= threshold <= 1:
        raise BalanceError(f"the unfinished threshold is a share between 0 and 1, got {threshold}")
    unfinished = games["outcome"] == "unfinished"
    warnings: list[str] = []
    caps: dict[int, int] = {}
    if "max_plies" in games.columns and games["max_plies"].notna().any():
        known = games["max_plies"].dropna().astype(int)
        caps = {int(k): int(v) for k, v in known.value_counts().sort_index().items()}
        cap: int | None = max(caps)
        source = "the table's max_plies column"
        if known.size < len(games):
            warnings.append(f"{len(games) - known.size} games have no max_plies; they are taken to share the cap.")
    elif manifest_cap(manifest) is not None:
        cap = manifest_cap(manifest)
        source = "the batch manifest"
    elif unfinished.any():
        cap = int(games.loc[unfinished, "plies"].max())
        source = ("inferred from the longest unfinished game: the table has no max_plies column and no "
                  "manifest, so the true cap may be higher")
        warnings.append(f"The cap is inferred ({cap} plies, the longest unfinished game), not read from the table.")
    else:
        cap, source = None, "the table has no max_plies column and no manifest, and no game is unfinished"
    if len(caps) > 1:
        listing = ", ".join(f"{k} plies ({v} games)" for k, v in caps.items())
        text = (f"the table mixes caps: {listing}. Decisiveness and length depend on the cap, so one study "
                f"uses one cap; select one (e.g. games[games.max_plies == {max(caps)}]) or re-run with one cap.")
        if mixed_caps == "refuse":
            raise BalanceError(text)
        warnings.insert(0, "WARNING: " + text[0].upper() + text[1:] + " The numbers below pool them anyway.")
    try:
        game = table_game(games)
    except BalanceError:
        game = ""  # a table of no known game: its report reads its columns alone
    return Study(game=game, seats=seats_of(games),
                 cap=cap, cap_source=source, unit=length_unit(games), games=len(games),
                 unfinished=int(unfinished.sum()), threshold=threshold, caps=caps, warnings=warnings)


def first_seat_score(games: pd.DataFrame, seats: tuple[str, ...] | None = None) -> pd.Series:
    """Per game, the first seat's result: 1 win, 0 loss, 1/k a draw (k seats), NaN when unfinished."""
    seats = seats or seats_of(games)
    first = seats[0]
    out = pd.Series(math.nan, index=games.index, dtype=float)
    out[games["outcome"] == "win"] = (games.loc[games["outcome"] == "win", "winner"] == first).astype(float)
    out[games["outcome"] == "draw"] = 1.0 / len(seats)
    return out


__all__ = [
    "DEFAULT_RULE", "OUTCOMES", "Study", "UNFINISHED_THRESHOLD", "agent_columns", "derive_outcome",
    "expand_rules", "first_seat_score", "first_side_name", "first_side_won", "label_rule_names", "length_unit", "manifest_cap", "normalize",
    "parse_rules_label", "seats_of", "study_of", "team_members", "teams_of",
]
