"""Simulation outputs on disk: Parquet dataset folders of part files, their run records, merges and reads.

Files: ``out`` is a Parquet *dataset directory* ``FILE.parquet/`` of part files. A part is
written under a hidden temporary name and renamed into place, so a kill -9 leaves only whole
parts; ``read_results`` reads them all (deduplicated by ``game_id``). A finished run merges
its parts into parts of at most ``MERGE_ROWS`` games, and deletes the originals only once the
merged files read back whole, so one damaged file never costs the whole batch; a part that
cannot be read is named by ``read_results`` (``DamagedPartError``) and ``--resume`` recovers it. ``_run.json`` in the
directory records the batch parameters that ``resume`` checks, and every part carries the same
record in its Parquet metadata (``workbench.run``), so parts of two different batches found in
one folder are refused instead of silently merged. Only ``part-*.parquet`` files are read: a
folder may hold other files, which simulate never reads nor deletes. With events, the event
table is a sibling dataset ``FILE.events.parquet/`` written alongside, part for part.
"""

from __future__ import annotations

import json
import os
import re
import time
import uuid
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from workbench.games import DEFAULT

from .schema import _concat, _frame, events_frame, events_schema, games_frame, games_schema
from .seeds import GameResult, SimulationError

RUN_KEY = b"workbench.run"  # Parquet metadata key: the run manifest of the batch a part belongs to
# Parquet metadata key: what the table is (game, rules spec, seat names, cap, schema version), so a reader
# (balance) never guesses; ``read_results`` hands it on as ``DataFrame.attrs[TABLE_ATTR]``.
TABLE_KEY = b"workbench.table"
TABLE_ATTR = "workbench.table"
TABLE_SCHEMA_VERSION = 2  # 1: tables written before this metadata (no key); 2: with it
# Part files of a dataset folder: ``part-<run>-<n>.parquet`` and ``part-<id>-merged.parquet``.
PART_NAME = re.compile(r"^part-[0-9a-f]{8}-(?:\d{5}|merged)\.parquet$")



DAMAGED_PREFIX = ".damaged-"  # a part ``--resume`` set aside: never read, its games played again


class DamagedPartError(SimulationError):
    """A part file of an output folder cannot be read (truncated, overwritten, bad disk).

    The other parts are whole (each is written apart and renamed into place), so only this
    part's games are lost; ``--resume`` sets it aside and plays them again."""

    def __init__(self, part: Path, reason: str) -> None:
        self.part = part
        super().__init__(f"{part.parent}: the part file {part.name} is damaged ({reason}); the other parts are whole. "
                         "Rerun the same simulate command with --resume: it sets this part aside (as "
                         f"{DAMAGED_PREFIX}{part.name}) and plays its games again")



PROTOCOL_PATH = "protocol"  # a manifest's ``path``: every game played through the protocol (restricted play)


def _schema_game(parts: list[Path]) -> str:
    """The game a dataset's parts belong to (their run manifest), the registry's default game (TerraFeud,
    whose batches predate the ``game`` key) when unrecorded; ``PROTOCOL_PATH`` when the run played the
    protocol's path whatever the game (its columns are its rows')."""
    for part in parts:
        run = _run_of(part)
        if run is not None:
            try:
                data = json.loads(run)
            except ValueError:
                return DEFAULT
            return PROTOCOL_PATH if data.get("path") == PROTOCOL_PATH else str(data.get("game") or DEFAULT)
    return DEFAULT


def table_metadata(game: str, seats: str | list[str] | tuple[str, ...] | None, max_plies: int | None) -> dict[str, Any]:
    """The table's own description: game, its rules spec (name, kind, default), seat names, cap, schema version."""
    from workbench.core.rulespec import format_value
    from workbench.games import get

    gdef = get(game)
    if seats is None:
        seats = list(gdef.info(gdef.spec.defaults()).players)
    elif isinstance(seats, str):
        seats = [s for s in seats.split(",") if s]
    return {"schema_version": TABLE_SCHEMA_VERSION, "game": gdef.name,
            "rules_spec": [{"name": p.name, "kind": p.kind, "default": format_value(p.default)} for p in gdef.spec],
            "seats": list(seats), "max_plies": None if max_plies is None else int(max_plies)}


def table_meta_of(part: Path) -> dict[str, Any] | None:
    """The table metadata stored in a part (None for parts written before it was, schema version 1)."""
    try:
        meta = pq.read_schema(part).metadata or {}
    except (pa.ArrowException, OSError, ValueError):
        return None
    text = meta.get(TABLE_KEY)
    try:
        return json.loads(text) if text else None
    except ValueError:
        return None


def _attach_meta(df: pd.DataFrame, parts: list[Path]) -> pd.DataFrame:
    for part in parts:
        meta = table_meta_of(part)
        if meta is not None:
            df.attrs[TABLE_ATTR] = meta
            break
    return df


def _fixed_schemas(game: str) -> tuple[pa.Schema | None, pa.Schema | None]:
    """The games and events schemas a dataset of ``game`` keeps (the columns the game declares), None for
    columns as the rows give them (a game without declared columns, or a run of the protocol's loop)."""
    if game == PROTOCOL_PATH:
        return None, None
    return games_schema(game), events_schema(game)


def events_path(out: str | os.PathLike[str]) -> Path:
    """``FILE.events.parquet`` beside ``FILE.parquet``."""
    p = Path(out)
    stem = p.name[: -len(".parquet")] if p.name.endswith(".parquet") else p.name
    return p.with_name(stem + ".events.parquet")


def _parts(path: Path) -> list[Path]:
    if path.is_file():
        return [path]
    if not path.is_dir():
        return []
    return sorted(p for p in path.iterdir() if PART_NAME.match(p.name) and p.is_file())


def _damage(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return text if len(text) <= 120 else text[:117] + "..."


def _read_part(part: Path, **kwargs: Any) -> pa.Table:
    """One part file, or ``DamagedPartError`` naming it (never a raw ``ArrowInvalid``)."""
    try:
        return pq.read_table(part, **kwargs)
    except (pa.ArrowException, OSError, ValueError) as exc:
        raise DamagedPartError(part, _damage(exc)) from None


def _run_of(part: Path) -> str | None:
    """The run manifest (JSON text) stored in a part's metadata; None for parts written before it was."""
    try:
        meta = pq.read_schema(part).metadata or {}
    except (pa.ArrowException, OSError, ValueError) as exc:
        raise DamagedPartError(part, _damage(exc)) from None
    value = meta.get(RUN_KEY)
    return None if value is None else value.decode("utf-8", "replace")


def _describe_run(text: str) -> str:
    try:
        m = migrate_manifest(json.loads(text))
        return (f"{' vs '.join(map(str, m.get('agents') or []))}, {m.get('games')} games per cell, seed {m.get('seed')}, "
                f"cells {', '.join(map(str, m.get('cells') or []))}")
    except (ValueError, TypeError, AttributeError):
        return "unreadable run record"


def check_one_batch(path: Path, parts: list[Path], df: pd.DataFrame) -> None:
    """Refuse a folder whose parts come from different batches, naming the batches and the numbers.

    Parts record their batch in their metadata; for parts without it, two rows with one
    ``game_id`` but different seed, cell or agents are two batches' games.
    """
    runs: dict[str, list[Path]] = {}
    for part in parts:
        run = same_batch_text(_run_of(part))
        if run is not None:
            runs.setdefault(run, []).append(part)
    if len(runs) > 1:
        lines = [f"batch {i}: {len(ps)} part file(s), {_describe_run(run)}" for i, (run, ps) in enumerate(runs.items(), 1)]
        raise SimulationError(f"{path}: holds parts of {len(runs)} different batches ({'; '.join(lines)}); "
                              "refusing to merge them: move one batch's part files to another folder")
    keys = [c for c in batch_keys(df.columns, legacy_agent_columns(_schema_game(parts))) if c != "game_id"]
    if "game_id" not in df or not keys:
        return
    dup = df[df.game_id.duplicated(keep=False)]
    if dup.empty:
        return
    clash = dup.groupby("game_id")[keys].nunique(dropna=False).gt(1).any(axis=1)
    numbers = clash[clash].index.tolist()
    if numbers:
        shown = ", ".join(map(str, numbers[:10])) + (", ..." if len(numbers) > 10 else "")
        raise SimulationError(f"{path}: holds games of two batches: {len(numbers)} game numbers ({shown}) appear with "
                              f"different {'/'.join(keys)}; refusing to keep one copy of each silently")


def legacy_agent_columns(game: str) -> tuple[str, ...]:
    """The names older tables of ``game`` gave its agent columns, as the game declares them
    (``TableSchema.renamed_columns``); none for an unknown game or a protocol-path dataset."""
    from workbench.games import get

    try:
        return tuple(old for old, new in get(game).table.renamed_columns if new.startswith("agent_"))
    except (ImportError, ValueError):
        return ()


def batch_keys(names: Iterable[str], legacy: Iterable[str] = ()) -> list[str]:
    """The columns that tell two batches' games apart: the game number, seed, cell and every seat's agent
    (``agent_<seat>``, and the older names of them its game declares, ``legacy``)."""
    names = list(names)
    older = set(legacy)
    agents = [c for c in names if c.startswith("agent_") or c in older]
    return [c for c in ("game_id", "seed", "cell") if c in names] + agents


def _has_columns(part: Path, columns: list[str]) -> bool:
    """True when ``part`` stores every one of ``columns`` (False for a part that cannot be read: the full read
    names it)."""
    try:
        return set(columns) <= set(pq.read_schema(part).names)
    except (pa.ArrowException, OSError, ValueError):
        return False


def read_results(path: str | os.PathLike[str], columns: list[str] | None = None) -> pd.DataFrame:
    """The whole games table of a simulation output (every part, each game once, by ``game_id``).

    Raises ``SimulationError`` when the folder mixes batches (see ``check_one_batch``).
    """
    p = Path(path)
    parts = _parts(p)
    if not parts:
        if not p.exists():
            raise FileNotFoundError(f"{p}: no simulation output here")
        empty = games_frame([], DEFAULT)  # an empty folder: the default game's empty table, as before
        return empty[columns] if columns else empty
    schema = _fixed_schemas(_schema_game(parts))[0]
    if schema is None:  # columns as the game's rows gave them
        table = _concat([_read_part(f) for f in parts])
        keys = batch_keys(table.column_names, legacy_agent_columns(_schema_game(parts)))
        wanted = None if columns is None else [c for c in dict.fromkeys([*columns, *keys]) if c in table.column_names]
        if wanted is not None:
            table = table.select(wanted)
        df = _frame(table)
    else:  # the game's declared columns
        legacy = legacy_agent_columns(_schema_game(parts))
        wanted = None if columns is None else list(dict.fromkeys([*columns, *batch_keys(schema.names, legacy)]))
        if wanted is not None and all(_has_columns(f, wanted) for f in parts):
            table = pa.concat_tables([_read_part(f, columns=wanted) for f in parts])
        else:  # every column typed; a part written before a column existed reads it as missing (resume of it)
            table = pa.concat_tables([_read_part(f, schema=schema) for f in parts])
            if wanted is not None:
                table = table.select([c for c in wanted if c in table.column_names])
        df = _frame(table)
    if len(parts) > 1:
        check_one_batch(p, parts, df)
    if "game_id" in df:
        df = df.drop_duplicates("game_id", keep="last").sort_values("game_id", kind="stable")
    if columns is not None:
        df = df[columns]
    return _attach_meta(df.reset_index(drop=True), parts)


def read_events(path: str | os.PathLike[str]) -> pd.DataFrame:
    """The events table beside a simulation output (``FILE.events.parquet``), or the path itself."""
    p = Path(path)
    if not p.name.endswith(".events.parquet"):
        p = events_path(p)
    parts = _parts(p)
    if not parts:
        return events_frame([], DEFAULT)
    if len(parts) > 1:
        check_one_batch(p, parts, pd.DataFrame())  # parts' run records only: event rows carry no seed
    schema = _fixed_schemas(_schema_game(parts))[1]
    if schema is None:
        df = _concat([_read_part(f) for f in parts]).to_pandas()
    else:
        df = pa.concat_tables([_read_part(f, schema=schema) for f in parts]).to_pandas()
    return _attach_meta(df.drop_duplicates(["game_id", "ply"], keep="last").sort_values(["game_id", "ply"])
                        .reset_index(drop=True), parts)


def _write_atomic(table: pa.Table, directory: Path, name: str, run: str | None = None,
                  meta: bytes | None = None) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    extra = {RUN_KEY: run.encode()} if run is not None else {}
    if meta is not None:
        extra[TABLE_KEY] = meta
    if extra:
        table = table.replace_schema_metadata({**(table.schema.metadata or {}), **extra})
    tmp = directory / f".tmp-{name}"
    pq.write_table(table, tmp)
    final = directory / name
    os.replace(tmp, final)
    return final


def _typed(rows: list[dict[str, Any]], schema: pa.Schema | None) -> pa.Table:
    """Rows as a table: TerraFeud's fixed schema, or another game's inferred one with no ``null`` column.

    A column that is empty in one part (no errors, no winner yet) would be typed null there and clash
    with the next part's type when a reader such as ``pandas.read_parquet`` unifies the folder; it is
    stored as text instead (whole-number columns with no value stay readable as text too).
    """
    table = pa.Table.from_pylist(rows, schema=schema)
    if schema is not None:
        return table
    for i, field in enumerate(table.schema):
        if pa.types.is_null(field.type):
            table = table.set_column(i, pa.field(field.name, pa.string()), table.column(i).cast(pa.string()))
    return table


class PartWriter:
    """Appends finished games to the output dataset in whole, atomically renamed part files.

    A part is flushed every ``flush_seconds`` or ``flush_games`` games, whichever comes first,
    so a kill -9 loses at most that much; ``close`` flushes the rest and compacts the parts.
    """

    def __init__(self, out: str | os.PathLike[str], events: bool, flush_seconds: float = 1.0, flush_games: int = 500,
                 manifest: dict[str, Any] | None = None) -> None:
        self.out = Path(out)
        # a game that declares its columns (TerraFeud) keeps them; another game's columns come from its rows
        self.schema, self.events_schema = _fixed_schemas(
            PROTOCOL_PATH if (manifest or {}).get("path") == PROTOCOL_PATH else (manifest or {}).get("game", DEFAULT))
        self.run = None if manifest is None else json.dumps(manifest, sort_keys=True)
        self.game = str((manifest or {}).get("game", DEFAULT))
        self.max_plies = (manifest or {}).get("max_plies")
        self.meta: bytes | None = None  # the table's metadata, from its first row's seats
        self.written = 0  # games written by this writer
        self.events_out = events_path(out) if events else None
        self.flush_seconds = flush_seconds
        self.flush_games = flush_games
        self._rows: list[dict[str, Any]] = []
        self._events: list[dict[str, Any]] = []
        self._last = time.monotonic()
        self._run = uuid.uuid4().hex[:8]
        self._n = 0

    def add(self, result: GameResult) -> None:
        """Buffer one game; flush when the buffer is due."""
        self._rows.append(result.row)
        self._events.extend(result.events)
        if len(self._rows) >= self.flush_games or time.monotonic() - self._last >= self.flush_seconds:
            self.flush()

    def flush(self) -> None:
        """Write the buffered games (events first, so a games row never lacks its events)."""
        self._last = time.monotonic()
        if not self._rows:
            return
        name = f"part-{self._run}-{self._n:05d}.parquet"
        if self.meta is None:
            first = self._rows[0]
            cap = first.get("max_plies", self.max_plies)
            self.meta = json.dumps(table_metadata(self.game, first.get("players"), cap), sort_keys=True).encode()
        if self.events_out is not None:
            _write_atomic(_typed(self._events, self.events_schema), self.events_out, name, self.run, self.meta)
        _write_atomic(_typed(self._rows, self.schema), self.out, name, self.run, self.meta)
        self._n += 1
        self.written += len(self._rows)
        self._rows, self._events = [], []

    def close(self, compact: bool = True) -> None:
        """Flush, then merge the parts into one file (duplicates are harmless if killed midway)."""
        self.flush()
        if compact:
            compact_dataset(self.out, self.schema, ["game_id"])
            if self.events_out is not None:
                compact_dataset(self.events_out, self.events_schema, ["game_id", "ply"])


MERGE_ROWS = {"game_id": 50_000, "ply": 2_000_000}  # rows per merged part: games; events (keyed by ply too)


def compact_dataset(directory: Path, schema: pa.Schema | None, keys: list[str]) -> None:
    """Merge a dataset's parts into few parts of at most ``MERGE_ROWS`` rows each.

    The originals are deleted only after every merged file has been read back with the same
    keys, so a failed or damaged merge loses nothing; a part that cannot be read stops the merge
    (every part stays, ``read_results`` names the damaged one). Parts of different batches are
    left as they are: merging would keep one copy of each game number and hide the mix.
    """
    parts = _parts(directory)
    if len(parts) <= 1:
        return
    try:
        runs = {same_batch_text(_run_of(f)) for f in parts}
        if len(runs) > 1:
            return
        table = _concat([_read_part(f, schema=schema) for f in parts])
    except DamagedPartError:
        return
    # the table's metadata, from any part that has it (a resumed old dataset's first parts have none)
    meta = next((m for f in parts if (m := (pq.read_schema(f).metadata or {}).get(TABLE_KEY))), None)
    df = table.to_pandas()
    df = df.drop_duplicates(keys, keep="last").sort_values(keys, kind="stable")
    run = runs.pop()
    size = MERGE_ROWS[keys[-1]] if keys[-1] in MERGE_ROWS else MERGE_ROWS["game_id"]
    written: list[Path] = []
    try:
        for start in range(0, len(df), size):
            merged = pa.Table.from_pandas(df.iloc[start:start + size], schema=schema if schema is not None
                                          else table.schema, preserve_index=False)
            path = _write_atomic(merged, directory, f"part-{uuid.uuid4().hex[:8]}-merged.parquet", run, meta)
            written.append(path)
            back = _read_part(path, columns=keys)
            if not back.equals(merged.select(keys)):
                raise DamagedPartError(path, "it does not read back as written")
    except (SimulationError, OSError):
        for path in written:  # keep the originals: they are the verified copy
            path.unlink(missing_ok=True)
        return
    for f in parts:
        if f not in written:
            f.unlink(missing_ok=True)


def run_manifest(cells: list[Any], games: int, seed: int, max_plies: int, events: bool = False,
                 game: str = DEFAULT, agents: Sequence[str] = (), opening: int = 0,
                 opening_base: int | None = None) -> dict[str, Any]:
    """What identifies a batch: a resumed run must match it exactly (``events`` too, or some games would have
    events and others not). Every game's record names the game and the seats' agents (``agents``: one for
    every seat, one per seat, or two taking turns), the registry's default included; a record written before
    reads through ``migrate_manifest``."""
    from .protocol_play import manifest_labels

    out = {"cells": manifest_labels(game, cells), "game": game, "agents": list(agents), "games": games,
           "seed": seed, "max_plies": max_plies, "events": bool(events)}
    if opening:  # a batch with random openings (recorded only then, so earlier records still match)
        out.update({"opening": int(opening), "opening_base": seed if opening_base is None else int(opening_base)})
    return out


def migrate_manifest(record: Mapping[str, Any]) -> dict[str, Any]:
    """A run record of any version in today's form, the one migration of run records (``--resume``, a part's
    batch): a record without ``game`` is the registry default's (batches were TerraFeud's before games had
    names); its seats' agents are ``agents`` when it lists them, else the two-seat shorthand it stored
    (``white``, ``black``), which goes. Other commands' records (ablate, tune: a ``command`` key) keep theirs."""
    out = dict(record)
    if "command" in out:
        return out
    out.setdefault("game", DEFAULT)
    shorthand = [out.pop(k) for k in ("white", "black") if k in out]
    if not out.get("agents"):
        out["agents"] = shorthand
    out["agents"] = [str(a) for a in out["agents"]]
    return out


def same_batch_text(run: str | None) -> str | None:
    """A part's run record as comparable text: migrated (``migrate_manifest``), keys sorted; unreadable as is."""
    if run is None:
        return None
    try:
        data = json.loads(run)
    except ValueError:
        return run
    return json.dumps(migrate_manifest(data), sort_keys=True) if isinstance(data, dict) else run
