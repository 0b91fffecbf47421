"""The one code that plays a batch's games: ``play_game`` for one spec, ``play_chunk`` for a worker's share.

Every game plays through ``protocol_play`` (a game that writes its own rows declares ``GameDef.play_row``,
which that loop hands the spec); a pool or Dask worker receives each spec with the game's name and rules and
resolves the game once per process. This module names no game.
"""

from __future__ import annotations

from collections.abc import Sequence

from .protocol_play import base_row, play_protocol_game, resolved
from .seeds import GameResult, GameSpec


def play_game(spec: GameSpec) -> GameResult:
    """Play one game to its end or the cap; never raises for a failure inside the game."""
    result: GameResult = play_protocol_game(spec)
    return result


def play_chunk(specs: Sequence[GameSpec]) -> list[GameResult]:
    """Several games in one task, to keep scheduling overhead small next to the games."""
    return [play_game(s) for s in specs]


def play_protocol_chunk(specs: Sequence[GameSpec]) -> list[GameResult]:
    """Several games in simulate's own ply-by-ply loop whatever the game, with the generic agents (restricted
    play bars actions there, in the Python engine, for every game alike; a game's own rows are not written)."""
    return [play_protocol_game(s, own_rows=False) for s in specs]


def error_result(spec: GameSpec, message: str) -> GameResult:
    """The row of a game that could not be played at all (its worker kept dying)."""
    game = resolved(spec.game)
    row = game.blank_row(spec)
    if row is None:
        row = base_row(spec, game, game.spec.make(spec.rules))
    row["victory"] = row["outcome"] = "error"
    row["error"] = message
    return GameResult(row)
