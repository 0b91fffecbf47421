"""``python -m workbench learn``: evaluation weights fitted to one variant's self-play, with intervals.

``python -m workbench learn --game pole --rules cost_A=4 --games 200 [--agent greedy] [--rounds 2]
[--name pole-archers.json] [--versus 100]`` plays ``--games`` self-play games of the variant (simulate),
replays each (on the native core when the game has one) and samples its positions, and fits the game's declared evaluation features
(``GameDef.evaluation_features``: material per piece kind or card and the game's positional terms) to the
games' results by logistic regression (statsmodels; each position from the first seat's side, the
result a win 1, a draw or unfinished game 1/2, a loss 0; a light ridge keeps rare features finite).
Intervals come from a bootstrap that resamples whole games (positions of one game are correlated).
Values are read in the game's own unit: a feature's weight divided by the logit of one unit of the hand
evaluation (fitted on the same positions), so "archer 2.6 [2.1, 3.2]" sets beside the hand weight 2.

The weights the file gives an agent are *anchored*: ``k x hand + delta`` per feature, fitted together with a
ridge (``--anchor``) on the corrections only, so a rare piece keeps its rescaled hand weight and only what the
games contradict moves (``--anchor 0``: the plain fit's weights). ``--anchor-per spread`` puts that ridge per standard
deviation of each feature (standardised), so wide features (hit points summed) are held like counts. ``--lambda L``
fits the played weights to each position's TD(L) return (the next positions' fitted values mixed with the result,
refitted a few sweeps) rather than the result alone; ``--fixed F,...`` keeps those features at their rescaled hand
weight (only the rest are corrected). The values a designer reads stay the plain fit's.
Features are read on the game's native core when it has one (the exact twins of the Python features).

Then ``--rounds`` rounds: the agent plays again with the learned weights (``AGENT:eval=NAME``), the new
positions join the old, and the fit is redone. The result is a weights file ``NAME`` in the current folder
(the study's), which the generic agents take by name (``alphabeta:eval=NAME``, ``workbench.agents.learned``).
``--versus N`` plays N games of the agent with the learned weights against the same agent with the hand
weights (seats alternated) and prints the score with its 95% interval. ``--report DIR`` writes the balance
report of the last round's games with the section "What pieces are worth under this variant".
"""

from __future__ import annotations

import json
import math
import sys
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from workbench.core.cliargs import Parser, max_workers, number, seed, whole
from workbench.games import DEFAULT

RIDGE = 1e-3  # L2 penalty per position: keeps a feature seen in few positions finite, moves others by little
ANCHOR = 0.05  # L2 penalty per position on each weight's departure from the (rescaled) hand weights
BOOT = 200
TD_SWEEPS = 4  # refits of the TD(lambda) targets: each uses the previous fit's values of the next positions


def positions(game: Any, rules: Any, games: pd.DataFrame, events: pd.DataFrame, every: int = 2,
              skip: int = 4, engine: str = "auto") -> pd.DataFrame:
    """Features of sampled positions (every ``every``-th decision after the first ``skip`` plies), from the first
    seat's side, with the game's result for that seat (``y``) and the hand evaluation (``hand``). On a game's
    native core (``engine``) the records are replayed there and the features read there (the exact twins of the
    Python features, proven equal by the tests)."""
    from workbench.core.protocol import CHANCE, resolve_engine

    native = resolve_engine(game, engine) == "native"
    weights = dict(game.evaluation_weights(rules))
    rows = []
    by_game = dict(tuple(events.sort_values(["game_id", "ply"]).groupby("game_id")["action"]))
    for row in games.itertuples():
        if row.victory == "error" or row.game_id not in by_game:
            continue
        y = _score(row)
        state = (game.native.new_state(rules, int(row.seed)) if native
                 else game.new_initial_state(rules, int(row.seed)))
        try:
            for ply, text in enumerate(by_game[row.game_id], start=1):
                state.apply_action(state.string_to_action(str(text)))
                if ply < skip or ply % every or state.is_terminal() or state.current_player() == CHANCE:
                    continue
                f = game.evaluation_features(state, 0)
                if f is None:
                    raise ValueError(f"{game.name} declares no evaluation features (GameDef.evaluation_features)")
                rows.append({"game_id": row.game_id, "y": y, "hand": sum(weights.get(k, 0.0) * v for k, v in f.items()),
                             **f})
        except ValueError as exc:  # a record that does not replay is left out, and said
            print(f"learn: game {row.game_id} left out: it does not replay ({str(exc)[:120]})", file=sys.stderr)
    return pd.DataFrame(rows)


def _score(row: Any) -> float:
    """The first seat's (team's) result: 1 won, 0 lost, 1/2 drawn or unfinished."""
    if getattr(row, "outcome", "") != "win":
        return 0.5
    team = getattr(row, "winner_team", None)
    if team is not None and not (isinstance(team, float) and math.isnan(team)) and int(team) >= 0:
        return 1.0 if int(team) == 0 else 0.0
    first = str(getattr(row, "players", "white,black")).split(",")[0]
    return 1.0 if str(row.winner) == first else 0.0


def _fit(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Logistic regression with an intercept and a light ridge (statsmodels GLM, binomial, logit link)."""
    import statsmodels.api as sm

    design = np.column_stack([np.ones(len(y)), x])
    model = sm.GLM(y, design, family=sm.families.Binomial())
    alpha = np.full(design.shape[1], RIDGE)
    alpha[0] = 0.0
    return np.asarray(model.fit_regularized(alpha=alpha, L1_wt=0.0, maxiter=200).params)


def anchored_weights(data: pd.DataFrame, features: list[str], hand: dict[str, float], names: list[str],
                     anchor: float = ANCHOR, spread: bool = False, lam: float = 1.0,
                     sweeps: int = TD_SWEEPS, fixed: tuple[str, ...] = ()) -> tuple[dict[str, float], float]:
    """The weights an agent plays with: ``k * hand + delta`` per feature (log-odds), ``k`` the hand evaluation's
    own log-odds scale and ``delta`` the data's correction, fitted together with a ridge of ``anchor`` per
    position on the corrections only. A feature the data barely sees (a rare piece) keeps its rescaled hand
    weight instead of being shrunk to 0, so the agent never treats an unseen queen as worthless; the values
    a designer reads (``fit_values``) stay the unanchored fit. With ``spread`` the ridge is per standard deviation
    of each feature (the corrections fitted on standardised features): a feature of wide range (hit points summed
    over units) is held as firmly as a piece count, and a rare piece no more. With ``lam`` below 1 the target of
    each position is its TD(lambda) return (``td_returns``) under the previous sweep's fit, not only the game's
    result: what the next positions are worth, which carries less of the dice's noise. The ``fixed`` features get
    no correction (their weight stays ``k * hand``): positional terms a designer trusts, while the pieces move.
    Returns (weights of ``names``, ``k``)."""
    import statsmodels.api as sm

    features = [f for f in features if f not in fixed]
    x = data[features].to_numpy(float)
    sd = x.std(axis=0) if spread else np.ones(x.shape[1])
    sd[sd == 0] = 1.0
    result = data["y"].to_numpy(float)
    h = data["hand"].to_numpy(float)[:, None]
    design = np.column_stack([np.ones(len(result)), h, x / sd])
    alpha = np.full(design.shape[1], anchor)
    alpha[:2] = 0.0
    ids = data["game_id"].to_numpy()
    target = result
    for _ in range(1 if lam >= 1.0 else sweeps + 1):
        params = np.asarray(sm.GLM(target, design, family=sm.families.Binomial()).fit_regularized(
            alpha=alpha, L1_wt=0.0, maxiter=200).params)
        target = td_returns(1.0 / (1.0 + np.exp(-(design @ params))), result, ids, lam)
    k = float(params[1])
    delta = dict(zip(features, (float(v) for v in params[2:] / sd), strict=True))
    return {n: k * hand.get(n, 0.0) + delta.get(n, 0.0) for n in names}, k


def td_returns(value: np.ndarray, result: np.ndarray, ids: np.ndarray, lam: float) -> np.ndarray:
    """TD(lambda) returns of positions listed game by game in play order: the last position of a game gets the
    result, each earlier one ``(1 - lam) x value(next) + lam x return(next)`` (``lam`` 1: the result itself)."""
    out = np.empty(len(value))
    for i in range(len(value) - 1, -1, -1):
        if i == len(value) - 1 or ids[i + 1] != ids[i]:
            out[i] = result[i]
        else:
            out[i] = (1.0 - lam) * value[i + 1] + lam * out[i + 1]
    return out


def fit_values(data: pd.DataFrame, features: list[str], boot: int = BOOT, seed: int = 0) -> dict[str, Any]:
    """Weights (log-odds per unit of each feature), the scale (log-odds per unit of the hand evaluation), values in
    the game's unit (weight / scale), and bootstrap 95% intervals resampling whole games."""
    ids = data["game_id"].to_numpy()
    groups = {g: np.flatnonzero(ids == g) for g in np.unique(ids)}
    keys = list(groups)
    x, y, hand = data[features].to_numpy(float), data["y"].to_numpy(float), data["hand"].to_numpy(float)[:, None]

    def once(idx: np.ndarray) -> tuple[np.ndarray, float]:
        w = _fit(x[idx], y[idx])[1:]
        k = float(_fit(hand[idx], y[idx])[1])
        return w, k

    weights, scale = once(np.arange(len(y)))
    rng = np.random.default_rng(seed)
    ws, ks = [], []
    for _ in range(boot):
        pick = rng.choice(len(keys), size=len(keys), replace=True)
        idx = np.concatenate([groups[keys[i]] for i in pick])
        w, k = once(idx)
        ws.append(w)
        ks.append(k)
    ws_arr, ks_arr = np.array(ws), np.array(ks)
    scale_low, scale_high = float(np.percentile(ks_arr, 2.5)), float(np.percentile(ks_arr, 97.5))
    # values in the game's unit only when the hand evaluation clearly predicts the results (its scale's whole
    # interval above 0); otherwise a ratio to a scale near 0 would be noise, and the weights stay in log-odds
    units = scale_low > 0
    values = ws_arr / ks_arr[:, None] if units else None
    out: dict[str, Any] = {"scale": scale, "scale_low": scale_low, "scale_high": scale_high, "units": units, "features": {}}
    for i, name in enumerate(features):
        row = {"weight": float(weights[i]), "weight_low": float(np.percentile(ws_arr[:, i], 2.5)),
               "weight_high": float(np.percentile(ws_arr[:, i], 97.5))}
        if values is not None:
            row.update({"value": float(weights[i] / scale), "value_low": float(np.percentile(values[:, i], 2.5)),
                        "value_high": float(np.percentile(values[:, i], 97.5))})
        out["features"][name] = row
    return out


def play(game: str, rules: Any, agent: str, games: int, seed: int, workers: int | None, engine: str,
         max_plies: int | None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Self-play games of ``agent`` under ``rules`` with their events (actions)."""
    from workbench.simulate import simulate

    grid = [rules.label()] if rules.label() else None  # "k=v,..." text: every game's simulate path reads it
    out = simulate(grid, agent, agent, games, seed=seed, game=game, agents=[agent], events=True, workers=workers,
                   engine=engine, max_plies=max_plies, progress=False)
    assert isinstance(out, tuple)  # events on: games and events
    return out


def learn(game_name: str, rules_text: str, games: int, agent: str = "greedy", rounds: int = 2, seed: int = 0,
          name: str = "", workers: int | None = None, engine: str = "auto", boot: int = BOOT,
          max_plies: int | None = None, every: int = 2, log: Any = print,
          anchor: float = ANCHOR, spread: bool = False, lam: float = 1.0,
          fixed: tuple[str, ...] = ()) -> tuple[dict[str, Any], pd.DataFrame]:
    """Play, fit, and refit over ``rounds`` rounds with the learned weights; returns (weights document, last games).
    The file's weights are anchored to the hand weights (``anchored_weights``) unless ``anchor`` is 0, when they
    are the plain fit's."""
    from workbench.agents.learned import NAME
    from workbench.games import get

    if anchor <= 0 and (spread or lam < 1.0 or fixed):
        raise ValueError("--anchor-per spread, --lambda below 1 and --fixed shape the anchored fit: give --anchor "
                         "above 0")
    game = get(game_name)
    rules = game.spec.make(rules_text or None)
    probe = game.evaluation_features(game.new_initial_state(rules, 0), 0)
    if probe is None:
        raise ValueError(f"{game.name} declares no evaluation features (GameDef.evaluation_features)")
    unknown = sorted(set(fixed) - set(probe))
    if unknown:
        raise ValueError(f"--fixed {','.join(unknown)}: not an evaluation feature of {game.name} "
                         f"({', '.join(probe)})")
    name = name or f"{game.name}-{_slug(rules.label()) or 'rulebook'}.json"
    if not NAME.match(name):
        raise ValueError(f"--name {name!r}: a weights file is named, not a path: letters, digits, '._=+-', ending .json")
    t0 = time.perf_counter()
    table, events = play(game.name, rules, agent, games, seed, workers, engine, max_plies)
    data = positions(game, rules, table, events, every, engine=engine)
    history = []
    doc: dict[str, Any] = {}
    for rnd in range(rounds + 1):
        features = [f for f in probe if f in data.columns and data[f].std() > 0]
        if len(data) < 10 or not features:
            raise ValueError(f"only {len(data)} positions with varying features: play more games")
        fit = fit_values(data, features, boot=boot, seed=seed + rnd)
        defaults = dict(game.evaluation_weights(rules))
        unseen = sorted(set(probe) - set(features))
        if anchor > 0:
            weights, hand_k = anchored_weights(data, features, defaults, list(probe), anchor, spread, lam,
                                               fixed=fixed)
            how = {"fit": "anchored", "anchor": anchor, "anchor_per": "spread" if spread else "unit", "lambda": lam,
                   "fixed": list(fixed), "hand_k": hand_k}
        else:
            weights = {k: v["weight"] for k, v in fit["features"].items()}
            how = {"fit": "plain"}
        doc = {"game": game.name, "rules": rules.label(), "date": datetime.now(timezone.utc).strftime("%Y-%m-%d"),
               "agent": agent, "games": int(data["game_id"].nunique()), "positions": len(data), "rounds": rnd,
               "unit": game.evaluation_unit, "scale": fit["scale"],
               "scale_interval": [fit["scale_low"], fit["scale_high"]], "units": fit["units"], "boot": boot,
               "weights": weights, **how,
               "values": {k: {**v, "default": defaults.get(k)} for k, v in fit["features"].items()},
               "unseen": unseen, "seconds": round(time.perf_counter() - t0, 1), "file": name}
        history.append(doc)
        Path(name).write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
        log(f"round {rnd}: {doc['games']} games, {len(data)} positions, scale {fit['scale']:.3f} log-odds per unit "
            f"[{fit['scale_low']:.3f}, {fit['scale_high']:.3f}] -> {name}")
        if rnd == rounds:
            break
        learned = f"{agent}{',' if ':' in agent else ':'}eval={name}"
        table, events = play(game.name, rules, learned, games, seed + 7919 * (rnd + 1), workers, engine, max_plies)
        more = positions(game, rules, table, events, every, engine=engine)
        more["game_id"] = more["game_id"] + (rnd + 1) * 1_000_000
        data = pd.concat([data, more], ignore_index=True)
    return doc, table


def _slug(label: str) -> str:
    return "".join(c if c.isalnum() or c in "=+-." else "_" for c in label)[:80]


def versus(game: str, rules: str, agent: str, name: str, games: int, seed: int, workers: int | None,
           max_plies: int | None, engine: str = "auto") -> dict[str, Any]:
    """The agent with learned weights against the same agent with the hand weights, seats alternated: its score
    (on the game's native core where it reads learned weights, else in Python)."""
    from workbench.study.ladder import play_pair

    learned = f"{agent}{',' if ':' in agent else ':'}eval={name}"
    row = _pair(play_pair, agent, learned, games, seed, workers, max_plies, game, rules, engine)
    return {k: row[k] for k in ("games", "upper_wins", "lower_wins", "unfinished", "upper_score", "score_lo",
                                "score_hi")}


def _pair(play_pair: Any, hand: str, learned: str, games: int, seed: int, workers: int | None,
          max_plies: int | None, game: str, rules: str, engine: str = "auto") -> dict[str, Any]:
    from workbench.simulate.protocol_play import default_max_plies

    cap = max_plies if max_plies is not None else default_max_plies(game, fallback=300)
    return dict(play_pair(hand, learned, games, seed, cap, workers, progress=False, engine=engine, game=game,
                          rules=rules or None))


def main(argv: list[str] | None = None) -> int:
    """Learn a variant's weights; print the values with intervals; optionally play them against the hand weights."""
    argv = list(sys.argv[1:] if argv is None else argv)
    ap = Parser(prog="python -m workbench learn", description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default=DEFAULT)
    ap.add_argument("--rules", default="", metavar="K=V,...", help="the variant (the rulebook's rules when empty)")
    ap.add_argument("--games", type=whole(10, 100_000), default=200, help="self-play games a round")
    ap.add_argument("--agent", default="greedy", help="the self-play agent (a generic agent: greedy, alphabeta:depth=2)")
    ap.add_argument("--rounds", type=whole(0, 10), default=2, help="rounds of self-play with the learned weights")
    ap.add_argument("--name", default="", help="the weights file, written in the current folder (default from the rules)")
    ap.add_argument("--boot", type=whole(20, 10_000), default=BOOT, help="bootstrap resamples of whole games")
    ap.add_argument("--every", type=whole(1, 100), default=2, help="sample every N-th ply of a game")
    ap.add_argument("--anchor", type=number(0, 100), default=ANCHOR, metavar="A",
                    help="ridge per position pulling the played weights toward the rescaled hand weights (0: the "
                         "plain fit's weights)")
    ap.add_argument("--anchor-per", default="unit", choices=("unit", "spread"),
                    help="the anchor's ridge per unit of each feature, or per its standard deviation (standardised)")
    ap.add_argument("--lambda", dest="lam", type=number(0, 1), default=1.0, metavar="L",
                    help="fit the played weights to each position's TD(L) return, not only the game's result "
                         "(1: the result)")
    ap.add_argument("--fixed", default="", metavar="F,...",
                    help="features whose played weight stays the rescaled hand weight (no correction)")
    ap.add_argument("--seed", type=seed(), default=0)
    ap.add_argument("--workers", type=whole(0, max_workers()), default=None)
    ap.add_argument("--engine", default="auto", choices=("auto", "native", "python"))
    ap.add_argument("--max-plies", type=whole(1, 1_000_000), default=None)
    ap.add_argument("--versus", type=whole(0, 100_000), default=0, metavar="N",
                    help="then play N games: the agent with the learned weights against it with the hand weights")
    ap.add_argument("--report", default=None, metavar="DIR", help="write the report with the pieces' values here")
    args = ap.parse_args(argv)
    try:
        doc, table = learn(args.game, args.rules, args.games, args.agent, args.rounds, args.seed, args.name,
                           args.workers, args.engine, args.boot, args.max_plies, args.every, anchor=args.anchor,
                           spread=args.anchor_per == "spread", lam=args.lam,
                           fixed=tuple(f for f in args.fixed.split(",") if f))
    except ValueError as exc:
        print(f"learn: error: {exc}", flush=True)
        return 2
    from workbench.balance.values import values_lines

    for line in values_lines(doc):
        print(line)
    name = str(doc["file"])
    if args.versus:
        try:
            v = versus(args.game, args.rules, args.agent, name, args.versus, args.seed + 99, args.workers,
                       args.max_plies, args.engine)
        except ValueError as exc:
            print(f"learn: error: {exc}", flush=True)
            return 2
        doc["versus"] = v
        Path(name).write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
        print(f"learned against hand weights ({args.agent}, {v['games']} games, seats alternated): score "
              f"{100 * v['upper_score']:.1f}% [{100 * v['score_lo']:.1f}, {100 * v['score_hi']:.1f}] "
              f"({v['upper_wins']} wins, {v['lower_wins']} losses, {v['unfinished']} unfinished)")
    if args.report:
        from workbench.balance.report import build_report
        from workbench.balance.values import values_section

        report = build_report(table)
        report.sections.append(values_section(doc))
        report.write(args.report)
        print(f"report in {args.report}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
