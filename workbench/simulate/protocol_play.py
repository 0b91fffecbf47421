"""Any protocol game through simulate: grids from the game's rules spec, seeds, one game, its rows.

TerraFeud keeps its own tuned path (``core.play_game``, with the native core); every other game,
``openspiel:NAME`` included, is played here from ``workbench.games.get(spec.game)`` alone. Rows carry
the game's name, its seats in order (``players``), one agent column per seat, the outcome apart from
the winner (``win``/``draw``/``unfinished``: a capped game is unfinished, never a draw), the cap, the
game's own rule columns and extras (``GameDef.game_row``), and rule-usage counters per seat.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Mapping, Sequence
from typing import Any

from workbench.core.protocol import CHANCE
from workbench.core.rows import (  # noqa: F401 - the row kit, shared with the games
    GENERIC_COLUMNS,
    _cell_value,
    base_row,
    close_row,
    derive,
    error_row,
    finish_row,
    game_extras,
    seat_agents,
)
from workbench.core.rulespec import Rules, RulesError, format_value

MAX_SEATS = 25


def protocol_game_seed(game: str, seed: int, cell: int, index: int) -> int:
    """Seed of game ``index`` of cell ``cell``: salted with the game's name, so games never share streams."""
    from .seeds import game_seed

    return game_seed(seed, cell, index, game)


def expand_protocol_grid(game_name: str, grid: dict[str, Sequence[Any]] | Sequence[Any] | None) -> list[Rules]:
    """Cells of a grid over a game's rules spec; every value checked alone, then every combination."""
    from workbench.games import get

    from .core import MAX_CELLS, SimulationError

    game = get(game_name)
    spec = game.spec
    if grid is None:
        return [spec.defaults()]
    cells: list[Rules] = []
    try:
        if isinstance(grid, dict):
            keys = list(grid)
            values = []
            for key in keys:
                raw = grid[key]
                vals = list(raw) if isinstance(raw, (list, tuple)) else [raw]
                vals = [v for item in vals for v in _shorthand(game, key, item)]
                if not vals:
                    raise SimulationError(f"grid {key!r} has no values")
                if key not in spec:
                    raise SimulationError(f"grid {key}: {spec.unknown(key)}")
                seen = {}
                for v in vals:
                    try:
                        canon = format_value(spec[key].parse(v))
                    except RulesError as exc:
                        raise SimulationError(f"grid {key}={v}: {exc}") from None
                    if canon in seen:
                        raise SimulationError(f"grid {key}: the values {seen[canon]!r} and {v!r} are the same rule; "
                                              "list each value once")
                    seen[canon] = v
                values.append(vals)
            size = math.prod(len(v) for v in values)
            if size > MAX_CELLS:  # before any cell is built, as the TerraFeud grid
                shown = " x ".join(f"{len(v)} {k}" for k, v in zip(keys, values, strict=True))
                raise SimulationError(f"grid: {shown} = {size:,} cells; at most {MAX_CELLS:,} per batch")
            for combo in itertools.product(*values):
                pairs = dict(zip(keys, combo, strict=True))
                try:
                    cells.append(spec.make(pairs))
                except RulesError as exc:
                    shown = " ".join(f"{k}={v}" for k, v in pairs.items())
                    raise SimulationError(f"grid cell {shown}: {exc}") from None
        else:
            for item in grid:
                cells.append(item if isinstance(item, Rules) else spec.make(item))
    except RulesError as exc:
        raise SimulationError(f"grid: {exc}") from None
    labels = [c.label() for c in cells]
    if len(set(labels)) != len(labels):
        raise SimulationError("grid: a cell appears twice")
    if not cells:
        raise SimulationError("grid: no cells to play")
    _one_seat_list(game, game_name, cells, grid)
    return cells


def _one_seat_list(game: Any, game_name: str, cells: Sequence[Rules], grid: Any) -> None:
    """Refuse, before any game, a grid whose cells seat different players (``board=classic-2,classic-4``):
    ``report`` reads one seat list per table, so such a batch could never be reported. The error gives the
    reason and one command per seat list to run instead."""
    from .core import SimulationError

    groups: dict[tuple[str, ...], list[Rules]] = {}
    for cell in cells:
        try:
            seats = tuple(game.info(cell).players)
        except Exception:  # noqa: BLE001 - a cell the game cannot describe is refused later, by name
            return
        groups.setdefault(seats, []).append(cell)
    if len(groups) < 2:
        return
    keys = list(grid) if isinstance(grid, dict) else sorted({k for c in cells for k in c.non_default()})
    commands, kinds = [], []
    for seats, group in groups.items():
        parts = []
        for key in keys:
            values = list(dict.fromkeys(format_value(c[key]) for c in group))
            parts.append(f"{key}={','.join(values)}")
        kinds.append(f"{','.join(seats)} ({len(group)} cell{'s' if len(group) > 1 else ''})")
        commands.append(f"python -m workbench simulate --game {game_name} --grid {' '.join(parts)} ...")
    raise SimulationError(
        f"grid: its cells seat different players ({'; '.join(kinds)}), and a report reads one seat list per "
        f"table; run one batch per seat list instead: {' ; '.join(commands)}")


def _shorthand(game: Any, key: str, value: Any) -> list[Any]:
    """A game may expand one grid value into several (The Cursed Lands: ``factions=all`` is 16 pairs)."""
    out = game.grid_values(key, value)
    return [value] if out is None else list(out)


DEFAULT_MAX_PLIES = 300  # simulate's and tune's cap when neither the user nor the game names one


def default_max_plies(game_name: str, cells: Sequence[Any] | None = None, fallback: int = DEFAULT_MAX_PLIES) -> int:
    """The ply cap when the user gives none: the game's own (``GameInfo.default_max_plies``, the largest
    over ``cells``, default rules when None), else ``fallback`` (TerraFeud and games without a cap)."""
    from workbench.games import get

    game = get(game_name)
    caps = []
    for cell in cells if cells is not None else [game.spec.defaults()]:
        if isinstance(cell, Rules):
            rules = cell
        elif cell is None or isinstance(cell, (Mapping, str)):
            rules = game.spec.make(cell)
        else:  # a game's own configuration object (its own simulate path's cells): its default rules' cap
            rules = game.spec.defaults()
        cap = game.info(rules).default_max_plies
        if cap:
            caps.append(int(cap))
    return max(caps) if caps else fallback


def parse_seat_agents(text: str, players: Sequence[str]) -> tuple[str, ...]:
    """``--agents greedy`` (every seat) or ``--agents a=greedy,b=mcts:iterations=50`` (by seat name)."""
    text = text.strip()
    first = text.split(",", 1)[0]
    if "=" not in first or ":" in first.split("=", 1)[0]:
        return (text,)
    out: dict[str, str] = {}
    current = None
    for part in text.split(","):
        head = part.split("=", 1)[0].strip()
        if "=" in part and head in players and ":" not in head:
            current = head
            out[current] = part.split("=", 1)[1].strip()
        elif current is not None:
            out[current] += "," + part  # an agent's own parameters: b=mcts:iterations=50,c=2
        else:
            raise ValueError(f"--agents {text[:60]!r}: name a seat ({', '.join(players)}) before each agent")
    missing = [p for p in players if p not in out]
    if missing:
        raise ValueError(f"--agents: no agent for seat(s) {', '.join(missing)}")
    return tuple(out[p] for p in players)


def resolve_protocol_engine(game_name: str, engine: str | None) -> str:
    """``core.protocol.resolve_engine`` for the game named ``game_name`` (``ValueError`` when ``native`` cannot play)."""
    from workbench.core.protocol import resolve_engine
    from workbench.games import get

    return resolve_engine(get(game_name), engine)


def sample_outcome(outcomes: list[tuple[int, float]], rng: random.Random) -> int:
    """One chance outcome by its probability (the same draw in-process, in the pool and on Dask)."""
    r, acc = rng.random(), 0.0
    for o, p in outcomes:
        acc += p
        if r < acc:
            return o
    return outcomes[-1][0]


def seat_agent(game: Any, name: str, rules: Any, seed: int) -> Any:
    """The agent of one seat: a spec pinned ``engine=native`` is the game's native twin when it has one
    (``GameDef.native.agent``), so one game can pit a native agent against its Python original;
    any other spec is the protocol agent (``make_protocol_agent``)."""
    from workbench.agents import parse_agent_spec
    from workbench.agents.generic import make_protocol_agent

    _, params = parse_agent_spec(name)
    # barring (bar=) and learned weights (eval=) are Python's
    if str(params.get("engine", "")).strip().lower() == "native" and not {"bar", *PYTHON_ONLY} & set(params):
        agent = game.native.agent(name, rules, seed)
        if agent is not None:
            return agent
    return make_protocol_agent(name, game, rules, seed=seed)


PYTHON_ONLY = frozenset({"eval"})  # read by one seat's native twin only where its core has the features (Pole)


def play_protocol_game(spec: Any) -> Any:
    """Play one game of any protocol game to its end or the cap; a failure is a row, never a raise."""
    from workbench.games import get

    from .core import GameResult
    from .seeds import agent_seed

    game = get(spec.game)
    if spec.engine == "native":  # a game whose native core plays whole games, rows included
        result = game.native.play_game(spec)
        if result is not None:
            return result
    t0 = time.perf_counter()
    rules = game.spec.make(spec.rules)
    row = base_row(spec, game, rules)
    events: list[dict[str, Any]] = []
    state = None
    n_legal: list[int] = []
    try:
        info = game.info(rules)
        seats = seat_agents(spec, info.num_players)
        # the same game, in Rust (learned weights, eval=, only where the game's core reads them: its play_trace
        # answers None otherwise and the Python loop plays)
        native = spec.engine == "native"
        played = game.native.play_trace(spec, rules, seats) if native else None
        if played is not None:
            state, events, n_legal = played
            row["engine"] = "native"
        else:
            state = game.new_initial_state(rules, spec.seed)
        agents = [] if played is not None else [
            seat_agent(game, a, rules, agent_seed(spec.seed, i, spec.game)) for i, a in enumerate(seats)]
        chance_rng = random.Random(derive(f"{spec.game}-chance", spec.seed))
        names = {c.id: c.name for c in game.layout(rules).cells} if spec.events else {}
        while played is None and not state.is_terminal() and state.move_number() < spec.max_plies:
            player = state.current_player()
            if player == CHANCE:
                action = sample_outcome(state.chance_outcomes(), chance_rng)
                n = 0
            else:
                n = len(state.legal_actions(player))  # its own (a simultaneous phase lists every seat's)
                action = agents[player].select_action(state)
                n_legal.append(n)
            if spec.events:
                text = state.action_to_string(action)
                extra = game.event_row(state, action)
            state.apply_action(action)
            if spec.events:
                fired = ",".join(r if c is None else f"{r}@{names.get(c, c)}" for r, _, c in state.fired())
                events.append({"game_id": spec.game_id, "ply": state.move_number(), "turn": state.turn(),
                               "side": "chance" if player == CHANCE else info.players[player], "action": text,
                               "n_legal": n, "rules": fired, **extra})
        finish_row(row, game, info, state)
        for i, agent in enumerate(agents):
            tally = getattr(agent, "tally", None)  # restricted play's own counts (workbench.agents.restrict)
            if tally is not None:
                row.update({f"{k}_{info.players[i]}": v for k, v in tally().items()})
    except Exception as exc:  # noqa: BLE001 - a failing game is data, the batch goes on
        error_row(row, state, exc)
    return GameResult(close_row(row, state, n_legal, t0), events)


def replay_events(game_name: str, rules: Rules | str | None, actions: Sequence[str], seed: int = 0) -> Any:
    """The state a game's events lead to: its ``action`` column, one text per ply, from the rules' start.

    Decisions and chance outcomes alike are read back with ``string_to_action``, so a dice game
    replays from its events alone (``e5xe9`` then ``6:2`` in Pole): no seed or agent is needed.
    ``rules`` is the game row's ``rules`` label (``k=v,...``) or ``Rules``; ``IllegalAction`` names the
    ply that does not replay.
    """
    from workbench.core.protocol import IllegalAction
    from workbench.games import get

    game = get(game_name)
    rules = rules if isinstance(rules, Rules) else game.spec.make(rules or None)
    state = game.new_initial_state(rules, seed)
    for ply, text in enumerate(actions, start=1):
        try:
            state.apply_action(state.string_to_action(str(text)))
        except IllegalAction as exc:
            raise IllegalAction(f"ply {ply} ({text}): {exc}") from None
    return state


def protocol_specs(game_name: str, cells: list[Rules], white: str, black: str, agents: tuple[str, ...], games: int,
                   seed: int, max_plies: int, events: bool, engine: str = "python") -> list[Any]:
    """Specs for ``games`` games per cell; ``game_id = cell_index * games + game_index``.

    ``engine`` ``native`` plays a game in its native core when the game has one and every seat's
    agent has a native twin (the row's ``engine`` column says which engine played).
    """
    from .core import GameSpec

    specs = []
    for ci, rules in enumerate(cells):
        label = rules.label() or "default"
        data = {k: _cell_value(v) for k, v in rules.non_default().items()}
        for gi in range(games):
            specs.append(GameSpec(ci * games + gi, label, data, white, black,
                                  protocol_game_seed(game_name, seed, ci, gi), max_plies, events, engine,
                                  game=game_name, agents=agents))
    return specs
