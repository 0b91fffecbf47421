"""TerraFeud's perft on its engine's own state (``apply``/``undo``), and its stored table of expected counts.

The table is data (``data/perft.json``): ``counts`` (depths 1-3) in both engines, ``depth4`` (computed once
by the Python engine, with bulk counting at the last level) by the native core, whose perft runs inside
Rust. ``python -m workbench perft --check`` reads it through ``GAME.perft_table()``.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from .engine import GameState, new_game


def engine_state(state: GameState, engine: str = "python") -> Any:
    """``state`` on the requested engine (``auto``, ``native`` or ``python``)."""
    from workbench.games.terrafeud.native import state_of

    return state_of(state, engine)


def perft(state: Any, depth: int) -> int:
    """Number of action sequences of length ``depth`` (a finished game counts as a leaf)."""
    from .native import NativeState

    if isinstance(state, NativeState):  # the whole count inside Rust
        return int(state.perft(depth))
    if depth == 0 or state.is_terminal():
        return 1
    actions = state.legal_actions()
    if depth == 1:
        return len(actions)
    total = 0
    for a in actions:
        state.apply(a, check=False)
        total += perft(state, depth - 1)
        state.undo()
    return total


def count(rules: str | None = None, seed: int = 0, depth: int = 3, engine: str = "auto") -> int:
    """Perft from the classic start of ``rules`` on the chosen engine (``auto``: native when built)."""
    return perft(engine_state(new_game(rules or None, seed=seed), engine), depth)


def expected_table() -> list[dict]:
    """The stored perft rows: rules, seed, and counts per depth."""
    text = resources.files("workbench.games.terrafeud").joinpath("data", "perft.json").read_text(encoding="utf-8")
    return json.loads(text)["rows"]


__all__ = ["count", "engine_state", "expected_table", "perft"]
