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
    capsys.readouterr()
    cli.main([])
    assert "greedy, Elo" in capsys.readouterr().out
