"""Simulation: the table contract, identical games on every backend, failures, kills, resume."""

from __future__ import annotations

import functools
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from workbench.agents import AGENTS, register_agent
from workbench.games.terrafeud.agents.random_agent import RandomAgent
from workbench.games.terrafeud.rows import drama, lead_changes
from workbench.simulate import (
    EVENT_COLUMNS,
    GAME_COLUMNS,
    SimulationError,
    read_events,
    read_results,
    replay_game,
    simulate,
)

GRID = {"season": ["summer", "winter"], "castling": ["swap", "sacrifice"]}
KINDS = ("feudal", "knight", "pikeman", "cavalry", "archer", "infantry")


def _same_games(a: pd.DataFrame, b: pd.DataFrame) -> None:
    pd.testing.assert_frame_equal(a.drop(columns="seconds").reset_index(drop=True),
                                  b.drop(columns="seconds").reset_index(drop=True))


class FlakyAgent(RandomAgent):
    """Raises on its first move in about a third of the games (decided by its seed)."""

    name = "flaky"

    def select_action(self, state):
        if self.seed % 3 == 0 and state.ply < 2:
            raise RuntimeError("flaky agent gave up")
        return super().select_action(state)


class WorkerKiller(RandomAgent):
    """Kills its worker process once per marker file (a crashed worker), then plays randomly."""

    name = "killer"

    def __init__(self, seed=None, marker: str = "", always: bool = False):
        super().__init__(seed)
        self.marker, self.always = marker, always

    def select_action(self, state):
        if self.seed % 5 == 0 and (self.always or not os.path.exists(self.marker)):
            Path(self.marker).touch()
            os._exit(9)
        return super().select_action(state)


@pytest.fixture
def extra_agents(monkeypatch):
    """Register test agents for this test only (the pool's forked workers inherit them)."""
    monkeypatch.setattr("workbench.agents.AGENTS", dict(AGENTS))
    return register_agent


@pytest.fixture(scope="module")
def small_batch():
    return simulate(GRID, "random", "greedy", 3, seed=11, max_plies=40, workers=0, events=True, progress=False)


def test_games_table_has_the_contract_columns(small_batch):
    games, events = small_batch
    assert list(games.columns) == GAME_COLUMNS
    assert list(events.columns) == EVENT_COLUMNS
    assert len(games) == 12 and games.game_id.is_unique
    assert set(games.cell) == {"default", "season=winter", "castling=sacrifice", "season=winter,castling=sacrifice"}
    assert set(games.winner) <= {"white", "black", "none"}
    assert set(games.victory) <= {"destroyed", "checkmate", "castle", "draw", "unfinished"}
    assert games.error.isna().all()
    assert (games.plies <= 40).all()
    for s in ("white", "black"):
        assert games[f"hill_{s}"].notna().all() and games[f"swamp_{s}"].notna().all()
    assert set(games[games.season == "winter"].cell) <= {"season=winter", "season=winter,castling=sacrifice"}


def test_events_agree_with_the_games_table(small_batch):
    games, events = small_batch
    per_game = events.groupby("game_id")
    assert (per_game.size() == games.set_index("game_id").plies).all()
    for _, g in games.iterrows():
        ev = events[events.game_id == g.game_id]
        letters = " ".join(ev.captured).split()
        for side, case in (("white", str.isupper), ("black", str.islower)):
            lost = sum(g[f"lost_{side}_{k}"] for k in KINDS)
            assert lost == sum(1 for x in letters if case(x))
        assert g.lead_changes == lead_changes(ev.eval_white.tolist())
        assert g.mean_branching == pytest.approx(ev.n_legal.mean())
    assert set(events.side) == {"white", "black"}
    captures = events[events.captured != ""]
    assert (captures.victims != "").all()


def test_lead_changes_and_drama_definitions():
    assert lead_changes([0, 1, 0, -2, -1, 3]) == 2
    # White (side 0) won; it faced Black's positions 2 and 4: -3 and +1 from its view -> mean of 3 and 0.
    assert drama([1.0, -3.0, -2.0, 1.0], [0, 1, 0, 1], winner=0) == pytest.approx(1.5)
    assert drama([1.0, -3.0], [0, 1], winner=None) == 0.0


def test_same_seed_same_games_in_process_and_pool(small_batch):
    games, _ = small_batch
    pool = simulate(GRID, "random", "greedy", 3, seed=11, max_plies=40, workers=2, progress=False)
    _same_games(games, pool)
    other = simulate(GRID, "random", "greedy", 3, seed=12, max_plies=40, workers=0, progress=False)
    assert not games.seed.equals(other.seed)


@pytest.mark.cluster
def test_same_seed_same_games_on_a_dask_local_cluster(small_batch):
    games, _ = small_batch
    dask_games = simulate(GRID, "random", "greedy", 3, seed=11, max_plies=40, workers=2,
                          scheduler="local-cluster", progress=False)
    _same_games(games, dask_games)


def test_a_killed_dask_worker_is_replaced_and_its_games_rerun(tmp_path, extra_agents):
    # The killer agent reaches the Dask workers through the worker plugin; it kills its worker once.
    extra_agents("killer", functools.partial(WorkerKiller, marker=str(tmp_path / "killed")))
    games = simulate(None, "killer", "random", 10, seed=5, max_plies=20, workers=2, scheduler="local-cluster",
                     progress=False, chunk_size=2)
    assert (tmp_path / "killed").exists(), "no game killed its worker: the test proves nothing"
    assert len(games) == 10 and games.game_id.is_unique
    assert (games.victory != "error").all(), games.error.dropna().tolist()
    _same_games(games, simulate(None, "killer", "random", 10, seed=5, max_plies=20, workers=0, progress=False))


def test_a_failing_game_is_recorded_and_the_batch_goes_on(extra_agents):
    extra_agents("flaky", FlakyAgent)
    games = simulate(None, "flaky", "random", 12, seed=3, max_plies=20, workers=2, progress=False)
    failed = games[games.victory == "error"]
    assert 0 < len(failed) < len(games)
    assert games[games.victory != "error"].error.isna().all()
    assert failed.error.str.contains("RuntimeError").all() and failed.error.str.contains("flaky agent gave up").all()
    replay = replay_game(failed.iloc[0], max_plies=20, events=False)
    assert replay.row["victory"] == "error" and replay.row["seed"] == failed.iloc[0].seed


def test_a_killed_worker_is_replaced_and_its_games_retried(tmp_path, extra_agents):
    extra_agents("killer", lambda seed=None: WorkerKiller(seed, marker=str(tmp_path / "killed")))
    games = simulate(None, "killer", "random", 16, seed=5, max_plies=20, workers=2, progress=False, chunk_size=2)
    assert (tmp_path / "killed").exists(), "no game killed its worker: the test proves nothing"
    assert len(games) == 16 and games.game_id.is_unique
    assert (games.victory != "error").all()
    extra_agents("killer", lambda seed=None: WorkerKiller(seed, marker=str(tmp_path / "k2"), always=True))
    games = simulate(None, "killer", "random", 8, seed=5, max_plies=20, workers=2, progress=False, chunk_size=2)
    dead = games[games.victory == "error"]
    assert len(games) == 8 and 0 < len(dead) < 8
    assert dead.error.str.startswith("WorkerDied").all()


def test_output_dataset_and_errors(tmp_path):
    out = tmp_path / "run.parquet"
    games, events = simulate(GRID, "random", "random", 2, seed=1, max_plies=30, workers=0, out=out, events=True,
                             progress=False)
    assert len(read_results(out)) == 8 and len(pd.read_parquet(out)) == 8
    assert len(read_events(out)) == len(events) == games.plies.sum()
    with pytest.raises(SimulationError, match="already holds a simulation"):
        simulate(GRID, "random", "random", 2, seed=1, max_plies=30, workers=0, out=out, progress=False)
    with pytest.raises(SimulationError, match="differs in seed"):
        simulate(GRID, "random", "random", 2, seed=2, max_plies=30, workers=0, out=out, events=True, resume=True,
                 progress=False)
    with pytest.raises(SimulationError, match="grid seasons: unknown rule seasons"):
        simulate({"seasons": ["winter"]}, "random", "random", 1, workers=0, progress=False)
    with pytest.raises(SimulationError, match="unknown agent"):
        simulate(None, "nobody", "random", 1, workers=0, progress=False)


def test_interrupted_run_resumes_without_replaying(tmp_path):
    out = tmp_path / "batch.parquet"
    args = [sys.executable, "-m", "workbench", "simulate", "--games", "40", "--white", "greedy", "--black", "random",
            "--max-plies", "40", "--seed", "9", "--workers", "1", "--flush-every", "0.05", "--no-progress",
            "--engine", "python", "--out", str(out)]  # the Python engine: slow enough to be killed midway
    # Its own session, so the kill takes the whole run (pool workers included), as a user's kill -9 of a job would.
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not any(out.glob("part-*.parquet")):
            time.sleep(0.02)
        time.sleep(0.2)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    partial = read_results(out)
    assert 0 < len(partial) < 40, "the run was not interrupted midway"
    subprocess.run([*args, "--resume"], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    full = read_results(out)
    assert len(full) == 40 and full.game_id.is_unique
    kept = full.set_index("game_id").loc[partial.game_id]
    assert (kept.seconds.values == partial.seconds.values).all(), "finished games were replayed"
    fresh = simulate(None, "greedy", "random", 40, seed=9, max_plies=40, workers=2, progress=False, engine="python")
    _same_games(full, fresh)
