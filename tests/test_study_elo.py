"""The Elo fit of the ladder (``workbench.balance.elo``) and the shipped strength tables (``workbench.core.strength``)."""

from __future__ import annotations

import json

import pytest

from workbench.balance.elo import Result, fit_elo
from workbench.balance.stats import BalanceError


def _expected(d: float) -> float:
    return 1.0 / (1.0 + 10 ** (-d / 400))


def test_planted_ratings_and_seat_edge_are_recovered_inside_their_intervals():
    """Scores at their exact expectation under known ratings and a first-seat edge: the fit finds them."""
    truth, seat, n = {"random": 0.0, "greedy": 300.0, "mcts": 450.0, "alphabeta": 700.0}, 60.0, 400
    results = []
    for a in truth:
        for b in truth:
            if a != b:
                results.append(Result(a, b, n * _expected(truth[a] - truth[b] + seat), n))
    fit = fit_elo(results, prior_draws=0)
    for r in fit.ratings:
        assert r.low <= truth[r.agent] <= r.high and abs(r.elo - truth[r.agent]) < 1.0, r
    assert abs(fit.seat[0] - seat) < 1.0 and fit.seat[1] < seat < fit.seat[2]
    d, lo, hi = fit.difference("alphabeta", "mcts")
    assert abs(d - 250) < 1 and lo < 250 < hi and hi - lo < fit.by_agent()["alphabeta"].high - fit.by_agent()["alphabeta"].low


def test_a_clean_sweep_stays_finite_with_the_weak_prior():
    """greedy beats random 99-0: the prior's virtual draws keep a finite rating and a finite interval."""
    fit = fit_elo([Result("greedy", "random", 50, 50), Result("random", "greedy", 0, 49)])
    g = fit.by_agent()["greedy"]
    assert 400 < g.low < g.elo < g.high < 2000 and g.games == 99 and g.score == 1.0
    assert fit.by_agent()["random"].elo == 0.0
    with pytest.raises(BalanceError, match="did not converge|separation|finite"):
        fit_elo([Result("greedy", "random", 50, 50), Result("random", "greedy", 0, 49)], prior_draws=0)


def test_agents_without_a_chain_to_the_anchor_are_refused():
    with pytest.raises(BalanceError, match="no chain of games links"):
        fit_elo([Result("greedy", "random", 5, 10), Result("mcts", "plan", 5, 10)])


def test_a_game_names_its_agents_strength_from_its_shipped_table(tmp_path):
    """``strength_table`` reads the declared file; ``agent_strength`` words a spec (engine pin ignored)."""
    from workbench.core.protocol import GameDef
    from workbench.core.strength import agent_strength, strength_table

    table = {"date": "2026-12-03", "agents": [{"agent": "alphabeta:depth=2", "elo": 610.2, "low": 570, "high": 650,
                                               "engine": "native"}, {"agent": "random", "elo": 0, "low": 0, "high": 0}]}
    (tmp_path / "elo.json").write_text(json.dumps(table))

    class Toy(GameDef):
        name, title, strength_file = "toy", "The Toy", str(tmp_path / "elo.json")

    assert strength_table(Toy())["date"] == "2026-12-03"
    assert agent_strength(Toy(), "alphabeta:depth=2,engine=native") == (
        "alphabeta:depth=2, Elo 610 [570, 650] (The Toy, native), measured 2026-12-03")
    assert "the anchor" in agent_strength(Toy(), "random") and agent_strength(Toy(), "mcts") is None
    (tmp_path / "elo.json").write_text("{not json")
    with pytest.raises(ValueError, match="elo.json: not a JSON strength table") as err:
        strength_table(Toy())
    assert "not json" not in str(err.value)  # the error names the file, never echoes it
    Toy.strength_file = ""
    assert strength_table(Toy()) is None


def test_the_ladder_command_fits_and_writes_the_games_table(tmp_path, monkeypatch, capsys):
    """``ladder --write`` on a fast native game: pairs, an Elo table with the anchor at 0, a dated file that
    ``workbench games`` then lists."""
    from workbench.games import cli, get
    from workbench.study.ladder import main

    game = get("pole")
    if not game.native.available():
        pytest.skip("Pole's native core is not built")
    monkeypatch.setattr(type(game), "strength_file", str(tmp_path / "elo.json"))
    assert main(["--game", "pole", "--agents", "random", "greedy", "--games", "4", "--workers", "0", "--json",
                 "--write"]) == 0
    doc = json.loads((tmp_path / "elo.json").read_text())
    assert {r["agent"] for r in doc["agents"]} == {"random", "greedy"} and doc["date"] and doc["command"]
    assert next(r for r in doc["agents"] if r["agent"] == "random")["elo"] == 0
    assert "independent" in doc["independence"] and doc["cpu_seconds"] >= 0 and "trinomial" in doc["model"]
    assert all(p["repeated"] >= 0 for p in doc["pairs"])
    capsys.readouterr()
    cli.main([])
    listing = capsys.readouterr().out
    assert "greedy, Elo" in listing and doc["independence"] in listing


def _nll(theta, cells, agents):
    """Minus the draws-as-half Bernoulli log-likelihood of ``cells`` (first, second, score, games); theta = [seat, R...]."""
    import numpy as np

    r = dict(zip(agents, [0.0, *theta[1:]], strict=True))
    total = 0.0
    for first, second, score, n in cells:
        z = r[first] - r[second] + theta[0]
        p = 1.0 / (1.0 + np.exp(-z))
        total -= score * np.log(p) + (n - score) * np.log(1.0 - p)
    return total


def test_the_fit_is_the_maximum_likelihood_an_independent_optimiser_finds():
    """scipy's optimiser on the likelihood written out by hand: the same ratings, seat edge and Wald intervals
    (from a finite-difference Hessian) as the statsmodels fit, on noisy data with draws counted as half."""
    import math
    import random

    import numpy as np
    from scipy.optimize import minimize

    rng = random.Random(4)
    truth, seat = {"random": 0.0, "a": 250.0, "b": 420.0, "c": 500.0}, 40.0
    agents = list(truth)
    cells, results = [], []
    for i, first in enumerate(agents):
        for second in agents[max(0, i - 1):i] + agents[i + 1:i + 2]:  # neighbours: every p within 0.15..0.85
            p = _expected(truth[first] - truth[second] + seat)
            n, score = 80, 0.0
            for _ in range(n):
                u = rng.random()
                score += 1.0 if u < p - 0.1 else 0.5 if u < p + 0.1 else 0.0  # 20% draws, mean p
            cells.append((first, second, score, n))
            results.append(Result(first, second, score, n))
    fit = fit_elo(results, prior_draws=0)
    opt = minimize(_nll, np.zeros(len(agents)), args=(cells, agents), method="BFGS", options={"gtol": 1e-9})
    elo = 400 / math.log(10)
    mine = fit.by_agent()
    for a, v in zip(agents[1:], opt.x[1:], strict=True):
        assert abs(mine[a].elo - v * elo) < 0.5, a
    assert abs(fit.seat[0] - opt.x[0] * elo) < 0.5
    h, k = 1e-4, len(opt.x)  # the Hessian by central differences, then Wald: estimate +- 1.96 sqrt(diag(H^-1))
    hess = np.zeros((k, k))
    for i in range(k):
        for j in range(k):
            e_i, e_j = np.eye(k)[i] * h, np.eye(k)[j] * h
            hess[i, j] = (_nll(opt.x + e_i + e_j, cells, agents) - _nll(opt.x + e_i - e_j, cells, agents)
                          - _nll(opt.x - e_i + e_j, cells, agents) + _nll(opt.x - e_i - e_j, cells, agents)) / (4 * h * h)
    se = np.sqrt(np.diag(np.linalg.inv(hess))) * elo
    for a, s in zip(agents[1:], se[1:], strict=True):
        assert abs((mine[a].high - mine[a].low) / (2 * 1.96) - s) < 0.02 * s, a


def test_intervals_narrow_as_planted_games_grow():
    """The same planted ladder at 4x the games: every interval about halves (1/sqrt(n)), and still covers the truth."""
    truth, seat = {"random": 0.0, "weak": 200.0, "mid": 380.0, "top": 600.0}, 30.0
    names = list(truth)
    widths = []
    for n in (40, 160, 640):
        results = [Result(a, b, n * _expected(truth[a] - truth[b] + seat), n)
                   for i, a in enumerate(names) for b in names[max(0, i - 1):i] + names[i + 1:i + 2]]
        fit = fit_elo(results)
        widths.append({r.agent: r.high - r.low for r in fit.ratings if r.agent != "random"})
        assert all(r.low <= truth[r.agent] <= r.high for r in fit.ratings)
    for small, large in zip(widths, widths[1:], strict=False):
        for a in small:
            assert 0.45 < large[a] / small[a] < 0.56, (a, small[a], large[a])
    assert widths[-1]["top"] < 120


def test_draws_narrow_the_intervals_to_their_true_coverage():
    """Games drawn 60% of the time vary less than coin tosses: the trinomial sandwich covers planted ratings about
    95% of the time with narrower intervals, where binomial intervals (draws not counted) over-cover."""
    import random

    rng = random.Random(11)
    truth, seat, n = {"random": 0.0, "a": 60.0, "b": 120.0}, 0.0, 60
    names = list(truth)
    covered = {"trinomial": 0, "binomial": 0}
    width = {"trinomial": 0.0, "binomial": 0.0}
    runs = 200
    for _ in range(runs):
        results: dict[str, list[Result]] = {"trinomial": [], "binomial": []}
        for i, a in enumerate(names):
            for b in names[max(0, i - 1):i] + names[i + 1:i + 2]:
                p = _expected(truth[a] - truth[b] + seat)
                wins = draws = 0
                for _ in range(n):
                    u = rng.random()
                    wins += u < p - 0.3
                    draws += p - 0.3 <= u < p + 0.3
                results["trinomial"].append(Result(a, b, wins + draws / 2, n, draws))
                results["binomial"].append(Result(a, b, wins + draws / 2, n))
        for kind, rows in results.items():
            top = fit_elo(rows).by_agent()["b"]
            covered[kind] += top.low <= truth["b"] <= top.high
            width[kind] += (top.high - top.low) / runs
    assert 0.90 * runs <= covered["trinomial"] <= 0.985 * runs, covered
    assert covered["binomial"] >= 0.98 * runs, covered
    assert width["trinomial"] < 0.75 * width["binomial"], width


def test_draws_must_fit_their_games():
    with pytest.raises(BalanceError, match="draws of greedy against random do not fit"):
        fit_elo([Result("greedy", "random", 1.0, 4, 3)])


def test_repeated_games_are_counted_and_said():
    """Games alike in every recorded figure but their id, seed and time are repeats; the ladder says so."""
    import pandas as pd

    from workbench.study.ladder import independence_note, repeated_games

    table = pd.DataFrame({"game_id": [0, 1, 2, 3], "seed": [5, 6, 7, 8], "seconds": [0.1, 0.2, 0.1, 0.3],
                          "winner": ["a", "a", "b", "a"], "plies": [40, 40, 41, 40], "moves_a": [12, 12, 12, 13]})
    assert repeated_games(table) == 1 and repeated_games(table.iloc[:0]) == 0
    rows = [{"upper": "greedy", "lower": "random", "games": 4, "repeated": 0},
            {"upper": "plan", "lower": "greedy", "games": 10, "repeated": 6}]
    assert "6 of the 14 games repeat" in independence_note(rows) and "plan against greedy: 6 of 10" in independence_note(rows)
    assert independence_note(rows[:1]).startswith("No game of the 4 repeats")


def test_epsilon_greedy_lies_between_random_and_greedy():
    """``greedy:epsilon=p``: p = 0 picks what greedy picks from the same seed, p = 1 spreads over the legal
    actions as random does (its own draws: one ``random()`` a decision first); out of range is refused in words."""
    import random

    from workbench.agents.generic import make_protocol_agent
    from workbench.games import get

    game = get("pole")
    rules = game.spec.make({})
    state = game.new_initial_state(rules, 2)
    while state.current_player() < 0:
        state.apply_action(state.legal_actions()[0])
    def picks(spec: str) -> list[object]:
        return [make_protocol_agent(spec, game, rules, seed=k).select_action(state) for k in range(40)]

    assert picks("greedy:epsilon=0") == picks("greedy")
    legal = state.legal_actions()
    streams = [random.Random(k) for k in range(40)]
    assert picks("greedy:epsilon=1") == [r.choice(legal) for r in streams if r.random() < 1]
    assert len(set(picks("greedy:epsilon=1"))) > 10
    assert "probability 0.3" in make_protocol_agent("greedy:epsilon=0.3", game, rules, seed=1).describe()
    with pytest.raises(ValueError, match="epsilon"):
        make_protocol_agent("greedy:epsilon=1.5", game, rules, seed=1)


def test_pairs_reach_neighbours_then_the_next_ones():
    from workbench.study.ladder import pairs_of

    names = ["random", "a", "b", "c"]
    assert pairs_of(names, False) == [("random", "a"), ("a", "b"), ("b", "c")]
    assert pairs_of(names, False, reach=2) == [("random", "a"), ("random", "b"), ("a", "b"), ("a", "c"), ("b", "c")]
    assert len(pairs_of(names, True)) == 6 == len(pairs_of(names, False, reach=9))
