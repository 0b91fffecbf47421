"""``notebooks/03_heatmaps.ipynb`` runs top to bottom and shows boards, heatmaps, tables and scenario pictures."""

from __future__ import annotations

import pytest
from nbhelp import execute_notebook


@pytest.mark.notebook
def test_heatmaps_notebook_executes(tmp_path) -> None:  # noqa: ANN001
    outputs = execute_notebook("03_heatmaps.ipynb", cwd=tmp_path)  # from outside the repository
    assert not [o for o in outputs if o.get("output_type") == "error"]
    assert not [o for o in outputs if o.get("name") == "stderr"]  # no warning (pandas' FutureWarning) on the page
    svgs = [o["data"]["image/svg+xml"] for o in outputs if "image/svg+xml" in o.get("data", {})]
    pngs = [o for o in outputs if "image/png" in o.get("data", {})]
    html = "".join(o.get("data", {}).get("text/html", "") for o in outputs)
    assert sum(s.count('class="hex ') for s in svgs) >= 91 * 3  # start, highlighted mid-game, winter
    assert any('class="terrafeud-before-after"' in s for s in svgs)
    assert len(pngs) >= 12  # 8 side-by-side heatmaps, 2 toggles, the batch, graphs
    assert "knight summer" in html and "crossing" in html
