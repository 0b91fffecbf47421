"""Native agents: the same choices as Python where promised, legal games, validated parameters."""

from __future__ import annotations

import json
import random
import time

import pytest

from workbench.agents import make_agent
from workbench.games.terrafeud.agents.evaluate import LearnedEvaluation, evaluate
from workbench.games.terrafeud.agents.native_agent import install_eval_params
from workbench.games.terrafeud.engine import new_game
from workbench.games.terrafeud.native import NativeState, available, play_native

pytestmark = pytest.mark.skipif(not available(), reason="native core not built")


def _game(name: str, seed: int, engine: str, rules: str | None = None, plies: int = 60) -> list:
    st = new_game(rules, seed=seed)
    agents = [make_agent(name, seed=seed * 2 + s, engine=engine) for s in (0, 1)]
    while not st.is_terminal() and st.ply < plies:
        st.apply(agents[st.to_move].select_action(st))
    return st.history


@pytest.mark.parametrize("name", ["random", "greedy"])
@pytest.mark.parametrize("rules", [None, "season=winter", "castling=sacrifice,archer_melee=true"])
def test_native_random_and_greedy_choose_what_python_chooses(name, rules):
    for seed in (1, 2):
        assert _game(name, seed, "native", rules) == _game(name, seed, "python", rules)


def test_native_evaluation_equals_the_python_evaluation():
    native = install_eval_params()
    for seed in (3, 4):
        st = new_game("season=winter" if seed % 2 else None, seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal() and st.ply < 80:
            ns = NativeState.from_state(st)
            for side in (0, 1):
                assert native.evaluate(ns._st, side) == pytest.approx(evaluate(st, side), abs=1e-9)
            st.apply(rng.choice(st.legal_actions()))


@pytest.mark.parametrize("white, black", [
    ("alphabeta:depth=2,nodes=1500", "search:nodes=3000"),
    ("mcts:iterations=60", "random"),
    ("greedy", "mcts:iterations=40,rollout=random"),
])
@pytest.mark.parametrize("rules", [None, "season=winter,castling=sacrifice,mate_defence=any,archer_range=3"])
def test_whole_native_games_replay_legally_in_the_python_engine(white, black, rules):
    for seed in (11, 12):
        start = new_game(rules, seed=seed)
        trace = play_native(start, white, black, (seed, seed + 1), 160, boards=False)
        st = new_game(rules, seed=seed)
        for action in trace["actions"]:
            st.apply(tuple(action))  # checked: IllegalActionError if Rust played an illegal action
        assert (st.winner, st.victory, st.ply) == (trace["winner"], trace["victory"], trace["plies"])


def test_native_agent_takes_a_python_state_and_leaves_it_alone():
    st = new_game(seed=5)
    for _ in range(10):
        st.apply(random.Random(5).choice(st.legal_actions()))
    agent = make_agent("search:nodes=2000", seed=1, engine="native")
    key, history = st.key(), list(st.history)
    action = agent.select_action(st)
    assert action in st.legal_actions() and (st.key(), st.history) == (key, history)
    assert agent.searched > 0 and agent.depth == 8  # the Python twin's parameters read through


def test_native_parameters_are_validated_in_rust_too():
    native = install_eval_params()
    for name, params, message in [
        ("alphabeta", [("depth", "30")], "out of range 1..20"),
        ("mcts", [("iterations", "10^9")], "must be an integer"),
        ("search", [("seconds", "inf")], "must be a number"),
        ("random", [("depth", "2")], "unknown parameter"),
        ("alphabeta", [("engine", "python")], "pinned to engine=python"),
        ("minimax", [], "no native agent"),
    ]:
        with pytest.raises(ValueError, match=message):
            native.Agent(name, params, [1])


def test_native_search_obeys_its_time_budget():
    st = new_game(seed=6)
    agent = make_agent("search:depth=20,nodes=5000000,seconds=0.05", seed=1, engine="native")
    t0 = time.perf_counter()
    assert agent.select_action(st) in st.legal_actions()
    assert time.perf_counter() - t0 < 2.0


def test_engine_choice_and_pins():
    assert make_agent("alphabeta", seed=1).engine == "native"  # auto with the core built
    assert make_agent("alphabeta:engine=python", seed=1).engine == "python"
    assert make_agent("alphabeta", seed=1, engine="python").engine == "python"
    with pytest.raises(ValueError, match="engine='fast' must be auto, native or python"):
        make_agent("alphabeta:engine=fast")


@pytest.mark.parametrize("spec", ["alphabeta:depth=2", "alphabeta:depth=3,nodes=3000"])
def test_native_alphabeta_searches_the_same_tree_as_python(spec):
    """Same seed, same position: the same action after the same number of nodes (move order, pruning and the
    transposition table all agree) and the same root value (the board's score), along a random line of 30 plies."""
    st = new_game(seed=3)
    line = random.Random(1)
    for ply in range(30):
        if st.is_terminal():
            break
        py = make_agent(spec, seed=ply, engine="python")
        na = make_agent(spec, seed=ply, engine="native")
        assert (na.select_action(st.clone()), na.searched) == (py.select_action(st.clone()), py.searched), ply
        assert na.score == pytest.approx(py.score, abs=1e-9) if py.score is not None else na.score is None, ply
        st.apply(line.choice(st.legal_actions()))


def _weights_file(folder, seed: int, name: str = "w.json") -> str:
    """A weights file of random weights over TerraFeud's declared features, by name in ``folder``."""
    from workbench.core.weights import feature_names
    from workbench.games.terrafeud import GAME

    rng = random.Random(seed)
    (folder / name).write_text(json.dumps({"game": "terrafeud", "weights": {
        k: round(rng.uniform(0.1, 2.0), 4) for k in feature_names(GAME)}}))
    return name


@pytest.mark.parametrize("spec", ["alphabeta:depth=2,nodes=1500", "search:nodes=800", "mcts:iterations=80"])
def test_tuned_agents_with_learned_weights_search_the_same_tree_in_both_engines(spec, tmp_path, monkeypatch):
    """``eval=NAME`` on TerraFeud's own searching agents: along a random line of an archer_range=4 game, the Rust
    agent picks what the Python one picks, after the same number of nodes, with the same root value (learned
    weights' sum over the declared features); the weights change what the search sees."""
    monkeypatch.chdir(tmp_path)
    learned = f"{spec},eval={_weights_file(tmp_path, 7)}"
    st, line, changed = new_game("archer_range=4", seed=5), random.Random(2), 0
    for ply in range(12):
        if st.is_terminal():
            break
        py, na = make_agent(learned, seed=ply, engine="python"), make_agent(learned, seed=ply, engine="native")
        assert isinstance(py.learned, LearnedEvaluation) and na.engine == "native"
        assert na.select_action(st.clone()) == py.select_action(st.clone()), ply
        if not spec.startswith("mcts"):  # mcts reports neither nodes nor a root value in Python
            assert (na.searched, na.score) == (py.searched, py.score), ply  # the same float: summed in the same order
            hand = make_agent(spec, seed=ply, engine="python")
            hand.select_action(st.clone())
            changed += hand.score != py.score
        st.apply(line.choice(st.legal_actions()))
    assert changed >= 5 or spec.startswith("mcts")


def test_learned_evaluation_is_the_feature_sum_and_the_hand_weights_give_the_hand_evaluation(tmp_path, monkeypatch):
    """The tuned agents' learned evaluation is ``sum(weight * feature)`` in Python and in Rust (the same float),
    and the hand weights as a file give the hand evaluation back (up to rounding)."""
    from workbench.games.terrafeud import GAME
    from workbench.games.terrafeud.agents.evaluate import features, learned_evaluation

    monkeypatch.chdir(tmp_path)
    (tmp_path / "hand.json").write_text(json.dumps({"game": "terrafeud", "weights": GAME.evaluation_weights()}))
    hand, rand = learned_evaluation(GAME, "hand.json"), learned_evaluation(GAME, _weights_file(tmp_path, 3))
    st, rng = new_game("season=winter", seed=4), random.Random(4)
    while not st.is_terminal() and st.ply < 60:
        for side in (0, 1):
            assert hand(st, side) == pytest.approx(evaluate(st, side), abs=1e-9)
            assert rand(st, side) == sum(w * f for w, f in zip(rand.weights, features(st, side), strict=True))
        st.apply(rng.choice(st.legal_actions()))


def test_batches_play_tuned_agents_with_learned_weights_whole_in_the_core(tmp_path, monkeypatch):
    """A native batch of TerraFeud's tuned ``alphabeta:...,eval=NAME`` against the same agent with the hand
    weights plays each game whole in Rust (rows say native) and gives the Python engine's rows and events."""
    import pandas as pd

    from workbench.simulate import simulate

    monkeypatch.chdir(tmp_path)
    learned = f"alphabeta:depth=2,nodes=150,eval={_weights_file(tmp_path, 9)}"
    runs = {eng: simulate({"archer_range": [4]}, learned, "alphabeta:depth=2,nodes=150", 2, seed=3, max_plies=80,
                          workers=0, progress=False, engine=eng, events=True) for eng in ("native", "python")}
    (nat, nat_ev), (py, py_ev) = runs["native"], runs["python"]
    assert set(nat["engine"]) == {"native"} and set(py["engine"]) == {"python"}
    assert "error" not in set(nat["victory"]) and len(nat_ev) > 60
    pd.testing.assert_frame_equal(nat.drop(columns=["engine", "seconds"]), py.drop(columns=["engine", "seconds"]),
                                  check_exact=True)
    pd.testing.assert_frame_equal(nat_ev, py_ev, check_exact=True)
