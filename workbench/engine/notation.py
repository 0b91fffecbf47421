"""Action notation (SCENARIO-FORMAT.md) and the reasons an action is illegal, in the rule's words.

``parse_action`` reads text into an action tuple and checks it against the legal actions;
anything illegal raises ``IllegalActionError`` whose message starts with the action text and
names the rule (``e7xe8: an infantryman alone may only attack an archer or an infantryman``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .geometry import ADJACENT, BETWEEN, CAVALRY_PATHS, DISTANCE, HEX_BY_NAME, RAYS, hex_name
from .pieces import (
    ARCHER,
    CAVALRY,
    FEUDAL,
    INFANTRY,
    KIND_BY_LETTER,
    KIND_NAMES,
    KNIGHT,
    LETTERS,
    PIKEMAN,
    SIDE_NAMES,
)
from .state import (
    CASTLE,
    MOVE,
    ORDER,
    PASS,
    PASS_ACTION,
    SHOT,
    Action,
    IllegalActionError,
    action_shape_error,
    order_steps,
)

if TYPE_CHECKING:
    from .state import GameState

_HEX = r"([a-z][0-9]{1,2})"
_STEP = re.compile(rf"^{_HEX}([-x]){_HEX}(?:=([fkpcaiFKPCAI]))?$")
_SHOT = re.compile(rf"^{_HEX}\*{_HEX}$")
_CASTLE = re.compile(rf"^{_HEX}<>{_HEX}$")


class NotationError(ValueError):
    """Text that is not action notation at all."""


def _hex(name: str, text: str) -> int:
    h = HEX_BY_NAME.get(name)
    if h is None:
        raise NotationError(f"{text}: unknown hex {name!r}")
    return h


def _step(text: str, whole: str) -> tuple[int, int, int]:
    m = _STEP.match(text)
    if not m:
        raise NotationError(
            f"{whole}: cannot read {text!r}; expected from-to, fromxto, optionally =X (e.g. e3-e4, f3xf7, e9-e10=A)"
        )
    a, _, t, promo = m.groups()
    return _hex(a, whole), _hex(t, whole), KIND_BY_LETTER[promo.upper()] if promo else 0


def read_action(text: str) -> Action:
    """Action tuple of a notation text, without checking legality."""
    raw = " ".join(str(text).split())
    low = raw.lower() if not re.search(r"=[A-Z]", raw) else raw
    if low.lower() == "pass":
        return PASS_ACTION
    if low.lower().startswith("order "):
        parts = low.split()[1:]
        if not 1 <= len(parts) <= 3:
            raise NotationError(
                f"{raw[:60]}: an Order names its steps, two by the rulebook (order e3-e4 g3xg4; 1..3 with order_size)"
            )
        out: list[int] = [ORDER]
        for part in parts:
            out.extend(_step(_lower_hexes(part), raw))
        return tuple(out)
    low = _lower_hexes(low)
    m = _SHOT.match(low)
    if m:
        return (SHOT, _hex(m.group(1), raw), _hex(m.group(2), raw))
    m = _CASTLE.match(low)
    if m:
        return (CASTLE, _hex(m.group(1), raw), _hex(m.group(2), raw))
    a, t, p = _step(low, raw)
    return (MOVE, a, t, p)


def _lower_hexes(text: str) -> str:
    """Lower-case everything except a promotion letter (read in either case anyway)."""
    if "=" in text:
        head, tail = text.rsplit("=", 1)
        return head.lower() + "=" + tail
    return text.lower()


def _step_text(state: GameState, a: int, t: int, promo: int, side: int) -> str:
    c = state.squares[t]
    sep = "x" if c and c >> 3 != side else "-"
    suffix = ""
    if promo:
        ch = LETTERS[promo]
        suffix = "=" + (ch if side == 0 else ch.lower())
    return f"{hex_name(a)}{sep}{hex_name(t)}{suffix}"


def format_action(state: GameState, action: Action) -> str:
    """Notation of an action in ``state`` (``x`` when the final hex holds an enemy).

    A tuple that is not an action at all (``(0, -1, 5, 0)``) raises ``IllegalActionError`` instead of
    being written through Python's negative indexing as ``l6xa6``.
    """
    shape = action_shape_error(action)
    if shape is not None:
        raise IllegalActionError(f"{_short(action)}: not an action: {shape}")
    kind = action[0]
    side = state.to_move
    if kind == PASS:
        return "pass"
    if kind == SHOT:
        return f"{hex_name(action[1])}*{hex_name(action[2])}"
    if kind == CASTLE:
        return f"{hex_name(action[1])}<>{hex_name(action[2])}"
    if kind == MOVE:
        return _step_text(state, action[1], action[2], action[3], side)
    # Each step is written as it looks after the ones before (it may take a hex just left).
    sq = state.squares
    texts: list[str] = []
    undo: list[tuple[int, int, int, int]] = []
    try:
        for a, t, promo in order_steps(action):
            texts.append(_step_text(state, a, t, promo, side))
            undo.append((a, t, sq[a], sq[t]))
            sq[t], sq[a] = sq[a], 0
    finally:
        for a, t, ca, ct in reversed(undo):
            sq[a], sq[t] = ca, ct
    return "order " + " ".join(texts)


def parse_action(state: GameState, text: str) -> Action:
    """Read notation and return the legal action it names; explain the rule when it is not legal."""
    try:
        action = read_action(text)
    except NotationError as exc:
        raise IllegalActionError(str(exc)) from None
    legal = state.legal_actions()
    if action in legal:
        return action
    raise IllegalActionError(explain_illegal(state, action, text=" ".join(str(text).split())))


def explain_illegal(state: GameState, action: Action, text: str | None = None) -> str:
    """Why ``action`` is not legal in ``state``, prefixed by its text."""
    shape = action_shape_error(action)
    if shape is not None:
        return f"{_short(action)}: not an action: {shape}"
    if text is None:
        try:
            text = format_action(state, action)
        except (IndexError, KeyError, TypeError):
            text = repr(action)
    return f"{text}: {_reason(state, action)}"


def _short(v: object) -> str:
    text = repr(v)
    return text if len(text) <= 60 else text[:57] + "..."


def _reason(state: GameState, action: Action) -> str:  # noqa: C901 - one branch per rule
    sq = state.squares
    s = state.to_move
    side = SIDE_NAMES[s].capitalize()
    if state.victory is not None:
        return f"the game is over ({state.winner_name() or 'nobody'} won by {state.victory})"
    legal = state.legal_actions()
    kind = action[0]
    if kind == PASS:
        return "passing is allowed only when no other action is legal (W16)"
    origin = action[1]
    c = sq[origin]
    if not c:
        return f"no piece on {hex_name(origin)}"
    if c >> 3 != s:
        return f"the piece on {hex_name(origin)} is {SIDE_NAMES[c >> 3]}'s; {side} is to move"
    k = c & 7
    name = KIND_NAMES[k]
    bd = state.board
    if kind == SHOT:
        t = action[2]
        if k != ARCHER:
            return f"only an archer shoots; {hex_name(origin)} holds a {name}"
        if bd.is_summer_ford[origin]:
            return "an archer cannot shoot from a ford in summer (W8)"
        rng = bd.archer_range
        bonus = state.rules.hill_bonus
        reach = rng + bonus if bd.is_hill[origin] else rng
        d = DISTANCE[origin][t]
        if d == 1:
            return f"point-blank shooting is not allowed: the target must be {rng} hexes away (W8)"
        if d > reach or d < rng:
            hill = f"{rng}..{rng + bonus} from a hill" if bonus else "the same from a hill"
            extra = f" ({hill})" if not bd.is_hill[origin] else f" ({rng}..{reach} from this hill)"
            return f"the target is {d} hexes away; an archer shoots exactly {rng}{extra} (W8)"
        if sq[t] and sq[t] >> 3 == s:
            return "a marker cannot be placed on your own piece (W8)"
        if state.markers[s].get(origin) == t:
            return "the archer's marker is already on that hex; re-marking it is not an action (W8)"
        blockers = [b for b in BETWEEN[(origin, t)] if sq[b]]
        if blockers:
            return f"the line of shot is blocked by the piece on {hex_name(blockers[0])} (ruling 3)"
        return "not a legal shot"
    if kind == CASTLE:
        i = action[2]
        if k != FEUDAL:
            return f"only the feudal castles; {hex_name(origin)} holds a {name}"
        uses = bd.castling_uses
        if uses == 0:
            return "castling is switched off (castling_uses=0)"
        if state.castled[s] >= uses:
            times = "once" if uses == 1 else f"{uses} times"
            return f"castling is allowed {times} per game and has been used (W11)"
        if i not in ADJACENT[origin] or sq[i] != (INFANTRY | (s << 3)):
            return "the feudal castles only with an adjacent own infantryman (W11)"
        return "kings' rule: a feudal may never end adjacent to the enemy feudal (W9)"
    if kind == ORDER:
        size, radius = bd.order_size, bd.order_radius
        if size == 0:
            return "Orders are switched off (order_size=0)"
        steps = order_steps(action)
        if len(steps) != size:
            return f"an Order moves exactly {size} infantrymen (W12, order_size={size}); this one names {len(steps)}"
        origins = [a for a, _, _ in steps]
        if k != INFANTRY or any(sq[a] != c for a in origins):
            return f"an Order moves {size} of your own infantrymen (W12)"
        f = state.feudal[s]
        if any(f < 0 or DISTANCE[f][a] > radius for a in origins):
            return f"an Order commands only infantrymen within {radius} hexes of the feudal (W12)"
        if len(set(origins)) != len(origins):
            return "an Order moves different infantrymen (W12)"
        if any(p for _, _, p in steps):
            return _promotion_reason(state, action)
        return "each ordered infantryman makes exactly one 1-hex step onto a free hex or an enemy (W12)"
    # MOVE
    t = action[2]
    target = sq[t]
    if t == origin:
        return "a piece must move"
    if target and target >> 3 == s:
        return f"{hex_name(t)} holds your own piece"
    if action[3] and not state.rules.promotion:
        return "promotion is switched off (promotion=false)"
    if action[3] and (k != INFANTRY or not bd.promotes[s][t]):
        return "only an infantryman entering the enemy castle zone (not its centre) promotes (W13)"
    promos = [a for a in legal if a[0] == MOVE and a[1] == origin and a[2] == t]
    if promos:
        return _promotion_reason(state, action)
    if not bd.walkable[t] and k != CAVALRY:
        return "the river without a crossing is impassable in summer"
    if k == FEUDAL:
        if DISTANCE[origin][t] != 1:
            return "a feudal steps 1 hex"
        if target and target & 7 == FEUDAL:
            return "feudals do not strike each other (W9)"
        return "kings' rule: a feudal may never end adjacent to the enemy feudal (W9)"
    if k == PIKEMAN:
        return "a pikeman moves exactly 1 hex in a straight line"
    if k == ARCHER:
        if DISTANCE[origin][t] != 1:
            return "an archer moves 1 hex"
        return "an archer moves only onto a free hex: it never attacks by moving (W8)"
    if k == INFANTRY:
        d = DISTANCE[origin][t]
        if target and d <= 2 and target & 7 not in (ARCHER, INFANTRY):
            if target & 7 in (KNIGHT, CAVALRY):
                return (
                    "an infantryman alone may only attack an archer or an infantryman "
                    "(a knight or cavalry only inside its own side's pikeman zone) (W6)"
                )
            return "an infantryman alone may only attack an archer or an infantryman (W6)"
        if 2 <= d <= bd.aura_step:
            memory = " now and at the end of its last turn" if bd.aura_memory else ""
            return (
                f"an infantryman moves up to {bd.aura_step} hexes only in a straight line with the feudal's aura, "
                f"within {bd.aura_radius} hexes of its feudal{memory}, the hexes between free "
                "and no forced stop on them (W5)"
            )
        return "an infantryman moves 1 hex (2 with the feudal's aura)"
    if k == KNIGHT:
        if not bd.knight_walkable[t]:
            return "the knight cannot enter a ford in summer (ruling 1)"
        if bd.knight_bridge[t]:
            return "the knight never stops on a bridge: it stops on the next hex (section 2)"
        reached = {x for x, _ in state._knight_targets(origin, s, state.zone(1 - s), state.marked_by(1 - s))}
        if any(t in ray for ray in RAYS[origin]):
            stops = sorted(reached)
            return (
                "the knight's slide stops earlier (own piece, first enemy, enemy pikeman zone, enemy "
                "swamp, summer ford, a mine or the hex after a bridge; W2/W3); it can reach "
                + (", ".join(hex_name(x) for x in stops) or "nothing")
            )
        return "the knight moves in a straight line along one of the 6 axes (W3)"
    if k == CAVALRY:
        finals = state._cavalry_targets(origin, s, state.zone(1 - s))
        lands = {land for land, _ in CAVALRY_PATHS[origin]}
        if t in lands and t not in finals:
            if not bd.walkable[t]:
                return "cavalry may not land on ordinary river in summer (W4)"
            return (
                "the gallop is stopped earlier by an enemy pikeman zone or enemy swamp on its path (W2/W4); "
                "it can reach " + ", ".join(hex_name(x) for x in sorted(finals))
            )
        return "cavalry gallops 2+1 (L) or charges 2 straight; it cannot end there (W4)"
    return "not a legal action"


def _promotion_reason(state: GameState, action: Action) -> str:
    s = state.to_move
    pool = sorted({LETTERS[k] for k in state.destroyed[s] if k != FEUDAL})
    if not pool:
        return "promotion needs a destroyed piece of your own to come back, and none is destroyed (W13)"
    return (
        "an infantryman entering the enemy castle zone must promote to one of its side's destroyed pieces: "
        + ", ".join(pool if s == 0 else [p.lower() for p in pool])
        + " (W13)"
    )


__all__ = ["NotationError", "explain_illegal", "format_action", "parse_action", "read_action"]
