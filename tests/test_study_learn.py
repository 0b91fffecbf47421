"""Learned evaluation (``workbench learn``): the games' declared features, the fit on planted truth, weights by name."""

from __future__ import annotations

import json
import random

import numpy as np
import pandas as pd
import pytest

from workbench.games import get


@pytest.mark.parametrize("name", ["pole", "cursed-lands", "terrafeud", "big-chess"])
def test_the_declared_features_under_the_hand_weights_are_the_evaluation(name):
    """``sum(hand weight x feature)`` equals the game's own ``evaluate`` along a random game, for both sides."""
    game = get(name)
    rules = game.spec.defaults()
    weights = game.evaluation_weights(rules)
    state, rng, checked = game.new_initial_state(rules, 5), random.Random(5), 0
    for _ in range(120):
        if state.is_terminal():
            break
        p = state.current_player()
        state.apply_action(rng.choice([o for o, _ in state.chance_outcomes()]) if p < 0 else rng.choice(
            state.legal_actions(p)))
        if state.is_terminal() or state.current_player() < 0 or getattr(state, "phase", "") == "setup":
            continue
        for side in (0, 1):
            f = game.evaluation_features(state, side)
            assert set(f) <= set(weights)
            assert sum(weights[k] * v for k, v in f.items()) == pytest.approx(state.evaluate(side), abs=1e-6)
            checked += 1
    assert checked or name == "big-chess"  # big chess's random setup can outlast the plies


def test_planted_weights_are_recovered_with_whole_game_intervals():
    """Positions drawn from a known logistic model (results per game): the fit finds the weights' ratios."""
    from workbench.study.learn import fit_values

    rng = np.random.default_rng(3)
    true = np.array([1.0, 3.0])  # log-odds per unit: knight worth three pawns
    rows = []
    for g in range(250):
        x = rng.normal(0, 1, size=(6, 2)).round()
        p = 1 / (1 + np.exp(-(x.mean(axis=0) @ true)))
        y = float(rng.random() < p)
        rows += [{"game_id": g, "y": y, "pawn": a, "knight": b, "hand": a + 3 * b} for a, b in x]
    fit = fit_values(pd.DataFrame(rows), ["pawn", "knight"], boot=40, seed=1)
    assert fit["units"] and fit["scale_low"] > 0
    knight, pawn = fit["features"]["knight"], fit["features"]["pawn"]
    assert knight["value_low"] < 3.0 < knight["value_high"] and pawn["value_low"] < 1.0 < pawn["value_high"]
    assert knight["weight_low"] > pawn["weight_high"] * 0.9


def test_anchored_weights_keep_the_hand_ratio_where_data_is_silent_and_move_where_it_disagrees():
    """Planted truth: the hand weights value a knight at 3 pawns, the games at 1; a queen is never seen off
    balance. The played weights keep the queen at 9 rescaled hand pawns (not shrunk to 0, as the plain ridge
    fit leaves a feature it cannot see) and bring the knight down toward the truth."""
    from workbench.study.learn import anchored_weights

    rng = np.random.default_rng(5)
    hand = {"pawn": 1.0, "knight": 3.0, "queen": 9.0}
    rows = []
    for g in range(300):
        x = rng.normal(0, 1, size=(6, 2)).round()
        p = 1 / (1 + np.exp(-(x.mean(axis=0) @ np.array([1.0, 1.0]))))
        y = float(rng.random() < p)
        rows += [{"game_id": g, "y": y, "pawn": a, "knight": b, "queen": 0.0, "hand": a + 3 * b} for a, b in x]
    data = pd.DataFrame(rows)
    weights, k = anchored_weights(data, ["pawn", "knight"], hand, ["pawn", "knight", "queen"], anchor=0.01)
    assert k > 0
    assert weights["queen"] == pytest.approx(9 * k)  # unseen: the rescaled hand weight
    assert weights["knight"] / weights["pawn"] < 2.0  # the data's 1:1 pulls the hand's 3:1 down
    strong, _ = anchored_weights(data, ["pawn", "knight"], hand, ["pawn", "knight", "queen"], anchor=100.0)
    assert strong["knight"] / strong["pawn"] == pytest.approx(3.0, rel=0.05)  # a strong anchor keeps the hand's


def test_weights_are_chosen_by_name_and_an_agent_searches_with_them(tmp_path, monkeypatch):
    from workbench.agents.generic import make_protocol_agent
    from workbench.agents.learned import available_weights, load_weights

    game = get("pole")
    rules = game.spec.defaults()
    weights = {k: 2 * v for k, v in game.evaluation_weights(rules).items()}
    (tmp_path / "pole-test.json").write_text(json.dumps({"game": "pole", "weights": weights}))
    monkeypatch.chdir(tmp_path)
    assert "pole-test.json" in available_weights(game) and load_weights(game, "pole-test.json") == weights
    for bad, words in (("../x.json", "named, not a path"), ("/etc/passwd", "named, not a path"),
                       ("none.json", "no such weights file")):
        with pytest.raises(ValueError, match=words):
            load_weights(game, bad)
    agent = make_protocol_agent("greedy:eval=pole-test.json", game, rules, seed=1)
    state = game.new_initial_state(rules, 1)
    assert agent.evaluation(state, 0) == pytest.approx(2 * state.evaluate(0))
    assert agent.select_action(state) in state.legal_actions()
    from workbench.widget.board_controller import GameBoardController
    from workbench.widget.common import WidgetError

    board = GameBoardController(game, seed=1)  # the board offers the files by name, refuses any other text
    assert board.set_agent(1, "greedy:eval=pole-test.json").endswith("eval=pole-test.json")
    for typed in ("greedy:eval=../pole-test.json", "greedy:eval=/tmp/x.json", "greedy:eval=other.json"):
        with pytest.raises(WidgetError, match="not a weights file the board offers"):
            board.set_agent(1, typed)
    (tmp_path / "pole-bad.json").write_text(json.dumps({"game": "pole", "weights": {"dragon": 1.0}}))
    with pytest.raises(ValueError, match="no evaluation feature 'dragon'"):
        make_protocol_agent("greedy:eval=pole-bad.json", game, rules, seed=1)


def test_the_section_says_what_moved():
    from workbench.balance.values import values_frame, values_lines

    doc = {"game": "pole", "rules": "cost_A=4", "agent": "greedy", "games": 200, "positions": 9000, "rounds": 2,
           "unit": "coins", "scale": 0.3, "scale_interval": [0.2, 0.4], "units": True, "boot": 200,
           "values": {"archer": {"value": 3.1, "value_low": 2.8, "value_high": 3.4, "default": 2.0},
                      "tower": {"value": 9.0, "value_low": 7.0, "value_high": 11.0, "default": 10.0}}}
    lines = values_lines(doc)
    assert "archer 3.10 [2.80, 3.40] under cost_A=4, against 2 by the rulebook's weights." in lines
    assert lines[-1] == "Values whose default lies outside the learned interval: archer."
    assert list(values_frame(doc)["default outside the interval"]) == ["yes", "no"]


def test_the_native_core_searches_with_the_same_learned_weights(tmp_path, monkeypatch):
    """``eval=NAME`` on Pole's native core: the weights' vector in the features' order, the same picks and the
    same root value as the Python agent with that file, and whole games stay on the core."""
    from workbench.agents.generic import make_protocol_agent
    from workbench.core.protocol import CHANCE
    from workbench.core.weights import feature_names, weights_vector
    from workbench.games.pole import native

    if not native.available():
        pytest.skip("the native core is not built")
    game = get("pole")
    rng = random.Random(3)
    weights = {k: round(rng.uniform(-2, 2), 3) for k in feature_names(game)}
    (tmp_path / "pw.json").write_text(json.dumps({"game": "pole", "weights": weights}))
    monkeypatch.chdir(tmp_path)
    assert weights_vector(game, "pw.json") == [weights[k] for k in feature_names(game)]
    rules = game.spec.make({"start_coins": 12, "income": 3, "max_turns": 6})
    for spec in ("greedy:eval=pw.json", "alphabeta:depth=2,nodes=300,seconds=5,eval=pw.json"):
        st, dice = game.new_initial_state(rules, 3), random.Random(5)
        py = [make_protocol_agent(spec, game, rules, seed=40 + i) for i in range(2)]
        nat = [native.NativeAgent(spec, game, rules, seed=40 + i) for i in range(2)]
        while not st.is_terminal():
            if st.current_player() == CHANCE:
                st.apply_action(dice.randrange(36))
                continue
            p = st.current_player()
            a = py[p].select_action(st)
            assert nat[p].select_action(native.NativePoleState.from_python(st)) == a
            if spec.startswith("alphabeta"):
                assert nat[p].score == py[p].score
            st.apply_action(a)
    assert native.has_native("greedy:eval=pw.json") and not native.has_native("turtle:eval=pw.json")


def test_td_returns_mix_the_next_values_and_the_result_game_by_game():
    from workbench.study.learn import td_returns

    value = np.array([0.1, 0.2, 0.4, 0.9, 0.3])
    result = np.array([1.0, 1.0, 1.0, 0.0, 0.0])
    ids = np.array([7, 7, 7, 8, 8])
    got = td_returns(value, result, ids, 0.5)
    # game 7: last gets 1; before it 0.5*0.4 + 0.5*1 = 0.7; first 0.5*0.2 + 0.5*0.7 = 0.45; game 8: 0, 0.5*0.3 + 0
    assert got.tolist() == pytest.approx([0.45, 0.7, 1.0, 0.15, 0.0])
    assert td_returns(value, result, ids, 1.0).tolist() == result.tolist()


def _walks(rng, true, games=300, plies=8):
    """Games as random walks of two features; the result drawn from the logistic model of the last position."""
    rows = []
    for g in range(games):
        x = np.cumsum(rng.normal(0, 1, size=(plies, 2)).round(), axis=0)
        y = float(rng.random() < 1 / (1 + np.exp(-(x[-1] @ true))))
        rows += [{"game_id": g, "y": y, "pawn": a, "knight": b, "hand": a + b} for a, b in x]
    return pd.DataFrame(rows)


def test_td_lambda_fit_recovers_planted_weights_against_a_wrong_hand():
    """Planted truth: a knight worth 3 pawns, the hand says 1. The TD(0.7) fit, like the result fit, finds the
    data's 3:1, and its targets are the values of the next positions, not only each game's result."""
    from workbench.study.learn import anchored_weights

    data = _walks(np.random.default_rng(11), np.array([0.3, 0.9]))
    hand = {"pawn": 1.0, "knight": 1.0}
    for lam in (1.0, 0.7):
        weights, k = anchored_weights(data, ["pawn", "knight"], hand, ["pawn", "knight"], anchor=0.001, lam=lam)
        assert 2.0 < weights["knight"] / weights["pawn"] < 4.5, lam
        assert 0.15 < weights["pawn"] < 0.5 and k != 0


def test_spread_anchor_holds_a_wide_feature_as_firmly_as_a_count():
    """Two features disagree with the hand alike per standard deviation, one of ten times the other's range
    (hit points against a count). Per unit, the anchor barely holds the wide one; per spread, both move alike."""
    from workbench.study.learn import anchored_weights

    rng = np.random.default_rng(4)
    rows = []
    for g in range(400):
        x = rng.normal(0, 1, size=(5, 2)).round()
        p = 1 / (1 + np.exp(-(x.mean(axis=0) @ np.array([1.0, 3.0]))))  # per sd: count 1, hit points 3
        y = float(rng.random() < p)
        rows += [{"game_id": g, "y": y, "count": a, "hp": 10 * b, "hand": a + b} for a, b in x]  # hand 1:1 per sd
    data = pd.DataFrame(rows)
    hand = {"count": 1.0, "hp": 0.1}

    def moved(spread):
        w, k = anchored_weights(data, ["count", "hp"], hand, ["count", "hp"], anchor=0.5, spread=spread)
        return {f: abs(w[f] / (k * hand[f]) - 1.0) for f in hand}  # each weight's departure from the hand's

    per_unit, per_spread = moved(False), moved(True)
    assert per_unit["hp"] > 3 * per_unit["count"]  # per unit the wide feature escapes the anchor
    assert per_spread["hp"] < per_unit["hp"] / 2  # per spread it is held
    assert per_spread["hp"] == pytest.approx(per_spread["count"], rel=0.6, abs=0.05)


def test_a_fixed_feature_keeps_its_rescaled_hand_weight_while_the_others_move():
    """Planted truth 3:1 against a hand of 1:1; with the knight fixed, its weight is k x hand exactly and the pawn's
    correction alone carries the data (so it moves the other way); unfixed, the ratio follows the data."""
    from workbench.study.learn import anchored_weights

    data = _walks(np.random.default_rng(11), np.array([0.3, 0.9]))
    hand = {"pawn": 1.0, "knight": 1.0}
    free, _ = anchored_weights(data, ["pawn", "knight"], hand, ["pawn", "knight"], anchor=0.001)
    held, k = anchored_weights(data, ["pawn", "knight"], hand, ["pawn", "knight"], anchor=0.001, fixed=("knight",))
    assert held["knight"] == pytest.approx(k * hand["knight"]) and k > 0
    assert held["pawn"] < held["knight"] and free["knight"] / free["pawn"] > 2.0


def test_learn_refuses_a_fixed_name_that_is_no_feature_and_shaping_options_without_an_anchor():
    from workbench.study.learn import learn

    with pytest.raises(ValueError, match="--fixed dragon: not an evaluation feature of pole"):
        learn("pole", "", 10, fixed=("dragon",))
    with pytest.raises(ValueError, match="give --anchor above 0"):
        learn("pole", "", 10, anchor=0.0, lam=0.5)
