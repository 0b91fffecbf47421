"""``python -m workbench.tune.bench``: games a tune spends against a full grid for the same answer.

On the synthetic landscape (``synthetic.landscape``: 36 variants, a known fairest one) it runs the
race over several seeds and prints how often it found the answer, its games (mean, max) and the
full grid's games for the same answer at the same family-wise confidence (``synthetic.grid_games``:
one look, every variant equally, the nearest rival's gap covered). ``--requirement`` adds the
drawish-optimum trap (``decisive>=0.8``); ``--error bonferroni`` shows the stricter accounting.

``--game NAME --space ...`` does the same on real games: it races the space, takes the full grid's
price for the same answer from the race's samples (``report.grid_estimate``), then plays that grid
(every variant the same games, on fresh seeds, one look at the grid's own z) and says whether it
names the same variant. Example::

    python -m workbench.tune.bench --game terrafeud --space coordinated=1..3 --space castling=swap,sacrifice \
      --objective decisiveness --agents greedy --budget 6000
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from .objectives import parse_objective, parse_requirement
from .race import Tuner, VariantRecord, run_race
from .report import build_result
from .space import variant_label
from .synthetic import SyntheticRunner, grid_games, landscape


def run(runs: int = 20, seed: int = 0, trap: bool = False, error: str = "holm", growth: float = 1.5,
        n0: int = 32, alpha: float = 0.05) -> dict[str, Any]:
    """The bench's figures as a dict (the command prints them)."""
    variants, truth = landscape(decisive_trap=trap)
    reqs = [parse_requirement("decisive>=0.8")] if trap else []
    per_variant, grid, best = grid_games(variants, truth, alpha, reqs)
    answer = variant_label(variants[best])
    found, spent, broke = 0, [], 0
    t0 = time.perf_counter()
    for s in range(seed, seed + runs):
        tuner = Tuner([parse_objective("balance")], reqs, SyntheticRunner(truth, s), budget=grid, alpha=alpha,
                      error=error)
        run_race(tuner, variants, n0=n0, growth=growth)
        result = build_result(tuner)
        found += result.recommended == answer
        if result.recommended is not None:
            t = truth(dict(p.split("=") for p in result.recommended.split(",")), 0)
            broke += not all(r.holds(t.value(r.metric)) for r in reqs)
        spent.append(tuner.spent)
    return {"answer": answer, "variants": len(variants), "grid_per_variant": per_variant, "grid": grid,
            "runs": runs, "found": found, "mean": sum(spent) / runs, "max": max(spent), "min": min(spent),
            "broke": broke, "seconds": time.perf_counter() - t0, "error": error, "trap": trap}


def real(game: str, space: list[str], objectives: list[str], requires: list[str], agents: str, budget: int,
         seed: int = 1, n0: int = 16, max_plies: int = 300, workers: int = 0, rules: str | None = None,
         play_grid: bool = True, tolerance: float = 0.0) -> dict[str, Any]:
    """A race on real games, then the full grid it prices, played: games, seconds and both answers."""
    import math

    from workbench.core.rulespec import parse_pairs
    from workbench.games import get

    from . import _agents, tune
    from .runner import GameRunner
    from .stats import look_z

    t0 = time.perf_counter()
    result = tune(game, space, objectives, requires, agents=agents, budget=budget, seed=seed, n0=n0,
                  max_plies=max_plies, workers=workers, rules=rules, search="race", progress=False, tolerance=tolerance)
    out: dict[str, Any] = {"game": game, "answer": result.recommended, "race": result.games, "stop": result.stop_reason,
                 "grid": result.grid_games, "race_seconds": time.perf_counter() - t0, "sentence": result.sentence}
    if not (play_grid and result.grid_games and result.recommended):
        return out
    race_tuner = result.meta["tuner"]
    k, cells = len(race_tuner.variants), len(race_tuner.inner)
    per = int(math.ceil(result.grid_games / (k * cells)))
    gdef = get(game)
    runner = GameRunner(gdef, _agents(gdef, race_tuner.players, agents), race_tuner.inner, seed + 1, max_plies,
                        parse_pairs(rules) if rules else {}, workers=workers)
    t1 = time.perf_counter()
    try:
        grid = Tuner(race_tuner.objectives, race_tuner.requirements, runner, budget=per * k * cells,
                     alpha=race_tuner.alpha, inner=race_tuner.inner, players=race_tuner.players, tolerance=tolerance)
        recs = [grid.variant(r.values) for r in race_tuner.variants]
        # the grid's one look: K - 1 comparisons with the answer per objective and requirement
        grid.z = look_z(grid.alpha, (k - 1) * (len(grid.objectives) + len(grid.requirements)), 1)
        grid.grow({r.index: per for r in recs})
    finally:
        runner.close()
    for r in recs:
        grid.judge_requirements(r)
    fit = [r for r in recs if r.alive and grid.feasible(r)]
    best = grid.best(fit) or grid.best([r for r in recs if r.alive])
    assert best is not None  # some variant is alive after one look (before, a None failed on best.sample)
    obj = grid.objectives[0]
    def settled(r: VariantRecord) -> bool:  # shown worse, or within the tolerance (no separating needed)
        if obj.diff_lower(r.sample, best.sample, grid.context())[0] > 0:
            return True
        return tolerance > 0 and grid.loss(r).value - grid.loss(best).value <= tolerance

    certified = best is not None and all(settled(r) for r in recs if r is not best and r.alive)
    out.update({"grid_played": grid.spent, "grid_per_variant": per, "grid_answer": best.label if best else None,
                "certified": certified, "grid_seconds": time.perf_counter() - t1})
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m workbench.tune.bench", description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--requirement", action="store_true", help="the drawish optimum with decisive>=0.8")
    ap.add_argument("--error", default="both", choices=("holm", "bonferroni", "both"))
    ap.add_argument("--growth", type=float, default=1.5)
    ap.add_argument("--game", default=None, help="race real games of this game instead of the synthetic landscape")
    ap.add_argument("--space", action="append", default=[], help="with --game: the space (as tune --space)")
    ap.add_argument("--objective", action="append", default=[], help="with --game: as tune --objective")
    ap.add_argument("--require", action="append", default=[], help="with --game: as tune --require")
    ap.add_argument("--agents", default="greedy")
    ap.add_argument("--rules", default=None)
    ap.add_argument("--budget", type=int, default=6000)
    ap.add_argument("--n0", type=int, default=16)
    ap.add_argument("--max-plies", type=int, default=300)
    ap.add_argument("--workers", type=int, default=0)
    ap.add_argument("--no-grid", action="store_true", help="with --game: price the grid, do not play it")
    ap.add_argument("--tolerance", type=float, default=0.0, help="with --game: as tune --tolerance")
    args = ap.parse_args(argv)
    if args.game:
        r = real(args.game, args.space, args.objective or ["balance"], args.require, args.agents, args.budget,
                 args.seed or 1, args.n0, args.max_plies, args.workers, args.rules, not args.no_grid, args.tolerance)
        print(f"{r['game']}: the race spent {r['race']} games ({r['race_seconds']:.0f} s), stopped: {r['stop']}")
        print(f"  {r['sentence']}")
        if not r["grid"]:
            print("  no full-grid price: the race did not decide one variant on this budget")
            return 0
        print(f"  a full grid for the same answer: {r['grid']} games; the race used {100 * r['race'] / r['grid']:.0f}%")
        if "grid_played" in r:
            print(f"  that grid played ({r['grid_per_variant']} games a variant, fresh seeds, "
                  f"{r['grid_seconds']:.0f} s): {r['grid_answer']} "
                  f"({'the same answer' if r['grid_answer'] == r['answer'] else 'a different answer'}; "
                  f"{'certified' if r['certified'] else 'not certified'} at the grid's z)")
        return 0
    errors = ("holm", "bonferroni") if args.error == "both" else (args.error,)
    print("landscape | error | found | race games (mean, min-max) | full grid | share of the grid | broke a requirement")
    for trap in ((False, True) if args.requirement else (False,)):
        for error in errors:
            r = run(args.runs, args.seed, trap, error, args.growth)
            name = "drawish optimum, decisive>=0.8" if trap else "plain"
            print(f"{name} | {error} | {r['found']}/{r['runs']} ({r['answer']}) | {r['mean']:.0f} "
                  f"({r['min']}-{r['max']}) | {r['grid']} ({r['variants']} x {r['grid_per_variant']}) | "
                  f"{100 * r['mean'] / r['grid']:.1f}% | {r['broke']} | {r['seconds']:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
