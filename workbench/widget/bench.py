"""``python -m workbench.widget.bench``: the general board's first-board time and click latency, per game.

First board: ``Board(game)`` built in a ready kernel, its first view computed and serialised (what the page
receives before it draws). Click: one page message handled (a click, a button or Undo/Redo) and the new view
serialised, the median and the worst of ``--clicks`` messages along a random game. Figures, not a timed
test: the targets (first board under 1 s, clicks under 150 ms on 2 cores) are read off the printout.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

GAMES = (("pole", None, None), ("cursed-lands", None, "combat-ranged.yaml"), ("big-chess", "board=classic-4", None),
         ("big-chess", "start=army", None), ("terrafeud", None, None), ("openspiel:tic_tac_toe", None, None))


def _message(board: Any, rng: random.Random) -> dict[str, Any]:
    """The next page message of a person playing at random: a lit cell, a button, or a step back and forth."""
    v = board.view
    roll = rng.random()
    if v.get("can_undo") and roll < 0.1:
        return {"type": "undo"}
    if v.get("can_redo") and roll < 0.15:
        return {"type": "redo"}
    if v.get("lit") and roll < 0.75:
        return {"type": "click", "cell": rng.choice(v["lit"])}
    if v.get("buttons"):
        return {"type": "choose", "index": rng.randrange(len(v["buttons"]))}
    if v.get("lit"):
        return {"type": "click", "cell": rng.choice(v["lit"])}
    return {"type": "cancel"}


def bench(game: str, rules: str | None, scenario: str | None, clicks: int, seed: int) -> dict[str, Any]:
    from workbench.widget.board import GameBoard

    t0 = time.perf_counter()
    b = GameBoard(game, rules=rules, seed=seed)
    if scenario:
        b.load_scenario(scenario)
    size = len(json.dumps(b.view)) + len(json.dumps(b.geometry))
    first = time.perf_counter() - t0
    rng = random.Random(seed)
    times = []
    for _ in range(clicks):
        if b.view.get("over"):
            b._on_msg(b, {"type": "undo"}, [])
        msg = _message(b, rng)
        t = time.perf_counter()
        b._on_msg(b, msg, [])
        len(json.dumps(b.view))
        times.append(time.perf_counter() - t)
    return {"game": game + (f" ({rules})" if rules else "") + (f" {scenario}" if scenario else ""),
            "first_ms": 1000 * first, "first_kb": size / 1024, "median_ms": 1000 * statistics.median(times),
            "worst_ms": 1000 * max(times), "clicks": len(times)}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m workbench.widget.bench", description=__doc__.splitlines()[0])
    ap.add_argument("--clicks", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    import anywidget  # noqa: F401 - the widget's import is part of a ready kernel, not of the first board

    print(f"{'game':44} {'first board':>12} {'view':>8} {'click median':>13} {'click worst':>12}")
    for game, rules, scenario in GAMES:
        r = bench(game, rules, scenario, args.clicks, args.seed)
        print(f"{r['game']:44} {r['first_ms']:10.0f} ms {r['first_kb']:6.0f} kB {r['median_ms']:10.1f} ms "
              f"{r['worst_ms']:9.1f} ms")


if __name__ == "__main__":
    main()
