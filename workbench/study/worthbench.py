"""Restricted play's benchmark: each game's table of worth with intervals, and its run time on this machine.

``python -m workbench.study.worthbench [--quick] [--out DIR]`` runs ``ablate`` on every game with the
budgets below (greedy against greedy, the pool on every core) and prints each table and its seconds, and an
archetype tournament with α-Rank for each game. The figures of ``docs/worth.md`` come from it; ``--quick``
(one seed per class, two classes a game) checks that the whole chain runs.
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Any

# game -> (classes, the variant it runs under, seeds per class); None: every declared class
RUNS: dict[str, tuple[list[str] | None, dict[str, list[str]] | None, int]] = {
    "terrafeud": (None, None, 10),
    "pole": (None, None, 10),
    "cursed-lands": (["lay_plain", "lay_road", "lay_forest", "lay_hill", "lay_mountain", "orcs_castle",
                      "dwarves_mountain", "counterattack"],
                     {"factions": ["orcs/dwarves"], "counterattack": ["melee"], "turn_limit": ["60"]}, 6),
    "big-chess": (["strike", "push", "portal", "buy_victim", "buy_infantry", "buy_guard", "buy_rook", "buy_queen"],
                  None, 6),
}
STYLES = {"terrafeud": 6, "pole": 6, "cursed-lands": 3, "big-chess": 3}  # seeds per pair of archetypes


def main(argv: list[str] | None = None) -> int:
    """Print every game's worth table and run time, then each game's archetype payoff table and α-Rank."""
    from workbench.simulate.backends import cpu_workers
    from workbench.study.ablate import ablate
    from workbench.study.archetypes import tournament

    ap = argparse.ArgumentParser(prog="python -m workbench.study.worthbench", description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="one seed, two classes a game: the chain runs")
    ap.add_argument("--games", default=",".join(RUNS), help="comma-separated games")
    ap.add_argument("--out", default=None, help="keep the datasets in this folder (resumable)")
    ap.add_argument("--no-styles", action="store_true", help="skip the archetype tournaments")
    args = ap.parse_args(argv)
    workers = cpu_workers()
    print(f"restricted play benchmark: greedy against greedy, {workers} worker(s), {os.cpu_count()} core(s)")
    for game in [g.strip() for g in args.games.split(",") if g.strip()]:
        classes, grid, pairs = RUNS[game]
        kwargs: dict[str, Any] = {}
        if args.out:
            kwargs.update(out=os.path.join(args.out, f"worth-{game}"), resume=True)
        if args.quick:
            from workbench.games import get

            classes, pairs = (classes or get(game).action_classes.names())[:2], 1
        t0 = time.perf_counter()
        run = ablate(game, "greedy", classes, pairs, 0, grid, workers=workers, progress=False, **kwargs)
        print(f"\n=== {game}: {len(run.games)} games, {time.perf_counter() - t0:.1f} s "
              f"({run.games['seconds'].sum():.0f} s of play), mean {run.games['plies'].mean():.0f} plies")
        print(run.text())
        if args.no_styles:
            continue
        t0 = time.perf_counter()
        kw2: dict[str, Any] = {}
        if args.out:
            kw2.update(out=os.path.join(args.out, f"styles-{game}"), resume=True)
        rules = ",".join(f"{k}={v[0]}" for k, v in (grid or {}).items()) or None
        styles = tournament(game, None, 1 if args.quick else STYLES[game], 0, rules, workers=workers, progress=False,
                            **kw2)
        print(f"\n--- {game} archetypes: {len(styles.games)} games, {time.perf_counter() - t0:.1f} s")
        print(styles.text())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
