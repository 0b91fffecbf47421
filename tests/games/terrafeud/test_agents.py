"""Agents: legal, leave the state untouched, seeded, and see the obvious tactics."""

from __future__ import annotations

import random
import time

import pytest
from enginehelp import pos

from workbench.agents import AGENTS, make_agent, parse_agent_spec
from workbench.games.terrafeud.agents.evaluate import material, piece_weights
from workbench.games.terrafeud.engine import new_game
from workbench.games.terrafeud.native import available

# Each agent test runs on both engines when the native core is built (the native twins share
# the specs, so what holds for an agent must hold for its twin).
ENGINES = ["python", "native"] if available() else ["python"]

FAST = {"random": {}, "greedy": {}, "alphabeta": {"depth": 2, "nodes": 300}, "mcts": {"iterations": 40},
        "alphabeta:depth=3,nodes=500": {}, "mcts:rollout=random,rollout_depth=4": {"iterations": 20},
        "search": {"depth": 3, "nodes": 600}}


def _midgame(seed: int, plies: int = 12):
    st = new_game(seed=seed)
    rng = random.Random(seed)
    for _ in range(plies):
        st.apply(rng.choice(st.legal_actions()))
    return st


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name", sorted(FAST))
def test_agent_plays_legal_actions_and_leaves_the_state_alone(name, engine):
    st = _midgame(5)
    agent = make_agent(name, seed=1, engine=engine, **FAST[name])
    assert agent.engine == engine
    for _ in range(4):
        key, ply, history = st.key(), st.ply, list(st.history)
        action = agent.select_action(st)
        assert (st.key(), st.ply, st.history) == (key, ply, history)
        assert action in st.legal_actions()
        st.apply(action)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name", sorted(FAST))
def test_agent_is_reproducible_from_its_seed(name, engine):
    def game(seed: int) -> list:
        st = new_game(seed=7)
        agents = [make_agent(name, seed=seed, engine=engine, **FAST[name]),
                  make_agent(name, seed=seed + 1, engine=engine, **FAST[name])]
        for _ in range(6):
            st.apply(agents[st.to_move].select_action(st))
        return st.history

    assert game(3) == game(3)


def test_alphabeta_time_budget_still_answers_legally():
    # A time budget makes the choice depend on the machine, so only legality is checked.
    st = _midgame(8)
    agent = make_agent("alphabeta:depth=4,nodes=1000000,seconds=0.05", seed=1)
    assert agent.select_action(st) in st.legal_actions()


def test_random_agents_with_other_seeds_play_other_games():
    def game(seed: int) -> list:
        st = new_game(seed=7)
        agent = make_agent("random", seed=seed)
        for _ in range(6):
            st.apply(agent.select_action(st))
        return st.history

    assert game(1) != game(2)


def test_greedy_takes_a_free_piece():
    st = pos({"f1": "F", "f11": "f", "f3": "K", "f5": "i"})
    assert st.action_to_string(make_agent("greedy", seed=0).select_action(st)) == "f3xf5"


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name", ["greedy", "alphabeta", "mcts", "mcts:rollout=random,rollout_depth=4", "search"])
def test_agents_take_the_castle_rather_than_the_bait(name, engine):
    # f9-f11 wins on the spot (castle); k1xk3 only wins a knight.
    st = pos({"f1": "F", "a6": "f", "f9": "C", "k1": "K", "k3": "k"})
    action = make_agent(name, seed=0, engine=engine, **FAST[name]).select_action(st)
    assert st.action_to_string(action) == "f9-f11"


@pytest.mark.parametrize("engine", ENGINES)
def test_alphabeta_sees_the_reply(engine):
    # Taking the infantryman on f5 puts the knight where the black knight on f9 recaptures it
    # (sliding over the f6 bridge); greedy grabs the infantryman, a two-ply search keeps the knight.
    st = pos({"f1": "F", "a6": "f", "f3": "K", "f5": "i", "f9": "k"})
    greedy = st.action_to_string(make_agent("greedy", seed=0, engine=engine).select_action(st))
    ab = make_agent("alphabeta", seed=0, depth=2, nodes=5000, engine=engine).select_action(st)
    assert greedy == "f3xf5"
    st.apply(ab)
    reply_captures = [a for a in st.legal_actions() if a[0] == 0 and st.squares[a[2]] and st.squares[a[2]] >> 3 == 0
                      and st.squares[a[2]] & 7 == 2]
    assert not reply_captures, f"alphabeta played {st.history[-1]} and left its knight en prise"


def test_the_tools_reach_terrafeuds_own_agents_through_the_registry():
    """``workbench.agents`` imports no game: TerraFeud's tuned agents are its ``GameDef.game_agents``, built by
    the one path (``make_protocol_agent``) like Pole's ``turtle``; a game without its own agents plays the generic
    ones by the same names, and a ``tuned_agents`` hook is refused at import."""
    import subprocess
    import sys

    from workbench.agents import agent_names
    from workbench.agents.generic import GenericGreedy
    from workbench.core.protocol import GameDef
    from workbench.games import get
    from workbench.games.terrafeud.agents import GAME_AGENTS, TUNED, AlphaBetaAgent

    code = ("import sys, workbench; before = set(sys.modules); import workbench.agents, workbench.agents.generic, "
            "workbench.study.ladder, workbench.study.speed; "
            "print(sorted(m for m in set(sys.modules) - before if m.startswith('workbench.games.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
    assert get("terrafeud").game_agents() == GAME_AGENTS and set(GAME_AGENTS) == set(TUNED)
    assert {"alphabeta", "generic-alphabeta", "plan", "turtle"} - set(agent_names("pole")) == {"generic-alphabeta"}
    assert {"alphabeta", "generic-alphabeta", "plan"} <= set(agent_names())
    agent = make_agent("alphabeta:depth=2,engine=python", seed=1, game="terrafeud")
    assert type(agent) is AlphaBetaAgent and agent.depth == 2 and agent.name == "alphabeta:depth=2,engine=python"
    assert type(make_agent("greedy", game="pole", engine="python")) is GenericGreedy
    with pytest.raises(TypeError, match="tuned_agents: declare it as GameDef.game_agents"):
        type("Old", (GameDef,), {"tuned_agents": lambda self: None})


def test_material_uses_the_rulebook_weights():
    w = piece_weights()
    assert (w[1], w[2], w[3], w[4], w[5], w[6]) == (1000, 4.5, 3, 3.5, 2, 1)
    st = pos({"f1": "F", "f11": "f", "f3": "K", "f5": "i"})
    assert material(st, 0) == pytest.approx(4.5 - 1)
    assert material(st, 1) == pytest.approx(1 - 4.5)


def test_agent_specs_and_errors():
    assert parse_agent_spec("mcts:iterations=200,rollout=random") == ("mcts", {"iterations": 200, "rollout": "random"})
    assert make_agent("alphabeta:depth=3", seed=1).depth == 3
    assert set(AGENTS) >= {"random", "greedy", "alphabeta", "mcts"}
    with pytest.raises(ValueError, match="unknown agent 'minimax'"):
        make_agent("minimax")
    with pytest.raises(ValueError, match="rollout"):
        make_agent("mcts:rollout=deep")
    with pytest.raises(ValueError, match="bad parameters"):
        make_agent("greedy:depth=2")


@pytest.mark.parametrize("engine", ENGINES)
def test_search_quiescence_sees_the_recapture_at_depth_one(engine):
    # The position of test_alphabeta_sees_the_reply: one ply of search plus quiescence on captures
    # sees the black knight's recapture that a plain one-ply search misses.
    st = pos({"f1": "F", "a6": "f", "f3": "K", "f5": "i", "f9": "k"})
    one_ply = make_agent("alphabeta:depth=1", seed=0, engine=engine).select_action(st)
    quiet = make_agent("search:depth=1,qdepth=4", seed=0, engine=engine).select_action(st)
    assert st.action_to_string(one_ply) == "f3xf5"
    assert st.action_to_string(quiet) != "f3xf5"


@pytest.mark.parametrize("spec, message", [
    ("alphabeta:depth=30", "depth=30 is out of range 1..20"),
    ("alphabeta:nodes=1000000000", "nodes=1000000000 is out of range"),
    ("alphabeta:depth=inf", "depth=inf must be"),
    ("alphabeta:seconds=abc", "seconds='abc' must be"),
    ("alphabeta:seconds=60", "seconds=60 is out of range 0.001..5"),
    ("alphabeta:depth=2.5", "depth=2.5 must be"),
    ("mcts:iterations=10^9", "iterations='10\\^9' must be"),
    ("mcts:iterations=1000000000", "iterations=1000000000 is out of range"),
    ("mcts:quiesce=2", "quiesce=2 must be true"),
    ("search:qdepth=-1", "qdepth=-1 is out of range 0..12"),
    ("search:depth=true", "depth=True must be"),
])
def test_agent_parameters_are_validated_and_capped(spec, message):
    with pytest.raises(ValueError, match=message):
        make_agent(spec, seed=1)


def test_every_search_stops_at_the_time_ceiling(monkeypatch):
    # A huge node budget from the browser still answers once MAX_SECONDS is spent (shrunk here).
    st = _midgame(8)
    for spec in ("alphabeta:depth=20,nodes=5000000", "search:depth=20,nodes=5000000", "mcts:iterations=1000000"):
        agent = make_agent(spec, seed=1, engine="python")
        monkeypatch.setattr(agent, "MAX_SECONDS", 0.05)
        t0 = time.perf_counter()
        assert agent.select_action(st) in st.legal_actions()
        assert time.perf_counter() - t0 < 3.0, spec
