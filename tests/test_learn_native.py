"""Learned weights on every native core: the cores' feature readers are the exact twins of the games' Python
``evaluation_features``, agents with ``eval=NAME`` pick in the core what they pick in Python, whole games with
learned weights stay on the core, and ``learn`` reads the same positions on either engine."""

from __future__ import annotations

import importlib
import json
import math
import random

import pytest

from workbench.core.protocol import CHANCE
from workbench.games import get

# the game, a variant whose start needs no long setup, and the native twin of its generic agents
GAMES = {
    "pole": ("", "workbench.games.pole.native:NativeAgent"),
    "cursed-lands": ("factions=elves/dwarves", "workbench.games.cursed_lands.native:NativeAgent"),
    "big-chess": ("start=deployed,cost_knight=60", "workbench.games.big_chess.native:NativeAgent"),
    "terrafeud": ("archer_range=4", "workbench.games.terrafeud.native:GenericTwin"),
}


def _setup(name: str):
    game = get(name)
    if not game.native.available():
        pytest.skip("the native core is not built")
    rules_text, twin = GAMES[name]
    module, cls = twin.split(":")
    return game, game.spec.make(rules_text or None), getattr(importlib.import_module(module), cls)


def _step(game, state, rng: random.Random) -> None:
    p = state.current_player()
    if p == CHANCE:
        outs = state.chance_outcomes()
        state.apply_action(rng.choices([o for o, _ in outs], [q for _, q in outs])[0])
    else:
        state.apply_action(rng.choice(state.legal_actions(p)))


@pytest.mark.parametrize("name", list(GAMES))
def test_the_core_reads_the_same_features_as_python_at_every_ply_of_random_games(name):
    """At every ply of two random games, for every player: the same names, order and floats (==, not approx)."""
    game, rules, _ = _setup(name)
    players = game.info(rules).num_players
    compared = 0
    for seed in range(2):
        state, rng = game.new_initial_state(rules, seed), random.Random(seed)
        for _ in range(160):
            if state.is_terminal():
                break
            nat = game.native.state(state)
            for p in range(players):
                py = game.evaluation_features(state, p)
                assert list(game.evaluation_features(nat, p).items()) == list(py.items()), (seed, p)
                compared += 1
            _step(game, state, rng)
    assert compared >= 200


@pytest.mark.parametrize("name", list(GAMES))
def test_agents_with_learned_weights_pick_in_the_core_what_they_pick_in_python(name, tmp_path, monkeypatch):
    """Random weights in a file chosen by name: greedy and alphabeta (depth 2, a node budget) pick the same action
    and alphabeta keeps the same root value, native against Python, at each decision of a game."""
    from workbench.agents.generic import make_protocol_agent
    from workbench.core.weights import feature_names, weights_vector

    game, rules, twin = _setup(name)
    rng = random.Random(7)
    weights = {k: round(rng.uniform(-2, 2), 3) for k in feature_names(game)}
    (tmp_path / "w.json").write_text(json.dumps({"game": game.name, "weights": weights}))
    monkeypatch.chdir(tmp_path)
    assert weights_vector(game, "w.json") == [weights[k] for k in feature_names(game)]
    players = game.info(rules).num_players
    for spec, plies in (("greedy:eval=w.json", 24), ("alphabeta:depth=2,nodes=150,seconds=5,eval=w.json", 8)):
        if spec.partition(":")[0] in game.game_agents():  # TerraFeud's own greedy/alphabeta read no weights: the
            spec = "generic-" + spec                      # generic ones do (``generic-<name>``)
        state, dice = game.new_initial_state(rules, 3), random.Random(3)
        py = [make_protocol_agent(spec, game, rules, seed=40 + i) for i in range(players)]
        nat = [twin(spec, game, rules, seed=40 + i) for i in range(players)]
        decided = 0
        while not state.is_terminal() and decided < plies:
            if state.current_player() == CHANCE:
                _step(game, state, dice)
                continue
            p = state.current_player()
            action = py[p].select_action(state)
            assert nat[p].select_action(state) == action, (spec, decided)
            if "alphabeta" in spec:
                assert nat[p].score == py[p].score
            state.apply_action(action)
            decided += 1
        assert decided == plies or state.is_terminal()


@pytest.mark.parametrize("name", ["cursed-lands", "big-chess"])
def test_whole_games_with_learned_weights_stay_on_the_core_and_learn_reads_the_same_positions(name, tmp_path,
                                                                                               monkeypatch):
    """``simulate`` plays ``greedy:eval=NAME`` in the core (the rows say native), and ``learn``'s positions read on
    the core equal those replayed in Python, feature by feature."""
    import pandas as pd

    from workbench.core.weights import feature_names
    from workbench.study.learn import play, positions

    game, rules, _ = _setup(name)
    hand = dict(game.evaluation_weights(rules))
    (tmp_path / "h.json").write_text(json.dumps({"game": game.name,
                                                 "weights": {k: hand.get(k, 0.0) for k in feature_names(game)}}))
    monkeypatch.chdir(tmp_path)
    games, events = play(game.name, rules, "greedy:eval=h.json", 3, 1, 1, "auto", 120)
    assert set(games["engine"]) == {"native"} and "error" not in set(games["victory"])
    on_core = positions(game, rules, games, events, engine="native")
    assert len(on_core) > 20
    pd.testing.assert_frame_equal(on_core, positions(game, rules, games, events, engine="python"), check_exact=True)


def _shipped() -> list[tuple[str, str]]:
    """(game, file) for every weights file a game ships in its ``data/weights`` folder."""
    from workbench.core.weights import weights_folders

    return [(name, path.name) for name in GAMES for path in sorted(weights_folders(get(name))[-1].glob("*.json"))]


def test_the_games_ship_weights_that_beat_their_hand_weights():
    """Big chess (cost_queen=10) and TerraFeud (coordinated=1): the files the measurements in docs/strength.md name."""
    assert {("big-chess", "big-chess-deployed-cost_queen=10.json"),
            ("terrafeud", "terrafeud-coordinated=1.json")} <= set(_shipped())


@pytest.mark.parametrize(("name", "file"), _shipped())
def test_the_shipped_weights_are_offered_by_name_and_read_by_the_core(name, file, tmp_path, monkeypatch):
    """The weights that beat the hand weights ship in the game's folder: offered by name (no path), valid for the
    game's features, fitted under the variant they name, and searched with on the core exactly as in Python."""
    from workbench.agents.generic import make_protocol_agent
    from workbench.core.weights import available_weights, feature_names, load_weights, weights_folders, weights_vector

    game, _, twin = _setup(name)
    monkeypatch.chdir(tmp_path)  # an empty study folder: only the game's own files are found
    assert file in available_weights(game)
    weights = load_weights(game, file)
    assert len(weights_vector(game, file)) == len(feature_names(game)) and all(map(math.isfinite, weights.values()))
    meta = json.loads((weights_folders(game)[-1] / file).read_text(encoding="utf-8"))
    assert meta["game"] == game.name and meta["versus_confirmed"]["score_lo"] > 0.5  # confirmed on fresh seeds
    rules = game.spec.make(meta["rules"] or None)
    state = game.new_initial_state(rules, 2)
    spec = f"greedy:eval={file}"
    if "greedy" in game.game_agents():  # a game's own greedy reads no weights: the generic one does
        spec = "generic-" + spec
    assert twin(spec, game, rules, seed=1).select_action(state) == make_protocol_agent(spec, game, rules,
                                                                                        seed=1).select_action(state)


def test_terrafeud_generic_seats_with_learned_weights_play_whole_games_in_the_core(tmp_path, monkeypatch):
    """A native TerraFeud batch of ``generic-greedy:eval=NAME`` / ``generic-alphabeta:...,eval=NAME`` plays each
    game whole in the core (the rows say native) and gives the Python engine's rows and events exactly."""
    import pandas as pd

    from workbench.core.weights import feature_names
    from workbench.study.learn import play

    game, rules, _ = _setup("terrafeud")
    rng = random.Random(5)
    (tmp_path / "w.json").write_text(json.dumps({"game": game.name, "weights": {
        k: round(rng.uniform(0.2, 4), 3) for k in feature_names(game)}}))
    monkeypatch.chdir(tmp_path)
    for spec in ("generic-greedy:eval=w.json", "generic-alphabeta:depth=2,nodes=150,seconds=5,eval=w.json"):
        nat, nat_ev = play(game.name, rules, spec, 2, 1, 1, "native", 100)
        py, py_ev = play(game.name, rules, spec, 2, 1, 1, "python", 100)
        assert set(nat["engine"]) == {"native"} and set(py["engine"]) == {"python"}, spec
        assert "error" not in set(nat["victory"]) and len(nat_ev) > 50
        pd.testing.assert_frame_equal(nat.drop(columns=["engine", "seconds"]), py.drop(columns=["engine", "seconds"]),
                                      check_exact=True)
        pd.testing.assert_frame_equal(nat_ev, py_ev, check_exact=True)
