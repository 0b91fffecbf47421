"""``python -m workbench trace``: a study's question asked again at doubling budgets of one agent (a skill trace).

``python -m workbench trace --game pole --grid fortress_rounding=up,down --skill-trace mcts:iterations=50..800
--games 100 --out runs/trace.parquet [--report runs/trace-report]`` plays the grid in self-play with
``mcts:iterations=50``, 100, 200, 400 and 800 (every seat the same agent; each rung double the last, at
least four rungs), stacks the rungs into one games table with the columns ``skill_budget`` and
``skill_agent``, and prints the verdict of ``workbench.balance.trace``: does the first side's advantage,
or the rule's effect on it, grow, shrink, flip or stay stable as the budget doubles, with intervals. The
balance report of that table gains the section "Does the verdict hold at strong play?".
"""

from __future__ import annotations

import math
import os
import resource
import sys
import time
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from workbench.balance.stats import BalanceError
from workbench.balance.trace import AGENT_OF, BUDGET, MIN_RUNGS, trace, trace_frame
from workbench.core.agents import MAX_OPENING
from workbench.core.cliargs import Parser, max_workers, seed, whole
from workbench.games import DEFAULT

MAX_RUNGS = 12


def parse_skill_trace(text: str) -> list[tuple[str, float]]:
    """``mcts:iterations=50..800,rollout=10`` -> [(spec, budget)] for 50, 100, 200, 400, 800 (doubling).

    ``ValueError`` naming the part when there is no ``lo..hi`` range, it does not double at least
    ``MIN_RUNGS - 1`` times, or it holds more than one range."""
    name, _, rest = text.strip().partition(":")
    parts = [p.strip() for p in rest.split(",") if p.strip()]
    ranged = [p for p in parts if ".." in p]
    if not name or len(ranged) != 1 or "=" not in ranged[0]:
        raise ValueError(f"--skill-trace {text!r}: give one agent and one doubling range, e.g. mcts:iterations=50..800")
    key, _, span = ranged[0].partition("=")
    lo_text, _, hi_text = span.partition("..")
    try:
        lo, hi = float(lo_text), float(hi_text)
    except ValueError:
        raise ValueError(f"--skill-trace {text!r}: {key.strip()}={span} needs numbers, e.g. 50..800") from None
    if not (0 < lo < hi) or not math.isfinite(hi):
        raise ValueError(f"--skill-trace {text!r}: the range {span} must be positive and rising")
    budgets: list[float] = []
    b = lo
    while b <= hi * (1 + 1e-9) and len(budgets) <= MAX_RUNGS:
        budgets.append(b)
        b *= 2
    if len(budgets) < MIN_RUNGS:
        raise ValueError(f"--skill-trace {text!r}: {span} doubles into {len(budgets)} rungs; a trace needs at "
                         f"least {MIN_RUNGS} (e.g. {lo:g}..{lo * 2 ** (MIN_RUNGS - 1):g})")
    if len(budgets) > MAX_RUNGS:
        raise ValueError(f"--skill-trace {text!r}: more than {MAX_RUNGS} rungs")
    integer = all(float(x).is_integer() for x in (lo, hi))
    out = []
    for budget in budgets:
        value = str(int(budget)) if integer and budget.is_integer() else f"{budget:g}"
        params = [f"{key.strip()}={value}" if p is ranged[0] else p for p in parts]
        out.append((f"{name}:{','.join(params)}", budget))
    return out


def cpu_seconds() -> float:
    """CPU seconds (user + system) of this process and of its finished workers: the fair figure on a shared
    machine, where wall time grows with the other users' load and CPU time does not."""
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def timing(games: int, wall: float, cpu: float, load: float | None = None) -> str:
    """"800 games in 120.0 s wall, 210.3 s CPU (0.263 s CPU a game), load 3.1" (the 1-minute load average,
    now unless given)."""
    load = os.getloadavg()[0] if load is None else load
    return (f"{games} games in {wall:.1f} s wall, {cpu:.1f} s CPU ({cpu / max(games, 1):.3f} s CPU a game), "
            f"load {load:.1f}")


def run_trace(game: str, grid: Mapping[str, Sequence[Any]] | None, rungs: list[tuple[str, float]], games: int, seed: int,
              max_plies: int | None = None, workers: int | None = None, engine: str = "auto",
              progress: bool = True, opening: int = 0) -> pd.DataFrame:
    """Every rung's self-play batch of ``grid``, stacked, with ``skill_budget`` and ``skill_agent`` columns.

    ``opening``: every game starts with that many plies of fixed random opening, the same openings at every
    rung (seeded by ``seed``: the rungs are then compared on the same starts, game for game).
    The table's ``attrs["rungs"]`` keeps each rung's wall and CPU seconds (workers included)."""
    from workbench.simulate import simulate

    tables, timings = [], []
    for i, (spec, budget) in enumerate(rungs):
        t0, c0 = time.perf_counter(), cpu_seconds()
        df = simulate(dict(grid) if grid else None, spec, spec, games, seed=seed + 1000 * i, game=game, agents=[spec],
                      max_plies=max_plies, workers=workers, engine=engine, progress=progress, opening=opening,
                      opening_seed=seed)
        df = (df[0] if isinstance(df, tuple) else df).assign(**{BUDGET: budget, AGENT_OF: spec})
        tables.append(df)
        wall, cpu = time.perf_counter() - t0, cpu_seconds() - c0
        engines = "/".join(sorted(set(df["engine"].astype(str)))) if "engine" in df.columns else "?"
        load = os.getloadavg()[0]
        timings.append({"agent": spec, "games": len(df), "wall": wall, "cpu": cpu, "load": load, "engine": engines})
        if progress:
            print(f"{spec}: {timing(len(df), wall, cpu, load)}, engine {engines}", flush=True)
    out = pd.concat(tables, ignore_index=True)
    out.attrs["rungs"] = timings
    return out


def main(argv: list[str] | None = None) -> int:
    """Play the trace, print its table and verdict; ``--out`` keeps the games, ``--report`` writes the report."""
    argv = list(sys.argv[1:] if argv is None else argv)
    ap = Parser(prog="python -m workbench trace", description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default=DEFAULT, help="the game (python -m workbench games)")
    ap.add_argument("--skill-trace", required=True, metavar="AGENT:PARAM=LO..HI",
                    help="one agent's doubling budgets, e.g. mcts:iterations=50..800 or search:nodes=500..8000")
    ap.add_argument("--grid", action="extend", nargs="+", default=[], metavar="NAME=V1,V2",
                    help="the study's question: rule values to cross (as simulate's --grid); none: the first seat")
    ap.add_argument("--games", type=whole(2, 1_000_000), default=100, help="games per cell and rung")
    ap.add_argument("--seed", type=seed(), default=0)
    ap.add_argument("--max-plies", type=whole(1, 1_000_000), default=None)
    ap.add_argument("--workers", type=whole(0, max_workers()), default=None)
    ap.add_argument("--engine", default="auto", choices=("auto", "native", "python"))
    ap.add_argument("--out", default=None, help="write the stacked games table to this Parquet file")
    ap.add_argument("--report", default=None, metavar="DIR", help="write the balance report (with the trace) here")
    ap.add_argument("--opening", type=whole(0, MAX_OPENING), default=0, metavar="PLIES",
                    help="a fixed random opening of PLIES plies before the agents play, the same at every rung, so "
                         "deterministic agents do not repeat games (docs/balance.md)")
    ap.add_argument("--no-progress", action="store_true")
    args = ap.parse_args(argv)
    try:
        from workbench.games import get
        from workbench.simulate.grid import parse_grid

        game = get(args.game).name
        rungs = parse_skill_trace(args.skill_trace)
        grid = parse_grid(args.grid) if args.grid else None
        t0, c0 = time.perf_counter(), cpu_seconds()
        table = run_trace(game, grid, rungs, args.games, args.seed, args.max_plies, args.workers, args.engine,
                          progress=not args.no_progress, opening=args.opening)
        seconds, cpu = time.perf_counter() - t0, cpu_seconds() - c0
        result = trace(table)
    except (ValueError, BalanceError) as exc:
        print(f"trace: error: {exc}", flush=True)
        return 2
    if args.out:
        table.to_parquet(args.out)
    print(trace_frame(result).to_string(index=False))
    print(result.sentence())
    if args.no_progress:
        for rung in table.attrs.get("rungs", []):
            print(f"  {rung['agent']}: {timing(rung['games'], rung['wall'], rung['cpu'], rung['load'])}, "
                  f"engine {rung['engine']}")
    print(f"{timing(len(table), seconds, cpu)} (CPU of this process and its workers; wall time on a shared "
          "machine grows with the others' load)")
    if args.report:
        from workbench.balance.report import write_report

        write_report(table, args.report, source=args.out)
        print(f"report in {args.report}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
