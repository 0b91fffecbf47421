"""``notebooks/04_balance.ipynb`` runs top to bottom: a live grid, verdicts, an SPRT and the inline report."""

from __future__ import annotations

import pytest
from nbhelp import execute_notebook


@pytest.mark.notebook
def test_balance_notebook_executes() -> None:
    outputs = execute_notebook("04_balance.ipynb")
    text = "".join(o.get("text", "") for o in outputs)
    markdown = "".join(o.get("data", {}).get("text/markdown", "") for o in outputs)
    html = "".join(o.get("data", {}).get("text/html", "") for o in outputs)
    assert "80 games" in text and " 0 errors" in text
    assert markdown.count("- Winter:") == 2 and "Hill off:" in markdown and "Swamp off:" in markdown
    assert "SPRT " in text and "LLR after each batch" in text
    assert "report.html" in text
    assert html.count("data:image/png;base64,") >= 4 and "White win % [95% CI]" in html
    assert "overflow-x:auto" in html and "median plies" in html  # the wide table scrolls inside the page
    pngs = [o for o in outputs if "image/png" in o.get("data", {})]
    assert len(pngs) >= 2  # the per-game batch panels, one figure per season
