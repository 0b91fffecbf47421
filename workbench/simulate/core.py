"""Playing one simulated game into a table row, and the tables' schemas, seeds and files.

Everything a backend needs is here, so the in-process loop, the process pool and Dask workers
run exactly the same code: a ``GameSpec`` in, a ``GameResult`` (one games-table row, and the
game's events when asked) out. A game that raises becomes a row with ``victory='error'``, the
error text and its seed, so it can be replayed with ``replay_game``; the batch goes on.

Seeds: a game's seed is a hash of (batch seed, cell index, game index), so the same batch gives
the same games on every backend, in any order, and a resumed batch plays exactly the games
that are missing. The game seed draws the rolled terrain; each agent's seed derives from it.

Files: ``out`` is a Parquet *dataset directory* ``FILE.parquet/`` of part files. A part is
written under a hidden temporary name and renamed into place, so a kill -9 leaves only whole
parts; ``read_results`` reads them all (deduplicated by ``game_id``). A finished run merges
its parts into parts of at most ``MERGE_ROWS`` games, and deletes the originals only once the
merged files read back whole, so one damaged file never costs the whole batch; a part that
cannot be read is named by ``read_results`` (``DamagedPartError``) and ``--resume`` recovers it. ``_run.json`` in the
directory records the batch parameters that ``resume`` checks, and every part carries the same
record in its Parquet metadata (``workbench.run``), so parts of two different batches found in
one folder are refused instead of silently merged. Only ``part-*.parquet`` files are read: a
folder may hold other files, which simulate never reads nor deletes. With events, the event
table is a sibling dataset ``FILE.events.parquet/`` written alongside, part for part.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import os
import re
import time
import traceback
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from workbench.agents import make_agent, material_white
from workbench.engine import CASTLE, MOVE, ORDER, SHOT, RulesConfig, make_game, order_steps
from workbench.engine.game import resolve_start
from workbench.engine.geometry import hex_name
from workbench.engine.pieces import INFANTRY, LETTERS
from workbench.engine.state import GameState
from workbench.engine.telemetry import RULES

from .nativegame import native_game, playable

SIDES = ("white", "black")
KINDS = ("feudal", "knight", "pikeman", "cavalry", "archer", "infantry")
_KIND_INDEX = {1: 0, 2: 1, 3: 2, 4: 3, 5: 4, 6: 5}  # piece kind code -> position in KINDS
TOGGLES = ("season", "hill", "swamp", "terrain", "castling", "archer_melee", "mate_defence", "draw_after",
           "pike_cavalry_mutual")
LOST_COLUMNS = [f"lost_{s}_{k}" for s in SIDES for k in KINDS]
# Rule parameters (issue 11, INTERFACES.md) and their column types; one column each, as for the toggles.
# ``bridges``/``fords`` are stored as "b4,f6,k4"; ``start`` as the scenario path, with the scenario's id and
# a hash of its position in ``start_id``/``start_hash`` (null for the classic start).
PARAMETERS: dict[str, pa.DataType] = {
    "archer_range": pa.int64(), "hill_bonus": pa.int64(), "aura_radius": pa.int64(), "aura_step": pa.int64(),
    "aura_memory": pa.bool_(), "coordinated": pa.int64(), "order_size": pa.int64(), "order_radius": pa.int64(),
    "castling_uses": pa.int64(), "promotion": pa.bool_(), "knight_bridge_stop": pa.bool_(),
    "bridges": pa.string(), "fords": pa.string(), "start": pa.string(),
}
RULE_COLUMNS = [f"rule_{r}_{s}" for r in RULES for s in SIDES]

GAMES_SCHEMA = pa.schema(
    [("game_id", pa.int64()), ("cell", pa.string())]
    + [(t, pa.bool_() if t in ("hill", "swamp", "archer_melee", "pike_cavalry_mutual") else
        pa.int64() if t == "draw_after" else pa.string()) for t in TOGGLES]
    + list(PARAMETERS.items()) + [("start_id", pa.string()), ("start_hash", pa.string())]
    + [(c, pa.string()) for c in ("hill_white", "hill_black", "swamp_white", "swamp_black",
                                  "white_agent", "black_agent")]
    + [("seed", pa.int64()), ("winner", pa.string()), ("victory", pa.string()), ("plies", pa.int64())]
    + [(c, pa.int64()) for c in LOST_COLUMNS]
    + [("seconds", pa.float64()), ("error", pa.string()), ("lead_changes", pa.int64()), ("drama", pa.float64()),
       ("mean_branching", pa.float64()), ("decision_share", pa.float64())]
    + [(c, pa.int64()) for c in RULE_COLUMNS]
    + [("engine", pa.string())]
    # multi-game columns (issue 17): what balance reads without knowing the game
    + [("game", pa.string()), ("outcome", pa.string()), ("players", pa.string()), ("max_plies", pa.int64())]
)
EVENTS_SCHEMA = pa.schema(
    [("game_id", pa.int64()), ("ply", pa.int64()), ("side", pa.string()), ("action", pa.string()),
     ("piece", pa.string()), ("from", pa.string()), ("to", pa.string()), ("captured", pa.string()),
     ("victims", pa.string()), ("n_legal", pa.int64()), ("eval_white", pa.float64()),
     ("rules", pa.string())]
)
GAME_COLUMNS = GAMES_SCHEMA.names
EVENT_COLUMNS = EVENTS_SCHEMA.names


RUN_KEY = b"workbench.run"  # Parquet metadata key: the run manifest of the batch a part belongs to
# Part files of a dataset folder: ``part-<run>-<n>.parquet`` and ``part-<id>-merged.parquet``.
PART_NAME = re.compile(r"^part-[0-9a-f]{8}-(?:\d{5}|merged)\.parquet$")


MAX_CELLS = 10_000  # grid cells of one batch (each is checked, then played games times)


class SimulationError(ValueError):
    """A batch that cannot run as asked (bad grid, output clash, resume mismatch)."""


class SimulationNotice(UserWarning):
    """Something a run did on its own that its user should know (a damaged part set aside)."""


DAMAGED_PREFIX = ".damaged-"  # a part ``--resume`` set aside: never read, its games played again


class DamagedPartError(SimulationError):
    """A part file of an output folder cannot be read (truncated, overwritten, bad disk).

    The other parts are whole (each is written apart and renamed into place), so only this
    part's games are lost; ``--resume`` sets it aside and plays them again."""

    def __init__(self, part: Path, reason: str) -> None:
        self.part = part
        super().__init__(f"{part.parent}: the part file {part.name} is damaged ({reason}); the other parts are whole. "
                         "Rerun the same simulate command with --resume: it sets this part aside (as "
                         f"{DAMAGED_PREFIX}{part.name}) and plays its games again")


# ---------------------------------------------------------------------- seeds and specs
def derive_seed(*parts: object) -> int:
    """A 63-bit seed from any parts, stable across processes, machines and Python versions."""
    text = "/".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1


def game_seed(seed: int, cell: int, index: int) -> int:
    """Seed of game ``index`` of grid cell ``cell`` in a batch seeded ``seed``."""
    return derive_seed("terrafeud-game", seed, cell, index)


def agent_seed(game_seed_: int, side: int) -> int:
    """Seed of the agent playing ``side`` (0 White, 1 Black) in the game seeded ``game_seed_``."""
    return derive_seed("terrafeud-agent", game_seed_, side)


@dataclass(frozen=True)
class GameSpec:
    """Everything needed to play one game anywhere: picklable and small."""

    game_id: int
    cell: str
    rules: dict[str, Any]
    white: str
    black: str
    seed: int
    max_plies: int = 300
    events: bool = False
    engine: str = "python"  # "native": played inside the Rust core when both agents have native twins
    game: str = "terrafeud"  # a name of workbench.games (or openspiel:NAME); not TerraFeud -> protocol_play
    agents: tuple[str, ...] = ()  # one agent for every seat, or one per seat (games of 2+ players)


@dataclass
class GameResult:
    """One games-table row and, when asked, the game's event rows."""

    row: dict[str, Any]
    events: list[dict[str, Any]] = field(default_factory=list)


def expand_grid(grid: dict[str, Sequence[Any]] | Sequence[RulesConfig | dict | str] | None) -> list[RulesConfig]:
    """Grid cells: the cartesian product of a toggle/parameter -> values mapping, or a list of configs.

    Every value is checked on its own first, so a bad one is named with its toggle or parameter
    (``grid archer_range=0: ...``) before any cell is built and before any game is played; then
    each combination is checked (a ford on a bridge only shows in the combination).
    """
    if grid is None:
        return [RulesConfig()]
    try:
        if isinstance(grid, dict):
            keys = list(grid)
            values = [list(v) if isinstance(v, (list, tuple)) else [v] for v in grid.values()]
            size = math.prod(len(v) for v in values)
            if size > MAX_CELLS:  # before any cell is built: 100**5 cells would never finish building
                shown = " x ".join(f"{len(v)} {k}" for k, v in zip(keys, values, strict=True))
                raise SimulationError(f"grid: {shown} = {size:,} cells; at most {MAX_CELLS:,} per batch")
            for k, v in zip(keys, values, strict=True):
                if not v:
                    raise SimulationError(f"grid toggle {k!r} has no values")
                _check_grid_values(k, v)
            cells = []
            for combo in itertools.product(*values):
                pairs = dict(zip(keys, combo, strict=True))
                try:
                    cells.append(RulesConfig.from_dict(pairs))
                except ValueError as exc:
                    shown = " ".join(f"{k}={v}" for k, v in pairs.items())
                    raise SimulationError(f"grid cell {shown}: {exc}") from None
            return _distinct(cells)
        cells = []
        for item in grid:
            if isinstance(item, RulesConfig):
                cells.append(item)
            elif isinstance(item, dict):
                cells.append(RulesConfig.from_dict(item))
            elif isinstance(item, str):
                cells.append(RulesConfig.parse(item))
            else:
                raise SimulationError(f"grid cell {item!r} must be a RulesConfig, a dict or a 'key=value' string")
    except ValueError as exc:
        if isinstance(exc, SimulationError):
            raise
        raise SimulationError(f"grid: {exc}") from None
    if not cells:
        raise SimulationError("grid: no cells to play")
    for c in cells:
        check_start(c)
    return _distinct(cells)


def _check_grid_values(key: str, values: list[Any]) -> None:
    """Each value of one grid key alone: valid for its toggle/parameter, listed once, its start file loads."""
    seen: dict[str, Any] = {}
    for v in values:
        try:
            config = RulesConfig.from_dict(rule_alone(key, v))
            check_start(config)
        except ValueError as exc:
            raise SimulationError(f"grid {key}={v}: {exc}") from None
        canonical = json.dumps(config.to_dict(), sort_keys=True, default=str)
        if canonical in seen:
            raise SimulationError(f"grid {key}: the values {seen[canonical]!r} and {v!r} are the same rule; "
                                  "list each value once")
        seen[canonical] = v


def rule_alone(key: str, value: Any) -> dict[str, Any]:
    """One value checked by itself: a crossing list without the checks that need the other list
    (``bridges=b4/k4`` with ``fords=d5/f6/h5`` is valid only together; the combination is checked)."""
    if key == "bridges":
        return {"bridges": value, "fords": "none", "knight_bridge_stop": False}
    if key == "fords":
        return {"fords": value, "bridges": "none"}
    if key == "knight_bridge_stop":
        return {"knight_bridge_stop": value, "bridges": "none"}
    return {key: value}


def check_start(config: RulesConfig) -> None:
    """A ``start=`` scenario must load before any game is played (its id and hash go in every row)."""
    if config.start is not None:
        resolve_start(config)  # RulesError names the parameter, the file and the reason


def _distinct(cells: list[RulesConfig]) -> list[RulesConfig]:
    """Refuse a grid whose cells repeat (their games would be counted twice under one label)."""
    seen: set[str] = set()
    for c in cells:
        if c.label() in seen:
            raise SimulationError(f"grid: the cell {c.label()} appears twice")
        seen.add(c.label())
    return cells


class GameSpecs(Sequence):
    """The batch's game specs, made on demand: ``cells x games`` of them are never all in memory
    at once unless a caller lists them (``game_id = cell_index * games + game_index``)."""

    def __init__(self, cells: list[RulesConfig], white: str, black: str, games: int, seed: int, max_plies: int,
                 events: bool, engine: str = "python") -> None:
        self._cells = [(rules.label(), rules.to_dict()) for rules in cells]
        self._args = (white, black, games, seed, max_plies, events, engine)

    def __len__(self) -> int:
        return len(self._cells) * self._args[2]

    def _spec(self, i: int) -> GameSpec:
        white, black, games, seed, max_plies, events, engine = self._args
        ci, gi = divmod(i, games)
        label, data = self._cells[ci]
        return GameSpec(i, label, data, white, black, game_seed(seed, ci, gi), max_plies, events, engine)

    def __getitem__(self, index):  # noqa: ANN001, ANN204 - int or slice, as a Sequence's
        if isinstance(index, slice):
            return [self._spec(i) for i in range(*index.indices(len(self)))]
        n = len(self)
        i = index + n if index < 0 else index
        if not 0 <= i < n:
            raise IndexError("game spec index out of range")
        return self._spec(i)

    def __iter__(self):  # noqa: ANN204
        return (self._spec(i) for i in range(len(self)))

    def firsts(self) -> list[GameSpec]:
        """The first game of every cell (what ``guard.check_cells`` tries before any game)."""
        return [self._spec(ci * self._args[2]) for ci in range(len(self._cells))]


def make_specs(cells: list[RulesConfig], white: str, black: str, games: int, seed: int, max_plies: int,
               events: bool, engine: str = "python") -> GameSpecs:
    """Game specs for ``games`` games per cell, built lazily; ``game_id = cell_index * games + game_index``."""
    return GameSpecs(cells, white, black, games, seed, max_plies, events, engine)


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
    row.update({"game": "terrafeud", "outcome": "unfinished", "players": "white,black", "max_plies": spec.max_plies})
    return row


def play_game(spec: GameSpec) -> GameResult:
    """Play one game to its end or the ply cap; never raises for a failure inside the game.

    Event rows are numbered by ``ply`` from 1 (the first action); ``eval_white`` is ``material``
    from White's view after the action and its triggers, feudal counted at 1000.
    """
    if spec.game != "terrafeud":
        from .protocol_play import play_protocol_game

        return play_protocol_game(spec)
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


def play_chunk(specs: Sequence[GameSpec]) -> list[GameResult]:
    """Several games in one task, to keep scheduling overhead small next to the games."""
    return [play_game(s) for s in specs]


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


def error_result(spec: GameSpec, message: str) -> GameResult:
    """The row of a game that could not be played at all (its worker kept dying)."""
    if spec.game != "terrafeud":
        from workbench.games import get

        from .protocol_play import base_row

        game = get(spec.game)
        row = base_row(spec, game, game.spec.make(spec.rules))
    else:
        row = _base_row(spec)
    row["victory"] = row["outcome"] = "error"
    row["error"] = message
    return GameResult(row)


# ---------------------------------------------------------------------- tables and files
def games_frame(rows: Iterable[dict[str, Any]]) -> pd.DataFrame:
    """The games table with its fixed column types (``draw_after`` nullable integer)."""
    return _frame(pa.Table.from_pylist(list(rows), schema=GAMES_SCHEMA))


def events_frame(rows: Iterable[dict[str, Any]]) -> pd.DataFrame:
    """The long-format events table with its fixed column types."""
    return pa.Table.from_pylist(list(rows), schema=EVENTS_SCHEMA).to_pandas()


def protocol_frame(rows: Iterable[dict[str, Any]]) -> pd.DataFrame:
    """A table of any other game: columns as the game's rows give them (types inferred)."""
    rows = list(rows)
    return pa.Table.from_pylist(rows).to_pandas() if rows else pd.DataFrame()


def _schema_game(parts: list[Path]) -> str:
    """The game a dataset's parts belong to (their run manifest), TerraFeud when unrecorded."""
    for part in parts:
        run = _run_of(part)
        if run is not None:
            try:
                return str(json.loads(run).get("game") or "terrafeud")
            except ValueError:
                return "terrafeud"
    return "terrafeud"


def _concat(tables: list[pa.Table]) -> pa.Table:
    return pa.concat_tables(tables, promote_options="permissive")


def _frame(table: pa.Table) -> pd.DataFrame:
    df = table.to_pandas()
    if "draw_after" in df:
        df["draw_after"] = df["draw_after"].astype("Int64")
    return df


def events_path(out: str | os.PathLike) -> Path:
    """``FILE.events.parquet`` beside ``FILE.parquet``."""
    p = Path(out)
    stem = p.name[: -len(".parquet")] if p.name.endswith(".parquet") else p.name
    return p.with_name(stem + ".events.parquet")


def _parts(path: Path) -> list[Path]:
    if path.is_file():
        return [path]
    if not path.is_dir():
        return []
    return sorted(p for p in path.iterdir() if PART_NAME.match(p.name) and p.is_file())


def _damage(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return text if len(text) <= 120 else text[:117] + "..."


def _read_part(part: Path, **kwargs: Any) -> pa.Table:
    """One part file, or ``DamagedPartError`` naming it (never a raw ``ArrowInvalid``)."""
    try:
        return pq.read_table(part, **kwargs)
    except (pa.ArrowException, OSError, ValueError) as exc:
        raise DamagedPartError(part, _damage(exc)) from None


def _run_of(part: Path) -> str | None:
    """The run manifest (JSON text) stored in a part's metadata; None for parts written before it was."""
    try:
        meta = pq.read_schema(part).metadata or {}
    except (pa.ArrowException, OSError, ValueError) as exc:
        raise DamagedPartError(part, _damage(exc)) from None
    value = meta.get(RUN_KEY)
    return None if value is None else value.decode("utf-8", "replace")


def _describe_run(text: str) -> str:
    try:
        m = json.loads(text)
        return (f"{m.get('white')} vs {m.get('black')}, {m.get('games')} games per cell, seed {m.get('seed')}, "
                f"cells {', '.join(map(str, m.get('cells') or []))}")
    except (ValueError, TypeError, AttributeError):
        return "unreadable run record"


def check_one_batch(path: Path, parts: list[Path], df: pd.DataFrame) -> None:
    """Refuse a folder whose parts come from different batches, naming the batches and the numbers.

    Parts record their batch in their metadata; for parts without it, two rows with one
    ``game_id`` but different seed, cell or agents are two batches' games.
    """
    runs: dict[str, list[Path]] = {}
    for part in parts:
        run = _run_of(part)
        if run is not None:
            runs.setdefault(run, []).append(part)
    if len(runs) > 1:
        lines = [f"batch {i}: {len(ps)} part file(s), {_describe_run(run)}" for i, (run, ps) in enumerate(runs.items(), 1)]
        raise SimulationError(f"{path}: holds parts of {len(runs)} different batches ({'; '.join(lines)}); "
                              "refusing to merge them: move one batch's part files to another folder")
    keys = [c for c in ("seed", "cell", "white_agent", "black_agent") if c in df]
    if "game_id" not in df or not keys:
        return
    dup = df[df.game_id.duplicated(keep=False)]
    if dup.empty:
        return
    clash = dup.groupby("game_id")[keys].nunique(dropna=False).gt(1).any(axis=1)
    numbers = clash[clash].index.tolist()
    if numbers:
        shown = ", ".join(map(str, numbers[:10])) + (", ..." if len(numbers) > 10 else "")
        raise SimulationError(f"{path}: holds games of two batches: {len(numbers)} game numbers ({shown}) appear with "
                              f"different {'/'.join(keys)}; refusing to keep one copy of each silently")


def read_results(path: str | os.PathLike, columns: list[str] | None = None) -> pd.DataFrame:
    """The whole games table of a simulation output (every part, each game once, by ``game_id``).

    Raises ``SimulationError`` when the folder mixes batches (see ``check_one_batch``).
    """
    p = Path(path)
    parts = _parts(p)
    if not parts:
        if not p.exists():
            raise FileNotFoundError(f"{p}: no simulation output here")
        return games_frame([])[columns] if columns else games_frame([])
    wanted = None if columns is None else list(dict.fromkeys(
        [*columns, *(c for c in ("game_id", "seed", "cell", "white_agent", "black_agent") if c in GAMES_SCHEMA.names)]))
    if _schema_game(parts) != "terrafeud":
        table = _concat([_read_part(f) for f in parts])
        wanted = None if wanted is None else [c for c in wanted if c in table.column_names]
        if wanted is not None:
            table = table.select(wanted)
    else:
        table = pa.concat_tables([_read_part(f, schema=GAMES_SCHEMA) if wanted is None
                                  else _read_part(f, columns=wanted) for f in parts])
    df = _frame(table)
    if len(parts) > 1:
        check_one_batch(p, parts, df)
    if "game_id" in df:
        df = df.drop_duplicates("game_id", keep="last").sort_values("game_id", kind="stable")
    if columns is not None:
        df = df[columns]
    return df.reset_index(drop=True)


def read_events(path: str | os.PathLike) -> pd.DataFrame:
    """The events table beside a simulation output (``FILE.events.parquet``), or the path itself."""
    p = Path(path)
    if not p.name.endswith(".events.parquet"):
        p = events_path(p)
    parts = _parts(p)
    if not parts:
        return events_frame([])
    if len(parts) > 1:
        check_one_batch(p, parts, pd.DataFrame())  # parts' run records only: event rows carry no seed
    if _schema_game(parts) != "terrafeud":
        df = _concat([_read_part(f) for f in parts]).to_pandas()
    else:
        df = pa.concat_tables([_read_part(f, schema=EVENTS_SCHEMA) for f in parts]).to_pandas()
    return df.drop_duplicates(["game_id", "ply"], keep="last").sort_values(["game_id", "ply"]).reset_index(drop=True)


def _write_atomic(table: pa.Table, directory: Path, name: str, run: str | None = None) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    if run is not None:
        table = table.replace_schema_metadata({**(table.schema.metadata or {}), RUN_KEY: run.encode()})
    tmp = directory / f".tmp-{name}"
    pq.write_table(table, tmp)
    final = directory / name
    os.replace(tmp, final)
    return final


class PartWriter:
    """Appends finished games to the output dataset in whole, atomically renamed part files.

    A part is flushed every ``flush_seconds`` or ``flush_games`` games, whichever comes first,
    so a kill -9 loses at most that much; ``close`` flushes the rest and compacts the parts.
    """

    def __init__(self, out: str | os.PathLike, events: bool, flush_seconds: float = 1.0, flush_games: int = 500,
                 manifest: dict | None = None) -> None:
        self.out = Path(out)
        terrafeud = (manifest or {}).get("game", "terrafeud") == "terrafeud"
        # TerraFeud's tables keep their fixed schema; another game's columns come from its rows
        self.schema = GAMES_SCHEMA if terrafeud else None
        self.events_schema = EVENTS_SCHEMA if terrafeud else None
        self.run = None if manifest is None else json.dumps(manifest, sort_keys=True)
        self.written = 0  # games written by this writer
        self.events_out = events_path(out) if events else None
        self.flush_seconds = flush_seconds
        self.flush_games = flush_games
        self._rows: list[dict[str, Any]] = []
        self._events: list[dict[str, Any]] = []
        self._last = time.monotonic()
        self._run = uuid.uuid4().hex[:8]
        self._n = 0

    def add(self, result: GameResult) -> None:
        """Buffer one game; flush when the buffer is due."""
        self._rows.append(result.row)
        self._events.extend(result.events)
        if len(self._rows) >= self.flush_games or time.monotonic() - self._last >= self.flush_seconds:
            self.flush()

    def flush(self) -> None:
        """Write the buffered games (events first, so a games row never lacks its events)."""
        self._last = time.monotonic()
        if not self._rows:
            return
        name = f"part-{self._run}-{self._n:05d}.parquet"
        if self.events_out is not None:
            _write_atomic(pa.Table.from_pylist(self._events, schema=self.events_schema), self.events_out, name, self.run)
        _write_atomic(pa.Table.from_pylist(self._rows, schema=self.schema), self.out, name, self.run)
        self._n += 1
        self.written += len(self._rows)
        self._rows, self._events = [], []

    def close(self, compact: bool = True) -> None:
        """Flush, then merge the parts into one file (duplicates are harmless if killed midway)."""
        self.flush()
        if compact:
            compact_dataset(self.out, self.schema, ["game_id"])
            if self.events_out is not None:
                compact_dataset(self.events_out, self.events_schema, ["game_id", "ply"])


MERGE_ROWS = {"game_id": 50_000, "ply": 2_000_000}  # rows per merged part: games; events (keyed by ply too)


def compact_dataset(directory: Path, schema: pa.Schema | None, keys: list[str]) -> None:
    """Merge a dataset's parts into few parts of at most ``MERGE_ROWS`` rows each.

    The originals are deleted only after every merged file has been read back with the same
    keys, so a failed or damaged merge loses nothing; a part that cannot be read stops the merge
    (every part stays, ``read_results`` names the damaged one). Parts of different batches are
    left as they are: merging would keep one copy of each game number and hide the mix.
    """
    parts = _parts(directory)
    if len(parts) <= 1:
        return
    try:
        runs = {_run_of(f) for f in parts}
        if len(runs) > 1:
            return
        table = _concat([_read_part(f, schema=schema) for f in parts])
    except DamagedPartError:
        return
    df = table.to_pandas()
    df = df.drop_duplicates(keys, keep="last").sort_values(keys, kind="stable")
    run = runs.pop()
    size = MERGE_ROWS[keys[-1]] if keys[-1] in MERGE_ROWS else MERGE_ROWS["game_id"]
    written: list[Path] = []
    try:
        for start in range(0, len(df), size):
            merged = pa.Table.from_pandas(df.iloc[start:start + size], schema=schema if schema is not None
                                          else table.schema, preserve_index=False)
            path = _write_atomic(merged, directory, f"part-{uuid.uuid4().hex[:8]}-merged.parquet", run)
            written.append(path)
            back = _read_part(path, columns=keys)
            if not back.equals(merged.select(keys)):
                raise DamagedPartError(path, "it does not read back as written")
    except (SimulationError, OSError):
        for path in written:  # keep the originals: they are the verified copy
            path.unlink(missing_ok=True)
        return
    for f in parts:
        if f not in written:
            f.unlink(missing_ok=True)


def run_manifest(cells: list[Any], white: str, black: str, games: int, seed: int, max_plies: int,
                 events: bool = False, game: str = "terrafeud", agents: tuple[str, ...] = ()) -> dict:
    """What identifies a batch: a resumed run must match it exactly (``events`` too, or some games
    would have events and others not). TerraFeud's manifest keeps its old keys, so old runs resume."""
    out = {"cells": [c.label() for c in cells], "white": white, "black": black, "games": games, "seed": seed,
           "max_plies": max_plies, "events": bool(events)}
    if game != "terrafeud":
        out.update({"game": game, "agents": list(agents)})
    return out


__all__ = [
    "EVENT_COLUMNS", "GAME_COLUMNS", "PARAMETERS", "RULES", "RULE_COLUMNS", "DamagedPartError", "GameResult", "GameSpec",
    "GameSpecs", "PartWriter", "SimulationError", "agent_seed",
    "drama", "error_result", "events_frame", "events_path", "expand_grid", "game_seed", "games_frame",
    "fired_text", "lead_changes", "make_specs", "play_chunk", "play_game", "read_events",
    "read_results", "replay_game", "rule_columns", "rule_counts",
]
