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
