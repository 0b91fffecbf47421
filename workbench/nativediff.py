"""Benchmark-scale proof that the native core and the Python engine are one game.

``python -m workbench.nativediff --games 2000`` plays seeded random games in both engines side by
side, over a rotation of rule variants (every toggle of section 7 and every rule parameter at a
non-default value, plus the rulebook defaults), and compares at every ply: the legal actions (as
ordered lists, so the set and the order), ``state_to_dict`` (counters included), what the action
fired, and the final result. It prints the counts; any difference is reported with the variant,
seed and ply so it can be replayed, and the exit status is 1.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

from workbench.games.terrafeud.engine import make_game, state_to_dict

# The rotation: defaults first (most games), then one variant per toggle/parameter value.
VARIANTS: tuple[str, ...] = (
    "", "", "", "",
    "season=winter", "castling=sacrifice", "archer_melee=true", "mate_defence=any", "pike_cavalry_mutual=true",
    "terrain=fixed", "draw_after=20", "hill=false,swamp=false", "archer_range=3", "hill_bonus=2", "aura_radius=3",
    "aura_radius=1", "aura_step=3", "aura_step=1", "aura_memory=false", "coordinated=1", "coordinated=3",
    "order_size=3", "order_size=1", "order_size=0", "order_radius=3", "castling_uses=0", "castling_uses=2",
    "promotion=false", "knight_bridge_stop=false", "bridges=b4/k4,fords=d5/f6/h5",
    "season=winter,castling=sacrifice,archer_melee=true,mate_defence=any,pike_cavalry_mutual=true",
)


def compare_game(rules: str, seed: int, max_plies: int) -> dict[str, Any]:
    """One random game in both engines; counts of what was compared, and the first difference."""
    from .games.terrafeud.native import NativeState

    py = make_game(rules, seed).new_initial_state()
    ns = NativeState.from_state(py)
    rng = random.Random(seed)
    out: dict[str, Any] = {"plies": 0, "actions": 0, "diff": None}

    def diff(what: str) -> dict[str, Any]:
        out["diff"] = {"rules": rules, "seed": seed, "ply": py.ply, "what": what}
        return out

    if ns.to_dict() != state_to_dict(py):
        return diff("start position")
    while not py.is_terminal() and py.ply < max_plies:
        acts = py.legal_actions()
        if ns.legal_actions() != acts:
            return diff("legal actions")
        out["actions"] += len(acts)
        a = rng.choice(acts)
        py.apply(a, check=False)
        ns.apply(a, check=False)
        out["plies"] += 1
        if ns.to_dict() != state_to_dict(py):
            return diff(f"state after {a}")
        if ns.fired != tuple(py.fired):
            return diff(f"fired after {a}")
    if ns.is_terminal() != py.is_terminal() or ns.returns() != py.returns():
        return diff("result")
    out["result"] = py.victory or "unfinished"
    return out


def sweep(games: int, seed: int, max_plies: int) -> dict[str, Any]:
    """``games`` games over the variant rotation; the summary of what was compared."""
    t0 = time.perf_counter()
    summary: dict[str, Any] = {"games": 0, "plies": 0, "legal_actions": 0, "states": 0, "variants": len(set(VARIANTS)),
                               "differences": 0, "first_differences": [], "results": {}}
    for g in range(games):
        rules = VARIANTS[g % len(VARIANTS)]
        r = compare_game(rules, seed * 1_000_003 + g, max_plies)
        summary["games"] += 1
        summary["plies"] += r["plies"]
        summary["states"] += r["plies"] + 1
        summary["legal_actions"] += r["actions"]
        if r["diff"] is not None:
            summary["differences"] += 1
            if len(summary["first_differences"]) < 10:
                summary["first_differences"].append(r["diff"])
        else:
            summary["results"][r["result"]] = summary["results"].get(r["result"], 0) + 1
    summary["seconds"] = round(time.perf_counter() - t0, 1)
    return summary


def _game_sweep(name: str, argv: list[str]) -> int:
    """``--game NAME``: the game's own sweep module (declared as ``GameDef.native.sweep``) with the other arguments."""
    import importlib

    from .games import get

    try:
        game = get(name)
    except (KeyError, ValueError) as exc:
        print(f"nativediff: error: {exc}", file=sys.stderr)
        return 2
    if not game.native.sweep:
        print(f"nativediff: error: {game.name} has no native core to compare", file=sys.stderr)
        return 2
    if not game.native.available():
        print(f"nativediff: error: the native core of {game.name} is not built (make native)", file=sys.stderr)
        return 2
    rest: list[str] = []
    skip = False
    for a in argv:
        if skip:
            skip = False
            continue
        if a == "--game":
            skip = True
            continue
        if a.startswith("--game="):
            continue
        rest.append(a)
    return int(importlib.import_module(game.native.sweep).main(rest))


def main(argv: list[str] | None = None) -> int:
    """``python -m workbench.nativediff --games N [--seed S] [--max-plies P] [--json]``."""
    ap = argparse.ArgumentParser(prog="python -m workbench.nativediff", description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-plies", type=int, default=300)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--game", default=None, help="another game's sweep (its GameDef.native.sweep), e.g. --game pole")
    args, rest = ap.parse_known_args(argv)
    if args.game is not None:
        return _game_sweep(args.game, list(argv if argv is not None else sys.argv[1:]))
    if rest:
        ap.error(f"unrecognized arguments: {' '.join(rest)}")
    from .games.terrafeud.native import NativeUnavailableError, resolve_engine

    try:
        resolve_engine("native")
    except NativeUnavailableError as exc:
        print(f"nativediff: error: {exc}", file=sys.stderr)
        return 2
    if args.games < 1 or args.max_plies < 1:
        print("nativediff: error: --games and --max-plies must be positive", file=sys.stderr)
        return 2
    s = sweep(args.games, args.seed, args.max_plies)
    if args.json:
        print(json.dumps(s))
    else:
        print(f"{s['games']} games over {s['variants']} rule variants, {s['plies']} plies: "
              f"{s['legal_actions']} legal actions and {s['states']} states compared in {s['seconds']} s; "
              f"{s['differences']} games differ")
        print("results: " + ", ".join(f"{k} {v}" for k, v in sorted(s["results"].items())))
        for d in s["first_differences"]:
            print(f"DIFFERENCE {d}")
    return 1 if s["differences"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
