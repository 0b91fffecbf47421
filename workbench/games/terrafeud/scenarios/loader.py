"""TerraFeud's scenario dialect (``SCENARIO-FORMAT.md``): a parsed file into a ``Scenario``, and dump positions.

A scenario is a position plus expectations; the same file is a regression test, a picture of a
disputed ruling and a designer's probe for rule variants (``Scenario.run(overrides)``). Loading is
strict, because the format is a public contract: an unknown key, hex, piece letter or toggle, two
pieces on one hex, a position without a feudal or unreadable action notation each raise
``ScenarioError("file: line N: reason")``. Whether actions are *legal* is the engine's business and
is judged when the checks run, not when the file loads.

Files are untrusted: the generic ``workbench.scenarios.loader`` reads them (regular files up to
``MAX_SCENARIO_BYTES``, bounded YAML work, see ``yamlmarks``) and hands the mapping here through
``GAME.scenario``; values from the file are echoed only cut short, and anything unexpected still
becomes one ``ScenarioError`` for that file, so the files after it are checked.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import yaml

from workbench.core.safefile import UnsafeFileError, read_text_capped
from workbench.core.scenario import ScenarioError, moved_path, read_scenario_data, scenario_status  # noqa: F401
from workbench.core.yamlmarks import LineDict, LineList, line_of, short
from workbench.games.terrafeud.engine import Game, GameState, NotationError, RulesConfig, RulesError, read_action
from workbench.games.terrafeud.engine.geometry import ADJACENT, hex_name, parse_hex
from workbench.games.terrafeud.engine.pieces import KNIGHT, SIDE_NAMES, letter, parse_letter, side_index
from workbench.games.terrafeud.engine.serialize import position_fields

from .checks import ERROR_STATUS, Check, CheckResult, play_actions, run_check
from .variant import rules_under

TOP_KEYS = ("game", "id", "title", "ruling", "source", "description", "rules", "seed", "position", "checks")
# ply and quiet extend SCENARIO-FORMAT compatibly: a position reached in play keeps its draw_after
# count (quiet plies) and its ply number through dump_scenario and back.
POSITION_KEYS = ("to_move", "pieces", "markers", "ultimatum_pending", "castled", "aura_ready", "destroyed", "ply", "quiet")
_COUNT_MAX = 10**9
CHECK_KEYS = ("note", "play", "legal", "illegal", "destinations", "pieces", "markers", "to_move", "winner", "victory")
VICTORIES = ("destroyed", "checkmate", "castle", "draw")
_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
MAX_SEED = 2**63 - 1


@dataclass
class Scenario:
    """A loaded scenario. ``source`` is the file's ``source:`` text; ``path`` the file it came from."""

    id: str
    title: str
    rules: RulesConfig
    checks: list[Check]
    ruling: int | None = None
    source: str | None = None
    description: str | None = None
    seed: int | None = 0
    path: Path | None = None
    where: str = "<string>"
    position: LineDict | None = field(default=None, repr=False)
    # check --engine native runs the checks on the Rust core (``NativeState``: its legal actions, moves and
    # position; the notation and the reasons for an illegal action come from the Python engine)
    engines: ClassVar[tuple[str, ...]] = ("python", "native")
    rules_line: int | None = None

    def game(self, overrides: dict[str, Any] | None = None) -> Game:
        """The ``Game`` of this scenario, with rule toggles overridden (``{"castling": "sacrifice"}``)."""
        rules = self.rules
        if overrides:
            try:
                rules = rules_under(rules, overrides)  # the same query as the board's rule-change diff
            except RulesError as exc:
                raise ScenarioError(self.where, None, f"--rules: {exc}") from None
        try:
            return Game(rules=rules, seed=self.seed)
        except RulesError as exc:
            raise ScenarioError(self.where, self.rules_line, str(exc)) from None

    def initial_state(self, overrides: dict[str, Any] | None = None) -> GameState:
        """A fresh state of the position (the classic start when the file has no ``position``)."""
        game = self.game(overrides)
        if self.position is None:
            try:  # rules: {start: PATH} and no position: the start file's position, which must load
                return game.new_initial_state()
            except RulesError as exc:
                raise ScenarioError(self.where, self.rules_line, str(exc)) from None
        return build_position(game, self.position, self.where)

    def run(self, overrides: dict[str, Any] | None = None, engine: str = "python") -> list[CheckResult]:
        """Run every check from a fresh copy of the position; never raises for bad data.

        A position that cannot be built under ``overrides`` gives one error result with index 0, and so
        does one the native core cannot hold when ``engine="native"``.
        """
        try:
            start = self.initial_state(overrides)
        except ScenarioError as exc:
            return [CheckResult(0, exc.line or 0, ERROR_STATUS, _line_reason(exc))]
        except Exception as exc:  # noqa: BLE001 - an engine failure on this position must not stop the other files
            return [CheckResult(0, 0, ERROR_STATUS, f"the engine raised {type(exc).__name__} building the position")]
        fresh: Any = start.clone
        if engine == "native":
            from workbench.games.terrafeud.native import NativeState, supports, unsupported_reason

            if not supports(start):
                return [CheckResult(0, 0, ERROR_STATUS, f"--engine native: {unsupported_reason(start)}")]
            fresh = lambda: NativeState.from_state(start.clone())  # noqa: E731 - one fresh native copy per check
        results = []
        for check in self.checks:
            try:
                results.append(run_check(check, fresh()))
            except Exception as exc:  # an engine failure must not stop the other checks or files
                results.append(
                    CheckResult(check.index, check.line, ERROR_STATUS,
                                f"line {check.line}: {check.describe()}: the engine raised {type(exc).__name__}: {exc}")
                )
        return results

    def play_states(self, overrides: dict[str, Any] | None = None) -> list[GameState]:
        """States before and after each action of the first check with ``play`` (for notebooks).

        Stops at the first illegal action; with no such check it is just ``[initial_state()]``.
        """
        start = self.initial_state(overrides)
        for check in self.checks:
            if check.play:
                states, _ = play_actions(check, start)
                return states
        return [start]


def _line_reason(exc: ScenarioError) -> str:
    return f"line {exc.line}: {exc.reason}" if exc.line else exc.reason


# --------------------------------------------------------------------------- loading
MAX_FILE_BYTES = 256 * 1024  # as the tools' loader: the largest rulebook scenario is about 2 KB


def load_file(path: str | Path) -> Scenario:
    """One TerraFeud scenario file read by the game itself (its pictures, ``start=``): safely (a regular file of
    at most ``MAX_FILE_BYTES``, bounded YAML), old folders accepted (``scenarios/moved.json``)."""
    found = moved_path(path)
    try:
        text = read_text_capped(found, MAX_FILE_BYTES)
    except UnsafeFileError as exc:
        raise ScenarioError(str(path), None, f"cannot read the file: {exc}") from None
    scenario = scenario_from_data(read_scenario_data(text, str(path)), str(path))
    scenario.path = found
    return scenario


def scenario_from_data(data: LineDict, where: str) -> Scenario:
    """TerraFeud's dialect of a parsed scenario file (``GameDef.scenario``): keys, rules, position, checks.

    The generic ``workbench.scenarios.loader`` has read the file safely and picked this game from
    ``game:`` (TerraFeud when absent); this checks everything else, each error naming its line.
    """
    _unknown_keys(data, TOP_KEYS, "scenario", where)
    sid = data.get("id")
    if not isinstance(sid, str) or not _ID.match(sid):
        raise ScenarioError(where, data.line_of("id"), f"id must be kebab-case text like ruling-1-knight-ford, got {short(sid)}")
    title = data.get("title")
    if not isinstance(title, str) or not title.strip():
        raise ScenarioError(where, data.line_of("title"), "title is required: a sentence a designer understands")
    ruling = data.get("ruling")
    if ruling is not None and (not isinstance(ruling, int) or isinstance(ruling, bool) or not 1 <= ruling <= 6):
        raise ScenarioError(where, data.line_of("ruling"), f"ruling must be an official ruling number 1-6, got {short(ruling)}")
    for key in ("source", "description"):
        if data.get(key) is not None and not isinstance(data[key], str):
            raise ScenarioError(where, data.line_of(key), f"{key} must be text")
    seed = data.get("seed", 0)
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or abs(seed) > MAX_SEED):
        raise ScenarioError(where, data.line_of("seed"), f"seed must be a whole number up to 2^63-1, got {short(seed)}")
    rules = _parse_rules(data, where)
    position = data.get("position")
    if position is not None and not isinstance(position, LineDict):
        raise ScenarioError(where, data.line_of("position"), "position must be a mapping (to_move, pieces, ...)")
    if isinstance(position, LineDict):
        _unknown_keys(position, POSITION_KEYS, "position", where)
    raw_checks = data.get("checks")
    if raw_checks is None:
        raw_checks = LineList()
    if not isinstance(raw_checks, LineList):
        raise ScenarioError(where, data.line_of("checks"), "checks must be a list of mappings")
    checks = [_parse_check(i + 1, raw_checks.line_of(i), node, where) for i, node in enumerate(raw_checks)]
    scenario = Scenario(
        id=sid, title=title.strip(), rules=rules, checks=checks, ruling=ruling, source=data.get("source"),
        description=data.get("description"), seed=seed, where=where, position=position,
        rules_line=data.line_of("rules") if "rules" in data else None,
    )
    scenario.initial_state()  # validates the position (hexes, letters, feudals, markers) with lines
    return scenario


def _unknown_keys(node: LineDict, allowed: tuple[str, ...], what: str, where: str) -> None:
    for key in node:
        if key not in allowed:
            raise ScenarioError(
                where, node.line_of(key), f"unknown {what} key {key!r}; allowed: {', '.join(allowed)}"
            )


def _parse_rules(data: LineDict, where: str) -> RulesConfig:
    node = data.get("rules")
    if node is None:
        return RulesConfig()
    if not isinstance(node, LineDict):
        raise ScenarioError(where, data.line_of("rules"), "rules must map toggle names to values, e.g. {season: winter}")
    known = RulesConfig.names()
    for key, value in node.items():
        if key not in known:
            raise ScenarioError(where, node.line_of(key), f"unknown rule toggle {key!r}; known toggles: {', '.join(known)}")
        try:
            RulesConfig.from_dict(_alone(key, value))
        except RulesError as exc:
            raise ScenarioError(where, node.line_of(key), str(exc)) from None
    if node.get("terrain") == "rolled" and "seed" not in data:
        raise ScenarioError(where, node.line_of("terrain"), "terrain: rolled needs a top-level seed: N to draw the hexes")
    values = dict(node)
    for toggle, hexes in (("hill", "hills"), ("swamp", "swamps")):
        if hexes in node:
            values[hexes] = _explicit_hexes(node, toggle, hexes, where)
    try:
        return RulesConfig.from_dict(values)
    except RulesError as exc:  # a combination (a bridge that is also a ford, adjacent bridges)
        line = node.line_of("bridges") if "bridges" in node else node.line_of("fords") if "fords" in node else None
        raise ScenarioError(where, line or data.line_of("rules"), str(exc)) from None


def _explicit_hexes(node: LineDict, toggle: str, key: str, where: str) -> dict[str, str | None]:
    """``hills``/``swamps`` name both sides (``none`` for a side without one), and never with the toggle off."""
    value = node[key]
    line = node.line_of(key)
    if node.get(toggle) is False or str(node.get(toggle)).lower() in ("false", "off", "no"):
        raise ScenarioError(where, line, f"{key} names hexes but {toggle}: false turns the {toggle}s off; drop one of them")
    if not isinstance(value, dict) or set(value) != {"white", "black"}:
        raise ScenarioError(where, line, f"{key} must name both sides, e.g. {{white: h4, black: c6}} "
                                         "(none for a side without one)")
    return {side: None if value[side] is None or str(value[side]).lower() == "none" else value[side]
            for side in ("white", "black")}


def _alone(key: str, value: Any) -> dict[str, Any]:
    """One rule to validate by itself: crossings without the checks that involve the other list."""
    if key == "bridges":
        return {"bridges": value, "fords": "none", "knight_bridge_stop": False}
    if key == "fords":
        return {"fords": value, "bridges": "none"}
    return {key: value}


# --------------------------------------------------------------------------- the position
def _hex_at(node: Any, key: Any, value: Any, where: str, what: str) -> int:
    try:
        return parse_hex(str(value))
    except ValueError as exc:
        raise ScenarioError(where, line_of(node, key), f"{what}: {exc}") from None


def build_position(game: Game, pos: LineDict, where: str) -> GameState:
    """A state from a ``position`` mapping, every error naming its line and hex."""
    pieces = pos.get("pieces")
    if pieces is None:
        pieces = LineDict()
    if not isinstance(pieces, LineDict):
        raise ScenarioError(where, pos.line_of("pieces"), "pieces must map hexes to piece letters, e.g. {f1: F, f11: f}")
    board = game.board
    seen: dict[int, str] = {}
    clean: dict[str, str] = {}
    for name, ch in pieces.items():
        line = pieces.line_of(name)
        h = _hex_at(pieces, name, name, where, "pieces")
        if h in seen:
            raise ScenarioError(where, line, f"two pieces on {hex_name(h)} (also written as {seen[h]})")
        seen[h] = str(name)
        try:
            c = parse_letter(ch)
        except ValueError as exc:
            raise ScenarioError(where, line, f"pieces {hex_name(h)}: {exc}") from None
        if h in board.river and not board.winter:
            raise ScenarioError(where, line, f"{letter(c)} on {hex_name(h)}: ordinary river is impassable in summer; nothing can stand there")
        if c & 7 == KNIGHT and board.is_summer_ford[h]:
            raise ScenarioError(where, line, f"{letter(c)} on {hex_name(h)}: the knight cannot stand on a ford in summer (ruling 1)")
        # Winter river is ordinary land for every piece, the cavalry included (section 8).
        clean[hex_name(h)] = str(ch)
    _feudals_apart(pieces, clean, where)
    to_move = pos.get("to_move", "white")
    try:
        side_index(to_move)
    except ValueError as exc:
        raise ScenarioError(where, pos.line_of("to_move"), f"to_move: {exc}") from None
    fields: dict[str, Any] = {"pieces": clean, "to_move": to_move}
    _try_fields(game, fields, where, pos.line_of("pieces") if "pieces" in pos else pos.line)
    for key in POSITION_KEYS[2:]:
        if key not in pos or pos[key] is None:
            continue
        value = pos[key]
        _check_shape(pos, key, value, where)
        fields[key] = value
        _try_fields(game, fields, where, pos.line_of(key))
    pieces_codes, side, extra = position_fields(game, fields)
    return game.state_from_pieces(pieces_codes, side, **extra)


def _feudals_apart(pieces: LineDict, clean: dict[str, str], where: str) -> None:
    """W9: a feudal may never end adjacent to the enemy feudal, so no position has them side by side."""
    white = [parse_hex(h) for h, ch in clean.items() if ch == "F"]
    black = {parse_hex(h) for h, ch in clean.items() if ch == "f"}
    for h in white:
        for n in ADJACENT[h]:
            if n in black:
                line = max(pieces.line_of(k) for k in pieces if str(k).lower() in (hex_name(h), hex_name(n)))
                raise ScenarioError(where, line, f"feudals on {hex_name(h)} and {hex_name(n)} are adjacent; "
                                                 "W9: a feudal never ends adjacent to the enemy feudal")


def _check_shape(pos: LineDict, key: str, value: Any, where: str) -> None:
    """Hex names and mapping/list shapes of the optional position fields, with item lines."""
    if key == "markers":
        if not isinstance(value, dict):
            raise ScenarioError(where, pos.line_of(key), "markers must map archer hex -> marked hex, e.g. {d8: b6}")
        for a, t in value.items():
            _hex_at(value, a, a, where, "markers")
            _hex_at(value, a, t, where, f"markers {a}")
    elif key in ("ultimatum_pending", "aura_ready", "castled"):
        if not isinstance(value, list):
            raise ScenarioError(where, pos.line_of(key), f"{key} must be a list")
        for i, item in enumerate(value):
            if key == "castled":
                if str(item).lower() not in SIDE_NAMES:
                    raise ScenarioError(where, line_of(value, i, pos.line_of(key)), f"castled: unknown side {item!r} (white or black)")
            else:
                _hex_at(value, i, item, where, key)
    elif key in ("ply", "quiet"):
        if type(value) is not int or not 0 <= value <= _COUNT_MAX:
            raise ScenarioError(where, pos.line_of(key), f"{key} must be a whole number 0..{_COUNT_MAX}, got {str(value)[:40]!r}")
    elif key == "destroyed":
        if not isinstance(value, dict):
            raise ScenarioError(where, pos.line_of(key), "destroyed must map white/black to piece letters, e.g. {white: [C]}")
        for side_name, letters in value.items():
            if str(side_name).lower() not in SIDE_NAMES:
                raise ScenarioError(where, line_of(value, side_name), f"destroyed: unknown side {side_name!r} (white or black)")
            if letters is not None and not isinstance(letters, list):
                raise ScenarioError(where, line_of(value, side_name), f"destroyed {side_name} must be a list of piece letters")


def _try_fields(game: Game, fields: dict[str, Any], where: str, line: int) -> None:
    try:
        position_fields(game, fields)
    except ValueError as exc:
        raise ScenarioError(where, line, str(exc)) from None


# --------------------------------------------------------------------------- checks
def _parse_check(index: int, line: int, node: Any, where: str) -> Check:
    if not isinstance(node, LineDict):
        raise ScenarioError(where, line, f"check {index} must be a mapping (legal, illegal, destinations, play, ...)")
    _unknown_keys(node, CHECK_KEYS, f"check {index}", where)
    note = node.get("note")
    if note is not None and not isinstance(note, str):
        raise ScenarioError(where, node.line_of("note"), f"check {index}: note must be text")
    check = Check(index=index, line=line, note=note)
    for key in ("play", "legal", "illegal"):
        setattr(check, key, _action_list(node, key, where))
    dest = node.get("destinations")
    if dest is not None:
        if not isinstance(dest, LineDict):
            raise ScenarioError(where, node.line_of("destinations"), "destinations must map a piece's hex to a list of hexes")
        for h_name, targets in dest.items():
            h = _hex_at(dest, h_name, h_name, where, "destinations")
            targets = targets or []
            if not isinstance(targets, list):
                raise ScenarioError(where, dest.line_of(h_name), f"destinations {h_name} must be a list of hexes")
            hs = frozenset(_hex_at(dest, h_name, t, where, f"destinations {h_name}") for t in targets)
            check.destinations[h] = (hs, dest.line_of(h_name))
    pieces = node.get("pieces")
    if pieces is not None:
        if not isinstance(pieces, LineDict):
            raise ScenarioError(where, node.line_of("pieces"), "pieces must map hexes to a piece letter or null")
        check.pieces = {}
        for h_name, ch in pieces.items():
            h = _hex_at(pieces, h_name, h_name, where, "pieces")
            if h in check.pieces:
                raise ScenarioError(where, pieces.line_of(h_name), f"pieces: {hex_name(h)} is named twice")
            try:
                check.pieces[h] = 0 if ch is None else parse_letter(ch)
            except ValueError as exc:
                raise ScenarioError(where, pieces.line_of(h_name), f"pieces {hex_name(h)}: {exc}") from None
    if "markers" in node:
        markers = node["markers"] or LineDict()
        if not isinstance(markers, dict):
            raise ScenarioError(where, node.line_of("markers"), "markers must map archer hex -> marked hex")
        check.markers = {
            _hex_at(markers, a, a, where, "markers"): _hex_at(markers, a, t, where, f"markers {a}")
            for a, t in markers.items()
        }
    if "to_move" in node:
        try:
            check.expect["to_move"] = side_index(node["to_move"])
        except ValueError as exc:
            raise ScenarioError(where, node.line_of("to_move"), f"to_move: {exc}") from None
    if "winner" in node:
        w = node["winner"]
        try:
            check.expect["winner"] = None if w is None else side_index(w)
        except ValueError:
            raise ScenarioError(where, node.line_of("winner"), f"winner must be white, black or null, got {w!r}") from None
    if "victory" in node:
        v = node["victory"]
        if v is not None and v not in VICTORIES:
            raise ScenarioError(where, node.line_of("victory"), f"victory must be one of {', '.join(VICTORIES)} or null, got {v!r}")
        check.expect["victory"] = v
    return check


def _action_list(node: LineDict, key: str, where: str) -> list[tuple[str, int]]:
    value = node.get(key)
    if value is None:
        return []
    if isinstance(value, str):
        value_list: list[Any] = [value]
        lines = [node.line_of(key)]
    elif isinstance(value, LineList):
        value_list, lines = list(value), [value.line_of(i) for i in range(len(value))]
    else:
        raise ScenarioError(where, node.line_of(key), f"{key} must be a list of actions in notation, e.g. [f3-f7, d2*d4]")
    out = []
    for text, line in zip(value_list, lines, strict=True):
        if not isinstance(text, str):
            raise ScenarioError(where, line, f"{key}: {text!r} is not action notation (e.g. f3-f7, d2*d4, f1<>f2)")
        try:
            read_action(text)
        except NotationError as exc:
            raise ScenarioError(where, line, f"{key}: {exc}") from None
        out.append((" ".join(text.split()), line))
    return out


# --------------------------------------------------------------------------- dumping
def dump_scenario(state: GameState, id: str, title: str, checks: list[dict[str, Any]] | None = None) -> str:  # noqa: A002 - the contract's field name
    """YAML text of ``state`` as a scenario that ``load_scenario_text`` reads back to the same position.

    Rules are written only where they differ from the defaults; hill and swamp, when on, are
    written as explicit hexes so a rolled game keeps the hexes it drew.
    """
    rules = {k: v for k, v in state.rules.differences().items() if k not in ("terrain", "hills", "swamps")}
    terrain = state.game.terrain
    for key, hexes in (("hills", terrain.hills), ("swamps", terrain.swamps)):
        if any(h is not None for h in hexes):  # both sides, null for a side without one (SCENARIO-FORMAT)
            rules[key] = {SIDE_NAMES[s]: None if h is None else hex_name(h) for s, h in enumerate(hexes)}
    position: dict[str, Any] = {
        "to_move": SIDE_NAMES[state.to_move],
        "pieces": {hex_name(h): letter(state.squares[h]) for h in state.pieces()},
    }
    markers = {hex_name(a): hex_name(t) for s in (0, 1) for a, t in sorted(state.markers[s].items())}
    if markers:
        position["markers"] = markers
    if state.pending:
        position["ultimatum_pending"] = [hex_name(h) for h in sorted(state.pending)]
    if any(state.castled):
        position["castled"] = [SIDE_NAMES[s] for s in (0, 1) for _ in range(state.castled[s])]
    if state.aura_ready:
        position["aura_ready"] = [hex_name(h) for h in sorted(state.aura_ready)]
    if any(state.destroyed):
        position["destroyed"] = {
            SIDE_NAMES[s]: [letter(k | (s << 3)) for k in state.destroyed[s]] for s in (0, 1) if state.destroyed[s]
        }
    if state.ply:
        position["ply"] = state.ply
    if state.quiet:
        position["quiet"] = state.quiet
    data: dict[str, Any] = {"id": id, "title": title}
    if rules:
        data["rules"] = rules
    data["position"] = position
    if checks:
        data["checks"] = checks
    return yaml.safe_dump(data, sort_keys=False, default_flow_style=None, allow_unicode=True, width=100)
