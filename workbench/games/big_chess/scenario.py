"""The scenario dialect ``game: big-chess`` (contract section 17) and positions as data.

``parse_scenario`` checks a file's structure at load time (unknown keys, check keys, card data) and
raises ``ScenarioError`` with the line. Rules and the position are built when the scenario runs, so
``--rules`` overrides apply to them; a position the contract rejects is then one ERROR result (or the
PASS of an ``invalid:`` file). ``build_position`` is also how ``dump_scenario``'s text comes back:
every reachable state written with all keys loads as the same state.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from workbench.core.protocol import IllegalAction
from workbench.core.rulespec import Rules, RulesError
from workbench.core.safefile import UnsafeFileError, confine
from workbench.core.scenario import (
    ERROR_STATUS,
    FAIL_STATUS,
    PASS_STATUS,
    CheckResult,
    ScenarioCase,
    ScenarioError,
    line_of,
)

from .boards import ALTAR, EMBERS, MINE, PORTAL, ROCK, SAND, SWAMP, BoardError, make_board, named_board
from .cards import CARD_DIR, MAX_CARDS, Card, CardError, load_card_file, merge_cards, parse_card, starter_cards
from .context import context_for
from .geometry import FACING_INDEX, FACING_NAMES
from .rules import SPEC
from .state import BigChessState, Piece

TOP_KEYS = ("game", "id", "title", "ruling", "source", "description", "rules", "seed", "cards", "position", "checks",
            "invalid")
POSITION_KEYS = ("phase", "teams", "board", "facing", "to_move", "turn", "quiet", "treasury", "pieces", "levels", "cost",
                 "trophies", "moved", "travelled", "shadows", "protected", "locks", "out", "ready", "winner", "result")
CHECK_KEYS = ("play", "note", "legal", "illegal", "destinations", "targets", "takes", "pushes", "buy_cells", "vet_price",
              "effective", "legal_all", "legal_count", "canonical", "pieces", "treasury", "trophies", "cost", "levels",
              "travelled", "shadows", "locks", "protected", "out", "moved", "ready", "to_move", "turn", "quiet", "phase",
              "winner", "result", "teams")
_TEXTS = ("legal", "illegal", "legal_all")  # an action text or a list of them
_WHOLE = ("legal_count", "turn", "quiet")
_WORDS = ("note", "to_move", "phase", "result")


def _check_type(key: str, value: Any) -> str:
    """Why ``value`` is not of the type check ``key`` takes ('' when it is)."""
    if key in _TEXTS and not (isinstance(value, str) or (isinstance(value, list)
                                                          and all(isinstance(a, str) for a in value))):
        return "must be an action text or a list of action texts"
    if key in _WHOLE and (isinstance(value, bool) or not isinstance(value, int)):
        return "must be a whole number"
    if key in _WORDS and value is not None and not isinstance(value, str):
        return "must be text"
    if key == "canonical" and value is not None and not isinstance(value, Mapping):
        return "must map input texts to their canonical texts"
    return ""


_ID = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*\Z")
MAX_PLAY = 5000
MAX_CHECKS = 500


class PositionError(ValueError):
    """A position the contract rejects; ``line`` points into the file when known."""

    def __init__(self, line: int | None, reason: str) -> None:
        self.line = line
        super().__init__(reason)


def _short(v: Any) -> str:
    text = v if isinstance(v, str) else repr(v)
    return text if len(text) <= 40 else text[:37] + "..."


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


# --------------------------------------------------------------------------- positions
def build_position(rules: Rules, pos: Mapping[str, Any] | None, cards_data: Any = None, where: str = "cards") -> BigChessState:
    """The state a scenario ``position`` describes, validated (section 17); ``PositionError`` names the key."""
    pos = pos or {}

    def at(key: str, sub: Any = None) -> int | None:
        node = pos.get(key)
        if sub is not None and node is not None:
            return line_of(node, sub, line_of(pos, key)) or None
        return line_of(pos, key) or None

    for key in pos:
        if key not in POSITION_KEYS:
            raise PositionError(at(key), f"unknown position key {_short(key)!r}; allowed: {', '.join(POSITION_KEYS)}")
    phase = pos.get("phase", "play")
    if phase not in ("play", "setup"):
        raise PositionError(at("phase"), f"phase must be play or setup, got {_short(phase)}")
    setup = phase == "setup"
    facing = pos.get("facing")
    if facing is not None and not isinstance(facing, Mapping):
        raise PositionError(at("facing"), "facing must be a mapping letter -> N|NE|E|SE|S|SW|W|NW")
    try:
        if "board" in pos:
            board = make_board(pos["board"], facing)
        else:
            base = named_board(rules["board"])
            board = make_board(base.rows, facing, name=base.name, teams=base.teams, default_facing=base.facing)
    except BoardError as exc:
        raise PositionError(at("board") if "board" in pos else at("facing"), str(exc)) from None
    teams = pos.get("teams", "a,b")
    try:
        ctx = context_for(rules, board, teams, cards_data, where)
    except (BoardError, CardError) as exc:
        raise PositionError(at("teams"), str(exc)) from None
    pl = ctx.players
    st = BigChessState(ctx)
    st.phase = phase

    def player(v: Any, key: str, sub: Any = None) -> int:
        if not isinstance(v, str) or v not in ctx.pidx:
            raise PositionError(at(key, sub), f"{key}: {_short(v)} is not a player of teams {ctx.teams_text}")
        return ctx.pidx[v]

    def cell(v: Any, key: str, sub: Any = None) -> int:
        try:
            return board.parse_cell(v)
        except BoardError as exc:
            raise PositionError(at(key, sub), f"{key}: {exc}") from None

    def letters(key: str) -> set[int]:
        v = pos.get(key, [])
        if v is None:
            v = []
        if not isinstance(v, Sequence) or isinstance(v, str):
            raise PositionError(at(key), f"{key} must be a list of player letters")
        return {player(x, key, i) for i, x in enumerate(v)}

    def mapping(key: str) -> Mapping[str, Any]:
        v = pos.get(key, {})
        if v is None:
            return {}
        if not isinstance(v, Mapping):
            raise PositionError(at(key), f"{key} must be a mapping")
        return v

    out = letters("out")
    st.out = out
    for k, v in mapping("treasury").items():
        p = player(k, "treasury", k)
        if not _is_int(v) or v < 0:
            raise PositionError(at("treasury", k), f"treasury of {k}: must be a whole number >= 0, got {_short(v)}")
        st.treasury[p] = v
    kings: dict[int, int] = {}
    for k, v in mapping("pieces").items():
        c = cell(k, "pieces", k)
        if not isinstance(v, str):
            raise PositionError(at("pieces", k), f"pieces {k}: write owner:key[:facing], got {_short(v)}")
        parts = v.strip().split(":")
        if len(parts) not in (2, 3):
            raise PositionError(at("pieces", k), f"pieces {k}: write owner:key[:facing], got {_short(v)}")
        owner_l, key = parts[0], parts[1].lower()
        if owner_l not in ctx.pidx:
            raise PositionError(at("pieces", k), f"pieces {k}: {_short(owner_l)} is not a player of teams {ctx.teams_text}")
        owner = ctx.pidx[owner_l]
        if owner in out:
            raise PositionError(at("pieces", k), f"pieces {k}: player {owner_l} is out and has no pieces")
        if key == "shadow":
            raise PositionError(at("pieces", k), f"pieces {k}: a shadow is not a piece (write it under shadows)")
        ki = ctx.card_index.get(key)
        if ki is None:
            raise PositionError(at("pieces", k), f"pieces {k}: no card {_short(key)}")
        card = ctx.cards[ki]
        tc = ctx.terrain[c]
        if tc in (ROCK, EMBERS, ALTAR):
            raise PositionError(at("pieces", k), f"pieces {k}: a piece cannot stand on {('rock', 'embers', 'an altar')[(ROCK, EMBERS, ALTAR).index(tc)]}")
        if card.vector:
            if len(parts) != 3:
                raise PositionError(at("pieces", k), f"pieces {k}: {key} is a vector piece and needs a facing (owner:key:F)")
            if parts[2].upper() not in FACING_INDEX:
                raise PositionError(at("pieces", k), f"pieces {k}: facing {_short(parts[2])} is not one of {' '.join(FACING_NAMES)}")
            f = FACING_INDEX[parts[2].upper()]
        else:
            if len(parts) == 3:
                raise PositionError(at("pieces", k), f"pieces {k}: {key} has no vector; write it without a facing")
            f = 0
        if ctx.is_king[ki]:
            if owner in kings:
                raise PositionError(at("pieces", k), f"pieces {k}: player {owner_l} has two Kings (13: at most one)")
            kings[owner] = c
        if setup and ctx.zone[c] != owner_l:
            raise PositionError(at("pieces", k), f"pieces {k}: in the setup phase a piece stands in its owner's zone ({owner_l}; 13)")
        st.pieces[c] = Piece(owner, ki, f, 0, ctx.cost[ki], 0, False, 0)

    def piece_at(key: str, k: Any) -> int:
        c = cell(k, key, k)
        if c not in st.pieces:
            raise PositionError(at(key, k), f"{key} {k}: no piece there")
        return c

    if setup:
        for key in ("shadows", "locks", "moved", "to_move"):
            if key in pos:
                raise PositionError(at(key), f"{key}: not a key of a setup-phase position (B55)")
    rate = rules["vet_rate_pct"]
    for k, v in mapping("levels").items():
        c = piece_at("levels", k)
        pc = st.pieces[c]
        card = ctx.cards[pc.card]
        if not isinstance(v, Sequence) or isinstance(v, str) or not all(_is_int(x) for x in v):
            raise PositionError(at("levels", k), f"levels {k}: must be a list of level numbers")
        mask = 0
        for lv in v:
            if lv not in card.levels:
                raise PositionError(at("levels", k), f"levels {k}: {card.key} defines no level {lv}")
            mask |= 1 << lv
        if setup and mask:
            raise PositionError(at("levels", k), f"levels {k}: pieces set up have no levels (B55)")
        cost = pc.cost
        for _level in sorted(set(v)):
            cost += max(1, cost * rate // 100)
        st.pieces[c] = pc._replace(levels=mask, cost=cost)
    for k, v in mapping("cost").items():
        c = piece_at("cost", k)
        pc = st.pieces[c]
        base = ctx.cost[pc.card]
        if not _is_int(v) or v < base:
            raise PositionError(at("cost", k), f"cost {k}: must be a whole number >= the base cost {base}, got {_short(v)}")
        if setup and v != base:
            raise PositionError(at("cost", k), f"cost {k}: above the base cost in the setup phase (B55)")
        st.pieces[c] = pc._replace(cost=v)
    for key, fld in (("trophies", "trophies"), ("travelled", "travelled")):
        for k, v in mapping(key).items():
            c = piece_at(key, k)
            if not _is_int(v) or v < 0:
                raise PositionError(at(key, k), f"{key} {k}: must be a whole number >= 0, got {_short(v)}")
            if setup and v:
                raise PositionError(at(key, k), f"{key} {k}: pieces set up have none (B55)")
            st.pieces[c] = st.pieces[c]._replace(**{fld: v})
    moved = pos.get("moved", [])
    if moved is None:
        moved = []
    if not isinstance(moved, Sequence) or isinstance(moved, str):
        raise PositionError(at("moved"), "moved must be a list of cells")
    for i, k in enumerate(moved):
        c = cell(k, "moved", i)
        if c not in st.pieces:
            raise PositionError(at("moved", i), f"moved {k}: no piece there")
        st.pieces[c] = st.pieces[c]._replace(moved=True)
    result = pos.get("result")
    if result not in (None, "win", "draw"):
        raise PositionError(at("result"), f"result must be win, draw or null, got {_short(result)}")
    winner = pos.get("winner")
    finished = result is not None
    if winner is not None:
        if not isinstance(winner, str):
            raise PositionError(at("winner"), "winner must be a team string such as ab, or null")
        match = [i for i, t in enumerate(ctx.team_text) if sorted(t) == sorted(winner)]
        if not match:
            raise PositionError(at("winner"), f"winner {_short(winner)} is not a team of {ctx.teams_text}")
        if result != "win":
            raise PositionError(at("winner"), "winner needs result: win")
        st.winner_team = match[0]
    elif result == "win":
        raise PositionError(at("result"), "result win needs a winner team")
    st.result = result
    if setup:
        if pos.get("turn", 0) != 0:
            raise PositionError(at("turn"), "turn must be 0 in the setup phase")
        if pos.get("quiet", 0) != 0:
            raise PositionError(at("quiet"), "quiet must be 0 in the setup phase")
        st.turn_no = 0
        st.quiet = 0
        st.ready = letters("ready")
        for p in st.ready:
            if p not in kings:
                raise PositionError(at("ready"), f"ready: {pl[p]} has no King placed")
            if p in out:
                raise PositionError(at("ready"), f"ready: {pl[p]} is out")
        if finished:
            raise PositionError(at("result"), "a setup-phase position cannot be finished")
        active_teams = {ctx.team_of[p] for p in range(len(pl)) if p not in out}
        if len(active_teams) <= 1:
            raise PositionError(at("out"), "a single team is left: the game is over")
        return st
    if pos.get("ready"):
        raise PositionError(at("ready"), "ready is a key of setup-phase positions only")
    turn = pos.get("turn", 1)
    if not _is_int(turn) or turn < 1:
        raise PositionError(at("turn"), f"turn must be a whole number >= 1 in the play phase, got {_short(turn)}")
    st.turn_no = turn
    quiet = pos.get("quiet", 0)
    if not _is_int(quiet) or quiet < 0 or (quiet > turn if finished else quiet >= turn):
        raise PositionError(at("quiet"), f"quiet must be 0 <= quiet {'<=' if finished else '<'} turn ({turn}), got {_short(quiet)}")
    st.quiet = quiet
    active = [p for p in range(len(pl)) if p not in out]
    if "to_move" in pos:
        tm = player(pos["to_move"], "to_move")
    else:
        tm = active[0] if active else 0
    if tm in out and not finished:
        raise PositionError(at("to_move"), f"to_move {pl[tm]} is out")
    st.to_move = tm
    for p in active:
        if p not in kings:
            raise PositionError(at("pieces"), f"player {pl[p]} is active in the play phase and has no King")
    for k, v in mapping("shadows").items():
        sc = cell(k, "shadows", k)
        if sc in st.pieces:
            raise PositionError(at("shadows", k), f"shadows {k}: the cell holds a piece")
        tc = ctx.terrain[sc]
        if tc in (MINE, SWAMP, ALTAR, PORTAL, ROCK, SAND):
            raise PositionError(at("shadows", k), f"shadows {k}: no shadow on a mine, swamp, altar, portal, rock or sand cell")
        pcell = cell(v, "shadows", k)
        t = st.pieces.get(pcell)
        if t is None or not ctx.is_pawn[t.card]:
            raise PositionError(at("shadows", k), f"shadows {k}: {v} holds no pawn")
        if t.owner == tm and not finished:
            raise PositionError(at("shadows", k), f"shadows {k}: a shadow of the player to move has expired (9.3)")
        st.shadows[sc] = pcell
    locks = pos.get("locks", [])
    if locks is None:
        locks = []
    if not isinstance(locks, Sequence) or isinstance(locks, str):
        raise PositionError(at("locks"), "locks must be a list such as [\"b>a\"]")
    for i, text in enumerate(locks):
        if not isinstance(text, str) or not re.fullmatch(r"[a-y]>[a-y]", text):
            raise PositionError(at("locks", i), f"locks: write creator>victim such as b>a, got {_short(text)}")
        a, b = player(text[0], "locks", i), player(text[2], "locks", i)
        if a in out or b in out:
            raise PositionError(at("locks", i), f"locks {text}: names a player who is out")
        if ctx.team_of[a] == ctx.team_of[b]:
            raise PositionError(at("locks", i), f"locks {text}: the two players are teammates")
        if a == tm and not finished:
            raise PositionError(at("locks", i), f"locks {text}: a lock of the player to move has expired (8.5)")
        st.locks.add((a, b))
    st.protected = letters("protected") - out
    active_teams = {ctx.team_of[p] for p in active}
    if len(active_teams) <= 1 and not finished:
        raise PositionError(at("out"), "a single team is left; the position needs result (and winner)")
    return st


# --------------------------------------------------------------------------- writing
def dump_position(st: BigChessState) -> dict[str, Any]:
    """Every position key of ``st`` (section 17), JSON-ready."""
    ctx = st.ctx
    pl = ctx.players
    names = ctx.names
    d: dict[str, Any] = {"phase": st.phase, "teams": ctx.teams_text, "board": list(ctx.board.rows),
                         "facing": {k: FACING_NAMES[v] for k, v in sorted(ctx.board.facing.items())}}
    if st.phase == "play":
        d["to_move"] = pl[st.to_move]
    d["turn"] = st.turn_no
    d["quiet"] = st.quiet
    d["treasury"] = {pl[p]: st.treasury[p] for p in range(len(pl))}
    d["pieces"] = {names[c]: st.piece_text(st.pieces[c]) for c in sorted(st.pieces)}
    d["levels"] = {names[c]: [lv for lv in range(32) if (pc.levels >> lv) & 1] for c, pc in sorted(st.pieces.items()) if pc.levels}
    d["cost"] = {names[c]: pc.cost for c, pc in sorted(st.pieces.items())}
    d["trophies"] = {names[c]: pc.trophies for c, pc in sorted(st.pieces.items()) if pc.trophies}
    d["travelled"] = {names[c]: pc.travelled for c, pc in sorted(st.pieces.items()) if pc.travelled}
    if st.phase == "play":
        d["moved"] = [names[c] for c, pc in sorted(st.pieces.items()) if pc.moved]
        d["shadows"] = {names[s]: names[st.shadows[s]] for s in sorted(st.shadows)}
        d["protected"] = sorted(pl[p] for p in st.protected)
        d["locks"] = sorted(f"{pl[a]}>{pl[b]}" for a, b in st.locks)
    d["out"] = sorted(pl[p] for p in st.out)
    if st.phase == "setup":
        d["ready"] = sorted(pl[p] for p in st.ready)
        del d["turn"], d["quiet"]
    d["winner"] = None if st.winner_team is None else ctx.team_text[st.winner_team]
    d["result"] = st.result
    return d


def dump_scenario_text(st: BigChessState, sid: str, title: str, checks: Sequence[Mapping[str, Any]] = ()) -> str:
    """A scenario file (YAML with JSON-style flow values) that loads back as ``st``."""
    ctx = st.ctx
    rules = {k: (list(v) if isinstance(v, tuple) else v) for k, v in ctx.rules.non_default().items()}
    lines = ["game: big-chess", f"id: {sid}", f"title: {json.dumps(title, ensure_ascii=False)}"]
    if rules:
        lines.append(f"rules: {json.dumps(rules, ensure_ascii=False)}")
    if ctx.extra_cards:
        lines.append(f"cards: {json.dumps([c.to_data() for c in ctx.extra_cards], ensure_ascii=False)}")
    lines.append("position:")
    for k, v in dump_position(st).items():
        lines.append(f"  {k}: {json.dumps(v, ensure_ascii=False)}")
    if checks:
        lines.append(f"checks: {json.dumps(list(checks), ensure_ascii=False)}")
    else:
        lines.append("checks: []")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- checks
class Check:
    """One parsed check: its keys and file line."""

    def __init__(self, index: int, line: int, data: Mapping[str, Any]) -> None:
        self.index = index
        self.line = line
        self.data = data


def _as_list(v: Any) -> list[Any]:
    if v is None:
        return []
    if isinstance(v, (list, tuple)):
        return list(v)
    return [v]


def _cells_of(st: BigChessState, prefix_sep: str, s_name: str) -> list[str]:
    out = []
    head = s_name + prefix_sep
    for a in st.legal_actions():
        if a.startswith(head) and "=" not in a:
            rest = a[len(head):]
            if rest != "area":
                out.append(rest)
    return sorted(set(out))


def _norm_cells(st: BigChessState, values: Any) -> list[str]:
    out = []
    for v in _as_list(values):
        try:
            out.append(st.ctx.names[st.ctx.board.parse_cell(str(v))])
        except BoardError:
            out.append(str(v))
    return sorted(set(out))


def _norm_piece(st: BigChessState, v: Any) -> str | None:
    if v is None:
        return None
    parts = str(v).strip().split(":")
    if len(parts) >= 2:
        parts[1] = parts[1].lower()
    if len(parts) == 3:
        parts[2] = parts[2].upper()
    return ":".join(parts)


def run_check(st: BigChessState, check: Check) -> CheckResult:
    """Judge one check on a fresh copy of the position."""
    d = check.data
    line = check.line
    note = f" ({d['note']})" if d.get("note") else ""
    for i, text in enumerate(_as_list(d.get("play"))):
        try:
            st.apply_action(st.string_to_action(str(text)))
        except IllegalAction as exc:
            return CheckResult(check.index, line, FAIL_STATUS, f"line {line}: play[{i}] {text}: illegal: {exc}{note}")
    diffs: list[str] = []
    ctx = st.ctx
    pl = ctx.players
    names = ctx.names
    for key, want in d.items():
        if key in ("play", "note"):
            continue
        if key == "legal":
            for a in _as_list(want):
                try:
                    st.string_to_action(str(a))
                except IllegalAction as exc:
                    diffs.append(f"{a} should be legal: {exc}")
        elif key == "illegal":
            for a in _as_list(want):
                try:
                    st.string_to_action(str(a))
                    diffs.append(f"{a} should be illegal")
                except IllegalAction:
                    pass
        elif key in ("destinations", "targets", "takes", "pushes"):
            sep = {"destinations": "-", "targets": "x", "takes": "*", "pushes": ">"}[key]
            for s, cells in (want or {}).items():
                got = _cells_of(st, sep, _norm_cells(st, [s])[0])
                exp = _norm_cells(st, cells)
                if got != exp:
                    diffs.append(f"{key} {s}: expected {exp}, got {got}")
        elif key == "buy_cells":
            # purchases: "+K@c" on an empty cell (a transformation's cell holds the Victim), read off the legal list
            got = sorted({a.partition("@")[2] for a in st.legal_actions()
                          if a.startswith("+") and ctx.board.parse_cell(a.partition("@")[2]) not in st.pieces})
            exp = _norm_cells(st, want)
            if got != exp:
                diffs.append(f"buy_cells: expected {exp}, got {got}")
        elif key in ("vet_price", "effective", "trophies", "cost", "levels", "travelled", "pieces"):
            for k, v in (want or {}).items():
                try:
                    c = ctx.board.parse_cell(str(k))
                except BoardError as exc:
                    diffs.append(f"{key} {k}: {exc}")
                    continue
                pc = st.pieces.get(c)
                if key == "pieces":
                    got = None if pc is None else st.piece_text(pc)
                    exp = _norm_piece(st, v)
                    if exp is not None and pc is not None and exp.count(":") == 1:
                        got = got.rsplit(":", 1)[0] if got.count(":") == 2 else got
                    if got != exp:
                        diffs.append(f"pieces {k}: expected {v}, got {got}")
                    continue
                if pc is None:
                    diffs.append(f"{key} {k}: no piece there")
                    continue
                if key == "vet_price":
                    got = max(1, pc.cost * ctx.rules["vet_rate_pct"] // 100)
                elif key == "effective":
                    m = st.effective_levels(c)
                    got = [lv for lv in range(32) if (m >> lv) & 1]
                    v = sorted(_as_list(v))
                elif key == "levels":
                    got = [lv for lv in range(32) if (pc.levels >> lv) & 1]
                    v = sorted(_as_list(v))
                else:
                    got = getattr(pc, key)
                if got != v:
                    diffs.append(f"{key} {k}: expected {v}, got {got}")
        elif key == "treasury":
            for k, v in (want or {}).items():
                got = st.treasury[ctx.pidx[k]] if k in ctx.pidx else None
                if got != v:
                    diffs.append(f"treasury {k}: expected {v}, got {got}")
        elif key == "shadows":
            got = {names[s]: names[p] for s, p in st.shadows.items()}
            exp = {_norm_cells(st, [k])[0]: _norm_cells(st, [v])[0] for k, v in (want or {}).items()}
            if got != exp:
                diffs.append(f"shadows: expected {exp}, got {got}")
        elif key == "locks":
            got = sorted(f"{pl[a]}>{pl[b]}" for a, b in st.locks)
            if got != sorted(map(str, _as_list(want))):
                diffs.append(f"locks: expected {sorted(map(str, _as_list(want)))}, got {got}")
        elif key in ("protected", "out", "ready"):
            got = sorted(pl[p] for p in getattr(st, key))
            if got != sorted(map(str, _as_list(want))):
                diffs.append(f"{key}: expected {sorted(map(str, _as_list(want)))}, got {got}")
        elif key == "moved":
            got = sorted(names[c] for c, pc in st.pieces.items() if pc.moved)
            exp = _norm_cells(st, want)
            if got != exp:
                diffs.append(f"moved: expected {exp}, got {got}")
        elif key == "legal_all":
            got = st.legal_actions()
            if got != [str(a) for a in _as_list(want)]:
                missing = sorted(set(map(str, _as_list(want))) - set(got))
                extra = sorted(set(got) - set(map(str, _as_list(want))))
                diffs.append(f"legal_all differs: missing {missing[:10]}, extra {extra[:10]}"
                             + ("" if missing or extra else " (order)"))
        elif key == "legal_count":
            got = len(st.legal_actions())
            if got != want:
                diffs.append(f"legal_count: expected {want}, got {got}")
        elif key == "canonical":
            for inp, exp in (want or {}).items():
                try:
                    got = st.string_to_action(str(inp))
                except IllegalAction:
                    got = None
                if got != exp:
                    diffs.append(f"canonical {inp}: expected {exp}, got {got}")
        elif key == "to_move":
            got = pl[st.to_move]
            if got != want:
                diffs.append(f"to_move: expected {want}, got {got}")
        elif key in ("turn", "quiet", "phase", "result"):
            got = {"turn": st.turn_no, "quiet": st.quiet, "phase": st.phase, "result": st.result}[key]
            if got != want:
                diffs.append(f"{key}: expected {want}, got {got}")
        elif key == "winner":
            got = None if st.winner_team is None else ctx.team_text[st.winner_team]
            if (got is None) != (want is None) or (got is not None and sorted(got) != sorted(str(want))):
                diffs.append(f"winner: expected {want}, got {got}")
        elif key == "teams":
            if ctx.teams_text != want:
                diffs.append(f"teams: expected {want}, got {ctx.teams_text}")
    if diffs:
        return CheckResult(check.index, line, FAIL_STATUS, f"line {line}: " + "; ".join(diffs) + note)
    return CheckResult(check.index, line, PASS_STATUS)


class BigChessScenario(ScenarioCase):
    """A loaded ``game: big-chess`` scenario."""

    game = "big-chess"

    def __init__(self, data: Mapping[str, Any], where: str) -> None:
        self.where = where
        self.data = data
        self.path = Path(where) if where and not where.startswith("<") else None
        for key in data:
            if key not in TOP_KEYS:
                raise ScenarioError(where, line_of(data, key), f"unknown scenario key {_short(key)!r}; allowed: {', '.join(TOP_KEYS)}")
        sid = data.get("id")
        if not isinstance(sid, str) or not _ID.match(sid):
            raise ScenarioError(where, line_of(data, "id"), f"id must be kebab-case text like bc-jester-blocks, got {_short(sid)}")
        self.id = sid
        self.invalid = data.get("invalid")
        if self.invalid is not None and not isinstance(self.invalid, str):
            raise ScenarioError(where, line_of(data, "invalid"), "invalid must be the reason, as text")
        title = data.get("title", sid if self.invalid is not None else None)
        if not isinstance(title, str) or not title.strip():
            raise ScenarioError(where, line_of(data, "title"), "title is required: a sentence a designer understands")
        self.title = title
        self.ruling = data.get("ruling")
        for key in ("source", "description"):
            if data.get(key) is not None and not isinstance(data[key], str):
                raise ScenarioError(where, line_of(data, key), f"{key} must be text")
        self.source = data.get("source")
        self.description = data.get("description")
        seed = data.get("seed", 0)
        if seed is not None and not _is_int(seed):
            raise ScenarioError(where, line_of(data, "seed"), "seed must be a whole number")
        rules = data.get("rules") or {}
        if not isinstance(rules, Mapping):
            raise ScenarioError(where, line_of(data, "rules"), "rules must be a mapping name: value")
        self.rules_data = dict(rules)
        if self.invalid is None:
            for name in rules:
                if name not in SPEC:
                    raise ScenarioError(where, line_of(rules, name), SPEC.unknown(str(name)))
                try:
                    SPEC[name].parse(rules[name])
                except RulesError as exc:
                    raise ScenarioError(where, line_of(rules, name), str(exc)) from None
        self.cards_error: ScenarioError | None = None
        try:
            self.cards_data = self._cards(data.get("cards"))
        except ScenarioError as exc:
            if self.invalid is None:
                raise
            self.cards_error, self.cards_data = exc, None
        pos = data.get("position")
        if pos is not None and not isinstance(pos, Mapping):
            raise ScenarioError(where, line_of(data, "position"), "position must be a mapping")
        self.position = pos
        checks = data.get("checks")
        if checks is None:
            checks = []
        if not isinstance(checks, list):
            raise ScenarioError(where, line_of(data, "checks"), "checks must be a list of mappings")
        if self.invalid is not None and checks:
            raise ScenarioError(where, line_of(data, "checks"), "a file with invalid: has no checks")
        if len(checks) > MAX_CHECKS:
            raise ScenarioError(where, line_of(data, "checks"), f"at most {MAX_CHECKS} checks")
        self.checks = []
        for i, c in enumerate(checks):
            ln = line_of(checks, i, line_of(data, "checks"))
            if not isinstance(c, Mapping):
                raise ScenarioError(where, ln, f"check {i + 1} must be a mapping of check keys")
            for key in c:
                if key not in CHECK_KEYS:
                    raise ScenarioError(where, line_of(c, key, ln), f"unknown check key {_short(key)!r}; allowed: {', '.join(CHECK_KEYS)}")
            for key, value in c.items():  # each key's type, so a wrong one is an error naming it, not a FAIL
                why = _check_type(key, value)
                if why:
                    raise ScenarioError(where, line_of(c, key, ln), f"check {i + 1}: {key} {why}, got {_short(value)}")
            play = c.get("play")
            if play is not None and (not isinstance(play, list) or len(play) > MAX_PLAY
                                     or not all(isinstance(a, str) for a in play)):
                raise ScenarioError(where, line_of(c, "play", ln), f"play must be a list of at most {MAX_PLAY} actions (text)")
            self.checks.append(Check(i + 1, ln, c))

    def _cards(self, cards: Any) -> list[Any] | None:
        """Inline cards and card files, each parsed once into ``Card``s.

        A card file lies in the scenario's folder or in data/cards (``safefile.confine``): a scenario someone
        sent never reads ``/etc/shadow`` or ``/proc/self/environ``. Errors name the file, never its content.
        """
        if cards is None or cards == []:
            return None
        where = self.where
        if not isinstance(cards, list):
            raise ScenarioError(where, line_of(self.data, "cards"), "cards must be a list of card mappings or card files")
        if len(cards) > MAX_CARDS:
            raise ScenarioError(where, line_of(self.data, "cards"), f"cards: at most {MAX_CARDS} cards or card files")
        out: list[Card] = []
        bases = [self.path.parent, CARD_DIR] if self.path else [CARD_DIR]
        for i, item in enumerate(cards):
            ln = line_of(cards, i, line_of(self.data, "cards"))
            if isinstance(item, str):
                try:
                    path = confine(item, bases)
                except UnsafeFileError as exc:
                    raise ScenarioError(where, ln, f"cards: {_short(item)}: {exc}") from None
                try:
                    out.extend(load_card_file(path, _short(item)))
                except CardError as exc:
                    raise ScenarioError(where, ln, f"cards: {exc}") from None
            else:
                try:
                    out.append(parse_card(item, where, ln))
                except CardError as exc:
                    raise ScenarioError(where, exc.line or ln, f"cards: {exc.reason}") from None
        try:
            merge_cards(starter_cards(), out, where)
        except CardError as exc:
            raise ScenarioError(where, exc.line or line_of(self.data, "cards"), f"cards: {exc.reason}") from None
        return out

    def rules(self, overrides: Mapping[str, Any] | None = None) -> Rules:
        """The file's rules under ``overrides``."""
        return SPEC.make({**self.rules_data, **dict(overrides or {})})

    def initial_state(self, overrides: Mapping[str, Any] | None = None) -> BigChessState:
        """The position (or the rules' start when the file has none)."""
        rules = self.rules(overrides)
        if self.position is None:
            from . import GAME

            if self.cards_data:
                st = GAME.new_initial_state(rules, cards=self.cards_data)
            else:
                st = GAME.new_initial_state(rules)
            return st
        st = build_position(rules, self.position, self.cards_data, self.where)
        st.start_data = st.to_dict()
        return st

    @property
    def engines(self) -> tuple[str, ...]:
        """``python``, and ``native`` when the native core is built (``check --engine native``)."""
        from .native import available

        return ("python", "native") if available() else ("python",)

    def run(self, overrides: Mapping[str, Any] | None = None, engine: str = "python") -> list[CheckResult]:
        """Judge every check (or the rejection of an ``invalid:`` file). ``engine`` ``native`` plays the checks on
        the native core: legality, legal lists and the position after ``play`` are the core's (the notation and an
        illegal action's reason are read by the Python parser, and an action one engine accepts and the other
        refuses is an error)."""
        if engine not in self.engines:
            raise ValueError(f"big chess has no {engine} engine here (engines: {', '.join(self.engines)})")
        line = line_of(self.data, "position", 1) or 1
        if self.cards_error is not None:
            return [CheckResult(1, self.cards_error.line or line, PASS_STATUS)]
        try:
            start = self.initial_state(overrides)
        except RulesError as exc:
            if self.invalid is not None:
                return [CheckResult(1, line_of(self.data, "rules", 1), PASS_STATUS)]
            return [CheckResult(0, line_of(self.data, "rules", 1), ERROR_STATUS, f"line {line_of(self.data, 'rules', 1)}: {exc}")]
        except PositionError as exc:
            if self.invalid is not None:
                return [CheckResult(1, exc.line or line, PASS_STATUS)]
            return [CheckResult(0, exc.line or line, ERROR_STATUS, f"line {exc.line or line}: {exc}")]
        except (BoardError, CardError, ValueError) as exc:
            if self.invalid is not None:
                return [CheckResult(1, line, PASS_STATUS)]
            return [CheckResult(0, line, ERROR_STATUS, f"line {line}: {exc}")]
        if self.invalid is not None:
            return [CheckResult(1, line_of(self.data, "invalid", 1), FAIL_STATUS,
                                f"line {line_of(self.data, 'invalid', 1)}: the position was accepted, but the file "
                                f"expects it rejected ({self.invalid})")]
        if engine == "native":
            from .native import NativeBigChessState

            start = NativeBigChessState.from_python(start)  # type: ignore[assignment]
        results = []
        for check in self.checks:
            try:
                results.append(run_check(start.clone(), check))
            except Exception as exc:  # noqa: BLE001 - an engine failure must not stop the other checks
                results.append(CheckResult(check.index, check.line, ERROR_STATUS,
                                           f"line {check.line}: the engine raised {type(exc).__name__}: {exc}"))
        return results
