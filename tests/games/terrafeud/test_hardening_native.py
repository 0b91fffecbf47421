"""Issue 24: the native core's public surface validates its input, stops on Ctrl-C, survives
threads and panics; conversions between the engines give playable states; agents never strand
a game the native core cannot hold."""

from __future__ import annotations

import math
import random
import signal
import subprocess
import sys
import textwrap
import threading
import time
import warnings
from pathlib import Path

import pytest

from workbench.games.terrafeud import native
from workbench.games.terrafeud.engine import IllegalActionError, make_game
from workbench.games.terrafeud.engine.pieces import ARCHER

pytestmark = pytest.mark.skipif(not native.available(), reason="the native core is not built")
ROOT = Path(__file__).resolve().parents[3]


def _parts(seed: int = 1):
    from workbench import _native

    g = make_game(None, seed=seed)
    st = g.new_initial_state()
    return _native, native.board_tables(g), native.rules_dict(g.rules), native.setup_of(st)


# ---------------------------------------------------------------------- validation
@pytest.mark.parametrize(("field", "value", "words"), [
    ("pending", [128], "hex 128"),
    ("aura_ready", [91], "hex 91"),
    ("markers", [[(3, 200)], []], "hex 200"),
    ("squares", [7] + [0] * 90, "not a piece code"),
    ("to_move", 2, "not a side"),
    ("winner", 5, "not a side"),
    ("destroyed", [[9], []], "not a piece kind"),
    ("fired", [(99, 0, 3)], "fired"),
    ("ply", 2**32 - 1, "ply"),
    ("counters", [0] * 200, "counters"),
])
def test_read_setup_refuses_out_of_range_values(field, value, words):
    nat, tb, rd, su = _parts()
    with pytest.raises(ValueError, match=words):
        nat.State(tb, rd, {**su, field: value})


@pytest.mark.parametrize(("rule", "value"), [
    ("archer_range", 0), ("archer_range", 200), ("order_size", 9), ("castling_uses", 10), ("coordinated", 0),
    ("draw_after", 0), ("castling", "swop"), ("mate_defence", "nobody"),
])
def test_read_rules_refuses_out_of_range_values(rule, value):
    nat, tb, rd, su = _parts()
    with pytest.raises(ValueError, match=rule):
        nat.State(tb, {**rd, rule: value}, su)


def test_max_plies_is_capped_and_randbelow_zero_and_nan_are_refused():
    nat, tb, rd, su = _parts()
    agent = ("random", [], [1])
    with pytest.raises(ValueError, match="max_plies"):
        nat.play_game(tb, rd, su, agent, agent, 2**32 - 1)
    with pytest.raises(ValueError, match="max_plies"):
        nat.random_playouts([tb], rd, su, [(0, [1])], nat.MAX_PLIES + 1)
    rng = nat.PyRandom([7])
    with pytest.raises(ValueError, match="at least 1"):
        rng.randbelow(0)
    assert rng.randbelow(10) < 10
    with pytest.raises(ValueError, match="finite"):
        rng.uniform(math.nan, 1.0)
    with pytest.raises(ValueError, match="finite"):
        nat.set_eval_params([math.nan] + [1.0] * 7, [])
    from workbench.games.terrafeud.agents.native_agent import install_eval_params

    install_eval_params()  # the weights stay those of the data file


def test_a_panic_is_an_exception_that_except_exception_catches():
    nat = _parts()[0]
    for released in (False, True):
        try:
            nat._panic_for_tests(released)
        except Exception as exc:  # noqa: BLE001 - the point: not a BaseException-only PanicException
            assert isinstance(exc, RuntimeError) and "deliberate panic" in str(exc)
        else:
            pytest.fail("no exception")


def test_two_threads_share_one_native_state():
    """One thread counts perft (GIL released) while another reads the same state: no
    'Already borrowed', the reader waits and both get the right answers."""
    st = native.new_state(make_game(None, seed=0), "native")
    want_legal = len(st.legal_actions())
    want = st.clone().perft(4)  # ~0.2 s: long enough for the reader to meet it
    got: dict[str, object] = {}
    errors: list[BaseException] = []

    def count() -> None:
        try:
            got["perft"] = st.perft(4)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    t = threading.Thread(target=count)
    t.start()
    reads = []
    while t.is_alive():
        reads.append(len(st.legal_actions()))
    t.join()
    assert not errors and got["perft"] == want
    assert reads and set(reads) == {want_legal}


# ---------------------------------------------------------------------- Ctrl-C
_SIGINT_CHILD = textwrap.dedent("""
    import sys, time
    from workbench.games.terrafeud import native
    from workbench.games.terrafeud.engine import make_game
    work = sys.argv[1]
    game = make_game(None, seed=0)
    st = native.new_state(game, "native")
    print("ready", flush=True)
    try:
        if work == "perft":
            st.perft(8)
        elif work == "game":
            native.play_native(game.new_initial_state(), "search:seconds=5", "search:seconds=5", (1, 2), 100000)
        elif work == "agent":
            from workbench.agents import make_agent
            make_agent("mcts:iterations=1000000,seconds=5", seed=1, engine="native").select_action(st)
    except KeyboardInterrupt:
        print("interrupted", flush=True)
        sys.exit(7)
    print("finished", flush=True)
""")


@pytest.mark.parametrize("work", ["perft", "game", "agent"])
def test_ctrl_c_stops_native_work_within_a_second(work):
    """Figures: the latency from SIGINT to the KeyboardInterrupt, printed (about 20-60 ms here)."""
    p = subprocess.Popen([sys.executable, "-c", _SIGINT_CHILD, work], stdout=subprocess.PIPE, text=True,
                         cwd=ROOT, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    try:
        assert p.stdout.readline().strip() == "ready"
        time.sleep(0.8)  # well inside the work (perft 8 takes hours, a search decision seconds)
        t0 = time.perf_counter()
        p.send_signal(signal.SIGINT)
        out, _ = p.communicate(timeout=10)
        latency = time.perf_counter() - t0
    finally:
        p.kill()
    print(f"Ctrl-C latency ({work}): {latency * 1000:.0f} ms")
    assert p.returncode == 7 and "interrupted" in out
    assert latency < 1.0


# ---------------------------------------------------------------------- conversions
def test_conversions_give_playable_states_both_ways():
    """A random game where every ply converts the state to the other engine and plays on it."""
    game = make_game(None, seed=11)
    st = game.new_initial_state()
    rng = random.Random(3)
    for i in range(120):
        if st.is_terminal():
            break
        st = native.state_of(st, "native" if i % 2 == 0 else "python")
        back = native.state_of(st, "python" if i % 2 == 0 else "native")
        assert back.to_dict() == st.to_dict()
        action = rng.choice(st.legal_actions())
        if not isinstance(st, native.NativeState):
            st.action_to_string(action)  # formatting reads the converted squares
        st.apply(action)
    py = native.state_of(st, "python")
    assert isinstance(py.squares, list) and isinstance(py.castled, list)
    assert all(isinstance(d, list) for d in py.destroyed)
    if not py.is_terminal():
        a = py.legal_actions()[0]
        py.action_to_string(a)  # formatting on a converted state works too
        py.apply(a)


def test_illegal_order_speaks_notation_on_both_engines():
    game = make_game(None, seed=1)
    py = game.new_initial_state()
    nat = native.state_of(py, "native")
    bad = (3, 32, 33, 0, 53, 54, 0)
    messages = []
    for st in (py, nat):
        with pytest.raises(IllegalActionError) as err:
            st.apply(bad)
        messages.append(str(err.value))
    assert messages[0] == messages[1]
    assert messages[0].startswith("order e3-e4 g3-g4: ")


# ---------------------------------------------------------------------- agents never strand a game
def _many_archers(n: int = 25):
    game = make_game({"hill": False, "swamp": False, "draw_after": 60}, seed=0)
    st = game.new_initial_state()
    empty = [h for h in range(91) if not st.squares[h] and game.board.walkable[h]]
    have = [sum(1 for c in st.squares if c == ARCHER | (s << 3)) for s in (0, 1)]
    for h in empty[: n - have[0]]:
        st.squares[h] = ARCHER
    for h in empty[len(empty) - (n - have[1]):]:
        st.squares[h] = ARCHER | 8
    return st


def test_a_position_beyond_the_native_core_is_played_to_the_end_by_the_python_twins():
    from workbench.agents import make_agent
    from workbench.games.terrafeud.agents.native_agent import NativeFallbackWarning

    st = _many_archers()
    assert not native.supports(st)
    agents = [make_agent("greedy", seed=1, engine="auto"), make_agent("alphabeta:depth=1", seed=2, engine="auto")]
    assert all(a.engine == "native" for a in agents)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        while not st.is_terminal():
            st.apply(agents[st.to_move].select_action(st))
    assert st.victory is not None
    print(f"25 archers a side: played to the end by the Python twins, {st.ply} plies, "
          f"{st.winner_name() or 'nobody'} won by {st.victory}")
    notes = [str(w.message) for w in caught if issubclass(w.category, NativeFallbackWarning)]
    assert len(notes) <= 2 and all("Python twin" in n for n in notes)  # once per agent, at most
    assert all(a.notice and "24 archers" in a.notice for a in agents)


def test_many_castlings_are_played_by_the_python_twin():
    from workbench.agents import make_agent

    st = make_game(None, seed=2).new_initial_state()
    st.castled = [300, 0]  # a record listing 300 castlings of White
    assert not native.supports(st)
    from workbench.games.terrafeud.agents.native_agent import NativeFallbackWarning

    agent = make_agent("greedy", seed=1)
    with pytest.warns(NativeFallbackWarning, match="255 castlings a side"):  # said once, as a warning
        assert st.apply(agent.select_action(st)) is None and "castlings" in agent.notice


def test_simulate_plays_such_a_start_and_refuses_a_pinned_native_agent(tmp_path):
    import yaml

    from workbench.games.terrafeud.engine.geometry import hex_name
    from workbench.games.terrafeud.engine.pieces import letter
    from workbench.simulate import SimulationError, simulate

    st = _many_archers()
    doc = {"id": "archers", "title": "25 archers a side",
           "rules": {"hill": False, "swamp": False, "draw_after": 60},
           "position": {"to_move": "white",
                        "pieces": {hex_name(h): letter(c) for h, c in enumerate(st.squares) if c}}}
    path = tmp_path / "archers.yaml"
    path.write_text(yaml.safe_dump(doc))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        games = simulate({"start": [str(path)]}, "greedy", "greedy", 2, workers=0, progress=False, engine="native")
    assert (games.victory != "error").all() and (games.victory != "unfinished").all()
    with pytest.raises(SimulationError, match="pinned to engine=native"):
        simulate({"start": [str(path)]}, "greedy:engine=native", "greedy", 2, workers=0, progress=False)
