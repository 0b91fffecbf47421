"""The strength ladder: each agent against the one below it, colours alternated. A benchmark.

``python -m workbench ladder [--games 100] [--agents random greedy mcts alphabeta]`` plays every
adjacent pair through ``workbench.simulate`` (so on all cores), half the games with the stronger
agent as White and half as Black, and prints one row per pair: wins of each, unfinished games
(the ply cap), the upper agent's win rate and its score (a win 1, an unfinished game 1/2).
The target is a win rate of at least 75 % at every rung; the table says whether it holds.
"""

from __future__ import annotations

import argparse
import json
import time

import pandas as pd

DEFAULT_LADDER = ("random", "greedy", "mcts:iterations=800", "alphabeta")  # weakest first, as measured


def play_pair(lower: str, upper: str, games: int, seed: int, max_plies: int, workers: int | None,
              progress: bool = True) -> dict[str, object]:
    """``games`` games of ``upper`` against ``lower``, half with each colour."""
    from workbench.simulate import simulate

    half = max(1, games // 2)
    t0 = time.perf_counter()
    a = simulate(None, upper, lower, half, seed=seed, max_plies=max_plies, workers=workers, progress=progress)
    b = simulate(None, lower, upper, games - half if games > 1 else 1, seed=seed + 1, max_plies=max_plies,
                 workers=workers, progress=progress)
    upper_wins = int((a.winner == "white").sum() + (b.winner == "black").sum())
    lower_wins = int((a.winner == "black").sum() + (b.winner == "white").sum())
    n = len(a) + len(b)
    errors = int((a.victory == "error").sum() + (b.victory == "error").sum())
    others = n - upper_wins - lower_wins
    plies = pd.concat([a.plies, b.plies]).mean()
    return {"lower": lower, "upper": upper, "games": n, "upper_wins": upper_wins, "lower_wins": lower_wins,
            "unfinished": others - errors, "errors": errors, "upper_win_rate": upper_wins / n,
            "upper_score": (upper_wins + 0.5 * others) / n, "mean_plies": float(plies),
            "seconds": time.perf_counter() - t0, "target_met": upper_wins / n >= 0.75}


def main(argv: list[str] | None = None) -> int:
    """Print the ladder table (or JSON)."""
    ap = argparse.ArgumentParser(prog="python -m workbench ladder", description=__doc__.split("\n\n")[0])
    ap.add_argument("--agents", nargs="+", default=list(DEFAULT_LADDER),
                    help="weakest first, space-separated specs, e.g. random greedy alphabeta:depth=2,nodes=4000")
    ap.add_argument("--games", type=int, default=100, help="games per pair (colours alternated)")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--max-plies", type=int, default=200)
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    agents = [a.strip() for a in args.agents if a.strip()]
    if len(agents) < 2:
        print("ladder: error: --agents needs at least two agents", flush=True)
        return 2
    rows = []
    for i in range(len(agents) - 1):
        rows.append(play_pair(agents[i], agents[i + 1], args.games, args.seed + 10 * i, args.max_plies,
                              args.workers, progress=not args.json))
        if not args.json:
            r = rows[-1]
            print(f"{r['upper']} vs {r['lower']}: {r['upper_win_rate']:.0%} wins in {r['games']} games", flush=True)
    if args.json:
        print(json.dumps(rows, indent=1))
    else:
        table = pd.DataFrame(rows).set_index(["upper", "lower"])
        print(table.to_string(float_format=lambda x: f"{x:.2f}"))
    return 0
