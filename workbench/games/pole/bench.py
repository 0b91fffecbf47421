"""``python -m workbench.games.pole.bench [GAMES]``: random-playout speed and the engine's odds table.

Prints actions per second of seeded random playouts under the default rules (CPU time, so a busy
machine still gives a fair figure) and the 8 x 6 success-count table computed by the engine, the one
the contract's section 8 states.
"""

from __future__ import annotations

import sys
import time

from . import GAME, play_random
from .rules import KIND_DATA, LETTERS
from .tables import config, successes

DEFENDERS = ("A", "I", "H", "C", "P", "T")
ATTACKERS = ("I", "A", "H", "T", "P", "C")


def odds_table(rules_values: dict | None = None) -> dict[str, dict[str, tuple[int, ...]]]:
    """Successes out of 36: ``{"open"|"fortress": {attacker: (vs A, I, H, C, P/B/S, T)}}`` under the rules."""
    cfg = config(GAME.rules(rules_values or {}))
    out: dict[str, dict[str, tuple[int, ...]]] = {"open": {}, "fortress": {}}
    for att in ATTACKERS:
        a = LETTERS.index(att)
        for mode, halved in (("open", 0), ("fortress", 1)):
            out[mode][att] = tuple(successes(2 * cfg.armour[LETTERS.index(d)] - cfg.d2[a][halved]) for d in DEFENDERS)
    return out


def playout_speed(games: int = 20) -> tuple[int, float]:
    """(actions played, actions per CPU second) over ``games`` seeded random games."""
    n = 0
    start = time.process_time()
    for seed in range(games):
        n += play_random(GAME.new_initial_state(seed=seed), seed).move_number()
    return n, n / max(time.process_time() - start, 1e-9)


def main(argv: list[str] | None = None) -> int:
    """Print the figures."""
    args = sys.argv[1:] if argv is None else argv
    games = int(args[0]) if args else 20
    n, speed = playout_speed(games)
    print(f"random playouts: {games} games, {n} actions, {speed:,.0f} actions/s (CPU)")
    for name in ("exact", "down"):
        table = odds_table({"fortress_rounding": name})
        for mode in ("open", "fortress") if name == "exact" else ("fortress",):
            print(f"\n{mode} ({'fortress_rounding=' + name if mode == 'fortress' else 'full damage'}): "
                  "successes out of 36 against " + " ".join(f"{d:>3}" for d in DEFENDERS))
            for att, row in table[mode].items():
                word = KIND_DATA[LETTERS.index(att)]["en"]
                print(f"  {att} {word:<12}" + " ".join(f"{v:>3}" for v in row))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
