"""Random-playout speed of the engine, measured against python-chess in the same run.

Machines here are noisy, so the figure that matters is the ratio to a peer measured alongside.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from .engine import new_game


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
    args = ap.parse_args(argv)
    ours = terrafeud_playouts(args.games, args.seed, args.max_plies)
    peer = None if args.no_peer else chess_playouts(max(1, args.games // 2), args.seed, args.max_plies)
    out = dict(ours)
    if peer:
        out["chess_plies_per_sec"] = peer["plies_per_sec"]
        out["ratio_vs_chess"] = ours["plies_per_sec"] / peer["plies_per_sec"]
    if args.json:
        print(json.dumps(out))
    else:
        for k, v in out.items():
            print(f"{k:>20}: {v:,.3f}" if isinstance(v, float) else f"{k:>20}: {v}")
    return 0
