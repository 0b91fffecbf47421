"""The interactive boards: the general ``Board(game=...)`` (``GameBoard`` over ``GameBoardController``, any
game of the protocol), and each game's own board where it has one (``GameDef.board``).

TerraFeud shortcuts (its board lives in ``workbench.games.terrafeud.widget``, reached lazily through
the registry, so this package imports no game): ``HexBoard``, ``BoardController`` and the modules
``hexboard`` and ``controller``. ``Board()`` with no game is TerraFeud's ``HexBoard``.
"""

from typing import Any

from workbench.games import shortcut

from .board_controller import GameBoardController
from .common import WidgetError

SHORTCUTS = ("BoardController", "HexBoard")
SHORTCUT_MODULES = ("controller", "hexboard")

__all__ = ["Board", "BoardController", "GameBoard", "GameBoardController", "HexBoard", "WidgetError"]  # noqa: F822


def __getattr__(name: str) -> Any:
    """Lazy: the boards need anywidget, and TerraFeud's names resolve through the registry."""
    if name in ("Board", "GameBoard"):
        from . import board

        return getattr(board, name)
    if name in SHORTCUTS or name in SHORTCUT_MODULES:
        return shortcut("widget", name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
