"""The protocol's contract, checked on every registered game (and the tiny test game, Stones).

What every tool relies on: random play reaches the end, undo and clone are exact, ``to_dict`` round
trips at every action, legal actions come in a stable order and read back from their notation, dense
action ids are distinct and invertible, chance probabilities sum to 1, and a seed fixes the game.
OpenSpiel's own ``random_sim_test`` then runs on each game, default rules and one variant.
"""

from __future__ import annotations

import random

import pytest

from workbench import games
from workbench.core import CHANCE, TERMINAL

games.register("stones", "tinygame")
NAMES = [*games.names()]
MAX_ACTIONS = 120  # per playthrough: enough to reach captures, chance and turn changes in every game
# OpenSpiel's serialising test replays every prefix of a game (quadratic): variants with short caps
VARIANTS = {
    "terrafeud": {"season": "winter", "draw_after": 40},
    "pole": {"fortress_rounding": "down", "max_turns": 40},
    "cursed-lands": {"untiled": "plain", "turn_limit": 8},
    "big-chess": {"max_turns": 10, "start": "army"},
}


def _sample(state, rng: random.Random):
    if state.current_player() == CHANCE:
        outcomes = state.chance_outcomes()
        assert outcomes, "a chance node must offer outcomes"
        assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
        assert all(p > 0 for _, p in outcomes)
        return rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
    acts = state.legal_actions()
    assert acts, f"player {state.current_player()} to move with no legal action"
    return rng.choice(acts)


def _playthrough(name: str, seed: int, checks: bool) -> list:
    game = games.get(name)
    rules = game.spec.defaults()
    info = game.info(rules)
    state = game.new_initial_state(rules, seed)
    rng = random.Random(seed)
    played = []
    while not state.is_terminal() and len(played) < MAX_ACTIONS:
        player = state.current_player()
        assert player == CHANCE or 0 <= player < info.num_players
        if checks:
            before = state.to_dict()
            legal = state.legal_actions()
            assert legal == state.legal_actions(), "legal actions must come in a stable order"
            assert legal == state.clone().legal_actions()
            again = game.state_from_dict(before)
            assert again.to_dict() == before, "to_dict/state_from_dict must round-trip"
            assert again.legal_actions() == legal
            if player != CHANCE:
                ids = [game.action_to_int(state, a) for a in legal]
                assert len(set(ids)) == len(ids), "dense action ids must be distinct"
                assert all(0 <= i < game.num_distinct_actions(rules) for i in ids)
                assert [game.int_to_action(state, i) for i in ids] == legal
                for a in legal:
                    assert state.string_to_action(state.action_to_string(a)) == a
        action = _sample(state, rng)
        if checks:
            copy = state.clone()
        state.apply_action(action)
        played.append(action)
        if checks:
            after = state.to_dict()
            state.undo_action()
            assert state.to_dict() == before, "undo must restore the state exactly"
            state.apply_action(action)
            assert state.to_dict() == after
            assert copy.to_dict() == before, "a clone is independent of the original"
    if state.is_terminal():
        assert state.current_player() == TERMINAL
        assert len(state.returns()) == info.num_players
        assert state.outcome() in ("win", "draw", "unfinished")
    return played


@pytest.mark.parametrize("name", NAMES)
def test_random_playthrough_conformance(name):
    _playthrough(name, seed=1, checks=True)


@pytest.mark.parametrize("name", NAMES)
def test_same_seed_same_game(name):
    assert _playthrough(name, 7, checks=False) == _playthrough(name, 7, checks=False)


@pytest.mark.parametrize("name", NAMES)
def test_rules_spec_validates(name):
    game = games.get(name)
    defaults = game.spec.defaults()
    assert defaults.label() == ""
    with pytest.raises(ValueError, match="unknown rule"):
        game.rules({"no_such_rule_here": 1})
    for param in game.spec:
        assert param.meaning, f"{name}.{param.name} needs a meaning for the rules table"
        if param.kind == "int" and param.high is not None:
            with pytest.raises(ValueError, match=param.name):
                game.rules({param.name: int(param.high) + 1})


@pytest.mark.parametrize("name", NAMES)
def test_openspiel_random_sim_test(name):
    pyspiel = pytest.importorskip("pyspiel")
    from workbench.openspiel import register_all, spiel_name

    register_all()
    if name == "stones":
        from workbench.openspiel import _make_classes

        if spiel_name("stones") not in pyspiel.registered_names():
            pyspiel.register_game(*_make_classes(games.get("stones")))
    game = pyspiel.load_game(spiel_name(name))
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)
    variant = VARIANTS.get(name)
    if variant is not None:
        variant = {k: v for k, v in variant.items() if k in games.get(name).spec}
    if not variant:
        flip = next(p for p in games.get(name).spec if p.kind == "bool")
        variant = {flip.name: not flip.default}
    game = pyspiel.load_game(spiel_name(name), variant)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("name", ["stones", "terrafeud", "pole", "cursed-lands", "big-chess"])
def test_openspiel_mcts_bot_plays_through_evaluate_bots(name):
    """OpenSpiel's own MCTSBot plays our game to its end (short caps keep its random rollouts cheap)."""
    pyspiel = pytest.importorskip("pyspiel")
    import numpy as np
    from open_spiel.python.algorithms import evaluate_bots, mcts

    from workbench.openspiel import _make_classes, register_all, spiel_name

    if name not in NAMES:
        pytest.skip(f"{name} is not installed")
    register_all()
    if name == "stones" and spiel_name("stones") not in pyspiel.registered_names():
        pyspiel.register_game(*_make_classes(games.get("stones")))
    variant = {k: v for k, v in VARIANTS.get(name, {}).items() if k in games.get(name).spec}
    if name == "terrafeud":
        variant["draw_after"] = 12  # rollouts end soon after the opening's first quiet stretch
    game = pyspiel.load_game(spiel_name(name), variant)
    rng = np.random.RandomState(3)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [mcts.MCTSBot(game, uct_c=2.0, max_simulations=3, evaluator=evaluator, random_state=rng)
            for _ in range(game.num_players())]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
    assert len(returns) == game.num_players()
    assert all(-1.0 <= r <= 1.0 for r in returns)
