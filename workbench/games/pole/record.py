"""Game records (contract section 11): JSON with the rules, seed, start, every action and every roll.

``save_record(state)`` writes the game that led to ``state``; ``load_record_text(text)`` replays it,
verifying every ply (each action must be legal where it stands, the turn lines, the dice list and the
result must agree with the replay) and refuses a corrupt record naming the field or the ply.

Fields: ``game`` (pole), ``version`` (1), ``rules`` (every parameter; a ``start`` file is stored as the
position it held, so the record stands alone), ``seed``, ``start`` (the start position, or null for
the rules' start), ``moves`` (one line per turn, ``3. I@e4 e7xe4 2:5``), ``actions`` (the same actions
one by one, attacks with their dice), ``dice`` (every roll, ``[r_a, r_d]``, in order) and ``result``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from workbench.core.protocol import IllegalAction
from workbench.core.rulespec import RulesError

from .position import DATA_DIR, PositionError, build_state, classic_state, state_from_start
from .rules import SIDES, SPEC
from .state import OVER_PHASE, PoleState, apply_text, dice_text, position_dict
from .tables import config

VERSION = 1
NAME = "pole"  # the game a record of this package names (its registry name)
MAX_RECORD_BYTES = 32 * 1024 * 1024
FIELDS = ("game", "version", "rules", "seed", "start", "moves", "actions", "dice", "result")


class RecordError(ValueError):
    """A record that cannot be replayed; the message names the field or the ply."""


def _replay_texts(state: PoleState) -> tuple[PoleState, list[tuple[int, str]]]:
    """The start state of ``state``'s game and its actions as (turn, text with dice)."""
    if state.origin is None:
        raise RecordError("the state does not know the position its game started from")
    start = build_state(state.origin, state.cfg)
    probe = start.clone()
    out: list[tuple[int, str]] = []
    history = state.history
    i = 0
    while i < len(history):
        action = history[i]
        turn = probe.turn_no
        text = probe.action_to_string(action)
        probe.apply_action(action)
        if probe.pending >= 0:
            if i + 1 >= len(history):
                break  # an attack whose dice are not rolled yet is not part of the record
            roll = history[i + 1]
            probe.apply_action(roll)
            text = f"{text} {dice_text(roll)}"
            i += 1
        out.append((turn, text))
        i += 1
    return start, out


def turn_lines(actions: list[tuple[int, str]]) -> list[str]:
    """``["1. B@d3 pass", "2. nobuy e9-e7", ...]`` (P42)."""
    lines: list[str] = []
    last = None
    for turn, text in actions:
        if turn != last:
            lines.append(f"{turn}.")
            last = turn
        lines[-1] += f" {text}"
    return lines


def actions_from_lines(lines: list[Any]) -> list[str]:
    """``["1. B@d3 pass", "3. I@e4 e7xe4 2:5"]`` -> ``["B@d3", "pass", "I@e4", "e7xe4 2:5"]``."""
    out: list[str] = []
    for j, line in enumerate(lines):
        if not isinstance(line, str):
            raise RecordError(f"moves[{j}]: a turn line is text such as '1. B@d3 pass'")
        tokens = line.split()
        if not tokens or not tokens[0].endswith(".") or not tokens[0][:-1].isdigit():
            raise RecordError(f"moves[{j}]: {line[:40]!r} does not start with its turn number, e.g. '3.'")
        for token in tokens[1:]:
            if len(token) == 3 and token[1] == ":" and out:
                out[-1] += f" {token}"  # the dice of the attack before
            else:
                out.append(token)
    return out


def record_dict(state: PoleState) -> dict[str, Any]:
    """The record of the game that led to ``state`` as JSON-ready data."""
    start, actions = _replay_texts(state)
    rules = state.cfg.rules.to_dict()
    start_pos: dict[str, Any] | None = position_dict(start)
    if rules["start"] == "classic" and start_pos == position_dict(classic_state(state.cfg)):
        start_pos = None
    elif rules["start"] != "classic":
        rules["start"] = position_dict(start)  # self-contained: the position the start file held
    dice = [[int(t.split()[1][0]), int(t.split()[1][2])] for _, t in actions if " " in t]
    return {
        "game": NAME,
        "version": VERSION,
        "rules": rules,
        "seed": state.seed,
        "start": start_pos,
        "moves": turn_lines(actions),
        "actions": [t for _, t in actions],
        "dice": dice,
        "result": result_of(state),
    }


def result_of(state: PoleState) -> dict[str, Any]:
    """The final fields a record states: phase, victory, winner, turn."""
    return {"phase": state.phase_name(), "victory": state.victory_kind,
            "winner": SIDES[state.winner_side] if state.winner_side is not None else None, "turn": state.turn_no}


def save_record(state: PoleState) -> str:
    """The record as JSON text."""
    return json.dumps(record_dict(state), ensure_ascii=False, indent=1) + "\n"


def load_record_text(text: str) -> PoleState:
    """Replay a record; ``RecordError`` naming the field or ply when anything disagrees."""
    if not isinstance(text, str) or len(text) > MAX_RECORD_BYTES:
        raise RecordError(f"a record is JSON text of at most {MAX_RECORD_BYTES:,} characters")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"not JSON: {exc.msg} at line {exc.lineno}") from None
    except RecursionError:
        raise RecordError("not a record: JSON nested too deep") from None
    return load_record(data)


def load_record(data: Any) -> PoleState:
    """Replay a record given as data (see ``load_record_text``)."""
    if not isinstance(data, Mapping):
        raise RecordError("a record is a JSON object")
    for key in data:
        if key not in FIELDS:
            raise RecordError(f"unknown field {str(key)[:30]!r}; a record has {', '.join(FIELDS)}")
    if data.get("game") != NAME:
        raise RecordError(f"game: expected {NAME}, found {str(data.get('game'))[:30]!r}")
    if data.get("version") != VERSION:
        raise RecordError(f"version: expected {VERSION}, found {str(data.get('version'))[:10]!r}")
    rules_data = data.get("rules", {})
    if not isinstance(rules_data, Mapping):
        raise RecordError("rules: a mapping of parameter names to values")
    try:  # a record names files in the game's data only
        rules = SPEC.make(SPEC.confine_paths(rules_data, [DATA_DIR]))
    except RulesError as exc:
        raise RecordError(f"rules: {exc}") from None
    seed = data.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool) or not -2**63 <= seed < 2**64:
        raise RecordError("seed: a whole number from -2^63 to 2^64-1")
    cfg = config(rules)
    start = data.get("start")
    try:
        state = state_from_start(cfg) if start is None else build_state(start, cfg)
        if start is not None:
            state.origin = position_dict(state)
    except (PositionError, RulesError) as exc:
        raise RecordError(f"start: {getattr(exc, 'reason', exc)}") from None
    if state.phase == OVER_PHASE:
        raise RecordError("start: the position is a finished game")
    state.seed = seed
    actions = data.get("actions")
    if actions is None and isinstance(data.get("moves"), list):
        actions = actions_from_lines(data["moves"])  # a record written as turn lines only
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise RecordError("actions: a list of action texts (attacks with dice, e.g. e5xe9 6:2)")
    limit = cfg.max_turns * (max(cfg.ppt, 1) + 1) + 10
    if len(actions) > limit:
        raise RecordError(f"actions: {len(actions)} actions; at most {limit} fit in max_turns={cfg.max_turns}")
    played: list[tuple[int, str]] = []
    for i, text in enumerate(actions):
        turn = state.turn_no
        try:
            apply_text(state, text)
        except IllegalAction as exc:
            raise RecordError(f"actions[{i}] (ply {i + 1}, turn {turn}): {str(exc)[:200]}") from None
        played.append((turn, text.strip()))
    if "moves" in data:
        moves = data["moves"]
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise RecordError("moves: a list of turn lines such as '1. B@d3 pass'")
        want = turn_lines(played)
        for j in range(max(len(moves), len(want))):
            got = moves[j].strip() if j < len(moves) else "(missing)"
            exp = want[j] if j < len(want) else "(none)"
            if " ".join(got.split()) != exp:
                raise RecordError(f"moves[{j}]: {got[:60]!r} disagrees with the actions, which give {exp[:60]!r}")
    if "dice" in data:
        dice = [[int(t.split()[1][0]), int(t.split()[1][2])] for _, t in played if " " in t]
        if data["dice"] != dice:
            raise RecordError("dice: the list of rolls disagrees with the dice written on the attacks")
    result = data.get("result")
    if result is not None:
        if not isinstance(result, Mapping):
            raise RecordError("result: a mapping (phase, victory, winner, turn)")
        got_result = result_of(state)
        for key, value in result.items():
            if key not in got_result:
                raise RecordError(f"result: unknown key {str(key)[:20]!r}")
            if got_result[key] != value:
                raise RecordError(f"result: {key} is {value!r} in the record but {got_result[key]!r} after the replay")
    return state
