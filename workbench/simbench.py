"""``python -m workbench simbench [MEASURE] --game NAME``: batch benchmarks of any game, through ``simulate``.

- ``scaling`` (the default): games per second with 1 and 2 workers and their ratio (target: at least 1.7), then
  peak resident size of the main process and of the largest worker after a short batch and after a long one
  written to a Parquet dataset, events off (target: flat, under 1 GB; ``--memory-games 0`` skips it);
- ``batch``: one self-play batch over the rules (``--rules factions=all`` plays every cell its values expand
  to), timed: games, cells, engines, decided games and the first seat's share of them, error rows;
- ``errors``: per agent (``--agent SPEC=GAMES``, repeated), the games that end as error rows (an agent's action
  refused) with a 95 % Wilson interval on their share, so "none in 200" reads as "at most 1.9 %".

Figures only; nothing here asserts. Two workers on two cores measure scaling only if nothing else wants them.
"""

from __future__ import annotations

import json
import resource
import sys
import tempfile
import time
from collections.abc import Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd

from workbench.core.cliargs import Parser

MEASURES = ("scaling", "batch", "errors")


def _peak_mb() -> tuple[float, float]:
    """Peak resident MB of this process and of the largest finished child (Linux reports KiB)."""
    me = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return me, kids


def _grid(rules: str) -> dict[str, Sequence[Any]] | None:
    """``k=v,...`` as a one-value-per-rule grid (a value such as ``all`` may still expand to several cells)."""
    from workbench.core.rulespec import parse_pairs

    return {k: [v] for k, v in parse_pairs(rules).items()} if rules else None


def _games(out: pd.DataFrame | tuple[pd.DataFrame, pd.DataFrame]) -> pd.DataFrame:
    """The games table of a ``simulate`` run (its events, when asked for, are not measured here)."""
    return out[0] if isinstance(out, tuple) else out


def speed(games: int, agent: str, max_plies: int, workers: int, seed: int, engine: str = "auto",
          game: str = "", rules: str = "") -> dict[str, float]:
    """Games per second of ``agent`` self-play with ``workers`` processes (``game``: the registry's default)."""
    from workbench.games import DEFAULT
    from workbench.simulate import simulate

    game = game or DEFAULT
    t0 = time.perf_counter()
    df = _games(simulate(_grid(rules), agent, agent, games, seed=seed, max_plies=max_plies, workers=workers,
                         progress=False, engine=engine, game=game))
    dt = time.perf_counter() - t0
    return {"workers": workers, "games": len(df), "seconds": dt, "games_per_sec": len(df) / dt,
            "plies_per_sec": float(df.plies.sum()) / dt}


def memory(games: int, agent: str, max_plies: int, workers: int, seed: int, engine: str = "auto",
           game: str = "", rules: str = "") -> dict[str, float]:
    """Peak RSS after a batch of games/10 and after a batch of ``games``, both written to disk."""
    from workbench.games import DEFAULT
    from workbench.simulate import simulate

    game = game or DEFAULT
    out: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for label, n in (("short", max(1, games // 10)), ("long", games)):
            t0 = time.perf_counter()
            df = _games(simulate(_grid(rules), agent, agent, n, seed=seed, max_plies=max_plies, workers=workers,
                                 out=Path(tmp) / f"{label}.parquet", progress=False, engine=engine, game=game))
            me, kids = _peak_mb()
            out.update({f"{label}_games": len(df), f"{label}_seconds": time.perf_counter() - t0,
                        f"{label}_peak_main_mb": me, f"{label}_peak_worker_mb": kids})
    return out


def batch(game: str, rules: str, agent: str, games: int, workers: int | None, seed: int = 1, engine: str = "auto",
          max_plies: int | None = None) -> dict[str, Any]:
    """One timed self-play batch of ``agent``: ``games`` per cell of ``rules``; results in figures with intervals."""
    from workbench.balance.stats import wilson_interval
    from workbench.games import get
    from workbench.simulate import simulate

    first = get(game).info().players[0]
    t0 = time.perf_counter()
    df = _games(simulate(_grid(rules), agent, agent, games=games, seed=seed, workers=workers, progress=False,
                         game=game, engine=engine, max_plies=max_plies))
    dt = time.perf_counter() - t0
    decided = df[~df["winner"].isin(["none", "", "draw"]) & df["winner"].notna()]
    out: dict[str, Any] = {"game": game, "rules": rules, "agent": agent, "games": len(df),
                           "cells": int(df["rules"].nunique()) if "rules" in df else 1, "workers": workers,
                           "seconds": round(dt, 1), "engines": sorted(set(df["engine"])), "decided": len(decided),
                           "errors": int((df["victory"] == "error").sum())}
    if len(decided):
        wins = int((decided["winner"] == first).sum())
        lo, hi = wilson_interval(wins, len(decided))
        out[f"{first}_share_of_decided"] = [round(wins / len(decided), 3), round(lo, 3), round(hi, 3)]
    return out


def errors(game: str, rules: str, agent: str, games: int, seed: int = 1, engine: str = "auto",
           workers: int | None = None) -> dict[str, Any]:
    """How many of ``games`` self-play games of ``agent`` end as error rows, with a 95 % Wilson interval."""
    from workbench.balance.stats import wilson_interval
    from workbench.simulate import simulate

    t0 = time.perf_counter()
    df = _games(simulate(_grid(rules), agent, agent, games, seed=seed, workers=workers, progress=False,
                         engine=engine, game=game))
    bad = df["victory"] == "error"
    lo, hi = wilson_interval(int(bad.sum()), len(df))
    return {"agent": agent, "games": len(df), "errors": int(bad.sum()), "share": [int(bad.sum()) / len(df), lo, hi],
            "seconds": time.perf_counter() - t0, "engines": dict(df["engine"].value_counts()),
            "first_error": str(df.loc[bad, "error"].iloc[0])[:200] if bad.any() else ""}


def _print_scaling(result: dict[str, Any]) -> None:
    print(f"{result['game']}, engine: {result['engine']}")
    for key in ("one_worker", "two_workers"):
        r = result[key]
        print(f"{r['workers']} worker(s): {r['games']} games in {r['seconds']:.1f} s = "
              f"{r['games_per_sec']:.1f} games/s, {r['plies_per_sec']:,.0f} plies/s")
    print(f"speed-up with 2 workers: {result['speedup_2_over_1']:.2f}x (target >= 1.7)")
    if "memory" in result:
        m = result["memory"]
        print(f"memory: {m['short_games']} games -> peak main {m['short_peak_main_mb']:.0f} MB, "
              f"worker {m['short_peak_worker_mb']:.0f} MB; {m['long_games']} games in "
              f"{m['long_seconds']:.0f} s -> peak main {m['long_peak_main_mb']:.0f} MB, "
              f"worker {m['long_peak_worker_mb']:.0f} MB (target < 1024 MB, flat)")


def main(argv: list[str] | None = None) -> int:
    """Print the figures of one measure (or JSON)."""
    from workbench.core.protocol import NativeUnavailableError, resolve_engine
    from workbench.games import DEFAULT, get

    argv = list(sys.argv[1:] if argv is None else argv)
    measure = argv.pop(0) if argv and argv[0] in MEASURES else "scaling"
    ap = Parser(prog="python -m workbench simbench", description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default=DEFAULT, help="the game (python -m workbench games)")
    ap.add_argument("--rules", default="", metavar="K=V,...", help="rules every game plays under")
    ap.add_argument("--agent", action="append", default=[],
                    help="self-play agent (errors: SPEC=GAMES, repeated; default greedy=200)")
    ap.add_argument("--games", type=int, default=200, help="games per speed run (batch: per cell)")
    ap.add_argument("--memory-games", type=int, default=10_000, help="games in the long memory batch (0: skip)")
    ap.add_argument("--workers", type=int, default=2, help="batch: processes")
    ap.add_argument("--max-plies", type=int, default=None, help="the cap (default: simulate's for the game)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--engine", default="auto", choices=("auto", "native", "python"))
    args = ap.parse_args(argv)
    if not 1 <= args.games <= 1_000_000 or not 0 <= args.memory_games <= 1_000_000:
        ap.error("--games must be 1..1000000 and --memory-games 0..1000000")
    try:
        game = get(args.game)
        engine = resolve_engine(game, args.engine)
    except NativeUnavailableError as exc:
        print(f"simbench: error: {exc}", file=sys.stderr)
        return 2
    except ValueError as exc:
        ap.error(str(exc))
    if measure == "errors":
        print(f"{datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC, {game.name} {args.rules or '(rulebook rules)'}, "
              f"engine {engine}")
        for item in args.agent or ["greedy=200"]:
            spec, _, n = item.rpartition("=")
            if not spec or not n.isdigit():
                ap.error(f"--agent {item[:60]!r}: write SPEC=GAMES, e.g. greedy=200")
            r = errors(game.name, args.rules, spec, int(n), args.seed, engine)
            share, lo, hi = r["share"]
            engines = ", ".join(f"{k} {v}" for k, v in r["engines"].items())
            print(json.dumps(r, default=str) if args.json else
                  f"  {spec} vs {spec}: {r['games']} games, {r['errors']} error rows ({100 * share:.1f}% "
                  f"[{100 * lo:.1f}, {100 * hi:.1f}]), {r['seconds']:.1f} s ({engines})"
                  + (f"\n    first: {r['first_error']}" if r["errors"] else ""))
        return 0
    agent = (args.agent or ["random"])[0]
    if measure == "batch":
        print(json.dumps(batch(game.name, args.rules, agent, args.games, args.workers, args.seed, engine,
                               args.max_plies)))
        return 0
    plies = args.max_plies or 300
    one = speed(args.games, agent, plies, 1, args.seed, engine, game.name, args.rules)
    two = speed(args.games, agent, plies, 2, args.seed, engine, game.name, args.rules)
    result: dict[str, Any] = {"game": game.name, "engine": engine, "one_worker": one, "two_workers": two,
                              "speedup_2_over_1": two["games_per_sec"] / one["games_per_sec"]}
    if args.memory_games > 0:
        result["memory"] = memory(args.memory_games, agent, plies, 2, args.seed, engine, game.name, args.rules)
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        _print_scaling(result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
