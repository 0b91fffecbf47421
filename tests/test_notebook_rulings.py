"""The rulings notebook runs top to bottom and shows every official ruling."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "02_disputed_rulings.ipynb"


@pytest.mark.notebook
def test_rulings_notebook_executes() -> None:
    nb = nbformat.read(NOTEBOOK, as_version=4)
    NotebookClient(nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOK.parent)}}).execute()
    text = "".join(
        out.get("text", "") + "".join(out.get("data", {}).get("text/markdown", ""))
        for cell in nb.cells
        if cell.cell_type == "code"
        for out in cell.get("outputs", [])
    )
    for n in range(1, 7):
        assert f"Ruling {n}:" in text
    assert "Before" in text and "After" in text
    assert "FAIL" not in text and "ERROR" not in text
