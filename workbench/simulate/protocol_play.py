"""Every game through simulate: grids from the game's rules spec, seeds, specs, one game, its rows.

Every game, ``openspiel:NAME`` included, is played here from ``workbench.games.get(spec.game)`` alone,
resolved once per process (a pool or Dask worker receives the game's name and rules in each spec). Rows
carry the game's name, its seats in order (``players``), one agent column per seat, the outcome apart
from the winner (``win``/``draw``/``unfinished``: a capped game is unfinished, never a draw), the cap,
the game's own rule columns and extras (``GameDef.game_row``), and rule-usage counters per seat. A game
that writes its own rows from the whole game (``GameDef.play_row``: TerraFeud's piece losses and drama,
its native whole games) is handed the spec and the seats' agents here, and returns the row.
"""

from __future__ import annotations

import functools
import itertools
import math
import random
import time
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, overload

from workbench.core.agents import Opening
from workbench.core.protocol import CHANCE
from workbench.core.rows import GENERIC_COLUMNS as GENERIC_COLUMNS  # the row kit, named here as before
from workbench.core.rows import _cell_value as _cell_value
from workbench.core.rows import base_row as base_row
from workbench.core.rows import close_row as close_row
from workbench.core.rows import derive as derive
from workbench.core.rows import error_row as error_row
from workbench.core.rows import finish_row as finish_row
from workbench.core.rows import game_extras as game_extras
from workbench.core.rows import seat_agents as seat_agents
from workbench.core.rulespec import Rules, RulesError, format_value

from .seeds import SimulationError

MAX_SEATS = 25


def protocol_game_seed(game: str, seed: int, cell: int, index: int) -> int:
    """Seed of game ``index`` of cell ``cell``: salted with the game's name, so games never share streams."""
    from .seeds import game_seed

    return game_seed(seed, cell, index, game)


def expand_protocol_grid(game_name: str, grid: dict[str, Sequence[Any]] | Sequence[Any] | None) -> list[Rules]:
    """Cells of a grid over a game's rules spec; every value checked alone, then every combination."""
    from .seeds import MAX_CELLS

    game = resolved(game_name)
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
                seen: dict[str, Any] = {}
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
                cells.append(item if isinstance(item, Rules) else spec.make(_plain_rules(item)))
    except RulesError as exc:
        raise SimulationError(f"grid: {exc}") from None
    labels = [c.label() for c in cells]
    if len(set(labels)) != len(labels):
        raise SimulationError("grid: a cell appears twice")
    if not cells:
        raise SimulationError("grid: no cells to play")
    _one_seat_list(game, game_name, cells, grid)
    return cells


def _plain_rules(item: Any) -> Any:
    """A cell given as a game's own rules object (its engine's config, with ``to_dict()``), a mapping or text."""
    if isinstance(item, (Mapping, str)) or item is None:
        return item
    to_dict = getattr(item, "to_dict", None)  # an engine's rules object, not a GameDef hook
    if to_dict is None:
        raise SimulationError(f"grid cell {item!r} must be rules, a mapping or a 'key=value' string")
    return to_dict()


def cell_spec(game: Any, rules: Rules) -> tuple[str, dict[str, Any]]:
    """A cell's label (``cell`` column) and rules data (``GameSpec.rules``): the game's own (``GameDef.cell_spec``)
    or the rules' label (``default`` for the rulebook's) and the values that differ from the defaults."""
    own: tuple[str, dict[str, Any]] | None = game.cell_spec(rules)
    if own is not None:
        return own
    return rules.label() or "default", {k: _cell_value(v) for k, v in rules.non_default().items()}


def manifest_labels(game_name: str, cells: Sequence[Any]) -> list[str]:
    """The cells as a run record lists them (a resumed batch must list the same)."""
    game = resolved(game_name)
    out = []
    for c in cells:
        own = game.cell_spec(c) if isinstance(c, Rules) else None
        out.append(own[0] if own is not None else c.label())
    return out


def _one_seat_list(game: Any, game_name: str, cells: Sequence[Rules], grid: Any) -> None:
    """Refuse, before any game, a grid whose cells seat different players (``board=classic-2,classic-4``):
    ``report`` reads one seat list per table, so such a batch could never be reported. The error gives the
    reason and one command per seat list to run instead."""

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


@functools.cache
def resolved(game_name: str) -> Any:
    """The ``GameDef`` of ``game_name``, looked up once per process (each pool or Dask worker).

    A fresh worker has imported nothing yet: the agents package installs core's agent factory, which a
    game's own whole-game runner asks for its Python seats (a Dask worker otherwise wrote error rows).
    """
    import workbench.agents  # noqa: F401 - installs core.agents' factory in this process
    from workbench.games import get

    return get(game_name)


class ToolSeats:
    """The seats' agents for a game that writes its own rows (``core.protocol.SeatAgents``), built as every tool
    builds them (``workbench.agents.make_agent``: the game's own agents, the generic ones, registered ones)."""

    def __init__(self, game_name: str) -> None:
        self.game = game_name

    def make(self, spec: str, seed: int | None, engine: str) -> Any:
        from workbench.agents import make_agent

        return make_agent(spec, seed=seed, engine=engine, game=self.game)

    def engine(self, spec: str, engine: str) -> str:
        from workbench.agents import agent_engine, parse_agent_spec

        return agent_engine(parse_agent_spec(spec)[0], engine, game=self.game)

    def protocol(self, spec: str) -> bool:
        """Every agent reads the protocol's ``State`` but one a user registered for the game's engine state."""
        from workbench.agents import is_registered

        return not is_registered(spec, self.game)


@functools.cache
def tool_seats(game_name: str) -> ToolSeats:
    """One ``ToolSeats`` per game and process."""
    return ToolSeats(game_name)


def seat_agent(game: Any, name: str, rules: Any, seed: int) -> Any:
    """The agent of one seat: a spec pinned ``engine=native`` is the game's native twin when it has one
    (``GameDef.native.agent``), so one game can pit a native agent against its Python original;
    any other spec is the protocol agent (``make_protocol_agent``)."""
    from workbench.agents import parse_agent_spec
    from workbench.agents.generic import make_protocol_agent

    _, params = parse_agent_spec(name)
    # barring (bar=) is Python's; learned weights (eval=) are read by every core
    if str(params.get("engine", "")).strip().lower() == "native" and not {"bar", *PYTHON_ONLY} & set(params):
        agent = game.native.agent(name, rules, seed)
        if agent is not None:
            return agent
    return make_protocol_agent(name, game, rules, seed=seed)


PYTHON_ONLY: frozenset[str] = frozenset()  # every core reads learned weights (eval=) now: nothing is Python-only


def play_protocol_game(spec: Any, own_rows: bool = True) -> Any:
    """Play one game of any game to its end or the cap; a failure is a row, never a raise.

    A game that writes its own rows (``GameDef.play_row``) plays it, unless ``own_rows`` is False:
    restricted play bars actions in this loop, with the generic agents, for every game alike."""
    from .seeds import GameResult, agent_seed

    game = resolved(spec.game)
    if own_rows:
        own = game.play_row(spec, tool_seats(spec.game))
        if own is not None:
            return own
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
        if spec.opening:  # the batch's fixed random opening, the same for every seat (core.agents.Opening)
            agents = [Opening(a, spec.opening, spec.opening_seed) for a in agents]
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


def expand_grid(grid: dict[str, Sequence[Any]] | Sequence[Any] | None, game: str | None = None) -> list[Rules]:
    """``expand_protocol_grid`` with the game last (the registry's default when None), as older code calls it."""
    from workbench.games import DEFAULT

    return expand_protocol_grid(game or DEFAULT, grid)


def replay_game(row: Mapping[str, Any], max_plies: int = 300, events: bool = True, game: str | None = None) -> Any:
    """Play again the game of a games-table row (e.g. one with ``victory='error'``) from its seed, rules and agents.

    The row's ``game`` column names its game (``game`` when the row has none; else the registry's default,
    whose tables had no such column); its rules come from ``GameDef.row_rules`` or its ``rules`` label, its
    agents from ``agent_<seat>`` (or the names older tables of the game gave them, ``TableSchema.renamed_columns``).
    """
    from workbench.games import DEFAULT

    from .seeds import GameSpec

    r = dict(row)
    name = game or (str(r["game"]) if isinstance(r.get("game"), str) and r["game"] else DEFAULT)
    gdef = resolved(name)
    if isinstance(r.get("players"), str) and r["players"]:
        players = r["players"].split(",")
    else:
        players = list(gdef.info(gdef.spec.defaults()).players)
    older = {new: old for old, new in gdef.table.renamed_columns}
    agents = []
    for p in players:
        value = r.get(f"agent_{p}")
        if not isinstance(value, str) or not value:
            value = r.get(older.get(f"agent_{p}", ""))
        if not isinstance(value, str) or not value:
            raise ValueError(f"the row has no agent for seat {p} (agent_{p})")
        agents.append(value)
    data = gdef.row_rules(r)
    if data is None:
        label = r.get("rules")
        data = cell_spec(gdef, gdef.spec.make(label if isinstance(label, str) and label else None))[1]
    opening = r.get("opening")
    plies = int(opening) if isinstance(opening, (int, float)) and opening == opening else 0  # NaN: none
    spec = GameSpec(int(r["game_id"]), str(r["cell"]), data, seed=int(r["seed"]), max_plies=max_plies, events=events,
                    game=name, agents=tuple(agents), opening=plies,
                    opening_seed=int(r["opening_seed"]) if plies else 0)
    return play_protocol_game(spec)


class GameSpecs(Sequence[Any]):
    """A batch's specs, made on demand: ``cells x games`` of them are never all in memory at once unless a
    caller lists them (``game_id = cell_index * games + game_index``)."""

    def __init__(self, game_name: str, cells: Sequence[Rules], agents: tuple[str, ...], games: int, seed: int,
                 max_plies: int, events: bool, engine: str, opening: int = 0, opening_base: int | None = None) -> None:
        game = resolved(game_name)
        self._cells = [cell_spec(game, rules) for rules in cells]
        self._game = game_name
        self._args = (agents, games, seed, max_plies, events, engine)
        self._opening = (int(opening), seed if opening_base is None else int(opening_base))

    def __len__(self) -> int:
        return len(self._cells) * self._args[1]

    def _spec(self, i: int) -> Any:
        from .seeds import GameSpec, opening_seed

        agents, games, seed, max_plies, events, engine = self._args
        ci, gi = divmod(i, games)
        label, data = self._cells[ci]
        plies, base = self._opening
        return GameSpec(i, label, data, seed=protocol_game_seed(self._game, seed, ci, gi), max_plies=max_plies,
                        events=events, engine=engine, game=self._game, agents=agents, opening=plies,
                        opening_seed=opening_seed(base, gi, self._game) if plies else 0)

    @overload
    def __getitem__(self, index: int) -> Any: ...

    @overload
    def __getitem__(self, index: slice) -> list[Any]: ...

    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return [self._spec(i) for i in range(*index.indices(len(self)))]
        n = len(self)
        i = index + n if index < 0 else index
        if not 0 <= i < n:
            raise IndexError("game spec index out of range")
        return self._spec(i)

    def __iter__(self) -> Iterator[Any]:
        return (self._spec(i) for i in range(len(self)))

    def firsts(self) -> list[Any]:
        """The first game of every cell (what the checks try before any game)."""
        return [self._spec(ci * self._args[1]) for ci in range(len(self._cells))]


def protocol_specs(game_name: str, cells: Sequence[Rules], agents: str | Sequence[str], games: int, seed: int,
                   max_plies: int, events: bool, engine: str = "python", opening: int = 0,
                   opening_base: int | None = None) -> GameSpecs:
    """Specs for ``games`` games per cell, made lazily; ``game_id = cell_index * games + game_index``.

    ``agents``: the seats' agents (one for every seat, one per seat, or two taking turns: ``seat_agents``).

    ``engine`` ``native`` plays a game in its native core when the game has one and every seat's
    agent has a native twin (the row's ``engine`` column says which engine played).

    ``opening``: each game's first ``opening`` plies are a fixed random opening (``core.agents.Opening``),
    game ``i``'s seeded from ``opening_base`` (default ``seed``) and ``i`` alone, so batches sharing the base
    play the same openings.
    """
    seats = (agents,) if isinstance(agents, str) else tuple(agents)
    if not seats:
        raise ValueError("name the seats' agents")
    return GameSpecs(game_name, cells, seats, games, seed, max_plies, events, engine, opening, opening_base)
