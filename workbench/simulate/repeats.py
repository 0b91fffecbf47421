"""Games that repeat one another: how many of a batch's games are copies, so a report can say so.

Agents that search one position the same way can replay whole games from one start. A batch of n games that
holds copies holds fewer independent samples than n, and every interval computed as if the games were
independent is too narrow. Two counts:

- :func:`repeated_lines` reads the events table (``simulate --events``): games whose action sequences are
  equal, ply for ply, within one cell and one pair of agents. Exact.
- :func:`repeated_rows` reads the games table alone: games equal in every column a game's play decides
  (length, result, every rule counter and the game's own columns, branching), within one cell, agents and
  rung. Two different games rarely agree on all of them, so it is the count a report can give when no events
  were kept: it never misses a copy, and overcounts only where distinct (short) games tie on every figure.

A copy is a game equal to an earlier game of its group: ``repeats = games - distinct games``.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import pandas as pd

#: columns that name a game rather than describe its play: never part of its fingerprint
IDENTITY = frozenset({"game_id", "seed", "seconds", "engine", "error", "opening_seed"})


@dataclass(frozen=True)
class Repeats:
    """How many of ``games`` games are copies of another (``repeats``), and the largest group of equal games."""

    games: int
    repeats: int
    largest: int

    @property
    def distinct(self) -> int:
        """Games that are no copy of an earlier one."""
        return self.games - self.repeats

    def sentence(self, how: str = "move for move") -> str:
        """"16 of 100 games repeat an earlier game move for move (the largest group: 9 equal games) ...";
        ``how`` other than the exact count's ("in length, result and every counter") says that distinct games
        can tie on those figures, so it claims an upper bound on the copies, not copies."""
        if not self.repeats:
            return f"No game of {self.games} repeats another {how}."
        if how != "move for move":
            return (f"{self.repeats} of {self.games} games equal an earlier game {how} (the largest group: "
                    f"{self.largest} games). Copies of one game would look so, but distinct games can tie on these "
                    "figures, short ones especially; simulate --events counts the exact copies. Where copies are "
                    "many, intervals that count every game as independent are too narrow; a random opening "
                    "(simulate --opening K) makes games differ.")
        return (f"{self.repeats} of {self.games} games repeat an earlier game {how} (the largest group: "
                f"{self.largest} equal games), so the batch holds {self.distinct} distinct games, and intervals "
                "that count every game as independent are too narrow. A random opening (simulate --opening K) "
                "makes the games differ.")


def _count(keys: pd.Series) -> Repeats:
    sizes = keys.value_counts(dropna=False)
    return Repeats(int(len(keys)), int(len(keys) - len(sizes)), int(sizes.max()) if len(sizes) else 0)


def line_digests(events: pd.DataFrame) -> pd.Series:
    """Each game's action sequence (``action`` texts in ``ply`` order) as a digest, indexed by ``game_id``."""
    if not {"game_id", "ply", "action"} <= set(events.columns):
        raise ValueError("repeated games: the events table needs game_id, ply and action columns (simulate --events)")
    ordered = events.sort_values(["game_id", "ply"], kind="stable")
    return ordered.groupby("game_id", sort=True)["action"].agg(
        lambda a: hashlib.blake2b("\n".join(map(str, a)).encode(), digest_size=16).hexdigest())


def _group_columns(games: pd.DataFrame) -> list[str]:
    """What a copy must share with its original besides its play: the cell, the seats' agents, the rung."""
    return [c for c in games.columns if c == "cell" or c.startswith("agent_") or c in ("skill_budget", "skill_agent")]


def repeated_lines(games: pd.DataFrame, events: pd.DataFrame) -> Repeats:
    """Exact copies: games of one cell, agents and rung whose action sequences are equal (``events``).
    A game without events (ended before its first action) counts by its empty sequence."""
    digests = line_digests(events)
    lines = games["game_id"].map(digests).fillna("")
    key = games[_group_columns(games)].astype(str).agg("/".join, axis=1) + "/" + lines
    return _count(key)


def repeated_rows(games: pd.DataFrame) -> Repeats:
    """Games equal in every column their play decides (see the module), within a cell, agents and rung."""
    cols = [c for c in games.columns if c not in IDENTITY]
    if games.empty:
        return Repeats(0, 0, 0)
    key = games[cols].astype(str).agg("\x1f".join, axis=1)
    return _count(key)


__all__ = ["IDENTITY", "Repeats", "line_digests", "repeated_lines", "repeated_rows"]
