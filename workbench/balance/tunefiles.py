"""A tune's files beside its dataset, as the ordinary ``report`` reads them.

Here, not in ``workbench.tune``, because tune builds on balance and balance never imports tune: the report
of a tune's dataset only reads the files the tune wrote, so the names of those files live with the reader.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pandas as pd


def report_paths(out: str | os.PathLike[str]) -> dict[str, Path]:
    """Where a tune's report goes beside its dataset ``runs/tune.parquet``: ``runs/tune.tune.md`` etc."""
    p = Path(out)
    stem = p.name[: -len(".parquet")] if p.name.endswith(".parquet") else p.name
    return {"report": p.with_name(stem + ".tune.md"), "table": p.with_name(stem + ".tune.csv"),
            "pareto": p.with_name(stem + ".pareto.png"), "progress": p.with_name(stem + ".progress.png"),
            "summary": p.with_name(stem + ".tune.json")}


def report_section(source: str | Path | None, manifest: dict[str, Any] | None) -> dict[str, Any] | None:
    """What the ordinary ``report`` shows of a tune's dataset: the sentence, the cost, the ranked table and
    the two pictures, read from the files the tune wrote beside it; None for a dataset no tune wrote."""
    if source is None or not isinstance(manifest, dict) or "tune" not in manifest:
        return None
    paths = report_paths(source)
    settings = manifest["tune"] if isinstance(manifest["tune"], dict) else {}
    what = [f"This dataset is a tune's: every game a variant of the search played (space "
            f"{', '.join(map(str, settings.get('space', [])))}; objectives {', '.join(map(str, settings.get('objectives', [])))}"
            + (f"; requirements {', '.join(map(str, settings.get('requires', [])))}" if settings.get("requires") else "")
            + "). The sections below pool its cells as any batch, but the variants got unequal games: "
              "the search gave more to the contenders."]
    try:
        summary = json.loads(paths["summary"].read_text(encoding="utf-8"))
        table = pd.read_csv(paths["table"], keep_default_na=False)
    except (OSError, ValueError) as exc:
        return {"title": "Tune", "paragraphs": [*what, f"The tune's own result is missing ({exc}); "
                                                "`python -m workbench tune ... --resume` with the same flags rebuilds it."]}
    paragraphs = [*what, f"Recommendation: {summary.get('sentence', '')}", f"Cost: {summary.get('cost', '')}.",
                  f"The search decided at z = {float(summary.get('z', 0)):.2f}; the table shows 95% intervals."]
    figures = [(f"tune_{key}", paths[key].read_bytes()) for key in ("pareto", "progress") if paths[key].exists()]
    return {"title": "Tune: the recommended variant", "paragraphs": paragraphs, "table": table, "figures": figures}
