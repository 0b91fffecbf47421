"""Issue 13, batches: arguments checked before any game, one run per folder, no orphans, no silent mixing."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest

from workbench.balance import cli as report_cli
from workbench.simulate import SimulationError, events_path, guard, read_events, read_results, simulate
from workbench.simulate import cli as simulate_cli
from workbench.simulate.guard import OutputLock

SMALL = {"max_plies": 4, "workers": 0, "progress": False}


def _run_cli(capsys, argv: list[str]) -> tuple[int, str]:
    rc = simulate_cli.main(["--games", "2", "--white", "random", "--black", "random", "--max-plies", "4",
                            "--workers", "0", "--no-progress", *argv])
    return rc, capsys.readouterr().err


@pytest.mark.parametrize(("extra", "expected"), [
    (["--grid", "draw_after=99999999999999999999"], "draw_after='99999999999999999999' is not a whole number"),
    (["--white", "alphabeta:depth=inf"], "depth=inf must be an integer"),
    (["--grid", "hills=white:h4/black:h4"], "hill of black on h4"),
    (["--white", "alphabeta:seconds=abc"], "seconds='abc' must be a number"),
    (["--workers", "-3"], "workers=-3 must be between 0"),
    (["--max-plies", "0"], "max_plies=0 must be between 1"),
])
def test_bad_arguments_fail_before_the_first_game(tmp_path, capsys, monkeypatch, extra, expected):
    played = []
    monkeypatch.setattr("workbench.games.terrafeud.rows.play_row", lambda spec, seats: played.append(spec))
    out = tmp_path / "run.parquet"
    rc, err = _run_cli(capsys, [*extra, "--out", str(out)])
    assert rc == 2 and expected in err, err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert not played and not out.exists()


@pytest.mark.parametrize("where", ["under-a-file", "proc"])
def test_out_that_cannot_be_created_is_one_line(tmp_path, capsys, where):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    out = blocker / "run.parquet" if where == "under-a-file" else Path("/proc/terrafeud-run.parquet")
    rc, err = _run_cli(capsys, ["--out", str(out)])
    assert rc == 2 and "cannot create the output folder" in err and err.count("\n") == 1, err


def _children(pid: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(entry))
    return out


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")  # a zombie has died; only its exit status waits to be collected


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_kill_9_of_simulate_takes_its_pool_workers_with_it(tmp_path):
    args = [sys.executable, "-m", "workbench", "simulate", "--games", "400", "--white", "greedy", "--black", "greedy",
            "--workers", "2", "--no-progress", "--out", str(tmp_path / "run.parquet")]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        workers: list[int] = []
        while time.monotonic() < deadline and len(workers) < 2:
            time.sleep(0.1)
            workers = _children(proc.pid)
        assert len(workers) >= 2, "the pool never started"
    finally:
        proc.kill()  # SIGKILL of the parent only, as `kill -9 PID` does
        proc.wait()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and any(_alive(w) for w in workers):
        time.sleep(0.1)
    alive = [w for w in workers if _alive(w)]
    for w in alive:  # don't leave them running if the test fails
        os.kill(w, signal.SIGKILL)
    assert not alive, f"pool workers {alive} outlived their parent"


def test_resume_refuses_a_different_events_setting(tmp_path):
    out = tmp_path / "run.parquet"
    simulate(None, "random", "random", 2, out=out, **SMALL)
    with pytest.raises(SimulationError, match=r"differs in events \(events: stored False, asked True\)"):
        simulate(None, "random", "random", 2, out=out, events=True, resume=True, **SMALL)


def test_resume_refuses_without_the_run_record(tmp_path):
    out = tmp_path / "run.parquet"
    simulate(None, "greedy", "random", 2, seed=1, out=out, **SMALL)
    (out / "_run.json").unlink()
    with pytest.raises(SimulationError, match="cannot resume: its run record _run.json is missing"):
        simulate(None, "mcts", "random", 2, seed=2, out=out, resume=True, **SMALL)
    assert set(read_results(out).white_agent) == {"greedy"}


def _two_batches(tmp_path: Path, strip_metadata: bool) -> Path:
    a, b = tmp_path / "a.parquet", tmp_path / "b.parquet"
    simulate(None, "greedy", "random", 3, seed=1, out=a, events=True, **SMALL)
    simulate(None, "random", "random", 3, seed=2, out=b, events=True, **SMALL)
    for src, dst in ((b, a), (events_path(b), events_path(a))):
        for part in src.glob("part-*.parquet"):
            shutil.copy(part, dst / part.name.replace("merged", "00000"))
    if strip_metadata:  # parts written before runs were recorded in them
        for part in a.glob("part-*.parquet"):
            pq.write_table(pq.read_table(part).replace_schema_metadata(None), part)
    return a


@pytest.mark.parametrize("strip_metadata", [False, True])
def test_report_refuses_a_folder_holding_two_batches(tmp_path, capsys, strip_metadata):
    folder = _two_batches(tmp_path, strip_metadata)
    expected = "game numbers (0, 1, 2) appear" if strip_metadata else "holds parts of 2 different batches"
    with pytest.raises(SimulationError, match=expected.replace("(", r"\(").replace(")", r"\)")):
        read_results(folder)
    if not strip_metadata:
        with pytest.raises(SimulationError, match="holds parts of 2 different batches"):
            read_events(folder)
    rc = report_cli.main([str(folder), "--out", str(tmp_path / "report")])
    err = capsys.readouterr().err
    assert rc == 1 and expected in err and not (tmp_path / "report").exists()


def test_a_second_run_on_the_same_folder_is_refused_while_the_first_holds_it(tmp_path, capsys):
    out = tmp_path / "run.parquet"
    out.mkdir()
    lock = OutputLock(out)
    lock.acquire()  # stands for a first run in progress
    try:
        rc, err = _run_cli(capsys, ["--out", str(out)])
        assert rc == 2 and "another simulate run is writing here (pid" in err, err
        assert not any(out.glob("part-*"))
    finally:
        lock.release()
    rc, err = _run_cli(capsys, ["--out", str(out)])
    assert rc == 0, err


def test_the_lock_of_a_killed_run_does_not_block(tmp_path):
    out = tmp_path / "run.parquet"
    out.mkdir()
    (out / "_lock").write_text("pid 999999 on elsewhere since yesterday")  # its holder died: no flock on it
    (out / "_run.json").write_text('{"seed": 99}')  # ... and it died before writing any game
    games = simulate(None, "random", "random", 2, out=out, **SMALL)
    assert len(games) == 2 and not (out / "_lock").exists()


def test_overwrite_deletes_only_what_simulate_wrote(tmp_path):
    out = tmp_path / "run.parquet"
    simulate(None, "random", "random", 2, out=out, **SMALL)
    mine = out / "my-analysis.parquet"
    pd.DataFrame({"x": [1, 2]}).to_parquet(mine)
    (out / "notes.txt").write_text("keep me")
    games = simulate(None, "greedy", "random", 3, out=out, overwrite=True, **SMALL)
    assert len(games) == 3 and set(games.white_agent) == {"greedy"}
    assert mine.exists() and (out / "notes.txt").read_text() == "keep me"
    assert len(read_results(out)) == 3  # the foreign file is not read as games either


def test_a_file_at_out_is_not_deleted_by_overwrite(tmp_path):
    out = tmp_path / "run.parquet"
    out.write_text("someone's file")
    with pytest.raises(SimulationError, match="exists and is not a folder"):
        simulate(None, "random", "random", 1, out=out, overwrite=True, **SMALL)
    assert out.read_text() == "someone's file"


def test_refused_scheduler_fails_at_once_and_leaves_no_folder(tmp_path, capsys):
    out = tmp_path / "run.parquet"
    t0 = time.monotonic()
    rc, err = _run_cli(capsys, ["--scheduler", "tcp://127.0.0.1:1", "--out", str(out)])
    assert rc == 2 and err.count("\n") == 1 and "cannot connect" in err, err
    assert time.monotonic() - t0 < 5 and not out.exists()


def test_a_scheduler_that_never_answers_fails_within_the_timeout(tmp_path, monkeypatch):
    server = socket.create_server(("127.0.0.1", 0))
    accepted: list[socket.socket] = []
    threading.Thread(target=lambda: accepted.append(server.accept()[0]), daemon=True).start()
    monkeypatch.setattr(guard, "SCHEDULER_TIMEOUT", 1.0)
    out = tmp_path / "run.parquet"
    t0 = time.monotonic()
    try:
        with pytest.raises(SimulationError, match="no answer from a Dask scheduler within 1 s"):
            simulate(None, "random", "random", 1, scheduler=f"tcp://127.0.0.1:{server.getsockname()[1]}", out=out,
                     max_plies=4, progress=False)
    finally:
        server.close()
        for c in accepted:
            c.close()
    assert time.monotonic() - t0 < 4 and not out.exists()


def test_a_failed_start_leaves_nothing_that_blocks_the_next_run(tmp_path, monkeypatch):
    out = tmp_path / "deep" / "run.parquet"

    def broken(*args, **kwargs):
        raise OSError("the cluster did not start")
        yield  # pragma: no cover - makes this a generator like the real backends

    monkeypatch.setattr("workbench.simulate.run_pool", broken)
    with pytest.raises(OSError, match="did not start"):
        simulate(None, "random", "random", 1, out=out, events=True, workers=1, max_plies=4, progress=False)
    assert not (tmp_path / "deep").exists()
    monkeypatch.undo()
    assert len(simulate(None, "random", "random", 1, out=out, **SMALL)) == 1


def test_the_local_cluster_listens_only_where_it_talks():
    psutil = pytest.importorskip("psutil")
    from workbench.simulate.backends import start_local_cluster

    cluster, client = start_local_cluster(2)
    try:
        info = client.scheduler_info()
        comms = {info["address"]} | set(info["workers"]) | {w["nanny"] for w in info["workers"].values()}
        wanted = {int(a.rsplit(":", 1)[1]) for a in comms}
        me = psutil.Process()
        listening = {(c.laddr.ip, c.laddr.port) for p in [me, *me.children(recursive=True)]
                     for c in p.net_connections("tcp") if c.status == psutil.CONN_LISTEN}
    finally:
        client.close()
        cluster.close()
    assert {ip for ip, _ in listening} == {"127.0.0.1"}
    assert {port for _, port in listening} == wanted, "a port nobody asked for (a dashboard/HTTP server) is open"


def test_a_side_named_none_has_no_hill_in_play_and_in_replay():
    from workbench.simulate import replay_game

    games = simulate({"terrain": ["fixed"], "hills": ["white:h4/black:none"]}, "random", "random", 2, max_plies=6,
                     workers=0, progress=False)
    assert games.hill_white.tolist() == ["h4", "h4"] and games.hill_black.isna().all()
    replay = replay_game(games.iloc[1], max_plies=6, events=False).row
    assert (replay["hill_white"], replay["hill_black"], replay["plies"]) == ("h4", None, games.plies.iloc[1])
