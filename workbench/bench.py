"""Random-playout speed of the engine, measured against python-chess in the same run.

Machines here are noisy, so the figure that matters is the ratio to a peer measured alongside.
Both engines play the very same games (one ``random.Random`` stream per game, as below), so the
native run also checks itself: its ``plies`` equal the Python engine's for the same arguments.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from .engine import RulesConfig, new_game
from .engine.board import resolve_terrain


def terrafeud_playouts(games: int, seed: int, max_plies: int = 300) -> dict[str, float]:
    """Uniformly random legal actions from the classic start under default rules."""
    plies = 0
    t0 = time.perf_counter()
    for g in range(games):
        rng = random.Random(seed * 100_003 + g)
        st = new_game(seed=seed * 100_003 + g)
        while not st.is_terminal() and st.ply < max_plies:
            st.apply(rng.choice(st.legal_actions()), check=False)
            plies += 1
    dt = time.perf_counter() - t0
    return {"games": games, "plies": plies, "seconds": dt, "plies_per_sec": plies / dt, "games_per_sec": games / dt}


def native_playouts(games: int, seed: int, max_plies: int = 300) -> dict[str, float]:
    """The same playouts inside the native core: terrain drawn in Python, the games in Rust.

    Boards are built once per distinct terrain (there are few), so the Python side costs one
    terrain draw per game and the figure is the engine's.
    """
    from .engine import Game
    from .native import _require, board_tables, rules_dict, seed_key, setup_of

    _require()
    from . import _native  # type: ignore[attr-defined]

    rules = RulesConfig()
    t0 = time.perf_counter()
    boards: dict[object, int] = {}
    tables: list[dict] = []
    setup = None
    jobs = []
    for g in range(games):
        gs = seed * 100_003 + g
        terrain = resolve_terrain(rules, gs)
        if terrain not in boards:
            game = Game(rules=rules, seed=gs, terrain=terrain)
            boards[terrain] = len(tables)
            tables.append(board_tables(game))
            if setup is None:
                setup = setup_of(game.new_initial_state(), live=False)
        jobs.append((boards[terrain], seed_key(gs)))
    per_game = _native.random_playouts(tables, rules_dict(rules), setup, jobs, max_plies)
    plies = sum(per_game)
    dt = time.perf_counter() - t0
    return {"games": games, "plies": plies, "seconds": dt, "plies_per_sec": plies / dt, "games_per_sec": games / dt}


def playouts(games: int, seed: int, max_plies: int = 300, engine: str = "auto") -> dict[str, float]:
    """Random playouts on the chosen engine (``auto``: native when built); same games either way."""
    from .native import resolve_engine

    if resolve_engine(engine) == "native":
        return {**native_playouts(games, seed, max_plies), "engine": "native"}  # type: ignore[dict-item]
    return {**terrafeud_playouts(games, seed, max_plies), "engine": "python"}  # type: ignore[dict-item]


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


def main(argv: list[str] | None = None) -> int:
    """``python -m workbench bench --games N --seed S [--json]``."""
    ap = argparse.ArgumentParser(prog="python -m workbench bench")
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-plies", type=int, default=300)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--no-peer", action="store_true", help="skip the python-chess peer")
    ap.add_argument("--engine", default="auto", choices=("auto", "native", "python"),
                    help="auto: the native core when built; native also times the Python engine on a tenth of the games")
    args = ap.parse_args(argv)
    from .native import NativeUnavailableError, resolve_engine

    try:
        engine = resolve_engine(args.engine)
    except NativeUnavailableError as exc:
        print(f"bench: error: {exc}")
        return 2
    if engine == "native":
        ours = native_playouts(args.games, args.seed, args.max_plies)
    else:
        ours = terrafeud_playouts(args.games, args.seed, args.max_plies)
    peer = None if args.no_peer else chess_playouts(max(1, args.games // 2), args.seed, args.max_plies)
    out: dict[str, object] = {"engine": engine, **ours}
    if peer:
        out["chess_plies_per_sec"] = peer["plies_per_sec"]
        out["ratio_vs_chess"] = ours["plies_per_sec"] / peer["plies_per_sec"]
    if engine == "native":
        few = max(1, args.games // 10)
        py = terrafeud_playouts(few, args.seed, args.max_plies)
        same = native_playouts(few, args.seed, args.max_plies)["plies"] == py["plies"]
        out["python_plies_per_sec"] = py["plies_per_sec"]
        out["ratio_vs_python"] = ours["plies_per_sec"] / py["plies_per_sec"]
        out["same_games_as_python"] = same
    if args.json:
        print(json.dumps(out))
    else:
        for k, v in out.items():
            print(f"{k:>20}: {v:,.3f}" if isinstance(v, float) else f"{k:>20}: {v}")
    return 0
