"""``notebooks/01_play.ipynb`` runs top to bottom (widgets render as outputs; no browser needed)."""

from __future__ import annotations

import re

import pytest
from nbhelp import execute_notebook


@pytest.mark.notebook
def test_play_notebook_executes() -> None:
    outputs = execute_notebook("01_play.ipynb")
    widgets = [o for o in outputs if "application/vnd.jupyter.widget-view+json" in o.get("data", {})]
    assert len(widgets) == 4  # three TerraFeud boards, then the same board on the chosen game
    assert "GameBoard" in widgets[-1]["data"]["text/plain"]
    text = "".join(o.get("text", "") for o in outputs)
    assert "['e3-e4'," in text and "white to move" in text
    assert re.search(r"Black attackers on e4: \d+\.\d", text)  # the threat layer's count on e4, from the state
    assert "castling=sacrifice" in text and "under season=summer:" in text
    assert "f5: k" in text and "checks:" in text
