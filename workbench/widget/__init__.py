"""The interactive boards: ``HexBoard`` (TerraFeud's anywidget over ``BoardController``) and the general
``Board(game=...)`` (``GameBoard`` over ``GameBoardController``, any game of the protocol)."""

from .board_controller import GameBoardController
from .controller import BoardController, WidgetError

__all__ = ["Board", "BoardController", "GameBoard", "GameBoardController", "HexBoard", "WidgetError"]


def __getattr__(name: str):  # noqa: ANN202 - lazy, so the controller works without anywidget
    if name in ("Board", "GameBoard"):
        from . import board

        return getattr(board, name)
    if name == "HexBoard":
        from .hexboard import HexBoard

        return HexBoard
    raise AttributeError(name)
