"""TerraFeud's own board: ``HexBoard`` (an anywidget) over ``BoardController`` (all of its behaviour).

``controller.py`` decides (targets, Orders, the move tree, heat, evaluation, the rule-change diff,
scenario checks, the editor); ``hexboard.py`` checks every browser message and syncs JSON;
``hexboard.js``/``hexboard.css`` draw. It is built on the boards' shared parts in
``workbench.widget`` (``common``, ``fields``, ``tree``); ``Board("terrafeud")`` and
``workbench.widget.HexBoard`` reach it through the registry.
"""

from typing import Any

from .controller import BoardController, WidgetError

__all__ = ["BoardController", "HexBoard", "WidgetError"]  # noqa: F822 - HexBoard is lazy


def __getattr__(name: str) -> Any:
    """``HexBoard`` on first use, so the controller works without anywidget."""
    if name == "HexBoard":
        from .hexboard import HexBoard

        return HexBoard
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
