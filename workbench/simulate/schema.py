"""Frames of any game's rows: typed by the columns the game declares (``GameDef.table``), else as the rows give them."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import pandas as pd
import pyarrow as pa

from workbench.games import DEFAULT

# the Arrow types a game may declare for its columns (``TableSchema.games_columns``/``events_columns``)
ARROW_TYPES: dict[str, pa.DataType] = {"int64": pa.int64(), "float64": pa.float64(), "bool": pa.bool_(),
                                       "string": pa.string()}


def arrow_schema(columns: Sequence[tuple[str, str]]) -> pa.Schema | None:
    """The Arrow schema of declared ``(name, type)`` columns, None when none are declared."""
    if not columns:
        return None
    try:
        return pa.schema([(name, ARROW_TYPES[kind]) for name, kind in columns])
    except KeyError as exc:
        raise ValueError(f"a declared column type {exc.args[0]!r} is not one of {', '.join(ARROW_TYPES)}") from None


def games_schema(game: str) -> pa.Schema | None:
    """The fixed games-table schema ``game`` declares, or None (columns as its rows give them)."""
    from .protocol_play import resolved

    return arrow_schema(resolved(game).table.games_columns)


def events_schema(game: str) -> pa.Schema | None:
    """The fixed events-table schema ``game`` declares, or None."""
    from .protocol_play import resolved

    return arrow_schema(resolved(game).table.events_columns)


def protocol_frame(rows: Iterable[dict[str, Any]]) -> pd.DataFrame:
    """A table of rows: columns as the rows give them (types inferred)."""
    rows = list(rows)
    return pa.Table.from_pylist(rows).to_pandas() if rows else pd.DataFrame()


def games_frame(rows: Iterable[dict[str, Any]], game: str = DEFAULT) -> pd.DataFrame:
    """The games table of ``game``'s rows, typed by its declared columns when it declares them."""
    schema = games_schema(game)
    if schema is None:
        return protocol_frame(rows)
    return _frame(pa.Table.from_pylist(list(rows), schema=schema))


def events_frame(rows: Iterable[dict[str, Any]], game: str = DEFAULT) -> pd.DataFrame:
    """The events table of ``game``'s event rows, typed by its declared columns when it declares them."""
    schema = events_schema(game)
    if schema is None:
        return protocol_frame(rows)
    return pa.Table.from_pylist(list(rows), schema=schema).to_pandas()


def _concat(tables: list[pa.Table]) -> pa.Table:
    return pa.concat_tables(tables, promote_options="permissive")


def _frame(table: pa.Table) -> pd.DataFrame:
    """A read table as a frame; ``draw_after`` (a rule whose "no limit" is null) as a nullable integer."""
    df = table.to_pandas()
    if "draw_after" in df:
        df["draw_after"] = df["draw_after"].astype("Int64")
    return df
