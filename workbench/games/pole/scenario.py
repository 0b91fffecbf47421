"""Pole's scenario dialect (contract section 12, extending TerraFeud's SCENARIO-FORMAT.md).

``parse_scenario`` gets the generic loader's mapping (``LineDict``/``LineList`` with ``line_of``) and
returns a ``PoleScenario``; anything malformed (an unknown key, cell, letter, rule, notation, or an
invalid position) is a ``ScenarioError`` naming the file, line and reason. Whether actions are legal
is judged when the checks run, against the engine's own queries. ``dump_scenario`` writes a state
back as a file that loads to the same state (the position round trip).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from workbench.core.protocol import IllegalAction
from workbench.core.rulespec import RulesError
from workbench.core.scenario import (
    ERROR_STATUS,
    FAIL_STATUS,
    PASS_STATUS,
    CheckResult,
    ScenarioCase,
    ScenarioError,
    line_of,
)

from .board import NAMES, parse_cell
from .position import (
    DATA_DIR,
    POSITION_KEYS,
    VICTORIES,
    PositionError,
    build_state,
    parse_piece_letter,
    state_from_start,
)
from .rules import LETTERS, SIDES, SPEC
from .state import (
    ALL0,
    ATT0,
    PHASES,
    PoleState,
    apply_text,
    letter,
    parse_dice,
    parse_syntax,
    position_dict,
    split_play,
)
from .tables import config

TOP_KEYS = ("game", "id", "title", "ruling", "source", "description", "rules", "seed", "position", "checks")
CHECK_KEYS = ("note", "play", "legal", "illegal", "legal_count", "destinations", "targets", "placements", "chance",
              "pieces", "coins", "to_move", "phase", "winner", "victory", "turn", "quiet", "fresh", "bought", "removed",
              "state")
_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
MAX_SEED = 2**63 - 1
MAX_LIST = 5000  # items in one list of a check (play lists of long games stay well below)


def _short(value: Any) -> str:
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


@dataclass
class PoleCheck:
    """One parsed entry of ``checks:`` (lines are 1-based file lines)."""

    index: int
    line: int
    play: list[tuple[str, int]] = field(default_factory=list)
    legal: list[tuple[str, int]] = field(default_factory=list)
    illegal: list[tuple[str, int]] = field(default_factory=list)
    legal_count: int | None = None
    destinations: dict[int, frozenset[int]] = field(default_factory=dict)
    targets: dict[int, frozenset[int]] = field(default_factory=dict)
    placements: dict[int, frozenset[int]] = field(default_factory=dict)
    chance: list[tuple[str, Fraction | float, str]] = field(default_factory=list)
    pieces: dict[int, int] | None = None
    coins: dict[int, int] = field(default_factory=dict)
    expect: dict[str, Any] = field(default_factory=dict)
    state: Mapping | None = None
    state_line: int = 0
    note: str | None = None

    def describe(self) -> str:
        """``check 2 (line 14)``."""
        return f"check {self.index} (line {self.line})"


class PoleScenario(ScenarioCase):
    """A loaded Pole scenario: rules, optional position and checks; ``run`` never raises for bad data."""

    game = "pole"

    def __init__(self, sid: str, title: str, rules: dict[str, Any], position: Mapping | None, checks: list[PoleCheck],
                 where: str, rules_line: int = 0, ruling: Any = None, source: str | None = None,
                 description: str | None = None, seed: int = 0) -> None:
        self.id = sid
        self.title = title
        self.rule_values = rules
        self.position = position
        self.checks = checks
        self.where = where
        self.rules_line = rules_line
        self.ruling = ruling
        self.source = source
        self.description = description
        self.seed = seed
        self.path: Path | None = None

    def rules(self, overrides: Mapping[str, Any] | None = None) -> Any:
        """The scenario's rules with ``overrides`` (``--rules``) applied; ``ScenarioError`` if refused."""
        values = dict(self.rule_values)
        if overrides:
            values.update(overrides)
        try:
            return SPEC.make(values)
        except RulesError as exc:
            prefix = "--rules: " if overrides else ""
            raise ScenarioError(self.where, None if overrides else self.rules_line, prefix + str(exc)) from None

    def initial_state(self, overrides: Mapping[str, Any] | None = None) -> PoleState:
        """The position (the start of the rules when the file has none), under ``overrides``."""
        rules = self.rules(overrides)
        cfg = config(rules)
        if self.position is None:
            try:
                state = state_from_start(cfg)
            except RulesError as exc:
                raise ScenarioError(self.where, self.rules_line, str(exc)) from None
        else:
            try:
                state = build_state(self.position, cfg)
            except PositionError as exc:
                raise ScenarioError(self.where, exc.line or line_of(self.position, exc.key or ""),
                                    f"position: {exc.reason}") from None
            state.origin = position_dict(state)
        state.seed = self.seed
        return state

    engines = ("python", "native")  # check --engine native runs the checks on the Rust core

    def run(self, overrides: Mapping[str, Any] | None = None, engine: str = "python") -> list[CheckResult]:
        """Judge every check from a fresh copy of the position (see ``ScenarioCase``).

        ``engine="native"``: the position is handed to the native core, which plays the check's
        actions and answers legality and ``legal_count``; the other queries read its resulting state.
        """
        try:
            start = self.initial_state(overrides)
            if engine == "native":
                from .native import NativePoleState

                start = NativePoleState.from_python(start)
        except ScenarioError as exc:
            return [CheckResult(0, exc.line or 0, ERROR_STATUS, f"line {exc.line}: {exc.reason}" if exc.line
                                else exc.reason)]
        except Exception as exc:  # noqa: BLE001 - an engine failure on one file must not stop the others
            return [CheckResult(0, 0, ERROR_STATUS, f"the engine raised {type(exc).__name__} building the position")]
        results = []
        for check in self.checks:
            try:
                results.append(run_check(check, start.clone()))
            except Exception as exc:  # noqa: BLE001 - report, and go on with the other checks
                results.append(CheckResult(check.index, check.line, ERROR_STATUS,
                                           f"line {check.line}: {check.describe()}: the engine raised "
                                           f"{type(exc).__name__}: {exc}"))
        return results

    def play_states(self, overrides: Mapping[str, Any] | None = None) -> list[PoleState]:
        """States before and after each action of the first check with ``play`` (notebooks)."""
        state = self.initial_state(overrides)
        states = [state.clone()]
        for check in self.checks:
            if check.play:
                for text, _line in check.play:
                    try:
                        apply_text(state, text)
                    except IllegalAction:
                        break
                    states.append(state.clone())
                break
        return states


# --------------------------------------------------------------------------- parsing
def parse_scenario(data: Mapping[str, Any], where: str) -> PoleScenario:
    """A Pole scenario from the loader's mapping; ``ScenarioError(where, line, reason)`` if malformed."""
    for key in data:
        if key not in TOP_KEYS:
            raise ScenarioError(where, line_of(data, key), f"unknown scenario key {_short(key)}; allowed: "
                                f"{', '.join(TOP_KEYS)}")
    sid = data.get("id")
    if not isinstance(sid, str) or not _ID.match(sid):
        raise ScenarioError(where, line_of(data, "id"), f"id must be kebab-case text like pole-catapult-dead-zone, "
                            f"got {_short(sid)}")
    title = data.get("title")
    if not isinstance(title, str) or not title.strip():
        raise ScenarioError(where, line_of(data, "title"), "title is required: a sentence a designer understands")
    ruling = data.get("ruling")
    if ruling is not None:
        ok = (isinstance(ruling, int) and not isinstance(ruling, bool) and 1 <= ruling <= 48) or (
            isinstance(ruling, str) and 0 < len(ruling.strip()) <= 100)
        if not ok:
            raise ScenarioError(where, line_of(data, "ruling"), f"ruling must name contract rulings, such as P12 or "
                                f"'P15, P48' (or a number 1-48), got {_short(ruling)}")
    for key in ("source", "description"):
        if data.get(key) is not None and not isinstance(data[key], str):
            raise ScenarioError(where, line_of(data, key), f"{key} must be text")
    seed = data.get("seed", 0)
    if seed is None:
        seed = 0
    if not isinstance(seed, int) or isinstance(seed, bool) or abs(seed) > MAX_SEED:
        raise ScenarioError(where, line_of(data, "seed"), f"seed must be a whole number up to 2^63-1, got {_short(seed)}")
    rules = _parse_rules(data, where)
    position = data.get("position")
    if position is not None and not isinstance(position, Mapping):
        raise ScenarioError(where, line_of(data, "position"), "position must be a mapping (to_move, coins, pieces, ...)")
    raw_checks = data.get("checks")
    if raw_checks is None:
        raw_checks = []
    if not isinstance(raw_checks, list):
        raise ScenarioError(where, line_of(data, "checks"), "checks must be a list of mappings")
    checks = [_parse_check(i + 1, line_of(raw_checks, i), node, where) for i, node in enumerate(raw_checks)]
    scenario = PoleScenario(sid, title.strip(), rules, position, checks, where, line_of(data, "rules"),
                            ruling, data.get("source"), data.get("description"), seed)
    start = scenario.initial_state()  # the rules and the position must hold as written
    for check in checks:
        if check.state is not None:
            try:
                build_state(check.state, start.cfg)
            except PositionError as exc:
                raise ScenarioError(where, exc.line or check.state_line, f"state: {exc.reason}") from None
    return scenario


def _parse_rules(data: Mapping[str, Any], where: str) -> dict[str, Any]:
    node = data.get("rules")
    if node is None:
        return {}
    if not isinstance(node, Mapping):
        raise ScenarioError(where, line_of(data, "rules"), "rules must map parameter names to values, e.g. "
                            "{fortress_rounding: down}")
    values: dict[str, Any] = {}
    for key, value in node.items():
        if key not in SPEC:
            raise ScenarioError(where, line_of(node, key), SPEC.unknown(str(key)))
        try:  # a file the scenario names lies in its folder (P33) or the game's data, nowhere else
            own = [] if where.startswith("<") else [Path(where).parent]
            value = SPEC.confine_paths({key: value}, [*own, DATA_DIR])[key]
            values[key] = SPEC[key].parse(value)
        except RulesError as exc:
            raise ScenarioError(where, line_of(node, key), str(exc)) from None
    try:
        SPEC.make(values)
    except RulesError as exc:
        named = [k for k in values if f"parameter {k}" in str(exc)]
        line = line_of(node, named[0]) if named else line_of(data, "rules")
        raise ScenarioError(where, line, str(exc)) from None
    return values


def _texts(node: Mapping, key: str, where: str) -> list[tuple[str, int]]:
    value = node[key]
    if isinstance(value, str):
        value_list: list[Any] = [value]
        lines = [line_of(node, key)]
    elif isinstance(value, list):
        if len(value) > MAX_LIST:
            raise ScenarioError(where, line_of(node, key), f"{key} lists {len(value)} items; the limit is {MAX_LIST}")
        value_list = list(value)
        lines = [line_of(value, i, line_of(node, key)) for i in range(len(value))]
    else:
        raise ScenarioError(where, line_of(node, key), f"{key} must be a list of actions, e.g. [B@d2, nobuy]")
    out = []
    for item, line in zip(value_list, lines, strict=True):
        if not isinstance(item, str):
            raise ScenarioError(where, line, f"{key}: {_short(item)} is not an action (text such as e5xe9)")
        out.append((item.strip(), line))
    return out


def _check_notation(text: str, line: int, key: str, where: str) -> None:
    """Syntax of one action of ``play`` (dice on attacks) or of ``legal``/``illegal`` (no dice)."""
    try:
        move, dice = split_play(text)
    except ValueError as exc:
        raise ScenarioError(where, line, f"{key}: {exc}") from None
    syntax = parse_syntax(move)
    if syntax is None:
        raise ScenarioError(where, line, f"{key}: {_short(text)} is not Pole notation (X@cell, nobuy, from-to, "
                            "fromxto, fromx*, pass; cells lower case)")
    attack = syntax[0] == "attack"
    if key == "play":
        if attack and dice is None:
            raise ScenarioError(where, line, f"play: the attack {move} carries its dice, e.g. {move} 6:2 (section 11)")
        if not attack and dice is not None:
            raise ScenarioError(where, line, f"play: only an attack carries dice, not {move}")
    elif dice is not None:
        raise ScenarioError(where, line, f"{key}: attacks are written without dice here ({move}, section 11)")


def _cell(value: Any, line: int, key: str, where: str) -> int:
    c = parse_cell(value)
    if c is None:
        raise ScenarioError(where, line, f"{key}: {_short(value)} is not a cell (a1..j10, lower case)")
    return c


def _cell_sets(node: Mapping, key: str, where: str) -> dict[int, frozenset[int]]:
    value = node[key]
    if not isinstance(value, Mapping):
        raise ScenarioError(where, line_of(node, key), f"{key} must map cells to lists of cells, e.g. {{e5: [d5, e4]}}")
    out = {}
    for name, cells in value.items():
        line = line_of(value, name)
        c = _cell(name, line, key, where)
        out[c] = _cell_list(cells, line, f"{key} of {NAMES[c]}", where)
    return out


def _cell_list(cells: Any, line: int, what: str, where: str) -> frozenset[int]:
    if cells is None:
        return frozenset()
    if not isinstance(cells, list):
        raise ScenarioError(where, line, f"{what} must be a list of cells")
    got = set()
    for i, item in enumerate(cells):
        got.add(_cell(item, line_of(cells, i, line), what, where))
    return frozenset(got)


def _probability(value: Any, line: int, where: str) -> Fraction | float:
    if isinstance(value, bool):
        raise ScenarioError(where, line, "chance: a probability is written n/36 (or a number from 0 to 1)")
    if isinstance(value, (int, float)):
        if not 0 <= value <= 1:
            raise ScenarioError(where, line, f"chance: {value} is not a probability (0 to 1, or n/36)")
        return Fraction(value) if isinstance(value, int) else float(value)
    if isinstance(value, str):
        m = re.fullmatch(r"\s*(\d{1,6})\s*/\s*(\d{1,6})\s*", value)
        if m and int(m.group(2)) > 0 and int(m.group(1)) <= int(m.group(2)):
            return Fraction(int(m.group(1)), int(m.group(2)))
    raise ScenarioError(where, line, f"chance: {_short(value)} is not a probability; write n/36, e.g. 3/36")


def _parse_check(index: int, line: int, node: Any, where: str) -> PoleCheck:
    if not isinstance(node, Mapping):
        raise ScenarioError(where, line, f"check {index} must be a mapping (play, legal, pieces, ...)")
    for key in node:
        if key not in CHECK_KEYS:
            raise ScenarioError(where, line_of(node, key), f"unknown check key {_short(key)}; allowed: "
                                f"{', '.join(CHECK_KEYS)}")
    check = PoleCheck(index, line or line_of(node, next(iter(node), "")))
    if "note" in node:
        if not isinstance(node["note"], str):
            raise ScenarioError(where, line_of(node, "note"), "note must be text")
        check.note = node["note"]
    for key in ("play", "legal", "illegal"):
        if key in node:
            items = _texts(node, key, where)
            for text, ln in items:
                _check_notation(text, ln, key, where)
            setattr(check, key, items)
    if "legal_count" in node:
        v = node["legal_count"]
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise ScenarioError(where, line_of(node, "legal_count"), f"legal_count must be a whole number >= 0, got "
                                f"{_short(v)}")
        check.legal_count = v
    if "destinations" in node:
        check.destinations = _cell_sets(node, "destinations", where)
    if "targets" in node:
        check.targets = _cell_sets(node, "targets", where)
    if "placements" in node:
        value = node["placements"]
        if not isinstance(value, Mapping):
            raise ScenarioError(where, line_of(node, "placements"), "placements must map piece letters to lists of "
                                "cells, e.g. {I: [d3, e4]}")
        for k, cells in value.items():
            ln = line_of(value, k)
            if not isinstance(k, str) or len(k) != 1 or k.upper() not in LETTERS:
                raise ScenarioError(where, ln, f"placements: {_short(k)} is not a piece letter (B S T I A H C P)")
            check.placements[LETTERS.index(k.upper())] = _cell_list(cells, ln, f"placements of {k}", where)
    if "chance" in node:
        value = node["chance"]
        if not isinstance(value, Mapping):
            raise ScenarioError(where, line_of(node, "chance"), "chance must map attacks to probabilities, e.g. "
                                "{e5xe9: 3/36}")
        for k, prob in value.items():
            ln = line_of(value, k)
            syntax = parse_syntax(k) if isinstance(k, str) else None
            if syntax is None or syntax[0] != "attack":
                raise ScenarioError(where, ln, f"chance: {_short(k)} is not an attack written without dice (e5xe9)")
            check.chance.append((k, _probability(prob, ln, where), str(prob)))
    if "pieces" in node:
        value = node["pieces"]
        if not isinstance(value, Mapping):
            raise ScenarioError(where, line_of(node, "pieces"), "pieces must map cells to letters or null")
        check.pieces = {}
        for name, v in value.items():
            ln = line_of(value, name)
            c = _cell(name, ln, "pieces", where)
            if v is None:
                check.pieces[c] = 0
            else:
                code = parse_piece_letter(v)
                if code is None:
                    raise ScenarioError(where, ln, f"pieces: {NAMES[c]}: {_short(v)} is not a piece letter or null")
                check.pieces[c] = code
    if "coins" in node:
        value = node["coins"]
        if not isinstance(value, Mapping) or not value or not set(value) <= set(SIDES):
            raise ScenarioError(where, line_of(node, "coins"), "coins must name red and/or black, e.g. {red: 5}")
        for side, v in value.items():
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise ScenarioError(where, line_of(value, side), f"coins: {side} must be a whole number >= 0")
            check.coins[SIDES.index(side)] = v
    _expect(check, node, where)
    if "state" in node:
        if not isinstance(node["state"], Mapping):
            raise ScenarioError(where, line_of(node, "state"), "state must be a position mapping")
        check.state = node["state"]
        check.state_line = line_of(node, "state")
    return check


def _expect(check: PoleCheck, node: Mapping, where: str) -> None:
    choices = {"to_move": SIDES, "phase": PHASES, "winner": SIDES + (None,), "victory": VICTORIES + (None,)}
    for key, allowed in choices.items():
        if key in node:
            if node[key] not in allowed:
                words = " | ".join("null" if a is None else a for a in allowed)
                raise ScenarioError(where, line_of(node, key), f"{key} must be {words}, got {_short(node[key])}")
            check.expect[key] = node[key]
    for key, low in (("turn", 1), ("quiet", 0), ("bought", 0)):
        if key in node:
            v = node[key]
            if not isinstance(v, int) or isinstance(v, bool) or v < low:
                raise ScenarioError(where, line_of(node, key), f"{key} must be a whole number >= {low}, got {_short(v)}")
            check.expect[key] = v
    if "removed" in node:
        if not isinstance(node["removed"], bool):
            raise ScenarioError(where, line_of(node, "removed"), "removed must be true or false")
        check.expect["removed"] = node["removed"]
    if "fresh" in node:
        check.expect["fresh"] = _cell_list(node["fresh"], line_of(node, "fresh"), "fresh", where)


# --------------------------------------------------------------------------- judging
def _cells_text(cells: Any) -> str:
    return "[" + ", ".join(NAMES[c] for c in sorted(cells)) + "]"


def _set_diff(label: str, want: frozenset[int], got: frozenset[int]) -> str | None:
    if want == got:
        return None
    parts = []
    if want - got:
        parts.append("missing " + _cells_text(want - got))
    if got - want:
        parts.append("extra " + _cells_text(got - want))
    return f"{label}: expected {_cells_text(want)}, found {_cells_text(got)} (" + ", ".join(parts) + ")"


def _chance_of(state: PoleState, text: str) -> tuple[Fraction | None, str]:
    """The probability that the attack ``text`` removes its target now, or (None, why not) (P37)."""
    syntax = parse_syntax(text)
    assert syntax is not None
    _, a, b = syntax
    if state.cfg.attack_all:
        try:
            action = state.string_to_action(f"{NAMES[a]}x*")
        except IllegalAction as exc:
            return None, str(exc)
        if b < 0:
            return Fraction(round(state.attack_chance(action) * 36), 36), ""
        if b not in state.zone_targets(a):
            return None, f"{text}: {NAMES[b]} is not among the targets of {NAMES[a]}x*"
        return Fraction(state.success_count(a, b), 36), ""
    try:
        action = state.string_to_action(text)
    except IllegalAction as exc:
        return None, str(exc)
    assert ATT0 <= action < ALL0
    return Fraction(state.success_count(a, b), 36), ""


def _fraction_text(value: Fraction | float) -> str:
    if isinstance(value, Fraction):
        return f"{value.numerator * 36 // value.denominator}/36" if (value * 36).denominator == 1 else str(value)
    return f"{value:g}"


def run_check(check: PoleCheck, state: PoleState) -> CheckResult:
    """Judge one check on ``state`` (consumed: pass a fresh copy)."""
    for i, (text, line) in enumerate(check.play, start=1):
        try:
            apply_text(state, text)
        except IllegalAction as exc:
            reason = str(exc)
            return CheckResult(check.index, line, ERROR_STATUS,
                               f"line {line}: check {check.index}: play step {i}: {reason}")
    diffs: list[str] = []
    for text, _line in check.legal:
        try:
            state.string_to_action(text)
        except IllegalAction as exc:
            reason = str(exc)
            reason = reason[len(text) + 2:] if reason.startswith(text + ": ") else reason
            diffs.append(f"{text} should be legal but is not ({reason})")
    for text, _line in check.illegal:
        try:
            state.string_to_action(text)
        except IllegalAction:
            continue
        diffs.append(f"{text} should be illegal but is legal")
    if check.legal_count is not None:
        n = len(state.legal_actions())
        if n != check.legal_count:
            diffs.append(f"legal_count: expected {check.legal_count}, found {n}")
    for c, want in check.destinations.items():
        d = _set_diff(f"destinations of {NAMES[c]}", want, frozenset(state.destinations(c)))
        if d:
            diffs.append(d)
    for c, want in check.targets.items():
        d = _set_diff(f"targets of {NAMES[c]}", want, frozenset(state.targets(c)))
        if d:
            diffs.append(d)
    for kind, want in check.placements.items():
        d = _set_diff(f"placements of {LETTERS[kind]}", want, frozenset(state.placements(kind)))
        if d:
            diffs.append(d)
    for text, want, raw in check.chance:
        got, why = _chance_of(state, text)
        if got is None:
            diffs.append(f"chance of {text}: not an attack of a current target ({why}) (P37)")
        elif (isinstance(want, Fraction) and got != want) or (isinstance(want, float) and abs(float(got) - want) > 1e-9):
            diffs.append(f"chance of {text}: expected {raw}, found {_fraction_text(got)}")
    if check.pieces is not None:
        for c, want_code in check.pieces.items():
            got_code = state.board[c]
            if got_code != want_code:
                w = letter(want_code) if want_code else "empty"
                g = letter(got_code) if got_code else "empty"
                diffs.append(f"{NAMES[c]}: expected {w}, found {g}")
    for side, want_coins in check.coins.items():
        if state.coins[side] != want_coins:
            diffs.append(f"coins of {SIDES[side]}: expected {want_coins}, found {state.coins[side]}")
    got_fields = {
        "to_move": SIDES[state.to_move], "phase": state.phase_name(),
        "winner": SIDES[state.winner_side] if state.winner_side is not None else None,
        "victory": state.victory_kind, "turn": state.turn_no, "quiet": state.quiet, "bought": state.bought,
        "removed": state.removed, "fresh": frozenset(state.fresh_cells()),
    }
    for key, want in check.expect.items():
        got = got_fields[key]
        if got != want:
            if key == "fresh":
                diffs.append(_set_diff("fresh", want, got) or "fresh differs")
            else:
                diffs.append(f"{key}: expected {_yaml_word(want)}, found {_yaml_word(got)}")
    if check.state is not None:
        try:
            expected = position_dict(build_state(check.state, state.cfg))
        except PositionError as exc:
            return CheckResult(check.index, check.state_line, ERROR_STATUS,
                               f"line {check.state_line}: {check.describe()}: state: {exc.reason}")
        got_pos = position_dict(state)
        for key in POSITION_KEYS:
            if expected.get(key) != got_pos.get(key):
                diffs.append(f"state {key}: expected {_emit(expected.get(key))}, found {_emit(got_pos.get(key))}")
    if diffs:
        note = f" (note: {check.note})" if check.note else ""
        return CheckResult(check.index, check.line, FAIL_STATUS, f"{check.describe()}: " + "; ".join(diffs) + note)
    return CheckResult(check.index, check.line, PASS_STATUS, "")


def _yaml_word(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


# --------------------------------------------------------------------------- writing
_PLAIN = re.compile(r"^[A-Za-z_][A-Za-z0-9_@.-]*$")
_RESERVED = {"null", "true", "false", "yes", "no", "on", "off", "y", "n", "~"}


def _emit(value: Any) -> str:
    """``value`` as flow-style YAML that PyYAML reads back to the same value."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        if _PLAIN.match(value) and value.lower() not in _RESERVED:
            return value
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{_emit(str(k))}: {_emit(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple, set, frozenset)):
        items = sorted(value) if isinstance(value, (set, frozenset)) else value
        return "[" + ", ".join(_emit(v) for v in items) + "]"
    raise TypeError(f"cannot write {type(value).__name__} in a scenario")


def dump_scenario(state: PoleState, sid: str, title: str, checks: Sequence[Mapping[str, Any]] = ()) -> str:
    """``state`` as a scenario file (``game: pole``); loading it gives the same position and legal actions.

    A chance node has no position of its own (the contract knows attacks with their dice): the file
    holds the position in which the pending attack was chosen.
    """
    rules = {k: v for k, v in state.cfg.rules.non_default().items() if k != "start"}
    lines = [f"id: {_emit(sid)}", "game: pole", f"title: {_emit(title)}"]
    if rules:
        lines.append(f"rules: {_emit(rules)}")
    lines.append("position:")
    for key, value in position_dict(state).items():
        lines.append(f"  {key}: {_emit(value)}")
    if checks:
        lines.append("checks:")
        for check in checks:
            lines.append(f"  - {_emit(dict(check))}")
    return "\n".join(lines) + "\n"


__all__ = ["PoleScenario", "PoleCheck", "parse_scenario", "run_check", "dump_scenario", "parse_dice"]
