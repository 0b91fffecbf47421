"""Equality sweep: the native core against the Python engine, at every ply of random games.

``python -m workbench.games.cursed_lands.nativediff --games 1000`` plays seeded random games under a sample
of every parameter and toggle (each game draws its own rules), stepping a Python ``CursedState`` and its
native twin side by side. At every ply it compares the legal actions in order (the setup phase: the count
and sampled indices of the lazy camp list), ``to_dict``, the counters and ``fired``; every few plies an
agent's view (same seed) too. The first difference stops the game with its ply and field (the loop and the
figures are ``workbench.core.nativediff``'s).
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from typing import Any

from workbench.core.nativediff import GameCheck, checked, first_difference
from workbench.core.nativediff import main as sweep_main
from workbench.core.nativediff import sweep as run_sweep
from workbench.core.rulespec import Rules, RulesError

from .position import build_state
from .rules import FACTION_PAIRS, SPEC
from .state import CursedState


def sample_rules(rng: random.Random) -> Rules:
    """Rules with each parameter at its default half the time, else a value drawn from its range."""
    while True:
        values: dict[str, Any] = {}
        for p in SPEC:
            if p.name == "setup" or rng.random() < 0.5:
                continue
            if p.name == "factions":
                values["factions"] = rng.choice(FACTION_PAIRS)
            elif p.kind == "bool":
                values[p.name] = not p.default
            elif p.kind == "choice":
                values[p.name] = rng.choice(list(p.choices))
            elif p.name == "turn_limit":
                values[p.name] = rng.randint(1, 40)
            else:
                lo, hi = int(p.low), int(p.high)
                # mostly near the default, sometimes anywhere in the range
                d = int(p.default)
                v = rng.randint(lo, hi) if rng.random() < 0.3 else max(lo, min(hi, d + rng.choice((-2, -1, 1, 2))))
                values[p.name] = v
        if "turn_limit" not in values:
            values["turn_limit"] = rng.randint(10, 60)
        try:
            return SPEC.make(values)
        except RulesError:
            continue


_diff = first_difference


def _camp_at(n: int, i: int) -> int:
    from .native import core

    return core().camp_at(n, i)


def compare(py: CursedState, nat: Any, rng: random.Random, where: str) -> None:
    """Raise AssertionError naming the first field where the two engines differ."""
    if py.phase == "setup":
        pl = py.legal_actions()
        nl = nat.native.legal_count()
        assert len(pl) == nl, f"{where}: setup legal count python {len(pl)} native {nl}"
        n = py.starting_units
        for _ in range(SETUP_SAMPLES):
            i = rng.randrange(len(pl))
            assert pl[i] == _camp_at(n, i), f"{where}: camp action {i} differs"
    else:
        pl = py.legal_actions()
        nl = nat.legal_actions()
        if pl != nl:
            extra = sorted(set(nl) - set(pl))[:5]
            missing = sorted(set(pl) - set(nl))[:5]
            raise AssertionError(f"{where}: legal actions differ: native extra "
                                 f"{[py.action_to_string(a) for a in extra]}, missing "
                                 f"{[py.action_to_string(a) for a in missing]}, order {pl == sorted(nl, key=pl.index) if not extra and not missing else '-'}")
    d = _diff(py.to_dict(), nat.to_dict())
    assert not d, f"{where}: to_dict {d}"
    assert py.counters() == nat.counters(), f"{where}: counters {_diff(py.counters(), nat.counters())}"
    assert py.fired() == nat.fired(), f"{where}: fired python {py.fired()} native {nat.fired()}"
    assert py.is_terminal() == nat.is_terminal() and py.returns() == nat.returns(), f"{where}: result"
    if not py.is_terminal():
        e1, e2 = py.evaluate(0), nat.evaluate(0)
        assert e1 == e2, f"{where}: evaluate python {e1} native {e2}"


VIEW_EVERY = 7  # plies between checks of an agent's view
SETUP_SAMPLES = 3  # camp actions compared one by one in the setup phase (the count is compared whole)


def _compared(py: CursedState) -> int:
    """Legal actions ``compare`` held one by one: the whole list in play, the sampled camps in setup."""
    return SETUP_SAMPLES if py.phase == "setup" else len(py.legal_actions())
RULES_VARIED = len([p for p in SPEC if p.name != "setup"])


def play_one(seed: int, max_plies: int = 400) -> GameCheck:
    """One random game under its own draw of the rules on both engines, compared at every ply."""
    from .native import NativeCursedState

    def body(check: GameCheck) -> None:
        rng = random.Random(seed)
        rules = sample_rules(rng)
        check.tags["rules_varied"] = len(rules.non_default())
        deck_seed = rng.getrandbits(64)
        py = build_state(rules, None, deck_seed)
        nat = NativeCursedState.from_python(py)
        where = f"rules {rules.label() or 'default'}, deck seed {deck_seed}"
        compare(py, nat, rng, f"{where} start")
        check.legal += _compared(py)
        n = 0
        while not py.is_terminal() and n < max_plies:
            a = rng.choice(py.legal_actions())
            py.apply_action(a)
            nat.apply_action(a)
            n += 1
            check.plies = n
            compare(py, nat, rng, f"{where} ply {n} after {py.played and py.history and a}")
            check.legal += _compared(py)
            if n % VIEW_EVERY == 0:
                vs = rng.getrandbits(31)
                pv, nv = py.view(py.to_move, vs), nat.view(py.to_move, vs)
                d = _diff(pv.to_dict(), nv.to_dict())
                assert not d, f"{where} ply {n}: view {d}"
                if py.phase == "play" and not py.is_terminal():  # the view allows what the agent is offered (C46)
                    assert pv.legal_actions() == py.legal_actions(), f"{where} ply {n}: view's legal list"
            if n % 23 == 0:  # undo and redo through both engines
                py.undo_action()
                nat.undo_action()
                compare(py, nat, rng, f"{where} ply {n} undone")
                py.apply_action(a)
                nat.apply_action(a)
        check.result = (py.victory_kind or "finished") if py.is_terminal() else "unfinished"

    return checked(seed, body)


def sweep(games: int, seed: int = 0, max_plies: int = 400, quiet: bool = True) -> dict[str, Any]:
    """``games`` games through the one sweep loop (``workbench.core.nativediff.sweep``); its figures."""
    from .native import core

    if core() is None:
        raise RuntimeError("the native core is not built (make native)")
    return run_sweep(play_one, games, seed, max_plies, progress=not quiet)


def main(argv: Sequence[str] | None = None) -> int:
    """``nativediff --game cursed-lands --games N [--seed S] [--max-plies P] [--json] [--progress]``."""
    from . import GAME
    from .native import available

    return sweep_main(GAME.name, play_one, available, argv, __doc__ or "", max_plies=400, seed=0)


if __name__ == "__main__":
    sys.exit(main())
