"""``python -m workbench bench --game NAME``: random-playout speed of any game, as a ratio against a peer.

Machines here are noisy, so the figure that matters is the ratio to a peer measured in the same run:
python-chess's random playouts, taken in turns with the game's (``protocolbench.interleaved_playouts``).
With the game's native core (``--engine native``, or ``auto`` when built) the native playouts are timed
too, and the game's own Python engine on a tenth of the games: the speed-up, and a check that both
engines played the same games (equal action counts).
"""

from __future__ import annotations

import json
import sys

from .cliargs import Parser, seed, whole

MAX_GAMES = 100_000  # random playouts of one run (the native cores play thousands of games/s)
MAX_PLIES = 1_000_000  # as simulate's ply cap and the native cores'


def main(argv: list[str] | None = None) -> int:
    """``python -m workbench bench [--game NAME] --games N --seed S [--rules K=V,...] [--engine E] [--json]``."""
    from workbench.core.protocol import NativeUnavailableError, resolve_engine
    from workbench.games import DEFAULT, get

    from .protocolbench import bench_report

    ap = Parser(prog="python -m workbench bench")
    ap.add_argument("--games", type=whole(1, MAX_GAMES), default=50)
    ap.add_argument("--seed", type=seed(), default=1)
    ap.add_argument("--max-plies", type=whole(1, MAX_PLIES), default=300, help="actions per game at most")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--rules", default="", metavar="K=V,...",
                    help="rules of the playouts, e.g. archer_range=3 or start=my.yaml (python -m workbench rules --game)")
    ap.add_argument("--no-peer", action="store_true", help="skip the python-chess peer")
    ap.add_argument("--engine", default="auto", choices=("auto", "native", "python"),
                    help="auto: the game's native core when built; native also times its Python engine on a tenth")
    ap.add_argument("--game", default=DEFAULT, help="the game (python -m workbench games)")
    args = ap.parse_args(argv)
    try:
        game = get(args.game)
        engine = resolve_engine(game, args.engine)
    except NativeUnavailableError as exc:
        print(f"bench: error: {exc}", file=sys.stderr)
        return 2
    except ValueError as exc:
        ap.error(str(exc))
    try:
        rules = game.spec.make(args.rules or None)
        game.new_initial_state(rules, args.seed)  # a start= file that does not load fails here, in one line
    except ValueError as exc:
        print(f"bench: error: --rules: {exc}", file=sys.stderr)
        return 2
    out = bench_report(game.name, args.games, args.seed, args.max_plies, rules.label(), engine, peer=not args.no_peer)
    if args.json:
        print(json.dumps(out))
    else:
        for k, v in out.items():
            print(f"{k:>22}: {v:,.3f}" if isinstance(v, float) else f"{k:>22}: {v}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
