"""Real games for a tune: requests become simulate's ``GameSpec``s, run on simulate's backends
(in-process, the process pool, Dask), and land in a Parquet dataset of simulate's format.

A tune's dataset is an ordinary simulate output: the same part files and columns (``report``
reads it), one run record (``_run.json`` and every part's metadata) naming the tune, and game
ids ``cell * stride + index``, where ``cell`` numbers a (variant, inner cell) pair in the order
the search first met it. A game's seed is the one simulate would give game ``index`` of cell
``cell`` (``core.game_seed``, or the protocol game's salted seed), so the games do not depend on
which backend played them or when. ``resume`` reads the games already in the dataset and plays
only the missing ones; the search, fed the same rows in the same order, takes the same decisions.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from workbench.core.rulespec import RulesError
from workbench.simulate.core import GameSpec, PartWriter, SimulationError, read_results

from .race import Request, VariantRecord


class GameRunner:
    """Plays a tune's games of one game with fixed agents, cap and seed; see the module doc."""

    def __init__(self, game: Any, agents: Sequence[str], inner: Sequence[dict[str, Any]], seed: int = 0,
                 max_plies: int | None = None, fixed: dict[str, Any] | None = None, out: str | os.PathLike[str] | None = None,
                 resume: bool = False, overwrite: bool = False, scheduler: str | None = None,
                 workers: int | None = None, manifest: dict[str, Any] | None = None, engine: str = "auto",
                 chunk_size: int | None = None) -> None:
        from workbench.simulate.backends import cpu_workers

        self.game = game
        self.name = game.name
        self.agents = tuple(agents)
        self.inner = list(inner) or [{}]
        self.seed = int(seed)
        self.max_plies = None if max_plies is None else int(max_plies)  # None: each variant's own cap (cap_for)
        self.fixed = dict(fixed or {})
        self.workers = cpu_workers() if workers is None else int(workers)
        self.scheduler = scheduler
        self.chunk_size = chunk_size
        self.cache: dict[int, dict[str, Any]] = {}
        self.played = 0  # games this process played (not read back)
        self.on_games = None  # called with a number of games as they finish (the progress bar)
        try:  # the game's native core, as simulate resolves it
            from workbench.simulate.protocol_play import resolve_protocol_engine

            self.engine = resolve_protocol_engine(self.name, engine)
        except (ValueError, RuntimeError) as exc:
            raise SimulationError(str(exc)) from None
        self._cluster = None
        self._address = None
        if scheduler == "local-cluster":
            from workbench.simulate.backends import start_local_cluster

            self._cluster, client = start_local_cluster(max(1, self.workers))
            self._address = client.scheduler.address
            client.close()
        elif scheduler is not None and scheduler not in ("pool", "processes", "inprocess"):
            if not scheduler.startswith(("tcp://", "tls://", "ws://")):
                raise SimulationError(f"scheduler={scheduler!r}: use local-cluster, a tcp://host:port address, or none")
            from workbench.simulate.guard import probe_scheduler

            probe_scheduler(scheduler)
            self._address = scheduler
        self.writer = None
        self.folder = None
        self.out = out
        if out is not None:
            from workbench.simulate.guard import OutputFolder

            self.folder = OutputFolder(out)
            done = self.folder.open(manifest or {}, False, resume, overwrite)
            if done:
                table = read_results(out)
                for row in table.to_dict("records"):
                    self.cache[int(row["game_id"])] = row
            self.writer = PartWriter(out, False, manifest=manifest)

    # ------------------------------------------------------------------ rules of a cell
    def rules(self, values: dict[str, Any], inner: int) -> Any:
        """The validated rules of a variant's inner cell (``RulesError`` names the rule)."""
        return self.game.spec.make({**self.fixed, **values, **self.inner[inner]})

    def check(self, values: dict[str, Any]) -> str | None:
        """Why a variant cannot be played (an impossible combination), or None."""
        try:
            for i in range(len(self.inner)):
                self.rules(values, i)
        except RulesError as exc:
            return str(exc)
        return None

    def cap_for(self, rules: Any) -> int:
        """The ply cap of a variant: the tune's ``max_plies``, else the game's own under those rules, else 300."""
        if self.max_plies is not None:
            return self.max_plies
        from workbench.simulate.protocol_play import default_max_plies

        return default_max_plies(self.name, [rules])

    def spec(self, request: Request, rec: VariantRecord, cell: int) -> GameSpec:
        rules = self.rules(rec.values, request.inner)
        cap = self.cap_for(rules)
        from workbench.simulate.protocol_play import cell_spec, protocol_game_seed

        label, data = cell_spec(self.game, rules)
        return GameSpec(request.game_id, label, data, seed=protocol_game_seed(self.name, self.seed, cell, request.index),
                        max_plies=cap, events=False, engine=self.engine, game=self.name, agents=tuple(self.agents))

    # ------------------------------------------------------------------ playing
    def play(self, requests: Sequence[Request], variants: Sequence[VariantRecord]) -> dict[int, dict[str, Any]]:
        """Rows of the requested games: from the dataset when already played, else played now."""
        from workbench.simulate.backends import run_dask, run_inprocess, run_pool

        n_inner = len(self.inner)
        todo = [self.spec(r, variants[r.variant], variants[r.variant].index * n_inner + r.inner)
                for r in requests if r.game_id not in self.cache]
        if self.on_games is not None and len(requests) > len(todo):
            self.on_games(len(requests) - len(todo))  # found in the dataset (a resumed tune)
        if todo:
            if self._address is not None:
                stream = run_dask(todo, self._address, max(1, self.workers), self.chunk_size)
            elif self.workers == 0 or self.scheduler == "inprocess" or len(todo) < 4:
                stream = run_inprocess(todo)
            else:
                stream = run_pool(todo, self.workers, self.chunk_size)
            try:
                for results in stream:
                    for res in results:
                        self.cache[int(res.row["game_id"])] = res.row
                        if self.writer is not None:
                            self.writer.add(res)
                    self.played += len(results)
                    if self.on_games is not None:
                        self.on_games(len(results))
            finally:
                close = getattr(stream, "close", None)
                if close is not None:
                    close()
                if self.writer is not None:
                    self.writer.flush()
        return {r.game_id: self.cache[r.game_id] for r in requests}

    def close(self) -> None:
        """Compact the dataset, release the folder, stop a cluster this runner started."""
        try:
            if self.writer is not None:
                self.writer.close(compact=True)
        finally:
            if self.folder is not None:
                self.folder.close()
            if self._cluster is not None:
                self._cluster.close()
                self._cluster = None
