"""Agent benchmarks under chosen rules, figures printed (``python -m workbench.study.matchbench``): never timed tests.

Three measurements for the game ``--game`` names, each optional, all through ``workbench.simulate`` (the path
batches take) under ``--rules`` (``k=v,...``, e.g. a batch start):

- ``--match N``: ``--upper`` against ``--lower`` (default ``greedy``), N games with the seats (teams) swapped
  half the time (``study.ladder.play_pair``): the upper agent's score (a draw or unfinished game is half a
  point) with its 95% Wilson interval, the wins, and the wall and CPU time of the N games;
- ``--cells R1 R2 ... --cell-games N``: a balance question, N games in each rules cell with ``--upper`` in every
  seat (e.g. ``teams=ab/cd`` against ``teams=ac/bd``): the first team's win rate per cell with its interval,
  and the wall and CPU time;
- ``--memory N``: a batch of N native random games, the peak resident memory of this process and of its
  largest worker (target: under 1 GB together for 10,000 games).
"""

from __future__ import annotations

import json
import resource
import time
from typing import Any

from workbench.core.cliargs import Parser, max_workers, seed, whole
from workbench.games import DEFAULT


def _cpu() -> float:
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def match(game: str, upper: str, lower: str, games: int, seed_: int, workers: int, max_plies: int | None,
          rules: str | None) -> dict[str, Any]:
    """``upper`` against ``lower``, seats swapped half the time: score, interval, wins, times."""
    from .ladder import play_pair

    cpu0 = _cpu()
    r = play_pair(lower, upper, games, seed_, max_plies or 3000, workers, progress=False, engine="auto", game=game,
                  rules=rules)
    keep = ("games", "upper_wins", "lower_wins", "unfinished", "errors", "upper_score", "score_lo", "score_hi",
            "mean_plies", "game_engine")
    out = {k: (round(v, 4) if isinstance(v, float) else v) for k, v in r.items() if k in keep}
    out.update({"upper": upper, "lower": lower, "rules": rules or "", "seconds": round(r["seconds"], 1),
                "cpu_seconds": round(_cpu() - cpu0, 1), "workers": workers,
                "beats_lower": r["score_lo"] > 0.5})
    return out


def cells(game: str, agent: str, cell_rules: list[str], games: int, seed_: int, workers: int,
          max_plies: int | None) -> dict[str, Any]:
    """``games`` games in each rules cell with ``agent`` in every seat: the first team's win rate per cell."""
    from workbench.simulate import simulate

    from .ladder import wilson

    t0, cpu0 = time.perf_counter(), _cpu()
    df = simulate(cell_rules, agent, agent, games, seed=seed_, max_plies=max_plies, workers=workers, progress=False,
                  engine="auto", game=game, agents=(agent,))
    assert not isinstance(df, tuple)  # events off: the games table alone
    out: dict[str, Any] = {"agent": agent, "games_per_cell": games, "games": len(df),
                           "seconds": round(time.perf_counter() - t0, 1), "cpu_seconds": round(_cpu() - cpu0, 1),
                           "workers": workers, "engines": sorted(set(df.engine)),
                           "errors": int((df.victory == "error").sum()), "mean_plies": round(float(df.plies.mean()), 1),
                           "cells": {}}
    for rules_text, g in df.groupby("rules", sort=False):
        n = len(g)
        first = int((g.winner_team == 0).sum())
        decided = int((g.outcome == "win").sum())
        lo, hi = wilson(first, n)
        out["cells"][str(rules_text)] = {"games": n, "decided": decided, "first_team_wins": first,
                                         "first_team_win_rate": round(first / n, 4), "lo": round(lo, 4),
                                         "hi": round(hi, 4), "teams": str(g.teams.iloc[0])}
    return out


def memory(game: str, games: int, seed_: int, workers: int, rules: str | None) -> dict[str, Any]:
    """A batch of native random games under ``rules``; the peak memory of this process and its workers."""
    from workbench.simulate import simulate

    t0 = time.perf_counter()
    df = simulate([rules] if rules else None, "random", "random", games, seed=seed_, workers=workers, progress=False,
                  engine="native", game=game, agents=("random",))
    assert not isinstance(df, tuple)  # events off: the games table alone
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    kid = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return {"games": len(df), "rules": rules or "", "seconds": round(time.perf_counter() - t0, 1),
            "engines": sorted(set(df.engine)), "table_mb": round(df.memory_usage(deep=True).sum() / 2**20, 1),
            "self_mb": round(own, 1), "largest_worker_mb": round(kid, 1),
            "total_mb_bound": round(own + workers * kid, 1)}


def main(argv: list[str] | None = None) -> int:
    """Run the chosen measurements and print them as JSON."""
    ap = Parser(prog="python -m workbench.study.matchbench", description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default=DEFAULT)
    ap.add_argument("--rules", default=None, help="k=v,... for --match and --memory")
    ap.add_argument("--upper", default="alphabeta:depth=2")
    ap.add_argument("--lower", default="greedy")
    ap.add_argument("--match", type=whole(0, 1_000_000), default=0)
    ap.add_argument("--cells", nargs="+", default=[], metavar="K=V,...")
    ap.add_argument("--cell-games", type=whole(1, 1_000_000), default=200)
    ap.add_argument("--memory", type=whole(0, 1_000_000), default=0)
    ap.add_argument("--workers", type=whole(0, max_workers()), default=min(2, max_workers()))
    ap.add_argument("--seed", type=seed(), default=1)
    ap.add_argument("--max-plies", type=whole(1, 1_000_000), default=None)
    args = ap.parse_args(argv)
    out: dict[str, Any] = {"game": args.game}
    if args.match:
        out["match"] = match(args.game, args.upper, args.lower, args.match, args.seed, args.workers, args.max_plies,
                             args.rules)
    if args.cells:
        out["cells"] = cells(args.game, args.upper, args.cells, args.cell_games, args.seed, args.workers,
                             args.max_plies)
    if args.memory:
        out["memory"] = memory(args.game, args.memory, args.seed, args.workers, args.rules)
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
