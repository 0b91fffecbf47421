"""``workbench ablate``: what each option is worth, by restricted play (Jaffe et al., AIIDE 2012).

``python -m workbench ablate --game pole --agent greedy --pairs 40 [--classes a,b] [--grid k=v1,v2]
[--engine auto|native|python] [--out DIR [--resume]] [--workers N | --scheduler local-cluster]``

For every action class the game declares (``GameDef.action_classes``), the agent barred from it
(``AGENT:bar=CLASS``) plays the same agent unbarred (``AGENT:bar=none``, which bars nothing and counts the
same things) on ``--pairs`` seeds, the barred side in every seat of each seed (seats swapped), and the
control games play the unbarred agent against itself on the same seeds (per-seat baselines). A game plays in
the game's native core, its classifier in Rust (``GameDef.native.play_barred``), when the engine is ``native``
(``auto``: when the core is built) and every seat is a generic agent; else on the protocol's Python loop (the
rows' ``engine`` column says which; both write the same row). The games go through
``workbench.simulate.run_specs``: on the local pool or on Dask,
into a resumable Parquet dataset of the same format as ``simulate``'s (its manifest marks the protocol path).
``workbench.balance.worth`` turns the table into worth with intervals, usage and verdicts.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from workbench.balance.worth import WorthTable, worth
from workbench.core.cliargs import Parser, max_workers, seed, whole
from workbench.games import DEFAULT

MAX_PAIRS = 100_000


@dataclass
class Ablation:
    """An ablation's games table, its worth tables, the agent's strength words and the run's seconds."""

    games: pd.DataFrame
    result: WorthTable
    elo: str
    seconds: float
    workers: int

    def text(self) -> str:
        """What ``workbench ablate`` prints."""
        return self.result.text(self.elo)


def class_names(game: Any, classes: Sequence[str] | None) -> list[str]:
    """The classes to bar: ``classes`` (checked) or every class the game declares; ValueError when it has none."""
    decl = game.action_classes
    if decl is None or not decl.classes:
        why = decl.none_reason if decl is not None and decl.none_reason else "its GameDef declares no action classes"
        raise ValueError(f"{game.name} has no action classes to bar: {why}")
    if not classes:
        return list(decl.names())
    unknown = [c for c in classes if c not in decl.names()]
    if unknown:
        raise ValueError(f"{game.name} has no action class {unknown[0][:40]!r}; its classes: {', '.join(decl.names())}")
    return list(dict.fromkeys(classes))


def ablation_specs(game_name: str, cells: list[Any], agent: str, classes: list[str], pairs: int, seed_: int,
                   max_plies: int, seats: int, engine: str = "python") -> list[Any]:
    """The games: per cell, class (the control first) and seed, the barred agent in each seat in turn.

    Seeds are shared by every class and seat of a cell (paired comparisons); ``game_id`` is dense.
    """
    from workbench.simulate.core import GameSpec
    from workbench.simulate.protocol_play import _cell_value, protocol_game_seed

    plain = f"{agent}{',' if ':' in agent else ':'}bar=none"
    specs = []
    bars = ["none", *classes]
    gid = 0
    for ci, rules in enumerate(cells):
        label = rules.label() or "default"
        data = {k: _cell_value(v) for k, v in rules.non_default().items()}
        for bar in bars:
            barred = f"{agent}{',' if ':' in agent else ':'}bar={bar}"
            for j in range(pairs):
                s = protocol_game_seed(game_name, seed_, ci, j)
                for seat in range(seats if bar != "none" else 1):
                    agents = tuple(barred if i == seat else plain for i in range(seats))
                    specs.append(GameSpec(gid, label, data, seed=s, max_plies=max_plies, events=False, engine=engine,
                                          game=game_name, agents=agents))
                    gid += 1
    return specs


NATIVE_BARRED = ("random", "greedy", "alphabeta", "mcts", "search", "plan")  # core::generic's agents, barred natively
NATIVE_PARAMS = frozenset({"depth", "nodes", "seconds", "iterations", "c", "rollout", "scale", "beam", "steps", "reply"})


def native_seats(game: Any, seats: Sequence[str]) -> list[tuple[str, dict[str, float], frozenset[str]]] | None:
    """Each seat's (agent name, native parameters, barred classes) when all can be played barred in the core's
    generic agents, else None (a game's own agent, learned weights, an ``engine=python`` pin: Python plays)."""
    from workbench.agents import parse_agent_spec
    from workbench.agents.restrict import parse_bar

    out = []
    for spec in seats:
        base, params = parse_agent_spec(spec)
        if base not in NATIVE_BARRED or str(params.pop("engine", "auto")).strip().lower() == "python":
            return None
        barred = parse_bar(params.pop("bar", None), game)
        if set(params) - NATIVE_PARAMS:
            return None
        out.append((base, {k: float(v) for k, v in params.items()}, barred))
    return out


def play_ablation_game(spec: Any) -> Any:
    """One ablation game: in the game's native core with its classifier in Rust (``GameDef.native.play_barred``)
    when the spec asks for ``native`` and the core can, else the protocol's Python loop. Same row either way,
    the restricted agents' tallies (``decisions``, ``forced``, ``class_<c>`` per seat) included."""
    from dataclasses import replace

    from workbench.agents.generic import make_protocol_agent
    from workbench.core.rows import base_row, close_row, derive, error_row, finish_row, seat_agents
    from workbench.games import get
    from workbench.simulate.core import GameResult
    from workbench.simulate.protocol_play import play_protocol_game
    from workbench.simulate.seeds import agent_seed

    python = replace(spec, engine="python")
    game = get(spec.game)
    if spec.engine != "native" or not game.native.available() or game.action_classes is None:
        return play_protocol_game(python, own_rows=False)
    t0 = time.perf_counter()
    rules = game.spec.make(spec.rules)
    info = game.info(rules)
    names = seat_agents(spec, info.num_players)
    try:
        seats = native_seats(game, names)
        for a in names:  # the Python twin validates each agent's parameters (same errors, same rows)
            make_protocol_agent(a, game, rules, seed=0)
    except ValueError:  # a bad spec: the Python loop writes its error row
        seats = None
    if seats is None:
        return play_protocol_game(python, own_rows=False)
    order = game.action_classes.names()
    masks = [sum(1 << order.index(c) for c in barred) for _, _, barred in seats]
    start = game.new_initial_state(rules, spec.seed)
    row = base_row(spec, game, rules)
    state = None
    n_legal: list[int] = []
    try:
        played = game.native.play_barred(
            start, [(n, p, agent_seed(spec.seed, i, spec.game)) for i, (n, p, _) in enumerate(seats)], masks,
            len(order), derive(f"{spec.game}-chance", spec.seed), spec.max_plies)
        if played is None:
            return play_protocol_game(python, own_rows=False)
        state, n_legal, tallies = played
        row["engine"] = "native"
        finish_row(row, game, info, state)
        for i, (decisions, forced, counts) in enumerate(tallies):
            seat = info.players[i]
            row[f"decisions_{seat}"] = int(decisions)
            row[f"forced_{seat}"] = int(forced)
            row.update({f"class_{c}_{seat}": int(counts[j]) for j, c in enumerate(order)})
    except Exception as exc:  # noqa: BLE001 - a failing game is data, the batch goes on
        error_row(row, state, exc)
    return GameResult(close_row(row, state, n_legal, t0), [])


def play_ablation_chunk(specs: Sequence[Any]) -> list[Any]:
    """Several ablation games in one task (``play_ablation_game``), for the pool and Dask."""
    return [play_ablation_game(s) for s in specs]


def ablate(game: str = DEFAULT, agent: str = "greedy", classes: Sequence[str] | None = None, pairs: int = 20,
           seed_: int = 0, grid: Any = None, max_plies: int | None = None, out: Any = None, resume: bool = False,
           overwrite: bool = False, workers: int | None = None, scheduler: str | None = None,
           progress: bool = True, alpha: float = 0.05, engine: str | None = "auto") -> Ablation:
    """Play an ablation batch (module docstring) and measure each class's worth; see ``Ablation``."""
    from workbench.agents.generic import make_protocol_agent
    from workbench.core.protocol import resolve_engine
    from workbench.core.strength import agent_strength
    from workbench.games import get
    from workbench.simulate import run_specs
    from workbench.simulate.backends import cpu_workers
    from workbench.simulate.guard import check_total
    from workbench.simulate.protocol_play import default_max_plies, expand_protocol_grid

    gdef = get(game)
    names = class_names(gdef, classes)
    engine = resolve_engine(gdef, engine)
    if not 1 <= int(pairs) <= MAX_PAIRS:
        raise ValueError(f"pairs={pairs}: allowed 1..{MAX_PAIRS}")
    if "bar=" in agent:
        raise ValueError(f"agent {agent!r}: ablate adds bar= itself; name the agent alone")
    cells = expand_protocol_grid(gdef.name, grid)
    rules0 = cells[0]
    make_protocol_agent(agent, gdef, rules0, seed=0)  # a bad agent spec fails here, before any game
    n_seats = gdef.info(rules0).num_players
    if max_plies is None:
        max_plies = default_max_plies(gdef.name, cells)
    check_total(len(cells) * (len(names) * n_seats + 1), int(pairs))  # before the game list is built
    specs = ablation_specs(gdef.name, cells, agent, names, int(pairs), int(seed_), int(max_plies), n_seats, engine)
    manifest = {"command": "ablate", "game": gdef.name, "path": "protocol", "agent": agent, "classes": names,
                "cells": [c.label() for c in cells], "pairs": int(pairs), "seed": int(seed_),
                "max_plies": int(max_plies), "events": False}  # no engine: both play the same games
    t0 = time.perf_counter()
    played = run_specs(specs, manifest, out=out, workers=workers, scheduler=scheduler, resume=resume,
                       overwrite=overwrite, progress=progress, play=play_ablation_chunk)
    games = played[0] if isinstance(played, tuple) else played  # no events were asked for: a table
    seconds = time.perf_counter() - t0
    decl = gdef.action_classes
    assert decl is not None  # class_names refused a game without classes
    result = worth(games, decl.words(), decl.role, alpha)
    elo = agent_strength(gdef, agent, "python") or (f"{agent}'s Elo is not measured for {gdef.title}: run "
                                                    f"`workbench ladder --game {gdef.name} --write`")
    n_workers = 0 if scheduler == "inprocess" else (cpu_workers() if workers is None else workers)
    return Ablation(games, result, elo, seconds, n_workers)


def main(argv: list[str] | None = None) -> int:
    """Print each class's worth per variant (and the variant comparison with ``--grid``)."""
    import sys

    from workbench.simulate.grid import parse_grid

    argv = list(sys.argv[1:] if argv is None else argv)
    ap = Parser(prog="python -m workbench ablate", description=__doc__.split("\n\n")[1])
    ap.add_argument("--game", default=DEFAULT, help="the game (python -m workbench games)")
    ap.add_argument("--agent", default="greedy", help="the agent, barred and unbarred (a generic agent's spec)")
    ap.add_argument("--classes", default="", help="comma-separated classes to bar (default: every declared class)")
    ap.add_argument("--pairs", type=whole(1, MAX_PAIRS), default=20,
                    help="seeds per class; each seed is played with the barred side in every seat")
    ap.add_argument("--grid", action="append", default=[], help="rule=v1,v2 (a table per variant, compared)")
    ap.add_argument("--seed", type=seed(), default=0)
    ap.add_argument("--max-plies", type=whole(1, 1_000_000), default=None)
    ap.add_argument("--out", default=None, help="Parquet dataset folder (resumable)")
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--overwrite", action="store_true")
    ap.add_argument("--workers", type=whole(0, max_workers()), default=None)
    ap.add_argument("--scheduler", default=None, help="local-cluster or tcp://host:port (Dask); default the pool")
    ap.add_argument("--engine", default="auto", choices=("auto", "native", "python"),
                    help="native: barred games in the game's core (its classifier in Rust); auto: native when built")
    ap.add_argument("--csv", default=None, help="also write the worth table as CSV here")
    args = ap.parse_args(argv)
    try:
        grid = parse_grid(args.grid) if args.grid else None
        classes = [c.strip() for c in args.classes.split(",") if c.strip()] or None
        run = ablate(args.game, args.agent, classes, args.pairs, args.seed, grid, args.max_plies, args.out,
                     args.resume, args.overwrite, args.workers, args.scheduler, progress=sys.stderr.isatty(),
                     engine=args.engine)
    except ValueError as exc:
        print(f"ablate: error: {exc}", flush=True)
        return 2
    print(run.text())
    engines = ", ".join(f"{n} {e}" for e, n in run.games["engine"].value_counts().items()) if "engine" in run.games else "?"
    print(f"\n{len(run.games)} games in {run.seconds:.1f} s on {run.workers or 1} worker(s); engine: {engines}")
    if args.csv:
        from workbench.balance.worth import worth_frame

        worth_frame(run.result).to_csv(args.csv, index=False)
    return 0
