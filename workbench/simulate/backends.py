"""Where the games run: in this process, in a local process pool, or on a Dask cluster.

Every backend takes the same ``GameSpec`` list and yields ``GameResult`` lists as chunks finish,
in whatever order they finish; the caller sorts by ``game_id``. All of them call
``core.play_chunk``, so the same seed gives identical games everywhere.

A worker that dies (killed, out of memory) loses its chunk, not the batch: the pool notices the
broken executor, starts a new one and resubmits every unfinished chunk; Dask reschedules the
task itself (``retries``). A chunk that keeps killing its worker is split into single games, and
a single game that still kills its worker ``max_retries`` times is recorded as an error row.
The other way round, pool workers die with their parent (``guard.worker_initializer``): a
``kill -9`` of the run leaves no orphan processes playing on.
"""

from __future__ import annotations

import multiprocessing
import os
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from .guard import SCHEDULER_TIMEOUT, worker_initializer
from .paths import error_result, play_chunk
from .seeds import GameResult, GameSpec, SimulationError

Chunk = tuple[GameSpec, ...]
Player = Callable[[Sequence[GameSpec]], list[GameResult]]  # plays a chunk: ``paths.play_chunk`` by default


def chunked(specs: Sequence[GameSpec], size: int) -> list[Chunk]:
    """Consecutive chunks of at most ``size`` specs."""
    size = max(1, int(size))
    return [tuple(specs[i : i + size]) for i in range(0, len(specs), size)]


def default_chunk_size(n_games: int, workers: int) -> int:
    """Small enough for a smooth progress bar and balanced workers, big enough to amortise scheduling."""
    return max(1, min(8, n_games // max(1, workers * 16)))


def run_inprocess(specs: Sequence[GameSpec], play: Player = play_chunk) -> Iterator[list[GameResult]]:
    """One game at a time in this process (debugging, notebooks, tiny batches)."""
    for spec in specs:
        yield play((spec,))


def run_pool(specs: Sequence[GameSpec], workers: int, chunk_size: int | None = None,
             max_retries: int = 3, play: Player = play_chunk) -> Iterator[list[GameResult]]:
    """A ``ProcessPoolExecutor`` (fork on Linux, so registered agents reach the workers).

    At most ``4 * workers`` chunks are in flight, so finished results never pile up in memory.
    When a worker dies every running chunk is lost with the pool, and nobody can tell which one
    killed it: those chunks become suspects, rerun alone (split into single games), so a game
    that kills its worker ``max_retries`` times alone is the culprit and becomes an error row.
    """
    workers = max(1, int(workers))
    size = chunk_size or default_chunk_size(len(specs), workers)
    todo: deque[Chunk] = deque(chunked(specs, size))
    suspects: deque[Chunk] = deque()
    alone_failures: dict[int, int] = {}
    ctx = multiprocessing.get_context("fork") if "fork" in multiprocessing.get_all_start_methods() else None
    while todo or suspects:
        pool = ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=worker_initializer,
                                   initargs=(os.getpid(),))
        broken = False
        try:
            if suspects:
                chunk = suspects.popleft()
                try:
                    results = pool.submit(play, chunk).result()
                except BrokenProcessPool:
                    broken = True
                    if len(chunk) > 1:
                        suspects.extendleft((s,) for s in reversed(chunk))
                        continue
                    spec = chunk[0]
                    alone_failures[spec.game_id] = alone_failures.get(spec.game_id, 0) + 1
                    if alone_failures[spec.game_id] < max_retries:
                        suspects.appendleft(chunk)
                        continue
                    results = [error_result(spec, f"WorkerDied: the worker process died {max_retries} times "
                                                  f"playing this game alone (seed {spec.seed})")]
                yield results
                continue
            running: dict[Future[list[GameResult]], Chunk] = {}
            while (todo or running) and not broken:
                while todo and len(running) < 4 * workers:
                    chunk = todo.popleft()
                    running[pool.submit(play, chunk)] = chunk
                done, _ = wait(running, return_when=FIRST_COMPLETED)
                for fut in done:
                    chunk = running.pop(fut)
                    try:
                        results = fut.result()
                    except BrokenProcessPool:
                        broken = True
                        suspects.append(chunk)
                        continue
                    yield results
            if broken:
                suspects.extend(running.values())
        finally:
            pool.shutdown(wait=not broken, cancel_futures=True)


def run_dask(specs: Sequence[GameSpec], scheduler: str, workers: int, chunk_size: int | None = None,
             max_retries: int = 3, play: Player = play_chunk) -> Iterator[list[GameResult]]:
    """Dask distributed: ``scheduler='local-cluster'`` starts a ``LocalCluster`` of ``workers``
    single-threaded processes; ``tcp://host:port`` uses a running scheduler (its workers need
    this package installed). Dask reruns the tasks of a lost worker up to ``max_retries`` times."""
    from dask.distributed import Client, as_completed

    cluster = None
    try:
        if scheduler == "local-cluster":
            cluster, client = start_local_cluster(workers)
        else:
            client = Client(scheduler, timeout=SCHEDULER_TIMEOUT)  # type: ignore[no-untyped-call]  # dask is untyped
    except (OSError, TimeoutError) as exc:
        raise SimulationError(f"--scheduler {scheduler}: cannot start or reach the Dask cluster ({exc})") from None
    try:
        _ship_registered_agents(client)
        n_workers = max(1, len(client.scheduler_info().get("workers", {})) or workers)
        size = chunk_size or default_chunk_size(len(specs), n_workers)
        chunks = chunked(specs, size)
        futures = client.map(play, chunks, retries=max_retries, pure=False)
        by_future = dict(zip(futures, chunks, strict=True))
        for fut in as_completed(futures):  # type: ignore[no-untyped-call]
            chunk = by_future.pop(fut)
            try:
                yield fut.result()
            except Exception as exc:  # noqa: BLE001 - KilledWorker and friends: record, go on
                yield [error_result(s, f"{type(exc).__name__}: {exc}") for s in chunk]
            fut.release()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def start_local_cluster(workers: int) -> tuple[Any, Any]:
    """A ``LocalCluster`` of ``workers`` single-threaded processes that listens only where it must.

    Dask's scheduler and every worker always start an HTTP server (the scheduler on 8787, even
    with the dashboard off). Nobody asked for those ports, so the scheduler's is bound to a random
    loopback port and closed at once, and a worker plugin closes each worker's (restarted workers
    included). What stays open are the loopback ports the cluster talks over.
    """
    from dask.distributed import Client, LocalCluster, WorkerPlugin

    class NoHTTP(WorkerPlugin):
        name = "workbench-no-http"

        def setup(self, worker: Any) -> None:  # a dask Worker
            _stop_http(worker)

    cluster = LocalCluster(n_workers=max(1, workers), threads_per_worker=1, processes=True,  # type: ignore[no-untyped-call]
                           host="127.0.0.1", dashboard_address="127.0.0.1:0", worker_dashboard_address=None)
    try:
        _stop_http(cluster.scheduler)
        client = Client(cluster)  # type: ignore[no-untyped-call]
        client.register_plugin(NoHTTP())
    except BaseException:
        cluster.close()
        raise
    return cluster, client


def _stop_http(server: Any) -> None:  # a dask Scheduler or Worker
    """Stop a Dask server's HTTP listener and forget it as a service (nothing links to it then)."""
    http = getattr(server, "http_server", None)
    if http is not None:
        http.stop()
    server.services.pop("dashboard", None)


def _ship_registered_agents(client: Any) -> None:  # a dask.distributed.Client
    """Agents added with ``register_agent`` exist only in this process; a worker plugin registers them
    on every Dask worker, including workers restarted after a crash (their factories must pickle)."""
    from dask.distributed import WorkerPlugin

    from workbench.agents import AGENTS, BUILTIN_AGENTS

    extra = {name: f for name, f in AGENTS.items() if BUILTIN_AGENTS.get(name) is not f}
    if not extra:
        return

    class RegisterAgents(WorkerPlugin):
        name = "workbench-agents"

        def __init__(self, factories: dict[str, Any]) -> None:
            self.factories = factories

        def setup(self, worker: Any) -> None:  # a dask Worker
            from workbench.agents import register_agent

            for agent_name, factory in self.factories.items():
                register_agent(agent_name, factory)

    client.register_plugin(RegisterAgents(extra))


def cpu_workers() -> int:
    """Cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1
