"""The interactive boards: the general ``Board(game=...)`` (``GameBoard`` over ``GameBoardController``, any
game of the protocol), and each game's own board where it has one (``GameDef.board``).

A game's own board lives in its package (TerraFeud's ``HexBoard`` and ``BoardController``:
``workbench.games.terrafeud.widget``); ``Board("terrafeud")`` reaches it through the registry.
"""

from typing import Any

from .board_controller import GameBoardController
from .common import WidgetError

__all__ = ["Board", "GameBoard", "GameBoardController", "WidgetError"]  # noqa: F822 - Board, GameBoard are lazy


def __getattr__(name: str) -> Any:
    """Lazy: the boards need anywidget."""
    if name in ("Board", "GameBoard"):
        from . import board

        return getattr(board, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
