"""Agent speed benchmarks: figures printed, never timed tests (``python -m workbench agentbench``).

Three measurements, each optional, all through ``workbench.simulate`` (the path batches take), for
the game ``--game`` names (the registry's default when omitted; every game plays its own agents by
name, through the protocol):

- ``--games N``: ``alphabeta:depth=2`` against itself on both engines in one run, the same seeds,
  games per second each and the native/Python ratio (TerraFeud's target is at least 20x);
- ``--balance N``: a balance question, N games in each cell of ``--grid`` (by default the game's own
  ``GameDef.benchmark_grid``, TerraFeud's winter against summer; none: its default rules) with native ``alphabeta:depth=2`` on ``--workers`` processes, its wall time (target: 1,600
  a side under 10 minutes on 2 workers); with fewer games the full-size time is extrapolated and
  says so;
- ``--memory N``: a batch of N native random games, the peak resident memory of the whole run
  (this process and its workers; target under 1 GB for 10,000 games).

A game without a native core built has nothing to compare, and says so.
"""

from __future__ import annotations

import json
import resource
import sys
import time
from collections.abc import Mapping, Sequence
from typing import Any

from workbench.core.cliargs import Parser, max_workers, seed, whole
from workbench.games import DEFAULT

AB2 = "alphabeta:depth=2"


def _peak_rss_mb() -> dict[str, float]:
    """Peak resident set of this process and of its largest finished child, in MB (Linux: KB units)."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return {"self_mb": round(own, 1), "largest_worker_mb": round(kids, 1)}


def engines_race(games: int, seed: int, max_plies: int, game: str = DEFAULT) -> dict[str, Any]:
    """``alphabeta:depth=2`` self-play (every seat), the same games on each engine, in this process."""
    from workbench.simulate import simulate

    out: dict[str, Any] = {"agent": AB2, "games": games, "max_plies": max_plies}
    tables = {}
    for engine in ("python", "native"):
        t0 = time.perf_counter()
        df = simulate(None, AB2, AB2, games, seed=seed, max_plies=max_plies, workers=0, progress=False,
                      engine=engine, game=game, agents=(AB2,))
        assert not isinstance(df, tuple)  # events off: the games table alone
        tables[engine] = df
        dt = time.perf_counter() - t0
        out[f"{engine}_seconds"] = round(dt, 3)
        out[f"{engine}_games_per_sec"] = round(games / dt, 4)
        out[f"{engine}_plies"] = int(tables[engine].plies.sum())
    out["ratio"] = round(out["native_games_per_sec"] / out["python_games_per_sec"], 1)
    py, nat = tables["python"], tables["native"]
    out["same_games"] = int(((py.winner.values == nat.winner.values) & (py.plies.values == nat.plies.values)).sum())
    return out


def balance_question(games: int, seed: int, workers: int, max_plies: int, full: int = 1600, game: str = DEFAULT,
                     grid: Mapping[str, Sequence[Any]] | None = None) -> dict[str, Any]:
    """``games`` games in each cell of ``grid`` (the game's default question), native ``alphabeta:depth=2``;
    wall time, and the first seat's (or team's) win rate per cell."""
    from workbench.games import get
    from workbench.simulate import simulate

    if grid is None:  # the game's own default question (GameDef.benchmark_grid)
        grid = {k: tuple(v) for k, v in get(game).benchmark_grid.items()}
    t0 = time.perf_counter()
    cpu0 = _cpu_seconds()
    df = simulate(dict(grid) if grid else None, AB2, AB2, games, seed=seed, max_plies=max_plies, workers=workers, progress=False,
                  engine="native", game=game, agents=(AB2,))
    assert not isinstance(df, tuple)  # events off: the games table alone
    dt = time.perf_counter() - t0
    cpu = _cpu_seconds() - cpu0
    out = {"games_a_side": games, "workers": workers, "seconds": round(dt, 1), "cpu_seconds": round(cpu, 1),
           "mean_plies": round(float(df.plies.mean()), 1), "engines": sorted(set(df.engine)),
           "errors": int((df.victory == "error").sum()), **_first_wins(df, grid or {})}
    if games != full:
        out[f"extrapolated_{full}_a_side_minutes"] = round(dt * full / games / 60, 2)
    # On a machine shared with other work the wall time overstates the cost; CPU seconds spread over
    # the workers is what the same run takes when the cores are free.
    out[f"{full}_a_side_minutes_on_free_cores"] = round(cpu * full / games / max(1, workers) / 60, 2)
    return out


def _first_wins(df: Any, grid: Mapping[str, Sequence[Any]]) -> dict[str, Any]:
    """The first team's win rate per cell (by the grid's one rule, else by cell), named by its seat:
    ``white_win_rate`` in TerraFeud's table, which names winners by seat and has no ``winner_team``."""
    by = next(iter(grid)) if len(grid) == 1 and next(iter(grid)) in df.columns else "cell"
    if "winner_team" in df.columns:
        rate = df.groupby(by, observed=True).winner_team.apply(lambda w: float((w == 0).mean()))
        return {"first_team_win_rate": rate.to_dict()}
    first = str(df.players.iloc[0]).split(",")[0]
    rate = df.groupby(by, observed=True).winner.apply(lambda w: float((w == first).mean()))
    return {f"{first}_win_rate": rate.to_dict()}


def _cpu_seconds() -> float:
    """CPU seconds used so far by this process and its finished workers."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def memory_batch(games: int, seed: int, workers: int, game: str = DEFAULT) -> dict[str, Any]:
    """A batch of native random games; the peak memory of this process and its workers."""
    from workbench.simulate import simulate

    t0 = time.perf_counter()
    df = simulate(None, "random", "random", games, seed=seed, workers=workers, progress=False, engine="native",
                  game=game, agents=("random",))
    assert not isinstance(df, tuple)  # events off: the games table alone
    return {"games": len(df), "seconds": round(time.perf_counter() - t0, 1), "table_mb":
            round(df.memory_usage(deep=True).sum() / 2**20, 1), **_peak_rss_mb()}


def main(argv: list[str] | None = None) -> int:
    """Run the chosen measurements and print them (text or ``--json``)."""
    ap = Parser(prog="python -m workbench agentbench", description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=whole(0, 10_000), default=4,
                    help="alphabeta:depth=2 self-play games per engine (0: skip)")
    ap.add_argument("--balance", type=whole(0, 100_000), default=0,
                    help="games in each --grid cell (default: the game's benchmark_grid), native (0: skip)")
    ap.add_argument("--memory", type=whole(0, 1_000_000), default=0,
                    help="native random games for the memory check (0: skip)")
    ap.add_argument("--workers", type=whole(0, max_workers()), default=min(2, max_workers()),
                    help="processes for --balance and --memory (0: in this process)")
    ap.add_argument("--seed", type=seed(), default=1)
    ap.add_argument("--max-plies", type=whole(1, 1_000_000), default=300)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--game", default=DEFAULT, help="the game (python -m workbench games)")
    ap.add_argument("--grid", action="extend", nargs="+", default=[], metavar="NAME=V1,V2",
                    help="the cells --balance compares (default: the game's GameDef.benchmark_grid; "
                         "a game without one plays its default rules)")
    args = ap.parse_args(argv)
    from workbench.games import get
    from workbench.simulate.grid import parse_grid
    from workbench.simulate.protocol_play import resolve_protocol_engine

    try:
        gdef = get(args.game)
        grid = parse_grid(args.grid) if args.grid else None
    except ValueError as exc:  # an unknown game or a bad --grid
        print(f"agentbench: error: {exc}", flush=True)
        return 2
    try:
        resolve_protocol_engine(gdef.name, "native")
    except ValueError:
        print(f"agentbench: no native core of {gdef.title or gdef.name} is built (make setup with cargo builds "
              "the games' native cores); nothing to compare", flush=True)
        return 2
    report: dict[str, Any] = {}
    try:
        if args.games:
            report["engines"] = engines_race(args.games, args.seed, args.max_plies, gdef.name)
        if args.balance:
            report["balance"] = balance_question(args.balance, args.seed, args.workers, args.max_plies,
                                                 game=gdef.name, grid=grid)
        if args.memory:
            report["memory"] = memory_batch(args.memory, args.seed, args.workers, gdef.name)
    except ValueError as exc:  # SimulationError: a batch refused before its first game
        print(f"agentbench: error: {exc}", flush=True)
        return 2
    if args.json:
        print(json.dumps(report, indent=1))
    else:
        for section, figures in report.items():
            print(f"[{section}]")
            for k, v in figures.items():
                print(f"  {k}: {v}")
    sys.stdout.flush()
    return 0
