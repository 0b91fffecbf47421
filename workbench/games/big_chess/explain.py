"""Why an action is illegal: the first rule of the contract that fails, in the rulebook's words.

Only called for actions not in the legal list, so it may be slow and simple: it re-derives the
piece, the phase and the restrictions (protection, Jester, lock, treasury, path) one by one.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .boards import ALTAR, STANDABLE_NOT

if TYPE_CHECKING:
    from .state import BigChessState

_PIECE = re.compile(r"([0-9]+,[0-9]+)([-x*>])([0-9]+,[0-9]+)(?:=([a-z0-9]+))?\Z")


def explain(st: BigChessState, canon: str) -> str:
    """The first failing rule for the canonical string ``canon``."""
    ctx = st.ctx
    if st.result is not None:
        return f"the game is over ({st.result}); no action is legal"
    if ":" in canon and canon[1:2] == ":":
        return _setup(st, canon)
    if st.phase == "setup":
        return "the setup phase: actions are p:+K@c[:F], p:-c, p:s-c or p:ready (13)"
    P = st.to_move
    me = ctx.players[P]
    try:
        if canon == "pass":
            return "pass is legal only when no other turn action is (B35)"
        if canon.startswith("^"):
            cell, _, lv = canon[1:].partition(":")
            s = st._cell(cell)
            pc = st.pieces.get(s)
            if pc is None or pc.owner != P:
                return f"no own piece of {me} on {cell} (10: levels are bought for own pieces)"
            card = ctx.cards[pc.card]
            n = int(lv)
            if n not in card.levels:
                return f"{card.key} defines no level {n} (10)"
            if (pc.levels >> n) & 1:
                return f"level {n} of {card.key} on {cell} is already bought (10)"
            price = max(1, pc.cost * ctx.rules["vet_rate_pct"] // 100)
            return f"level {n} costs {price} trophies; the piece has {pc.trophies} (10, B29)"
        if canon.startswith("$"):
            s = st._cell(canon[1:])
            t = st.pieces.get(s)
            if not any(ctx.is_prince[pc.card] and pc.owner == P and s in ctx.neighbors[c] for c, pc in st.pieces.items()):
                return f"{canon[1:]} is not next to a Prince of {me} (10.3)"
            if t is None:
                return f"no piece on {canon[1:]} to buy (10.3)"
            if ctx.is_king[t.card]:
                return "a King cannot be bought by a Prince (10.3, B32)"
            why = _target_rule(st, P, t)
            if why:
                return why
            return f"the Prince buy costs {t.cost}; the treasury of {me} is {st.treasury[P]} (10.3)"
        if canon.startswith("+"):
            key, _, cell = canon[1:].partition("@")
            k = ctx.card_index.get(key)
            if k is None:
                return f"no card {key}"
            card = ctx.cards[k]
            if not card.buyable:
                return f"{key} cannot be bought (buyable: false)"
            c = st._cell(cell)
            t = st.pieces.get(c)
            if t is not None:
                if t.owner == P and t.card == ctx.victim:
                    if k == ctx.victim:
                        return "a Victim cannot be transformed into a Victim (9.1)"
                    return f"the transformation costs more than the treasury {st.treasury[P]} (9.1)"
                return f"{cell} holds a piece; a purchase needs a free cell (8.1)"
            king = st._king_cell(P)
            if king is None or c not in ctx.neighbors[king]:
                return f"{cell} is not next to the King of {me} (8.1)"
            if ctx.terrain[c] in STANDABLE_NOT:
                return f"{cell} cannot hold a piece (rock or embers)"
            if ctx.terrain[c] == ALTAR:
                return "no purchase onto an altar (B30)"
            return f"{key} costs {ctx.cost[k]}; the treasury of {me} is {st.treasury[P]} (8.1)"
        if canon.endswith("*area"):
            s = st._cell(canon[:-5])
            return _piece_reason(st, s, "area") or "no enemy piece in the area may be removed (5, 8.6)"
        m = _PIECE.match(canon)
        if m:
            s = st._cell(m.group(1))
            c = st._cell(m.group(3))
            act = {"-": "move", "x": "strike", "*": "take", ">": "push"}[m.group(2)]
            why = _piece_reason(st, s, act)
            if why:
                return why
            if m.group(4):
                base = canon.split("=")[0]
                if base in st._legal_map():
                    if not ctx.rules["pawn_promotion"]:
                        return "pawns do not promote under pawn_promotion=false (10.4)"
                    if m.group(4) not in ctx.promo:
                        return f"{m.group(4)} is not a promotion target ({', '.join(ctx.promo)})"
                    return "the pawn does not promote here (10.4: distance, enemy start cell, no move left)"
            t = st.pieces.get(c)
            if act == "move" and t is not None:
                return f"{m.group(3)} holds a piece; a move needs a free cell (5.1)"
            if act in ("strike", "take") and t is not None:
                why = _target_rule(st, P, t)
                if why:
                    return why
            if act in ("strike", "take") and t is None and not (act == "strike" and c in st.shadows):
                return f"no piece on {m.group(3)} to {act}"
            if act == "push" and t is not None and (not ctx.pushable[t.card] or ctx.untouchable[t.card]):
                return f"{ctx.cards[t.card].key} cannot be pushed (5.4, B12)"
            if ctx.terrain[c] == "4" and ctx.dist(s, c) != 1:
                return "a forest cell is entered or attacked only from an adjacent cell (5)"
            if ctx.terrain[s] == "5" and ctx.dist(s, c) != 1:
                return "a piece on a swamp acts only on adjacent cells (B7)"
            return f"no active entry of {ctx.cards[st.pieces[s].card].key} reaches {m.group(3)} with a {act} (paths, terrain, levels: 7.1)"
    except Exception as exc:  # noqa: BLE001 - an explanation must never raise
        return f"not legal ({exc})"
    return "not a legal action here"


def _piece_reason(st: BigChessState, s: int, act: str) -> str | None:
    ctx = st.ctx
    pc = st.pieces.get(s)
    me = ctx.players[st.to_move]
    if pc is None:
        return f"no piece on {ctx.names[s]}"
    if pc.owner != st.to_move:
        return f"the piece on {ctx.names[s]} is not {me}'s; {me} is to move"
    blockers = st._blockers(s, pc)
    if blockers and act not in ("strike", "take"):
        return f"the piece on {ctx.names[s]} is blocked by an adjacent Jester: it may only strike or take the Jester (8.3)"
    return None


def _target_rule(st: BigChessState, P: int, t) -> str | None:  # noqa: ANN001
    ctx = st.ctx
    q = t.owner
    if ctx.team_of[P] == ctx.team_of[q]:
        return "the target is an ally; only enemies are struck, taken or bought (8.6)"
    if ctx.untouchable[t.card]:
        return f"{ctx.cards[t.card].key} is untouchable (8.4)"
    if q in st.protected:
        return f"player {ctx.players[q]} has not yet made a move: newbie protection (8.1)"
    for a, b in st.locks:
        if b == q and a != P and ctx.team_of[a] == ctx.team_of[P]:
            return (f"teammate {ctx.players[a]} already attacked {ctx.players[q]} this round: one attack per team on a "
                    "player per round (8.5)")
    return None


def _setup(st: BigChessState, canon: str) -> str:
    ctx = st.ctx
    letter = canon[0]
    if st.phase != "setup":
        return "setup actions exist only in the setup phase (13)"
    p = ctx.pidx.get(letter)
    if p is None:
        return f"{letter} is not a player ({ctx.teams_text})"
    if p in st.ready:
        return f"{letter} is ready; its setup is final (13)"
    if p in st.out:
        return f"{letter} has left the game"
    rest = canon[2:]
    if rest == "ready":
        return f"{letter} needs its King placed before ready (13)"
    if rest.startswith("+"):
        key, _, cellf = rest[1:].partition("@")
        cell = cellf.split(":")[0]
        k = ctx.card_index.get(key)
        if k is None:
            return f"no card {key}"
        c = st._cell(cell)
        if ctx.zone[c] != letter:
            return f"{cell} is not in the start zone of {letter} (13)"
        if c in st.pieces:
            return f"{cell} is occupied"
        if ctx.is_king[k]:
            return f"{letter} already has a King (13: at most one)"
        if not ctx.cards[k].buyable:
            return f"{key} cannot be set up (buyable: false)"
        return f"{key} costs {ctx.cost[k]}; the treasury of {letter} is {st.treasury[p]} (13)"
    if rest.startswith("-"):
        return f"no piece of {letter} on {rest[1:]}"
    src, _, dst = rest.partition("-")
    s = st._cell(src)
    if s not in st.pieces or st.pieces[s].owner != p:
        return f"no piece of {letter} on {src}"
    return f"{dst} is not a free cell of the start zone of {letter} (13)"
