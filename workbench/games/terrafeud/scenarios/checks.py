"""The expectations of a scenario (``checks:``) and how one is judged against the engine.

A check starts from the scenario's position, plays its ``play`` actions (each must be legal),
and then compares every expectation it names with the resulting state. ``legal``, ``illegal`` and
``destinations`` are judged on that same state, so with no ``play`` they speak of the position
itself and after a ``play`` they speak of the position reached (ruling 4's "the new piece acts
from its side's next turn" needs exactly that). Every comparison goes through the engine's API;
nothing here re-derives a rule.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from workbench.core.scenario import ERROR_STATUS, FAIL_STATUS, PASS_STATUS, CheckResult
from workbench.games.terrafeud.engine import GameState, IllegalActionError
from workbench.games.terrafeud.engine.geometry import hex_name
from workbench.games.terrafeud.engine.pieces import SIDE_NAMES, letter

__all__ = ["ERROR_STATUS", "FAIL_STATUS", "PASS_STATUS", "Check", "CheckResult", "describe_check", "play_actions",
           "run_check"]


@dataclass
class Check:
    """One parsed entry of ``checks:``. Lines are 1-based lines of the scenario file."""

    index: int
    line: int
    play: list[tuple[str, int]] = field(default_factory=list)
    legal: list[tuple[str, int]] = field(default_factory=list)
    illegal: list[tuple[str, int]] = field(default_factory=list)
    destinations: dict[int, tuple[frozenset[int], int]] = field(default_factory=dict)
    # hex -> expected piece code (0 for empty)
    pieces: dict[int, int] | None = None
    # archer hex -> marked hex, both sides together
    markers: dict[int, int] | None = None
    # only the expectations the file names: to_move (side index), winner (side or None), victory
    expect: dict[str, Any] = field(default_factory=dict)
    note: str | None = None

    def describe(self) -> str:
        """Short label for reports: ``check 2 (line 14)``."""
        return f"check {self.index} (line {self.line})"


def _name(code: int) -> str:
    return letter(code) if code else "empty"


def _hexes(hs: Any) -> str:
    return "{" + ", ".join(hex_name(h) for h in sorted(hs)) + "}"


def _markers_text(m: dict[int, int]) -> str:
    return "{" + ", ".join(f"{hex_name(a)}: {hex_name(t)}" for a, t in sorted(m.items())) + "}"


def play_actions(check: Check, state: GameState, keep_states: bool = True) -> tuple[list[GameState], CheckResult | None]:
    """Apply the check's ``play`` actions to ``state`` in place.

    Returns the states before and after each action (copies, with their undo history, so a
    viewer can step and undo; only with ``keep_states``) and, when an action is not legal, an
    error result naming the action, its line and the engine's reason. Without ``keep_states``
    (``check``) time and memory are linear in the number of actions: a copy after every ply
    copies the whole undo stack (2,000 actions took 42 s and 3.2 GB).
    """
    states = [state.clone()] if keep_states else []
    for i, (text, line) in enumerate(check.play, start=1):
        try:
            state.apply(state.parse_action(text))
        except IllegalActionError as exc:
            reason = str(exc)
            if not reason.startswith(text):
                reason = f"{text}: {reason}"
            return states, CheckResult(
                check.index, line, ERROR_STATUS, f"line {line}: check {check.index}: play step {i}: {reason}"
            )
        if keep_states:
            states.append(state.clone())
    return states, None


def run_check(check: Check, state: GameState) -> CheckResult:
    """Judge one check on ``state`` (which it consumes: pass a fresh state)."""
    _, error = play_actions(check, state, keep_states=False)
    if error is not None:
        return error
    diffs: list[str] = []
    legal = set(state.legal_actions())
    for text, _line in check.legal:
        try:
            state.parse_action(text)
        except IllegalActionError as exc:
            diffs.append(f"{text} should be legal but is not ({_strip(str(exc), text)})")
    for text, _line in check.illegal:
        try:
            action = state.parse_action(text)
        except IllegalActionError:
            continue
        if action in legal:
            diffs.append(f"{text} should be illegal but is legal")
    for h, (want, _line) in check.destinations.items():
        got = frozenset(state.destinations(h))
        if got != want:
            parts = []
            if want - got:
                parts.append("missing " + _hexes(want - got))
            if got - want:
                parts.append("extra " + _hexes(got - want))
            diffs.append(f"destinations of {hex_name(h)}: " + ", ".join(parts))
    if check.pieces is not None:
        for h, want in check.pieces.items():
            got = state.squares[h]
            if got != want:
                diffs.append(f"{hex_name(h)}: expected {_name(want)}, found {_name(got)}")
    if check.markers is not None:
        got_m = {**state.markers[0], **state.markers[1]}
        if got_m != check.markers:
            diffs.append(f"markers: expected {_markers_text(check.markers)}, found {_markers_text(got_m)}")
    if "to_move" in check.expect and state.to_move != check.expect["to_move"]:
        diffs.append(f"to_move: expected {SIDE_NAMES[check.expect['to_move']]}, found {SIDE_NAMES[state.to_move]}")
    if "winner" in check.expect and state.winner != check.expect["winner"]:
        want_w = check.expect["winner"]
        diffs.append(
            f"winner: expected {'null' if want_w is None else SIDE_NAMES[want_w]}, found {state.winner_name() or 'null'}"
        )
    if "victory" in check.expect and state.victory != check.expect["victory"]:
        diffs.append(f"victory: expected {check.expect['victory'] or 'null'}, found {state.victory or 'null'}")
    if diffs:
        return CheckResult(check.index, check.line, FAIL_STATUS, f"{check.describe()}: " + "; ".join(diffs))
    return CheckResult(check.index, check.line, PASS_STATUS, "")


def _strip(reason: str, text: str) -> str:
    """The engine prefixes reasons with the action text; drop it where we already wrote it."""
    prefix = f"{text}: "
    return reason[len(prefix):] if reason.startswith(prefix) else reason


def describe_check(check: Check, result: CheckResult | None) -> dict[str, Any]:
    """One check in words for a reader (notebook 02, a panel): what it asserts, and whether it passes; a check that
    asserts nothing is ``empty``, never a pass."""
    parts = []
    if check.note:
        parts.append(str(check.note))
    if check.play:
        parts.append("after " + " ".join(t for t, _ in check.play))
    if check.legal:
        parts.append("legal: " + ", ".join(t for t, _ in check.legal))
    if check.illegal:
        parts.append("illegal: " + ", ".join(t for t, _ in check.illegal))
    for h, (dests, _line) in check.destinations.items():
        parts.append(f"{hex_name(h)} reaches exactly " + (", ".join(sorted(hex_name(d) for d in dests)) or "nothing"))
    if check.pieces is not None:
        parts.append("pieces: " + ", ".join(f"{hex_name(h)} {letter(c) if c else 'empty'}" for h, c in check.pieces.items()))
    if check.markers is not None:
        parts.append("markers: " + (", ".join(f"{hex_name(a)}>{hex_name(t)}" for a, t in check.markers.items()) or "none"))
    for k, v in check.expect.items():
        if k in ("to_move", "winner"):
            v = SIDE_NAMES[v] if isinstance(v, int) else (v or "none")
        parts.append(f"{k}: {v}")
    if not parts or (check.note and len(parts) == 1):
        return {"index": check.index, "line": check.line, "status": "empty",
                "asserts": (str(check.note) + ": " if check.note else "") + "asserts nothing yet",
                "message": "add legal/illegal actions, or play and expect, to make this a check"}
    message = str(result.message) if result and not result.ok else ""
    return {"index": check.index, "line": check.line, "status": result.status if result else "not run",
            "asserts": "; ".join(parts) or "the position loads",
            "message": message if len(message) <= 300 else message[:299] + "…"}
