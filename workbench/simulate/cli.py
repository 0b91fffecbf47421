"""``python -m workbench simulate``: a batch of AI games into a Parquet dataset.

Example::

    python -m workbench simulate --games 200 --white greedy --black random \\
        --grid season=summer,winter --grid swamp=true,false --out runs/swamp.parquet
    python -m workbench simulate --games 50 --white greedy --black greedy \
        --grid archer_range=2,3,4 --grid aura_radius=1,2,3 --out runs/numbers.parquet

It plays N games per cell of the grid's cartesian product (toggles and rule parameters alike;
every value is validated before the first game). ``--out`` names a Parquet dataset
directory that grows as games finish; after an interruption ``--resume`` plays only the missing
games. Read it with ``workbench.simulate.read_results(path)`` (or ``pandas.read_parquet``).
"""

from __future__ import annotations

import sys
import time
import warnings
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from workbench.core.cliargs import Parser
from workbench.core.rulespec import RulesError, parse_pairs
from workbench.games import DEFAULT

from . import SimulationError, simulate
from .grid import MAX_RANGE, parse_grid  # noqa: F401 - named here as before


def _plain_notes() -> None:
    """The run's own notices (a native agent searching with its Python twin, a damaged part set
    aside) as one plain line each on stderr, not as a warning with a source line."""
    from workbench.core.agents import NativeFallbackWarning

    from .core import SimulationNotice

    shown = warnings.showwarning
    if getattr(shown, "workbench_notes", False):  # installed by an earlier call in this process
        return

    def show(message: Warning | str, category: type[Warning], filename: str, lineno: int, file: Any = None,
             line: str | None = None) -> None:
        if issubclass(category, (NativeFallbackWarning, SimulationNotice)):
            print(f"simulate: note: {message}", file=sys.stderr)
        else:
            shown(message, category, filename, lineno, file, line)

    show.workbench_notes = True  # type: ignore[attr-defined]
    warnings.showwarning = show


Planner = Callable[..., Iterable[str]]


def main(argv: list[str] | None = None, planner: Planner | None = None) -> int:
    """Run the batch, print a one-line summary per cell; exit 2 on bad arguments.

    ``planner`` answers ``--plan`` (the command layer hands in balance's ``plan_text``: simulation
    produces tables and never imports the statistics that read them)."""
    ap = Parser(prog="python -m workbench simulate", description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=None, help="games per grid cell (required unless --plan)")
    ap.add_argument("--game", default=DEFAULT,
                    help="the game (python -m workbench games lists them; openspiel:NAME for any pyspiel game)")
    ap.add_argument("--white", default=None, help="agent of the first seat, e.g. greedy or alphabeta:depth=2")
    ap.add_argument("--black", default=None, help="agent of the second seat")
    ap.add_argument("--agents", default=None, metavar="SPEC",
                    help="one agent for every seat (greedy), or one per seat by name: a=greedy,b=mcts:iterations=50")
    ap.add_argument("--grid", action="extend", nargs="+", default=[], metavar="NAME=V1,V2",
                    help="toggle or parameter values to cross, e.g. archer_range=2,3,4 aura_radius=1..3; "
                         "several after one --grid or repeated; hex lists inside one value with '/': "
                         "bridges=b4/f6/k4,b4/k4")
    ap.add_argument("--rules", default="", metavar="K=V,...", help="fixed toggles applied to every cell")
    ap.add_argument("--workers", type=int, default=None, help="processes (default: all cores; 0 = in-process)")
    ap.add_argument("--scheduler", default=None, help="local-cluster or a Dask address tcp://host:port")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--max-plies", type=int, default=None,
                    help="ply cap; a game reaching it is 'unfinished' (default: the game's own cap, as Pole's "
                         "max_turns in plies, else 300)")
    ap.add_argument("--events", action="store_true", help="also write FILE.events.parquet (one row per action)")
    ap.add_argument("--resume", action="store_true", help="complete an interrupted --out without replaying games")
    ap.add_argument("--overwrite", action="store_true", help="replace an existing --out")
    ap.add_argument("--flush-every", type=float, default=1.0, metavar="SECONDS",
                    help="write finished games to --out at least this often")
    ap.add_argument("--engine", default="auto", choices=("auto", "native", "python"),
                    help="auto: the native core when built (same games, faster); python: the pure-Python engine")
    ap.add_argument("--no-progress", action="store_true")
    ap.add_argument("--out", default=None, help="output Parquet dataset, e.g. runs/batch.parquet (required unless --plan)")
    ap.add_argument("--plan", type=float, default=None, metavar="POINTS",
                    help="print the games per cell needed to see a POINTS-point difference, and play nothing")
    ap.add_argument("--power", type=float, default=0.8, help="power for --plan (default 0.8)")
    ap.add_argument("--opening", type=int, default=0, metavar="PLIES",
                    help="a fixed random opening of PLIES plies before the agents play (deterministic agents "
                         "otherwise repeat games); game i's opening is seeded by --opening-seed (default --seed) and i")
    ap.add_argument("--opening-seed", type=int, default=None, metavar="SEED",
                    help="seed of the openings: batches given the same one play the same openings game for game")
    args = ap.parse_args(argv)
    _plain_notes()
    if args.plan is None and (args.games is None or args.out is None):
        ap.error("--games and --out are required (or --plan POINTS to plan a batch without playing)")
    try:
        from workbench.games import get

        game = get(args.game)
        seats = game.info(game.spec.defaults()).players
        agents: tuple[str, ...] = ()
        if args.agents:
            from .protocol_play import parse_seat_agents

            agents = parse_seat_agents(args.agents, seats)
        if not agents and (args.white is None or args.black is None):
            raise SimulationError("give --white and --black (two-player shorthand) or --agents")
        white = args.white or agents[0]
        black = args.black or (agents[1] if len(agents) > 1 else agents[0])
        grid = parse_grid(args.grid)
        fixed = parse_pairs(args.rules) if args.rules else {}
        clash = sorted(set(fixed) & set(grid))
        if clash:
            raise SimulationError(f"toggle {clash[0]!r} is both in --rules and --grid")
        for key, value in fixed.items():
            try:  # named as --rules, not as a grid value (the combination is checked with the grid's cells)
                if key not in game.spec:
                    raise RulesError(game.spec.unknown(key))
                game.spec[key].parse(value)
            except ValueError as exc:
                raise SimulationError(f"--rules {key}={value}: {exc}") from None
            grid[key] = [value]
        if args.plan is not None:
            if planner is None:
                raise SimulationError("--plan needs the statistics layer: run it as `python -m workbench simulate ... --plan`")
            return _plan(grid, args.plan, args.power, planner, game.name, args.games)
        t0 = time.perf_counter()
        result = simulate(grid or None, white, black, args.games, seed=args.seed, game=game.name, agents=agents,
                          max_plies=args.max_plies, workers=args.workers, scheduler=args.scheduler,
                          events=args.events, out=args.out, resume=args.resume, progress=not args.no_progress,
                          overwrite=args.overwrite, flush_seconds=args.flush_every, engine=args.engine,
                          opening=args.opening, opening_seed=args.opening_seed)
    except (SimulationError, RulesError, ValueError) as exc:  # core.RulesError is a ValueError too
        print(f"simulate: error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # a disk or network failure mid-run: one line, not a traceback
        print(f"simulate: error: {exc.filename or ''}{': ' if exc.filename else ''}{exc.strerror or exc}",
              file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"simulate: interrupted; finished games are in {args.out}; rerun with --resume", file=sys.stderr)
        return 130
    games = result[0] if isinstance(result, tuple) else result
    dt = time.perf_counter() - t0
    print(f"{len(games)} games in {args.out} ({dt:.1f} s this run)")
    if "players" in games.columns and len(games):  # the batch's seats (the rules may change them: teams, board)
        seats = tuple(str(games["players"].iloc[0]).split(","))
    seat_names = list(seats) if len(seats) <= 4 else list(seats[:2])
    # a seat wins when its team wins (score_<seat> > 0); the winner column names only a team's first seat
    won = {n: (games[f"score_{n}"] > 0) if f"score_{n}" in games.columns else (games["winner"] == n)
           for n in seat_names}
    games = games.assign(**{f"_won_{n}": w for n, w in won.items()})
    summary = games.groupby("cell", sort=False).agg(
        games=("game_id", "size"),
        **{name: (f"_won_{name}", "mean") for name in seat_names},
        unfinished=("victory", lambda v: (v == "unfinished").mean()),
        errors=("victory", lambda v: (v == "error").sum()),
        plies=("plies", "mean"),
    )
    print(summary.to_string(float_format=lambda x: f"{x:.3f}"))
    from .repeats import repeated_lines, repeated_rows

    if isinstance(result, tuple):  # with the events: exact copies, action for action
        print(repeated_lines(result[0], result[1]).sentence())
    else:
        print(repeated_rows(result).sentence("in length, result and every counter"))
    return 0


def _plan(grid: dict[str, Sequence[Any]], points: float, power: float, plan_text: Planner, game: str = DEFAULT,
          games: int | None = None) -> int:
    """``--plan``: games per cell for the batch's comparisons (``workbench.balance.power``), nothing played."""
    if not 0 < points < 100 or not 0 < power < 1:
        raise SimulationError(f"--plan takes points between 0 and 100 and --power a share between 0 and 1, "
                              f"got {points:g} and {power:g}")
    from .protocol_play import expand_protocol_grid

    expand_protocol_grid(game, grid or None)  # every value checked, as a real batch would, before any figure
    for line in plan_text({k: len(v) for k, v in grid.items()}, points, power, games=games):
        print(line)
    return 0
