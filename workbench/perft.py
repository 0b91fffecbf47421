"""``python -m workbench perft --game NAME``: the number of action sequences to a depth, for every game.

The classic move-generation regression check, over protocol states (each chance outcome is one branch).
``--engine native`` walks the same tree on the game's native core (``GameDef.native.state``), and counts
inside it when the core can (``GameDef.native.perft``); ``--check`` compares the game's stored table of
expected counts (``GameDef.perft_table``), with the deeper counts only the native core reaches.
"""

from __future__ import annotations

import sys
from typing import Any

from workbench.core.cliargs import Parser, seed, whole
from workbench.core.protocol import CHANCE, State

# The deepest count each engine is allowed: about ten minutes on one core from TerraFeud's classic start
# (native: depth 5 in 11 s, 6 in ~10 min; Python: 3 in 0.2 s, 4 in ~12 s, 5 in ~10 min), measured. Every native
# count now walks the core's protocol face (``core::protocol::perft``): TerraFeud's depth 5 took 16.1 s of CPU there
# against 7.2 s in its own tuned perft (2.2x, no bulk counting; same 513,657,987), so depth 6 would be ~25 min.
# Perft grows about 50-fold per ply, so one more is hours; Ctrl-C stops the native count anyway.
MAX_DEPTH = {"native": 6, "python": 5}
# Leaves a count may visit (TerraFeud's ten minutes: native depth 6, Python depth 5); every game is held to it
# through its own growth per ply, so a game branching wider than TerraFeud stops at a shallower depth.
MAX_LEAVES = {"native": 2_000_000_000, "python": 60_000_000}


def protocol_perft(state: State, depth: int) -> int:
    """Leaves of the game tree ``depth`` actions deep (each chance outcome is one branch)."""
    if depth == 0 or state.is_terminal():
        return 1
    moves = ([o for o, _ in state.chance_outcomes()] if state.current_player() == CHANCE else state.legal_actions())
    if depth == 1:
        return len(moves)
    total = 0
    for a in moves:
        state.apply_action(a)
        total += protocol_perft(state, depth - 1)
        state.undo_action()
    return total


def perft(game: Any, state: Any, depth: int, engine: str = "python") -> int:
    """Leaves of the game tree ``depth`` actions deep from ``state`` (on the native core inside it when it can)."""
    if engine == "native":
        inside = game.native.perft(state, depth)
        if inside is not None:
            return int(inside)
    return protocol_perft(state, depth)


def start(game: Any, rules: Any, seed_: int, engine: str) -> Any:
    """The start of ``rules`` on the chosen (resolved) engine."""
    st = game.new_initial_state(game.spec.make(rules or None), seed_)
    return game.native.state(st) if engine == "native" else st


def main(argv: list[str] | None = None) -> int:
    """Print perft counts from the start; ``--check`` compares every row of the game's stored table."""
    from workbench.core.protocol import NativeUnavailableError, resolve_engine
    from workbench.core.rulespec import RulesError
    from workbench.games import DEFAULT, get

    ap = Parser(prog="python -m workbench perft")
    ap.add_argument("--depth", type=whole(0, max(MAX_DEPTH.values())), default=3)
    ap.add_argument("--rules", default="")
    ap.add_argument("--seed", type=seed(), default=0)
    ap.add_argument("--check", action="store_true", help="compare every row of the game's stored table")
    ap.add_argument("--engine", default="auto", choices=("auto", "native", "python"),
                    help="auto: the game's native core when built; --check with native also checks its deeper counts")
    ap.add_argument("--game", default=DEFAULT, help="the game (python -m workbench games)")
    args = ap.parse_args(argv)
    try:
        game = get(args.game)
        engine = resolve_engine(game, args.engine)
    except NativeUnavailableError as exc:
        print(f"perft: error: {exc}", file=sys.stderr)
        return 2
    except ValueError as exc:
        ap.error(str(exc))
    if args.check:
        rows = game.perft_table()
        if not rows:
            print(f"perft: error: {game.name} has no stored perft table", file=sys.stderr)
            return 2
        bad = 0
        for row in rows:
            st = start(game, row["rules"], row["seed"], engine)
            want = list(row["counts"]) + (list(row.get("native_counts", ())) if engine == "native" else [])
            got = [perft(game, st, d, engine) for d in range(1, len(want) + 1)]
            ok = got == want
            bad += not ok
            print(f"{'PASS' if ok else 'FAIL'} [{engine}] {row['rules'] or 'default'} seed={row['seed']}: {got}")
        return 1 if bad else 0
    if args.depth > MAX_DEPTH[engine]:
        ap.error(f"argument --depth: {args.depth} is out of range on the {engine} engine; allowed 0..{MAX_DEPTH[engine]} "
                 "(perft grows about 50-fold per ply: one more is hours)")
    try:
        st = start(game, args.rules, args.seed, engine)
    except (RulesError, ValueError) as exc:  # a user error: one clear line, no traceback
        ap.error(f"--rules: {exc}")
    print(f"# {game.name}, {engine} engine")
    prev = 1
    try:
        for d in range(1, args.depth + 1):
            count = perft(game, st, d, engine)
            print(d, count, flush=True)
            # a per-game cap from the game's own growth: the next depth's leaves at this depth's growth
            projected = count * max(1.0, count / max(1, prev))
            if d < args.depth and projected > MAX_LEAVES[engine]:
                print(f"perft: error: depth {d + 1} of {game.name} would count about {projected:,.0f} leaves "
                      f"({count / max(1, prev):,.0f}-fold per ply here); the {engine} engine counts at most "
                      f"{MAX_LEAVES[engine]:,} (about ten minutes)", file=sys.stderr)
                return 2
            prev = count
    except KeyboardInterrupt:
        print("perft: interrupted", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
