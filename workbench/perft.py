"""Perft: the number of action sequences to a depth, the classic move-generation regression check.

The table of expected counts is data (``workbench/games/terrafeud/data/perft.json``) and is checked by the tests:
``counts`` (depths 1-3) in both engines, ``depth4`` (computed once by the Python engine, with bulk
counting at the last level) by the native core, whose perft runs inside Rust.
"""

from __future__ import annotations

import json
import sys
from importlib import resources
from typing import Any

from .cliargs import Parser, seed, whole
from .engine import GameState, RulesError, new_game

# The deepest count each engine is allowed: about ten minutes on one core from the classic start
# (native: depth 5 in 11 s, 6 in ~10 min; Python: 3 in 0.2 s, 4 in ~12 s, 5 in ~10 min), measured.
# Perft grows about 50-fold per ply, so one more is hours; Ctrl-C stops the native count anyway.
MAX_DEPTH = {"native": 6, "python": 5}


def engine_state(state: GameState, engine: str = "python") -> Any:
    """``state`` on the requested engine (``auto``, ``native`` or ``python``)."""
    from .native import state_of

    return state_of(state, engine)


def perft(state: Any, depth: int) -> int:
    """Number of action sequences of length ``depth`` (a finished game counts as a leaf)."""
    native_perft = getattr(state, "perft", None)
    if native_perft is not None:  # a NativeState: the whole count inside Rust
        return native_perft(depth)
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


def count(rules: str | None = None, seed: int = 0, depth: int = 3, engine: str = "auto") -> int:
    """Perft from the classic start of ``rules`` on the chosen engine (``auto``: native when built)."""
    return perft(engine_state(new_game(rules or None, seed=seed), engine), depth)


def expected_table() -> list[dict]:
    """The stored perft rows: rules, seed, and counts per depth."""
    text = resources.files("workbench.games.terrafeud").joinpath("data", "perft.json").read_text(encoding="utf-8")
    return json.loads(text)["rows"]


def main(argv: list[str] | None = None) -> int:
    """Print perft counts from the classic start; ``--check`` compares with the stored table."""
    ap = Parser(prog="python -m workbench perft")
    ap.add_argument("--depth", type=whole(0, max(MAX_DEPTH.values())), default=3)
    ap.add_argument("--rules", default="")
    ap.add_argument("--seed", type=seed(), default=0)
    ap.add_argument("--check", action="store_true", help="compare every stored row")
    ap.add_argument("--engine", default="auto", choices=("auto", "native", "python"),
                    help="auto: the native core when built; --check with native also checks depth 4")
    ap.add_argument("--game", default="terrafeud", help="the game (python -m workbench games)")
    args = ap.parse_args(argv)
    if args.game.strip().lower() != "terrafeud":
        from workbench.games import get
        from workbench.simulate.protocol_play import resolve_protocol_engine

        from .protocolbench import protocol_perft

        if args.depth > 6:
            ap.error(f"argument --depth: {args.depth} is out of range for --game {args.game}; allowed 0..6")
        try:
            game = get(args.game)
            st = game.new_initial_state(game.spec.make(args.rules or None), args.seed)
            engine = resolve_protocol_engine(game.name, args.engine)
        except ValueError as exc:
            ap.error(str(exc))
        if engine == "native":  # the same position on the game's core: the counts must not change
            st = game.native.state(st)
        print(f"# {game.name}, {engine} engine")
        for d in range(1, args.depth + 1):
            print(d, protocol_perft(st, d))
        return 0
    from .native import NativeUnavailableError, resolve_engine

    try:
        engine = resolve_engine(args.engine)
    except NativeUnavailableError as exc:
        print(f"perft: error: {exc}", file=sys.stderr)
        return 2
    if args.check:
        bad = 0
        for row in expected_table():
            st = engine_state(new_game(row["rules"], seed=row["seed"]), engine)
            want = list(row["counts"]) + ([row["depth4"]] if engine == "native" and "depth4" in row else [])
            got = [perft(st, d) for d in range(1, len(want) + 1)]
            ok = got == want
            bad += not ok
            print(f"{'PASS' if ok else 'FAIL'} [{engine}] {row['rules'] or 'default'} seed={row['seed']}: {got}")
        return 1 if bad else 0
    if args.depth > MAX_DEPTH[engine]:
        ap.error(f"argument --depth: {args.depth} is out of range on the {engine} engine; allowed 0..{MAX_DEPTH[engine]} "
                 "(perft grows about 50-fold per ply: one more is hours)")
    try:
        st = engine_state(new_game(args.rules or None, seed=args.seed), engine)
    except RulesError as exc:  # a user error: one clear line, no traceback
        ap.error(f"--rules: {exc}")
    for d in range(1, args.depth + 1):
        print(d, perft(st, d))
    return 0
