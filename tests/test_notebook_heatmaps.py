"""``notebooks/03_heatmaps.ipynb`` runs top to bottom and shows boards, heatmaps, tables and scenario pictures."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "03_heatmaps.ipynb"


@pytest.mark.notebook
def test_heatmaps_notebook_executes() -> None:
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    nb = nbformat.read(NOTEBOOK, as_version=4)
    os.environ["MPLBACKEND"] = "Agg"
    nbclient.NotebookClient(nb, timeout=180, kernel_name="python3",
                            resources={"metadata": {"path": str(NOTEBOOK.parent)}}).execute()
    outputs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    svgs = [o["data"]["image/svg+xml"] for o in outputs if "image/svg+xml" in o.get("data", {})]
    pngs = [o for o in outputs if "image/png" in o.get("data", {})]
    html = "".join(o.get("data", {}).get("text/html", "") for o in outputs)
    assert sum(s.count('class="hex ') for s in svgs) >= 91 * 3  # start, highlighted mid-game, winter
    assert any('class="terrafeud-before-after"' in s for s in svgs)
    assert len(pngs) >= 12  # 8 side-by-side heatmaps, 2 toggles, the batch, graphs
    assert "knight summer" in html and "crossing" in html
