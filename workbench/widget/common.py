"""The board's rules for untrusted input: the error it raises, the page's agent caps, file reading and the
scenario picker (``board.py``, ``board_controller.py``). They name no game.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Sequence
from pathlib import Path
from typing import Any

# What a browser may ask of an agent: parameter -> (lowest, highest). Larger values are capped, so a
# page cannot hold the kernel for more than about AGENT_SECONDS: alphabeta and mcts always get that clock
# (``seconds``), and their depth, nodes and iterations are capped as well.
AGENT_SECONDS = 2.0
AGENT_LIMITS: dict[str, dict[str, tuple[float, float]]] = {
    "random": {},
    "greedy": {},
    "alphabeta": {"depth": (1, 6), "nodes": (1, 60_000), "seconds": (0.05, AGENT_SECONDS)},
    "search": {"depth": (1, 20), "nodes": (1, 2_000_000), "seconds": (0.05, AGENT_SECONDS), "qdepth": (0, 12),
               "attack": (0.0, 1.0), "trade": (0.0, 1.0)},
    "mcts": {"iterations": (1, 5000), "rollout_depth": (0, 8), "c": (0.0, 10.0), "scale": (0.01, 100.0),
             "widen": (0.0, 10.0), "seconds": (0.05, AGENT_SECONDS)},
}
AGENT_INTS = {"depth", "nodes", "iterations", "rollout_depth"}
AGENT_CLOCKED = {"alphabeta", "mcts", "search"}  # agents with a ``seconds`` budget: the page always sets one
_ENGINES = ("auto", "python", "native")
AGENT_WORDS: dict[str, dict[str, tuple[Any, ...]]] = {"mcts": {"rollout": ("eval", "random"), "quiesce": (True, False), "engine": _ENGINES},
               "alphabeta": {"engine": _ENGINES}, "search": {"engine": _ENGINES}, "greedy": {"engine": _ENGINES}, "random": {"engine": _ENGINES}}
# The general board's agents are the generic ones (``workbench.agents.generic``), whose parameters are not
# TerraFeud's: ``rollout`` is a number of random actions, ``plan`` has a beam. The same caps, in their terms.
GENERIC_AGENT_LIMITS: dict[str, dict[str, tuple[float, float]]] = {
    "random": {},
    "greedy": {},
    "alphabeta": {"depth": (1, 6), "nodes": (1, 60_000), "seconds": (0.05, AGENT_SECONDS)},
    "search": {"depth": (1, 8), "nodes": (1, 2_000_000), "seconds": (0.05, AGENT_SECONDS)},
    "mcts": {"iterations": (1, 5000), "c": (0.0, 10.0), "rollout": (0, 200), "scale": (0.01, 100.0),
             "seconds": (0.05, AGENT_SECONDS)},
    "plan": {"beam": (1, 16), "steps": (1, 64), "reply": (0, 3)},
}
GENERIC_AGENT_INTS = {"depth", "nodes", "iterations", "rollout", "beam", "steps", "reply"}
GENERIC_AGENT_WORDS: dict[str, dict[str, tuple[Any, ...]]] = {name: {"engine": _ENGINES} for name in GENERIC_AGENT_LIMITS}
# Files a board reads: regular files only, at most this many bytes (records and scenarios are small).
MAX_FILE_BYTES = 512 * 1024
# Where the scenario picker looks: the project's scenarios/ folders (never a path typed in the page).
SCENARIO_ROOT = Path(__file__).resolve().parents[2] / "scenarios"  # the repository's scenarios/


class WidgetError(ValueError):
    """A request the board cannot carry out (bad file, missing module); the message says why."""


def _agent_names() -> list[str]:
    """Names ``workbench.agents.make_agent`` knows (registered ones included), for the panel's menu."""
    try:
        from workbench.agents import agent_names
    except ImportError:
        return []
    return agent_names()


def _short(text: str, limit: int = 300) -> str:
    """A message cut to ``limit`` characters (an error never echoes a whole file or value)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def read_small_file(path: str | Path, limit: int = MAX_FILE_BYTES) -> str:
    """A regular file's text, at most ``limit`` bytes; errors name the path, never its content.

    Opens with O_NONBLOCK and checks the opened file, so a FIFO or device never blocks or floods.
    """
    name = str(path)
    try:
        fd = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        raise WidgetError(f"{name}: cannot open the file") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise WidgetError(f"{name}: not a regular file")
        if info.st_size > limit:
            raise WidgetError(f"{name}: {info.st_size} bytes; the board reads files up to {limit} bytes")
        data = os.read(fd, limit + 1)
    finally:
        os.close(fd)
    if len(data) > limit:
        raise WidgetError(f"{name}: larger than {limit} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise WidgetError(f"{name}: not UTF-8 text") from None


def _num(value: float) -> str:
    """A number for a message: ``30``, ``2.5``, or ``a 330-digit number`` (no float overflow on huge ints)."""
    if isinstance(value, int) and abs(value) >= 10**15:
        return f"a {len(str(abs(value)))}-digit number"
    return f"{value:g}"


def capped_agent_spec(spec: str, game_agents: Sequence[str] = (), generic: bool = False,
                      weights: Sequence[str] = ()) -> tuple[str, list[str]]:
    """An agent spec from the page with every parameter checked and capped (AGENT_LIMITS).

    Returns the spec to run and notes on what was capped. Unknown agents and parameters, and
    values that are not numbers, are refused; ``alphabeta`` always gets a clock of at most
    ``AGENT_SECONDS``, so no request from the page holds the kernel for long. ``game_agents`` are the
    board's game's own agents (``GameDef.game_agents``): accepted by name, without parameters.
    ``generic``: the general board's agents (``GENERIC_AGENT_LIMITS``), not TerraFeud's tuned ones.
    ``weights``: the learned weights files the board offers by name (``workbench.agents.learned``: the
    study's folder, then the game's); ``eval=NAME`` is accepted only for one of them, never a path.
    """
    from workbench.agents import parse_agent_spec as parse

    try:
        base, params = parse(spec)
    except ValueError as exc:
        raise WidgetError(_short(str(exc))) from None
    names = list(GENERIC_AGENT_LIMITS) if generic else _agent_names()
    known = names + [a for a in game_agents if a not in names]
    if base not in known:
        raise WidgetError(_short(f"unknown agent {base!r}; known agents: {', '.join(known)}"))
    limits = (GENERIC_AGENT_LIMITS if generic else AGENT_LIMITS).get(base, {})
    words: dict[str, tuple[Any, ...]] = (GENERIC_AGENT_WORDS if generic else AGENT_WORDS).get(base, {})
    ints = GENERIC_AGENT_INTS if generic else AGENT_INTS
    out: dict[str, Any] = {}
    notes: list[str] = []
    for key, value in params.items():
        if key == "eval" and generic:
            if str(value) not in weights:
                offered = ", ".join(weights) or "none (python -m workbench learn writes one)"
                raise WidgetError(_short(f"{base}: eval={value}: not a weights file the board offers; offered: {offered}"))
            out[key] = str(value)
            continue
        if key in words:
            if value not in words[key]:
                raise WidgetError(f"{base}: {key} must be one of {', '.join(map(str, words[key]))}")
            out[key] = value
            continue
        if key not in limits:
            allowed = ", ".join([*limits, *words]) or "none"
            raise WidgetError(_short(f"{base}: unknown parameter {key!r}; parameters the board accepts: {allowed}"))
        if isinstance(value, str) and re.fullmatch(r"\d{1,6}\^\d{1,2}", value):  # 10^9 as people type it
            a, b = value.split("^")
            value = int(a) ** int(b)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
            raise WidgetError(_short(f"{base}: {key}={value} is not a number"))
        lo, hi = limits[key]
        capped = min(max(value, lo), hi)
        capped = int(capped) if key in ints else float(capped)
        if capped != value:
            notes.append(f"{key} {_num(value)} capped to {_num(capped)}")
        out[key] = capped
    if base in AGENT_CLOCKED:
        out["seconds"] = min(float(out.get("seconds", AGENT_SECONDS)), AGENT_SECONDS)
    text = base + (":" + ",".join(f"{k}={v}" for k, v in out.items()) if out else "")
    return text, notes


_CATALOG: dict[str, dict[str, Any]] = {}  # scenario file -> title and verdict (per process: files rarely change)


def _entry(path: Path) -> dict[str, Any] | None:
    """A scenario file's picker entry (title, game, verdict), cached by modification time; None if unreadable."""
    try:
        mtime = path.stat().st_mtime_ns
    except OSError:
        return None
    key = str(path)
    entry = _CATALOG.get(key)
    if entry is None or entry["mtime"] != mtime:
        try:
            text = read_small_file(path)
        except WidgetError:
            text = ""
        title = re.search(r"^title:\s*(.+)$", text, re.M)
        game = re.search(r"^game:\s*['\"]?([A-Za-z0-9_-]+)", text, re.M)
        entry = {"mtime": mtime, "title": _short(title.group(1).strip().strip("'\""), 120) if title else path.stem,
                 "game": game.group(1) if game else None, "verdict": None}
        _CATALOG[key] = entry
    return entry


def _verdict_of(path: Path) -> str:
    """``pass 3/3``, ``FAIL 1/3``, ``error`` or ``no checks`` for one scenario file (its checks run by the loader)."""
    try:
        from workbench.scenarios.loader import load_scenario_text as load

        results = load(read_small_file(path), source=str(path.name)).run()
    except Exception:  # noqa: BLE001 - one bad file must not hide the others' verdicts
        return "error"
    if not results:
        return "no checks"
    ok = sum(1 for r in results if r.status == "pass")
    if any(r.status == "error" for r in results):
        return f"error {ok}/{len(results)}"
    return f"{'pass' if ok == len(results) else 'FAIL'} {ok}/{len(results)}"


def plain_failure(exc: BaseException) -> str:
    """One line for the panel about an unexpected failure: its kind and a short text, no traceback or path."""
    text = re.sub(r"(/[^\s/'\"]+)+/?", "…", str(exc))[:160]
    return f"the board could not do that ({type(exc).__name__}{': ' + text if text else ''})"
