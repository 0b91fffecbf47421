"""Perft: the number of action sequences to a depth, the classic move-generation regression check.

The table of expected counts is data (``workbench/data/perft.json``) and is checked by the tests.
"""

from __future__ import annotations

import argparse
import json
from importlib import resources

from .engine import GameState, RulesError, new_game


def perft(state: GameState, depth: int) -> int:
    """Number of action sequences of length ``depth`` (a finished game counts as a leaf)."""
    if depth == 0 or state.is_terminal():
        return 1
    actions = state.legal_actions()
    if depth == 1:
        return len(actions)
    total = 0
    for a in actions:
        state.apply(a, check=False)
        total += perft(state, depth - 1)
        state.undo()
    return total


def expected_table() -> list[dict]:
    """The stored perft rows: rules, seed, and counts per depth."""
    text = resources.files("workbench.data").joinpath("perft.json").read_text(encoding="utf-8")
    return json.loads(text)["rows"]


def main(argv: list[str] | None = None) -> int:
    """Print perft counts from the classic start; ``--check`` compares with the stored table."""
    ap = argparse.ArgumentParser(prog="python -m workbench perft")
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("--rules", default="")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--check", action="store_true", help="compare every stored row")
    args = ap.parse_args(argv)
    if args.check:
        bad = 0
        for row in expected_table():
            st = new_game(row["rules"], seed=row["seed"])
            got = [perft(st, d) for d in range(1, len(row["counts"]) + 1)]
            ok = got == row["counts"]
            bad += not ok
            print(f"{'PASS' if ok else 'FAIL'} {row['rules'] or 'default'} seed={row['seed']}: {got}")
        return 1 if bad else 0
    if not 0 <= args.depth <= 8:
        ap.error(f"--depth {args.depth}: allowed 0..8 (perft grows about 50-fold per ply)")
    try:
        st = new_game(args.rules or None, seed=args.seed)
    except RulesError as exc:  # a user error: one clear line, no traceback
        ap.error(f"--rules: {exc}")
    for d in range(1, args.depth + 1):
        print(d, perft(st, d))
    return 0
