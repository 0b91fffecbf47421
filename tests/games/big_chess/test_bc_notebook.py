"""``notebooks/08_big_chess.ipynb`` runs top to bottom: card diagrams, a ruling picture, a price and a team batch."""

from __future__ import annotations

import pytest
from nbhelp import execute_notebook


@pytest.mark.notebook
def test_big_chess_notebook_executes() -> None:
    outputs = execute_notebook("08_big_chess.ipynb", timeout=240)
    text = "".join(o.get("text", "") for o in outputs)
    assert "knight (Конь), cost 30" in text and "facing of the pawn on 3,8: a:infantry:N" in text
    assert "knight at 10:" in text and "With teams ab,cd" in text and "With teams ac,bd" in text
    assert any("image/png" in o.get("data", {}) for o in outputs)
