"""The native Rust core is the Python engine, faster: same actions in the same order, same states,
counters, results and random streams. Skipped (with the reason) when the core is not built."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from workbench.agents import make_agent
from workbench.games.terrafeud import native
from workbench.games.terrafeud.engine import IllegalActionError, make_game, new_game, state_to_dict
from workbench.games.terrafeud.perft import expected_table, perft
from workbench.simulate import simulate
from workbench.simulate.core import agent_seed

needs_native = pytest.mark.skipif(not native.available(), reason="native core not built (no cargo): run make setup")
ROOT = Path(__file__).resolve().parents[3]

# Every toggle of section 7 and every rule parameter at a non-default value (issue 11).
VARIANTS = [
    "", "season=winter", "castling=sacrifice", "archer_melee=true", "mate_defence=any",
    "pike_cavalry_mutual=true", "terrain=fixed", "draw_after=12", "hill=false,swamp=false",
    "archer_range=3", "hill_bonus=2", "aura_radius=3", "aura_step=3", "aura_memory=false", "coordinated=1",
    "coordinated=3", "order_size=3", "order_size=1", "order_size=0", "order_radius=3", "castling_uses=0",
    "castling_uses=2", "promotion=false", "knight_bridge_stop=false", "bridges=b4/k4,fords=d5/f6/h5",
    "season=winter,castling=sacrifice,archer_range=4,aura_step=1",
]


def test_resolve_engine_names_and_errors(monkeypatch):
    assert native.resolve_engine("python") == "python"
    assert native.resolve_engine("auto") == ("native" if native.available() else "python")
    with pytest.raises(ValueError, match="unknown engine"):
        native.resolve_engine("fast")
    monkeypatch.setattr(native, "_native", None)
    assert native.resolve_engine("auto") == "python"
    with pytest.raises(native.NativeUnavailableError, match="make setup"):
        native.resolve_engine("native")


def test_seed_key_is_cpython_init_by_array_key():
    assert native.seed_key(0) == [0]
    assert native.seed_key(-5) == [5]
    assert native.seed_key(2**40 + 3) == [3, 256]


@needs_native
@pytest.mark.parametrize("seed", [0, 1, 42, -7, 2**32, 2**63 - 25, 123456789012345678901234567890])
def test_random_stream_is_cpythons(seed):
    ours = native._native.PyRandom(native.seed_key(seed))
    ref = random.Random(seed)
    assert [ours.random() for _ in range(5)] == [ref.random() for _ in range(5)]
    assert [ours.getrandbits(k) for k in (1, 7, 31, 32, 33, 63, 64)] == [ref.getrandbits(k) for k in (1, 7, 31, 32, 33, 63, 64)]
    assert [ours.randbelow(n) for n in (1, 2, 3, 5, 53, 1000, 2**40 + 1)] == [ref._randbelow(n) for n in (1, 2, 3, 5, 53, 1000, 2**40 + 1)]
    items = list(range(37))
    expect = items[:]
    ref.shuffle(expect)
    assert ours.shuffle(items) == expect
    assert ours.uniform(-1.5, 2.5) == ref.uniform(-1.5, 2.5)


@needs_native
@pytest.mark.parametrize("row", expected_table(), ids=lambda r: r["rules"])
def test_perft_equal_in_both_engines_and_depth_4_stored(row):
    py = new_game(row["rules"], seed=row["seed"])
    ns = native.NativeState.from_state(py)
    assert [ns.perft(d) for d in (1, 2, 3)] == row["counts"] == [perft(py, d) for d in (1, 2)] + [row["counts"][2]]
    assert ns.perft(4) == row["depth4"]


def _same_game(rules: str, seed: int, max_plies: int) -> int:
    """Random game played in both engines: legal lists, state_to_dict (counters included) and fired
    compared at every ply; returns the plies played."""
    py = make_game(rules, seed).new_initial_state()
    ns = native.NativeState.from_state(py)
    rng = random.Random(seed)
    while not py.is_terminal() and py.ply < max_plies:
        acts = py.legal_actions()
        assert ns.legal_actions() == acts, f"{rules} seed {seed} ply {py.ply}: legal actions differ"
        a = rng.choice(acts)
        py.apply(a)
        ns.apply(a)
        assert ns.to_dict() == state_to_dict(py), f"{rules} seed {seed} ply {py.ply} after {a}"
        assert ns.fired == tuple(py.fired)
    assert ns.is_terminal() == py.is_terminal() and ns.returns() == py.returns()
    return py.ply


@needs_native
@pytest.mark.parametrize("rules", VARIANTS)
def test_random_games_identical_under_every_toggle_and_parameter(rules):
    plies = sum(_same_game(rules, seed, 150) for seed in (3, 8))
    assert plies > 20


@needs_native
def test_every_scenario_file_passes_with_check_engine_native():
    """``check --engine native``: TerraFeud's checks (legal, illegal, destinations, pieces, markers, results)
    judged on the Rust core give the Python engine's verdict and message for every shipped file."""
    from workbench.games.terrafeud.scenarios import Scenario
    from workbench.scenarios import load_scenario

    judged = 0
    for path in sorted((ROOT / "scenarios").rglob("*.yaml")):
        sc = load_scenario(path)
        if not isinstance(sc, Scenario):
            continue
        py, nat = sc.run(), sc.run(engine="native")
        assert [(r.status, r.message) for r in nat] == [(r.status, r.message) for r in py], path.name
        judged += len(nat)
    assert judged >= 100


@needs_native
def test_a_text_python_reads_as_legal_but_the_core_does_not_list_is_an_error(monkeypatch):
    ns = native.NativeState.from_state(new_game())
    first = ns.legal_actions()[0]
    from workbench.games.terrafeud.engine.notation import format_action

    text = format_action(ns.to_python(), first)
    assert ns.parse_action(text) == tuple(first)
    monkeypatch.setattr(native.NativeState, "legal_actions", lambda self: [])
    with pytest.raises(IllegalActionError, match="the engines disagree"):
        ns.parse_action(text)


@needs_native
def test_scenario_positions_identical_including_the_start_mate_test():
    files = sorted((ROOT / "scenarios").rglob("*.yaml"))
    assert files
    from workbench.games.terrafeud.scenarios import Scenario
    from workbench.scenarios import load_scenario

    checked = 0
    for path in files:
        sc = load_scenario(path)
        if not isinstance(sc, Scenario):
            continue  # another game's scenario (its own native core has its own tests)
        st = sc.initial_state()
        if st.victory not in (None, "checkmate"):
            continue
        setup = native.setup_of(st, live=False)
        setup.update(victory=None, winner=None)  # the native core runs the start-of-turn mate test itself
        ns = native.NativeState(st.game, native._native.State(native.board_tables(st.game),
                                                              native.rules_dict(st.rules), setup))
        assert (ns.victory, ns.winner) == (st.victory, st.winner), path.name
        assert ns.to_dict() == state_to_dict(st), path.name
        if st.victory is None:
            assert ns.legal_actions() == st.legal_actions(), path.name
            rng = random.Random(path.name)
            for _ in range(30):
                if st.is_terminal():
                    break
                a = rng.choice(st.legal_actions())
                st.apply(a)
                ns.apply(a)
                assert ns.to_dict() == state_to_dict(st), f"{path.name} after {a}"
                assert ns.legal_actions() == st.legal_actions()
        checked += 1
    assert checked >= 40


@needs_native
def test_native_state_api_undo_clone_and_illegal_actions():
    py = new_game("terrain=fixed", seed=2)
    ns = native.NativeState.from_state(py)
    start = ns.to_dict()
    a = ns.legal_actions()[5]
    other = ns.clone()
    ns.apply(a)
    assert ns.ply == 1 and other.ply == 0 and ns.history == [a]
    assert ns.to_python().legal_actions() == ns.legal_actions()
    py.apply(a)
    assert native.NativeState.from_state(py).fired == tuple(py.fired), "a converted state keeps what fired"
    py.undo()
    assert ns.undo() == a and ns.to_dict() == start
    with pytest.raises(IndexError):
        ns.undo()
    with pytest.raises(IllegalActionError, match="a1xl6"):
        ns.apply((0, 0, 90, 0))
    with pytest.raises(IllegalActionError):
        ns.apply((9, 1, 2))
    assert ns.to_dict() == start


@needs_native
@pytest.mark.parametrize("rules", ["", "season=winter,castling=sacrifice", "order_size=3,aura_step=3"])
def test_native_random_agent_plays_the_python_agents_game(rules):
    seed = 77
    game = make_game(rules, seed)
    start = game.new_initial_state()
    seeds = (agent_seed(seed, 0), agent_seed(seed, 1))
    trace = native.play_native(start, "random", "random", seeds, 200)
    py = game.new_initial_state()
    agents = [make_agent("random", seed=seeds[0]), make_agent("random", seed=seeds[1])]
    while not py.is_terminal() and py.ply < 200:
        py.apply(agents[py.to_move].select_action(py))
    assert trace["actions"] == py.history
    assert (trace["winner"], trace["victory"], trace["plies"]) == (py.winner, py.victory, py.ply)
    assert trace["counters"][: len(py.counters)] == py.counters
    assert len(trace["boards"]) == 91 * (py.ply + 1)


@needs_native
def test_simulate_native_rows_equal_python_rows_in_process_and_pool():
    kw = {"white": "random", "black": "random", "games": 3, "seed": 5, "max_plies": 120, "progress": False, "events": True}
    grid = {"season": ["summer", "winter"], "archer_range": [2, 3]}
    gp, ep = simulate(grid, engine="python", workers=0, **kw)
    gn, en = simulate(grid, engine="native", workers=0, **kw)
    gpool, epool = simulate(grid, engine="native", workers=2, **kw)
    assert set(gp.engine) == {"python"} and set(gn.engine) == {"native"} == set(gpool.engine)
    drop = ["seconds", "engine"]
    pd.testing.assert_frame_equal(gp.drop(columns=drop), gn.drop(columns=drop))
    pd.testing.assert_frame_equal(gn.drop(columns="seconds"), gpool.drop(columns="seconds"))
    pd.testing.assert_frame_equal(ep, en)
    pd.testing.assert_frame_equal(en, epool)


@needs_native
@pytest.mark.cluster
def test_simulate_native_same_games_on_dask():
    kw = {"white": "random", "black": "random", "games": 2, "seed": 9, "max_plies": 60, "progress": False}
    local = simulate(None, engine="native", workers=0, **kw)
    dask = simulate(None, engine="native", workers=2, scheduler="local-cluster", **kw)
    pd.testing.assert_frame_equal(local.drop(columns="seconds"), dask.drop(columns="seconds"))


def test_simulate_falls_back_to_python_for_agents_without_a_native_twin(monkeypatch):
    from workbench.agents import AGENTS, register_agent
    from workbench.games.terrafeud.agents.random_agent import RandomAgent

    monkeypatch.setattr("workbench.agents.AGENTS", dict(AGENTS))
    register_agent("pyonly", RandomAgent)
    games = simulate(None, "random", "pyonly", 1, seed=1, max_plies=10, workers=0, progress=False)
    assert list(games.engine) == ["python"]
    class MyRandom(RandomAgent):
        pass

    register_agent("random", MyRandom)  # a built-in name replaced by a registered agent plays in Python
    games = simulate(None, "random", "random", 1, seed=1, max_plies=10, workers=0, progress=False)
    assert list(games.engine) == ["python"]


@needs_native
def test_positions_beyond_the_native_capacity_are_refused_clearly():
    from workbench.games.terrafeud.engine.pieces import ARCHER

    st = new_game("terrain=fixed", seed=1)
    assert native.supports(st)
    st.destroyed[0].extend([ARCHER] * native._native.MAX_MARKERS)
    assert not native.supports(st)
    with pytest.raises(ValueError, match="archers a side"):
        native.NativeState.from_state(st)
    assert native.PORTED_RULES >= set(st.rules.names()), "every rule of RulesConfig is ported"


@needs_native
def test_library_engine_argument_gives_the_same_counts():
    from workbench.games.terrafeud.bench import playouts
    from workbench.games.terrafeud.perft import count

    assert count("terrain=fixed", depth=3, engine="native") == count("terrain=fixed", depth=3, engine="python")
    py, nat = playouts(4, 9, 60, engine="python"), playouts(4, 9, 60, engine="native")
    assert (py["engine"], nat["engine"]) == ("python", "native") and py["plies"] == nat["plies"]


@needs_native
def test_bench_and_perft_commands_with_engine_native():
    out = subprocess.run([sys.executable, "-m", "workbench", "bench", "--engine", "native", "--games", "10",
                          "--seed", "3", "--json"], capture_output=True, text=True, check=True, cwd=ROOT)
    figures = json.loads(out.stdout)
    assert figures["engine"] == "native" and figures["same_games_as_python"] is True
    assert figures["plies_per_sec"] > 0 and figures["ratio_vs_chess"] > 0
    out = subprocess.run([sys.executable, "-m", "workbench", "perft", "--engine", "native", "--check"],
                         capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0 and out.stdout.count("PASS") == len(expected_table())


@needs_native
def test_nativediff_sweep_compares_and_finds_no_difference(capsys):
    from workbench.core.nativediff import sweep
    from workbench.games.terrafeud.nativediff import VARIANTS, play_one
    from workbench.nativediff import main

    s = sweep(play_one, 3, seed=4, max_plies=40)
    assert s["games"] == 3 and s["differences"] == 0 and s["plies"] > 0
    assert s["legal_actions"] >= s["plies"] and set(s["tags"]["rules"]) == {"default"}
    assert play_one(4 * 1_000_003 + 4, 30).tags["rules"] == VARIANTS[4]  # the rotation's fifth variant
    assert main(["--games", "2", "--max-plies", "10"]) == 0  # the registry's default game
    assert "0 differences" in capsys.readouterr().out


@needs_native
def test_native_work_releases_the_gil():
    """A native perft in a thread leaves this thread free to run Python meanwhile (no wall-clock threshold:
    with the GIL held, this loop could not count at all while Rust works)."""
    import threading

    st = native.NativeState.from_state(new_game("season=winter,hill=false,swamp=false", seed=0))
    started, result = threading.Event(), {}

    def work() -> None:
        started.set()
        result["n"] = st.perft(4)

    worker = threading.Thread(target=work)
    worker.start()
    started.wait()
    spins = 0
    while worker.is_alive():
        spins += 1
        if spins == 200_000:
            break  # Python ran 200,000 loop turns while Rust was still counting: the GIL was free
    alive = worker.is_alive()
    worker.join()
    assert result["n"] == 12_003_290
    assert alive and spins == 200_000, f"only {spins} Python loop turns ran while native perft worked"
