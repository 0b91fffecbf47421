"""Which code plays a game: the game's own simulate path, or the protocol's.

A game may bring its own path (``GameDef.shortcuts["simulate"]`` names the module; TerraFeud's keeps
its White/Black rows, fixed schema and native whole-game loop, see
``workbench.games.terrafeud.simulate`` for the names such a module provides). Every other game plays
through ``protocol_play``. This module names no game: it asks the registry.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from types import ModuleType

from workbench.games import get

from .seeds import GameResult, GameSpec


def own_path(game: str) -> ModuleType | None:
    """The module of ``game``'s own simulate path, or None when it plays through the protocol."""
    module = get(game).shortcuts.get("simulate")
    return None if module is None else importlib.import_module(module)


def play_game(spec: GameSpec) -> GameResult:
    """Play one game to its end or the cap on its game's path; never raises for a failure inside the game."""
    path = own_path(spec.game)
    if path is not None:
        return path.play_game(spec)
    from .protocol_play import play_protocol_game

    return play_protocol_game(spec)


def play_chunk(specs: Sequence[GameSpec]) -> list[GameResult]:
    """Several games in one task, to keep scheduling overhead small next to the games."""
    return [play_game(s) for s in specs]


def play_protocol_chunk(specs: Sequence[GameSpec]) -> list[GameResult]:
    """Several games on the protocol's path whatever the game (restricted play bars actions there, in the
    Python engine, for every game alike)."""
    from .protocol_play import play_protocol_game

    return [play_protocol_game(s) for s in specs]


def error_result(spec: GameSpec, message: str) -> GameResult:
    """The row of a game that could not be played at all (its worker kept dying)."""
    path = own_path(spec.game)
    if path is not None:
        row = path.base_row(spec)
    else:
        from .protocol_play import base_row

        game = get(spec.game)
        row = base_row(spec, game, game.spec.make(spec.rules))
    row["victory"] = row["outcome"] = "error"
    row["error"] = message
    return GameResult(row)
