"""``python -m workbench.study.bench``: every game's headline question as a skill trace, timed (``make bench``).

For each game that declares one (``GameDef.headline_grid`` and ``GameDef.skill_trace``: TerraFeud's winter
against summer, Pole's ``fortress_rounding``, a Cursed Lands faction pair, big chess's first seat), this
plays the question at every doubling budget of the declared agent (``workbench trace``), and prints the
rungs with their intervals, the verdict, and the figures: games, wall and CPU seconds (workers included)
per rung and in all, the load, the engine. ``make bench`` reruns one trace quickly (``--game``); the
measured traces and the commands behind them are in docs/strength.md. A benchmark prints figures; it
asserts nothing.
"""

from __future__ import annotations

import sys
import time

from workbench.balance.trace import trace, trace_frame
from workbench.core.cliargs import Parser, max_workers, seed, whole

from .trace import cpu_seconds, parse_skill_trace, run_trace, timing


def main(argv: list[str] | None = None) -> int:
    """Run the declared headline traces (``--game`` picks some) and print each one's table, verdict and timing."""
    from workbench.games import get, names

    ap = Parser(prog="python -m workbench.study.bench", description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=whole(2, 100_000), default=50, help="games per cell and rung")
    ap.add_argument("--game", action="append", default=None, help="only these games (repeatable)")
    ap.add_argument("--seed", type=seed(), default=7)
    ap.add_argument("--workers", type=whole(0, max_workers()), default=None)
    ap.add_argument("--engine", default="auto", choices=("auto", "native", "python"))
    args = ap.parse_args(argv)
    chosen = args.game or names()
    for name in chosen:
        try:
            game = get(name)
        except ValueError as exc:
            print(f"bench: error: {exc}")
            return 2
        if not game.skill_trace:
            continue
        grid = {k: list(v) for k, v in game.headline_grid.items()} or None
        t0, c0 = time.perf_counter(), cpu_seconds()
        table = run_trace(game.name, grid, parse_skill_trace(game.skill_trace), args.games, args.seed,
                          workers=args.workers, engine=args.engine, progress=False, opening=game.headline_opening)
        seconds, cpu = time.perf_counter() - t0, cpu_seconds() - c0
        result = trace(table)
        question = ", ".join(f"{k}={'/'.join(v)}" for k, v in (grid or {}).items()) or "the first seat"
        opening = f", after {game.headline_opening} random opening plies" if game.headline_opening else ""
        print(f"\n{game.title}: {question}, {game.skill_trace}{opening}")
        print(trace_frame(result).to_string(index=False))
        print(result.sentence())
        for rung in table.attrs.get("rungs", []):
            print(f"  {rung['agent']}: {timing(rung['games'], rung['wall'], rung['cpu'], rung['load'])}, engine {rung['engine']}")
        print(f"{timing(len(table), seconds, cpu)}, {len(table) / seconds:.2f} games/s wall, engine "
              f"{'/'.join(sorted(set(table['engine'].astype(str))))}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
