"""Action notation (SCENARIO-FORMAT.md) and the reasons an action is illegal, in the rule's words.

``parse_action`` reads text into an action tuple and checks it against the legal actions;
anything illegal raises ``IllegalActionError`` whose message starts with the action text and
names the rule (``e7xe8: an infantryman alone may only attack an archer or an infantryman``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .geometry import ADJACENT, BETWEEN, CAVALRY_PATHS, DISTANCE, HEX_BY_NAME, PIKE_ZONE, RAYS, hex_name
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
    """Why ``action`` is not legal in ``state``, prefixed by its text: the first condition that fails."""
    return illegal_detail(state, action, text)["text"]


def illegal_detail(state: GameState, action: Action, text: str | None = None) -> dict:
    """``explain_illegal`` with what a board draws: ``blocks`` (the hexes or zone that stop it) and ``path``.

    The conditions are tried in the order a player checks them (whose piece, how it moves, what is
    in the way, the hex itself); the first that fails is the reason, so one rule is named, with the
    hex that blocks (a slide's first stop, the pikeman whose zone it is, the enemy swamp).
    """
    shape = action_shape_error(action)
    if shape is not None:
        return {"text": f"{_short(action)}: not an action: {shape}", "blocks": [], "path": [], "zone": []}
    if text is None:
        try:
            text = format_action(state, action)
        except (IndexError, KeyError, TypeError):
            text = repr(action)
    if state.victory is None and action in state.legal_actions():
        return {"text": f"{text} is legal", "blocks": [], "path": [], "zone": []}
    why = _reason(state, action)
    if isinstance(why, str):
        why = _Why(why)
    return {"text": f"{text}: {why.text}", "blocks": list(why.blocks), "path": list(why.path), "zone": list(why.zone)}


class _Why:
    """A reason with the hexes to draw: ``blocks`` stop the action, ``path`` is the way it tried, ``zone`` a zone."""

    __slots__ = ("blocks", "path", "text", "zone")

    def __init__(self, text: str, blocks: tuple[int, ...] | list[int] = (), path: tuple[int, ...] | list[int] = (),
                 zone: tuple[int, ...] | list[int] = ()) -> None:
        self.text, self.blocks, self.path, self.zone = text, tuple(blocks), tuple(path), tuple(zone)


def _zone_owner(state: GameState, h: int, side: int) -> int | None:
    """The hex of a pikeman of ``side`` whose zone (W2) holds ``h`` (the lowest, for a stable answer)."""
    pike = PIKEMAN | (side << 3)
    owners = [p for p in PIKE_ZONE[h] if state.squares[p] == pike]
    return min(owners) if owners else None


def _knight_reason(state: GameState, origin: int, t: int, s: int) -> _Why | None:
    """The first hex on the knight's line to ``t`` that ends the slide before it (W2, W3, section 2)."""
    ray = next((r for r in RAYS[origin] if t in r), None)
    if ray is None:
        return None
    sq = state.squares
    bd = state.board
    e = 1 - s
    enemy = SIDE_NAMES[e]
    zone = state.zone(e)
    mines = state.marked_by(e)
    idx = ray.index(t)
    path = (origin, *ray[: idx + 1])
    head = "the knight's slide stops earlier"
    for i, n in enumerate(ray[:idx]):
        c = sq[n]
        here = hex_name(n)
        if c and c >> 3 == s:
            return _Why(f"{head}: your own {KIND_NAMES[c & 7]} on {here} blocks the line (W3)", [n], path)
        if bd.knight_bridge[n]:
            if n in mines:
                return _Why(f"{head}: the enemy marker on the bridge {here} is a mine that ends it there (W2)", [n], path)
            stop = ray[i + 1]
            return _Why(f"{head}, on {hex_name(stop)}: the knight never stops on the bridge {here} and halts on the "
                        "hex after it (section 2)", [n, stop], path)
        if not bd.knight_walkable[n]:
            what = "the ford" if bd.is_summer_ford[n] else "the river"
            return _Why(f"{head}: {what} {here} cannot be entered by a knight in summer (ruling 1)", [n], path)
        if c:
            return _Why(f"{head}, on {here}: the first enemy on the line, the {enemy} {KIND_NAMES[c & 7]}, ends it (W3)",
                        [n], path)
        if n in zone:
            p = _zone_owner(state, n, e)
            return _Why(f"{head}, on {here}: it is in the zone of the {enemy} pikeman on {hex_name(p)} (W2)",
                        [n] + ([p] if p is not None else []), path, PIKE_ZONE[p] if p is not None else ())
        if bd.swamp_owner[n] == e:
            return _Why(f"{head}, on {here}: {enemy}'s swamp stops every slide (W2)", [n], path)
        if bd.stop_for[s][n]:
            return _Why(f"{head}, on {here}: a slide stops on a ford (W2)", [n], path)
        if n in mines:
            return _Why(f"{head}, on {here}: the enemy marker there is a mine (W2)", [n], path)
    return None


def _cavalry_reason(state: GameState, origin: int, t: int, s: int) -> _Why | None:
    """The gallop or charge that lands on ``t``, and the first hex on it that stops the cavalry (W2, W4)."""
    routes = [inter for land, inter in CAVALRY_PATHS[origin] if land == t]
    if not routes:
        return None
    sq = state.squares
    bd = state.board
    e = 1 - s
    enemy = SIDE_NAMES[e]
    zone = state.zone(e)
    exact_pike = sq[t] == (PIKEMAN | (e << 3))
    first: _Why | None = None
    for inter in routes:
        path = (origin, *inter, t)
        why = None
        for i in inter:
            if bd.cavalry_stop_for[s][i]:
                why = _Why(f"the gallop stops on {hex_name(i)}: {enemy}'s swamp stops cavalry on its path (W4)", [i], path)
                break
            if i in zone and not exact_pike:
                p = _zone_owner(state, i, e)
                why = _Why(f"the gallop stops on {hex_name(i)}: it is in the zone of the {enemy} pikeman on "
                           f"{hex_name(p)} (W2, W4)", [i] + ([p] if p is not None else []), path,
                           PIKE_ZONE[p] if p is not None else ())
                break
        if why is None:
            if not bd.walkable[t]:
                return _Why("cavalry may not land on ordinary river in summer (W4)", [t], path)
            return None  # this route is open: some other condition fails
        first = first or why
    return first


def _infantry_reason(state: GameState, origin: int, t: int, s: int) -> _Why | str:
    """An infantryman's step (W1, W6) or aura move (W5): distance first, then the aura, then the way, then the hex."""
    sq = state.squares
    bd = state.board
    target = sq[t]
    d = DISTANCE[origin][t]
    one = f"an infantryman moves 1 hex ({bd.aura_step} in a straight line with the feudal's aura, W5)"
    if d > max(1, bd.aura_step):
        return one
    if target and target & 7 not in (ARCHER, INFANTRY) and (d == 1 or any(t in r for r in RAYS[origin])):
        if target & 7 in (KNIGHT, CAVALRY):
            return _Why(
                "an infantryman alone may only attack an archer or an infantryman "
                "(a knight or cavalry only inside its own side's pikeman zone) (W6)", [t])
        return _Why("an infantryman alone may only attack an archer or an infantryman (W6)", [t])
    if d == 1:
        if not bd.walkable[t]:
            return _Why("the river without a crossing is impassable in summer", [t])
        return one
    ray = next((r for r in RAYS[origin] if t in r), None)
    if ray is None or bd.aura_step < 2:
        return one
    f = state.feudal[s]
    radius = bd.aura_radius
    if f < 0:
        return "a move of more than 1 hex needs the feudal's aura, and the feudal is gone (W5)"
    if DISTANCE[origin][f] > radius:
        return _Why(f"a move of more than 1 hex needs the feudal's aura: the feudal on {hex_name(f)} is "
                    f"{DISTANCE[origin][f]} hexes away, more than {radius} (W5)", [f], (origin, f))
    if bd.aura_memory and origin not in state.aura_ready:
        return _Why(f"the feudal's aura counts only for an infantryman that was within {radius} hexes of it at the end "
                    "of its side's last turn too (W5, aura_memory)", [f])
    idx = ray.index(t)
    path = (origin, *ray[: idx + 1])
    zone = state.zone(1 - s)
    mines = state.marked_by(1 - s)
    for n in ray[:idx]:
        c = sq[n]
        if not bd.walkable[n]:
            return _Why(f"the river on {hex_name(n)} is in the way (W5: the hexes between must be passable)", [n], path)
        if c:
            return _Why(f"the {SIDE_NAMES[c >> 3]} {KIND_NAMES[c & 7]} on {hex_name(n)} is in the way (W5: the hexes "
                        "between must be free)", [n], path)
        if n in zone:
            p = _zone_owner(state, n, 1 - s)
            return _Why(f"the move stops on {hex_name(n)}, in the zone of the {SIDE_NAMES[1 - s]} pikeman on "
                        f"{hex_name(p)} (W2, W5)", [n] + ([p] if p is not None else []), path,
                        PIKE_ZONE[p] if p is not None else ())
        if bd.stop_for[s][n]:
            what = f"{SIDE_NAMES[1 - s]}'s swamp" if bd.swamp_owner[n] == 1 - s else "a ford"
            return _Why(f"the move stops on {hex_name(n)}: {what} is a forced stop (W2, W5)", [n], path)
        if n in mines:
            return _Why(f"the move stops on {hex_name(n)}: the enemy marker there is a mine (W2, W5)", [n], path)
    if not bd.walkable[t]:
        return _Why("the river without a crossing is impassable in summer", [t], path)
    return one


def _short(v: object) -> str:
    text = repr(v)
    return text if len(text) <= 60 else text[:57] + "..."


def _reason(state: GameState, action: Action) -> str | _Why:  # noqa: C901 - one branch per rule
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
            return _Why(f"the line of shot is blocked by the piece on {hex_name(blockers[0])} (ruling 3)",
                        [blockers[0]], (origin, *BETWEEN[(origin, t)], t))
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
    if k == INFANTRY:
        return _infantry_reason(state, origin, t, s)
    if k == FEUDAL:
        if DISTANCE[origin][t] != 1:
            return "a feudal steps 1 hex"
        if not bd.walkable[t]:
            return _Why("the river without a crossing is impassable in summer", [t])
        if target and target & 7 == FEUDAL:
            return _Why("feudals do not strike each other (W9)", [t])
        ef = state.feudal[1 - s]
        return _Why("kings' rule: a feudal may never end adjacent to the enemy feudal (W9)", [ef] if ef >= 0 else [])
    if k == KNIGHT:
        if not any(t in ray for ray in RAYS[origin]):
            return "the knight moves in a straight line along one of the 6 axes (W3)"
        why = _knight_reason(state, origin, t, s)
        if why is not None:
            return why
    if k == CAVALRY:
        why = _cavalry_reason(state, origin, t, s)
        if why is not None:
            return why
    if not bd.walkable[t] and k != CAVALRY:
        return _Why("the river without a crossing is impassable in summer", [t])
    if k == PIKEMAN:
        return "a pikeman moves exactly 1 hex in a straight line"
    if k == ARCHER:
        if DISTANCE[origin][t] != 1:
            return "an archer moves 1 hex"
        return "an archer moves only onto a free hex: it never attacks by moving (W8)"
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


__all__ = ["NotationError", "explain_illegal", "format_action", "illegal_detail", "parse_action", "read_action"]
