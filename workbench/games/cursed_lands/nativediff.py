"""Equality sweep: the native core against the Python engine, at every ply of random games.

``python -m workbench.games.cursed_lands.nativediff --games 1000`` plays seeded random games under a sample
of every parameter and toggle (each game draws its own rules), stepping a Python ``CursedState`` and its
native twin side by side. At every ply it compares the legal actions in order (the setup phase: the count
and sampled indices of the lazy camp list), ``to_dict``, the counters and ``fired``; every few plies an
agent's view (same seed) too. The first difference stops the sweep with the game, ply and field.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

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


def _diff(a: Any, b: Any, path: str = "") -> str:
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b), key=str):
            if k not in a or k not in b:
                return f"{path}.{k}: only in {'python' if k in a else 'native'}"
            d = _diff(a[k], b[k], f"{path}.{k}")
            if d:
                return d
        return ""
    if a != b:
        return f"{path}: python {json.dumps(a, default=str)[:200]} native {json.dumps(b, default=str)[:200]}"
    return ""


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
        for _ in range(3):
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


def sweep(games: int, seed: int = 0, max_plies: int = 400, view_every: int = 7, quiet: bool = False) -> dict[str, Any]:
    """Play ``games`` random games on both engines, comparing at every ply; the figures of the sweep."""
    from .native import NativeCursedState, core

    mod = core()
    if mod is None:
        raise RuntimeError("the native core is not built (make native)")
    t0 = time.perf_counter()
    plies = finished = 0
    toggles: dict[str, set[str]] = {}
    for g in range(games):
        rng = random.Random(seed * 1_000_003 + g)
        rules = sample_rules(rng)
        for k, v in rules.non_default().items():
            toggles.setdefault(k, set()).add(str(v))
        deck_seed = rng.getrandbits(64)
        py = build_state(rules, None, deck_seed)
        nat = NativeCursedState.from_python(py)
        where = f"game {g} (rules {rules.label() or 'default'}, deck seed {deck_seed})"
        compare(py, nat, rng, f"{where} start")
        n = 0
        while not py.is_terminal() and n < max_plies:
            a = rng.choice(py.legal_actions())
            py.apply_action(a)
            nat.apply_action(a)
            n += 1
            compare(py, nat, rng, f"{where} ply {n} after {py.played and py.history and a}")
            if n % view_every == 0:
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
        plies += n
        finished += py.is_terminal()
        if not quiet and (g + 1) % 100 == 0:
            print(f"  {g + 1} games, {plies:,} plies equal", flush=True)
    dt = time.perf_counter() - t0
    return {"games": games, "plies": plies, "finished": finished, "seconds": round(dt, 1),
            "rules_varied": len(toggles), "values_seen": sum(len(v) for v in toggles.values()),
            "parameters": len([p for p in SPEC if p.name != "setup"])}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m workbench.games.cursed_lands.nativediff", description=__doc__)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--max-plies", type=int, default=400)
    args = ap.parse_args(argv)
    try:
        out = sweep(args.games, args.seed, args.max_plies)
    except AssertionError as exc:
        print(f"DIFFERENCE: {exc}")
        return 1
    print(f"equal: {out['games']} games ({out['finished']} finished), {out['plies']:,} plies, legal actions in order "
          f"and to_dict at every ply; {out['rules_varied']} of {out['parameters']} rules varied "
          f"({out['values_seen']} non-default values); {out['seconds']} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
