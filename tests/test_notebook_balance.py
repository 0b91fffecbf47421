"""``notebooks/04_balance.ipynb`` runs top to bottom: a plan, a live grid at the study cap, the three quantities
apart, verdicts that name what moved, an SPRT on decided games and the inline report."""

from __future__ import annotations

import nbformat
import pytest
from nbhelp import NOTEBOOKS, execute_notebook

from workbench.balance import games_needed
from workbench.games.terrafeud import TERRAFEUD_STUDY_CAP, native


@pytest.mark.notebook
def test_balance_notebook_executes() -> None:
    nb = nbformat.read(NOTEBOOKS / "04_balance.ipynb", as_version=4)
    assert "MAX_PLIES = TERRAFEUD_STUDY_CAP" in nb.cells[1].source  # the same cap as notebook 05
    outputs = execute_notebook("04_balance.ipynb", timeout=300)
    text = "".join(o.get("text", "") for o in outputs)
    markdown = "\n".join(o.get("data", {}).get("text/markdown", "") for o in outputs)
    html = "".join(o.get("data", {}).get("text/html", "") for o in outputs)
    big = native.available()  # the native core plays 150 games a cell; Python falls back to 5 and says so
    assert f"{1200 if big else 40} games" in text and " 0 errors" in text
    assert f"unfinished at the {TERRAFEUD_STUDY_CAP}-ply cap" in text
    assert "plan: 8 cells" in text and f"games_needed(diff=0.05) = {games_needed(0.05)}" in text
    if not big:
        assert "The native core is not built" in markdown
    # was: "Winter: White wins ... more often" and "Winter: games are shorter"; each verdict now states the
    # three quantities apart (which moved first), and what the games could not have seen
    verdicts = [line for line in markdown.splitlines() if line.startswith("- ") and "share of decided games" in line]
    assert len(verdicts) == 3 and any(v.startswith("- Winter: ") for v in verdicts)
    assert all("decisive" in v and "median" in v for v in verdicts)
    assert "Hill off:" in markdown and "Swamp off:" in markdown and "could not be seen (80% power)" in markdown
    assert "SPRT " in text and "LLR after each batch" in text
    assert "report.html" in text
    assert html.count("data:image/png;base64,") >= 4 and "White share of decided % [95% CI]" in html
    assert f"Cap: {TERRAFEUD_STUDY_CAP} plies (given by the caller, as played)" in html and "Kaplan-Meier" in html
    assert "overflow-x:auto" in html and "median plies" in html  # the wide table scrolls inside the page
    pngs = [o for o in outputs if "image/png" in o.get("data", {})]
    assert len(pngs) >= 2  # the per-game batch panels, one figure per season
