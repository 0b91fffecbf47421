"""Benchmark-scale proof that a game's native core and its Python engine are one game.

``python -m workbench.nativediff --game NAME --games 1000 [--seed S] [--max-plies P] [--json] [--progress]``
runs the game's equality sweep (declared as ``GameDef.native.sweep``: its ``play_one`` plays one seeded
random game on both engines side by side, comparing at every ply), through the one loop of
``workbench.core.nativediff``: the same figures for every game (games, plies, legal actions compared,
differences, wall and CPU seconds), each difference with the seed that replays it, exit status 1 when any
game differs. Without ``--game`` the registry's default game is swept; ``--all`` sweeps every game that
declares a native core, one after the other (``make bench`` runs 1,000 games each).
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    """``nativediff [--game NAME] ...``: the game's sweep with the other arguments."""
    from .games import UnknownGameError, get

    args = list(sys.argv[1:] if argv is None else argv)
    if "--all" in args:
        from .games import names

        rest = [a for a in args if a != "--all"]
        swept = [n for n in names() if get(n).native.sweep]
        return max((main(["--game", n, *rest]) for n in swept), default=0)
    name = None
    rest = []
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--game" and i + 1 < len(args):
            name, i = args[i + 1], i + 2
            continue
        if a.startswith("--game="):
            name = a.split("=", 1)[1]
        else:
            rest.append(a)
        i += 1
    try:
        game = get(name)
    except (UnknownGameError, KeyError, ValueError) as exc:
        print(f"nativediff: error: {exc}", file=sys.stderr)
        return 2
    if not game.native.sweep:
        print(f"nativediff: error: {game.name} has no native core to compare", file=sys.stderr)
        return 2
    if not game.native.available():
        print(f"nativediff: error: the native core of {game.name} is not built (make native)", file=sys.stderr)
        return 2
    return int(importlib.import_module(game.native.sweep).main(rest))


if __name__ == "__main__":
    raise SystemExit(main())
