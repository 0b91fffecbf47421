"""``notebooks/01_play.ipynb`` runs top to bottom (widgets render as outputs; no browser needed)."""

from __future__ import annotations

from pathlib import Path

import pytest

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "01_play.ipynb"


@pytest.mark.notebook
def test_play_notebook_executes() -> None:
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nbclient.NotebookClient(nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOK.parent)}}).execute()
    outputs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.get("outputs", [])]
    widgets = [o for o in outputs if "application/vnd.jupyter.widget-view+json" in o.get("data", {})]
    assert len(widgets) == 3
    text = "".join(o.get("text", "") for o in outputs)
    assert "['f3-f5'," in text and "white to move" in text
    assert "f5: k" in text
