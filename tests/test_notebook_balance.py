"""``notebooks/04_balance.ipynb`` runs top to bottom: a live grid, verdicts, an SPRT and the inline report."""

from __future__ import annotations

import pytest
from nbhelp import execute_notebook

from workbench import native


@pytest.mark.notebook
def test_balance_notebook_executes() -> None:
    outputs = execute_notebook("04_balance.ipynb")
    text = "".join(o.get("text", "") for o in outputs)
    markdown = "".join(o.get("data", {}).get("text/markdown", "") for o in outputs)
    html = "".join(o.get("data", {}).get("text/html", "") for o in outputs)
    big = native.available()  # the native core plays 250 games a cell; Python falls back to 10 and says so
    assert f"{2000 if big else 80} games" in text and " 0 errors" in text
    if big:  # the grid is big enough for a verdict to show a difference (winter: more White wins, shorter games)
        assert "Winter: White wins" in markdown and "more often than with summer" in markdown
        assert "Winter: games are shorter" in markdown and "no clear change" in markdown
    else:
        assert "The native core is not built" in markdown
    assert markdown.count("- Winter:") == 2 and "Hill off:" in markdown and "Swamp off:" in markdown
    assert "SPRT " in text and "LLR after each batch" in text
    assert "report.html" in text
    assert html.count("data:image/png;base64,") >= 4 and "White win % [95% CI]" in html
    assert "overflow-x:auto" in html and "median plies" in html  # the wide table scrolls inside the page
    pngs = [o for o in outputs if "image/png" in o.get("data", {})]
    assert len(pngs) >= 2  # the per-game batch panels, one figure per season
