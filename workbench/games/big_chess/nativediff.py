"""Equality sweep: big chess's native core against its Python engine, at every ply of random games.

``python -m workbench.games.big_chess.nativediff --games 1000`` (or ``python -m workbench nativediff --game
big-chess``) plays seeded random games, each under its own draw of the rules (every parameter and toggle at
its default half the time), a board and team string for 2, 4 or 8 players, the setup phase or a deployed
start, and card overrides: ``cost_<card>`` rules and, in a third of the games, designer cards (random patterns
of the card language, new cards and replacements of starter cards). A Python ``BigChessState`` and its native
twin step side by side; at every ply the sweep compares the legal actions in order, ``to_dict`` (counters
included), ``fired``, the player to move, the result and returns, every player's evaluation and the actions'
priorities; every 5th ply the dense ints; every 17th an undo and a redo. The first difference stops the game
with its ply and field (the loop and the figures are ``workbench.core.nativediff``'s).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from workbench.core.nativediff import GameCheck, first_difference
from workbench.core.nativediff import main as sweep_main
from workbench.core.rulespec import Rules, RulesError

from . import GAME
from .cards import CardError, parse_cards, starter_cards
from .native import NativeBigChessState, available
from .rules import SPEC
from .state import BigChessState

TABLES = (("classic-2", "a,b"), ("classic-4", "ab,cd"), ("classic-4", "ac,bd"), ("classic-4", "a,b,c,d"),
          ("free-8", "abcd,efgh"), ("free-8", "a,b,c,d,e,f,g,h"), ("free-8", "ab,cd,ef,gh"))
_SKIP = ("board", "teams", "start", "deploy_plan", "promotion_targets", "fort_levels")


def sample_rules(rng: random.Random) -> Rules:
    """Rules with each parameter at its default half the time, else near it or anywhere in its range."""
    while True:
        board, teams = rng.choice(TABLES)
        values: dict[str, Any] = {"board": board, "teams": teams.replace(",", "/")}
        values["start"] = "army" if board == "classic-2" and rng.random() < 0.15 else (
            "setup" if rng.random() < 0.25 else "deployed")
        for p in SPEC:
            if p.name in _SKIP or rng.random() < 0.5:
                continue
            if p.kind == "bool":
                values[p.name] = not p.default
            elif p.kind == "choice":
                values[p.name] = rng.choice(list(p.choices))
            elif p.name in ("max_turns", "quiet_limit"):
                values[p.name] = rng.randint(4, 80)
            else:
                lo, hi, d = int(p.low), int(p.high), int(p.default)
                values[p.name] = rng.randint(lo, min(hi, max(2 * d, lo + 10))) if rng.random() < 0.4 else \
                    max(lo, min(hi, d + rng.choice((-10, -5, -1, 1, 5, 10))))
        if rng.random() < 0.3:
            values["fort_levels"] = ",".join(str(v) for v in sorted(rng.sample(range(4), rng.randint(0, 3))))
        if rng.random() < 0.3:
            values["promotion_targets"] = ",".join(rng.sample(["knight", "bishop", "rook", "queen", "camel", "lqueen"],
                                                              rng.randint(1, 3)))
        try:
            return SPEC.make(values)
        except RulesError:
            continue


def _random_entry(rng: random.Random, pawn: bool) -> dict[str, Any]:
    act = rng.choice(("move", "move", "strike", "strike", "take", "push", "area"))
    if act == "area":
        cells = rng.sample([[x, y] for x in range(-2, 3) for y in range(-2, 3) if (x, y) != (0, 0)], rng.randint(1, 6))
        return {"act": "area", "cells": cells}
    if act == "push":
        return {"act": "push", "slide": rng.choice([[0, -1], [1, -1], [1, 0]]), "sym": rng.choice(("none", "lr", "rot4", "all"))}
    e: dict[str, Any] = {"act": act}
    if rng.random() < 0.5:
        e["slide"] = rng.choice([[0, -1], [1, -1], [1, 0], [-1, 1]])
        rng_ = rng.choice((0, 1, 2, 3))
        e["range"] = rng_
        if rng_ != 1 and rng.random() < 0.3:
            e["min"] = 2 if rng_ in (0, 2, 3) else 1
        if rng.random() < 0.2:
            e["hop"] = True
    else:
        e["leap"] = [[rng.randint(-3, 3), rng.randint(-3, 3)] for _ in range(rng.randint(1, 3))]
        e["leap"] = [v for v in e["leap"] if v != [0, 0]] or [[1, -2]]
    e["sym"] = rng.choice(("none", "lr", "rot4", "all"))
    if rng.random() < 0.3:
        e["keep"] = True
    return e


def sample_cards(rng: random.Random) -> list[dict[str, Any]] | None:
    """Designer cards for a third of the games: one or two new cards and sometimes a starter card replaced."""
    if rng.random() > 0.34:
        return None
    out = []
    starters = [c for c in starter_cards() if c.buyable and "pawn" not in c.tags]
    for i in range(rng.randint(1, 2)):
        replace = rng.random() < 0.4
        base = rng.choice(starters) if replace else None
        levels = {str(lv): [_random_entry(rng, False) for _ in range(rng.randint(1, 2))] for lv in range(rng.randint(0, 2))}
        tags = rng.choice(([], [], ["jester"], ["prince"], ["untouchable"], ["jester_immune"]))
        card = {"key": base.key if base else f"designer{i}", "id": base.id if base else 200 + i,
                "vector": rng.random() < 0.5, "cost": rng.choice((20, 30, 50, 80)), "income": rng.choice((0, 0, 5)),
                "buyable": True, "tags": tags, "aura": rng.sample(range(3), rng.randint(0, 1)),
                "base": [_random_entry(rng, False) for _ in range(rng.randint(1, 3))], "levels": levels}
        try:
            parse_cards(card, "nativediff")
        except CardError:
            continue
        out.append(card)
    return out or None


_diff = first_difference


def compare(py: BigChessState, nat: NativeBigChessState, ply: int, ints: bool) -> str:
    """The first difference between the two states ('' when equal)."""
    legal = py.legal_actions()
    if nat.native.legal_actions() != legal:
        return _diff(legal, nat.native.legal_actions(), "legal_actions")
    if py.current_player() != nat.current_player():
        return f"current_player: {py.current_player()} vs {nat.current_player()}"
    d = _diff(py.to_dict(), nat.python().to_dict(), "to_dict")
    if d:
        return d
    if list(py.fired()) != nat.fired():
        return _diff(list(py.fired()), nat.fired(), "fired")
    if py.returns() != nat.returns() or py.is_terminal() != nat.is_terminal():
        return f"returns: {py.returns()} vs {nat.returns()}"
    for p in range(len(py.ctx.players)):
        if py.evaluate(p) != nat.evaluate(p):
            return f"evaluate({p}): {py.evaluate(p)!r} vs {nat.evaluate(p)!r}"
    for a in legal[:: max(1, len(legal) // 25)]:
        if py.action_priority(a) != nat.action_priority(a):
            return f"action_priority({a}): {py.action_priority(a)} vs {nat.action_priority(a)}"
    if ints and legal and not py.is_terminal():
        want = [GAME.action_to_int(py, a) for a in legal]
        if nat.native.legal_ids() != want:
            return _diff(want, nat.native.legal_ids(), "legal_ids")
        own = legal if py.phase == "play" else py.legal_actions(py.current_player())
        if nat.native.own_ids() != [GAME.action_to_int(py, a) for a in own]:
            return "own_ids: the mover's own actions differ"
    return ""


def _pick(py: BigChessState, legal: list[str], rng: random.Random) -> str:
    """Random, with removals and purchases favoured half the time (so games reach their ends)."""
    if rng.random() < 0.5:
        hot = [a for a in legal if py.action_priority(a) >= 100]
        if hot:
            return rng.choice(hot)
    return rng.choice(legal)


def play_one(seed: int, max_plies: int = 160) -> GameCheck:
    """One game of the sweep; ``diff`` is '' when the engines agreed at every ply."""
    rng = random.Random(seed)
    rules = sample_rules(rng)
    cards = sample_cards(rng)
    py = GAME.new_initial_state(rules, seed, cards=cards)
    nat = NativeBigChessState.initial(py.ctx, seed)
    info = GameCheck(seed, tags={"board": rules["board"], "teams": py.ctx.teams_text, "start": rules["start"],
                                 "cards": bool(cards), "players": len(py.ctx.players)})
    for ply in range(max_plies + 1):
        d = compare(py, nat, ply, ply % 5 == 0)
        info.legal += len(py.legal_actions())
        if d:
            info.diff = f"ply {ply}: {d}"
            return info
        if py.is_terminal() or ply == max_plies:
            break
        if ply % 17 == 9 and py._history:
            py.undo_action()
            nat.undo_action()
            d = compare(py, nat, ply, True)
            if d:
                info.diff = f"ply {ply} after undo: {d}"
                return info
        legal = py.legal_actions()
        if py.phase == "play" and rng.random() < 0.004:
            who = rng.choice([p for p in range(len(py.ctx.players)) if p not in py.out])
            py.resign(who)
            nat.resign(who)
        else:
            a = _pick(py, legal, rng)
            py.apply_action(a)
            nat.apply_action(a)
        info.plies += 1
    info.result = py.result or "unfinished"
    return info


def main(argv: Sequence[str] | None = None) -> int:
    """``nativediff --game big-chess --games N [--seed S] [--max-plies P] [--json] [--progress]``."""
    return sweep_main(GAME.name, play_one, available, argv, __doc__ or "", max_plies=160, seed=1)


if __name__ == "__main__":
    raise SystemExit(main())
