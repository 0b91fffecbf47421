"""``notebooks/08_big_chess.ipynb`` runs top to bottom: card diagrams, a ruling picture, a price and a team batch,
threat heat per player and team."""

from __future__ import annotations

import pytest
from nbhelp import execute_notebook


@pytest.mark.notebook
def test_big_chess_notebook_executes() -> None:
    outputs = execute_notebook("08_big_chess.ipynb", timeout=240)
    text = "".join(o.get("text", "") for o in outputs)
    assert "knight (Конь), cost 30" in text and "facing of the pawn on 3,8: a:infantry:N" in text
    assert "knight at 10:" in text and "With teams ab,cd" in text and "With teams ac,bd" in text
    assert "the cell most threatened by team cd is" in text
    pngs = [o for o in outputs if "image/png" in o.get("data", {})]
    assert len(pngs) == 3  # the card diagrams, the ruling's board, the threat panels per player and team
    svg = next(o["data"]["image/svg+xml"] for o in outputs if "image/svg+xml" in o.get("data", {}))
    assert svg.count('class="pmark') == 3 + 4 + 3  # infantry NE: base 3 cells, level 0 adds a cell, level 1 moves on its strike cells
