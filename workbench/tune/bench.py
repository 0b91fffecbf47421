"""``python -m workbench.tune.bench``: games a tune spends against a full grid for the same answer.

On the synthetic landscape (``synthetic.landscape``: 36 variants, a known fairest one) it runs the
race over several seeds and prints how often it found the answer, its games (mean, max) and the
full grid's games for the same answer at the same family-wise confidence (``synthetic.grid_games``:
one look, every variant equally, the nearest rival's gap covered). ``--requirement`` adds the
drawish-optimum trap (``decisive>=0.8``); ``--error bonferroni`` shows the stricter accounting.
"""

from __future__ import annotations

import argparse
import time

from .objectives import parse_objective, parse_requirement
from .race import Tuner, run_race
from .report import build_result
from .space import variant_label
from .synthetic import SyntheticRunner, grid_games, landscape


def run(runs: int = 20, seed: int = 0, trap: bool = False, error: str = "holm", growth: float = 1.5,
        n0: int = 32, alpha: float = 0.05) -> dict:
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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m workbench.tune.bench", description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--requirement", action="store_true", help="the drawish optimum with decisive>=0.8")
    ap.add_argument("--error", default="both", choices=("holm", "bonferroni", "both"))
    ap.add_argument("--growth", type=float, default=1.5)
    args = ap.parse_args(argv)
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
