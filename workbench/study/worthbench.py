"""Restricted play's benchmark: each game's table of worth with intervals, and its run time on this machine.

``python -m workbench.study.worthbench [--quick] [--out DIR]`` runs ``ablate`` on every game with the
budgets of its options (greedy against greedy, the pool on every core) and prints each table and its seconds, and an
archetype tournament with α-Rank for each game: every game that declares action classes, its first
``--max-classes`` classes, ``--pairs`` seeds each (``--variants``: under the game's ``benchmark_grid``). The
figures of ``docs/worth.md`` come from ``ablate`` runs written there; ``--quick`` (one seed, two classes a game)
checks that the whole chain runs and, with ``--peer``, how much faster barred games play natively than on the
Python engine, the same games in the same run (``make bench``).
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Any

MAX_CLASSES = 10  # a game with many classes (big chess: a card each) is benchmarked on its first ten


def main(argv: list[str] | None = None) -> int:
    """Print every game's worth table and run time, then each game's archetype payoff table and α-Rank."""
    from workbench.balance.worth import worth_frame
    from workbench.simulate.backends import cpu_workers
    from workbench.study.ablate import ablate
    from workbench.study.archetypes import tournament

    ap = argparse.ArgumentParser(prog="python -m workbench.study.worthbench", description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="one seed, two classes a game: the chain runs")
    ap.add_argument("--games", default="", help="comma-separated games (default: every game that declares classes)")
    ap.add_argument("--pairs", type=int, default=10, help="seeds per class (and per pair of archetypes)")
    ap.add_argument("--max-classes", type=int, default=MAX_CLASSES, help="the first N declared classes of each game")
    ap.add_argument("--variants", action="store_true", help="under the game's benchmark grid (GameDef.benchmark_grid)")
    ap.add_argument("--out", default=None, help="keep the datasets in this folder (resumable)")
    ap.add_argument("--no-styles", action="store_true", help="skip the archetype tournaments")
    ap.add_argument("--engine", default="auto", choices=("auto", "native", "python"), help="ablate's engine")
    ap.add_argument("--peer", action="store_true",
                    help="replay each native ablation on the Python engine and print the speed ratio")
    args = ap.parse_args(argv)
    from workbench.core.classes import ActionClasses
    from workbench.games import get, names

    chosen = [g.strip() for g in args.games.split(",") if g.strip()] or [
        n for n in names() if (get(n).action_classes or ActionClasses()).classes]
    workers = cpu_workers()
    print(f"restricted play benchmark: greedy against greedy, {workers} worker(s), {os.cpu_count()} core(s)")
    for game in chosen:
        gdef = get(game)
        classes = (gdef.action_classes or ActionClasses()).names()[: 2 if args.quick else args.max_classes]
        pairs = 1 if args.quick else args.pairs
        grid = {k: list(v) for k, v in gdef.benchmark_grid.items()} if args.variants and gdef.benchmark_grid else None
        kwargs: dict[str, Any] = {}
        if args.out:
            kwargs.update(out=os.path.join(args.out, f"worth-{gdef.name}"), resume=True)
        t0 = time.perf_counter()
        run = ablate(game, "greedy", classes, pairs, 0, grid, workers=workers, progress=False, engine=args.engine,
                     **kwargs)
        wall = time.perf_counter() - t0
        engines = ", ".join(f"{n} {e}" for e, n in run.games["engine"].value_counts().items())
        print(f"\n=== {game}: {len(run.games)} games ({engines}), {wall:.1f} s wall, "
              f"{run.games['seconds'].sum():.1f} s of play, mean {run.games['plies'].mean():.0f} plies")
        print(run.text())
        if args.peer and set(run.games["engine"]) == {"native"}:  # the same games on the Python engine: the ratio
            peer = ablate(game, "greedy", classes, pairs, 0, grid, workers=workers, progress=False, engine="python")
            native_s, python_s = run.games["seconds"].sum(), peer.games["seconds"].sum()
            same = worth_frame(peer.result).equals(worth_frame(run.result))
            print(f"--- {game} barred games natively: {native_s:.2f} s of play against {python_s:.2f} s on the Python "
                  f"engine for the same {len(run.games)} games: {python_s / max(native_s, 1e-9):.1f}x "
                  f"({'the same worth table' if same else 'TABLES DIFFER'})")
        if args.no_styles:
            continue
        t0 = time.perf_counter()
        kw2: dict[str, Any] = {}
        if args.out:
            kw2.update(out=os.path.join(args.out, f"styles-{gdef.name}"), resume=True)
        styles = tournament(game, None, pairs, 0, None, workers=workers, progress=False, **kw2)
        print(f"\n--- {game} archetypes: {len(styles.games)} games, {time.perf_counter() - t0:.1f} s")
        print(styles.text())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
