"""``notebooks/09_tune.ipynb`` runs top to bottom: a small real TerraFeud tune with its progress bar, the
recommendation sentence, the ranked table with the variants dropped and why, the Pareto and progress
pictures, the same games in the ordinary report, and a big chess card price tuned on a tiny budget."""

from __future__ import annotations

import re
from html import escape as html_escape

import pytest
from nbhelp import execute_notebook

from workbench.games.terrafeud import native


@pytest.mark.notebook
def test_tune_notebook_executes() -> None:
    outputs = execute_notebook("09_tune.ipynb", timeout=300)
    text = "".join(o.get("text", "") for o in outputs)
    plain = "".join(o.get("data", {}).get("text/plain", "") for o in outputs)
    markdown = "\n".join(o.get("data", {}).get("text/markdown", "") for o in outputs)
    html = "".join(o.get("data", {}).get("text/html", "") for o in outputs)
    budget = 600 if native.available() else 48
    # the progress bar counts games against the budget
    assert "tune (games of the budget)" in plain and f"/{budget}" in plain
    spent = re.search(r"(\d+) games of a budget of (\d+) in [\d.]+ s \((native core|Python engine)\)", text)
    assert spent is not None and int(spent.group(2)) == budget and 0 < int(spent.group(1)) <= budget
    # the sentence: a variant of the space, White's score with its interval, decisiveness, length, how sure
    sentence = re.search(r"^> (coordinated=\d,mate_defence=\w+): White \d+\.\d% \(\d+\.\d–\d+\.\d\), \d+% decisive, "
                         r"\d+ plies; .+\.$", markdown, re.M)
    assert sentence is not None, markdown[:400]
    # the ranked table: every variant once, intervals, games, requirement verdicts, why
    for column in ("rank", "variant", "status", "games", "balance", "decisive>=0.55", "plies<=220", "dropped at", "why"):
        assert f"<th>{html_escape(column)}</th>" in html
    assert html.count("mate_defence=") >= 6 and "recommended" in html and "(0–0." in html
    if native.available():  # 600 games: the slow variants (coordinated=1) break the length requirement
        assert "was dropped when the tune had spent" in markdown and "breaks plies<=220" in markdown
    # the "why" column is shown whole in the table, never cut by pandas' 50-character limit (issue 34)
    whys = re.findall(r"was dropped when the tune had spent \d+ games: (.+)\.$", markdown, re.M)
    assert all(f"<td>{html_escape(why)}</td>" in html for why in whys) and "...</td>" not in html
    pngs = [o for o in outputs if "image/png" in o.get("data", {})]
    assert len(pngs) == 2  # the Pareto picture and the progress picture
    # the ordinary report read the same games and shows the tune's sentence first
    assert f"{spent.group(1)} games read back" in text and "Tune: the recommended variant" in text
    assert f"- Recommendation: {sentence.group(0)[2:]}" in markdown
    assert "**Comparisons**" in markdown and "- Coordinated " in markdown
    # the card price: a sentence on a cost_knight variant and the buy share per price
    assert re.search(r"^> cost_knight=\d+: A \d+\.\d% ", markdown, re.M)
    assert all(f"knight at {c}: " in text for c in (10, 30, 60)) and "purchases in 8 games" in text
    assert text.count("(95% Wilson interval;") == 3  # every buy share with its interval
