"""The native core of The Cursed Lands against the Python engine (the specification).

A small equality sweep over sampled rules (the benchmark-scale one is ``nativediff --games 1000``), the
scenario files' positions, native whole games against the Python path (same rows and events), native
agents' picks against their Python twins, and native agents' games replayed in the Python engine.
"""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from workbench.games.cursed_lands import GAME
from workbench.games.cursed_lands.native import NativeCursedState, available, core, fields_of, rules_dict
from workbench.games.cursed_lands.nativediff import compare, sweep

pytestmark = pytest.mark.skipif(not available(), reason="native core not built (make native)")

FOLDER = Path(__file__).resolve().parents[3] / "scenarios" / "cursed-lands"


def test_sweep_sample_is_equal_at_every_ply() -> None:
    out = sweep(8, seed=3, max_plies=120, quiet=True)
    assert out["games"] == 8 and out["plies"] > 200


def test_scenario_positions_play_the_same_on_both_engines() -> None:
    from workbench.scenarios.loader import load_scenario

    files = sorted(FOLDER.glob("*.yaml"))
    assert len(files) > 50
    rng = random.Random(5)
    for path in files:
        try:
            st = load_scenario(path).initial_state()
        except Exception:  # noqa: BLE001 - files that must be rejected are tested elsewhere
            continue
        nat = NativeCursedState.from_python(st)
        compare(st, nat, rng, path.name)
        for ply in range(5):
            if st.is_terminal():
                break
            a = rng.choice(st.legal_actions())
            st.apply_action(a)
            nat.apply_action(a)
            compare(st, nat, rng, f"{path.name} ply {ply + 1}")


def _same_game_on_both_engines(spec: Any) -> Any:
    """Play ``spec`` on the Python path and the native one: the same games row (but time and engine) and
    the same events rows. Returns the Python result."""
    from workbench.simulate.protocol_play import play_protocol_game

    py = play_protocol_game(spec)
    nat = play_protocol_game(replace(spec, engine="native"))
    assert py.row["engine"] == "python" and nat.row["engine"] == "native"
    drop = ("seconds", "engine")
    assert {k: v for k, v in py.row.items() if k not in drop} == {k: v for k, v in nat.row.items() if k not in drop}
    assert py.events == nat.events and py.events
    return py


@pytest.mark.parametrize("agent", ["random", "greedy", "alphabeta:depth=2,nodes=1500,seconds=5", "mcts:iterations=8,rollout=3",
                                   "plan:beam=2,reply=1"])
def test_native_games_give_the_python_rows_and_events(agent: str) -> None:
    from workbench.simulate.protocol_play import expand_protocol_grid, protocol_specs

    cells = expand_protocol_grid("cursed-lands", {"turn_limit": [3], "factions": ["orcs/dwarves"],
                                                  "untiled": ["plain"]})
    spec = protocol_specs("cursed-lands", cells, agent, 1, 2, 200, True, "python")[0]
    _same_game_on_both_engines(spec)


def test_random_and_greedy_pick_what_python_picks_under_every_toggle() -> None:
    from workbench.agents.generic import make_protocol_agent

    rng = random.Random(8)
    from workbench.games.cursed_lands.nativediff import sample_rules

    mod = core()
    for g in range(6):
        rules = sample_rules(rng).replace(setup_phase=False)  # Python greedy over 483,840 camps is minutes
        st = GAME.new_initial_state(rules, g)
        for name, params in (("random", None), ("greedy", None), ("greedy", {"epsilon": 0.5})):
            py_agent = make_protocol_agent(name, GAME, rules, seed=100 + g, **(params or {}))
            nat_agent = mod.Agent(name, params, 100 + g)
            a, b = st.clone(), NativeCursedState.from_python(st)
            for _ in range(15):
                if a.is_terminal():
                    break
                x = py_agent.select_action(a)
                y = nat_agent.select_action(b.native)
                assert x == y, f"{name} game {g}: python {a.action_to_string(x)} native {a.action_to_string(y)}"
                a.apply_action(x)
                b.apply_action(y)


def test_plan_picks_what_python_picks() -> None:
    """The generic ``plan`` (``native/src/core/generic/plan.rs`` through the ``Game`` trait) against its Python twin,
    decision by decision, with the evaluation of both engines; the nodes it spent are equal too."""
    from workbench.agents.generic import make_protocol_agent
    from workbench.games.cursed_lands.nativediff import sample_rules

    rng = random.Random(12)
    mod = core()
    specs = [("plan:beam=3", {"beam": 3}), ("plan:beam=2,reply=1,steps=2", {"beam": 2, "reply": 1, "steps": 2}),
             ("plan:beam=2,reply=2", {"beam": 2, "reply": 2}),  # reply=2: the opponent's greedy turn
             ("plan:beam=2,reply=3", {"beam": 2, "reply": 3})]  # reply=3: and the mover's next turn
    for g in range(6):
        rules = GAME.rules("factions=orcs/elves") if g == 0 else sample_rules(rng).replace(setup_phase=False)
        st = GAME.new_initial_state(rules, 20 + g)
        spec, params = specs[g % 4]
        py_agent = make_protocol_agent(spec, GAME, rules, seed=300 + g)
        nat_agent = mod.Agent("plan", params, 300 + g)
        a, b = st.clone(), NativeCursedState.from_python(st)
        for _ in range(12):  # four turns of three actions
            if a.is_terminal():
                break
            x = py_agent.select_action(a)
            y = nat_agent.select_action(b.native)
            assert x == y, f"{spec} game {g}: python {a.action_to_string(x)} native {a.action_to_string(y)}"
            assert py_agent.nodes_searched == nat_agent.stats()[1], f"{spec} game {g}: nodes"
            a.apply_action(x)
            b.apply_action(y)


@pytest.mark.parametrize("agent", [("mcts", {"iterations": 20, "rollout": 5}), ("search", {"depth": 2, "nodes": 1500}),
                                   ("alphabeta", {"depth": 1}), ("plan", {"beam": 4, "reply": 1})])
def test_native_agents_games_replay_legally_in_python(agent: tuple[str, dict]) -> None:
    rules = GAME.rules("turn_limit=8,factions=elves/humans")
    st = GAME.new_initial_state(rules, 9)
    name, params = agent
    out = core().play_game(rules_dict(rules, st.factions), fields_of(st), [(name, params, 1), (name, params, 2)], 500)
    for a in out["actions"]:
        st.apply_action(a)  # raises IllegalAction if the native agent played anything illegal
    final = out["final"]
    assert st.is_terminal() and (st.winner() if st.winner() is not None else -1) == final["winner"]
    assert st.counts == final["counts"] and st.castle_hp == final["castle_hp"]


def test_view_hides_the_same_tiles_as_python() -> None:
    rules = GAME.rules("deck_top_visible=false")
    st = GAME.new_initial_state(rules, 4)
    nat = NativeCursedState.from_python(st)
    for seed in (0, 1, 2**31 - 1):
        assert st.view(0, seed).decks == nat.view(0, seed).python().decks


def test_simulate_engine_column_and_python_fallback() -> None:
    from workbench.simulate import simulate

    nat = simulate({"turn_limit": [3]}, "random", "random", games=2, seed=1, workers=0, progress=False,
                   game="cursed-lands", engine="native")
    py = simulate({"turn_limit": [3]}, "random", "random", games=2, seed=1, workers=0, progress=False,
                  game="cursed-lands", engine="python")
    assert list(nat["engine"]) == ["native"] * 2 and list(py["engine"]) == ["python"] * 2
    assert list(nat["plies"]) == list(py["plies"]) and list(nat["victory"]) == list(py["victory"])
    hidden = simulate({"turn_limit": [3], "deck_top_visible": [False]}, "greedy", "greedy", games=1, seed=1,
                      workers=0, progress=False, game="cursed-lands", engine="native")
    assert list(hidden["engine"]) == ["native"]  # a hidden top plays natively (an illegal pick: an error row)
    from workbench.games.cursed_lands.native_play import playable
    from workbench.simulate.protocol_play import expand_protocol_grid, protocol_specs

    camps = expand_protocol_grid("cursed-lands", {"setup_phase": [True], "starting_units": [1, 2]})
    one, two = (protocol_specs("cursed-lands", [c], ("greedy", "random"), 1, 1, 50, False, "native")[0] for c in camps)
    assert playable(one, camps[0]) and not playable(two, camps[1])  # a search over millions of camps stays in Python
    assert playable(replace(two, agents=("random", "random")), camps[1])


@pytest.mark.parametrize("agent", ["greedy", "alphabeta:depth=1"])
def test_hidden_deck_top_games_give_the_python_rows_and_events(agent: str) -> None:
    """Under ``deck_top_visible=false`` an agent picks on a view whose top is consistent with the list it is
    offered (C5, C46): game 11 of this grid, which once picked a mountain where the real top may not go and
    ended as an error row, now finishes; both engines give the same rows and events."""
    from workbench.simulate.protocol_play import expand_protocol_grid, protocol_specs

    cells = expand_protocol_grid("cursed-lands", {"turn_limit": [6], "deck_top_visible": [False],
                                                  "factions": ["orcs/dwarves"]})
    specs = protocol_specs("cursed-lands", cells, agent, 20, 5, 400, True, "python")
    for spec in (specs[3], specs[11], specs[16]):
        py = _same_game_on_both_engines(spec)
        assert py.row["outcome"] != "error", py.row["error"]


def test_the_core_deals_the_classic_start_as_python_does() -> None:
    from workbench.games.cursed_lands.nativediff import sample_rules

    rng = random.Random(2)
    for g in range(20):
        rules = sample_rules(rng)
        seed = rng.getrandbits(64) if g % 2 else -g
        st = GAME.new_initial_state(rules, seed)
        assert _plain(core().classic_fields(rules_dict(rules), seed)) == _plain(fields_of(st))


def _plain(value: object) -> object:
    """Lists for bytes and tuples (the bindings hand u8 arrays over as bytes)."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (bytes, list, tuple)):
        return [_plain(v) for v in value]
    return value


def test_check_engine_native_passes_the_scenario_files() -> None:
    from workbench.scenarios.loader import load_scenario

    files = sorted(FOLDER.glob("*.yaml"))[::8]  # a sample; the CLI runs all 96 (docs/native.md)
    for path in files:
        case = load_scenario(path)
        assert "native" in case.engines
        results = case.run(None, engine="native")
        assert results and all(r.status == "pass" for r in results), (path.name, [r.message for r in results])


def _positions() -> list[tuple[str, object]]:
    """The classic start, scenario positions (one with a hidden deck top) and a position 40 random plies in."""
    from workbench.scenarios.loader import load_scenario

    out: list[tuple[str, object]] = [("classic", GAME.new_initial_state(GAME.rules("turn_limit=12"), 3))]
    for name in ("combat-ranged.yaml", "agent-view.yaml"):
        out.append((name, load_scenario(FOLDER / name).initial_state()))
    mid = GAME.new_initial_state(GAME.rules("factions=elves/orcs"), 5)
    rng = random.Random(5)
    for _ in range(40):
        mid.apply_action(rng.choice(mid.legal_actions()))
    assert not mid.is_terminal()
    out.append(("mid-game", mid))
    return out


@pytest.mark.parametrize("spec", ["random", "greedy", "alphabeta:depth=1", "mcts:iterations=20"])
def test_the_seat_agent_picks_what_its_python_twin_picks(spec: str) -> None:
    """``GAME.native.agent`` (the ladder's and the board's native seat) on Python and native states alike,
    twice in a row from one agent (its stream goes on), on every position of ``_positions``."""
    from workbench.agents.generic import make_protocol_agent
    from workbench.games.cursed_lands.native import NativeAgent

    for where, st in _positions():
        rules = st.rules
        py = make_protocol_agent(spec, GAME, rules, seed=21)
        nat = GAME.native.agent(f"{spec}{',' if ':' in spec else ':'}engine=native", rules, 21)
        assert isinstance(nat, NativeAgent) and nat.engine == "native" and "native core" in nat.describe()
        before = st.to_dict()
        picks = [py.select_action(st) for _ in range(2)]
        assert [nat.select_action(st), nat.select_action(NativeCursedState.from_python(st))] == picks, where
        assert st.to_dict() == before  # the agent searched a copy (or a view) and left the position alone


def test_a_seat_pinned_to_native_plays_its_twin_against_a_python_seat() -> None:
    """A ladder game, one seat ``greedy:engine=native`` in the Python loop, is the all-Python game: same row and
    events, with a visible deck top and with a hidden one (the twin then searches a view, as Python does)."""
    from workbench.simulate.protocol_play import play_protocol_game, protocol_specs, seat_agent

    rules = GAME.rules("turn_limit=6")
    assert seat_agent(GAME, "greedy:engine=native", rules, 1).engine == "native"
    assert seat_agent(GAME, "greedy:engine=python", rules, 1).engine == "python"
    for values in ({"turn_limit": 12}, {"turn_limit": 12, "deck_top_visible": False, "factions": "dwarves/elves"}):
        cell = GAME.spec.make(values)
        for seats in (("greedy:engine=native", "greedy:engine=python"), ("greedy:engine=python", "greedy:engine=native")):
            mixed = protocol_specs("cursed-lands", [cell], seats, 1, 4, 400, True, "python")[0]
            pure = replace(mixed, agents=("greedy:engine=python", "greedy:engine=python"))
            a, b = play_protocol_game(mixed), play_protocol_game(pure)
            assert a.row["engine"] == "python" and a.row["error"] is None  # the Python loop, one seat in Rust
            differ = {k for k in a.row if a.row[k] != b.row[k] and k != "seconds"}
            assert all("engine=native" in str(a.row[k]) for k in differ), differ  # only the seat's spec differs
            assert a.events == b.events and len(a.events) > 20, len(a.events)


def test_the_seat_agent_refuses_what_its_python_twin_refuses() -> None:
    assert GAME.native.agent("turtle", GAME.rules(), 1) is None  # no such agent here: the caller plays Python
    with pytest.raises(ValueError, match="iterations"):
        GAME.native.agent("mcts:iterations=-3", GAME.rules(), 1)
    with pytest.raises(ValueError, match="quantum"):
        GAME.native.agent("greedy:quantum=1", GAME.rules(), 1)
