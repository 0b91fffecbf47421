"""Pictures of any game: ``generic`` draws every layout a game declares (hex, square) with its glyphs.

- ``generic.board_svg(state)`` / ``generic.draw_board(state)`` (SVG, matplotlib), heat with a colour bar,
  ``generic.batch_rule_maps`` for simulation events.

TerraFeud shortcuts (its own pictures live in ``workbench.games.terrafeud.viz``: terrain, river, Orders,
heatmaps, movement graphs; reached lazily through the registry, so this package imports no game):
``board_svg``, ``before_after_svg``, ``scenario_pictures``, ``Layout`` and its modules ``svg``,
``mpl``, ``scene``, ``layout``, ``heat`` and ``graph`` (``from workbench.viz import heat``).
"""

from __future__ import annotations

import importlib
from typing import Any

from workbench.games import shortcut

SHORTCUTS = ("Layout", "before_after_svg", "board_svg", "scenario_pictures")
SHORTCUT_MODULES = ("graph", "heat", "layout", "mpl", "scene", "svg")


def __getattr__(name: str) -> Any:
    """TerraFeud's picture names and modules, from before the workbench hosted several games."""
    if name == "generic":
        return importlib.import_module(f"{__name__}.generic")
    if name in SHORTCUTS or name in SHORTCUT_MODULES:
        return shortcut("viz", name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["Layout", "before_after_svg", "board_svg", "scenario_pictures"]  # noqa: F822 - lazy, see __getattr__
