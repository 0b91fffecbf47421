"""``notebooks/06_cursed_lands.ipynb`` runs top to bottom: the counterattack ruling as pictures, the faction
matrix of a real batch with its sentence, and the ``untiled`` toggle's effect in the report's words."""

from __future__ import annotations

import pytest
from nbhelp import execute_notebook


@pytest.mark.notebook
def test_cursed_lands_notebook_executes() -> None:
    outputs = execute_notebook("06_cursed_lands.ipynb", timeout=240)
    text = "".join(o.get("text", "") for o in outputs)
    markdown = "\n".join(o.get("data", {}).get("text/markdown", "") for o in outputs)
    html = "".join(o.get("data", {}).get("text/html", "") for o in outputs)
    assert not [o for o in outputs if o.get("output_type") == "error"]
    # the ruling: under none only the defender is hurt, under melee the attacker takes the blow back
    assert "counterattack=none: e3 has 3hp, e4 has 1hp" in text
    assert "counterattack=melee: e3 has 1hp, e4 has 1hp" in text
    assert text.count(": PASS") == 3 and "FAIL" not in text
    assert html.count("<svg") == 3 and html.count('data-cell="e3"') == 3
    # the faction section of a real batch: matrix, strengths, the sentence and how sure
    # greedy play stalls: the stored batch cannot tell the factions apart, so none is named strongest (issue 34)
    assert "No strongest faction can be named: the highest estimate, " in markdown and "cannot tell the factions apart" in markdown
    assert "Strongest faction" not in markdown
    assert "First-player advantage, factions accounted for" in markdown
    assert "| p1 \\ opponent | humans | elves | orcs | dwarves |" in markdown
    assert html.count("data:image/png;base64,") >= 2
    # the toggle in sentences from compare_toggles
    verdicts = [line for line in markdown.splitlines() if line.startswith("- Untiled ")]
    assert any("decisive" in v and "median" in v and "share of decided games" in v for v in verdicts)
    assert any("could not be seen" in v for v in verdicts)
    pngs = [o for o in outputs if "image/png" in o.get("data", {})]
    assert len(pngs) >= 2  # heat layers and the batch maps
