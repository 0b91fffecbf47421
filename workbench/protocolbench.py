"""``bench`` and ``perft`` for any protocol game (``--game NAME``): speed as a ratio, counts as a check.

Random playouts of a game are timed beside TerraFeud's own Python engine in the same run, so the
figure that matters, actions per second against a peer, survives a noisy machine. Perft counts
action sequences through the protocol; a chance node counts each outcome as a branch.
"""

from __future__ import annotations

import random
import time
from typing import Any

from workbench.core.protocol import CHANCE, State


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


def faction_matrix(agent: str, games: int, workers: int, turn_limit: int = 100, seed: int = 1,
                   engine: str = "auto") -> dict[str, Any]:
    """The Cursed Lands' 16 ordered faction pairs x ``games`` games of ``agent`` against itself: time and results."""
    from workbench.simulate import simulate

    t0 = time.perf_counter()
    df = simulate({"factions": ["all"], "turn_limit": [turn_limit]}, agent, agent, games=games, seed=seed,
                  workers=workers, progress=False, game="cursed-lands", engine=engine)
    dt = time.perf_counter() - t0
    decided = df[df["winner"] != "none"]
    return {"agent": agent, "games": len(df), "pairs": int(df["faction_p1"].astype(str).str.cat(
        df["faction_p2"].astype(str), "/").nunique()), "workers": workers, "turn_limit": turn_limit,
        "seconds": round(dt, 1), "engines": sorted(set(df["engine"])), "decided": len(decided),
        "p1_share_of_decided": round(float((decided["winner"] == "p1").mean()), 3) if len(decided) else None,
        "errors": int((df["outcome"] == "error").sum())}


def batch_memory(games: int, agent: str = "random", workers: int = 2, turn_limit: int = 200,
                 events: bool = False) -> dict[str, Any]:
    """Peak memory (this process and its workers, max RSS) of a ``games``-game Cursed Lands batch."""
    import resource

    from workbench.simulate import simulate

    t0 = time.perf_counter()
    out = simulate({"turn_limit": [turn_limit]}, agent, agent, games=games, seed=2, workers=workers,
                   progress=False, game="cursed-lands", events=events)
    games_df, events_df = out if events else (out, [])
    dt = time.perf_counter() - t0
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return {"games": len(games_df), "events": len(events_df), "seconds": round(dt, 1),
            "engines": sorted(set(games_df["engine"])), "max_rss_mb_parent": round(own), "max_rss_mb_worker": round(kids)}


if __name__ == "__main__":  # python -m workbench.protocolbench matrix AGENT GAMES [WORKERS] | memory GAMES
    import json
    import sys

    what = sys.argv[1] if len(sys.argv) > 1 else ""
    if what == "matrix":
        print(json.dumps(faction_matrix(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]) if len(sys.argv) > 4 else 2)))
    elif what == "memory":
        print(json.dumps(batch_memory(int(sys.argv[2]))))
    else:
        print("usage: python -m workbench.protocolbench matrix AGENT GAMES_PER_PAIR [WORKERS] | memory GAMES")
