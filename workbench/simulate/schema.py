"""Frames of any game's rows: columns as the rows give them (a game with its own path brings its schema)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pandas as pd
import pyarrow as pa


def protocol_frame(rows: Iterable[dict[str, Any]]) -> pd.DataFrame:
    """A table of a protocol game: columns as the game's rows give them (types inferred)."""
    rows = list(rows)
    return pa.Table.from_pylist(rows).to_pandas() if rows else pd.DataFrame()


def _concat(tables: list[pa.Table]) -> pa.Table:
    return pa.concat_tables(tables, promote_options="permissive")


def _frame(table: pa.Table) -> pd.DataFrame:
    """A read table as a frame; ``draw_after`` (a rule whose "no limit" is null) as a nullable integer."""
    df = table.to_pandas()
    if "draw_after" in df:
        df["draw_after"] = df["draw_after"].astype("Int64")
    return df
