"""What keeps batches from mixing, leaking or failing late: argument checks, the ``--out`` lock,
file ownership, pool workers that die with their parent, and a scheduler probe that fails fast.

Everything here runs *before* the first game, so a bad argument costs nothing and leaves nothing
behind: a typo in a grid value must not surface as 100% error rows, or as a traceback after an
hour of games. The lock and the ownership rules exist because an output folder is shared state
between runs: a second run writing into it, or ``--overwrite`` deleting a file it never wrote,
silently corrupts someone's data.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import errno
import fcntl
import json
import math
import os
import re
import signal
import socket
import threading
import time
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from workbench.core.cliargs import cores, max_workers

from .dataset import (
    DAMAGED_PREFIX,
    PART_NAME,
    DamagedPartError,
    events_path,
    migrate_manifest,
    read_events,
    read_results,
)
from .seeds import SimulationError, SimulationNotice

MAX_GAMES_PER_CELL = 10_000_000
MAX_PLIES = 1_000_000
# Worker processes: a small multiple of the cores (``core.cliargs.max_workers``); 1000 asked for would
# start 1000 interpreters of ~60 MB each for no speed at all.
MAX_WORKERS = max_workers()
# Memory one game costs until the batch is returned: its spec (~230 B), its row as a dict while
# it waits to be written (~5 KB) and in the final table (~1.6 KB), measured with tracemalloc and
# DataFrame.memory_usage on the 102-column games table, rounded up.
BYTES_PER_GAME = 8_000
MAX_TOTAL_GAMES = 5_000_000  # whatever the memory: a batch beyond this is better split
SCHEDULER_TIMEOUT = 5.0  # seconds for a Dask scheduler to accept and answer the first message
LOCK_NAME = "_lock"
MANIFEST_NAME = "_run.json"
# Files a run writes into its dataset folder (games or events): whole parts (``core.PART_NAME``),
# and the hidden temporaries of an interrupted write. Nothing else there belongs to simulate.
TEMP_NAME = re.compile(r"^\.tmp-part-[0-9a-f]{8}-(?:\d{5}|merged)\.parquet$")

# Lock file descriptors held by this process: a forked pool worker closes its copies, so the lock
# lives exactly as long as the run that took it.
_HELD_LOCKS: list[int] = []


# ---------------------------------------------------------------------- arguments
def _whole(name: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise SimulationError(f"{name}={value!r} must be a whole number")
    if not low <= value <= high:
        raise SimulationError(f"{name}={value} must be between {low} and {high}")
    return value


def check_arguments(games: Any, seed: Any, max_plies: Any, workers: Any, scheduler: Any, flush_seconds: Any,
                    chunk_size: Any) -> None:
    """Types and ranges of the batch's plain arguments, each with its name in the message."""
    _whole("games", games, 1, MAX_GAMES_PER_CELL)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise SimulationError(f"seed={seed!r} must be a whole number")
    _whole("max_plies", max_plies, 1, MAX_PLIES)
    if workers is not None:
        try:
            _whole("workers", workers, 0, max_workers())
        except SimulationError as exc:
            raise SimulationError(f"{exc} (a small multiple of the {cores()} cores here: more processes "
                                  "only add memory)") from None
    if chunk_size is not None:
        _whole("chunk_size", chunk_size, 1, MAX_GAMES_PER_CELL)
    if (isinstance(flush_seconds, bool) or not isinstance(flush_seconds, (int, float))
            or not math.isfinite(flush_seconds) or flush_seconds <= 0):
        raise SimulationError(f"flush_seconds={flush_seconds!r} must be a positive number of seconds")
    if scheduler is not None and not isinstance(scheduler, str):
        raise SimulationError(f"scheduler={scheduler!r} must be text: local-cluster or tcp://host:port")


def available_memory() -> int:
    """Bytes this machine can still give (``MemAvailable``; the physical memory where unknown)."""
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return 8 * 2**30


def max_total_games() -> int:
    """The most games one batch may hold: half the available memory at ``BYTES_PER_GAME`` a game."""
    return max(1, min(MAX_TOTAL_GAMES, available_memory() // 2 // BYTES_PER_GAME))


def check_total(cells: int, games: int) -> None:
    """The whole batch fits in memory: refused before a game list is built, naming the product."""
    total = cells * games
    cap = max_total_games()
    if total > cap:
        raise SimulationError(f"{games:,} games per cell x {cells:,} cells = {total:,} games: at most {cap:,} per batch "
                              f"fit in this machine's memory ({BYTES_PER_GAME // 1000} KB a game); split the grid "
                              "into several batches or play fewer games per cell")


def check_agents(names: Sequence[Any], game: str | None = None) -> None:
    """Build each agent once for ``game`` (the registry's default when None) under its default rules, so a bad
    name or parameter fails here and not in every game (each cell builds them again under its own rules,
    ``check_protocol_specs``)."""
    from workbench.games import DEFAULT

    from .protocol_play import resolved, tool_seats

    gdef = resolved(game or DEFAULT)
    for name in names:
        if not isinstance(name, str):
            raise SimulationError(f"agent {name!r} must be a name like greedy or alphabeta:depth=2")
        try:
            tool_seats(gdef.name).make(name, 0, "auto")
        except (ValueError, TypeError, OverflowError) as exc:
            raise SimulationError(str(exc) if str(exc).startswith("agent") else f"agent {name!r}: {exc}") from None


# ---------------------------------------------------------------------- the output folder
class OutputLock:
    """An exclusive ``flock`` on ``DIR/_lock`` for the whole run.

    The kernel drops a ``flock`` when its holder dies, so the lock of a killed run is never stale:
    the next run simply takes it (the file that stays behind only names the dead run). The file
    is re-checked after locking, because a run finishing at the same moment unlinks it.
    """

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.path = directory / LOCK_NAME
        self.fd: int | None = None

    def acquire(self) -> None:
        """Take the lock or raise ``SimulationError`` naming the run that holds it."""
        for _ in range(5):
            try:
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
            except OSError as exc:
                raise SimulationError(f"{self.directory}: cannot lock the output folder: {_reason(exc)}") from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as exc:
                holder = _read_small(fd)
                os.close(fd)
                if exc.errno in (errno.EAGAIN, errno.EACCES):
                    raise SimulationError(
                        f"{self.directory}: another simulate run is writing here ({holder or 'unknown process'}); "
                        "wait for it to finish or choose another --out") from None
                raise SimulationError(f"{self.directory}: cannot lock the output folder: {_reason(exc)}") from None
            try:
                same = os.stat(self.path, follow_symlinks=False).st_ino == os.fstat(fd).st_ino
            except FileNotFoundError:
                same = False
            if not same:  # the previous holder removed the file between our open and our lock
                os.close(fd)
                continue
            os.ftruncate(fd, 0)
            os.write(fd, f"pid {os.getpid()} on {socket.gethostname()} since {time.strftime('%Y-%m-%d %H:%M:%S')}".encode())
            self.fd = fd
            _HELD_LOCKS.append(fd)
            return
        raise SimulationError(f"{self.directory}: the output lock keeps changing hands; try again")

    def release(self) -> None:
        """Remove the lock file while still holding it, then drop the lock."""
        if self.fd is None:
            return
        with contextlib.suppress(OSError):
            os.unlink(self.path)
        with contextlib.suppress(ValueError):
            _HELD_LOCKS.remove(self.fd)
        os.close(self.fd)
        self.fd = None


class OutputFolder:
    """The ``--out`` dataset folder of one run: created, locked, checked against the batch, released.

    ``open`` returns the game numbers already done (``resume``). A start that fails before any
    game is written leaves nothing that blocks the next run: ``abandon`` removes the run record
    and the folders this run created, and a folder holding a run record but no games counts as
    empty (a killed start).
    """

    def __init__(self, out: str | os.PathLike[str]) -> None:
        self.path = Path(out)
        self.events_path = events_path(self.path)
        self.created: list[Path] = []
        self.lock: OutputLock | None = None

    def open(self, manifest: dict[str, Any], events: bool, resume: bool, overwrite: bool) -> set[int]:
        """Create and lock the folder, then check it: fresh, resumable (same batch) or overwritten."""
        p = self.path
        if p.exists() and not p.is_dir():
            raise SimulationError(f"{p}: exists and is not a folder; simulate writes a dataset folder there, "
                                  "so remove the file yourself or choose another --out")
        self.created = make_folder(p)
        self.lock = OutputLock(p)
        try:
            self.lock.acquire()
        except SimulationError:
            self.lock = None
            remove_empty(self.created)
            raise
        try:
            return self._check(manifest, events, resume, overwrite)
        except BaseException:
            self.close()
            remove_empty(self.created)
            raise

    def _check(self, manifest: dict[str, Any], events: bool, resume: bool, overwrite: bool) -> set[int]:
        p, ep = self.path, self.events_path
        self._remove_owned(temporaries_only=True)
        parts = [n for n in _names(p) if PART_NAME.match(n)]
        record = p / MANIFEST_NAME
        done: set[int] = set()
        if overwrite:
            self._remove_owned(temporaries_only=False)
        elif parts:
            if not resume:
                raise SimulationError(f"{p}: already holds a simulation ({len(parts)} part file(s)); "
                                      "use --resume to complete it or --overwrite to replace it")
            if not record.is_file():
                raise SimulationError(f"{p}: cannot resume: its run record {MANIFEST_NAME} is missing, so nothing says "
                                      "which batch its games belong to; use --overwrite or another --out")
            try:
                old = json.loads(record.read_text(encoding="utf-8"))
                if not isinstance(old, dict):
                    raise ValueError("not a mapping")
            except (OSError, ValueError) as exc:
                raise SimulationError(f"{p}: cannot resume: its run record {MANIFEST_NAME} is unreadable ({exc})") from None
            old, manifest = migrate_manifest(old), migrate_manifest(manifest)  # a record written before reads as today's
            diff = [k for k in sorted(set(manifest) | set(old)) if old.get(k, "(not recorded)") != manifest.get(k)]
            if diff:
                what = "; ".join(f"{k}: stored {old.get(k, '(not recorded)')!r}, asked {manifest.get(k)!r}" for k in diff)
                raise SimulationError(f"{p}: cannot resume, the batch differs in {', '.join(diff)} ({what})")
            self.set_aside_damaged(events)
            done = set(read_results(p, columns=["game_id"])["game_id"].tolist())
            if events and ep.is_dir():  # a game whose events part was set aside is played again
                plies = read_results(p, columns=["game_id", "plies"])
                done &= set(read_events(ep)["game_id"].tolist()) | set(plies.game_id[plies.plies == 0].tolist())
        try:
            record.write_text(json.dumps(manifest, indent=1), encoding="utf-8")
            if events:
                self.created += [f for f in make_folder(ep) if f not in self.created]
        except OSError as exc:
            raise SimulationError(f"{p}: cannot write the run record: {_reason(exc)}") from None
        return done

    def set_aside_damaged(self, events: bool) -> list[str]:
        """``--resume``: rename every part that cannot be read (games or events) out of the dataset,
        with its twin of the other folder, so its games are played again; the names set aside.

        A part is renamed, never deleted: it may still hold something worth rescuing by hand."""
        aside: list[str] = []
        for _ in range(len(_names(self.path)) + len(_names(self.events_path)) + 1):
            try:
                read_results(self.path, columns=["game_id"])
                if events and self.events_path.is_dir():
                    read_events(self.events_path)
                return aside
            except DamagedPartError as exc:
                name = exc.part.name
                for folder in (self.path, self.events_path):
                    if (folder / name).exists():
                        os.replace(folder / name, folder / (DAMAGED_PREFIX + name))
                aside.append(name)
                warnings.warn(f"{exc.part}: damaged, set aside as {DAMAGED_PREFIX}{name}; its games are played again",
                              SimulationNotice, stacklevel=2)
        return aside

    def _remove_owned(self, temporaries_only: bool) -> None:
        """Delete this folder's (and its events folder's) files that simulate writes, and nothing else."""
        for folder in (self.path, self.events_path):
            for name in _names(folder):
                ours = PART_NAME.match(name) or name == MANIFEST_NAME or (
                    name.startswith(DAMAGED_PREFIX) and PART_NAME.match(name[len(DAMAGED_PREFIX):]))
                if TEMP_NAME.match(name) or (not temporaries_only and ours):
                    with contextlib.suppress(FileNotFoundError):
                        (folder / name).unlink()

    def abandon(self) -> None:
        """After a failed start with no game written: remove the run record and our empty folders."""
        if not any(PART_NAME.match(n) for n in _names(self.path)):
            with contextlib.suppress(OSError):
                (self.path / MANIFEST_NAME).unlink()
        self.close()
        remove_empty(self.created)

    def close(self) -> None:
        """Release the lock (the folder and its games stay)."""
        if self.lock is not None:
            self.lock.release()
            self.lock = None


def _names(folder: Path) -> list[str]:
    try:
        return sorted(os.listdir(folder))
    except (FileNotFoundError, NotADirectoryError):
        return []
    except OSError as exc:
        raise SimulationError(f"{folder}: cannot list the output folder: {_reason(exc)}") from None


def _read_small(fd: int) -> str:
    try:
        return os.pread(fd, 200, 0).decode("utf-8", "replace").strip()
    except OSError:
        return ""


def _reason(exc: OSError) -> str:
    return exc.strerror or type(exc).__name__


def make_folder(path: Path) -> list[Path]:
    """Create ``path`` and its missing parents; the folders created, outermost first (to undo a failed start)."""
    missing = []
    p = path
    while not p.exists():
        missing.append(p)
        if p.parent == p:
            break
        p = p.parent
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SimulationError(f"--out {path}: cannot create the output folder: {_reason(exc)}") from None
    if not path.is_dir():
        raise SimulationError(f"--out {path}: is not a folder")
    return list(reversed(missing))


def remove_empty(folders: Sequence[Path]) -> None:
    """Remove the folders a failed start created, innermost first, but only while they are empty."""
    for folder in reversed(folders):
        with contextlib.suppress(OSError):
            folder.rmdir()


# ---------------------------------------------------------------------- pool workers
def worker_initializer(parent_pid: int) -> None:
    """Make a pool worker die with the process that started the pool.

    ``PR_SET_PDEATHSIG`` asks Linux to SIGKILL the worker when its parent dies (even by kill -9);
    a watchdog thread covers other systems and the moment before the ``prctl``: if the parent
    is already gone, the worker has been adopted and ``getppid`` no longer matches.
    """
    for fd in _HELD_LOCKS:  # the run's lock belongs to the run, not to its workers
        with contextlib.suppress(OSError):
            os.close(fd)
    _HELD_LOCKS.clear()
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, int(signal.SIGKILL), 0, 0, 0)
    if os.getppid() != parent_pid:
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(0.5)
            if os.getppid() != parent_pid:
                os._exit(1)

    threading.Thread(target=watch, name="parent-watchdog", daemon=True).start()


# ---------------------------------------------------------------------- Dask schedulers
def probe_scheduler(address: str, timeout: float | None = None) -> None:
    """Check that a Dask scheduler answers at ``address`` within ``timeout`` seconds.

    ``dask.distributed.Client`` waits forever on a server that accepts the connection but never
    answers, and retries a refused port for 30 s; this asks for the scheduler's identity once,
    with a deadline, and raises one ``SimulationError`` line instead.
    """
    timeout = SCHEDULER_TIMEOUT if timeout is None else timeout
    if address.startswith("tcp://"):
        host, _, port = address[len("tcp://"):].rpartition(":")
        host = host.strip("[]")
        if not host or not port.isdigit() or not 0 < int(port) < 65536:
            raise SimulationError(f"--scheduler {address}: use the form tcp://host:port")
        try:
            socket.create_connection((host, int(port)), timeout=timeout).close()
        except OSError as exc:
            raise SimulationError(f"--scheduler {address}: cannot connect ({_reason(exc)})") from None

    async def identity() -> None:
        from distributed.comm.core import connect

        comm = await connect(address, timeout=timeout)  # type: ignore[no-untyped-call]  # dask is untyped
        try:
            await comm.write({"op": "identity"})
            answer = await comm.read()
        finally:
            await comm.close()
        if not isinstance(answer, dict) or answer.get("type") != "Scheduler":
            raise SimulationError(f"--scheduler {address}: the server there is not a Dask scheduler")

    failure: list[BaseException] = []

    def run() -> None:  # its own thread and event loop: a notebook's loop may already be running here
        try:
            asyncio.run(asyncio.wait_for(identity(), timeout))
        except BaseException as exc:  # noqa: BLE001 - handed to the caller below
            failure.append(exc)

    thread = threading.Thread(target=run, name="scheduler-probe", daemon=True)
    thread.start()
    thread.join(timeout + 2.0)
    if thread.is_alive():
        raise SimulationError(f"--scheduler {address}: no answer from a Dask scheduler within {timeout:g} s")
    if not failure:
        return
    error = failure[0]
    if isinstance(error, SimulationError):
        raise error
    if isinstance(error, (TimeoutError, asyncio.TimeoutError)):
        raise SimulationError(f"--scheduler {address}: no answer from a Dask scheduler within {timeout:g} s")
    text = " ".join(str(error).split())[:200] or type(error).__name__
    raise SimulationError(f"--scheduler {address}: cannot talk to a Dask scheduler ({text})")
