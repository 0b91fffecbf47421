"""The row kit every game's simulate rows are built with: seeds, the generic columns, one result per game.

``simulate`` plays a game into one row (``base_row`` first, ``finish_row`` at the end or ``error_row`` when
it raised, ``close_row`` always) and its events; a game whose native core plays whole games (its
``GameDef.native.play_game``) builds the very same row with these, so tables never depend on the engine.
Standard library only: games import it, and so does ``workbench.simulate``.
"""

from __future__ import annotations

import hashlib
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .rulespec import Rules, format_value


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from any parts, stable across processes, machines and Python versions."""
    text = "/".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1


def derive(*parts: object) -> int:
    """A 63-bit seed from parts, salted by the caller with the game's name (``derive_seed``)."""
    return derive_seed(*parts)


@dataclass
class GameResult:
    """One games-table row and, when asked, the game's event rows."""

    row: dict[str, Any]
    events: list[dict[str, Any]] = field(default_factory=list)


def seat_agents(spec: Any, n: int) -> list[str]:
    """One agent spec per seat from ``spec.agents``: one for all seats, one per seat, or two taking turns by seat
    (the two-seat shorthand, first and second, as it always played a game of more seats)."""
    agents = list(spec.agents)
    if len(agents) == 1:
        return agents * n
    if len(agents) == n:
        return agents
    if len(agents) == 2:
        return [agents[i % 2] for i in range(n)]
    raise ValueError(f"{len(agents)} agents for {n} seats; give one for every seat, one for all, or two taking turns")


def _cell_value(value: Any) -> Any:
    if isinstance(value, (bool, int, float)) or value is None:
        return value
    return format_value(value)


GENERIC_COLUMNS = frozenset({"game_id", "game", "cell", "rules", "players", "teams", "seed", "winner", "winner_team",
                             "outcome", "victory", "plies", "turns", "max_plies", "seconds", "error", "engine",
                             "opening", "opening_seed"})


def game_extras(game: Any, state: Any, row: dict[str, Any]) -> dict[str, Any]:
    """The game's own columns (``GameDef.game_row``); one that shares a generic column's name keeps the
    generic meaning there and is stored as ``<name>_<game's word>`` (big chess's team text: ``winner_team_name``)."""
    out = {}
    for k, v in game.game_row(state).items():
        key = f"{k}_name" if k in GENERIC_COLUMNS and k in row else k
        out[key] = _cell_value(v)
    return out


def team_text(members: list[str]) -> str:
    """A team as tables write it: ``cd`` for one-letter seats, ``p1+p2`` for longer names."""
    return "".join(members) if all(len(m) == 1 for m in members) else "+".join(members)


def finish_row(row: dict[str, Any], game: Any, info: Any, state: Any) -> None:
    """A finished (or capped) game's outcome, winner, per-seat scores and counters, and the game's extras."""
    outcome = state.outcome()
    row["outcome"] = "unfinished" if outcome == "ongoing" else outcome
    row["victory"] = state.victory() or ("unfinished" if row["outcome"] == "unfinished" else row["outcome"])
    w = state.winner() if state.is_terminal() else None
    if w is not None:
        team = info.teams[info.team_of(w)] if info.teams else (w,)
        # the contract's winner of a team game is the team ("cd"), not the seat that made the last move
        row["winner"] = info.players[w] if len(team) < 2 else team_text([info.players[p] for p in team])
        row["winner_team"] = info.team_of(w)
    for i, name in enumerate(info.players):
        row[f"score_{name}"] = float(state.returns()[i]) if state.is_terminal() else 0.0
    for rule, counts in state.counters().items():
        for i, name in enumerate(info.players):
            row[f"rule_{rule}_{name}"] = int(counts[i]) if i < len(counts) else 0
    row.update(game_extras(game, state, row))


def error_row(row: dict[str, Any], state: Any, exc: BaseException) -> None:
    """A game that raised: the row says where and why (a failing game is data, the batch goes on)."""
    where = f" at action {state.move_number()}" if state is not None else ""
    tb = traceback.extract_tb(exc.__traceback__)[-1]
    row.update({"outcome": "error", "victory": "error", "winner": "none",
                "error": f"{type(exc).__name__}{where}: {exc} ({Path(tb.filename).name}:{tb.lineno})"})


def close_row(row: dict[str, Any], state: Any, n_legal: list[int], t0: float) -> dict[str, Any]:
    """Length, branching and time, for every row (finished, capped or failed)."""
    if state is not None:
        row["plies"] = state.move_number()
        row["turns"] = state.turn()
    if n_legal:
        row["mean_branching"] = sum(n_legal) / len(n_legal)
        row["decision_share"] = sum(1 for n in n_legal if n > 1) / len(n_legal)
    row["seconds"] = time.perf_counter() - t0
    return row


def base_row(spec: Any, game: Any, rules: Rules) -> dict[str, Any]:
    """The row every game of ``spec`` starts with (an error row keeps these columns)."""
    info = game.info(rules)
    row: dict[str, Any] = {"game_id": spec.game_id, "game": game.name, "cell": spec.cell, "rules": rules.label()}
    for p in rules.spec:
        row[p.name] = _cell_value(rules[p.name])
    row["players"] = ",".join(info.players)
    row["teams"] = ",".join("".join(info.players[i] if len(info.players[i]) == 1 else f"{info.players[i]}+"
                                    for i in t).rstrip("+") for t in info.teams)
    try:
        agents = seat_agents(spec, info.num_players)
    except ValueError:
        agents = [spec.agents[0]] * info.num_players
    for i, name in enumerate(info.players):
        row[f"agent_{name}"] = agents[i]
    row.update({"seed": spec.seed, "winner": "none", "winner_team": -1, "outcome": "unfinished",
                "victory": "unfinished", "plies": 0, "turns": 0, "max_plies": spec.max_plies, "seconds": 0.0,
                "error": None, "engine": "python", "mean_branching": 0.0, "decision_share": 0.0})
    if spec.opening:  # a fixed random opening (core.agents.Opening): its plies and seed, so the game replays
        row.update({"opening": int(spec.opening), "opening_seed": int(spec.opening_seed)})
    return row
