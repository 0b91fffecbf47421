"""``python -m workbench tune``: search a game's rule space for the variant that plays best.

Example::

    python -m workbench tune --game terrafeud --space archer_range=2..4 --space aura_radius=1..3 \\
      --space castling=swap,sacrifice --objective balance --require 'decisive>=0.8' --require 'plies<=200' \\
      --agents search:nodes=5000 --budget 20000 --seed 1 --out runs/tune.parquet [--scheduler ...] [--resume]
    python -m workbench tune --game cursed-lands --space hp_S=2..4 --space attack_C=1..3 \\
      --space orc_attack_bonus=0..1 --within factions=all --objective faction-spread --budget 40000 ...

Prints the ranked table (variants dropped and why) and the recommendation; with ``--out`` the games
go to a simulate dataset (``report`` reads it) and the report, table and pictures beside it.
"""

from __future__ import annotations

import argparse
import sys

from workbench.games import DEFAULT

from . import SEARCHES, TuneError, tune


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="python -m workbench tune", description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default=DEFAULT, help="the game (python -m workbench games lists them)")
    ap.add_argument("--space", action="append", default=[], metavar="NAME=VALUES", required=True,
                    help="a rule to search: archer_range=2..4, castling=swap,sacrifice, castling=all, x=0.5..1.5")
    ap.add_argument("--objective", action="append", default=[], metavar="NAME",
                    help="balance (default), decisiveness, length[=PLIES], usage, worst, faction-spread; "
                         "several give a Pareto front")
    ap.add_argument("--require", action="append", default=[], metavar="METRIC<=>VALUE",
                    help="a hard requirement judged with intervals: decisive>=0.8, plies<=200, usage>=0.05")
    ap.add_argument("--within", action="append", default=[], metavar="NAME=VALUES",
                    help="an inner grid every variant plays (factions=all); same values as simulate --grid")
    ap.add_argument("--agents", default="random", help="one agent for every seat (greedy) or per seat: a=greedy,b=random")
    ap.add_argument("--rules", default="", metavar="K=V,...", help="fixed rules for every variant")
    ap.add_argument("--budget", type=int, required=True, help="games the search may spend in all")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--max-plies", type=int, default=None,
                    help="ply cap; a game reaching it is unfinished (default: the game's own cap, as Pole's max_turns in plies, else 300)")
    ap.add_argument("--out", default=None, help="the games' Parquet dataset, e.g. runs/tune.parquet")
    ap.add_argument("--resume", action="store_true", help="complete an interrupted --out exactly")
    ap.add_argument("--overwrite", action="store_true", help="replace an existing --out")
    ap.add_argument("--scheduler", default=None, help="local-cluster or a Dask address tcp://host:port (default: pool)")
    ap.add_argument("--workers", type=int, default=None, help="processes (default: all cores; 0 = in-process)")
    ap.add_argument("--search", default="auto", choices=SEARCHES,
                    help="race (discrete spaces), optuna (large or mixed), auto: race when it fits the budget")
    ap.add_argument("--alpha", type=float, default=0.05, help="chance that any drop of the search is wrong")
    ap.add_argument("--n0", type=int, default=32, help="games per variant (per inner cell) in the first round")
    ap.add_argument("--growth", type=float, default=1.5, help="sample growth per round")
    ap.add_argument("--tolerance", type=float, default=0.0,
                    help="stop when the contenders' losses are all within this of each other")
    ap.add_argument("--error", default="holm", choices=("holm", "bonferroni"),
                    help="holm: a dropped variant's error share goes to the contenders; bonferroni: stricter")
    ap.add_argument("--halving", action="store_true", help="optuna: add its SuccessiveHalvingPruner (rank-based)")
    ap.add_argument("--engine", default="auto", choices=("auto", "native", "python"))
    ap.add_argument("--no-progress", action="store_true")
    return ap


def main(argv: list[str] | None = None) -> int:
    """Run the tune; print the table and the sentence; exit 2 on bad arguments."""
    args = build_parser().parse_args(argv)
    try:
        result = tune(args.game, args.space, args.objective or ["balance"], args.require, args.within, args.agents,
                      budget=args.budget, seed=args.seed, out=args.out, resume=args.resume, overwrite=args.overwrite,
                      scheduler=args.scheduler, workers=args.workers, max_plies=args.max_plies, rules=args.rules or None,
                      search=args.search, alpha=args.alpha, n0=args.n0, growth=args.growth, tolerance=args.tolerance,
                      error=args.error, halving=args.halving, progress=not args.no_progress, engine=args.engine)
    except (TuneError, ValueError) as exc:
        print(f"tune: error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"tune: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        where = f"; finished games are in {args.out}; rerun with --resume" if args.out else ""
        print(f"tune: interrupted{where}", file=sys.stderr)
        return 130
    import pandas as pd

    with pd.option_context("display.max_colwidth", None, "display.width", 200):  # the "why" column whole
        print(result.table.to_string(index=False))
    print()
    print(result.sentence)
    cost = f"{result.games} games of {result.budget} in {result.seconds:.1f} s; stopped: {result.stop_reason}"
    if result.grid_games:
        cost += f"; a full grid would need about {result.grid_games} ({100 * result.games / result.grid_games:.0f}%)"
    print(cost)
    if result.meta.get("report"):
        print(f"report: {result.meta['report']}")
    return 0
