"""The interactive board: ``HexBoard`` (an anywidget) over ``BoardController`` (its pure-Python logic)."""

from .controller import BoardController, WidgetError

__all__ = ["BoardController", "HexBoard", "WidgetError"]


def __getattr__(name: str):  # noqa: ANN202 - lazy, so the controller works without anywidget
    if name == "HexBoard":
        from .hexboard import HexBoard

        return HexBoard
    raise AttributeError(name)
