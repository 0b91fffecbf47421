"""Batches of AI games into pandas tables: in-process, on a local process pool, or on Dask.

``simulate(grid, games=N, agents=[...])`` (or the two-seat shorthand ``simulate(grid, first, second, N)``)
plays ``games`` games in every cell of the grid
(the cartesian product of rule toggles) and returns the games table, one row per game, sorted
by ``game_id``. Columns are listed in ``core.GAME_COLUMNS``; the long-format events table
(``core.EVENT_COLUMNS``) is produced with ``events=True``.

Return value: the games DataFrame, or ``(games, events)`` when ``events=True``. With ``out``,
games are also appended to the Parquet dataset directory ``out`` as they finish (events to
``FILE.events.parquet`` beside it), and the returned tables are the whole file's contents, so a
resumed run returns every game of the batch. Read a file back with ``read_results(path)`` and
``read_events(path)``. See ``core`` for seeds and the file layout, ``backends`` for retries.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from functools import partial
from typing import Any

import pandas as pd
import pyarrow as pa

from workbench.core.agents import MAX_OPENING
from workbench.games import DEFAULT

from .backends import cpu_workers, run_dask, run_inprocess, run_pool
from .core import (
    GameResult,
    GameSpec,
    PartWriter,
    SimulationError,
    events_path,
    game_seed,
    play_chunk,
    play_game,
    protocol_frame,
    read_events,
    read_results,
    run_manifest,
)
from .guard import OutputFolder, check_agents, check_arguments, check_total, probe_scheduler
from .protocol_play import (
    DEFAULT_MAX_PLIES,
    GameSpecs,
    default_max_plies,
    expand_grid,
    expand_protocol_grid,
    protocol_specs,
    replay_game,
    resolve_protocol_engine,
)
from .schema import events_frame, games_frame, games_schema

# a mapping of rule -> values, or a list of cells (a game's own rules objects, dicts or "k=v" text)
Grid = dict[str, Sequence[Any]] | Sequence[Any] | None


def __getattr__(name: str) -> Any:
    """``GAME_COLUMNS``/``EVENT_COLUMNS``: the columns the registry's default game declares (names kept from
    before the workbench hosted several games; ``schema.games_schema(game)`` is the general form)."""
    from .schema import events_schema

    if name in ("GAME_COLUMNS", "EVENT_COLUMNS"):
        schema = (games_schema if name == "GAME_COLUMNS" else events_schema)(DEFAULT)
        return [] if schema is None else list(schema.names)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def simulate(
    grid: Grid,
    white: str | None = None,
    black: str | None = None,
    games: int | None = None,
    seed: int = 0,
    max_plies: int | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    events: bool = False,
    out: str | os.PathLike[str] | None = None,
    resume: bool = False,
    progress: bool = True,
    overwrite: bool = False,
    flush_seconds: float = 1.0,
    chunk_size: int | None = None,
    engine: str = "auto",
    game: str = DEFAULT,
    agents: Sequence[str] | str | None = None,
    opening: int = 0,
    opening_seed: int | None = None,
) -> pd.DataFrame | tuple[pd.DataFrame, pd.DataFrame]:
    """Play ``games`` games in every grid cell, each seat played by its agent.

    The seats' agents: ``agents=`` names one agent for every seat or one per seat, in seat order
    (``simulate(grid, games=100, agents=["greedy", "mcts"], game="pole")``). ``white`` and ``black`` are the
    older two-seat shorthand, kept for every call written before (``simulate(grid, "greedy", "random", 100)``):
    the first and the second seat's agents whatever the game calls its seats, taking turns by seat in a game
    of more seats; with ``agents`` they are not needed.

    ``workers``: processes (default: every core); ``0`` plays in this process.
    ``scheduler``: None for the local process pool, ``"local-cluster"`` for a Dask ``LocalCluster``,
    or a Dask scheduler address ``"tcp://host:port"``. ``resume`` completes an interrupted ``out``
    without replaying its games; ``overwrite`` replaces it (only the files a simulate run writes).
    A failing game is a row with ``victory='error'``; a game whose worker dies is retried (see
    ``backends``). Every argument, agent and grid cell is checked before the first game, and
    ``out`` is locked for the run (see ``guard``). ``engine``: ``auto`` (native when built), ``native``
    or ``python``; a game plays natively when both agents have native twins, and its row's ``engine``
    column says which engine played it (same seed, same game either way).

    ``max_plies``: the ply cap (a game reaching it is ``unfinished``); None takes the game's own
    (``GameInfo.default_max_plies``, so Pole's ``max_turns`` ends its games), else 300 (TerraFeud).

    ``game`` names any game of ``workbench.games`` (or ``openspiel:NAME``).

    ``opening``: a fixed random opening of that many plies before the agents play (``core.agents.Opening``:
    deterministic agents otherwise repeat whole games); game ``i``'s opening is seeded by ``opening_seed``
    (default ``seed``) and ``i``, not by the game's seed, so two batches given the same ``opening_seed`` (the
    seats swapped, another rung, another rule value) play the same openings game for game. The rows then carry
    ``opening`` and ``opening_seed``.
    """
    agent_list = tuple([agents] if isinstance(agents, str) else agents or ())
    if not agent_list and (white is None or black is None):
        raise SimulationError("name the seats' agents: agents=[...] (one for every seat, or one per seat), or the "
                              "two-seat shorthand simulate(grid, first, second, games)")
    if games is None:
        raise SimulationError("games: how many games per grid cell?")
    seats = agent_list or (str(white), str(black))  # the seats' agents; white/black: the two-seat shorthand
    check_arguments(games, seed, DEFAULT_MAX_PLIES if max_plies is None else max_plies, workers, scheduler, flush_seconds,
                    chunk_size)
    game = _game_name(game)
    check_agents((*seats, *(a for a in (white, black) if a is not None)), game)
    try:
        engine = resolve_protocol_engine(game, engine)
    except ValueError as exc:
        raise SimulationError(str(exc)) from None
    cells = expand_protocol_grid(game, grid)
    if max_plies is None:  # the game's own cap (Pole: max_turns in plies), else 300
        max_plies = default_max_plies(game, cells)
    check_total(len(cells), games)
    if isinstance(opening, bool) or not isinstance(opening, int) or not 0 <= opening <= MAX_OPENING:
        raise SimulationError(f"opening={opening!r}: a whole number of random plies from 0 to {MAX_OPENING}")
    specs = protocol_specs(game, cells, seats, games, seed, max_plies, events, engine, opening, opening_seed)
    check_protocol_specs(specs)
    manifest = run_manifest(cells, games, seed, max_plies, events, game, seats, opening, opening_seed)
    return run_specs(specs, manifest, out=out, workers=workers, scheduler=scheduler, events=events, resume=resume,
                     overwrite=overwrite, progress=progress, flush_seconds=flush_seconds, chunk_size=chunk_size,
                     game=game)


def run_specs(specs: Sequence[GameSpec], manifest: dict[str, Any], out: str | os.PathLike[str] | None = None,
              workers: int | None = None, scheduler: str | None = None, events: bool = False, resume: bool = False,
              overwrite: bool = False, progress: bool = True, flush_seconds: float = 1.0, chunk_size: int | None = None,
              play: Any = play_chunk, game: str | None = None) -> pd.DataFrame | tuple[pd.DataFrame, pd.DataFrame]:
    """Play checked ``specs`` on the pool, Dask or in-process, into ``out`` (resumable, locked) or tables.

    What ``simulate`` does after building its specs; other batch commands (``workbench.study``'s ablate)
    build their own specs and ``manifest`` and run them here, so their games land in the same Parquet
    dataset format, resume the same way and run on the same backends. ``play`` plays a chunk of specs
    (``paths.play_chunk``; ``paths.play_protocol_chunk``: simulate's own loop with the generic agents). Tables
    in memory are typed by ``game``'s declared columns (None: as the rows give them, as for a protocol-loop run).
    """
    n_workers = cpu_workers() if workers is None else workers
    if scheduler is None or scheduler in ("processes", "pool", "inprocess"):
        backend = "inprocess" if scheduler == "inprocess" or n_workers == 0 else "pool"
    elif scheduler == "local-cluster" or scheduler.startswith(("tcp://", "tls://", "ws://")):
        backend = "dask"
        if scheduler != "local-cluster":
            probe_scheduler(scheduler)
    else:
        raise SimulationError(f"scheduler={scheduler!r}: use local-cluster, a tcp://host:port address, or none")
    writer = None
    folder = None
    total = len(specs)
    if out is not None:
        folder = OutputFolder(out)
        done = folder.open(manifest, events, resume, overwrite)
        if done:  # a fresh run keeps the lazy list
            specs = [s for s in specs if s.game_id not in done]
        writer = PartWriter(out, events, flush_seconds=flush_seconds, manifest=manifest)
    try:
        if backend == "inprocess":
            stream = run_inprocess(specs, play=play)
        elif backend == "pool":
            stream = run_pool(specs, n_workers, chunk_size, play=play)
        else:
            stream = run_dask(specs, scheduler, max(1, n_workers), chunk_size, play=play)  # type: ignore[arg-type]
        rows, event_rows = _drain(stream, writer, _progress_bar(total, total - len(specs), progress))
        if writer is not None:
            writer.close(compact=True)
            table = read_results(out)  # type: ignore[arg-type]
            return (table, read_events(out)) if events else table  # type: ignore[arg-type]
    except BaseException:
        if folder is not None and writer is not None and writer.written == 0:
            folder.abandon()  # nothing of this run is in the folder: leave nothing that blocks the next run
        raise
    finally:
        if folder is not None:
            folder.close()
    if game is None:
        table, event_table = protocol_frame, protocol_frame
    else:
        table, event_table = partial(games_frame, game=game), partial(events_frame, game=game)
    games_table = table(sorted(rows, key=lambda r: r["game_id"]))
    if events:
        return games_table, event_table(sorted(event_rows, key=lambda e: (e["game_id"], e["ply"])))
    return games_table


def _game_name(name: str) -> str:
    """The registry's name of ``name`` (``cursed_lands`` -> ``cursed-lands``); a clear error if unknown."""
    from workbench.games import get

    if not isinstance(name, str):
        raise SimulationError(f"game must be a game's name, such as {DEFAULT}")
    try:
        return get(name).name
    except ValueError as exc:
        raise SimulationError(str(exc)) from None


def check_protocol_specs(specs: Sequence[GameSpec]) -> None:
    """Every cell's game starts, every seat's agent builds, the game's own checks pass (``GameDef.check_cell``)
    and a row of it fits the columns the game declares, before the first game is played."""
    from workbench.agents.generic import make_protocol_agent

    from .protocol_play import resolved, seat_agents, tool_seats

    seen: set[str] = set()
    firsts = specs.firsts() if isinstance(specs, GameSpecs) else specs  # a lazy list names each cell's first game
    for spec in firsts:
        if spec.cell in seen:
            continue
        seen.add(spec.cell)
        game = resolved(spec.game)
        seats = tool_seats(spec.game)
        try:
            rules = game.spec.make(spec.rules)
            info = game.info(rules)
            game.new_initial_state(rules, spec.seed)
            for name in seat_agents(spec, info.num_players):
                if seats.protocol(name):
                    make_protocol_agent(name, game, rules, seed=0)
                else:  # an agent registered for the game's engine (workbench.agents.register_agent)
                    seats.make(name, 0, "auto")
            game.check_cell(spec, seats)
        except (ValueError, TypeError, OverflowError) as exc:
            raise SimulationError(f"grid cell {spec.cell}: {exc}") from None
        _check_row_fits(spec, game)


def _check_row_fits(spec: GameSpec, game: Any) -> None:
    """A cell's row converts column by column to the types the game declares, so a value that cannot be
    stored (a huge number) is named before the first game."""
    schema = games_schema(spec.game)
    row = game.blank_row(spec) if schema is not None else None
    if schema is None or row is None:
        return
    for fld in schema:
        if fld.name not in row:
            continue
        try:
            pa.array([row[fld.name]], type=fld.type)
        except (pa.ArrowException, OverflowError, TypeError, ValueError):
            raise SimulationError(f"grid cell {spec.cell}: {fld.name}={row[fld.name]!r} does not fit the games "
                                  f"table (column type {fld.type})") from None


def _drain(stream: Any, writer: PartWriter | None, bar: Any) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Take results as they come: into the writer (``out``) or into row lists; always closes the stream."""
    rows: list[dict[str, Any]] = []
    event_rows: list[dict[str, Any]] = []
    try:
        for results in stream:
            for r in results:
                if writer is not None:
                    writer.add(r)
                else:
                    rows.append(r.row)
                    event_rows.extend(r.events)
            if bar is not None:
                bar.update(len(results))
    finally:
        if bar is not None:
            bar.close()
        close = getattr(stream, "close", None)
        if close is not None:
            close()
        if writer is not None:
            writer.flush()
    return rows, event_rows


def _progress_bar(total: int, done: int, enabled: bool) -> Any:
    """tqdm's notebook-aware bar: games done, games per second and ETA."""
    if not enabled:
        return None
    from tqdm.auto import tqdm

    return tqdm(total=total, initial=done, unit="game", desc="games", smoothing=0.1)


__all__ = [  # noqa: F822 - EVENT_COLUMNS, GAME_COLUMNS are lazy
    "EVENT_COLUMNS", "GAME_COLUMNS", "GameResult", "GameSpec", "SimulationError", "events_path", "expand_grid",
    "game_seed", "play_game", "read_events", "read_results", "replay_game", "simulate",
]
