"""The strength ladder: agents against each other, seats alternated, and their Elo ratings with 95% intervals.

``python -m workbench ladder --game G [--games 100] [--agents random greedy mcts alphabeta] [--reach 2 | --all-pairs]``
plays every adjacent pair (``--reach 2``: also each agent with the one after its neighbour; ``--all-pairs``:
every pair) through ``workbench.simulate`` (so on all cores),
half the games with each agent on the first side (in team games: in every seat of the first team), and
prints one row per pair (wins of each, unfinished games, the upper agent's score with a 95% Wilson
interval, the engine each agent searched with), then the Elo table of every agent fitted from all pairs
(``workbench.balance.elo``: Bradley–Terry, draws as half, a first-seat term, ``random`` at 0, a weak prior).
``--write`` stores that table, dated, as the game's measured strengths (``GameDef.strength_file`` in its
folder), which ``workbench games`` and every balance report then name.
``--engine`` picks the engine for every agent; a spec's own ``engine=`` pins one agent, so
``--agents alphabeta:engine=python alphabeta:engine=native`` measures a native twin against
its Python original (about 50 % when they are equally strong).
"""

from __future__ import annotations

import json
import math
import time
from typing import Any

import pandas as pd

from workbench.balance.elo import EloFit, Result, fit_elo
from workbench.core.agents import MAX_OPENING
from workbench.core.cliargs import Parser, max_workers, seed, whole
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
    """The engine ``spec`` searches with under ``--engine engine``: "native" or "python" (the agent as every tool
    builds it, ``workbench.agents.make_agent``: the game's own agents and the generic ones by name, the native twin
    where the game's core is built and has one)."""
    from workbench.agents import make_agent

    return str(make_agent(spec, seed=0, engine=engine, game=game).engine)


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


UNIQUE_COLUMNS = ("game_id", "seed", "seconds")  # what differs between two plays of one game


def repeated_games(table: pd.DataFrame) -> int:
    """Games of ``table`` that repeat an earlier one in every recorded figure (length, winner, every counter):
    deterministic agents replay a game from the same start, whatever the seed. The Elo fit counts such repeats as
    independent games, so a pairing that is mostly repeats has intervals narrower than its evidence."""
    if table.empty:
        return 0
    cols = [c for c in table.columns if c not in UNIQUE_COLUMNS]
    return int(table[cols].astype(str).duplicated().sum())


def play_pair(lower: str, upper: str, games: int, seed: int, max_plies: int, workers: int | None,
              progress: bool = True, engine: str = "auto", game: str = DEFAULT, rules: str | None = None,
              opening: int = 0) -> dict[str, Any]:
    """``games`` games of ``upper`` against ``lower``, half with each colour (each team, in any game), under
    ``rules`` (``k=v,...``; the rulebook's when None). With ``opening`` plies of fixed random opening, both
    halves play the same openings game for game, the colours swapped (``simulate``'s ``opening_seed``)."""
    from workbench.simulate import simulate

    half = max(1, games // 2)
    t0 = time.perf_counter()
    first, _ = _team_agents(game, upper, lower)
    second, _ = _team_agents(game, lower, upper)
    grid = [rules] if rules else None
    a = simulate(grid, upper, lower, half, seed=seed, game=game, agents=first, max_plies=max_plies, workers=workers,
                 progress=progress, engine=engine, opening=opening, opening_seed=seed)
    b = simulate(grid, lower, upper, games - half if games > 1 else 1, seed=seed + 1, game=game, agents=second,
                 max_plies=max_plies, workers=workers, progress=progress, engine=engine, opening=opening,
                 opening_seed=seed)
    assert not isinstance(a, tuple) and not isinstance(b, tuple)  # events off: the games tables alone
    upper_wins = _team_wins(a, 0) + _team_wins(b, 1)
    lower_wins = _team_wins(a, 1) + _team_wins(b, 0)
    n = len(a) + len(b)
    errors = int((a.victory == "error").sum() + (b.victory == "error").sum())
    repeated = repeated_games(a) + repeated_games(b)
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
            "unfinished": others - errors, "errors": errors, "repeated": repeated, "upper_win_rate": upper_wins / n,
            "win_rate_lo": win_lo, "win_rate_hi": win_hi, "upper_score": score, "score_lo": score_lo,
            "score_hi": score_hi, "mean_plies": float(plies), "seconds": time.perf_counter() - t0,
            "upper_engine": seat_engine(upper), "lower_engine": seat_engine(lower),
            "game_engine": "/".join(games_engine) or "python", "target_met": upper_wins / n >= 0.75,
            "results": _results(upper, lower, a, b)}


def _results(upper: str, lower: str, a: pd.DataFrame, b: pd.DataFrame) -> list[Result]:
    """The pair's games as ``Result``s for the Elo fit: ``a`` with ``upper`` on the first side, ``b`` with
    ``lower``; a draw or unfinished game is half a point, a game that failed (``error``) is no result."""
    out = []
    for first, second, table in ((upper, lower, a), (lower, upper, b)):
        ok = table[table.victory != "error"]
        if len(ok):
            w0, w1 = _team_wins(ok, 0), _team_wins(ok, 1)
            out.append(Result(first, second, w0 + 0.5 * (len(ok) - w0 - w1), len(ok), len(ok) - w0 - w1))
    return out


def pairs_of(agents: list[str], all_pairs: bool, reach: int = 1) -> list[tuple[str, str]]:
    """(lower, upper) pairs: each agent with the next ``reach`` ones (1: its neighbour), or every pair with
    ``all_pairs``. Pairs close in strength carry the most information per game (a pairing one side wins
    every game of says little), and ``reach`` 2 links each agent to the scale twice, so one noisy pairing
    does not carry the whole chain above it."""
    span = len(agents) if all_pairs else reach
    return [(agents[i], agents[j]) for i in range(len(agents)) for j in range(i + 1, min(len(agents), i + span + 1))]


def rate(rows: list[dict[str, object]], anchor: str) -> EloFit:
    """The Elo fit of every pair's games (``play_pair`` rows), each agent named with its engine."""
    results = [r for row in rows for r in row["results"]]  # type: ignore[attr-defined]
    engines = {}
    for row in rows:
        engines[str(row["upper"])] = str(row["upper_engine"])
        engines[str(row["lower"])] = str(row["lower_engine"])
    return fit_elo(results, anchor=anchor, engines=engines)


def strength_document(fit: EloFit, game: str, rows: list[dict[str, object]], argv: list[str], max_plies: int,
                      seconds: float, cpu: float | None = None) -> dict[str, object]:
    """The game's shipped table: the date, the command that measured it, the model, the ratings and the pairs."""
    from datetime import datetime, timezone

    from workbench.games import get

    gdef = get(game)
    return {
        "game": gdef.name, "title": gdef.title, "date": datetime.now(timezone.utc).strftime("%Y-%m-%d"),
        "command": "python -m workbench ladder " + " ".join(argv),
        "model": "Bradley-Terry on the Elo scale, draws and unfinished games as half, a first-seat term, "
                 f"{fit.anchor} at 0, {fit.prior_draws:g} virtual draws per pairing played; 95% Wald intervals "
                 "with each cell's variance scaled to its draws (a trinomial sandwich)",
        "max_plies": max_plies, "games": fit.games, "seconds": round(seconds, 1),
        **({"cpu_seconds": round(cpu, 1)} if cpu is not None else {}),
        "independence": independence_note(rows),
        "first_seat": {"elo": round(fit.seat[0], 1), "low": round(fit.seat[1], 1), "high": round(fit.seat[2], 1)},
        "agents": fit.to_rows(),
        "pairs": [{k: (round(v, 4) if isinstance(v, float) else v) for k, v in r.items() if k != "results"}
                  for r in rows],
    }


def independence_note(rows: list[dict[str, object]]) -> str:
    """What the intervals assume about the games: independent, and how many games break that by repeating one."""
    repeated = sum(int(r.get("repeated", 0)) for r in rows)  # type: ignore[call-overload]
    games = sum(int(r["games"]) for r in rows)  # type: ignore[call-overload]
    if not repeated:
        return (f"No game of the {games} repeats another of its pairing in every recorded figure; the intervals "
                "treat the games as independent.")
    worst = max(rows, key=lambda r: int(r.get("repeated", 0)) / max(int(r["games"]), 1))  # type: ignore[call-overload]
    return (f"{repeated} of the {games} games repeat an earlier game of their pairing in every recorded figure "
            f"(most in {worst['upper']} against {worst['lower']}: {worst['repeated']} of {worst['games']}): "
            "deterministic agents replay games, and the intervals treat every game as independent, so they are "
            "narrower than the evidence.")


def print_fit(fit: EloFit, title: str) -> None:
    """The Elo table as text, strongest first."""
    print(f"\nElo ratings ({title}; {fit.anchor} = 0, 95% intervals; {fit.games} games):")
    for r in sorted(fit.ratings, key=lambda r: -r.elo):
        engine = f" ({r.engine})" if r.engine else ""
        print(f"  {r.label()}{engine}: score {r.score:.0%} over {r.games} games")
    lo_hi = f"[{fit.seat[1]:.0f}, {fit.seat[2]:.0f}]"
    print(f"  first side's edge: {fit.seat[0]:+.0f} Elo {lo_hi}")


def main(argv: list[str] | None = None) -> int:
    """Print the ladder's pairs and Elo table (or JSON); ``--write`` ships the table in the game's folder."""
    import sys

    argv = list(sys.argv[1:] if argv is None else argv)
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
    ap.add_argument("--all-pairs", action="store_true", help="every pair of agents, not only neighbours")
    ap.add_argument("--reach", type=whole(1, 100), default=1,
                    help="pair each agent with the next N of --agents (1: neighbours only; 2: also the one after)")
    ap.add_argument("--anchor", default="random", help="the agent rated 0 (default random; it must play)")
    ap.add_argument("--write", action="store_true",
                    help="store the Elo table, dated, as the game's measured strengths (its GameDef.strength_file)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--game", default=DEFAULT, help="the game (python -m workbench games)")
    ap.add_argument("--rules", default=None, metavar="K=V,...",
                    help="the variant every pair plays (the rulebook's when absent), e.g. start=deployed")
    ap.add_argument("--opening", type=whole(0, MAX_OPENING), default=0, metavar="PLIES",
                    help="a fixed random opening of PLIES plies, each played with the colours swapped (docs/balance.md)")
    args = ap.parse_args(argv)
    agents = [a.strip() for a in args.agents if a.strip()]
    try:
        from workbench.games import get

        game = get(args.game).name
    except ValueError as exc:
        print(f"ladder: error: {exc}", flush=True)
        return 2
    if args.rules:
        try:
            get(game).rules(args.rules)
        except ValueError as exc:  # RulesError: the rule and the value, in words
            print(f"ladder: error: --rules: {exc}", flush=True)
            return 2
    if len(agents) < 2:
        print("ladder: error: --agents needs at least two agents", flush=True)
        return 2
    if len(set(agents)) != len(agents):
        print("ladder: error: --agents names an agent twice", flush=True)
        return 2
    if args.anchor not in agents:
        print(f"ladder: error: the anchor {args.anchor!r} is not among --agents (use --anchor AGENT)", flush=True)
        return 2
    if args.write and get(game).strength_file == "":
        print(f"ladder: error: {game} declares no strength_file to write", flush=True)
        return 2
    try:
        for spec in agents:
            agent_engines(spec, args.engine, game)  # validate every spec (and the engine) before any game
    except (ValueError, RuntimeError) as exc:  # RuntimeError: engine=native without the native build
        print(f"ladder: error: {exc}", flush=True)
        return 2
    from workbench.simulate.protocol_play import default_max_plies

    max_plies = args.max_plies if args.max_plies is not None else default_max_plies(game, fallback=LADDER_MAX_PLIES)
    from workbench.study.trace import cpu_seconds, timing

    rows = []
    t0, c0 = time.perf_counter(), cpu_seconds()
    for i, (lower, upper) in enumerate(pairs_of(agents, args.all_pairs, args.reach)):
        try:
            rows.append(play_pair(lower, upper, args.games, args.seed + 10 * i, max_plies,
                                  args.workers, progress=not args.json, engine=args.engine, game=game,
                                  rules=args.rules or None, opening=args.opening))
        except ValueError as exc:  # SimulationError: a batch refused before its first game
            print(f"ladder: error: {exc}", flush=True)
            return 2
        if not args.json:
            r = rows[-1]
            print(f"{r['upper']} [{r['upper_engine']}] vs {r['lower']} [{r['lower_engine']}]: "
                  f"{r['upper_win_rate']:.0%} wins (95% CI {r['win_rate_lo']:.0%}-{r['win_rate_hi']:.0%}), "
                  f"score {r['upper_score']:.0%} ({r['score_lo']:.0%}-{r['score_hi']:.0%}) in {r['games']} games"
                  + (f", {r['repeated']} repeating an earlier game" if r["repeated"] else ""),
                  flush=True)
    try:
        fit = rate(rows, args.anchor)
    except ValueError as exc:
        print(f"ladder: error: {exc}", flush=True)
        return 2
    wall, cpu = time.perf_counter() - t0, cpu_seconds() - c0
    doc = strength_document(fit, game, rows, argv, max_plies, wall, cpu)
    if args.json:
        print(json.dumps(doc, indent=1))
    else:
        table = pd.DataFrame([{k: v for k, v in r.items() if k != "results"} for r in rows]).set_index(["upper", "lower"])
        print(table.to_string(float_format=lambda x: f"{x:.2f}"))
        print_fit(fit, get(game).title)
        print(f"  {doc['independence']}")
        print(f"  {timing(fit.games, wall, cpu)}")
    if args.write:
        from workbench.core.strength import strength_path

        path = strength_path(get(game))
        assert path is not None
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
        if not args.json:
            print(f"wrote {path}")
    return 0
