"""Positions: the scenario ``position`` mapping <-> a ``CursedState`` (SCENARIO-FORMAT.md, C38, C39, C47).

``build_state`` is the one reader: scenario files, ``state_from_dict`` and records all come through it,
so every validation rule of C47 is written once. ``position_of`` is the complete writer (every key the
format lists), so any reachable state written and read back is the same state (C39). Errors are
``PositionError(key, item, reason)``: the scenario layer turns the key and item into a file line.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from workbench.core.rulespec import Rules, RulesError
from workbench.core.safefile import UnsafeFileError, read_text_capped

from .deck import CODE_NAMES, LETTERS, MOUNTAIN, PLAIN, VOID, deal, parse_terrain
from .geometry import HEX_NAMES, NEIGHBOURS, NUM_HEXES, SIZE, hex_of, parse_hex, row
from .rules import DWARVES, FACTIONS, KINDS, SIDES, SPEC, factions_of
from .state import ACTIVATED, CAMP_CASTLE, CAMP_FLAG, CAMP_ROWS, FRESH, NO_CAMP, CursedState

POSITION_KEYS = ("phase", "to_move", "ap", "turn", "factions", "camps", "castle_hp", "tiles_fill", "tiles", "units",
                 "hp", "activated", "fresh", "tiles_placed", "decks", "winner", "victory")
VICTORIES = ("castle", "elimination", "draw")
MAX_COUNT = 10**6
MAX_SETUP_BYTES = 256 * 1024  # a setup=PATH file: a position is a few kB
DATA_DIR = Path(__file__).parent / "data"  # where files named inside records resolve
_DATA = Path(__file__).parent / "data" / "classic.json"


class PositionError(ValueError):
    """A position that breaks a rule: ``key`` (position key), ``item`` (hex or side inside it) and the reason."""

    def __init__(self, key: str | None, item: Any, reason: str) -> None:
        self.key = key
        self.item = item
        super().__init__(f"position {key}: {reason}" if key else f"position: {reason}")


def classic() -> dict[str, Any]:
    """The classic setup from ``data/classic.json`` (section 2)."""
    with _DATA.open(encoding="utf-8") as fh:
        return json.load(fh)


def _side(value: Any, key: str) -> int:
    if isinstance(value, str) and value.strip().lower() in SIDES:
        return SIDES.index(value.strip().lower())
    raise PositionError(key, None, f"must be p1 or p2, got {_short(value)}")


def _short(value: Any) -> str:
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= 30 else text[:27] + "..."


def _int(value: Any, key: str, low: int, high: int, item: Any = None, what: str | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise PositionError(key, item, f"{what or key} must be a whole number, got {_short(value)}")
    if not low <= value <= high:
        raise PositionError(key, item, f"{what or key}={value} is outside {low}..{high}")
    return value


def _hex(value: Any, key: str, item: Any = None) -> int:
    try:
        return parse_hex(value if isinstance(value, str) else str(value))
    except ValueError as exc:
        raise PositionError(key, item if item is not None else value, str(exc)) from None


def _mapping(pos: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    value = pos[key]
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise PositionError(key, None, "must be a mapping")
    return value


def _hex_list(pos: Mapping[str, Any], key: str) -> list[int]:
    value = pos.get(key) or []
    if not isinstance(value, list):
        raise PositionError(key, None, "must be a list of hexes")
    out = []
    for i, v in enumerate(value):
        h = _hex(v, key, i)
        if h in out:
            raise PositionError(key, i, f"{HEX_NAMES[h]} is listed twice")
        out.append(h)
    return out


def _deck(value: Any, key: str, side: str) -> list[int]:
    if value is None:
        return []
    if isinstance(value, str):
        items: list[Any] = list(value.replace(",", "").replace(" ", ""))
    elif isinstance(value, list):
        items = value
    else:
        raise PositionError(key, side, f"{side}'s deck must be a list of terrains, top first")
    if len(items) > 64 * 32:
        raise PositionError(key, side, f"{side}'s deck holds {len(items)} tiles; at most 2048")
    out = []
    for v in items:
        try:
            out.append(parse_terrain(v))
        except ValueError as exc:
            raise PositionError(key, side, f"{side}: {exc}") from None
    return out


def build_state(rules: Rules, pos: Mapping[str, Any] | None, seed: int | None) -> CursedState:
    """A state from a scenario position (None: the game's start under ``rules`` and ``seed``)."""
    st = CursedState(rules, seed or 0)
    st.factions = list(factions_of(rules))
    if pos is None:
        _start(st, seed)
        return st
    if not isinstance(pos, Mapping):
        raise PositionError(None, None, "must be a mapping (to_move, ap, units, ...)")
    for key in pos:
        if key not in POSITION_KEYS:
            raise PositionError(str(key), None, f"unknown position key {_short(key)!s}; allowed: {', '.join(POSITION_KEYS)}")
    phase = pos.get("phase", "play") or "play"
    if phase not in ("play", "setup"):
        raise PositionError("phase", None, f"must be play or setup, got {_short(phase)}")
    st.phase = phase
    if "factions" in pos and pos["factions"] is not None:
        try:
            pair = SPEC["factions"].parse(pos["factions"])
        except RulesError as exc:
            raise PositionError("factions", None, str(exc).replace("parameter factions: ", "")) from None
        a, b = pair.split("/")
        st.factions = [FACTIONS.index(a), FACTIONS.index(b)]
    _camps(st, pos)
    if phase == "setup":
        _setup_position(st, pos)
    else:
        _play_position(st, pos)
    _units(st, pos)
    _decks(st, pos, seed)
    _finish(st, pos)
    return st


def _start(st: CursedState, seed: int | None) -> None:
    rules = st.rules
    if rules["setup"] != "classic":
        _setup_file(st, rules["setup"], seed)
        return
    st.decks = [list(d) for d in deal(rules, seed or 0)]
    if rules["setup_phase"]:
        st.phase = "setup"
        st.turn_no = 0
        st.ap = 0
        st.to_move = 0
        return
    data = classic()
    for side, name in enumerate(SIDES):
        camp = data["camps"][name]
        flags = tuple(parse_hex(camp["flags"][k]) for k in KINDS)
        st.set_camp(side, parse_hex(camp["castle"]), (flags[0], flags[1], flags[2], flags[3]))
        for letter, hx in data["starting_units"][name][: rules["starting_units"]]:
            st.put_unit(parse_hex(hx), side, KINDS.index(letter))
    st.to_move = SIDES.index(rules["first_player"])
    st.turn_no = 1
    st.ap = rules["ap_first_turn"]


def _setup_file(st: CursedState, path: str, seed: int | None) -> None:
    """``setup=PATH``: the position of a scenario file as ``dump_scenario`` writes it (JSON values) or JSON."""
    try:  # a regular file of bounded size, never a FIFO or device; the error never shows its content
        text = read_text_capped(path, MAX_SETUP_BYTES)
    except UnsafeFileError as exc:
        raise RulesError(f"parameter setup={path[:60]}: {exc}") from None
    pos = read_dumped_position(text)
    if pos is None:
        raise RulesError(f"parameter setup={path[:60]}: no position in the JSON form dump_scenario writes "
                         "(load a hand-written YAML scenario with check or the board)")
    try:
        built = build_state(st.rules.replace(setup="classic"), pos, seed)
    except PositionError as exc:
        raise RulesError(f"parameter setup={path[:60]}: {exc}") from None
    built.rules = st.rules
    st.__dict__.update(built.__dict__)


def read_dumped_position(text: str) -> dict[str, Any] | None:
    """The ``position`` of a JSON document or of a file written by ``dump_scenario`` (``  key: <JSON>`` lines
    under ``position:``); None when there is none. The game package has no YAML reader by design."""
    try:
        data = json.loads(text)
        pos = data.get("position") if isinstance(data, dict) else None
        return pos if isinstance(pos, dict) else None
    except json.JSONDecodeError:
        pass
    pos: dict[str, Any] = {}
    inside = False
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if not line.startswith(" "):
            inside = line.rstrip() == "position:"
            continue
        if inside:
            key, sep, value = line.strip().partition(": ")
            if not sep:
                return None
            try:
                pos[key] = json.loads(value)
            except json.JSONDecodeError:
                return None
    return pos or None


def _camps(st: CursedState, pos: Mapping[str, Any]) -> None:
    node = _mapping(pos, "camps") if "camps" in pos else {}
    for name in node:
        if name not in SIDES:
            raise PositionError("camps", name, f"camps name p1 and p2, not {_short(name)}")
    if st.phase == "setup" and node.get("p2") is not None and node.get("p1") is None:
        raise PositionError("camps", "p2", "p1 places its camp first in the setup phase (C44)")
    data = classic()["camps"] if st.phase == "play" else {}
    used: set[int] = set()
    for side, name in enumerate(SIDES):
        camp = node.get(name, data.get(name))
        if camp is None:
            if st.phase == "play":
                raise PositionError("camps", name, f"{name}'s camp is needed in the play phase")
            continue
        if not isinstance(camp, Mapping) or set(camp) - {"castle", "flags"}:
            raise PositionError("camps", name, f"{name}'s camp is {{castle: H, flags: {{C: H, S: H, A: H, R: H}}}}")
        if "castle" not in camp or not isinstance(camp.get("flags"), Mapping):
            raise PositionError("camps", name, f"{name}'s camp needs castle and flags {{C, S, A, R}}")
        castle = _hex(camp["castle"], "camps", name)
        flags_node = camp["flags"]
        letters = {str(k).upper(): v for k, v in flags_node.items()}
        if set(letters) != set(KINDS) or len(flags_node) != 4:
            raise PositionError("camps", name, f"{name}'s flags name exactly C, S, A and R")
        flags = tuple(_hex(letters[k], "camps", name) for k in KINDS)
        hexes = [castle, *flags]
        r = CAMP_ROWS[side]
        for h in hexes:
            if row(h) != r:
                raise PositionError("camps", name, f"{name}'s camp hex {HEX_NAMES[h]} is outside its row {r} (section 2)")
        if len(set(hexes)) != 5:
            raise PositionError("camps", name, f"{name}'s castle and four flags must be five different hexes (C47)")
        used.update(hexes)
        st.set_camp(side, castle, (flags[0], flags[1], flags[2], flags[3]))


def _setup_position(st: CursedState, pos: Mapping[str, Any]) -> None:
    for key in ("tiles", "tiles_fill", "hp", "activated", "fresh", "winner", "victory"):
        if pos.get(key) not in (None, [], {}):
            raise PositionError(key, None, "is not allowed in the setup phase (C39, C44)")
    for key in ("turn", "ap", "tiles_placed"):
        if key in pos and pos[key] not in (None, 0):
            raise PositionError(key, None, f"is 0 in the setup phase (C44), got {_short(pos[key])}")
    hp_node = pos.get("castle_hp") or {}
    if not isinstance(hp_node, Mapping) or any(v != st.rules["castle_hp"] for v in hp_node.values()):
        raise PositionError("castle_hp", None, f"castles are at castle_hp={st.rules['castle_hp']} in the setup phase")
    placed = sum(1 for c in st.camps if c is not None)
    if placed == 2:
        raise PositionError("camps", None, "both camps are placed, so the setup phase is over; use phase: play")
    want = placed  # p1 moves with no camp placed, p2 after p1's camp
    if pos.get("to_move") is not None and _side(pos["to_move"], "to_move") != want:
        raise PositionError("to_move", None, f"in the setup phase {SIDES[want]} is to move (C44)")
    st.to_move = want
    st.turn_no = 0
    st.ap = 0
    st.tiles_placed = 0


def _play_position(st: CursedState, pos: Mapping[str, Any]) -> None:
    rules = st.rules
    first = SIDES.index(rules["first_player"])
    st.to_move = _side(pos["to_move"], "to_move") if pos.get("to_move") is not None else first
    st.turn_no = _int(pos["turn"], "turn", 1, MAX_COUNT) if pos.get("turn") is not None else 1
    if pos.get("ap") is not None:
        st.ap = _int(pos["ap"], "ap", 0, MAX_COUNT)
    else:
        st.ap = rules["ap_first_turn"] if st.turn_no == 1 and st.to_move == first else rules["ap_per_turn"]
    if pos.get("tiles_placed") is not None:
        st.tiles_placed = _int(pos["tiles_placed"], "tiles_placed", 0, NUM_HEXES)
        if rules["tiles_per_turn"] and st.tiles_placed > rules["tiles_per_turn"]:
            raise PositionError("tiles_placed", None, f"{st.tiles_placed} is more than tiles_per_turn="
                                f"{rules['tiles_per_turn']} (C47)")
    # tiles: the fill first, then the listed hexes
    fill = pos.get("tiles_fill")
    if fill is not None:
        try:
            code = parse_terrain(fill, allow_void=True)
        except ValueError as exc:
            raise PositionError("tiles_fill", None, str(exc)) from None
        if code:
            for h in range(NUM_HEXES):
                if st.camp_kind[h] == NO_CAMP:
                    st.put_tile(h, code)
    if pos.get("tiles") is not None:
        node = _mapping(pos, "tiles")
        for name, value in node.items():
            h = _hex(name, "tiles", name)
            try:
                code = parse_terrain(value, allow_void=True)
            except ValueError as exc:
                raise PositionError("tiles", name, f"{HEX_NAMES[h]}: {exc}") from None
            ck = st.camp_kind[h]
            if code and ck in (CAMP_CASTLE, CAMP_FLAG):
                raise PositionError("tiles", name, f"{HEX_NAMES[h]} is a {'castle' if ck == CAMP_CASTLE else 'flag'}; "
                                    "no tile may lie on it (C47)")
            if code and ck != NO_CAMP and not rules["tiles_on_camp"]:
                raise PositionError("tiles", name, f"{HEX_NAMES[h]} is a camp hex; tiles lie there only under "
                                    "tiles_on_camp (C3, C47)")
            st.put_tile(h, code)
    for r in range(1, SIZE + 1):
        hexes = [hex_of(q, r) for q in range(SIZE)]
        count = sum(1 for h in hexes if st.tile[h] == MOUNTAIN)
        if count > rules["max_mountains_per_row"]:
            raise PositionError("tiles", None, f"row {r} holds {count} mountains; max_mountains_per_row="
                                f"{rules['max_mountains_per_row']} (section 7 rule 4)")
        for h in hexes:
            if st.tile[h] == MOUNTAIN and any(st.tile[n] == MOUNTAIN for n in NEIGHBOURS[h]):
                nb = next(n for n in NEIGHBOURS[h] if st.tile[n] == MOUNTAIN)
                raise PositionError("tiles", HEX_NAMES[h] if HEX_NAMES[h] in (pos.get("tiles") or {}) else None,
                                    f"mountains {HEX_NAMES[h]} and {HEX_NAMES[nb]} are neighbours (section 7 rule 4)")
    hp_node = _mapping(pos, "castle_hp") if pos.get("castle_hp") is not None else {}
    for name, value in hp_node.items():
        if name not in SIDES:
            raise PositionError("castle_hp", name, f"castle_hp names p1 and p2, not {_short(name)}")
        st.castle_hp[SIDES.index(name)] = _int(value, "castle_hp", 0, rules["castle_hp"], name, f"castle_hp {name}")


def _units(st: CursedState, pos: Mapping[str, Any]) -> None:
    node = _mapping(pos, "units") if pos.get("units") is not None else {}
    for name, letter in node.items():
        h = _hex(name, "units", name)
        if letter is None:
            continue
        if not isinstance(letter, str) or len(letter) != 1 or letter.upper() not in KINDS:
            raise PositionError("units", name, f"{HEX_NAMES[h]}: {_short(letter)} is not a unit letter "
                                "(S A C R for p1, s a c r for p2)")
        side = 0 if letter.isupper() else 1
        if st.owner[h] >= 0:
            raise PositionError("units", name, f"{HEX_NAMES[h]} is named twice")
        if st.phase == "setup":
            if st.camps[side] is None or row(h) != CAMP_ROWS[side]:
                raise PositionError("units", name, f"{HEX_NAMES[h]}: in the setup phase units stand only in a placed "
                                    f"camp's row ({SIDES[side]}'s camp row {CAMP_ROWS[side]})")
        ck = st.camp_kind[h]
        if ck == CAMP_CASTLE:
            raise PositionError("units", name, f"{HEX_NAMES[h]} is a castle; no unit stands on it (C12, C26)")
        ter = st.terrain[h]
        if ter == VOID and st.phase == "play":
            raise PositionError("units", name, f"{HEX_NAMES[h]} is void (untiled, untiled=void, C2); add tiles or "
                                "tiles_fill")
        if ter == MOUNTAIN and st.factions[side] != DWARVES:
            raise PositionError("units", name, f"{HEX_NAMES[h]} is a mountain and {SIDES[side]}'s "
                                f"{FACTIONS[st.factions[side]]} are not dwarves (section 5)")
        st.put_unit(h, side, KINDS.index(letter.upper()))
    hp_node = _mapping(pos, "hp") if pos.get("hp") is not None else {}
    for name, value in hp_node.items():
        h = _hex(name, "hp", name)
        if st.owner[h] < 0:
            raise PositionError("hp", name, f"{HEX_NAMES[h]} has no unit")
        full = st.full_hp(st.owner[h], st.kind[h])
        st.hp[h] = _int(value, "hp", 1, full, name, f"hp of {HEX_NAMES[h]} (full {full})")
    if st.phase == "setup":
        return
    activated = _hex_list(pos, "activated")
    fresh = _hex_list(pos, "fresh")
    for key, hexes, mark in (("activated", activated, ACTIVATED), ("fresh", fresh, FRESH)):
        for i, h in enumerate(hexes):
            if st.owner[h] != st.to_move:
                raise PositionError(key, i, f"{HEX_NAMES[h]} holds no unit of the side to move {SIDES[st.to_move]} (C47)")
            if h in activated and h in fresh:
                raise PositionError(key, i, f"{HEX_NAMES[h]} cannot be both activated and fresh (C47)")
            if mark == FRESH and st.flag_of(st.to_move, st.kind[h]) != h:
                raise PositionError(key, i, f"fresh unit on {HEX_NAMES[h]} is not on {SIDES[st.to_move]}'s "
                                    f"{KINDS[st.kind[h]]} flag (C47)")
            st.mark[h] = mark


def _decks(st: CursedState, pos: Mapping[str, Any], seed: int | None) -> None:
    if pos.get("decks") is not None:
        node = _mapping(pos, "decks")
        for name in node:
            if name not in SIDES:
                raise PositionError("decks", name, f"decks name p1 and p2, not {_short(name)}")
        st.decks = [_deck(node.get(name), "decks", name) for name in SIDES]
    elif seed is not None:
        st.decks = [list(d) for d in deal(st.rules, seed)]
    else:
        st.decks = [[], []]


def _finish(st: CursedState, pos: Mapping[str, Any]) -> None:
    winner = pos.get("winner")
    victory = pos.get("victory")
    if victory is not None and victory not in VICTORIES:
        raise PositionError("victory", None, f"must be castle, elimination, draw or null, got {_short(victory)}")
    w = None if winner is None else _side(winner, "winner")
    if w is not None and victory is None:
        raise PositionError("winner", None, "a finished game names its victory (castle or elimination)")
    if victory in ("castle", "elimination") and w is None:
        raise PositionError("victory", None, f"victory {victory} needs a winner")
    if victory == "draw" and w is not None:
        raise PositionError("winner", None, "a drawn game has winner null")
    for side in (0, 1):
        if st.castle_hp[side] == 0 and not (victory == "castle" and w is not None and side == 1 - w):
            raise PositionError("castle_hp", SIDES[side], f"{SIDES[side]}'s castle has 0 HP; a running castle has "
                                f"1 to castle_hp HP, and 0 only for the loser of a castle victory (C24, C47)")
    if victory == "castle" and st.castle_hp[1 - w] != 0:  # type: ignore[operator]
        raise PositionError("castle_hp", None, "a castle victory needs the loser's castle_hp 0 (C39)")
    if victory == "elimination" and st.unit_count[1 - w]:  # type: ignore[operator]
        raise PositionError("victory", None, f"an elimination victory needs the loser {SIDES[1 - w]} without units (C39)")  # type: ignore[operator]
    st.winner_side = w
    st.victory_kind = victory


# ------------------------------------------------------------------------ writing
def position_of(st: CursedState) -> dict[str, Any]:
    """Every position key of the state, so reading it back gives the same state (C39)."""
    out: dict[str, Any] = {}
    if st.phase == "setup":
        out["phase"] = "setup"
    out["to_move"] = SIDES[st.to_move]
    out["ap"] = st.ap
    out["turn"] = st.turn_no
    out["factions"] = {SIDES[s]: FACTIONS[st.factions[s]] for s in (0, 1)}
    camps: dict[str, Any] = {}
    for side, name in enumerate(SIDES):
        camp = st.camps[side]
        camps[name] = None if camp is None else {
            "castle": HEX_NAMES[camp[0]],
            "flags": {k: HEX_NAMES[camp[1][KINDS.index(k)]] for k in "CSAR"},
        }
    out["camps"] = camps
    if st.phase == "play":
        out["castle_hp"] = {SIDES[s]: st.castle_hp[s] for s in (0, 1)}
        out["tiles"] = {HEX_NAMES[h]: CODE_NAMES[st.tile[h]] for h in range(NUM_HEXES) if st.tile[h]}
    out["units"] = {HEX_NAMES[h]: (KINDS[st.kind[h]] if st.owner[h] == 0 else KINDS[st.kind[h]].lower())
                    for h in range(NUM_HEXES) if st.owner[h] >= 0}
    if st.phase == "play":
        out["hp"] = {HEX_NAMES[h]: st.hp[h] for h in range(NUM_HEXES) if st.owner[h] >= 0}
        out["activated"] = [HEX_NAMES[h] for h in range(NUM_HEXES) if st.mark[h] == ACTIVATED]
        out["fresh"] = [HEX_NAMES[h] for h in range(NUM_HEXES) if st.mark[h] == FRESH]
        out["tiles_placed"] = st.tiles_placed
    out["decks"] = {SIDES[s]: [CODE_NAMES[c] for c in st.decks[s]] for s in (0, 1)}
    if st.victory_kind is not None:
        out["winner"] = None if st.winner_side is None else SIDES[st.winner_side]
        out["victory"] = st.victory_kind
    return out


def state_to_dict(st: CursedState) -> dict[str, Any]:
    """``position_of`` plus the rules, the seed and the move count (``GAME.state_from_dict`` reads it)."""
    return {"game": "cursed-lands", "rules": st.rules.to_dict(), "seed": st.seed, "moves": st.moves_played,
            "position": position_of(st)}


def state_from_dict(data: Mapping[str, Any]) -> CursedState:
    """Inverse of ``state_to_dict``; ``ValueError`` naming the field."""
    if not isinstance(data, Mapping):
        raise ValueError("state data must be a mapping with rules and position")
    for key in ("rules", "position"):
        if key not in data:
            raise ValueError(f"state data: field {key} is missing")
    try:
        rules = SPEC.make(data["rules"])
    except RulesError as exc:
        raise ValueError(f"state data: field rules: {exc}") from None
    seed = data.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError("state data: field seed must be a whole number")
    st = build_state(rules, data["position"], seed)
    st.seed = seed
    moves = data.get("moves", 0)
    if isinstance(moves, bool) or not isinstance(moves, int) or moves < 0:
        raise ValueError("state data: field moves must be a whole number >= 0")
    st.moves_played = moves
    return st


def deck_names(codes: list[int]) -> list[str]:
    """Terrain names of a deck, top first."""
    return [CODE_NAMES[c] for c in codes]


def deck_letters(codes: list[int]) -> str:
    """Letters of a deck, top first (``prfhm``)."""
    return "".join(LETTERS[c - PLAIN] for c in codes)
