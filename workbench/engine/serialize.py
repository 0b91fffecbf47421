"""Positions and game records as JSON-ready dicts, in the scenario file's vocabulary.

``state_to_dict``/``state_from_dict`` round-trip a position exactly (terrain hexes included, so a
rolled game restores the hexes it drew). A record adds the start, the actions in notation and the
result; loading replays and verifies every action, refusing a corrupt record with ply and reason.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .board import Terrain
from .game import Game
from .geometry import hex_name, parse_hex
from .pieces import ARCHER, FEUDAL, KIND_BY_LETTER, SIDE_NAMES, letter, parse_letter, side_index
from .rules import RulesConfig
from .state import GameState, IllegalActionError
from .telemetry import counters_dict

RECORD_FORMAT = "terrafeud-record"
RECORD_VERSION = 1


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

    A corrupt or hand-edited record raises ``RecordError`` with the ply and the reason.
    """
    where = "record"
    if isinstance(source, dict):
        data = source
    else:
        where = str(source)
        try:
            data = json.loads(Path(source).read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise RecordError(f"{where}: not a readable JSON game record: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT:
        raise RecordError(f"{where}: not a TerraFeud game record (format must be {RECORD_FORMAT!r})")
    try:
        start = data.get("start") or {}
        start = dict(start, rules=data.get("rules", start.get("rules")), seed=data.get("seed"), terrain=data.get("terrain"))
        state = state_from_dict(start)
    except (ValueError, KeyError, TypeError) as exc:
        raise RecordError(f"{where}: bad start position: {exc}") from None
    for i, text in enumerate(data.get("actions") or [], start=1):
        try:
            state.apply(state.parse_action(str(text)))
        except IllegalActionError as exc:
            raise RecordError(f"{where}: ply {i}: {exc}") from None
    result = data.get("result") or {}
    if result:
        got = {"winner": state.winner_name(), "victory": state.victory, "plies": state.ply}
        for k, v in result.items():
            if k in got and got[k] != v:
                raise RecordError(f"{where}: the recorded result {k}={v!r} differs from the replay's {got[k]!r}")
    return state
