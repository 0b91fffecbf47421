"""Positions (contract section 12): read, validate and build states; the classic start; ``start`` files.

A position is the mapping a scenario's ``position:`` holds (to_move, phase, turn, coins, pieces, fresh,
bought, removed, quiet, winner, victory). ``build_state`` checks every field rule of section 12 and
P28-P40 and raises ``PositionError`` naming the key (and, from a YAML file, its line). Loading never
credits income (section 14). ``position_dict`` in ``state`` is the one writer.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from workbench.core.rulespec import Rules, RulesError
from workbench.core.safefile import UnsafeFileError, read_text_capped

from .board import NAMES, parse_cell
from .rules import LETTERS, SIDES, SPEC, P
from .state import ACT_PHASE, BUY_PHASE, OVER_PHASE, PHASES, PoleState, code, position_dict
from .tables import Config, config

POSITION_KEYS = ("to_move", "phase", "turn", "coins", "pieces", "fresh", "bought", "removed", "quiet", "winner",
                 "victory")
VICTORIES = ("prince", "unfinished", "draw")
MAX_TURN = 10**9
MAX_COINS = 10**9
MAX_START_BYTES = 256 * 1024
DATA_DIR = Path(__file__).parent / "data"  # where files named inside records resolve


class PositionError(ValueError):
    """A position that breaks a rule of section 12; ``key`` names the field, ``line`` its file line."""

    def __init__(self, key: str | None, reason: str, line: int = 0) -> None:
        super().__init__(reason)
        self.key = key
        self.reason = reason
        self.line = line


def _line(node: Any, key: Any) -> int:
    getter = getattr(node, "line_of", None)
    if getter is None:
        return 0
    try:
        return int(getter(key))
    except (KeyError, IndexError, TypeError, ValueError):
        return 0


def _short(value: Any) -> str:
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= 30 else text[:27] + "..."


def _int(node: Mapping, key: str, low: int, high: int, field: str | None = None) -> int:
    value = node[key]
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        label = f"{field}: {key}" if field else key
        raise PositionError(field or key, f"{label} must be a whole number from {low} to {high}, got {_short(value)}",
                            _line(node, key))
    return value


def _side(node: Mapping, key: str, allow_null: bool = False) -> int | None:
    value = node[key]
    if value is None and allow_null:
        return None
    if value not in SIDES:
        raise PositionError(key, f"{key} must be red or black{' or null' if allow_null else ''}, got {_short(value)}",
                            _line(node, key))
    return SIDES.index(value)


def _cells(node: Mapping, key: str) -> list[int]:
    value = node[key]
    if value is None:
        return []
    if not isinstance(value, list):
        raise PositionError(key, f"{key} must be a list of cells, e.g. [d3, e4]", _line(node, key))
    out = []
    for i, item in enumerate(value):
        c = parse_cell(item)
        if c is None:
            raise PositionError(key, f"{key}: {_short(item)} is not a cell (a1..j10, lower case)", _line(value, i))
        if c in out:
            raise PositionError(key, f"{key}: {NAMES[c]} is named twice", _line(value, i))
        out.append(c)
    return out


def parse_piece_letter(value: Any) -> int | None:
    """Board code of a piece letter (upper Red, lower Black), or None."""
    if not isinstance(value, str) or len(value) != 1 or value.upper() not in LETTERS:
        return None
    return code(LETTERS.index(value.upper()), 0 if value.isupper() else 1)


def build_state(pos: Mapping, cfg: Config) -> PoleState:
    """A state from a position mapping under ``cfg``; ``PositionError`` on the first broken rule."""
    if not isinstance(pos, Mapping):
        raise PositionError(None, "a position is a mapping (to_move, phase, turn, coins, pieces, ...)")
    for key in pos:
        if key not in POSITION_KEYS:
            raise PositionError(key, f"unknown position key {_short(key)}; allowed: {', '.join(POSITION_KEYS)}",
                                _line(pos, key))
    s = PoleState(cfg)
    s.to_move = _side(pos, "to_move") if "to_move" in pos else 0  # type: ignore[assignment]
    side = s.to_move
    # coins (required, both sides)
    if "coins" not in pos:
        raise PositionError("coins", "coins is required and names both sides, e.g. {red: 5, black: 4}",
                            getattr(pos, "line", 0))
    coins = pos["coins"]
    if not isinstance(coins, Mapping) or set(coins) != set(SIDES):
        raise PositionError("coins", "coins must name both sides and nothing else, e.g. {red: 5, black: 4}",
                            _line(pos, "coins"))
    for i, name in enumerate(SIDES):
        s.coins[i] = _int(coins, name, 0, MAX_COINS, "coins")
    # phase
    if "phase" in pos:
        if pos["phase"] not in PHASES:
            raise PositionError("phase", f"phase must be buy, act or over, got {_short(pos['phase'])}",
                                _line(pos, "phase"))
        s.phase = PHASES.index(pos["phase"])
    else:
        s.phase = BUY_PHASE if cfg.buy_first and cfg.ppt > 0 else ACT_PHASE
    if s.phase == BUY_PHASE and cfg.ppt == 0:
        raise PositionError("phase", "phase buy never occurs with purchases_per_turn=0 (P40)", _line(pos, "phase"))
    # turn
    if "turn" in pos:
        s.turn_no = _int(pos, "turn", 1, MAX_TURN)
        if s.turn_no % 2 != (1 if side == 0 else 0):
            raise PositionError("turn", f"turn {s.turn_no} is {'odd' if s.turn_no % 2 else 'even'}, so "
                                f"{'red' if s.turn_no % 2 else 'black'} is to move, but to_move is {SIDES[side]} "
                                "(Red plays the odd turns)", _line(pos, "turn"))
    else:
        s.turn_no = 1 if side == 0 else 2
    # pieces
    pieces = pos.get("pieces")
    if pieces is None:
        pieces = {}
    if not isinstance(pieces, Mapping):
        raise PositionError("pieces", "pieces must map cells to letters, e.g. {e2: P, e9: p}", _line(pos, "pieces"))
    for name, value in pieces.items():
        c = parse_cell(name)
        if c is None:
            raise PositionError("pieces", f"pieces: {_short(name)} is not a cell (a1..j10, lower case)",
                                _line(pieces, name))
        v = parse_piece_letter(value)
        if v is None:
            raise PositionError("pieces", f"pieces: {NAMES[c]}: {_short(value)} is not a piece letter "
                                "(B S T I A H C P, upper case Red, lower case Black)", _line(pieces, name))
        if s.board[c]:
            raise PositionError("pieces", f"pieces: {NAMES[c]} holds two pieces", _line(pieces, name))
        s.board[c] = v
    # quiet
    if "quiet" in pos:
        s.quiet = _int(pos, "quiet", 0, MAX_TURN)
    # winner / victory
    over = s.phase == OVER_PHASE
    princes = [s.board.count(code(P, 0)), s.board.count(code(P, 1))]
    if over:
        if pos.get("victory") is None:
            raise PositionError("victory", "phase over needs victory: prince, unfinished or draw (P30)",
                                _line(pos, "victory") or _line(pos, "phase"))
        if pos["victory"] not in VICTORIES:
            raise PositionError("victory", f"victory must be prince, unfinished or draw, got {_short(pos['victory'])}",
                                _line(pos, "victory"))
        s.victory_kind = pos["victory"]
        if s.victory_kind == "prince":
            if pos.get("winner") is None:
                raise PositionError("winner", "victory prince needs winner (the side to move, P31)",
                                    _line(pos, "winner") or _line(pos, "victory"))
            w = _side(pos, "winner")
            if w != side:
                raise PositionError("winner", f"winner {SIDES[w]} must equal to_move {SIDES[side]} after a prince "  # type: ignore[index]
                                    "victory (P31)", _line(pos, "winner"))
            s.winner_side = w
            if princes[side] != 1 or princes[1 - side] != 0:
                raise PositionError("pieces", f"after a prince victory the winner ({SIDES[side]}) has its one Prince "
                                    "and the loser has none (P30)", _line(pos, "pieces"))
        else:
            if "winner" in pos and pos["winner"] is not None:
                raise PositionError("winner", f"victory {s.victory_kind} has winner null", _line(pos, "winner"))
    else:
        for key in ("winner", "victory"):
            if pos.get(key) is not None:
                raise PositionError(key, f"{key} is only set in phase over (the game is running)", _line(pos, key))
    if not over or s.victory_kind != "prince":
        for i in (0, 1):
            if princes[i] != 1:
                what = "lacks a Prince" if princes[i] == 0 else f"has {princes[i]} Princes"
                raise PositionError("pieces", f"pieces: {SIDES[i]} {what}; each side has exactly one "
                                    f"({'P' if i == 0 else 'p'})", _line(pos, "pieces"))
    # fresh
    fresh = _cells(pos, "fresh") if "fresh" in pos else []
    if fresh:
        line = _line(pos, "fresh")
        if over:
            raise PositionError("fresh", "fresh is empty in phase over (P30)", line)
        if not cfg.buy_first:
            raise PositionError("fresh", "fresh is empty under turn_order=act_first (nothing is ever fresh)", line)
        if len(fresh) > cfg.ppt:
            raise PositionError("fresh", f"fresh names {len(fresh)} cells; at most purchases_per_turn={cfg.ppt}", line)
        for c in fresh:
            v = s.board[c]
            if v == 0:
                raise PositionError("fresh", f"fresh: {NAMES[c]} is empty", line)
            if (v - 1) >> 3 != side:
                raise PositionError("fresh", f"fresh: {NAMES[c]} holds a {SIDES[1 - side]} piece; fresh pieces "
                                    "belong to the side to move", line)
            if (v - 1) & 7 == P:
                raise PositionError("fresh", f"fresh: {NAMES[c]} is the Prince, which is never bought (P38)", line)
            s.fresh |= 1 << c
    # bought
    if "bought" in pos:
        s.bought = _int(pos, "bought", 0, 3)
        line = _line(pos, "bought")
        if s.phase != BUY_PHASE and s.bought:
            raise PositionError("bought", "bought is 0 outside phase buy", line)
    elif s.phase == BUY_PHASE and cfg.buy_first:
        s.bought = len(fresh)
    if s.phase == BUY_PHASE:
        line = _line(pos, "bought") or _line(pos, "fresh")
        if s.bought >= cfg.ppt:
            raise PositionError("bought", f"bought {s.bought} must be below purchases_per_turn={cfg.ppt} in phase buy",
                                line)
        if cfg.buy_first and s.bought != len(fresh):
            raise PositionError("bought", f"bought {s.bought} must equal the {len(fresh)} fresh cells under "
                                "buy_first (P28)", line)
    # removed
    if "removed" in pos:
        value = pos["removed"]
        if not isinstance(value, bool):
            raise PositionError("removed", f"removed must be true or false, got {_short(value)}", _line(pos, "removed"))
        if value and (s.phase != BUY_PHASE or cfg.buy_first):
            raise PositionError("removed", "removed: true only arises in phase buy under turn_order=act_first (P29)",
                                _line(pos, "removed"))
        s.removed = value
    return s


def classic_state(cfg: Config) -> PoleState:
    """The classic start (section 2, P34): the two Princes, start_coins each, Red's first turn begun."""
    s = PoleState(cfg)
    s.board[cfg.prince_cell(0)] = code(P, 0)
    s.board[cfg.prince_cell(1)] = code(P, 1)
    s.coins = [cfg.start_coins, cfg.start_coins]
    s.to_move = 0
    s.turn_no = 1
    s.begin_turn()  # Red's first income under income_timing=start (Red 5, Black 4)
    s.origin = position_dict(s)
    return s


def read_start_file(path: str) -> Mapping:
    """The position in a YAML file (a scenario's ``position`` or a bare position), read safely."""
    try:  # the shared safe reader: regular files only, bounded, no content in its errors
        text = read_text_capped(path, MAX_START_BYTES)
    except UnsafeFileError as exc:
        raise RulesError(f"parameter start={_short(path)}: {exc} (classic, a position mapping, or a "
                         "YAML file holding a position)") from None
    # The workbench's bounded, line-marking YAML reader (the engine itself reads no YAML elsewhere).
    from workbench.core.yamlmarks import load_with_lines

    try:
        data = load_with_lines(text)
    except Exception as exc:  # noqa: BLE001 - any YAML failure is this parameter's error
        raise RulesError(f"parameter start={_short(path)}: not a readable YAML file ({type(exc).__name__})") from None
    if isinstance(data, Mapping) and "position" in data:
        data = data["position"]
    if not isinstance(data, Mapping):
        raise RulesError(f"parameter start={_short(path)}: the file holds no position mapping")
    return data


def start_position(start: Any) -> Mapping | None:
    """The position mapping a ``start`` value names (None for classic)."""
    if start == "classic":
        return None
    if isinstance(start, Mapping):
        return start
    return read_start_file(start)


def state_from_start(cfg: Config, start: Any = None) -> PoleState:
    """The initial state under ``cfg`` (P33): classic, or the position ``start`` names, as written.

    ``start`` defaults to the rules' own value; the spec's check passes a value still being validated.
    """
    pos = start_position(cfg.rules["start"] if start is None else start)
    if pos is None:
        return classic_state(cfg)
    try:
        s = build_state(pos, cfg)
    except PositionError as exc:
        raise RulesError(f"parameter start: {exc.reason}") from None
    if s.phase == OVER_PHASE:
        raise RulesError("parameter start: the position is a finished game (phase over); a start must be running (P33)")
    s.origin = position_dict(s)
    return s


def check_start(values: dict[str, Any]) -> None:
    """Validate ``start`` under the other values (called by the spec's cross-field check)."""
    state_from_start(config(Rules(SPEC, {**values, "start": "classic"})), values["start"])
