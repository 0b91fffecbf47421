"""Pole for designers: the static evaluation, heat layers, glyphs and action effects.

Everything here reads the state through the engine's own queries (``zone_targets``, ``success_count``,
``_hits``), so a picture or an agent never re-derives a rule.

**Evaluation** (``evaluate``), in coins, from one side's point of view: value(own) - value(enemy), where
value(side) is
- material: the sum of the cost parameters of the side's pieces on the board (the Prince excluded,
  since losing it ends the game; a tower counts its 10);
- coins: the side's coins at face value;
- income tempo: the side to move gets half its income (it spends and acts before the other side's
  next income);
- fortress safety: minus ``PRINCE_WEIGHT`` (20 coins) times the chance that the enemy pieces now in
  range would destroy the Prince if each attacked once (1 - prod(1 - n_i/36)), plus ``FORTRESS_BONUS``
  (1 coin) when the Prince stands in a fortress, where outside attacks are halved.

- the threat of the side to move: it acts next, so the best single attack it has now (one act a turn)
  is worth its expectation, max over its attacks of n/36 x the cost of the target (Princes are the
  safety term's). Without it a search at a leaf leaves pieces where the mover can take them.
- the reply of the other side: its best single attack now, at face value (``REPLY_WEIGHT`` = 1), the
  same max. The mover can answer one threat with its one act, so a piece left en prise to the side that
  acts after it is still a likely loss. A depth-2 search (one's own buy and act, or one's act and the
  enemy's buy) never sees the enemy's act; this term makes it weigh it, and a one-action greedy
  player, which sees less of what follows, gains less from it.

Measured (native core, ``ladder``'s pairing, 400 games, seed 77, the rulebook's 400-turn cap):
``alphabeta:depth=2`` against ``greedy`` scored 51.7 % (95 % interval 46.9-56.6 %, 218 unfinished)
without the reply term and 68.9 % (64.2-73.2 %, 27 unfinished) with it. Also tried (same 400 games):
a reply weight of 1.5 (68.4 %) and 0.5 with ``PRINCE_WEIGHT`` 100 (57.6 %), ``PRINCE_WEIGHT`` 40 (68.8 %),
50 with a fortress bonus of 3 (64.2 %) and 100 with 5 (63.2 % with the reply at 2); and, over 200 games
without the reply term, a coin weight of 0.8 or 0.5 (to make spending pay), a bonus per own piece in
range of the enemy Prince, and the mover's best Prince shot at 50 or 200 coins: none above 60 %.

Tried and dropped: an *advance* term (0.05 coin x damage x closeness to the enemy Prince per
attacker). In 20 games of alphabeta:depth=2 against greedy it moved alphabeta's record from 4 wins
and 8 losses (8 at the cap) to 3 wins and 2 losses with 15 at the cap: closer pieces meet the halved
fortress and the game stalls.
"""

from __future__ import annotations

from typing import Any

from workbench.core.protocol import Glyph

from .board import NAMES
from .rules import KIND_WORDS, SIDES, P
from .state import ALL0, ATT0, MOVE0, NOBUY, OVER_PHASE, PASS, PoleState, dice_text, letter

PRINCE_WEIGHT = 20.0
FORTRESS_BONUS = 1.0
REPLY_WEIGHT = 1.0  # the other side's best attack, at face value (native: state.rs's REPLY_WEIGHT)
WIN_VALUE = 1000.0
HEAT_LAYERS = ("threat", "control", "odds")


def prince_danger(state: PoleState, side: int) -> float:
    """Chance that one attack by each enemy piece in range would destroy ``side``'s Prince."""
    cell = state.prince_of(side)
    if cell is None:
        return 1.0
    lo, hi = (9, 16) if side == 0 else (1, 8)  # enemy codes
    return _danger(state, cell, [(a, v) for a, v in enumerate(state.board) if lo <= v <= hi])


def _danger(state: PoleState, cell: int, enemies: list[tuple[int, int]]) -> float:
    """1 - prod(1 - n_i/36) over the ``enemies`` (cell, code) whose zone holds ``cell`` now."""
    cfg = state.cfg
    zone_sets = cfg.zone_sets
    kind_zone = cfg.kind_zone
    can_attack = cfg.can_attack
    miss = 1.0
    for a, v in enemies:
        kind = (v - 1) & 7
        # the cheap geometric test first: most pieces are far from the Prince
        if can_attack[kind] and cell in zone_sets[kind_zone[kind]][a] and state.reaches(a, cell):
            miss *= 1.0 - cfg.success_count(kind, a, P, cell) / 36.0
    return 1.0 - miss


def side_value(state: PoleState, side: int) -> float:
    """Material + coins + tempo + fortress safety of ``side`` (module docstring)."""
    return _values(state)[side]


def _values(state: PoleState) -> tuple[float, float]:
    """Both sides' values in one pass over the board (the evaluation runs at every leaf of a search)."""
    cfg = state.cfg
    cost = cfg.cost
    material = [0, 0]
    prince = [-1, -1]
    pieces: tuple[list[tuple[int, int]], list[tuple[int, int]]] = ([], [])
    occupied = [cv for cv in enumerate(state.board) if cv[1]]
    for c, v in occupied:
        side = (v - 1) >> 3
        if v - 8 * side == 1 + P:
            prince[side] = c
        else:
            material[side] += cost[v - 1 - 8 * side]
        pieces[side].append((c, v))
    mover = state.to_move
    running = state.phase != OVER_PHASE
    threat = _best_attack(state, pieces[mover]) if running else 0.0
    reply = _best_attack(state, pieces[1 - mover]) if running else 0.0
    out = []
    for side in (0, 1):
        value = float(material[side] + state.coins[side])
        if side == mover:
            value += threat
            value += cfg.income / 2.0
        else:
            value += REPLY_WEIGHT * reply
        cell = prince[side]
        value -= PRINCE_WEIGHT * (1.0 if cell < 0 else _danger(state, cell, pieces[1 - side]))
        if cell >= 0 and cfg.fort_of[cell]:
            value += FORTRESS_BONUS
        out.append(value)
    return out[0], out[1]


def _best_attack(state: PoleState, own: list[tuple[int, int]]) -> float:
    """A side's best single attack now, in coins: max n/36 x cost over its non-fresh pieces' targets (not Princes)."""
    cfg = state.cfg
    cost = cfg.cost
    board = state.board
    fresh = state.fresh
    best = 0.0
    for a, v in own:
        kind = (v - 1) & 7
        if not cfg.can_attack[kind] or fresh >> a & 1:
            continue
        for t in state.zone_targets(a):
            tkind = (board[t] - 1) & 7
            if tkind != P:
                gain = cfg.success_count(kind, a, tkind, t) * cost[tkind] / 36.0
                if gain > best:
                    best = gain
    return best


def evaluate(state: PoleState, player: int) -> float:
    """Static evaluation in coins from ``player``'s side (see the module docstring)."""
    if state.phase == OVER_PHASE:
        if state.winner_side is None:
            return 0.0
        return WIN_VALUE if state.winner_side == player else -WIN_VALUE
    red, black = _values(state)
    return red - black if player == 0 else black - red


def threat(state: PoleState, player: int) -> dict[int, float]:
    """Cell -> how many of ``player``'s pieces have it in their attack zone (blocking applied)."""
    out: dict[int, float] = {}
    for a, v in enumerate(state.board):
        if v and (v - 1) >> 3 == player:
            for c in state.zone_cells(a):
                out[c] = out.get(c, 0.0) + 1.0
    return out


def heat(state: PoleState, layer: str, player: int) -> dict[int, float]:
    """``threat`` (own zones), ``control`` (own minus enemy zone counts), ``odds`` (best n/36 per enemy piece).

    Zones are geometry: fresh pieces and the turn are ignored, since a layer shows what each side reaches.
    """
    if layer == "threat":
        return threat(state, player)
    if layer == "control":
        own, other = threat(state, player), threat(state, 1 - player)
        cells = set(own) | set(other)
        return {c: own.get(c, 0.0) - other.get(c, 0.0) for c in sorted(cells) if own.get(c, 0.0) != other.get(c, 0.0)}
    if layer == "odds":
        best: dict[int, float] = {}
        for t, w in enumerate(state.board):
            if w and (w - 1) >> 3 != player:
                best[t] = 0.0
        for a, v in enumerate(state.board):
            if v and (v - 1) >> 3 == player:
                for t in state.zone_targets(a):
                    best[t] = max(best[t], state.success_count(a, t) / 36.0)
        return best
    raise ValueError(f"unknown heat layer {layer!r} for pole; known: {', '.join(HEAT_LAYERS)}")


def glyphs(state: PoleState) -> list[Glyph]:
    """Fortress cells, pieces (letter, owner, armour and damage badges; the Prince also its side's coins, ``4¢``),
    fresh and pending-attack marks."""
    cfg = state.cfg
    pending = state.pending
    attacker = target = -1
    if pending >= 0:
        attacker = pending - ALL0 if pending >= ALL0 else (pending - ATT0) // 100
        target = -1 if pending >= ALL0 else (pending - ATT0) % 100
    out = []
    for c in range(100):
        f = cfg.fort_of[c]
        terrain = ("fortress-red", "fortress-black")[f - 1] if f else "field"
        v = state.board[c]
        marks: list[str] = []
        if state.is_fresh(c):
            marks.append("fresh")
        if c == attacker:
            marks.append("attacker")
        if c == target:
            marks.append("target")
        if v:
            kind = (v - 1) & 7
            badges = (f"a{cfg.armour[kind]}",) + ((f"d{cfg.damage[kind]}",) if cfg.can_attack[kind] else ())
            if kind == P:  # the side's treasury rides with its Prince, so every picture shows the coins
                badges += (f"{state.coins[(v - 1) >> 3]}¢",)
            out.append(Glyph(c, terrain, letter(v), (v - 1) >> 3, badges, None, tuple(marks)))
        else:
            out.append(Glyph(c, terrain, "", None, (), None, tuple(marks)))
    return out


def caption(state: PoleState) -> str:
    """One line for a picture's title: turn, side and phase, both treasuries and a pending attack."""
    words = {"buy": "buys", "act": "acts", "over": "game over"}
    if state.phase == OVER_PHASE:
        head = f"turn {state.turn_no}: {state.victory_kind}" + (
            f", {SIDES[state.winner_side].capitalize()} wins" if state.winner_side is not None else "")
    else:
        head = f"turn {state.turn_no}: {SIDES[state.to_move].capitalize()} {words.get(state.phase_name(), state.phase_name())}"
        if state.pending >= 0:
            head += f" ({state.action_to_string_decision(state.pending)} waits for its dice)"
    return f"{head} · coins Red {state.coins[0]}, Black {state.coins[1]}"


def effects(state: PoleState, action: Any) -> dict[str, Any]:
    """What ``action`` would change: removed cells (with odds for attacks), marks, a sentence, and ends."""
    if state.phase == OVER_PHASE or not isinstance(action, int):
        return {}
    side = SIDES[state.to_move].capitalize()  # the seat's label (Red, Black)
    if state.pending >= 0:
        hits = state._hits(action)
        words = ", ".join(f"the {KIND_WORDS[(state.board[t] - 1) & 7]} on {NAMES[t]}" for t in hits)
        ends = any((state.board[t] - 1) & 7 == P for t in hits)
        said = (f"hit: {words} {'is' if len(hits) == 1 else 'are'} destroyed" if hits else "miss: nothing is destroyed")
        return {"removed": hits, "marks": [], "ends": ends, "outcome": "hit" if hits else "miss",
                "text": f"{dice_text(action)}, {said}" + (f"; {side} wins" if ends else "")}
    if action >= ATT0:
        a = action - ALL0 if action >= ALL0 else (action - ATT0) // 100
        targets = state.zone_targets(a) if action >= ALL0 else [(action - ATT0) % 100]
        odds = {t: state.success_count(a, t) for t in targets}
        parts = [f"{n}/36 to remove the {KIND_WORDS[(state.board[t] - 1) & 7]} on {NAMES[t]}" for t, n in odds.items()]
        return {"removed": targets, "marks": [a], "ends": False, "odds": {NAMES[t]: f"{n}/36" for t, n in odds.items()},
                "chance": state.attack_chance(action), "may_end": any((state.board[t] - 1) & 7 == P for t in targets),
                "text": f"{state.action_to_string(action)}: " + "; ".join(parts)}
    probe = state.clone()
    probe.apply_action(action)
    ends = probe.phase == OVER_PHASE
    result = f"; ends the game ({probe.victory_kind})" if ends else ""
    notation = state.action_to_string(action)
    if action < NOBUY:
        kind, cell = divmod(action, 100)
        text = (f"{notation}: {side} buys a {KIND_WORDS[kind]} on {NAMES[cell]} for {state.cfg.cost[kind]} coins"
                + (" (it acts from its side's next turn)" if state.cfg.buy_first else ""))
        return {"removed": [], "marks": [cell], "ends": ends, "text": text + result}
    if action in (NOBUY, PASS):
        return {"removed": [], "marks": [], "ends": ends,
                "text": f"{notation}: {side} {'buys nothing' if action == NOBUY else 'passes'}{result}"}
    a, b = divmod(action - MOVE0, 100)
    kind = (state.board[a] - 1) & 7
    return {"removed": [], "marks": [b], "ends": ends,
            "text": f"{notation}: {side}'s {KIND_WORDS[kind]} on {NAMES[a]} moves to {NAMES[b]}{result}"}


def features(state: PoleState, player: int) -> dict[str, float]:
    """The terms of ``evaluate`` from ``player``'s side (own minus enemy), by name, for ``workbench learn``:
    a count per piece kind (the Prince excluded, as in the material), coins, the income tempo, the mover's
    threat and the other side's reply, the Princes' danger and their fortresses. ``feature_weights`` gives the
    hand weights, under which the sum is ``evaluate`` exactly."""
    cfg = state.cfg
    counts = [[0] * len(KIND_WORDS), [0] * len(KIND_WORDS)]
    prince = [-1, -1]
    pieces: tuple[list[tuple[int, int]], list[tuple[int, int]]] = ([], [])
    for c, v in enumerate(state.board):
        if v:
            side = (v - 1) >> 3
            kind = v - 1 - 8 * side
            if kind == P:
                prince[side] = c
            else:
                counts[side][kind] += 1
            pieces[side].append((c, v))
    me, other = player, 1 - player
    out = {KIND_WORDS[k]: float(counts[me][k] - counts[other][k]) for k in range(len(KIND_WORDS)) if k != P}
    mover = state.to_move
    running = state.phase != OVER_PHASE
    threat = _best_attack(state, pieces[mover]) if running else 0.0
    reply = _best_attack(state, pieces[1 - mover]) if running else 0.0
    sign = 1.0 if me == mover else -1.0
    danger = [1.0 if prince[s] < 0 else _danger(state, prince[s], pieces[1 - s]) for s in (0, 1)]
    fort = [1.0 if prince[s] >= 0 and cfg.fort_of[prince[s]] else 0.0 for s in (0, 1)]
    out.update({"coins": float(state.coins[me] - state.coins[other]), "tempo": sign, "threat": sign * threat,
                "reply": -sign * reply, "prince_danger": danger[me] - danger[other], "fortress": fort[me] - fort[other]})
    return out


def feature_weights(cost: tuple[int, ...] | list[int], income: float) -> dict[str, float]:
    """The hand weights of ``features``: each kind's cost parameter, a coin 1, the tempo half the income, ..."""
    out = {KIND_WORDS[k]: float(cost[k]) for k in range(len(KIND_WORDS)) if k != P}
    out.update({"coins": 1.0, "tempo": income / 2.0, "threat": 1.0, "reply": REPLY_WEIGHT,
                "prince_danger": -PRINCE_WEIGHT, "fortress": FORTRESS_BONUS})
    return out
