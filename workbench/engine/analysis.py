"""Position queries behind the heatmaps: zone counts, threat counts, safe feudal hexes, mobility.

Pure standard library, like the rest of the engine. Every answer is a list of 91 numbers in board
order, so pictures and tables index it by hex. The queries never change the state they are given:
where the opponent's next turn has to be played out they work on a ``clone()`` and take each action
back, so the answers come from the engine's own move generation and triggers (W7), not from a
re-derivation of the rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .geometry import ADJACENT, HEXES, N_HEXES, PIKE_ZONE, RAYS
from .pieces import ARCHER, INFANTRY, KNIGHT, PIKEMAN
from .state import CASTLE, MOVE, ORDER, SHOT, order_steps

if TYPE_CHECKING:
    from .state import Action, GameState

NAN = float("nan")


def _check_side(side: int) -> None:
    if side not in (0, 1):
        raise ValueError(f"side must be 0 (white) or 1 (black), not {side!r}")


def _side_actions(probe: GameState, side: int) -> list[Action]:
    """``side``'s actions as if it were to move (the W10 view: the opponent is given the move)."""
    probe.to_move = side
    probe._cache = None
    return probe.actions_of(side)


def zone_counts(state: GameState, side: int) -> list[int]:
    """How many of ``side``'s pikemen have each hex in their zone (the W2 stop "flower")."""
    _check_side(side)
    out = [0] * N_HEXES
    pike = PIKEMAN | (side << 3)
    for h in HEXES:
        if state.squares[h] == pike:
            for z in PIKE_ZONE[h]:
                out[z] += 1
    return out


def _strikes(action: Action) -> list[tuple[int, int]]:
    """(piece's hex, hex it may strike) of an action: moves and Order steps end there, a shot marks it."""
    kind = action[0]
    if kind == MOVE or kind == SHOT:
        return [(action[1], action[2])]
    if kind == ORDER:
        return [(a, t) for a, t, _ in order_steps(action)]
    return []


def _relocations(action: Action) -> list[tuple[int, int]]:
    """(origin, new hex) of every piece an action puts somewhere else (castling swaps two)."""
    kind = action[0]
    if kind == MOVE:
        return [(action[1], action[2])]
    if kind == ORDER:
        return [(a, t) for a, t, _ in order_steps(action)]
    if kind == CASTLE:
        return [(action[1], action[2]), (action[2], action[1])]
    return []


def _passed_bridge(state: GameState, origin: int, final: int) -> int | None:
    """The bridge a knight's slide passes just before ``final`` (section 2), if any."""
    for ray in RAYS[origin]:
        if final in ray:
            i = ray.index(final)
            if i >= 1 and state.board.knight_bridge[ray[i - 1]]:
                return ray[i - 1]
            return None
    return None


def threat_sets(state: GameState, side: int) -> list[set[int]]:
    """For each hex, the enemy pieces (by their hex now) that could attack it in the enemy's next turn.

    The enemy is given the move in the current position (as W10 does). A piece counts on a hex if
    one enemy action in which it takes part

    - ends a move or attack on the hex, or passes over it as a knight kills on a bridge (an archer's
      move counts only under ``archer_melee``);
    - marks the hex with an archer's shot (an ultimatum on a piece there, a mine on an empty hex);
    - kills a piece of ``side`` standing there through the triggers (an archer dying next to the
      enemy, a coordinated attack), as the engine resolves them: both infantry count;
    - leaves `coordinated` (2) or more enemy infantry next to a hex without an enemy piece, so that a knight,
      pikeman, cavalry or feudal there would die in a coordinated attack that one move completes.

    Markers the enemy already has count too: a mine or ultimatum is a threat by its archer.
    An empty hex counts as if it held a piece that the mover may attack (an infantryman alone
    may attack only archers and infantry, W6, so its empty-hex reach is an upper bound).
    """
    _check_side(side)
    e = 1 - side
    out: list[set[int]] = [set() for _ in HEXES]
    for archer, target in state.markers[e].items():
        out[target].add(archer)
    if state.is_terminal():
        return out
    probe = state.clone()
    actions = _side_actions(probe, e)
    enemy_inf = INFANTRY | (e << 3)
    walk = state.board.walkable
    melee = state.rules.archer_melee
    before = probe.squares[:]
    probe._mate_depth += 10  # a probe of the next turn needs no checkmate test
    try:
        for a in actions:
            strikes = _strikes(a)
            if a[0] == MOVE and before[a[1]] & 7 == ARCHER and not melee:
                strikes = []  # an archer never attacks by moving (W8)
            moved = _relocations(a)
            for o, t in strikes:
                out[t].add(o)
                if a[0] == MOVE and before[o] & 7 == KNIGHT:
                    b = _passed_bridge(probe, o, t)
                    if b is not None and before[b] and before[b] >> 3 == side:
                        out[b].add(o)
            probe._apply_unchecked(a)
            after = probe.squares
            # Where each enemy piece now stands came from: moved pieces moved, the rest stayed.
            origin_of = {h: h for h in HEXES if after[h] and after[h] >> 3 == e}
            for o, t in moved:
                if after[t] and after[t] >> 3 == e:
                    origin_of[t] = o
            for h in HEXES:
                c = before[h]
                if not c or c >> 3 != side or after[h] == c or any(t == h for _, t in strikes):
                    continue
                # A piece of ``side`` died on h by a trigger: the movers that came next to it and
                # the enemy pieces next to it (any for an archer, W7.2; infantry otherwise, W7.3).
                killers = {o for o, t in moved if h in ADJACENT[t]}
                for n in ADJACENT[h]:
                    if c & 7 == ARCHER:
                        if after[n] and after[n] >> 3 == e:
                            killers.add(origin_of[n])
                    elif after[n] == enemy_inf:
                        killers.add(origin_of[n])
                    elif before[n] == enemy_inf and not any(o == n for o, _ in moved):
                        killers.add(n)  # the infantryman that died together with its target
                out[h] |= killers
            for h in HEXES:
                if after[h] or not walk[h]:
                    continue
                inf = [origin_of[n] for n in ADJACENT[h] if after[n] == enemy_inf]
                if len(inf) >= state.board.coordinated:
                    out[h].update(inf)
            probe._pop()
    finally:
        probe._mate_depth -= 10
    return out


def threat_counts(state: GameState, side: int) -> list[int]:
    """How many enemy pieces could attack each hex in their next turn (see ``threat_sets``)."""
    return [len(s) for s in threat_sets(state, side)]


def safe_feudal_hexes(state: GameState, side: int) -> list[float]:
    """1.0 where ``side``'s feudal would not be under threat (W10), 0.0 where it would, NaN elsewhere.

    Each empty hex the feudal may stand on is tried with the feudal moved there and every other
    piece left in place; hexes next to the enemy feudal (W9) and enemy markers (a mine would kill it)
    count as unsafe. NaN marks the river in summer, other pieces' hexes, and a side with no feudal.
    """
    _check_side(side)
    out = [NAN] * N_HEXES
    f = state.feudal[side]
    if f < 0:
        return out
    probe = state.clone()
    sq = probe.squares
    fc = sq[f]
    ef = state.feudal[1 - side]
    mines = state.marked_by(1 - side)
    walk = state.board.walkable
    for h in HEXES:
        if not walk[h] or (sq[h] and h != f):
            continue
        if h in mines or (ef >= 0 and (h == ef or h in ADJACENT[ef])):
            out[h] = 0.0
            continue
        sq[f] = 0
        sq[h] = fc
        probe.feudal[side] = h
        try:
            out[h] = 0.0 if probe.is_threatened(side) else 1.0
        finally:
            sq[h] = 0
            sq[f] = fc
            probe.feudal[side] = f
    return out


def mobility(state: GameState, side: int, per: str = "reach") -> list[float]:
    """Mobility of ``side`` as if it were to move.

    ``per="reach"``: how many of the side's pieces can end a move or attack on each hex (Order
    steps included). ``per="piece"``: the number of actions (moves, shots, castlings, Orders it
    takes part in) of the piece on each hex, NaN on hexes without a piece of the side.
    """
    _check_side(side)
    if per not in ("reach", "piece"):
        raise ValueError(f"mobility per={per!r}: use 'reach' or 'piece'")
    probe = state.clone()
    actions = _side_actions(probe, side)
    if per == "reach":
        reach: list[set[int]] = [set() for _ in HEXES]
        for a in actions:
            if a[0] in (MOVE, ORDER):
                for o, t in _strikes(a):
                    reach[t].add(o)
        return [float(len(r)) for r in reach]
    out = [NAN] * N_HEXES
    for h in state.pieces(side):
        out[h] = 0.0
    for a in actions:
        for o in {o for o, _ in _strikes(a) + _relocations(a)}:
            if out[o] == out[o]:  # not NaN
                out[o] += 1.0
    return out


# ---------------------------------------------------------------------- cause and consequence
def detached(state: GameState) -> GameState:
    """A copy of the position without its history: cheap whatever the game's length.

    ``clone()`` copies the undo stack (a snapshot per ply), so on a 20,000-ply game a clone costs
    tens of milliseconds; probes that only look one action ahead need none of it.
    """
    stack, history = state._stack, state.history
    state._stack, state.history = [], []
    try:
        return state.clone()
    finally:
        state._stack, state.history = stack, history


# What kills a piece, by the rule the engine fires on its hex (telemetry names, docs/rulings.md).
_DEATH_WORDS = {
    "mine_kill": "stepped on a mine",
    "ultimatum_kill": "ultimatum",
    "coordinated_kill": "coordinated attack",
    "archer_melee_death": "archer next to an enemy",
    "pike_cavalry_mutual": "pikeman and cavalry destroy each other",
}


def _expected(before: list[int], action: Action, side: int) -> list[int]:
    """The board if the action only moved pieces (no attack, trigger or death): the baseline of a diff."""
    sq = before[:]
    kind = action[0]
    if kind == MOVE or kind == ORDER:
        steps = [(action[1], action[2], action[3])] if kind == MOVE else order_steps(action)
        for a, t, promo in steps:
            c = sq[a]
            sq[a] = 0
            sq[t] = (promo | (side << 3)) if promo else c
    elif kind == CASTLE:
        a, t = action[1], action[2]
        sq[a], sq[t] = sq[t], sq[a]
    return sq


def effects_between(before: list[int], markers_before: list[dict[int, int]], action: Action, after: GameState,
                    side: int) -> dict[str, Any]:
    """What ``action`` changed, from the board before it and the state after it (the engine played it).

    Returns cells as ints: ``removed`` (cells whose piece died, with ``pieces`` their codes and
    ``causes`` the rule that removed each), ``marks`` (markers set), ``spent`` (markers used up),
    ``castle``, ``ends`` and ``winner``/``victory``, ``threat`` (the side to move is now under threat),
    ``rules`` (every rule the action fired) and ``text``/``short`` in words.
    """
    from .pieces import KIND_NAMES, LETTERS, SIDE_NAMES

    expected = _expected(before, action, side)
    now = after.squares
    fired = list(after.fired)
    rule_at = {h: rule for rule, _s, h in fired if rule in _DEATH_WORDS and h is not None and h >= 0}
    removed: list[int] = []
    pieces: list[int] = []
    causes: list[str] = []
    kind = action[0]
    steps = [(action[1], action[2])] if kind == MOVE else ([(a, t) for a, t, _ in order_steps(action)] if kind == ORDER else [])
    for _a, t in steps:  # the enemy on a final hex is taken (attacks end on it, W1)
        c = before[t]
        if c and c >> 3 != side and t not in removed:
            removed.append(t)
            pieces.append(c)
            causes.append(rule_at.get(t, "taken"))
    for h in HEXES:
        c = expected[h]
        if c and now[h] != c:  # the piece that should stand here died (an attacker too, where it took)
            removed.append(h)
            pieces.append(c)
            rule = rule_at.get(h)
            if rule is None and any(rule_at.get(n) == "coordinated_kill" for n in ADJACENT[h]):
                rule = "coordinated_kill"  # the infantryman that dies with its target (W7.3)
            if rule is None:
                rule = "taken" if kind == MOVE and before[action[1]] & 7 == KNIGHT else "removed"
            causes.append(rule)
    marks = sorted(set(after.markers[side].values()) - set(markers_before[side].values()))
    spent = sorted({t for s in (0, 1) for t in markers_before[s].values()} - {t for s in (0, 1) for t in after.markers[s].values()}
                   - {t for s in (0, 1) for a, t in markers_before[s].items() if a in removed or any(o == a for o, _ in steps)})
    threat = any(rule == "threat" for rule, _s, _h in fired)
    words = []
    short = []
    for h, c, cause in zip(removed, pieces, causes, strict=True):
        who = f"{SIDE_NAMES[c >> 3]} {KIND_NAMES[c & 7]}"
        why = "" if cause == "taken" else f" ({_DEATH_WORDS.get(cause, cause)})"
        words.append(f"{who} on {hex_name_of(h)} dies{why}")
        short.append(f"✕{LETTERS[c & 7] if c >> 3 == 0 else LETTERS[c & 7].lower()}{hex_name_of(h)}")
    for t in marks:
        words.append(f"marks {hex_name_of(t)}" + (" (an ultimatum)" if now[t] and now[t] >> 3 != side else " (a mine)"))
        short.append(f"⊕{hex_name_of(t)}")
    if kind == CASTLE:
        words.append("castles")
        short.append("castling")
    ends = after.victory is not None
    if ends:
        result = (f"{SIDE_NAMES[after.winner]} wins ({after.victory})" if after.winner is not None
                  else f"game over ({after.victory})")
        words.append(result)
        short.append("wins" if after.winner is not None else after.victory)
    elif threat:
        words.append(f"{SIDE_NAMES[after.to_move]} feudal under threat")
        short.append("threat")
    return {
        "removed": removed, "pieces": pieces, "causes": causes, "marks": marks, "spent": spent,
        "castle": kind == CASTLE, "ends": ends, "winner": after.winner if ends else None, "victory": after.victory,
        "threat": threat and not ends, "rules": [rule for rule, _s, _h in fired],
        "text": "; ".join(words), "short": " ".join(short),
    }


def hex_name_of(h: int) -> str:
    """A cell's name (kept here so the effect words need no import cycle)."""
    from .geometry import hex_name

    return hex_name(h)


def action_effects(state: GameState, action: Action) -> dict[str, Any]:
    """What a legal ``action`` would change in ``state``, played by the engine on a detached copy.

    The board's hover preview and move-list notes read this; it computes no rule of its own (the
    engine's ``apply`` decides every death, marker and win). ``IllegalActionError`` if not legal.
    """
    probe = detached(state)
    before, markers = probe.squares[:], [dict(probe.markers[0]), dict(probe.markers[1])]
    side = probe.to_move
    probe.apply(action)
    return effects_between(before, markers, action, probe, side)


def effects_of_actions(state: GameState, actions: list[Action]) -> list[dict[str, Any]]:
    """``action_effects`` for many actions of one position (one detached copy, apply and undo each)."""
    probe = detached(state)
    before, markers = probe.squares[:], [dict(probe.markers[0]), dict(probe.markers[1])]
    side = probe.to_move
    out = []
    for a in actions:
        probe.apply(a)
        out.append(effects_between(before, markers, a, probe, side))
        probe.undo()
    return out


def attackers(state: GameState, side: int) -> list[int]:
    """Cells of the enemy pieces that threaten ``side``'s feudal (W10), or that mated it.

    From ``threat_sets``: each enemy action is played by the engine. A checkmated position is
    terminal, so the probe is given the game back for the question.
    """
    _check_side(side)
    f = state.feudal[side]
    if f < 0:
        return []
    probe = detached(state)
    if probe.victory == "checkmate":
        probe.victory, probe.winner = None, None
    probe._cache = None
    return sorted(threat_sets(probe, side)[f])
