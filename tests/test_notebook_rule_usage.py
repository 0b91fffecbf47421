"""``notebooks/05_rule_usage.ipynb`` runs top to bottom on a real grid: usage, dead rules, changes, association,
a response curve, where rules fire, a sentence per finding and the written report."""

from __future__ import annotations

import nbformat
import pytest
from nbhelp import NOTEBOOKS, execute_notebook


@pytest.mark.notebook
def test_rule_usage_notebook_executes() -> None:
    nb = nbformat.read(NOTEBOOKS / "05_rule_usage.ipynb", as_version=4)
    assert "MAX_PLIES = TERRAFEUD_STUDY_CAP" in nb.cells[1].source  # the same cap as notebook 04
    outputs = execute_notebook("05_rule_usage.ipynb", timeout=300)
    text = "".join(o.get("text", "") for o in outputs)
    markdown = "".join(o.get("data", {}).get("text/markdown", "") for o in outputs)
    images = sum("image/png" in o.get("data", {}) for o in outputs)
    html = "".join(o.get("data", {}).get("text/html", "") for o in outputs)
    assert "180 games" in text and " 0 errors" in text
    assert "- Dead rules (fired in under 1% of games in every cell):" in markdown
    assert "- Winter: " in markdown and "- Archer range 4: " in markdown
    assert "association, not cause" in markdown
    # was "→ 4: White wins" (over all games, capped ones included) at a cap of 160, not notebook 04's 120
    assert "archer_range 2 (rulebook) → 3 → 4: White's share of decided games" in markdown
    assert "median length" in markdown and "unfinished" in markdown
    # was a 168-row (cell, rule) table; now rules x cells, dead entries greyed
    usage_table = html.split("<table class='t usage'>")[1].split("</table>")[0]
    assert usage_table.count("<tr") == 1 + 23 and "class='dead'" in usage_table
    assert "counted rules never fired in these 180 games" in markdown
    assert "archer shots: " in text and "report.html" in text
    assert images >= 3  # usage matrix, response curve, rule locations
