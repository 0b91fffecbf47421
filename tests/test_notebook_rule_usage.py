"""``notebooks/05_rule_usage.ipynb`` runs top to bottom on a real grid: usage, dead rules, changes, association,
a response curve, where rules fire, a sentence per finding and the written report."""

from __future__ import annotations

import pytest
from nbhelp import execute_notebook


@pytest.mark.notebook
def test_rule_usage_notebook_executes() -> None:
    outputs = execute_notebook("05_rule_usage.ipynb", timeout=300)
    text = "".join(o.get("text", "") for o in outputs)
    markdown = "".join(o.get("data", {}).get("text/markdown", "") for o in outputs)
    images = sum("image/png" in o.get("data", {}) for o in outputs)
    assert "180 games" in text and " 0 errors" in text
    assert "- Dead rules (fired in under 1% of games in every cell):" in markdown
    assert "- Winter: " in markdown and "- Archer range 4: " in markdown
    assert "association, not cause" in markdown
    assert "archer_range 2 (rulebook) → 3 → 4: White wins" in markdown
    assert "counted rules never fired in these 180 games" in markdown
    assert "archer shots: " in text and "report.html" in text
    assert images >= 3  # usage matrix, response curve, rule locations
