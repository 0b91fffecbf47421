"""The registry of games: ``workbench.games.get(name)`` returns a game's ``GameDef``.

Each game is one package below this one (``terrafeud``, ``cursed_lands``, ``pole``, ``big_chess``),
imported only when asked for, so a tool that needs one game loads one game. ``openspiel:NAME`` names a
game of the ``open_spiel`` package played through the workbench's tools (``workbench.openspiel``).
"""

from __future__ import annotations

import importlib
import importlib.util
from functools import cache
from typing import TYPE_CHECKING

from workbench.core.rulespec import set_spec_finder

if TYPE_CHECKING:
    from workbench.core.protocol import GameDef
    from workbench.core.rulespec import RulesSpec

DEFAULT = "terrafeud"
# name (as scenario files and --game write it) -> package
PACKAGES: dict[str, str] = {
    "terrafeud": "workbench.games.terrafeud",
    "cursed-lands": "workbench.games.cursed_lands",
    "pole": "workbench.games.pole",
    "big-chess": "workbench.games.big_chess",
}


def register(name: str, package: str) -> None:
    """Add a game that lives outside this folder (a plug-in, or a test's tiny game) under ``name``."""
    key = canonical(name)
    PACKAGES[key] = package
    get.cache_clear()


class UnknownGameError(ValueError):
    """A game name that no package provides."""


def names() -> list[str]:
    """Names of the games this installation has, in registry order."""
    return [n for n, pkg in PACKAGES.items() if importlib.util.find_spec(pkg) is not None]


def canonical(name: str) -> str:
    """``cursed_lands``, ``Cursed-Lands`` and ``cursed-lands`` are one game."""
    return name.strip().lower().replace("_", "-")


@cache
def get(name: str | None = None) -> GameDef:
    """The ``GameDef`` of ``name`` (TerraFeud when None); ``UnknownGameError`` listing the known games."""
    if name is None:
        name = DEFAULT
    if not isinstance(name, str) or len(name) > 100:
        raise UnknownGameError("a game is named by text, such as terrafeud")
    if name.startswith("openspiel:"):
        from .spiel import spiel_game

        return spiel_game(name[len("openspiel:"):])
    key = canonical(name)
    if key not in PACKAGES or importlib.util.find_spec(PACKAGES[key]) is None:
        raise UnknownGameError(f"unknown game {name[:40]!r}; known: {', '.join(names())} (or openspiel:NAME)")
    game: GameDef = importlib.import_module(PACKAGES[key]).GAME
    return game


def spec_of(name: str) -> RulesSpec:
    """The rules spec of game ``name``: how an unpickled ``Rules`` finds its game again (``core.rulespec``)."""
    return get(name).spec


set_spec_finder(spec_of)
