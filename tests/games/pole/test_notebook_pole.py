"""``notebooks/07_pole.ipynb`` runs top to bottom: the engine's odds table, the fortress-rounding ruling as
pictures, and a batch over two toggles stated in the report's own sentences (luck and the turtle)."""

from __future__ import annotations

import pytest
from nbhelp import execute_notebook


@pytest.mark.notebook
def test_pole_notebook_executes() -> None:
    outputs = execute_notebook("07_pole.ipynb", timeout=400)
    text = "".join(o.get("text", "") for o in outputs)
    html = "".join(o.get("data", {}).get("text/html", "") for o in outputs)
    markdown = "\n".join(o.get("data", {}).get("text/markdown", "") for o in outputs)
    assert "open field, n/36:" in text and "target in its fortress" in text
    assert "C catapult (d4)" in html  # the odds table's rows come from the engine's piece table
    assert "exact: d9xe9: 1/36 to remove the" in text and "down: d9xe9: 0/36 to remove the" in text
    assert "12 games, 0 errors" in text
    assert "### Decisiveness and the turtle" in markdown and "reached the 100-turn cap" in markdown
    assert "fortress_rounding=down" in markdown and "placement_fortress=any" in markdown
    assert "### Luck: was that game decided by dice?" in markdown and "Luck is, per game and side" in markdown
    # a handful of decided games carries no conclusion about the dice (issue 34)
    assert "so the dice shape" not in markdown and "so the dice nudge" not in markdown
    assert "Association:" not in markdown or "says nothing yet about whether the dice shape" in markdown
    pngs = [o for o in outputs if "image/png" in o.get("data", {})]
    assert len(pngs) >= 2  # the ruling's two boards and the batch maps
