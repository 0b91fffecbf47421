"""The strength ladder: each agent against the one below it, colours alternated. A benchmark.

``python -m workbench ladder [--games 100] [--agents random greedy mcts alphabeta] [--engine auto]``
plays every adjacent pair through ``workbench.simulate`` (so on all cores), half the games with
the stronger agent as White and half as Black, and prints one row per pair: wins of each,
unfinished games (the ply cap), the upper agent's win rate and its score (a win 1, an unfinished
game 1/2) with a 95 % confidence interval, and the engine each agent searched with.
The target is a win rate of at least 75 % at every rung; the table says whether it holds.
``--engine`` picks the engine for every agent; a spec's own ``engine=`` pins one agent, so
``--agents alphabeta:engine=python alphabeta:engine=native`` measures a native twin against
its Python original (about 50 % when they are equally strong).
"""

from __future__ import annotations

import json
import math
import time

import pandas as pd

from workbench.cliargs import Parser, max_workers, seed, whole
from workbench.games import DEFAULT

LADDER_MAX_PLIES = 200  # the ladder's cap when neither the user nor the game names one (TerraFeud)
DEFAULT_LADDER = ("random", "greedy", "mcts:iterations=800", "alphabeta", "search")  # weakest first, as measured


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson score interval of a proportion (robust near 0 and 1, unlike p ± 2 SE)."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def agent_engines(spec: str, engine: str, game: str = DEFAULT) -> str:
    """The engine ``spec`` searches with under ``--engine engine``: "native" or "python".

    A game with agents of its own (``GameDef.tuned_agents``) plays them; any other game the generic ones
    (a seat pinned ``engine=native`` plays the game's native twin, ``GameDef.native.agent``)."""
    from workbench.games import get

    gdef = get(game)
    if gdef.tuned_agents() is None:
        from workbench.simulate.protocol_play import seat_agent

        return seat_agent(gdef, spec, gdef.spec.defaults(), 0).engine
    from workbench.agents import make_agent

    return make_agent(spec, seed=0, engine=engine, game=gdef.name).engine


def _team_agents(game: str, first: str, second: str) -> tuple[tuple[str, ...], int]:
    """Seat agents with ``first`` in every seat of the first team and ``second`` elsewhere; seats."""
    from workbench.games import get

    g = get(game)
    info = g.info(g.spec.defaults())
    return tuple(first if info.team_of(i) == 0 else second for i in range(info.num_players)), info.num_players


def _team_wins(table: pd.DataFrame, team: int) -> int:
    """Games of ``table`` won by ``team``: its ``winner_team`` column, or, in a two-seat table without
    one (TerraFeud's), the winner named by the team's seat in ``players``."""
    if "winner_team" in table.columns:
        return int((table.winner_team == team).sum())
    seats = table.players.astype(str).str.split(",").str[team]
    return int((table.winner.astype(str) == seats).sum())


def play_pair(lower: str, upper: str, games: int, seed: int, max_plies: int, workers: int | None,
              progress: bool = True, engine: str = "auto", game: str = DEFAULT) -> dict[str, object]:
    """``games`` games of ``upper`` against ``lower``, half with each colour (each team, in any game)."""
    from workbench.simulate import simulate

    half = max(1, games // 2)
    t0 = time.perf_counter()
    kw = {"max_plies": max_plies, "workers": workers, "progress": progress, "engine": engine}
    first, _ = _team_agents(game, upper, lower)
    second, _ = _team_agents(game, lower, upper)
    a = simulate(None, upper, lower, half, seed=seed, game=game, agents=first, **kw)
    b = simulate(None, lower, upper, games - half if games > 1 else 1, seed=seed + 1, game=game, agents=second, **kw)
    upper_wins = _team_wins(a, 0) + _team_wins(b, 1)
    lower_wins = _team_wins(a, 1) + _team_wins(b, 0)
    n = len(a) + len(b)
    errors = int((a.victory == "error").sum() + (b.victory == "error").sum())
    others = n - upper_wins - lower_wins
    plies = pd.concat([a.plies, b.plies]).mean()
    score = (upper_wins + 0.5 * others) / n
    win_lo, win_hi = wilson(upper_wins, n)
    score_lo, score_hi = wilson(upper_wins + 0.5 * others, n)
    games_engine = sorted(set(pd.concat([a.get("engine", pd.Series(dtype=str)),
                                         b.get("engine", pd.Series(dtype=str))]).dropna()))

    def seat_engine(spec: str) -> str:
        """Where the agent searched: in whole native games every seat searched in the native core."""
        return "native" if games_engine == ["native"] else agent_engines(spec, engine, game)

    return {"lower": lower, "upper": upper, "games": n, "upper_wins": upper_wins, "lower_wins": lower_wins,
            "unfinished": others - errors, "errors": errors, "upper_win_rate": upper_wins / n,
            "win_rate_lo": win_lo, "win_rate_hi": win_hi, "upper_score": score, "score_lo": score_lo,
            "score_hi": score_hi, "mean_plies": float(plies), "seconds": time.perf_counter() - t0,
            "upper_engine": seat_engine(upper), "lower_engine": seat_engine(lower),
            "game_engine": "/".join(games_engine) or "python", "target_met": upper_wins / n >= 0.75}


def main(argv: list[str] | None = None) -> int:
    """Print the ladder table (or JSON)."""
    ap = Parser(prog="python -m workbench ladder", description=__doc__.split("\n\n")[0])
    ap.add_argument("--agents", nargs="+", default=list(DEFAULT_LADDER),
                    help="weakest first, space-separated specs, e.g. random greedy alphabeta:depth=2,nodes=4000")
    ap.add_argument("--games", type=whole(1, 1_000_000), default=100, help="games per pair (colours alternated)")
    ap.add_argument("--seed", type=seed(), default=2024)
    ap.add_argument("--max-plies", type=whole(1, 1_000_000), default=None,
                    help="ply cap (default: the game's own cap, as Pole's max_turns in plies, else 200)")
    ap.add_argument("--workers", type=whole(0, max_workers()), default=None)
    ap.add_argument("--engine", default="auto", choices=("auto", "native", "python"),
                    help="engine of every agent (a spec's own engine= wins); auto = native when built")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--game", default=DEFAULT, help="the game (python -m workbench games)")
    args = ap.parse_args(argv)
    agents = [a.strip() for a in args.agents if a.strip()]
    try:
        from workbench.games import get

        game = get(args.game).name
    except ValueError as exc:
        print(f"ladder: error: {exc}", flush=True)
        return 2
    if len(agents) < 2:
        print("ladder: error: --agents needs at least two agents", flush=True)
        return 2
    try:
        for spec in agents:
            agent_engines(spec, args.engine, game)  # validate every spec (and the engine) before any game
    except (ValueError, RuntimeError) as exc:  # RuntimeError: engine=native without the native build
        print(f"ladder: error: {exc}", flush=True)
        return 2
    from workbench.simulate.protocol_play import default_max_plies

    max_plies = args.max_plies if args.max_plies is not None else default_max_plies(game, fallback=LADDER_MAX_PLIES)
    rows = []
    for i in range(len(agents) - 1):
        try:
            rows.append(play_pair(agents[i], agents[i + 1], args.games, args.seed + 10 * i, max_plies,
                                  args.workers, progress=not args.json, engine=args.engine, game=game))
        except ValueError as exc:  # SimulationError: a batch refused before its first game
            print(f"ladder: error: {exc}", flush=True)
            return 2
        if not args.json:
            r = rows[-1]
            print(f"{r['upper']} [{r['upper_engine']}] vs {r['lower']} [{r['lower_engine']}]: "
                  f"{r['upper_win_rate']:.0%} wins (95% CI {r['win_rate_lo']:.0%}-{r['win_rate_hi']:.0%}), "
                  f"score {r['upper_score']:.0%} ({r['score_lo']:.0%}-{r['score_hi']:.0%}) in {r['games']} games",
                  flush=True)
    if args.json:
        print(json.dumps(rows, indent=1))
    else:
        table = pd.DataFrame(rows).set_index(["upper", "lower"])
        print(table.to_string(float_format=lambda x: f"{x:.2f}"))
    return 0
