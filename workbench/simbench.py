"""Simulation benchmarks: games per second with 1 and 2 workers, and memory over a long batch.

``python -m workbench.simbench [--games 200] [--memory-games 10000]`` prints:

- games/s with one worker process and with two, and their ratio (target: at least 1.7);
- peak resident size of the main process and of the largest worker after a short batch and
  after a long one written to a Parquet dataset, events off (target: flat, under 1 GB).

Figures only; nothing here asserts. Run it on an otherwise idle machine: two workers on two
cores measure scaling only if nothing else wants those cores.
"""

from __future__ import annotations

import argparse
import json
import resource
import tempfile
import time
from pathlib import Path

from workbench.simulate import simulate


def _peak_mb() -> tuple[float, float]:
    """Peak resident MB of this process and of the largest finished child (Linux reports KiB)."""
    me = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return me, kids


def speed(games: int, agent: str, max_plies: int, workers: int, seed: int, engine: str = "auto") -> dict[str, float]:
    """Games per second of ``agent`` self-play with ``workers`` processes."""
    t0 = time.perf_counter()
    df = simulate(None, agent, agent, games, seed=seed, max_plies=max_plies, workers=workers, progress=False,
                  engine=engine)
    dt = time.perf_counter() - t0
    return {"workers": workers, "games": len(df), "seconds": dt, "games_per_sec": len(df) / dt,
            "plies_per_sec": float(df.plies.sum()) / dt}


def memory(games: int, agent: str, max_plies: int, workers: int, seed: int, engine: str = "auto") -> dict[str, float]:
    """Peak RSS after a batch of games/10 and after a batch of ``games``, both written to disk."""
    out: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for label, n in (("short", max(1, games // 10)), ("long", games)):
            t0 = time.perf_counter()
            df = simulate(None, agent, agent, n, seed=seed, max_plies=max_plies, workers=workers,
                          out=Path(tmp) / f"{label}.parquet", progress=False, engine=engine)
            me, kids = _peak_mb()
            out.update({f"{label}_games": len(df), f"{label}_seconds": time.perf_counter() - t0,
                        f"{label}_peak_main_mb": me, f"{label}_peak_worker_mb": kids})
    return out


def main(argv: list[str] | None = None) -> int:
    """Print the figures (or JSON)."""
    ap = argparse.ArgumentParser(prog="python -m workbench.simbench", description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200, help="games per speed run")
    ap.add_argument("--memory-games", type=int, default=10_000, help="games in the long memory batch (0: skip)")
    ap.add_argument("--agent", default="random")
    ap.add_argument("--max-plies", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--engine", default="auto", choices=("auto", "native", "python"))
    args = ap.parse_args(argv)
    from workbench.core.protocol import resolve_engine
    from workbench.games import DEFAULT, get

    engine = resolve_engine(get(DEFAULT), args.engine)
    one = speed(args.games, args.agent, args.max_plies, 1, args.seed, engine)
    two = speed(args.games, args.agent, args.max_plies, 2, args.seed, engine)
    result: dict[str, object] = {"engine": engine, "one_worker": one, "two_workers": two,
                                 "speedup_2_over_1": two["games_per_sec"] / one["games_per_sec"]}
    if args.memory_games > 0:
        result["memory"] = memory(args.memory_games, args.agent, args.max_plies, 2, args.seed, engine)
    if args.json:
        print(json.dumps(result, indent=1))
        return 0
    print(f"engine: {engine}")
    for key in ("one_worker", "two_workers"):
        r = result[key]
        print(f"{r['workers']} worker(s): {r['games']} games in {r['seconds']:.1f} s = "  # type: ignore[index]
              f"{r['games_per_sec']:.1f} games/s, {r['plies_per_sec']:,.0f} plies/s")  # type: ignore[index]
    print(f"speed-up with 2 workers: {result['speedup_2_over_1']:.2f}x (target >= 1.7)")
    if "memory" in result:
        m = result["memory"]
        print(f"memory: {m['short_games']} games -> peak main {m['short_peak_main_mb']:.0f} MB, "  # type: ignore[index]
              f"worker {m['short_peak_worker_mb']:.0f} MB; {m['long_games']} games in "  # type: ignore[index]
              f"{m['long_seconds']:.0f} s -> peak main {m['long_peak_main_mb']:.0f} MB, "  # type: ignore[index]
              f"worker {m['long_peak_worker_mb']:.0f} MB (target < 1024 MB, flat)")  # type: ignore[index]
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
