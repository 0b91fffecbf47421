"""The ``game: cursed-lands`` scenario dialect (SCENARIO-FORMAT.md beside the contract).

``load_case`` checks a parsed file (top keys, rules, seed, position, checks) and names the file line of
every problem; ``CursedCase.run`` judges each check from a fresh copy of the position, through the
engine's own API (nothing here re-derives a rule). A file with ``invalid:`` passes only when its
position is rejected. ``dump_scenario`` writes a state back as a file (JSON-style YAML, which the
generic YAML loader reads), complete enough that loading it gives the same state (C39).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from workbench.core.protocol import IllegalAction
from workbench.core.rulespec import Rules, RulesError, format_value
from workbench.core.scenario import (
    ERROR_STATUS,
    FAIL_STATUS,
    PASS_STATUS,
    CheckResult,
    ScenarioCase,
    ScenarioError,
    line_of,
)

from .deck import CODE_NAMES, PLAIN, parse_terrain
from .geometry import HEX_NAMES, parse_hex
from .notation import NotationError, read_action
from .position import DATA_DIR, POSITION_KEYS, VICTORIES, PositionError, build_state, position_of
from .rules import KINDS, SIDES, SPEC
from .state import CAMP_FLAG, CAMP_FREE, CursedState

TOP_KEYS = ("game", "id", "title", "ruling", "source", "description", "rules", "seed", "position", "checks",
            "invalid", "note")
CHECK_KEYS = ("note", "play", "legal", "illegal", "destinations", "targets", "legal_all", "legal_count", "canonical",
              "agent_legal", "agent_illegal", "units", "hp", "castle_hp", "decks", "tiles", "to_move", "ap", "turn",
              "tiles_placed", "phase", "activated", "fresh", "winner", "victory")
_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
MAX_SEED = 2**64 - 1
MAX_PLAY = 5000


@dataclass
class Check:
    """One entry of ``checks:``; every expectation keeps its file line."""

    index: int
    line: int
    play: list[tuple[str, int]] = field(default_factory=list)
    expect: dict[str, tuple[Any, int]] = field(default_factory=dict)
    note: str | None = None

    def describe(self) -> str:
        """``check 2 (line 14)``."""
        return f"check {self.index} (line {self.line})"


class CursedCase(ScenarioCase):
    """A loaded ``cursed-lands`` scenario (see the module docstring)."""

    game = "cursed-lands"

    def __init__(self, where: str, sid: str, title: str, data: Mapping[str, Any]) -> None:
        self.where = where
        self.id = sid
        self.title = title
        self.ruling = data.get("ruling")
        self.source = data.get("source")
        self.description = data.get("description")
        self.rules_node: Mapping[str, Any] = data.get("rules") or {}
        self.rules_line = line_of(data, "rules") or None
        self.seed: int | None = data.get("seed")
        self.position: Mapping[str, Any] | None = data.get("position")
        self.invalid: str | None = data.get("invalid")
        self.checks: list[Check] = []

    # ----------------------------------------------------------------- building
    def rules(self, overrides: Mapping[str, Any] | None = None) -> Rules:
        """The file's rules with ``overrides`` (``--rules``) on top."""
        try:
            node = SPEC.confine_paths(dict(self.rules_node), self._bases())
            base = SPEC.make(node)
        except RulesError as exc:
            raise ScenarioError(self.where, self._rule_line(exc), str(exc)) from None
        if not overrides:
            return base
        try:  # --rules values come from the command line: the user's own files, read as given
            return SPEC.make({**node, **dict(overrides)})
        except RulesError as exc:
            raise ScenarioError(self.where, None, f"--rules: {exc}") from None

    def _bases(self) -> list[Path]:
        """Where files the scenario names may lie: its own folder, then the game's data."""
        own = [] if self.where.startswith("<") else [Path(self.where).parent]
        return [*own, DATA_DIR]

    def _rule_line(self, exc: RulesError) -> int | None:
        for key in self.rules_node:
            if f"parameter {key}" in str(exc) or f"rule {key}" in str(exc):
                return line_of(self.rules_node, key) or self.rules_line
        return self.rules_line

    def initial_state(self, overrides: Mapping[str, Any] | None = None) -> CursedState:
        """The position (the game's start from ``seed`` when the file has none)."""
        rules = self.rules(overrides)
        try:
            if self.position is None:
                return build_state(rules, None, self.seed if self.seed is not None else 0)
            return build_state(rules, self.position, self.seed)
        except PositionError as exc:
            raise ScenarioError(self.where, self._position_line(exc), str(exc)) from None
        except RulesError as exc:
            raise ScenarioError(self.where, self.rules_line, str(exc)) from None

    def _position_line(self, exc: PositionError) -> int | None:
        pos = self.position
        if pos is None:
            return self.rules_line
        if exc.key is None or exc.key not in pos:
            return line_of(pos, exc.key) or getattr(pos, "line", None) or None
        node = pos[exc.key]
        if exc.item is not None and isinstance(node, (Mapping, list)):
            inner = line_of(node, exc.item)
            if inner:
                return inner
            if isinstance(node, Mapping) and isinstance(exc.item, str):
                sub = node.get(exc.item)
                for side in SIDES:  # camps: p1 -> the side's mapping
                    if exc.item == side and sub is not None:
                        return line_of(node, side)
        return line_of(pos, exc.key) or None

    # ----------------------------------------------------------------- running
    @property
    def engines(self) -> tuple[str, ...]:
        """``python``, and ``native`` when the native core is built (``check --engine native``)."""
        from .native import available

        return ("python", "native") if available() else ("python",)

    def run(self, overrides: Mapping[str, Any] | None = None, engine: str = "python") -> list[CheckResult]:
        """Judge every check from a fresh copy of the position; never raises. ``engine`` ``native`` plays the
        checks on the native core (legality and counts from its legal actions; see ``native.py``)."""
        if self.invalid is not None:
            return [self._run_invalid(overrides)]
        try:
            start = self.initial_state(overrides)
            if engine == "native":
                from .native import NativeCursedState

                start = NativeCursedState.from_python(start)  # type: ignore[assignment]
        except ScenarioError as exc:
            text = f"line {exc.line}: {exc.reason}" if exc.line else exc.reason
            return [CheckResult(0, exc.line or 0, ERROR_STATUS, text)]
        except Exception as exc:  # noqa: BLE001 - an engine failure must not stop the other files
            return [CheckResult(0, 0, ERROR_STATUS, f"the engine raised {type(exc).__name__} building the position")]
        results = []
        for check in self.checks:
            try:
                results.append(run_check(check, start.clone()))
            except Exception as exc:  # noqa: BLE001
                results.append(CheckResult(check.index, check.line, ERROR_STATUS,
                                           f"line {check.line}: {check.describe()}: the engine raised "
                                           f"{type(exc).__name__}: {exc}"))
        return results

    def _run_invalid(self, overrides: Mapping[str, Any] | None) -> CheckResult:
        line = self.checks[0].line if self.checks else 0
        try:
            rules = self.rules(overrides)
        except ScenarioError as exc:
            return CheckResult(1, line, ERROR_STATUS, exc.reason)
        try:
            build_state(rules, self.position, self.seed)
        except PositionError:
            return CheckResult(1, line, PASS_STATUS, "")
        except RulesError as exc:
            return CheckResult(1, line, ERROR_STATUS, str(exc))
        return CheckResult(1, line, FAIL_STATUS,
                           f"line {line}: the position was accepted, but should be rejected ({self.invalid})")


# --------------------------------------------------------------------------- loading
def load_case(data: Mapping[str, Any], where: str) -> CursedCase:
    """Check a parsed file and return its case; ``ScenarioError(where, line, reason)`` when it is bad."""
    for key in data:
        if key not in TOP_KEYS:
            raise ScenarioError(where, line_of(data, key), f"unknown scenario key {str(key)[:30]!r}; allowed: "
                                f"{', '.join(TOP_KEYS)}")
    sid = data.get("id")
    if not isinstance(sid, str) or not _ID.match(sid):
        raise ScenarioError(where, line_of(data, "id"), f"id must be kebab-case text like cl-castle-hp, got {_short(sid)}")
    title = data.get("title")
    invalid = data.get("invalid")
    if invalid is not None and (not isinstance(invalid, str) or not invalid.strip()):
        raise ScenarioError(where, line_of(data, "invalid"), "invalid must be text: why the position is rejected")
    if title is None and invalid is not None:
        title = f"rejected: {invalid}"
    if not isinstance(title, str) or not title.strip():
        raise ScenarioError(where, line_of(data, "title"), "title is required: a sentence a designer understands")
    for key in ("source", "description", "note"):
        if data.get(key) is not None and not isinstance(data[key], str):
            raise ScenarioError(where, line_of(data, key), f"{key} must be text")
    ruling = data.get("ruling")
    if ruling is not None and (isinstance(ruling, bool) or not isinstance(ruling, (int, str))):
        raise ScenarioError(where, line_of(data, "ruling"), "ruling must be a ruling name such as C17")
    seed = data.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not -2**63 <= seed <= MAX_SEED):
        raise ScenarioError(where, line_of(data, "seed"), f"seed must be a whole number from -2^63 to 2^64-1 (taken mod "
                            f"2^64), got {_short(seed)}")
    rules = data.get("rules")
    if rules is not None and not isinstance(rules, Mapping):
        raise ScenarioError(where, line_of(data, "rules"), "rules must map rule names to values, e.g. {untiled: plain}")
    position = data.get("position")
    if position is not None and not isinstance(position, Mapping):
        raise ScenarioError(where, line_of(data, "position"), "position must be a mapping (to_move, ap, units, ...)")
    if isinstance(position, Mapping) and invalid is None:  # an invalid file's bad key is its rejection
        for key in position:
            if key not in POSITION_KEYS:
                raise ScenarioError(where, line_of(position, key), f"unknown position key {str(key)[:30]!r}; "
                                    f"allowed: {', '.join(POSITION_KEYS)}")
    case = CursedCase(where, sid, title.strip(), data)
    case.rules()  # unknown rules and bad values fail here, with the line of the rule
    if invalid is not None:
        if position is None:
            raise ScenarioError(where, line_of(data, "invalid"), "a file with invalid: needs the position to reject")
        if data.get("checks"):
            raise ScenarioError(where, line_of(data, "checks"), "a file with invalid: has no checks")
        case.checks = [Check(1, line_of(data, "invalid"))]
        return case
    raw = data.get("checks")
    if raw is None:
        raw = []
    if not isinstance(raw, list):
        raise ScenarioError(where, line_of(data, "checks"), "checks must be a list of mappings")
    case.checks = [_parse_check(i + 1, line_of(raw, i), node, where) for i, node in enumerate(raw)]
    case.initial_state()  # validates the position, naming its line
    return case


def _short(value: Any) -> str:
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _hex_at(node: Any, key: Any, value: Any, where: str, what: str) -> int:
    try:
        return parse_hex(value if isinstance(value, str) else str(value))
    except ValueError as exc:
        raise ScenarioError(where, line_of(node, key), f"{what}: {exc}") from None


def _side_at(node: Any, key: Any, value: Any, where: str, what: str) -> int:
    if isinstance(value, str) and value.strip().lower() in SIDES:
        return SIDES.index(value.strip().lower())
    raise ScenarioError(where, line_of(node, key), f"{what} must be p1 or p2, got {_short(value)}")


def _action_list(node: Mapping[str, Any], key: str, where: str, syntax: bool) -> list[tuple[str, int]]:
    value = node.get(key)
    if value is None:
        return []
    if isinstance(value, str):
        items, lines = [value], [line_of(node, key)]
    elif isinstance(value, list):
        items, lines = list(value), [line_of(value, i) or line_of(node, key) for i in range(len(value))]
    else:
        raise ScenarioError(where, line_of(node, key), f"{key} must be a list of actions in notation, e.g. [+S, c2-c4]")
    if len(items) > MAX_PLAY:
        raise ScenarioError(where, line_of(node, key), f"{key} lists {len(items)} actions; at most {MAX_PLAY}")
    out = []
    for text, line in zip(items, lines, strict=True):
        if not isinstance(text, str):
            raise ScenarioError(where, line, f"{key}: {_short(text)} is not action notation (e.g. +S, e2xd4, end)")
        if syntax:
            try:
                read_action(text)
            except (NotationError, ValueError) as exc:
                raise ScenarioError(where, line, f"{key}: {exc}") from None
        out.append((" ".join(text.split()), line))
    return out


def _hex_sets(node: Mapping[str, Any], key: str, where: str) -> dict[int, frozenset[int]]:
    value = node[key]
    if not isinstance(value, Mapping):
        raise ScenarioError(where, line_of(node, key), f"{key} must map a unit's hex to a list of hexes")
    out = {}
    for name, hexes in value.items():
        h = _hex_at(value, name, name, where, key)
        hexes = hexes or []
        if not isinstance(hexes, list):
            raise ScenarioError(where, line_of(value, name), f"{key} {name} must be a list of hexes")
        out[h] = frozenset(_hex_at(value, name, x, where, f"{key} {name}") for x in hexes)
    return out


def _parse_check(index: int, line: int, node: Any, where: str) -> Check:
    if not isinstance(node, Mapping):
        raise ScenarioError(where, line, f"check {index} must be a mapping (play, legal, units, ...)")
    for key in node:
        if key not in CHECK_KEYS:
            raise ScenarioError(where, line_of(node, key), f"unknown check {index} key {str(key)[:30]!r}; allowed: "
                                f"{', '.join(CHECK_KEYS)}")
    note = node.get("note")
    if note is not None and not isinstance(note, str):
        raise ScenarioError(where, line_of(node, "note"), f"check {index}: note must be text")
    check = Check(index, line, note=note)
    check.play = _action_list(node, "play", where, syntax=True)
    ex = check.expect

    def put(key: str, value: Any) -> None:
        ex[key] = (value, line_of(node, key) or line)

    for key in ("legal", "illegal", "agent_legal", "agent_illegal", "legal_all"):
        if key in node:
            put(key, _action_list(node, key, where, syntax=False))
    for key in ("destinations", "targets"):
        if key in node:
            put(key, _hex_sets(node, key, where))
    if "legal_count" in node:
        put("legal_count", _int_at(node, "legal_count", where))
    if "canonical" in node:
        value = node["canonical"]
        if not isinstance(value, Mapping):
            raise ScenarioError(where, line_of(node, "canonical"), "canonical maps input notation to output notation or null")
        for k, v in value.items():
            if not isinstance(k, str) or (v is not None and not isinstance(v, str)):
                raise ScenarioError(where, line_of(value, k), "canonical: each entry is 'input: output' text (or null)")
        put("canonical", {" ".join(k.split()): v for k, v in value.items()})
    if "units" in node:
        value = node["units"] or {}
        if not isinstance(value, Mapping):
            raise ScenarioError(where, line_of(node, "units"), "units maps hexes to a unit letter or null")
        units = {}
        for name, letter in value.items():
            h = _hex_at(value, name, name, where, "units")
            if letter is not None and (not isinstance(letter, str) or len(letter) != 1 or letter.upper() not in KINDS):
                raise ScenarioError(where, line_of(value, name), f"units {name}: {_short(letter)} is not a unit letter "
                                    "(S A C R for p1, s a c r for p2) or null")
            units[h] = letter
        put("units", units)
    if "hp" in node:
        value = node["hp"] or {}
        if not isinstance(value, Mapping):
            raise ScenarioError(where, line_of(node, "hp"), "hp maps hexes to HP")
        put("hp", {_hex_at(value, n, n, where, "hp"): _int_at(value, n, where, f"hp {n}") for n in value})
    if "castle_hp" in node:
        value = node["castle_hp"] or {}
        if not isinstance(value, Mapping):
            raise ScenarioError(where, line_of(node, "castle_hp"), "castle_hp maps p1/p2 to HP")
        put("castle_hp", {_side_at(value, s, s, where, "castle_hp"): _int_at(value, s, where, f"castle_hp {s}")
                          for s in value})
    if "decks" in node:
        value = node["decks"] or {}
        if not isinstance(value, Mapping):
            raise ScenarioError(where, line_of(node, "decks"), "decks maps p1/p2 to a list of terrains, top first")
        decks = {}
        for s, items in value.items():
            side = _side_at(value, s, s, where, "decks")
            seq = list(items.replace(" ", "")) if isinstance(items, str) else (items or [])
            if not isinstance(seq, list):
                raise ScenarioError(where, line_of(value, s), f"decks {s} must be a list of terrains")
            try:
                decks[side] = [parse_terrain(t) for t in seq]
            except ValueError as exc:
                raise ScenarioError(where, line_of(value, s), f"decks {s}: {exc}") from None
        put("decks", decks)
    if "tiles" in node:
        value = node["tiles"] or {}
        if not isinstance(value, Mapping):
            raise ScenarioError(where, line_of(node, "tiles"), "tiles maps hexes to terrains (void for untiled)")
        tiles = {}
        for name, t in value.items():
            h = _hex_at(value, name, name, where, "tiles")
            try:
                tiles[h] = parse_terrain(t, allow_void=True)
            except ValueError as exc:
                raise ScenarioError(where, line_of(value, name), f"tiles {name}: {exc}") from None
        put("tiles", tiles)
    if "to_move" in node:
        put("to_move", _side_at(node, "to_move", node["to_move"], where, "to_move"))
    for key in ("ap", "turn", "tiles_placed"):
        if key in node:
            put(key, _int_at(node, key, where))
    if "phase" in node:
        if node["phase"] not in ("play", "setup"):
            raise ScenarioError(where, line_of(node, "phase"), f"phase must be play or setup, got {_short(node['phase'])}")
        put("phase", node["phase"])
    for key in ("activated", "fresh"):
        if key in node:
            value = node[key] or []
            if not isinstance(value, list):
                raise ScenarioError(where, line_of(node, key), f"{key} must be a list of hexes")
            put(key, frozenset(_hex_at(value, i, v, where, key) for i, v in enumerate(value)))
    if "winner" in node:
        w = node["winner"]
        put("winner", None if w is None else _side_at(node, "winner", w, where, "winner"))
    if "victory" in node:
        v = node["victory"]
        if v is not None and v not in VICTORIES:
            raise ScenarioError(where, line_of(node, "victory"), f"victory must be castle, elimination, draw or null, "
                                f"got {_short(v)}")
        put("victory", v)
    return check


def _int_at(node: Any, key: Any, where: str, what: str | None = None) -> int:
    value = node[key]
    if isinstance(value, str) and value.replace(",", "").replace("_", "").isdigit() and len(value) < 20:
        value = int(value.replace(",", "").replace("_", ""))  # 483,840 as the contract writes it
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScenarioError(where, line_of(node, key), f"{what or key} must be a whole number, got {_short(value)}")
    return value


# --------------------------------------------------------------------------- judging
def _names(hexes: Any) -> str:
    return "{" + ", ".join(HEX_NAMES[h] for h in sorted(hexes)) + "}"


def _side_name(side: int | None) -> str:
    return "null" if side is None else SIDES[side]


def play_actions(check: Check, state: CursedState) -> CheckResult | None:
    """Apply the check's ``play`` in place; an error result naming the step and the rule if one is illegal."""
    for i, (text, line) in enumerate(check.play, start=1):
        try:
            state.apply_action(state.string_to_action(text))
        except IllegalAction as exc:
            reason = str(exc)
            if not reason.startswith(text):
                reason = f"{text}: {reason}"
            return CheckResult(check.index, line, ERROR_STATUS, f"line {line}: check {check.index}: play step {i}: {reason}")
    return None


def agent_list(state: CursedState) -> list[str]:
    """The actions an agent of the side to move receives, as text (``#h`` under deck_top_visible=false, C46)."""
    return [state.agent_string(a) for a in state.legal_actions()]


def _in_agent_list(state: CursedState, text: str) -> bool:
    try:
        parsed = read_action(text)
        a = state.parse(text)
    except (IllegalAction, NotationError, ValueError):
        return False
    if not state.is_legal(a):
        return False
    if parsed.kind == "tile":
        hidden = not state.rules["deck_top_visible"]
        if hidden != (parsed.tile is None):
            return False  # the agent's list writes #h exactly when the top is hidden
        if parsed.tile is not None:
            try:
                state.string_to_action(text)
            except IllegalAction:
                return False
    return True


def run_check(check: Check, state: CursedState) -> CheckResult:
    """Judge one check on ``state`` (consumed: pass a fresh copy)."""
    error = play_actions(check, state)
    if error is not None:
        return error
    diffs: list[str] = []
    ex = check.expect
    for text, _ in ex.get("legal", ([], 0))[0]:
        try:
            state.string_to_action(text)
        except IllegalAction as exc:
            reason = str(exc)
            diffs.append(f"{text} should be legal but is not ({reason[len(text) + 2:] if reason.startswith(text + ': ') else reason})")
    for text, _ in ex.get("illegal", ([], 0))[0]:
        try:
            state.string_to_action(text)
        except IllegalAction:
            continue
        diffs.append(f"{text} should be illegal but is legal")
    for key, getter in (("destinations", state.destinations), ("targets", state.targets)):
        if key in ex:
            for h, want in ex[key][0].items():
                got = frozenset(getter(h))
                if got != want:
                    parts = []
                    if want - got:
                        parts.append("missing " + _names(want - got))
                    if got - want:
                        parts.append("extra " + _names(got - want))
                    diffs.append(f"{key} of {HEX_NAMES[h]}: " + ", ".join(parts))
    if "legal_all" in ex:
        want_all = [t for t, _ in ex["legal_all"][0]]
        legal_now = state.legal_actions()
        # bounded work: a list of another length differs without writing (up to 54 million) camp strings
        listable = len(legal_now) == len(want_all) or len(legal_now) <= 100_000
        got_all = [state.action_to_string(a) for a in legal_now] if listable else None
        if got_all is None:
            diffs.append(f"legal_all: expected {len(want_all):,} actions, found {len(legal_now):,}")
        elif want_all != got_all:
            missing = [t for t in want_all if t not in got_all]
            extra = [t for t in got_all if t not in want_all]
            detail = []
            if missing:
                detail.append("missing " + ", ".join(missing[:12]))
            if extra:
                detail.append("extra " + ", ".join(extra[:12]))
            if not detail:
                detail.append("same actions in another order; found " + ", ".join(got_all[:12]))
            diffs.append("legal_all: " + "; ".join(detail))
    if "legal_count" in ex:
        got_n = state.legal_count()
        if got_n != ex["legal_count"][0]:
            diffs.append(f"legal_count: expected {ex['legal_count'][0]:,}, found {got_n:,}")
    if "canonical" in ex:
        for text, want in ex["canonical"][0].items():
            try:
                got = state.action_to_string(state.string_to_action(text))
            except IllegalAction:
                got = None
            if got != want:
                diffs.append(f"canonical {text}: expected {want or 'null (illegal)'}, found {got or 'null (illegal)'}")
    for key, want_in in (("agent_legal", True), ("agent_illegal", False)):
        for text, _ in ex.get(key, ([], 0))[0]:
            if _in_agent_list(state, text) != want_in:
                diffs.append(f"{text} should {'' if want_in else 'not '}be in the agent's list")
    if "units" in ex:
        for h, want in ex["units"][0].items():
            got = None
            if state.owner[h] >= 0:
                letter = KINDS[state.kind[h]]
                got = letter if state.owner[h] == 0 else letter.lower()
            if got != want:
                diffs.append(f"units {HEX_NAMES[h]}: expected {want or 'empty'}, found {got or 'empty'}")
    if "hp" in ex:
        for h, want in ex["hp"][0].items():
            if state.owner[h] < 0:
                diffs.append(f"hp {HEX_NAMES[h]}: expected {want}, found no unit")
            elif state.hp[h] != want:
                diffs.append(f"hp {HEX_NAMES[h]}: expected {want}, found {state.hp[h]}")
    if "castle_hp" in ex:
        for side, want in ex["castle_hp"][0].items():
            if state.castle_hp[side] != want:
                diffs.append(f"castle_hp {SIDES[side]}: expected {want}, found {state.castle_hp[side]}")
    if "decks" in ex:
        for side, want in ex["decks"][0].items():
            if state.decks[side] != want:
                diffs.append(f"decks {SIDES[side]}: expected [{', '.join(CODE_NAMES[c] for c in want)}], found "
                             f"[{', '.join(CODE_NAMES[c] for c in state.decks[side][:40])}]")
    if "tiles" in ex:
        for h, want in ex["tiles"][0].items():
            got = state.tile[h]
            untiled_camp = got == 0 and state.camp_kind[h] in (CAMP_FLAG, CAMP_FREE)  # camp hexes are plain
            if got != want and not (untiled_camp and want == PLAIN):
                diffs.append(f"tiles {HEX_NAMES[h]}: expected {CODE_NAMES[want]}, found {CODE_NAMES[got]}")
    simple = {"to_move": (state.to_move, _side_name), "ap": (state.ap, str), "turn": (state.turn_no, str),
              "tiles_placed": (state.tiles_placed, str), "phase": (state.phase, str),
              "winner": (state.winner_side, _side_name), "victory": (state.victory_kind, lambda v: v or "null")}
    for key, (got_v, show) in simple.items():
        if key in ex and ex[key][0] != got_v:
            diffs.append(f"{key}: expected {show(ex[key][0])}, found {show(got_v)}")
    for key, mark in (("activated", 1), ("fresh", 2)):
        if key in ex:
            got_set = frozenset(h for h in range(len(state.mark)) if state.mark[h] == mark)
            if got_set != ex[key][0]:
                diffs.append(f"{key}: expected {_names(ex[key][0])}, found {_names(got_set)}")
    if diffs:
        note = f" (note: {check.note})" if check.note else ""
        return CheckResult(check.index, check.line, FAIL_STATUS, f"{check.describe()}: " + "; ".join(diffs) + note)
    return CheckResult(check.index, check.line, PASS_STATUS, "")


# --------------------------------------------------------------------------- writing
def dump_scenario(state: CursedState, sid: str, title: str, checks: Sequence[Mapping[str, Any]] = ()) -> str:
    """Scenario text of ``state``: every position key (C39), the non-default rules and the seed.

    Values are written as JSON, which is YAML too, so the game package needs no YAML library.
    """
    rules = {k: (format_value(v) if isinstance(v, (tuple, list)) else v) for k, v in state.rules.non_default().items()}
    lines = ["game: cursed-lands", f"id: {json.dumps(sid)}", f"title: {json.dumps(title, ensure_ascii=False)}"]
    if rules:
        lines.append(f"rules: {json.dumps(rules)}")
    lines.append(f"seed: {state.seed}")
    lines.append("position:")
    for key, value in position_of(state).items():
        lines.append(f"  {key}: {json.dumps(value)}")
    if checks:
        lines.append("checks:")
        for c in checks:
            lines.append(f"  - {json.dumps(dict(c), ensure_ascii=False)}")
    return "\n".join(lines) + "\n"
