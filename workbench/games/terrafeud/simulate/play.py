"""One TerraFeud game into one row (and its events), on the Python engine or the native core.

A game that raises becomes a row with ``victory='error'``, the error text and its seed, so it can be
replayed with ``replay_game``; the batch goes on. ``workbench.simulate.paths`` sends TerraFeud's specs
here (its ``GameDef.shortcuts["simulate"]``); other games play in ``workbench.simulate.protocol_play``.
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from workbench.agents import make_agent
from workbench.games.terrafeud.agents.evaluate import material_white
from workbench.games.terrafeud.engine import CASTLE, MOVE, ORDER, SHOT, RulesConfig, make_game, order_steps
from workbench.games.terrafeud.engine.geometry import hex_name
from workbench.games.terrafeud.engine.pieces import INFANTRY, LETTERS
from workbench.games.terrafeud.engine.state import GameState
from workbench.games.terrafeud.engine.telemetry import RULES
from workbench.simulate.seeds import GameResult, GameSpec, agent_seed

from .nativegame import native_game, playable
from .schema import _KIND_INDEX, KINDS, LOST_COLUMNS, PARAMETERS, RULE_COLUMNS, SIDES, TOGGLES


# ---------------------------------------------------------------------- one game
def lead_changes(evals: Sequence[float]) -> int:
    """Number of times the sign of ``eval_white`` changes along the game, zeros ignored."""
    count, last = 0, 0
    for v in evals:
        sign = (v > 0) - (v < 0)
        if sign:
            if last and sign != last:
                count += 1
            last = sign
    return count


def drama(evals: Sequence[float], sides: Sequence[int], winner: int | None) -> float:
    """Ludii-style drama: mean, over the positions the winner faced (after the opponent's actions),
    of how far below 0 the winner's evaluation was; 0 if nobody won or it never faced one."""
    if winner is None:
        return 0.0
    sign = 1.0 if winner == 0 else -1.0
    faced = [max(0.0, -sign * v) for v, s in zip(evals, sides, strict=True) if s != winner]
    return sum(faced) / len(faced) if faced else 0.0


def _counts(squares: list[int]) -> list[int]:
    out = [0] * 16
    for c in squares:
        if c:
            out[c] += 1
    return out


def _steps(action: tuple) -> list[tuple[int, int]]:
    kind = action[0]
    if kind == MOVE:
        return [(action[1], action[2])]
    if kind == ORDER:
        return [(a, t) for a, t, _ in order_steps(action)]
    return []


def _promotions(action: tuple, side: int, after: list[int]) -> list[tuple[int, int]]:
    """(hex, kind) of promotions that happened: the step carried ``=X`` and the piece stands there."""
    if action[0] == MOVE:
        cand = [(action[2], action[3])]
    elif action[0] == ORDER:
        cand = [(t, k) for _, t, k in order_steps(action)]
    else:
        return []
    return [(t, k) for t, k in cand if k and after[t] == k | (side << 3)]


def _deaths(before: list[int], after: list[int], action: tuple, side: int, rules_castling: str) -> tuple[list[int], list[int]]:
    """Piece codes removed by the action, and the hexes where they died.

    Counts come from the board (a promotion turns one infantryman into another kind, so it is
    added back); hexes from comparing the board with what the movement alone would leave.
    """
    promoted = _promotions(action, side, after)
    if not promoted and before.count(0) == after.count(0):
        return [], []  # the fast path: nothing was removed (promotion keeps the count too)
    cb, ca = _counts(before), _counts(after)
    inf = INFANTRY | (side << 3)
    for _, k in promoted:
        ca[k | (side << 3)] -= 1
        ca[inf] += 1
    dead = [c for c in range(16) for _ in range(max(0, cb[c] - ca[c]))]
    if not dead:
        return [], []
    expected = before[:]
    victims: set[int] = set()
    for a, t in _steps(action):
        if expected[t] and expected[t] >> 3 != side:
            victims.add(t)
        expected[t], expected[a] = expected[a], 0
    if action[0] == CASTLE:
        f, i = action[1], action[2]
        if rules_castling == "sacrifice":
            victims.add(i)
            expected[i], expected[f] = expected[f], 0
        else:
            expected[f], expected[i] = expected[i], expected[f]
    promo_at = {t for t, _ in promoted}
    for h in range(91):
        if expected[h] and after[h] != expected[h] and h not in promo_at:
            victims.add(h)
    return dead, sorted(victims)


def _letter(c: int) -> str:
    ch = LETTERS[c & 7]
    return ch if c >> 3 == 0 else ch.lower()


def rule_columns(rules: RulesConfig) -> dict[str, Any]:
    """The toggle and parameter columns of a row (crossings as "b4,f6,k4", the start as its path)."""
    data = rules.to_dict()
    return {name: data[name] for name in (*TOGGLES, *PARAMETERS)}


def fired_text(state: GameState) -> str:
    """The events-table ``rules`` field: what the last action fired, ``rule@hex`` or ``rule``, in order."""
    return ",".join(f"{rule}@{hex_name(h)}" if h >= 0 else rule for rule, _side, h in state.fired)


def rule_counts(state: GameState) -> dict[str, int]:
    """The ``rule_<name>_white/_black`` columns from the state's counters (index ``2*i + side``)."""
    counters = state.counters
    return {f"rule_{r}_{s}": int(counters[2 * i + k]) for i, r in enumerate(RULES) for k, s in enumerate(SIDES)}


def _base_row(spec: GameSpec) -> dict[str, Any]:
    rules = RulesConfig.from_dict(spec.rules)
    row: dict[str, Any] = {"game_id": spec.game_id, "cell": spec.cell}
    row.update(rule_columns(rules))
    row["start_id"] = row["start_hash"] = None
    row.update({"hill_white": None, "hill_black": None, "swamp_white": None, "swamp_black": None,
                "white_agent": spec.white, "black_agent": spec.black, "seed": spec.seed, "winner": "none",
                "victory": "unfinished", "plies": 0})
    row.update(dict.fromkeys(LOST_COLUMNS, 0))
    row.update({"seconds": 0.0, "error": None, "lead_changes": 0, "drama": 0.0, "mean_branching": 0.0,
                "decision_share": 0.0, "engine": spec.engine})
    row.update(dict.fromkeys(RULE_COLUMNS, 0))
    row.update({"game": "terrafeud", "outcome": "unfinished", "players": "white,black", "max_plies": spec.max_plies,
                "agent_white": spec.white, "agent_black": spec.black})
    return row


def play_game(spec: GameSpec) -> GameResult:
    """Play one game to its end or the ply cap; never raises for a failure inside the game.

    Event rows are numbered by ``ply`` from 1 (the first action); ``eval_white`` is ``material``
    from White's view after the action and its triggers, feudal counted at 1000.
    """
    t0 = time.perf_counter()
    row = _base_row(spec)
    events: list[dict[str, Any]] = []
    evals: list[float] = []
    movers: list[int] = []
    n_legal: list[int] = []
    lost = [[0] * 6, [0] * 6]
    st = None
    try:
        game = make_game(spec.rules, seed=spec.seed)
        # with start=, the game plays the file's rules (the caller's changes on top): record those
        row.update(rule_columns(game.rules))
        row["start_id"], row["start_hash"] = game.start_id, game.start_hash
        terrain = game.terrain.to_dict()
        for s in SIDES:
            row[f"hill_{s}"] = terrain["hills"][s]
            row[f"swamp_{s}"] = terrain["swamps"][s]
        st = game.new_initial_state()
        seeds = (agent_seed(spec.seed, 0), agent_seed(spec.seed, 1))
        if spec.engine == "native" and playable(spec.white, spec.black, st):
            # the whole game in Rust; its trace then runs through this same loop (identical rows)
            st, agents = native_game(st, spec.white, spec.black, seeds, spec.max_plies)
        else:
            # agents search on the game's engine, unless a spec pins its own ("alphabeta:engine=python");
            # on a native batch an agent without a native twin (a registered one) searches in Python
            agent_engine = "auto" if spec.engine == "native" else spec.engine
            agents = [make_agent(spec.white, seed=seeds[0], engine=agent_engine),
                      make_agent(spec.black, seed=seeds[1], engine=agent_engine)]
            row["engine"] = "python"
        castling = game.rules.castling
        ev = material_white(st)
        while st.victory is None and st.ply < spec.max_plies:
            side = st.to_move
            n = len(st.legal_actions())
            action = agents[side].select_action(st)
            before = st.squares[:]
            text = st.action_to_string(action) if spec.events else ""
            st.apply(action)
            dead, victims = _deaths(before, st.squares, action, side, castling)
            for c in dead:
                lost[c >> 3][_KIND_INDEX[c & 7]] += 1
            if dead or (action[0] in (MOVE, ORDER) and any(action[3::3])):
                ev = material_white(st)  # material only changes when pieces die or promote
            evals.append(ev)
            movers.append(side)
            n_legal.append(n)
            if spec.events:
                steps = _steps(action)
                if action[0] in (SHOT, CASTLE):
                    frm, to = hex_name(action[1]), hex_name(action[2])
                elif steps:
                    frm, to = hex_name(steps[0][0]), hex_name(steps[0][1])
                else:
                    frm = to = ""
                piece = _letter(before[action[1]]) if len(action) > 1 else ""
                events.append({"game_id": spec.game_id, "ply": st.ply, "side": SIDES[side], "action": text,
                               "piece": piece, "from": frm, "to": to,
                               "captured": " ".join(_letter(c) for c in dead),
                               "victims": " ".join(hex_name(h) for h in victims), "n_legal": n, "eval_white": ev,
                               "rules": fired_text(st)})
        if st.victory is not None:
            row["victory"] = st.victory
            row["winner"] = st.winner_name() or "none"
    except Exception as exc:  # noqa: BLE001 - a failing game is data, the batch goes on
        where = f" at ply {st.ply}" if st is not None else ""
        tb = traceback.extract_tb(exc.__traceback__)[-1]
        row["victory"] = "error"
        row["winner"] = "none"
        row["error"] = f"{type(exc).__name__}{where}: {exc} ({Path(tb.filename).name}:{tb.lineno})"
    row["plies"] = st.ply if st is not None else 0
    if st is not None:
        row.update(rule_counts(st))
    for s in (0, 1):
        for k, name in enumerate(KINDS):
            row[f"lost_{SIDES[s]}_{name}"] = lost[s][k]
    winner = None if row["winner"] == "none" else SIDES.index(row["winner"])
    row["lead_changes"] = lead_changes(evals)
    row["drama"] = drama(evals, movers, winner)
    if n_legal:
        row["mean_branching"] = sum(n_legal) / len(n_legal)
        row["decision_share"] = sum(1 for n in n_legal if n > 1) / len(n_legal)
    row["outcome"] = ("win" if row["winner"] != "none" else "draw" if row["victory"] == "draw"
                      else "error" if row["victory"] == "error" else "unfinished")
    row["seconds"] = time.perf_counter() - t0
    return GameResult(row, events)


def replay_game(row: dict[str, Any] | pd.Series, max_plies: int = 300, events: bool = True) -> GameResult:
    """Play again the game of a games-table row (e.g. one with ``victory='error'``), from its seed."""
    r = dict(row)
    rules = {t: (None if pd.isna(r[t]) else int(r[t])) if t == "draw_after" else _plain(r[t]) for t in TOGGLES}
    for kind in ("hill", "swamp"):  # the recorded hexes, so explicit terrain is replayed too
        if rules.get(kind) is True:  # with the toggle on, a side without a hex was explicitly none
            rules[kind + "s"] = {s: None if _missing(r.get(f"{kind}_{s}")) else r[f"{kind}_{s}"] for s in SIDES}
    known = set(RulesConfig.names())
    for name in PARAMETERS:  # tables written before a parameter existed replay with its default
        if name in known and name in r and not _missing(r[name]):
            rules[name] = _plain(r[name])
    spec = GameSpec(int(r["game_id"]), str(r["cell"]), rules, str(r["white_agent"]), str(r["black_agent"]),
                    int(r["seed"]), max_plies, events)
    return play_game(spec)


def _missing(v: Any) -> bool:
    try:
        return bool(pd.isna(v))
    except (TypeError, ValueError):
        return False


def _plain(v: Any) -> Any:
    """numpy scalars from a DataFrame row back to Python values for ``RulesConfig``."""
    return v.item() if hasattr(v, "item") else v
