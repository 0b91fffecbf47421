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


def protocol_playouts(name: str, games: int, seed: int, max_actions: int = 10_000, rules: Any = None) -> dict[str, Any]:
    """Uniformly random actions (chance sampled by its probabilities) from the start, ``games`` times."""
    from workbench.games import get
    from workbench.simulate.protocol_play import sample_outcome

    game = get(name)
    rules = game.spec.make(rules) if not hasattr(rules, "spec") else rules
    actions = 0
    t0 = time.perf_counter()
    for g in range(games):
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
    """``protocol_playouts`` in the native core: the same games (decks dealt by the Python engine from the same
    seeds, the same ``random.Random`` streams), so its ``actions`` equal the Python engine's."""
    from workbench.games import get
    from workbench.games.cursed_lands.native import core, fields_of, rules_dict

    game = get(name)
    if game.name != "cursed-lands" or core() is None:
        raise ValueError(f"engine=native: {game.name} has no built native core; use --engine python or auto")
    rules = game.spec.make(rules) if not hasattr(rules, "spec") else rules
    jobs = []
    for g in range(games):
        st = game.new_initial_state(rules, seed * 100_003 + g)
        jobs.append((fields_of(st), seed * 100_003 + g))
    factions = game.new_initial_state(rules, 0).factions
    t0 = time.perf_counter()
    per_game = core().random_playouts(rules_dict(rules, factions), jobs, max_actions)
    dt = time.perf_counter() - t0
    actions = sum(per_game)
    return {"game": game.name, "games": games, "actions": actions, "seconds": dt, "actions_per_sec": actions / dt,
            "games_per_sec": games / dt, "per_game": per_game}


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


def bench_report(name: str, games: int, seed: int, max_actions: int, rules: str,
                 engine: str = "python") -> dict[str, Any]:
    """The game's playouts and TerraFeud's Python playouts in one run, with their ratio.

    ``engine`` (``auto``, ``native``, ``python``): with the native core, the native playouts are timed and the
    game's own Python engine plays a tenth of the same games in the same run (their action counts must agree),
    so ``native_speedup`` is native against its own Python engine.
    """
    from workbench.bench import terrafeud_playouts
    from workbench.simulate.protocol_play import protocol_engine

    from .games import get

    engine = protocol_engine(get(name).name, engine)
    if engine == "native":
        ours = native_protocol_playouts(name, games, seed, max_actions, rules or None)
        few = max(1, games // 10)
        py = protocol_playouts(name, few, seed, max_actions, rules or None)
        if py["actions"] != sum(ours["per_game"][:few]):
            raise ValueError(f"native and Python playouts differ: {sum(ours['per_game'][:few])} against {py['actions']} "
                             f"actions in the first {few} games")
        ours.pop("per_game")
        ours.update(python_actions_per_sec=py["actions_per_sec"], python_games=few,
                    native_speedup=ours["actions_per_sec"] / py["actions_per_sec"])
    else:
        ours = protocol_playouts(name, games, seed, max_actions, rules or None)
    peer = terrafeud_playouts(max(1, games // 2), seed, 300)
    return {**ours, "engine": engine, "rules": rules, "terrafeud_plies_per_sec": peer["plies_per_sec"],
            "ratio_vs_terrafeud": ours["actions_per_sec"] / peer["plies_per_sec"]}


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
