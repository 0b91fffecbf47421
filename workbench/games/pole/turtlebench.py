"""``python -m workbench.games.pole.turtlebench``: the contract's section-15 table, measured again.

The contract's turtle review gives, for the random and the turtle player (``turtle.py``) and for the
draft's back-edge fortresses (e1-f2 / e9-f10) against the final ones (e2-f3 / e8-f9), Red's and
Black's wins, the unfinished share and the mean length over 200 seeded games per line at the cap
``max_turns`` = 400. This plays the same lines through ``simulate`` (self-play, simulate's seed 0:
games 0-199 of each line, dice and players from separate streams) and prints each share with its 95 %
Wilson interval beside the contract's figure, and whether that figure lies inside the interval.
The contract's own seeds and random streams are not known, so agreement is statistical, not exact.
"""

from __future__ import annotations

import argparse
import time

from workbench.study.ladder import wilson

BACK_EDGE = {"fortress_red": "e1,f1,e2,f2", "fortress_black": "e9,f9,e10,f10"}
# (defaults, player) -> (Red wins %, Black wins %, unfinished %, mean turns), section 15
CONTRACT = {
    ("before", "random"): (34.5, 29.5, 36.0, 282),
    ("before", "turtle"): (27.0, 14.5, 58.5, 367),
    ("after", "random"): (31.5, 35.5, 33.0, 270),
    ("after", "turtle"): (22.0, 40.5, 37.5, 333),
}
WORDS = {"before": "before: fortresses e1-f2 / e9-f10", "after": "after: fortresses e2-f3 / e8-f9"}


def measure(defaults: str, player: str, games: int, seed: int, workers: int | None, engine: str) -> dict:
    """One line of the table: counts, shares with intervals and the mean length in turns."""
    from workbench.simulate import simulate

    rules = dict(BACK_EDGE) if defaults == "before" else {}
    rules["max_turns"] = 400
    t0 = time.perf_counter()
    df = simulate([rules], player, player, games, seed=seed, game="pole", agents=[player], workers=workers,
                  engine=engine, progress=False, max_plies=100_000)
    n = len(df)
    red = int((df.winner == "red").sum())
    black = int((df.winner == "black").sum())
    unfinished = int((df.victory == "unfinished").sum())
    return {"defaults": defaults, "player": player, "games": n, "red": red, "black": black,
            "unfinished": unfinished, "errors": int((df.victory == "error").sum()),
            "mean_turns": float(df.turns.mean()), "engine": "/".join(sorted(set(df.engine))),
            "seconds": time.perf_counter() - t0}


def share(k: int, n: int, contract: float) -> str:
    """``k/n`` as a percentage with its Wilson interval, and the contract's figure (``*`` when outside)."""
    lo, hi = wilson(k, n)
    inside = lo * 100 - 1e-9 <= contract <= hi * 100 + 1e-9
    return f"{100 * k / n:5.1f} % ({100 * lo:4.1f}-{100 * hi:4.1f}) vs {contract:4.1f}{' ' if inside else '*'}"


def main(argv: list[str] | None = None) -> int:
    """Play the four lines and print the table."""
    ap = argparse.ArgumentParser(prog="python -m workbench.games.pole.turtlebench", description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200, help="games per line (the contract: 200)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=None, help="processes (default: every core; 0: in this process)")
    ap.add_argument("--engine", default="auto", choices=("auto", "native", "python"))
    ap.add_argument("--lines", default="before,after", help="before, after or both")
    args = ap.parse_args(argv)
    if not 1 <= args.games <= 100_000:
        ap.error("--games must be 1..100000")
    print("Pole, section 15: self-play at max_turns=400; each share with its 95 % Wilson interval, "
          "then the contract's figure (* = outside the interval)")
    print(f"{'defaults':<35} {'player':<7} {'Red wins':<34} {'Black wins':<34} {'unfinished':<34} "
          "mean turns (contract)  engine, wall")
    for defaults in [d.strip() for d in args.lines.split(",")]:
        if defaults not in WORDS:
            ap.error(f"--lines: {defaults!r} is not before or after")
        for player in ("random", "turtle"):
            r = measure(defaults, player, args.games, args.seed, args.workers, args.engine)
            c = CONTRACT[(defaults, player)]
            n = r["games"]
            print(f"{WORDS[defaults]:<35} {player:<7} {share(r['red'], n, c[0]):<34} {share(r['black'], n, c[1]):<34} "
                  f"{share(r['unfinished'], n, c[2]):<34} {r['mean_turns']:6.0f} ({c[3]:3d})"
                  f"{'':>10}{r['engine']}, {r['seconds']:.0f} s" + (f", {r['errors']} errors" if r["errors"] else ""),
                  flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
