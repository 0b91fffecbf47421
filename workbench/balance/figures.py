"""What every report section draws with: matplotlib on the Agg backend, a figure as PNG bytes, a Markdown table.

Its own module, below ``report.py`` and the sections it gathers (``curves``, ``skill``, ``matchups``), so
those never import the report back.
"""

from __future__ import annotations

import io
import math
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402


def png(fig: Any) -> bytes:
    """``fig`` as PNG bytes (110 dpi, tight), and closed."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    plt.close(fig)
    return buf.getvalue()


def markdown_table(df: pd.DataFrame) -> str:
    """A GitHub-flavoured Markdown table (no extra dependency)."""
    def cell(v: Any) -> str:
        text = "–" if v is None or (isinstance(v, float) and math.isnan(v)) else str(v)
        return text.replace("|", "\\|")
    head = "| " + " | ".join(map(str, df.columns)) + " |"
    rule = "|" + "|".join("---" for _ in df.columns) + "|"
    body = ["| " + " | ".join(cell(v) for v in row) + " |" for row in df.itertuples(index=False)]
    return "\n".join([head, rule, *body])


__all__ = ["markdown_table", "plt", "png"]
