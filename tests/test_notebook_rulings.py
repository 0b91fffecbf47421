"""The rulings notebook runs top to bottom and shows every official ruling."""

from __future__ import annotations

import pytest
from nbhelp import execute_notebook


@pytest.mark.notebook
def test_rulings_notebook_executes() -> None:
    text = "".join(
        out.get("text", "") + "".join(out.get("data", {}).get("text/markdown", ""))
        for out in execute_notebook("02_disputed_rulings.ipynb")
    )
    for n in range(1, 7):
        assert f"Ruling {n}:" in text
    assert "Before" in text and "After" in text
    assert "FAIL" not in text and "ERROR" not in text
