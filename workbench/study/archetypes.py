"""``workbench archetypes``: does one play style beat everything? A tournament of a game's archetypes and α-Rank.

``python -m workbench archetypes --game pole --pairs 20 [--styles rush,turtle] [--out DIR [--resume]]
[--workers N | --scheduler local-cluster]``

Every pair of the game's declared archetypes (``GameDef.archetypes``: class weights the generic ``style``
agent reads, or a game's own agent such as Pole's section-15 ``turtle``) plays ``--pairs`` seeds, each seed
with the seats swapped, through ``workbench.simulate.run_specs`` (pool or Dask, resumable Parquet). The
payoff table with intervals and α-Rank's verdict come from ``workbench.balance.strategies``.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from workbench.balance.strategies import StrategyRanking, rank_strategies
from workbench.core.cliargs import Parser, max_workers, seed, whole
from workbench.games import DEFAULT

MAX_PAIRS = 100_000


@dataclass
class Tournament:
    """The tournament's games (with a ``style_<seat>`` column per seat), its ranking and run time."""

    games: pd.DataFrame
    ranking: StrategyRanking
    seconds: float

    def text(self) -> str:
        return self.ranking.text()


def tournament(game: str = DEFAULT, styles: Sequence[str] | None = None, pairs: int = 20, seed_: int = 0,
               rules: Any = None, max_plies: int | None = None, out: Any = None, resume: bool = False,
               overwrite: bool = False, workers: int | None = None, scheduler: str | None = None,
               progress: bool = True) -> Tournament:
    """Play every pair of archetypes on paired seeds, seats swapped, and rank them (module docstring)."""
    from workbench.agents.generic import make_protocol_agent
    from workbench.games import get
    from workbench.simulate import run_specs
    from workbench.simulate.core import GameSpec
    from workbench.simulate.paths import play_protocol_chunk
    from workbench.simulate.protocol_play import (
        _cell_value,
        default_max_plies,
        expand_protocol_grid,
        protocol_game_seed,
    )

    gdef = get(game)
    known = {a.name: a for a in gdef.archetypes}
    if len(known) < 2:
        raise ValueError(f"{gdef.name} declares {len(known)} archetype(s); a tournament needs two (GameDef.archetypes)")
    names = list(dict.fromkeys(styles)) if styles else list(known)
    unknown = [s for s in names if s not in known]
    if unknown or len(names) < 2:
        raise ValueError(f"archetypes: choose two or more of {', '.join(known)}" +
                         (f" ({unknown[0][:40]!r} is not one)" if unknown else ""))
    if not 1 <= int(pairs) <= MAX_PAIRS:
        raise ValueError(f"pairs={pairs}: allowed 1..{MAX_PAIRS}")
    cell = expand_protocol_grid(gdef.name, None if rules is None else [rules])[0]
    if gdef.info(cell).num_players != 2:
        raise ValueError(f"{gdef.name} under these rules has {gdef.info(cell).num_players} seats; a tournament of styles needs two")
    spec_of = {s: known[s].spec() for s in names}
    for s in names:
        make_protocol_agent(spec_of[s], gdef, cell, seed=0)  # a bad archetype fails before any game
    if max_plies is None:
        max_plies = default_max_plies(gdef.name, [cell])
    label = cell.label() or "default"
    data = {k: _cell_value(v) for k, v in cell.non_default().items()}
    specs, gid = [], 0
    for a, b in itertools.combinations(names, 2):
        for j in range(int(pairs)):
            game_seed = protocol_game_seed(gdef.name, seed_, 0, j)
            for first, second in ((a, b), (b, a)):
                agents = (spec_of[first], spec_of[second])
                specs.append(GameSpec(gid, label, data, seed=game_seed, max_plies=int(max_plies), events=False,
                                      engine="python", game=gdef.name, agents=agents))
                gid += 1
    manifest = {"command": "archetypes", "game": gdef.name, "path": "protocol", "styles": names,
                "specs": [spec_of[s] for s in names], "cells": [cell.label()], "pairs": int(pairs), "seed": int(seed_),
                "max_plies": int(max_plies), "events": False}
    t0 = time.perf_counter()
    played = run_specs(specs, manifest, out=out, workers=workers, scheduler=scheduler, resume=resume,
                       overwrite=overwrite, progress=progress, play=play_protocol_chunk)
    games = played[0] if isinstance(played, tuple) else played  # no events were asked for: a table
    seconds = time.perf_counter() - t0
    by_spec = {v: k for k, v in spec_of.items()}
    for seat in str(games["players"].iloc[0]).split(","):
        games[f"style_{seat}"] = games[f"agent_{seat}"].map(by_spec)
    return Tournament(games, rank_strategies(games), seconds)


def profile(game: str = DEFAULT, styles: Sequence[str] | None = None, pairs: int = 10, seed_: int = 0,
            rules: Any = None, max_plies: int | None = None, workers: int | None = None, scheduler: str | None = None,
            progress: bool = False) -> tuple[pd.DataFrame, pd.DataFrame]:
    """How each style plays: against greedy on paired seeds, seats swapped, its score and the share of its
    actions in each class (the archetypes are distinct strategies when their shares differ beyond the intervals).

    Returns (scores: style, score %, low, high; shares: style, class, share %, low, high), 95% t intervals over
    the games (a game's share is its class actions over its decisions; when all games agree, Wilson's bounds over
    the actions).
    """
    from workbench.games import get
    from workbench.simulate import run_specs
    from workbench.simulate.core import GameSpec
    from workbench.simulate.protocol_play import (
        _cell_value,
        default_max_plies,
        expand_protocol_grid,
        protocol_game_seed,
    )
    from workbench.study.ablate import play_ablation_chunk

    gdef = get(game)
    known = {a.name: a for a in gdef.archetypes}
    names = list(dict.fromkeys(styles)) if styles else list(known)
    if not names or any(s not in known for s in names):
        raise ValueError(f"profile: choose among {', '.join(known) or 'no archetypes'}")
    if not 1 <= int(pairs) <= MAX_PAIRS:
        raise ValueError(f"pairs={pairs}: allowed 1..{MAX_PAIRS}")
    cell = expand_protocol_grid(gdef.name, None if rules is None else [rules])[0]
    if max_plies is None:
        max_plies = default_max_plies(gdef.name, [cell])
    data = {k: _cell_value(v) for k, v in cell.non_default().items()}
    counted = {s: f"{known[s].spec()}{',' if ':' in known[s].spec() else ':'}bar=none" for s in names}
    specs, gid = [], 0
    for s in names:
        for j in range(int(pairs)):
            game_seed = protocol_game_seed(gdef.name, seed_, 0, j)
            for agents in ((counted[s], "greedy:bar=none"), ("greedy:bar=none", counted[s])):
                specs.append(GameSpec(gid, cell.label() or "default", data, seed=game_seed, max_plies=int(max_plies),
                                      events=False, engine="python", game=gdef.name, agents=agents))
                gid += 1
    played = run_specs(specs, {"command": "archetypes-profile", "game": gdef.name, "path": "protocol"},
                       workers=workers, scheduler=scheduler, progress=progress, play=play_ablation_chunk)
    games = played[0] if isinstance(played, tuple) else played
    return _profile_tables(games, counted, gdef.action_classes.names() if gdef.action_classes else [])


def _t95(y: Any, trials: int = 0) -> tuple[float, float, float]:
    """Mean and 95% t interval of ``y`` (per game values in [0, 1]), in %; when all games agree, Wilson's bounds
    over ``trials`` (the actions behind a share) or the games."""
    import numpy as np
    from scipy import stats as sp

    from workbench.balance.stats import wilson_bounds

    y = np.asarray(y, dtype=float)
    m = float(y.mean())
    if len(y) < 2 or float(y.std(ddof=1)) == 0.0:
        lo, hi = wilson_bounds(m, max(trials, len(y)))
        return 100 * m, 100 * lo, 100 * hi
    h = float(sp.t.ppf(0.975, len(y) - 1) * y.std(ddof=1) / len(y) ** 0.5)
    return 100 * m, 100 * max(0.0, m - h), 100 * min(1.0, m + h)


def _profile_tables(games: pd.DataFrame, counted: dict[str, str], classes: list[str]) -> tuple[pd.DataFrame, pd.DataFrame]:
    seats = str(games["players"].iloc[0]).split(",")
    scores, shares = [], []
    for style, spec in counted.items():
        per_game: list[dict[str, float]] = []
        for seat in seats:
            for _, row in games[games[f"agent_{seat}"] == spec].iterrows():
                decisions = max(1, int(row.get(f"decisions_{seat}", 0) or 0))
                winner = row.get("winner")
                score = 1.0 if winner == seat else 0.0 if winner in seats else 0.5  # a draw or no result: half
                per_game.append({"score": score, "decisions": decisions, **{c: float(row.get(f"class_{c}_{seat}", 0) or 0) / decisions
                                                    for c in classes}})
        if not per_game:
            continue
        frame = pd.DataFrame(per_game)
        m, lo, hi = _t95(frame["score"])
        scores.append({"style": style, "games": len(frame), "score": m, "low": lo, "high": hi})
        for c in classes:
            m, lo, hi = _t95(frame[c], int(frame["decisions"].sum()))
            shares.append({"style": style, "class": c, "share": m, "low": lo, "high": hi})
    return pd.DataFrame(scores), pd.DataFrame(shares)


def profile_text(scores: pd.DataFrame, shares: pd.DataFrame, classes: Sequence[str] | None = None) -> str:
    """The profile as printed: each style's score against greedy, then its share of actions in each class."""
    lines = ["each style against greedy (seats swapped): its score, % (95% interval over games)"]
    for _, r in scores.iterrows():
        lines.append(f"  {r['style']:<12} {r['score']:5.0f} [{r['low']:.0f}, {r['high']:.0f}] over {r['games']} games")
    shown = list(classes) if classes else list(dict.fromkeys(shares["class"]))
    lines.append("share of each style's actions in each class, % (95% interval over games)")
    styles = list(scores["style"])
    lines.append(f"  {'class':<18}" + "".join(f"{s:>20}" for s in styles))
    for c in shown:
        cells = []
        for s in styles:
            r = shares[(shares["style"] == s) & (shares["class"] == c)].iloc[0]
            cells.append(f"{f'{r.share:.1f} [{r.low:.1f}, {r.high:.1f}]':>20}")
        lines.append(f"  {c:<18}" + "".join(cells))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Print the payoff table with intervals and α-Rank's verdict."""
    import sys

    argv = list(sys.argv[1:] if argv is None else argv)
    ap = Parser(prog="python -m workbench archetypes", description=__doc__.split("\n\n")[2])
    ap.add_argument("--game", default=DEFAULT, help="the game (python -m workbench games)")
    ap.add_argument("--styles", default="", help="comma-separated archetypes (default: all the game declares)")
    ap.add_argument("--pairs", type=whole(1, MAX_PAIRS), default=20, help="seeds per pair of styles, seats swapped")
    ap.add_argument("--rules", default=None, help="the variant, k=v,... (default: the game's defaults)")
    ap.add_argument("--seed", type=seed(), default=0)
    ap.add_argument("--max-plies", type=whole(1, 1_000_000), default=None)
    ap.add_argument("--out", default=None, help="Parquet dataset folder (resumable)")
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--overwrite", action="store_true")
    ap.add_argument("--workers", type=whole(0, max_workers()), default=None)
    ap.add_argument("--scheduler", default=None, help="local-cluster or tcp://host:port (Dask); default the pool")
    ap.add_argument("--profile", action="store_true",
                    help="instead: each style against greedy, its score and its share of actions in each class")
    args = ap.parse_args(argv)
    if args.profile:
        from workbench.games import get

        try:
            styles = [s.strip() for s in args.styles.split(",") if s.strip()] or None
            scores, shares = profile(args.game, styles, args.pairs, args.seed, args.rules, args.max_plies,
                                     args.workers, args.scheduler, progress=sys.stderr.isatty())
        except ValueError as exc:
            print(f"archetypes: error: {exc}", flush=True)
            return 2
        gdef = get(args.game)
        weighted = [c for c in (gdef.action_classes.names() if gdef.action_classes else [])
                    if any(c in a.weights for a in gdef.archetypes)]
        print(profile_text(scores, shares, weighted or None))
        return 0
    try:
        styles = [s.strip() for s in args.styles.split(",") if s.strip()] or None
        run = tournament(args.game, styles, args.pairs, args.seed, args.rules, args.max_plies, args.out, args.resume,
                         args.overwrite, args.workers, args.scheduler, progress=sys.stderr.isatty())
    except ValueError as exc:
        print(f"archetypes: error: {exc}", flush=True)
        return 2
    print(run.text())
    print(f"\n{len(run.games)} games in {run.seconds:.1f} s, Python engine")
    return 0
