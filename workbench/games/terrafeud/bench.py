"""TerraFeud's random playouts on its own engine state and in its native core (``GAME.native.random_playouts``).

The same games either way (one ``random.Random(seed * 100003 + g)`` stream per game), so the native run
checks itself: its plies equal the Python engine's for the same arguments. ``python -m workbench bench``
(every game) times them through the protocol; these are the engine-level figures of ``docs/native.md``.
"""

from __future__ import annotations

import random
import time

from .engine import Game, RulesConfig, make_game


def _config(rules: RulesConfig | dict | str | None) -> RulesConfig:
    """Rules as given to the library or by ``--rules`` (toggles, parameters, ``start=PATH``)."""
    if rules is None:
        return RulesConfig()
    if isinstance(rules, str):
        return RulesConfig.parse(rules)
    if isinstance(rules, dict):
        return RulesConfig.from_dict(rules)
    return rules


def terrafeud_playouts(games: int, seed: int, max_plies: int = 300,
                       rules: RulesConfig | dict | str | None = None) -> dict[str, float]:
    """Uniformly random legal actions from the start of ``rules`` (default: the classic start)."""
    config = _config(rules)
    plies = 0
    t0 = time.perf_counter()
    for g in range(games):
        rng = random.Random(seed * 100_003 + g)
        st = make_game(config, seed * 100_003 + g).new_initial_state()
        while not st.is_terminal() and st.ply < max_plies:
            st.apply(rng.choice(st.legal_actions()), check=False)
            plies += 1
    dt = time.perf_counter() - t0
    return {"games": games, "plies": plies, "seconds": dt, "plies_per_sec": plies / dt, "games_per_sec": games / dt}


def native_playouts(games: int, seed: int, max_plies: int = 300,
                    rules: RulesConfig | dict | str | None = None) -> dict[str, float]:
    """The same playouts inside the native core: terrain drawn in Python, the games in Rust.

    Boards are built once per distinct terrain (there are few), so the Python side costs one
    terrain draw per game and the figure is the engine's.
    """
    from .native import _require, board_tables, rules_dict, seed_key, setup_of

    _require()
    from workbench import _native  # type: ignore[attr-defined]

    config = _config(rules)
    t0 = time.perf_counter()
    boards: dict[object, int] = {}
    tables: list[dict] = []
    setup = None
    jobs = []
    first: Game | None = None
    for g in range(games):
        gs = seed * 100_003 + g
        game = make_game(config, gs)  # a start= file: its rules, terrain and position (cached)
        if first is None:
            first = game
            setup = setup_of(game.new_initial_state(), live=False)
        if game.terrain not in boards:
            boards[game.terrain] = len(tables)
            tables.append(board_tables(game))
        jobs.append((boards[game.terrain], seed_key(gs)))
    effective = first.rules if first is not None else config
    per_game = _native.random_playouts(tables, rules_dict(effective), setup, jobs, max_plies) if jobs else []
    plies = sum(per_game)
    dt = time.perf_counter() - t0
    return {"games": games, "plies": plies, "seconds": dt, "plies_per_sec": plies / dt, "games_per_sec": games / dt}


def playouts(games: int, seed: int, max_plies: int = 300, engine: str = "auto",
             rules: RulesConfig | dict | str | None = None) -> dict[str, float]:
    """Random playouts on the chosen engine (``auto``: native when built); same games either way."""
    from .native import resolve_engine

    if resolve_engine(engine) == "native":
        return {**native_playouts(games, seed, max_plies, rules), "engine": "native"}  # type: ignore[dict-item]
    return {**terrafeud_playouts(games, seed, max_plies, rules), "engine": "python"}  # type: ignore[dict-item]


__all__ = ["native_playouts", "playouts", "terrafeud_playouts"]
