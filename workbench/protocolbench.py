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


def bench_report(name: str, games: int, seed: int, max_actions: int, rules: str) -> dict[str, Any]:
    """The game's playouts and TerraFeud's Python playouts in one run, with their ratio."""
    from workbench.bench import terrafeud_playouts

    ours = protocol_playouts(name, games, seed, max_actions, rules or None)
    peer = terrafeud_playouts(max(1, games // 2), seed, 300)
    return {**ours, "rules": rules, "terrafeud_plies_per_sec": peer["plies_per_sec"],
            "ratio_vs_terrafeud": ours["actions_per_sec"] / peer["plies_per_sec"]}
