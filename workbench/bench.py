"""``python -m workbench bench --game NAME``: random-playout speed of any game, as a ratio against a peer.

Machines here are noisy, so the figure that matters is the ratio to a peer measured in the same run:
python-chess's random playouts, taken in turns with the game's (``interleaved_playouts``).
With the game's native core (``--engine native``, or ``auto`` when built) the native playouts are timed
too, and the game's own Python engine on a tenth of the games: the speed-up, and a check that both
engines played the same games (equal action counts).
"""

from __future__ import annotations

import json
import random
import sys
import time
from typing import Any

from workbench.core.cliargs import Parser, seed, whole
from workbench.core.protocol import CHANCE

MAX_GAMES = 100_000  # random playouts of one run (the native cores play thousands of games/s)
MAX_PLIES = 1_000_000  # as simulate's ply cap and the native cores'


def protocol_playouts(name: str, games: int, seed: int, max_actions: int = 10_000, rules: Any = None,
                      first: int = 0) -> dict[str, Any]:
    """Uniformly random actions (chance sampled by its probabilities) from the start, ``games`` times (games
    ``first`` .. ``first + games - 1`` of the seed's stream, so a run cut in slices plays the same games)."""
    from workbench.games import get
    from workbench.simulate.protocol_play import sample_outcome

    game = get(name)
    rules = game.spec.make(rules) if not hasattr(rules, "spec") else rules
    actions = 0
    t0 = time.perf_counter()
    for g in range(first, first + games):
        rng = random.Random(seed * 100_003 + g)
        st = game.new_initial_state(rules, seed * 100_003 + g)
        n = 0
        while not st.is_terminal() and n < max_actions:
            if st.current_player() == CHANCE:
                st.apply_action(sample_outcome(st.chance_outcomes(), rng))
            else:
                st.apply_action(rng.choice(st.legal_actions()))
            n += 1
        actions += n
    dt = time.perf_counter() - t0
    return {"game": game.name, "games": games, "actions": actions, "seconds": dt, "actions_per_sec": actions / dt,
            "games_per_sec": games / dt}


def native_protocol_playouts(name: str, games: int, seed: int, max_actions: int = 10_000,
                             rules: Any = None) -> dict[str, Any]:
    """``protocol_playouts`` inside the game's native core: the same streams, so the same games."""
    from workbench.games import get

    game = get(name)
    rules = game.spec.make(rules) if not hasattr(rules, "spec") else rules
    t0 = time.perf_counter()
    actions = game.native.random_playouts(rules, games, seed, max_actions)
    dt = time.perf_counter() - t0
    return {"game": game.name, "games": games, "actions": actions, "seconds": dt, "actions_per_sec": actions / dt,
            "games_per_sec": games / dt}


def chess_playouts(games: int, seed: int, max_plies: int = 300) -> dict[str, float] | None:
    """The peer: python-chess random playouts (None when python-chess is not installed)."""
    try:
        import chess
    except ImportError:
        return None
    plies = 0
    t0 = time.perf_counter()
    for g in range(games):
        rng = random.Random(seed * 100_003 + g)
        board = chess.Board()
        while board.ply() < max_plies and not board.is_game_over(claim_draw=False):
            board.push(rng.choice(list(board.legal_moves)))
            plies += 1
    dt = time.perf_counter() - t0
    return {"games": games, "plies": plies, "seconds": dt, "plies_per_sec": plies / dt, "games_per_sec": games / dt}


def _with_peer(out: dict[str, Any], speed: float, peer: dict[str, Any] | None) -> dict[str, Any]:
    if peer is not None and peer["plies"]:
        out["chess_plies_per_sec"] = peer["plies_per_sec"]
        out["ratio_vs_chess"] = speed / peer["plies_per_sec"]
    return out


def bench_report(name: str, games: int, seed: int, max_actions: int, rules: str, engine: str = "python",
                 peer: bool = True) -> dict[str, Any]:
    """The game's random playouts with python-chess's in one run, and their ratio (``peer``).

    ``engine`` ``native`` (or ``auto`` with the game's core built) times the native playouts, with the
    game's own Python engine on a tenth of the games in the same run: the speed-up, and a check that both
    engines played the same games (equal action counts). ``plies`` are the game's actions.
    """
    from workbench.core.protocol import resolve_engine
    from workbench.games import get

    engine = resolve_engine(get(name), engine)
    if engine == "native":
        # CPU seconds beside the wall clock: on a machine shared with other work the wall-clock rates of runs
        # taken one after the other see different loads; CPU time (the core runs in this thread) does not
        c0 = time.process_time()
        nat = native_protocol_playouts(name, games, seed, max_actions, rules or None)
        c1 = time.process_time()
        few = max(1, games // 10)
        ours = protocol_playouts(name, few, seed, max_actions, rules or None)
        c2 = time.process_time()
        same = native_protocol_playouts(name, few, seed, max_actions, rules or None)["actions"] == ours["actions"]
        c3 = time.process_time()
        chess = chess_playouts(max(1, few // 2), seed, 300) if peer else None
        c4 = time.process_time()
        cpu = {"native_actions_per_cpu_sec": nat["actions"] / max(c1 - c0, 1e-9),
               "python_actions_per_cpu_sec": ours["actions"] / max(c2 - c1, 1e-9)}
        cpu["speedup_vs_python_cpu"] = cpu["native_actions_per_cpu_sec"] / cpu["python_actions_per_cpu_sec"]
        if chess is not None and chess["plies"]:
            cpu["chess_plies_per_cpu_sec"] = chess["plies"] / max(c4 - c3, 1e-9)
            cpu["ratio_vs_chess_cpu"] = cpu["native_actions_per_cpu_sec"] / cpu["chess_plies_per_cpu_sec"]
        out = {**nat, "plies": nat["actions"], "plies_per_sec": nat["actions_per_sec"], "engine": "native",
               "rules": rules, "python_games": few, "python_actions_per_sec": ours["actions_per_sec"],
               "python_plies_per_sec": ours["actions_per_sec"],
               "speedup_vs_python": nat["actions_per_sec"] / ours["actions_per_sec"],
               "ratio_vs_python": nat["actions_per_sec"] / ours["actions_per_sec"], "same_games_as_python": same,
               "cpu": cpu}
        return _with_peer(out, nat["actions_per_sec"], chess)
    mine, theirs = interleaved_playouts(name, games, seed, max_actions, rules or None, peer=peer)
    out = {**mine, "plies": mine["actions"], "plies_per_sec": mine["actions_per_sec"], "engine": "python", "rules": rules}
    return _with_peer(out, mine["actions_per_sec"], theirs)


def interleaved_playouts(name: str, games: int, seed: int, max_actions: int, rules: Any, peer_plies: int = 300,
                         peer: bool = True) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The game's playouts and python-chess's taken in turns, game by game, and timed apart.

    Run one after the other, a long run and a short peer run saw different loads on a shared machine (the
    ratio moved from 0.05 to 0.12 between runs); in turns, both see the same load. The peer plays its games
    (half as many, ``peer_plies`` plies each) spread evenly between ours; None without python-chess.
    """
    import importlib.util

    n_peer = max(1, games // 2) if peer and importlib.util.find_spec("chess") is not None else 0
    ours = {"actions": 0, "seconds": 0.0}
    theirs = {"plies": 0, "seconds": 0.0}
    done = 0
    out: dict[str, Any] = {}

    def one_peer() -> None:
        nonlocal done
        p = chess_playouts(1, seed * 1_000 + done, peer_plies)
        assert p is not None
        theirs["plies"] += p["plies"]
        theirs["seconds"] += p["seconds"]
        done += 1

    for g in range(games):
        out = protocol_playouts(name, 1, seed, max_actions, rules, first=g)
        ours["actions"] += out["actions"]
        ours["seconds"] += out["seconds"]
        while done < n_peer and done * games <= g * n_peer:
            one_peer()
    while done < n_peer:  # games < 2: the peer's one game after ours
        one_peer()
    mine = {"game": out.get("game", name), "games": games, "actions": ours["actions"], "seconds": ours["seconds"],
            "actions_per_sec": ours["actions"] / ours["seconds"], "games_per_sec": games / ours["seconds"]}
    if not n_peer:
        return mine, None
    return mine, {"games": n_peer, "plies": theirs["plies"], "seconds": theirs["seconds"],
                  "plies_per_sec": theirs["plies"] / theirs["seconds"], "games_per_sec": n_peer / theirs["seconds"]}


def main(argv: list[str] | None = None) -> int:
    """``python -m workbench bench [--game NAME] --games N --seed S [--rules K=V,...] [--engine E] [--json]``."""
    from workbench.core.protocol import NativeUnavailableError, resolve_engine
    from workbench.games import DEFAULT, get

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
