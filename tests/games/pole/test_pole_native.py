"""Pole's native core against its Python engine (the specification): the same game at every ply.

A smaller sample of ``python -m workbench.games.pole.nativediff`` (which sweeps 1,000+ games), the
agents' choices against their Python twins, simulate's rows and events on both engines, replays of
native games in the Python engine, the scenario files on the native engine, and the playouts' streams.
"""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from workbench.agents.generic import make_protocol_agent
from workbench.core.protocol import CHANCE, IllegalAction
from workbench.games import get
from workbench.games.pole import native
from workbench.games.pole.nativediff import SINGLES, compare, sweep_game, variant
from workbench.simulate.protocol_play import play_protocol_game, protocol_specs

pytestmark = pytest.mark.skipif(not native.available(), reason="the native core is not built (make native)")

G = get("pole")
ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize("index", range(0, 2 * len(SINGLES), 3))
def test_every_ply_of_a_random_game_is_equal_on_both_engines(index: int) -> None:
    values = {**variant(index, random.Random(index)), "max_turns": 40}
    plies = sweep_game(G.spec.make(values), 17 + index)
    assert plies > 10


@pytest.mark.parametrize("seed", range(4))
def test_mixtures_of_toggles_are_equal_too(seed: int) -> None:
    values = {**variant(10_000 + seed, random.Random(seed)), "max_turns": 30}
    assert sweep_game(G.spec.make(values), seed) > 0


@pytest.mark.parametrize("spec", ["random", "greedy", "greedy:epsilon=0.4", "alphabeta:depth=1", "alphabeta:depth=2,nodes=400,seconds=5",
                                  "mcts:iterations=25,rollout=5", "mcts:iterations=30,rollout=0,odds=1", "mcts:iterations=40,rollout=0,odds=1,prior=1,c=0.3",
                                  "plan:beam=3,reply=1"])
def test_native_agents_pick_what_their_python_twins_pick(spec: str) -> None:
    rules = G.spec.make({"start_coins": 12, "income": 3, "max_turns": 8})
    st = G.new_initial_state(rules, 3)
    py = [make_protocol_agent(spec, G, rules, seed=40 + i) for i in range(2)]
    nat = [native.NativeAgent(spec, G, rules, seed=40 + i) for i in range(2)]
    dice = random.Random(5)
    decisions = 0
    while not st.is_terminal():
        if st.current_player() == CHANCE:
            st.apply_action(dice.randrange(36))
            continue
        p = st.current_player()
        a = py[p].select_action(st)
        assert nat[p].select_action(native.NativePoleState.from_python(st)) == a, f"ply {st.move_number()}"
        if spec.startswith("alphabeta"):
            assert nat[p]._agent.stats()[1] == py[p].nodes_searched, "the same tree: the same nodes"
        st.apply_action(a)
        decisions += 1
    assert decisions >= 16


@pytest.mark.parametrize("spec", ["alphabeta:nodes=300", "alphabeta:nodes=120", "alphabeta:depth=2"])
def test_native_alphabeta_picks_what_python_picks_at_every_ply_of_seeded_games(spec: str) -> None:
    """A small node budget runs out inside attacks' chance nodes: both engines must count the same nodes there."""
    decisions = attacks = 0
    for game in range(3):
        rules = G.spec.make({"max_turns": 14, "start_coins": 14, "income": 3})
        st = G.new_initial_state(rules, 60 + game)
        py = [make_protocol_agent(spec, G, rules, seed=70 + 2 * game + i) for i in range(2)]
        nat = [native.NativeAgent(spec, G, rules, seed=70 + 2 * game + i) for i in range(2)]
        dice = random.Random(game)
        while not st.is_terminal():
            if st.current_player() == CHANCE:
                st.apply_action(dice.randrange(36))
                attacks += 1
                continue
            p = st.current_player()
            a = py[p].select_action(st)
            where = f"game {game}, ply {st.move_number()}"
            assert nat[p].select_action(native.NativePoleState.from_python(st)) == a, where
            assert nat[p]._agent.stats()[1] == py[p].nodes_searched, f"{where}: the same tree, the same nodes"
            st.apply_action(a)
            decisions += 1
    assert decisions >= 40 and attacks >= 3


def _rows(agents: tuple[str, ...], values: dict) -> list:
    cells = [G.spec.make(values)]
    return protocol_specs("pole", cells, agents, 2, 11, 100_000, True, "native")


@pytest.mark.parametrize("agents", [("random",), ("greedy",), ("alphabeta:depth=1", "random")])
def test_simulate_rows_and_events_are_the_python_paths(agents: tuple[str, ...]) -> None:
    for spec in _rows(agents, {"max_turns": 25, "start_coins": 10, "attack_mode": "all"}):
        n = play_protocol_game(spec)
        p = play_protocol_game(replace(spec, engine="python"))
        assert (n.row["engine"], p.row["engine"]) == ("native", "python")
        drop = ("seconds", "engine")
        assert {k: v for k, v in n.row.items() if k not in drop} == {k: v for k, v in p.row.items() if k not in drop}
        assert n.events == p.events and n.events


@pytest.mark.parametrize("agent", ["random", "greedy", "alphabeta:depth=1", "mcts:iterations=20,rollout=4",
                                   "search:nodes=300,depth=2", "plan:beam=2,reply=1"])
def test_every_native_agents_game_replays_legally_in_python(agent: str) -> None:
    (spec, *_) = _rows((agent,), {"max_turns": 20, "income": 2})
    result = play_protocol_game(spec)
    assert result.row["engine"] == "native" and result.row["error"] is None
    st = G.new_initial_state(G.spec.make(spec.rules), spec.seed)
    for ev in result.events:
        st.apply_action(st.string_to_action(ev["action"]))  # raises IllegalAction if the engines disagree
    assert st.is_terminal() and st.outcome() == result.row["outcome"]
    assert st.winner() == (None if result.row["winner"] == "none" else ("red", "black").index(result.row["winner"]))
    assert all(st.counters()[r][i] == result.row[f"rule_{r}_{s}"] for r in st.counters() for i, s in
               enumerate(("red", "black")))


def test_the_scenario_files_pass_on_the_native_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    from workbench.scenarios.loader import load_scenarios

    made = []
    real = native.NativePoleState.from_python

    def spy(state):  # noqa: ANN001, ANN202 - count that the checks ran on native states
        made.append(1)
        return real(state)

    monkeypatch.setattr(native.NativePoleState, "from_python", staticmethod(spy))
    n = 0
    for _path, item in load_scenarios([str(ROOT / "scenarios" / "pole")]):
        results = item.run(None, engine="native")
        assert all(r.ok for r in results), [r.message for r in results if not r.ok]
        n += 1
    assert n >= 50 and len(made) == n


def test_native_playouts_play_the_python_benchmarks_games() -> None:
    from workbench.bench import native_protocol_playouts, protocol_playouts

    assert native_protocol_playouts("pole", 6, 3)["actions"] == protocol_playouts("pole", 6, 3)["actions"]


def test_the_native_state_has_the_protocols_api() -> None:
    st = G.new_initial_state(None, 0, engine="native")
    assert isinstance(st, native.NativePoleState)
    assert st.legal_actions() == G.new_initial_state().legal_actions()
    a = st.string_to_action("B@d2")
    st.apply_action(a)
    assert st.action_to_string(st.legal_actions()[0]) == "pass" and st.fired() == [("buy_barracks", 0, 31)]
    with pytest.raises(IllegalAction, match="occupied|not"):
        st.apply_action(st.string_to_action("d2-d3"))
    c = st.clone()
    st.undo_action()
    assert c.to_dict() != st.to_dict() and st.to_dict()["history"] == []
    assert G.state_from_dict(c.to_dict()).to_dict() == c.to_dict()


def test_the_core_refuses_bad_fields() -> None:
    st = G.new_initial_state()
    fields = native.fields_of(st)
    rules = native.rules_dict(st.cfg.rules)
    with pytest.raises(ValueError, match="board"):
        native._core.State(rules, {**fields, "board": [99] * 100})
    with pytest.raises(ValueError, match="pending"):
        native._core.State(rules, {**fields, "pending": 10702 + 41 * 100 + 48, "phase": 0})
    with pytest.raises(ValueError, match="catapult_dead"):
        native._core.State({**rules, "catapult_dead": 4}, fields)
    with pytest.raises(ValueError):
        native._core.State(rules, fields).apply(99_999)


def test_engines_agree_after_a_played_game() -> None:
    rules = G.spec.make({"max_turns": 30, "start_coins": 20, "placement_fortress": "any"})
    py = G.new_initial_state(rules, 1)
    nat = native.NativePoleState.from_python(py)
    rng = random.Random(9)
    while not py.is_terminal():
        acts = py.legal_actions() or [o for o, _ in py.chance_outcomes()]
        a = rng.choice(acts)
        py.apply_action(a)
        nat.apply_action(a)
    compare(py, nat, "end")


def test_simulate_takes_engine_for_pole_and_refuses_native_without_a_core() -> None:
    from workbench.simulate import SimulationError, simulate
    from workbench.simulate.protocol_play import resolve_protocol_engine

    kw = {"game": "pole", "agents": ("greedy",), "workers": 0, "progress": False, "max_plies": 5000}
    grid = {"max_turns": [15], "income": [1, 3]}
    nat = simulate(grid, "random", "random", 2, seed=4, engine="native", **kw)
    py = simulate(grid, "random", "random", 2, seed=4, engine="python", **kw)
    assert set(nat["engine"]) == {"native"} and set(py["engine"]) == {"python"}
    same = [c for c in py.columns if c not in ("seconds", "engine")]
    assert nat[same].equals(py[same])
    assert resolve_protocol_engine("pole", "auto") == "native"
    with pytest.raises(ValueError, match="no native core"):
        resolve_protocol_engine("openspiel:tic_tac_toe", "native")
    assert resolve_protocol_engine("openspiel:tic_tac_toe", "auto") == "python"
    with pytest.raises(SimulationError, match="engine"):
        simulate(grid, "random", "random", 1, engine="quantum", **kw)


def test_a_seat_pinned_to_native_plays_its_twin_against_a_python_seat() -> None:
    from workbench.simulate.protocol_play import seat_agent

    rules = G.spec.make({"max_turns": 30})
    assert seat_agent(G, "greedy:engine=native", rules, 1).engine == "native"
    assert seat_agent(G, "greedy:engine=python", rules, 1).engine == "python"
    assert seat_agent(get("openspiel:tic_tac_toe"), "greedy:engine=native", None, 1).engine == "python"  # no twin
    mixed = protocol_specs("pole", [rules], ("greedy:engine=native", "greedy:engine=python"),
                           1, 4, 100_000, False, "native")[0]
    pure = replace(mixed, agents=("greedy:engine=python", "greedy:engine=python"))
    a, b = play_protocol_game(mixed), play_protocol_game(pure)
    assert a.row["engine"] == "python" and a.row["error"] is None  # the Python loop, one seat's agent in Rust
    assert (a.row["plies"], a.row["winner"]) == (b.row["plies"], b.row["winner"])  # the twin chose the same
