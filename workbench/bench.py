"""Random-playout speed of the engine, measured against python-chess in the same run.

Machines here are noisy, so the figure that matters is the ratio to a peer measured alongside.
Both engines play the very same games (one ``random.Random`` stream per game, as below), so the
native run also checks itself: its ``plies`` equal the Python engine's for the same arguments.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

from .cliargs import Parser, seed, whole
from .engine import Game, RulesConfig, make_game

MAX_GAMES = 100_000  # random playouts of one run (the native core plays ~2,000 games/s)
MAX_PLIES = 1_000_000  # as simulate's ply cap and the native core's


def _config(rules: RulesConfig | dict | str | None) -> RulesConfig:
    """Rules as given to the library or by ``--rules`` (toggles, parameters, ``start=PATH``)."""
    if rules is None:
        return RulesConfig()
    if isinstance(rules, str):
        return RulesConfig.parse(rules)
    if isinstance(rules, dict):
        return RulesConfig.from_dict(rules)
    return rules


def terrafeud_playouts(games: int, seed: int, max_plies: int = 300,
                       rules: RulesConfig | dict | str | None = None) -> dict[str, float]:
    """Uniformly random legal actions from the start of ``rules`` (default: the classic start)."""
    config = _config(rules)
    plies = 0
    t0 = time.perf_counter()
    for g in range(games):
        rng = random.Random(seed * 100_003 + g)
        st = make_game(config, seed * 100_003 + g).new_initial_state()
        while not st.is_terminal() and st.ply < max_plies:
            st.apply(rng.choice(st.legal_actions()), check=False)
            plies += 1
    dt = time.perf_counter() - t0
    return {"games": games, "plies": plies, "seconds": dt, "plies_per_sec": plies / dt, "games_per_sec": games / dt}


def native_playouts(games: int, seed: int, max_plies: int = 300,
                    rules: RulesConfig | dict | str | None = None) -> dict[str, float]:
    """The same playouts inside the native core: terrain drawn in Python, the games in Rust.

    Boards are built once per distinct terrain (there are few), so the Python side costs one
    terrain draw per game and the figure is the engine's.
    """
    from .games.terrafeud.native import _require, board_tables, rules_dict, seed_key, setup_of

    _require()
    from . import _native  # type: ignore[attr-defined]

    config = _config(rules)
    t0 = time.perf_counter()
    boards: dict[object, int] = {}
    tables: list[dict] = []
    setup = None
    jobs = []
    first: Game | None = None
    for g in range(games):
        gs = seed * 100_003 + g
        game = make_game(config, gs)  # a start= file: its rules, terrain and position (cached)
        if first is None:
            first = game
            setup = setup_of(game.new_initial_state(), live=False)
        if game.terrain not in boards:
            boards[game.terrain] = len(tables)
            tables.append(board_tables(game))
        jobs.append((boards[game.terrain], seed_key(gs)))
    effective = first.rules if first is not None else config
    per_game = _native.random_playouts(tables, rules_dict(effective), setup, jobs, max_plies) if jobs else []
    plies = sum(per_game)
    dt = time.perf_counter() - t0
    return {"games": games, "plies": plies, "seconds": dt, "plies_per_sec": plies / dt, "games_per_sec": games / dt}


def playouts(games: int, seed: int, max_plies: int = 300, engine: str = "auto",
             rules: RulesConfig | dict | str | None = None) -> dict[str, float]:
    """Random playouts on the chosen engine (``auto``: native when built); same games either way."""
    from .games.terrafeud.native import resolve_engine

    if resolve_engine(engine) == "native":
        return {**native_playouts(games, seed, max_plies, rules), "engine": "native"}  # type: ignore[dict-item]
    return {**terrafeud_playouts(games, seed, max_plies, rules), "engine": "python"}  # type: ignore[dict-item]


def chess_playouts(games: int, seed: int, max_plies: int = 300) -> dict[str, float] | None:
    """The peer: python-chess random playouts (None when python-chess is not installed)."""
    try:
        import chess
    except ImportError:
        return None
    plies = 0
    t0 = time.perf_counter()
    for g in range(games):
        rng = random.Random(seed * 100_003 + g)
        board = chess.Board()
        while board.ply() < max_plies and not board.is_game_over(claim_draw=False):
            board.push(rng.choice(list(board.legal_moves)))
            plies += 1
    dt = time.perf_counter() - t0
    return {"games": games, "plies": plies, "seconds": dt, "plies_per_sec": plies / dt, "games_per_sec": games / dt}


def _bench_other(args: argparse.Namespace) -> int:
    """``bench --game NAME``: the game's random playouts against TerraFeud's in the same run."""
    from .protocolbench import bench_report

    try:
        out = bench_report(args.game, args.games, args.seed, max(args.max_plies, 10_000), args.rules, args.engine)
    except ValueError as exc:
        print(f"bench: error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(out))
    else:
        print(f"{out['game']} ({out['engine']}): {out['actions']:,} actions in {out['games']} games, "
              f"{out['actions_per_sec']:,.0f} actions/s; TerraFeud's Python engine "
              f"{out['terrafeud_plies_per_sec']:,.0f} plies/s in the same run (ratio {out['ratio_vs_terrafeud']:.2f})")
        if out["engine"] == "native":
            print(f"{out['game']}'s own Python engine on {out['python_games']} of the games in the same run: "
                  f"{out['python_actions_per_sec']:,.0f} actions/s; native {out['speedup_vs_python']:.1f}x faster, "
                  f"same games: {'yes' if out['same_games_as_python'] else 'NO'}")
    return 0


def main(argv: list[str] | None = None) -> int:
    """``python -m workbench bench --games N --seed S [--rules K=V,...] [--json]``."""
    ap = Parser(prog="python -m workbench bench")
    ap.add_argument("--games", type=whole(1, MAX_GAMES), default=50)
    ap.add_argument("--seed", type=seed(), default=1)
    ap.add_argument("--max-plies", type=whole(1, MAX_PLIES), default=300)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--rules", default="", metavar="K=V,...",
                    help="toggles and parameters of the playouts, e.g. archer_range=3 or start=my.yaml")
    ap.add_argument("--no-peer", action="store_true", help="skip the python-chess peer")
    ap.add_argument("--engine", default="auto", choices=("auto", "native", "python"),
                    help="auto: the native core when built; native also times the Python engine on a tenth of the games")
    ap.add_argument("--game", default="terrafeud", help="the game (python -m workbench games); others are timed "
                    "beside TerraFeud's Python engine in the same run")
    args = ap.parse_args(argv)
    if args.game.strip().lower() != "terrafeud":
        return _bench_other(args)
    from .games.terrafeud.native import NativeUnavailableError, resolve_engine

    try:
        engine = resolve_engine(args.engine)
        rules = RulesConfig.parse(args.rules)
        game = make_game(rules, args.seed)  # a start= file that does not load fails here, in one line
    except NativeUnavailableError as exc:
        print(f"bench: error: {exc}", file=sys.stderr)
        return 2
    except ValueError as exc:
        print(f"bench: error: --rules: {exc}", file=sys.stderr)
        return 2
    if engine == "native":
        ours = native_playouts(args.games, args.seed, args.max_plies, rules)
    else:
        ours = terrafeud_playouts(args.games, args.seed, args.max_plies, rules)
    peer = None if args.no_peer else chess_playouts(max(1, args.games // 2), args.seed, args.max_plies)
    out: dict[str, object] = {"engine": engine, "rules": rules.label()}
    if game.start is not None:
        out.update(start_id=game.start_id, start_hash=game.start_hash)
    out.update(ours)
    if peer:
        out["chess_plies_per_sec"] = peer["plies_per_sec"]
        out["ratio_vs_chess"] = ours["plies_per_sec"] / peer["plies_per_sec"]
    if engine == "native":
        few = max(1, args.games // 10)
        py = terrafeud_playouts(few, args.seed, args.max_plies, rules)
        same = native_playouts(few, args.seed, args.max_plies, rules)["plies"] == py["plies"]
        out["python_plies_per_sec"] = py["plies_per_sec"]
        out["ratio_vs_python"] = ours["plies_per_sec"] / py["plies_per_sec"]
        out["same_games_as_python"] = same
    if args.json:
        print(json.dumps(out))
    else:
        for k, v in out.items():
            print(f"{k:>20}: {v:,.3f}" if isinstance(v, float) else f"{k:>20}: {v}")
    return 0
