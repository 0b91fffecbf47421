"""``tune``: search a game's rule space for the fairest, most decisive variant of sensible length,
with a fraction of a full grid's games.

``tune(game, space=["archer_range=2..4", "castling=swap,sacrifice"], objectives=["balance"],
requires=["decisive>=0.8", "plies<=200"], agents=["greedy"], budget=20000, out="runs/tune.parquet")``
races a discrete space (``race``: successive halving with confidence bounds) or lets optuna explore
a large or mixed one (``optuna_search``), plays every game through simulate's backends into a
Parquet dataset of simulate's format (``runner``), and returns a ``TuneResult``: the ranked table,
the recommendation sentence, the history; with ``out``, the report and its pictures beside it.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Sequence
from typing import Any

from workbench.balance.tunefiles import report_paths
from workbench.games import DEFAULT

from .objectives import ObjectiveError, parse_objective, parse_requirement
from .race import EXPLORE_SHARE, Tuner, run_race
from .report import TuneResult, build_result, pareto_figure, progress_figure
from .space import SpaceError, check_overlap, parse_space, parse_within

MAX_GROWTH = 16.0  # a round at most this many times the last (1e308 overflowed into a traceback)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 30 else text[:27] + "..."


SEARCHES = ("auto", "race", "optuna")
RACE_LIMIT = 400  # variants a race takes on; larger discrete spaces go to optuna under "auto"


class TuneError(ValueError):
    """A tune that cannot run as asked; the message names the flag and why."""


def _as_list(x: str | Sequence[str] | None) -> list[str]:
    if x is None:
        return []
    return [x] if isinstance(x, str) else list(x)


def tune(game: str = DEFAULT, space: Sequence[str] = (), objectives: str | Sequence[str] = ("balance",),
         requires: str | Sequence[str] = (), within: str | Sequence[str] = (), agents: str | Sequence[str] = ("random",),
         budget: int = 20000, seed: int = 0, out: str | os.PathLike[str] | None = None, resume: bool = False,
         overwrite: bool = False, scheduler: str | None = None, workers: int | None = None, max_plies: int | None = None,
         rules: dict[str, Any] | str | None = None, search: str = "auto", alpha: float = 0.05, n0: int = 32,
         growth: float = 1.5, tolerance: float = 0.0, error: str = "holm", halving: bool = False,
         progress: bool = True, engine: str = "auto", runner: Any = None, pictures: bool = True) -> TuneResult:
    """Search ``space`` of ``game``; see the package doc. ``runner`` replaces the real games (tests)."""
    from workbench.core.rulespec import RulesError, parse_pairs
    from workbench.games import get

    t0 = time.perf_counter()
    try:
        gdef = get(game)
    except ValueError as exc:
        raise TuneError(str(exc)) from None
    if search not in SEARCHES:
        raise TuneError(f"search={search!r}: one of {', '.join(SEARCHES)}")
    # the caps simulate keeps (a budget of 10^12 games would grow memory ~19 kB a game until the machine dies)
    from workbench.simulate.guard import MAX_GAMES_PER_CELL, MAX_PLIES, MAX_TOTAL_GAMES

    for name, value, low, high in (("budget", budget, 1, MAX_TOTAL_GAMES), ("n0", n0, 2, MAX_GAMES_PER_CELL),
                                   ("max_plies", 1 if max_plies is None else max_plies, 1, MAX_PLIES)):
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise TuneError(f"{name}={_short(value)} must be a whole number from {low} to {high:,}")
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float)) or not 0 < alpha < 1:
        raise TuneError(f"alpha={_short(alpha)} must be between 0 and 1")
    if isinstance(growth, bool) or not isinstance(growth, (int, float)) or not 1 < growth <= MAX_GROWTH:
        raise TuneError(f"growth={_short(growth)} must be above 1 and at most {MAX_GROWTH:g}")
    if isinstance(tolerance, bool) or not isinstance(tolerance, (int, float)) or not 0 <= tolerance < math.inf:
        raise TuneError(f"tolerance={_short(tolerance)} must be a finite number of at least 0")
    try:
        sp = parse_space(gdef, list(space))
        inner = parse_within(gdef, _as_list(within))
        fixed = parse_pairs(rules) if isinstance(rules, str) else dict(rules or {})
        check_overlap(sp, inner, fixed)
        objs = [parse_objective(o) for o in _as_list(objectives)] or [parse_objective("balance")]
        reqs = [parse_requirement(r) for r in _as_list(requires)]
    except (SpaceError, ObjectiveError, RulesError) as exc:
        raise TuneError(str(exc)) from None
    if any(o.metric in ("worst", "spread") for o in objs) and len(inner) < 2:
        raise TuneError("the worst and faction-spread objectives compare the cells of --within (e.g. factions=all)")
    players = tuple(gdef.info(gdef.spec.defaults()).players)
    agent_list = _agents(gdef, players, agents)
    method = search
    if method == "auto":
        n_variants = sp.size or 0  # None: a continuous space
        method = "race" if sp.discrete and n_variants <= RACE_LIMIT and budget >= 2 * n_variants * n0 * len(inner) \
            else "optuna"
    if method == "race" and not sp.discrete:
        raise TuneError("a race needs discrete values for every --space; continuous ranges need --search optuna")
    # A budget that cannot pay for the first look would play nothing and recommend nothing: say so now.
    per_variant = n0 * len(inner)
    need = (sp.size or 0) * per_variant if method == "race" else math.ceil(per_variant / EXPLORE_SHARE)
    if budget < need:
        what = (f"{sp.size} variants x {n0} games x {len(inner)} inner cells" if method == "race"
                else f"one optuna trial of {n0} games x {len(inner)} inner cells within the {EXPLORE_SHARE:.0%} "
                     "of the budget spent exploring")
        raise TuneError(f"--budget {budget} cannot pay for the first look of the {method if method == 'race' else 'optuna search'}: it needs at least {need} "
                        f"games ({what}); raise --budget or lower --n0")
    stride = budget + 1
    manifest = {"tune": {"space": sp.texts(), "within": _as_list(within), "objectives": [o.name for o in objs],
                         "requires": [r.text for r in reqs], "rules": {k: str(v) for k, v in fixed.items()},
                         "search": method, "alpha": alpha, "n0": n0, "growth": growth, "tolerance": tolerance,
                         "error": error, "halving": halving, "budget": budget, "stride": stride},
                "game": gdef.name, "agents": list(agent_list),
                "seed": seed, "max_plies": max_plies, "events": False, "games": "tune", "cells": []}
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=budget, unit="game", desc="tune (games of the budget)", smoothing=0.1)
    own_runner = runner is None
    if own_runner:
        from workbench.simulate.core import SimulationError

        from .runner import GameRunner

        try:
            runner = GameRunner(gdef, agent_list, inner, seed, max_plies, fixed, out, resume, overwrite, scheduler,
                                workers, manifest, engine)
        except SimulationError as exc:
            if bar is not None:
                bar.close()
            raise TuneError(str(exc)) from None
    check = getattr(runner, "check", None)
    tick = bar.update if bar is not None else None
    if tick is not None and hasattr(runner, "on_games"):
        runner.on_games, tick = tick, None  # the runner ticks as games finish, not once a round
    try:
        tuner = Tuner(objs, reqs, runner, budget, alpha, inner, players, stride,
                      progress=tick, tolerance=tolerance, error=error)
        if method == "race":
            variants = sp.variants()
            if check is not None:
                for v in variants:
                    why = check(v)
                    if why is not None:
                        raise TuneError(f"variant {', '.join(f'{k}={x}' for k, x in v.items())}: {why}")
            run_race(tuner, variants, n0=n0, growth=growth)
        else:
            from .optuna_search import run_optuna

            run_optuna(tuner, sp, check, n0=n0, growth=growth, seed=seed, halving=halving)
    finally:
        if bar is not None:
            bar.close()
        if own_runner:
            runner.close()
    meta = {"game": gdef.name, "space": ", ".join(sp.texts()), "within": ", ".join(_as_list(within)),
            "objectives": ", ".join(o.name for o in objs), "requirements": ", ".join(r.text for r in reqs),
            "agents": ", ".join(agent_list), "alpha": alpha, "search": method, "objective_name": objs[0].name}
    result = build_result(tuner, meta, time.perf_counter() - t0)
    result.meta["tuner"] = tuner
    if out is not None:
        paths = report_paths(out)
        if pictures:
            pareto_figure(tuner, paths["pareto"])
            progress_figure(result, paths["progress"])
            result.meta["pareto"], result.meta["progress"] = str(paths["pareto"]), str(paths["progress"])
        result.table.to_csv(paths["table"], index=False)
        result.meta["report"] = str(paths["report"])
        paths["report"].write_text(result.markdown(), encoding="utf-8")
        paths["summary"].write_text(result.summary_json(), encoding="utf-8")
    return result


def _agents(gdef: Any, players: Sequence[str], agents: str | Sequence[str]) -> tuple[str, ...]:
    """One agent for every seat or one per seat; each built once so a bad name fails before any game."""
    from workbench.simulate.protocol_play import parse_seat_agents

    items = _as_list(agents) or ["random"]
    try:
        out = parse_seat_agents(items[0], players) if len(items) == 1 else tuple(items)
    except ValueError as exc:
        raise TuneError(str(exc)) from None
    from workbench.simulate.core import SimulationError
    from workbench.simulate.guard import check_agents

    try:
        check_agents(out, gdef.name)  # the agents every tool builds by these names (simulate's check)
    except SimulationError as exc:
        raise TuneError(str(exc)) from None
    return out


__all__ = ["TuneError", "TuneResult", "Tuner", "report_paths", "tune"]
