"""Game records of big chess: JSON with game, version, rules, seed, start, cards, actions, result.

A record is replayed ply by ply on load; every action must be legal where it stands, and the stored
result must match the replay's, so a corrupt or edited record is refused with the field or the ply
named. ``start`` is null for a game that began at the rules' own start, else the full start state
(``to_dict``), which carries the board, teams and any scenario cards. Resignations (an engine call,
B36) are written ``resign:p`` among the actions.
"""

from __future__ import annotations

import json
from typing import Any

from workbench.core.protocol import IllegalAction

from .state import BigChessState

VERSION = 1
NAME = "big-chess"  # the game a record of this package names (its registry name)
MAX_RECORD = 20_000_000
MAX_ACTIONS = 2_000_000


class RecordError(ValueError):
    """A record that cannot be loaded: the message names the field or the ply."""


def result_of(st: BigChessState) -> dict[str, Any]:
    """The stored result: outcome, winner team, turn, returns per player."""
    ctx = st.ctx
    return {"result": st.result, "winner": None if st.winner_team is None else ctx.team_text[st.winner_team],
            "turn": st.turn_no, "returns": dict(zip(ctx.players, st.returns(), strict=True)),
            "out": sorted(ctx.players[p] for p in st.out)}


def save_record(st: BigChessState) -> str:
    """The game that led to ``st`` as record text (JSON)."""
    data = {
        "game": NAME, "version": VERSION, "rules": st.ctx.rules.to_dict(), "seed": st.seed,
        "start": st.start_data, "cards": [c.to_data() for c in st.ctx.extra_cards] or None,
        "actions": list(st.log), "result": result_of(st),
    }
    return json.dumps(data, ensure_ascii=False, indent=1)


FIELDS = ("game", "version", "rules", "seed", "start", "cards", "actions", "result")


def load_record_text(text: str) -> BigChessState:
    """Replay a record; ``RecordError`` naming the field or ply on any problem."""
    from . import GAME

    if len(text) > MAX_RECORD:
        raise RecordError(f"record: {len(text):,} characters is above the limit {MAX_RECORD:,}")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"record: not JSON ({exc.msg}, line {exc.lineno})") from None
    except RecursionError:
        raise RecordError("record: not a record (JSON nested too deep)") from None
    if not isinstance(data, dict):
        raise RecordError("record: must be a JSON object")
    for key in data:
        if key not in FIELDS:
            raise RecordError(f"record: unknown field {str(key)[:30]!r}; a record has {', '.join(FIELDS)}")
    for key in ("game", "version", "rules", "seed", "start", "actions", "result"):
        if key not in data:
            raise RecordError(f"record: field {key} is missing")
    if data["game"] != NAME:
        raise RecordError(f"record: field game is {data['game']!r:.30}, not {NAME}")
    if data["version"] != VERSION:
        raise RecordError(f"record: field version {data['version']!r:.20} is not {VERSION}")
    if not isinstance(data["rules"], dict):
        raise RecordError("record: field rules must map rule names to values")
    try:
        rules = GAME.rules(data["rules"])
    except ValueError as exc:
        raise RecordError(f"record: field rules: {exc}") from None
    seed = data["seed"]
    if not isinstance(seed, int) or isinstance(seed, bool) or not -2**63 <= seed < 2**64:
        raise RecordError("record: field seed must be a whole number from -2^63 to 2^64-1")
    try:
        if data["start"] is None:
            st = GAME.new_initial_state(rules, seed, cards=data.get("cards"))
        else:
            st = GAME.state_from_dict(data["start"])
            if st.ctx.rules != rules:
                raise RecordError("record: field start: its rules differ from field rules")
    except (ValueError, KeyError) as exc:
        if isinstance(exc, RecordError):
            raise
        raise RecordError(f"record: field start: {exc}") from None
    actions = data["actions"]
    if not isinstance(actions, list) or len(actions) > MAX_ACTIONS:
        raise RecordError("record: field actions must be a list of action strings")
    for i, a in enumerate(actions):
        if not isinstance(a, str):
            raise RecordError(f"record: ply {i + 1}: an action is a string")
        try:
            if a.startswith("resign:"):
                st.resign(a[len("resign:"):])
            else:
                st.apply_action(st.string_to_action(a))
        except (IllegalAction, KeyError) as exc:
            raise RecordError(f"record: ply {i + 1}: {a[:40]}: {exc}") from None
    if data["result"] != result_of(st):
        raise RecordError(f"record: field result {json.dumps(data['result'])[:200]} does not match the replay "
                          f"{json.dumps(result_of(st))[:200]}")
    return st
