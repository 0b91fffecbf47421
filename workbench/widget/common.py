"""The board's rules for untrusted input: the error it raises, the page's agent caps, file reading and the
scenario picker (``board.py``, ``board_controller.py``). They name no game.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from workbench.core import AgentCaps
from workbench.core.agents import GENERIC_PREFIX

# What a browser may ask of an agent. Larger values are capped, so a page cannot hold the kernel for more than
# about AGENT_SECONDS: a clocked agent (one with a ``seconds`` range) always gets that clock, and its depth, nodes
# and iterations are capped as well. The generic agents' caps are here, in their terms (``rollout`` is a number of
# random actions, ``plan`` has a beam); a game's own agents are capped by what the game declares
# (``GameDef.agent_caps``), so a tuned agent's own knobs are asked in its own terms.
AGENT_SECONDS = 2.0
_ENGINES = ("auto", "python", "native")
GENERIC_AGENT_CAPS: dict[str, AgentCaps] = {
    "random": AgentCaps(),
    "greedy": AgentCaps(),
    "alphabeta": AgentCaps({"depth": (1, 6), "nodes": (1, 60_000), "seconds": (0.05, AGENT_SECONDS)},
                           ints=frozenset({"depth", "nodes"})),
    "search": AgentCaps({"depth": (1, 8), "nodes": (1, 2_000_000), "seconds": (0.05, AGENT_SECONDS)},
                        ints=frozenset({"depth", "nodes"})),
    "mcts": AgentCaps({"iterations": (1, 5000), "c": (0.0, 10.0), "rollout": (0, 200), "scale": (0.01, 100.0),
                       "seconds": (0.05, AGENT_SECONDS)}, ints=frozenset({"iterations", "rollout"})),
    "plan": AgentCaps({"beam": (1, 16), "steps": (1, 64), "reply": (0, 3)}, ints=frozenset({"beam", "steps", "reply"})),
}
# Files a board reads: regular files only, at most this many bytes (records and scenarios are small).
MAX_FILE_BYTES = 512 * 1024
# Where the scenario picker looks: the project's scenarios/ folders (never a path typed in the page).
SCENARIO_ROOT = Path(__file__).resolve().parents[2] / "scenarios"  # the repository's scenarios/


class WidgetError(ValueError):
    """A request the board cannot carry out (bad file, missing module); the message says why."""


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


def capped_agent_spec(spec: str, own: Mapping[str, AgentCaps] | None = None,
                      weights: Sequence[str] = ()) -> tuple[str, list[str]]:
    """An agent spec from the page with every parameter checked and capped.

    Returns the spec to run and notes on what was capped. Unknown agents and parameters, and values that are not
    numbers, are refused; a clocked agent always gets a clock of at most ``AGENT_SECONDS``, so no request from the
    page holds the kernel for long. ``own``: the board's game's own agents (``GameDef.game_agents``) with what the
    game lets a page ask of them (``GameDef.agent_caps``); an own agent takes its name for that game, and
    ``generic-<name>`` always reaches the generic agent. ``weights``: the learned weights files the board offers by
    name (the study's folder, then the game's); ``eval=NAME`` is accepted for a generic agent or an own agent whose
    caps say it reads learned weights (``AgentCaps.learned``), and only for one of them, never a path.
    """
    from workbench.agents import parse_agent_spec as parse

    own = own or {}
    try:
        base, params = parse(spec)
    except ValueError as exc:
        raise WidgetError(_short(str(exc))) from None
    plain = base[len(GENERIC_PREFIX):] if base.startswith(GENERIC_PREFIX) else base
    generic = base not in own and plain in GENERIC_AGENT_CAPS
    if not generic and base not in own:
        known = [*own, *(n for n in GENERIC_AGENT_CAPS if n not in own),
                 *(GENERIC_PREFIX + n for n in GENERIC_AGENT_CAPS if n in own)]
        raise WidgetError(_short(f"unknown agent {base!r}; known agents: {', '.join(known)}"))
    caps = GENERIC_AGENT_CAPS[plain] if generic else own[base]
    words: dict[str, tuple[Any, ...]] = {"engine": _ENGINES, **caps.words}
    out: dict[str, Any] = {}
    notes: list[str] = []
    for key, value in params.items():
        if key == "eval" and (generic or caps.learned):
            if str(value) not in weights:
                offered = ", ".join(weights) or "none (python -m workbench learn writes one)"
                how = ("not a weights file the board offers: a weights file is chosen by name from the board's "
                       "list, never by a path" if re.search(r"[/\\:~]|^\.", str(value))
                       else "not a weights file the board offers")
                raise WidgetError(_short(f"{base}: eval={value}: {how}; offered: {offered}"))
            out[key] = str(value)
            continue
        if key in words:
            if value not in words[key]:
                raise WidgetError(f"{base}: {key} must be one of {', '.join(map(str, words[key]))}")
            out[key] = value
            continue
        if key not in caps.limits:
            allowed = ", ".join([*caps.limits, *words]) or "none"
            raise WidgetError(_short(f"{base}: unknown parameter {key!r}; parameters the board accepts: {allowed}"))
        if isinstance(value, str) and re.fullmatch(r"\d{1,6}\^\d{1,2}", value):  # 10^9 as people type it
            a, b = value.split("^")
            value = int(a) ** int(b)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
            raise WidgetError(_short(f"{base}: {key}={value} is not a number"))
        lo, hi = caps.limits[key]
        capped = min(max(value, lo), hi)
        capped = int(capped) if key in caps.ints else float(capped)
        if capped != value:
            notes.append(f"{key} {_num(value)} capped to {_num(capped)}")
        out[key] = capped
    if "seconds" in caps.limits:
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
