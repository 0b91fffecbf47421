"""The rulings notebook runs top to bottom and shows every official ruling, its boards and its checks in words."""

from __future__ import annotations

import re

import pytest
from nbhelp import execute_notebook


@pytest.mark.notebook
def test_rulings_notebook_executes(tmp_path) -> None:  # noqa: ANN001
    outputs = execute_notebook("02_disputed_rulings.ipynb", cwd=tmp_path)  # from outside the repository
    text = "".join(out.get("text", "") + "".join(out.get("data", {}).get("text/markdown", "")) for out in outputs)
    html = "".join(out.get("data", {}).get("text/html", "") for out in outputs)
    for n in range(1, 7):
        assert f"Ruling {n}:" in text
    assert "Before" in html and "After" in html and html.count("<figure") >= 12
    assert 'class="named-illegal"' in html and 'class="named-legal"' in html  # illegal and legal cases drawn
    assert "**PASS** check" in text and "illegal: d3-d5" in text  # each check said in words
    assert "FAIL" not in text and "ERROR" not in text
    # an archer's shot keeps its * (escaped, so Markdown does not read it as italics)
    assert re.search(r"[a-l]\d{1,2}\\\*[a-l]\d{1,2}", text), "no shot written as d2\\*d4"
    assert not [o for o in outputs if o.get("name") == "stderr"]
