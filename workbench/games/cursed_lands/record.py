"""Game records: save a game as JSON and load it back by replaying and verifying every ply.

A record holds the game, version, every rule value, the seed, the start position (null for the game's
start from the seed), both decks' orders at the start (the seed is used only when a game is created, so
the orders are what a replay trusts, section 7), the actions in canonical notation (``#h=t`` with the
tile placed, C46) and the result. Loading refuses a corrupt record naming the field or the ply.
"""

from __future__ import annotations

import json
from typing import Any

from workbench.core.protocol import IllegalAction
from workbench.core.rulespec import RulesError

from .deck import CODE_NAMES, parse_terrain
from .position import DATA_DIR, PositionError, build_state, position_of
from .rules import SIDES, SPEC
from .state import CursedState

VERSION = 1
NAME = "cursed-lands"  # the game a record of this package names (its registry name)
MAX_RECORD_BYTES = 8 * 1024 * 1024
MAX_PLIES = 200_000


class RecordError(ValueError):
    """A record that cannot be replayed; the message names the field or the ply."""


def _start_of(state: CursedState) -> tuple[CursedState, list[str]]:
    """The first state of ``state``'s undo history and the actions played since, in canonical notation."""
    start = state.clone()
    while start.history:
        start.undo_action()
    replay = start.clone()
    texts = []
    for a in state.played:
        texts.append(replay.action_to_string(a))  # before applying: '#h=t' names the tile then on top
        replay.apply_action(a)
    return start, texts


def save_record(state: CursedState, actions: list[str] | None = None) -> str:
    """Record JSON of ``state``: from its undo history (or ``actions`` played from its start)."""
    if actions is None:
        start, actions = _start_of(state)
    else:
        start = state
    fresh = build_state(start.rules, None, start.seed) if start.rules["setup"] == "classic" else None
    start_pos = position_of(start)
    is_game_start = fresh is not None and position_of(fresh) == start_pos and start.factions == fresh.factions
    data = {
        "game": NAME,
        "version": VERSION,
        "rules": start.rules.to_dict(),
        "seed": start.seed,
        "start": None if is_game_start else start_pos,
        "decks": {SIDES[s]: [CODE_NAMES[c] for c in start.decks[s]] for s in (0, 1)},
        "actions": list(actions),
        "result": _result(state),
    }
    return json.dumps(data, ensure_ascii=False, indent=1)


def _result(state: CursedState) -> dict[str, Any]:
    return {"winner": None if state.winner_side is None else SIDES[state.winner_side], "victory": state.victory_kind,
            "turn": state.turn_no, "castle_hp": {SIDES[s]: state.castle_hp[s] for s in (0, 1)}}


FIELDS = ("game", "version", "rules", "seed", "start", "decks", "actions", "result")


def load_record_text(text: str) -> CursedState:
    """Replay a record; every ply must be legal and write back as recorded, and the result must match."""
    if not isinstance(text, str) or len(text) > MAX_RECORD_BYTES:
        raise RecordError(f"a record is JSON text of at most {MAX_RECORD_BYTES:,} bytes")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"not JSON: {exc.msg} at line {exc.lineno}") from None
    except RecursionError:
        raise RecordError("not a record: JSON nested too deep") from None
    if not isinstance(data, dict):
        raise RecordError("a record is a JSON object")
    for key in data:
        if key not in FIELDS:
            raise RecordError(f"unknown field {str(key)[:30]!r}; a record has {', '.join(FIELDS)}")
    if data.get("game") != NAME:
        raise RecordError(f"field game: expected {NAME}, got {str(data.get('game'))[:30]!r}")
    if data.get("version") != VERSION:
        raise RecordError(f"field version: this engine reads version {VERSION}, got {str(data.get('version'))[:10]}")
    try:
        raw_rules = data.get("rules") or {}
        if not isinstance(raw_rules, dict):
            raise RecordError("field rules: a mapping of rule names to values")
        rules = SPEC.make(SPEC.confine_paths(raw_rules, [DATA_DIR]))  # a record names files in the game's data only
    except RulesError as exc:
        raise RecordError(f"field rules: {exc}") from None
    seed = data.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int) or not -2**63 <= seed < 2**64:
        raise RecordError("field seed: a whole number from -2^63 to 2^64-1 (taken mod 2^64)")
    try:
        state = build_state(rules, data.get("start"), seed)
    except (PositionError, RulesError) as exc:
        raise RecordError(f"field start: {exc}") from None
    decks = data.get("decks")
    if decks is not None:
        if not isinstance(decks, dict) or set(decks) - set(SIDES):
            raise RecordError("field decks: maps p1 and p2 to their tile orders, top first")
        for s, name in enumerate(SIDES):
            try:
                want = [parse_terrain(t) for t in decks.get(name) or []]
            except (ValueError, TypeError) as exc:
                raise RecordError(f"field decks {name}: {exc}") from None
            if want != state.decks[s]:
                raise RecordError(f"field decks {name}: the order does not match the deck dealt from seed {seed} "
                                  "and the start (the record is corrupt)")
    actions = data.get("actions")
    if not isinstance(actions, list) or len(actions) > MAX_PLIES:
        raise RecordError(f"field actions: a list of at most {MAX_PLIES:,} actions in notation")
    for i, text_a in enumerate(actions, start=1):
        if not isinstance(text_a, str):
            raise RecordError(f"ply {i}: {str(text_a)[:30]!r} is not action notation")
        try:
            a = state.string_to_action(text_a)
        except IllegalAction as exc:
            raise RecordError(f"ply {i}: {exc}") from None
        written = state.action_to_string(a)
        if " ".join(text_a.split()) != written and not text_a.startswith("camp"):
            raise RecordError(f"ply {i}: {text_a[:40]} is written {written} in canonical notation")
        state.apply_action(a)
    result = data.get("result")
    if result is not None:
        if not isinstance(result, dict):
            raise RecordError("field result: an object with winner and victory")
        got = _result(state)
        for key in ("winner", "victory", "turn", "castle_hp"):
            if key in result and result[key] != got[key]:
                raise RecordError(f"field result {key}: the record says {str(result[key])[:30]}, the replay gives "
                                  f"{str(got[key])[:30]}")
    return state
