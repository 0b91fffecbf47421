"""Equality sweep: TerraFeud's native core against its Python engine, at every ply of random games.

``python -m workbench.nativediff --game terrafeud --games 1000`` plays seeded random games in both engines
side by side, over a rotation of rule variants (every toggle of section 7 and every rule parameter at a
non-default value, plus the rulebook defaults), and compares at every ply: the legal actions (as ordered
lists, so the set and the order), ``state_to_dict`` (counters included), what the action fired, and the
final result; every 7th ply also the protocol's face of the core (``core::protocol::Game``: the dense ids in
the Python order and the evaluation of both sides). Any difference is reported with the variant, seed and
ply so it can be replayed (the loop and the figures are ``workbench.core.nativediff``'s).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from workbench.core.nativediff import GameCheck
from workbench.core.nativediff import main as sweep_main

from . import GAME
from .engine import make_game, state_to_dict
from .native import NativeState, available
from .state import TerraFeudState

# The rotation: defaults first (most games), then one variant per toggle/parameter value.
VARIANTS: tuple[str, ...] = (
    "", "", "", "",
    "season=winter", "castling=sacrifice", "archer_melee=true", "mate_defence=any", "pike_cavalry_mutual=true",
    "terrain=fixed", "draw_after=20", "hill=false,swamp=false", "archer_range=3", "hill_bonus=2", "aura_radius=3",
    "aura_radius=1", "aura_step=3", "aura_step=1", "aura_memory=false", "coordinated=1", "coordinated=3",
    "order_size=3", "order_size=1", "order_size=0", "order_radius=3", "castling_uses=0", "castling_uses=2",
    "promotion=false", "knight_bridge_stop=false", "bridges=b4/k4,fords=d5/f6/h5",
    "season=winter,castling=sacrifice,archer_melee=true,mate_defence=any,pike_cavalry_mutual=true",
)
PROTOCOL_EVERY = 7  # plies between checks of the core's protocol face (ids and evaluation)


def _protocol_face(py: TerraFeudState, ns: NativeState) -> str:
    """The core's ``Game`` answers against the protocol's Python answers ('' when equal)."""
    from workbench._native import terrafeud as core

    want = [GAME.action_to_int(py, a) for a in py.legal_actions()]
    if core.legal_ids(ns._st) != want:
        return "protocol ids of the legal actions"
    for p in (0, 1):
        if core.protocol_evaluate(ns._st, p) != py.evaluate(p):
            return f"protocol evaluate({p})"
    return ""


def play_one(seed: int, max_plies: int = 300) -> GameCheck:
    """One random game in both engines under the variant of this game's place in the rotation."""
    rules = VARIANTS[(seed % 1_000_003) % len(VARIANTS)]
    py = make_game(rules, seed).new_initial_state()
    ns = NativeState.from_state(py)
    rng = random.Random(seed)
    check = GameCheck(seed, tags={"rules": rules or "default"})

    def diff(what: str) -> GameCheck:
        check.diff = f"ply {py.ply}: {what}"
        return check

    if ns.to_dict() != state_to_dict(py):
        return diff("start position")
    while not py.is_terminal() and py.ply < max_plies:
        acts = py.legal_actions()
        if ns.legal_actions() != acts:
            return diff("legal actions")
        if py.ply % PROTOCOL_EVERY == 0:
            d = _protocol_face(TerraFeudState(py), ns)
            if d:
                return diff(d)
        check.legal += len(acts)
        a = rng.choice(acts)
        py.apply(a, check=False)
        ns.apply(a, check=False)
        check.plies += 1
        if ns.to_dict() != state_to_dict(py):
            return diff(f"state after {a}")
        if ns.fired != tuple(py.fired):
            return diff(f"fired after {a}")
    if ns.is_terminal() != py.is_terminal() or ns.returns() != py.returns():
        return diff("result")
    check.result = py.victory or "unfinished"
    return check


def main(argv: Sequence[str] | None = None) -> int:
    """``nativediff --game terrafeud --games N [--seed S] [--max-plies P] [--json] [--progress]``."""
    return sweep_main(GAME.name, play_one, available, argv, __doc__ or "", max_plies=300, seed=1)


if __name__ == "__main__":
    raise SystemExit(main())
