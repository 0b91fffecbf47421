"""The one interactive board: ``Board(game=...)`` (``GameBoard`` over ``GameBoardController``) for every game of
the protocol, each game adding only declarations on its ``GameDef`` (layout, glyphs, legend, overlays, editor
pieces, target kinds, the class names of its older page). ``HexBoard(...)`` is the board's first name: the one
board on the workbench's default game.
"""

from typing import Any

from .board_controller import GameBoardController
from .common import WidgetError

__all__ = ["Board", "GameBoard", "GameBoardController", "HexBoard", "WidgetError"]  # noqa: F822 - the boards are lazy


def __getattr__(name: str) -> Any:
    """Lazy: the boards need anywidget."""
    if name in ("Board", "GameBoard", "HexBoard"):
        from . import board

        return getattr(board, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
