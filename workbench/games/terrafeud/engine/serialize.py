"""Positions and game records as JSON-ready dicts, in the scenario file's vocabulary.

``state_to_dict``/``state_from_dict`` round-trip a position exactly (terrain hexes included, so a
rolled game restores the hexes it drew). A record adds the start, the actions in notation and the
result; loading replays and verifies every action, refusing a corrupt record with ply and reason.

A record file is untrusted input: ``load_record`` reads regular files only, up to
``MAX_RECORD_BYTES``, checks the type of every field before using it (so a hand-edited file gets a
``RecordError`` naming the field, never an AttributeError from deep inside), and echoes no content
of a file that is not a record.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from workbench.core.safefile import UnsafeFileError, read_text_capped

from .board import Terrain
from .game import Game
from .geometry import ADJACENT, hex_name, parse_hex
from .pieces import ARCHER, FEUDAL, KIND_BY_LETTER, SIDE_NAMES, letter, parse_letter, side_index
from .rules import RulesConfig
from .state import GameState
from .telemetry import counters_dict

RECORD_FORMAT = "terrafeud-record"
RECORD_VERSION = 1
MAX_RECORD_BYTES = 4 * 1024 * 1024  # a 300-ply game is about 10 KB
MAX_RECORD_ACTIONS = 20_000
_MAX_TEXT = 64  # longest string field a record needs (an Order in notation is about 20)
_MAX_COUNT = 10**9  # ply and quiet


class RecordError(ValueError):
    """A game record that cannot be loaded; the message names the file, the ply and the reason."""


def terrain_from_dict(d: dict[str, Any]) -> Terrain:
    """``{"hills": {"white": "h4", "black": None}, "swamps": {...}}`` into a ``Terrain``."""

    def pair(m: dict[str, Any] | None) -> tuple[int | None, int | None]:
        m = m or {}
        return tuple(None if m.get(s) is None else parse_hex(m[s]) for s in SIDE_NAMES)  # type: ignore[return-value]

    return Terrain(hills=pair(d.get("hills")), swamps=pair(d.get("swamps")))


def state_to_dict(st: GameState) -> dict[str, Any]:
    """Every field of the position, JSON-ready."""
    markers = {}
    for s in (0, 1):
        for a, t in sorted(st.markers[s].items()):
            markers[hex_name(a)] = hex_name(t)
    return {
        "rules": st.rules.to_dict(),
        "seed": st.game.seed,
        "terrain": st.game.terrain.to_dict(),
        "to_move": SIDE_NAMES[st.to_move],
        "pieces": {hex_name(h): letter(st.squares[h]) for h in st.pieces()},
        "markers": markers,
        "ultimatum_pending": [hex_name(h) for h in sorted(st.pending)],
        "castled": [SIDE_NAMES[s] for s in (0, 1) for _ in range(st.castled[s])],
        "aura_ready": [hex_name(h) for h in sorted(st.aura_ready)],
        "destroyed": {
            SIDE_NAMES[s]: [letter(k | (s << 3)) for k in st.destroyed[s]] for s in (0, 1)
        },
        "ply": st.ply,
        "quiet": st.quiet,
        "winner": st.winner_name(),
        "victory": st.victory,
        "counters": counters_dict(st.counters),
    }


def position_fields(game: Game, d: dict[str, Any]) -> tuple[dict[int, int], int, dict[str, Any]]:
    """Parse the position part of a dict (scenario or saved state) into ``state_from_pieces`` args.

    Raises ``ValueError`` naming the hex, piece or field at fault.
    """
    pieces: dict[int, int] = {}
    raw = d.get("pieces") or {}
    if not isinstance(raw, dict):
        raise ValueError("pieces must map hexes to piece letters, e.g. {f1: F, f11: f}")
    for name, ch in raw.items():
        h = parse_hex(str(name))
        if h in pieces:
            raise ValueError(f"two pieces on {hex_name(h)}")
        pieces[h] = parse_letter(str(ch))
    for s in (0, 1):
        feudals = [h for h, c in pieces.items() if c == (FEUDAL | (s << 3))]
        if len(feudals) != 1 and not (d.get("victory") and not feudals):
            raise ValueError(
                f"the position needs exactly one {SIDE_NAMES[s]} feudal ({'F' if s == 0 else 'f'}), found {len(feudals)}"
            )
    to_move = side_index(d.get("to_move", "white"))
    markers: list[dict[int, int]] = [{}, {}]
    for a_name, t_name in (d.get("markers") or {}).items():
        a, t = parse_hex(str(a_name)), parse_hex(str(t_name))
        c = pieces.get(a, 0)
        if c & 7 != ARCHER:
            raise ValueError(f"marker {a_name}: {t_name}: there is no archer on {a_name} (markers map archer hex -> marked hex)")
        markers[c >> 3][a] = t
    pending = []
    for name in d.get("ultimatum_pending") or []:
        h = parse_hex(str(name))
        c = pieces.get(h, 0)
        if not c or c >> 3 != to_move or h not in markers[1 - to_move].values():
            raise ValueError(
                f"ultimatum_pending {name}: needs a piece of the side to move under an enemy marker there"
            )
        pending.append(h)
    castled = [0, 0]  # one entry per castling used (castling_uses may allow several)
    for name in d.get("castled") or []:
        castled[side_index(name)] += 1
    aura = []
    for name in d.get("aura_ready") or []:
        h = parse_hex(str(name))
        if pieces.get(h, 0) & 7 != KIND_BY_LETTER["I"]:
            raise ValueError(f"aura_ready {name}: no infantryman there")
        aura.append(h)
    destroyed: list[list[int]] = [[], []]
    for side_name, letters in (d.get("destroyed") or {}).items():
        s = side_index(side_name)
        for ch in letters or []:
            k = KIND_BY_LETTER.get(str(ch).upper())
            if k is None or k == FEUDAL:
                raise ValueError(f"destroyed {side_name}: {ch!r} is not a non-feudal piece letter")
            destroyed[s].append(k)
    extra: dict[str, Any] = {
        "markers": markers,
        "pending": pending,
        "castled": castled,
        "aura_ready": aura,
        "destroyed": destroyed,
        "ply": d.get("ply", 0),
        "quiet": d.get("quiet", 0),
    }
    if d.get("counters") is not None:
        extra["counters"] = d["counters"]
    if d.get("victory"):
        extra["victory"] = d["victory"]
        extra["winner"] = None if d.get("winner") is None else side_index(d["winner"])
    return pieces, to_move, extra


def state_from_dict(d: dict[str, Any]) -> GameState:
    """Inverse of ``state_to_dict``."""
    rules = RulesConfig.from_dict(d.get("rules") or {})
    terrain = terrain_from_dict(d["terrain"]) if d.get("terrain") else None
    game = Game(rules=rules, seed=d.get("seed", 0), terrain=terrain)
    pieces, to_move, extra = position_fields(game, d)
    return game.state_from_pieces(pieces, to_move, **extra)


def record_dict(start: GameState, actions: list[str], final: GameState) -> dict[str, Any]:
    """A game record: rules, drawn terrain, seed, start position, actions and result."""
    return {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "rules": start.rules.to_dict(),
        "seed": start.game.seed,
        "terrain": start.game.terrain.to_dict(),
        "start": state_to_dict(start),
        "actions": actions,
        "result": {"winner": final.winner_name(), "victory": final.victory, "plies": final.ply},
    }


def record_of(state: GameState) -> dict[str, Any]:
    """The record of a state's game so far, from its history (replayed from the start)."""
    actions = list(state.history)
    replay = state.clone()
    for _ in actions:
        replay.undo()
    start = replay.clone()
    texts = []
    for a in actions:
        texts.append(replay.action_to_string(a))
        replay.apply(a)
    return record_dict(start, texts, state)


def save_record(state: GameState, path: str | Path) -> Path:
    """Write the game record of ``state`` as JSON."""
    path = Path(path)
    path.write_text(json.dumps(record_of(state), indent=1), encoding="utf-8")
    return path


def load_record(source: str | Path | dict[str, Any]) -> GameState:
    """Load and verify a record: every action is replayed; the final state is returned.

    ``source`` is a path (a regular file of at most ``MAX_RECORD_BYTES``) or the parsed dict.
    A corrupt, hand-edited or foreign file raises ``RecordError`` with the file, the field or
    ply, and the reason.
    """
    if isinstance(source, dict):
        return record_state(source, "record")
    where = str(source)
    try:
        text = read_text_capped(source, MAX_RECORD_BYTES)
    except UnsafeFileError as exc:
        raise RecordError(f"{where}: {exc}") from None
    return load_record_text(text, where)


def load_record_text(text: str | bytes, where: str = "record") -> GameState:
    """A record from JSON text (e.g. an uploaded file): size-capped, parsed, verified and replayed."""
    if len(text) > MAX_RECORD_BYTES:
        raise RecordError(f"{where}: {len(text):,} bytes; a record may have at most {MAX_RECORD_BYTES:,}")
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise RecordError(f"{where}: not UTF-8 text; is it a binary file?") from None
    try:
        data = json.loads(text)
    except RecursionError:
        raise RecordError(f"{where}: nested too deeply to be a game record") from None
    except json.JSONDecodeError as exc:
        raise RecordError(f"{where}: not a JSON game record ({exc.msg} at line {exc.lineno}, column {exc.colno})") from None
    except ValueError:  # e.g. a number of more than 4,300 digits
        raise RecordError(f"{where}: not a readable JSON game record") from None
    return record_state(data, where)


def record_state(data: Any, where: str = "record") -> GameState:
    """Check a parsed record field by field, build its start and replay its actions."""
    if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT:
        raise RecordError(f"{where}: not a TerraFeud game record (format must be {RECORD_FORMAT!r})")
    start = _check_record(data, where)
    try:
        state = state_from_dict(start)
    except (ValueError, KeyError, TypeError, AttributeError, IndexError) as exc:
        raise RecordError(f"{where}: bad start position: {_cut(str(exc), 160)}") from None
    a, b = state.feudal
    if a >= 0 and b >= 0 and b in ADJACENT[a]:
        raise RecordError(f"{where}: bad start position: feudals on {hex_name(a)} and {hex_name(b)} are adjacent "
                          "(W9: a feudal never ends adjacent to the enemy feudal)")
    for i, text in enumerate(data.get("actions") or [], start=1):
        try:
            state.apply(state.parse_action(text))
        except ValueError as exc:  # IllegalActionError and NotationError
            raise RecordError(f"{where}: ply {i}: {_cut(str(exc), 200)}") from None
    result = data.get("result") or {}
    got = {"winner": state.winner_name(), "victory": state.victory, "plies": state.ply}
    for k, v in result.items():
        if k in got and got[k] != v:
            raise RecordError(f"{where}: the recorded result {k}={v!r} differs from the replay's {got[k]!r}")
    return state


def _kind(value: Any) -> str:
    """A value's type in the words of a message (never the value itself)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "text"
    return "a list" if isinstance(value, list) else "a mapping" if isinstance(value, dict) else type(value).__name__


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _need(value: Any, ok: bool, where: str, field: str, want: str) -> None:
    if not ok:
        raise RecordError(f"{where}: {field} must be {want}, not {_kind(value)}")


def _text(value: Any, where: str, field: str, optional: bool = False) -> None:
    if optional and value is None:
        return
    _need(value, isinstance(value, str), where, field, "text" + (" or null" if optional else ""))
    if len(value) > _MAX_TEXT:
        raise RecordError(f"{where}: {field} is {len(value)} characters long; at most {_MAX_TEXT} are allowed")


def _whole(value: Any, where: str, field: str, low: int, high: int) -> None:
    _need(value, isinstance(value, int) and not isinstance(value, bool), where, field, "a whole number")
    if not low <= value <= high:
        raise RecordError(f"{where}: {field} must be between {low} and {high}")


def _text_map(value: Any, where: str, field: str, values_optional: bool = False) -> None:
    if value is None:
        return
    _need(value, isinstance(value, dict), where, field, "a mapping")
    for k, v in value.items():
        _text(k, where, f"{field} key")
        _text(v, where, f"{field}.{k}", optional=values_optional)


def _text_list(value: Any, where: str, field: str) -> None:
    if value is None:
        return
    _need(value, isinstance(value, list), where, field, "a list")
    for i, v in enumerate(value):
        _text(v, where, f"{field}[{i}]")


def _check_rules(value: Any, where: str, field: str) -> dict[str, Any]:
    _need(value, isinstance(value, dict), where, field, "a mapping of rule toggles")
    try:
        return RulesConfig.from_dict(value).to_dict()
    except (ValueError, TypeError) as exc:
        raise RecordError(f"{where}: {field}: {_cut(str(exc), 200)}") from None


def _check_terrain(value: Any, where: str, field: str) -> None:
    _need(value, isinstance(value, dict), where, field, "a mapping with hills and swamps")
    for key in ("hills", "swamps"):
        _text_map(value.get(key), where, f"{field}.{key}", values_optional=True)


def _check_record(data: dict[str, Any], where: str) -> dict[str, Any]:
    """Types and agreement of every field a record may hold; returns the start dict to build."""
    version = data.get("version", RECORD_VERSION)
    _need(version, isinstance(version, int) and not isinstance(version, bool), where, "version", "a whole number")
    if version != RECORD_VERSION:
        raise RecordError(f"{where}: record version {version} is not one this workbench reads ({RECORD_VERSION})")
    start = data.get("start")
    if start is None:
        start = {}
    _need(start, isinstance(start, dict), where, "start", "a mapping (the start position)")
    merged = dict(start)
    for key in ("rules", "seed", "terrain"):  # the top level wins, but must not contradict start
        if key in data and data[key] is not None:
            merged[key] = data[key]
    if merged.get("rules") is not None:
        rules = _check_rules(merged["rules"], where, "rules")
        if start.get("rules") is not None and data.get("rules") is not None:
            own = _check_rules(start["rules"], where, "start.rules")
            diff = [k for k in rules if rules[k] != own.get(k)]
            if diff:
                raise RecordError(f"{where}: rules and start.rules disagree on {', '.join(diff)} "
                                  f"({', '.join(f'{rules[k]!r} against {own.get(k)!r}' for k in diff)})")
    for holder, prefix in ((data, ""), (start, "start.")):
        seed = holder.get("seed")
        if seed is not None:
            _need(seed, isinstance(seed, int) and not isinstance(seed, bool), where, prefix + "seed", "a whole number or null")
            if abs(seed) > 2**63 - 1:
                raise RecordError(f"{where}: {prefix}seed must be at most 2^63-1")
        if holder.get("terrain") is not None:
            _check_terrain(holder["terrain"], where, prefix + "terrain")
    for key in ("seed", "terrain"):
        if start.get(key) is not None and data.get(key) is not None and start[key] != data[key]:
            raise RecordError(f"{where}: {key} and start.{key} disagree")
    _text_map(start.get("pieces"), where, "start.pieces")
    _text_map(start.get("markers"), where, "start.markers")
    for key in ("ultimatum_pending", "castled", "aura_ready"):
        _text_list(start.get(key), where, f"start.{key}")
    destroyed = start.get("destroyed")
    if destroyed is not None:
        _need(destroyed, isinstance(destroyed, dict), where, "start.destroyed", "a mapping of side to piece letters")
        for side, letters in destroyed.items():
            _text(side, where, "start.destroyed key")
            _text_list(letters, where, f"start.destroyed.{side}")
    for key in ("to_move", "winner", "victory"):
        _text(start.get(key), where, f"start.{key}", optional=True)
    for key in ("ply", "quiet"):
        if start.get(key) is not None:
            _whole(start[key], where, f"start.{key}", 0, _MAX_COUNT)
    actions = data.get("actions")
    if actions is not None:
        _need(actions, isinstance(actions, list), where, "actions", "a list of actions in notation")
        if len(actions) > MAX_RECORD_ACTIONS:
            raise RecordError(f"{where}: {len(actions):,} actions; a record may hold at most {MAX_RECORD_ACTIONS:,}")
        for i, text in enumerate(actions, start=1):
            _text(text, where, f"actions (ply {i})")
    result = data.get("result")
    if result is not None:
        _need(result, isinstance(result, dict), where, "result", "a mapping (winner, victory, plies)")
        _text(result.get("winner"), where, "result.winner", optional=True)
        _text(result.get("victory"), where, "result.victory", optional=True)
        if result.get("plies") is not None:
            _whole(result["plies"], where, "result.plies", 0, _MAX_COUNT)
    return merged
