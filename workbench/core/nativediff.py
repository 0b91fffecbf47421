"""The equality sweep's loop, written once for every game with a native core (``nativediff --game NAME``).

A game's sweep module (declared as ``GameDef.native.sweep``) says how ONE seeded random game is played on
both engines side by side and compared at every ply: its ``play_one(seed, max_plies)`` returns a
:class:`GameCheck`. This module plays the games, counts what was compared, keeps the first differences
(each with the seed that replays it) and prints the same figures for every game: games, plies, legal
actions compared, differences, wall and CPU seconds. ``main`` is the command line every sweep module exposes.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

#: how many differences a sweep keeps in full (every one is counted)
KEEP = 10


@dataclass
class GameCheck:
    """One game of a sweep: what was compared, and the first difference ('' when the engines agreed)."""

    seed: int
    plies: int = 0
    legal: int = 0  # legal actions compared (each list in order)
    diff: str = ""
    result: str = "unfinished"  # how the game ended on the Python engine
    tags: dict[str, Any] = field(default_factory=dict)  # what this game drew (rules, players, cards...)


def first_difference(python: Any, native: Any, path: str = "") -> str:
    """Where two values (dicts, lists, numbers...) first differ, as ``path: python vs native``; '' when equal."""
    if isinstance(python, dict) and isinstance(native, dict):
        for k in sorted(set(python) | set(native), key=str):
            if k not in python or k not in native:
                return f"{path}.{k}: only in {'python' if k in python else 'native'}"
            d = first_difference(python[k], native[k], f"{path}.{k}")
            if d:
                return d
        return ""
    if isinstance(python, (list, tuple)) and isinstance(native, (list, tuple)):
        if len(python) != len(native):
            return f"{path}: length {len(python)} (python) vs {len(native)} (native)"
        for i, (x, y) in enumerate(zip(python, native, strict=True)):
            d = first_difference(x, y, f"{path}[{i}]")
            if d:
                return d
        return ""
    if python == native:
        return ""
    return f"{path}: {json.dumps(python, default=str)[:200]} (python) vs {json.dumps(native, default=str)[:200]} (native)"


def checked(seed: int, body: Callable[[GameCheck], None]) -> GameCheck:
    """Run ``body`` on a fresh :class:`GameCheck`; an ``AssertionError`` it raises becomes the game's difference
    (for sweeps written as asserts)."""
    check = GameCheck(seed)
    try:
        body(check)
    except AssertionError as exc:
        check.diff = str(exc) or "assertion failed"
    return check


def sweep(play_one: Callable[[int, int], GameCheck], games: int, seed: int, max_plies: int,
          progress: bool = False) -> dict[str, Any]:
    """``games`` games, game ``g`` seeded ``seed * 1_000_003 + g``; the figures of the sweep."""
    t0, c0 = time.perf_counter(), time.process_time()
    out: dict[str, Any] = {"games": 0, "plies": 0, "legal_actions": 0, "differences": 0, "first_differences": [],
                           "results": {}, "tags": {}}
    for g in range(games):
        check = play_one(seed * 1_000_003 + g, max_plies)
        out["games"] += 1
        out["plies"] += check.plies
        out["legal_actions"] += check.legal
        if check.diff:
            out["differences"] += 1
            if len(out["first_differences"]) < KEEP:
                out["first_differences"].append({"seed": check.seed, "diff": check.diff, **check.tags})
        else:
            out["results"][check.result] = out["results"].get(check.result, 0) + 1
        for k, v in check.tags.items():
            if isinstance(v, (str, int, bool)):
                per = out["tags"].setdefault(k, {})
                per[str(v)] = per.get(str(v), 0) + 1
        if progress and (g + 1) % 50 == 0:
            print(f"{g + 1} games, {out['plies']} plies, {out['differences']} differences, "
                  f"{time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
    out["seconds"] = round(time.perf_counter() - t0, 1)
    out["cpu_seconds"] = round(time.process_time() - c0, 1)
    return out


def summary_text(name: str, s: dict[str, Any]) -> str:
    """The sweep's figures as lines (the non-JSON output)."""
    lines = [f"{name} nativediff: {s['games']} games, {s['plies']:,} plies, {s['legal_actions']:,} legal actions "
             f"compared in order; {s['differences']} differences; {s['seconds']} s wall, {s['cpu_seconds']} s CPU"]
    if s["results"]:
        lines.append("results: " + ", ".join(f"{k} {v}" for k, v in sorted(s["results"].items())))
    for d in s["first_differences"]:
        lines.append(f"DIFFERENCE {json.dumps(d, default=str)}")
    return "\n".join(lines)


def main(name: str, play_one: Callable[[int, int], GameCheck], available: Callable[[], bool],
         argv: Sequence[str] | None = None, description: str = "", max_plies: int = 300, seed: int = 1) -> int:
    """The command line of a game's sweep: ``--games N --seed S --max-plies P [--json] [--progress]``; exit 1
    when any game differs, 2 when the core is not built or an argument is wrong."""
    ap = argparse.ArgumentParser(prog=f"nativediff --game {name}", description=description.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=seed)
    ap.add_argument("--max-plies", type=int, default=max_plies)
    ap.add_argument("--json", action="store_true", help="the figures as one JSON line")
    ap.add_argument("--progress", action="store_true", help="a line on stderr every 50 games")
    args = ap.parse_args(list(argv) if argv is not None else None)
    if args.games < 1 or args.max_plies < 1:
        print("nativediff: error: --games and --max-plies must be positive", file=sys.stderr)
        return 2
    if not available():
        print(f"nativediff: error: the native core of {name} is not built (make native)", file=sys.stderr)
        return 2
    s = sweep(play_one, args.games, args.seed, args.max_plies, args.progress)
    s["game"] = name
    print(json.dumps(s) if args.json else summary_text(name, s))
    return 1 if s["differences"] else 0


__all__ = ["KEEP", "GameCheck", "checked", "first_difference", "main", "summary_text", "sweep"]
