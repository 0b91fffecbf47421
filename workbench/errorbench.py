"""``python -m workbench.errorbench``: how many games of a batch end as error rows (an agent's action refused).

No agent may ever submit an action outside what it was offered; an error row is a game lost to the
tools, not a result. This bench plays batches and prints, per agent, the games and the error rows with a
95% Wilson interval on their share, so "none in 200" reads as "at most 1.9%". The game and its rules
come from the command line (``make bench`` passes The Cursed Lands with its deck top hidden).

    python -m workbench.errorbench --game cursed-lands --rules deck_top_visible=false \\
        --agent greedy=200 --agent alphabeta:depth=1=50
"""

from __future__ import annotations

import sys
import time
from datetime import datetime, timezone

from workbench.balance.stats import wilson_interval
from workbench.cliargs import Parser
from workbench.core.rulespec import parse_pairs


def main(argv: list[str] | None = None) -> int:
    ap = Parser(prog="python -m workbench.errorbench", description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", required=True)
    ap.add_argument("--rules", default="", help="k=v,... every game plays under")
    ap.add_argument("--agent", action="append", default=[], metavar="SPEC=GAMES",
                    help="an agent for both seats and its number of games (greedy=200)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--engine", default="auto", choices=("auto", "native", "python"))
    args = ap.parse_args(argv)
    from workbench.simulate import simulate

    grid = {k: [v] for k, v in parse_pairs(args.rules).items()} if args.rules else None
    print(f"{datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC, {args.game} {args.rules or '(rulebook rules)'}, "
          f"engine {args.engine}")
    for item in args.agent or ["greedy=200"]:
        spec, _, n = item.rpartition("=")
        t0 = time.perf_counter()
        games = simulate(grid, spec, spec, int(n), seed=args.seed, workers=None, progress=False, engine=args.engine,
                         game=args.game)
        errors = int((games["victory"] == "error").sum())
        lo, hi = wilson_interval(errors, len(games))
        engines = ", ".join(f"{k} {v}" for k, v in games["engine"].value_counts().items())
        print(f"  {spec} vs {spec}: {len(games)} games, {errors} error rows ({100 * errors / len(games):.1f}% "
              f"[{100 * lo:.1f}, {100 * hi:.1f}]), {time.perf_counter() - t0:.1f} s ({engines})")
        if errors:
            print(f"    first: {games.loc[games['victory'] == 'error', 'error'].iloc[0][:200]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
