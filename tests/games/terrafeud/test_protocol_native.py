"""TerraFeud's native state on the core's protocol (``native/src/terrafeud/protocol.rs``, issue 29 part C).

The generic native code (generic agents, the generic perft, the play loop) runs on TerraFeud through
``core::protocol::Game``; here it is held against the Python engine through ``workbench._native.terrafeud``:
the dense ids of the legal actions in the Python order, the perft, the evaluation, each generic agent's pick
at every ply, and whole games played by the core's loop.
"""

from __future__ import annotations

import random

import pytest

from workbench.agents.generic import make_protocol_agent
from workbench.core.agents import GENERIC_PREFIX
from workbench.games.terrafeud import GAME
from workbench.perft import protocol_perft

native = pytest.importorskip("workbench.games.terrafeud.native")
if not native.available():
    pytest.skip("the native core is not built (make native)", allow_module_level=True)

from workbench._native import terrafeud as core  # noqa: E402  (after the skip: the core is built)

RULES = ("", "season=winter", "order_radius=3,castling=sacrifice", "archer_melee=true,mate_defence=any",
         "terrain=fixed,archer_range=3")


def _state(rules: str, seed: int):  # a protocol state and its native core's State
    st = GAME.new_initial_state(GAME.spec.make(rules) if rules else None, seed)
    return st, native.NativeState.from_state(st.inner)._st


def _ids(st) -> list[int]:
    return [GAME.action_to_int(st, a) for a in st.legal_actions()]


@pytest.mark.parametrize("rules", RULES)
def test_legal_ids_evaluation_and_result_match_python_at_every_ply(rules: str) -> None:
    st, _ = _state(rules, 5)
    rng = random.Random(rules)
    for _ply in range(150):
        nat = native.NativeState.from_state(st.inner)._st
        assert core.legal_ids(nat) == _ids(st)
        for p in (0, 1):
            assert core.protocol_evaluate(nat, p) == st.evaluate(p)
        if st.is_terminal():
            break
        st.apply_action(rng.choice(st.legal_actions()))


def test_the_generic_perft_counts_the_python_tree_and_the_stored_table() -> None:
    for rules in ("", "season=winter,order_radius=3"):
        st, nat = _state(rules, 2)
        assert core.protocol_perft(nat, 2) == protocol_perft(st, 2)
    st, nat = _state("hill=false,swamp=false", 0)
    assert core.protocol_perft(nat, 3) == 157183  # workbench/games/terrafeud/data/perft.json, summer, no terrain


@pytest.mark.parametrize("spec", ["random", "greedy", "greedy:epsilon=0.5", "alphabeta:depth=1", "alphabeta:depth=2,nodes=3000",
                                  "mcts:iterations=25", "plan:beam=3,steps=2", "search:depth=2,nodes=2000"])
def test_each_generic_agent_picks_what_its_python_twin_picks(spec: str) -> None:
    st, _ = _state("season=winter", 3)
    if spec.partition(":")[0] in ("alphabeta", "mcts", "search"):  # the node budget decides, not a 2 s clock under load
        spec += ",seconds=5"
    base, _, params = spec.partition(":")
    kw = {k: float(v) for k, v in (p.split("=") for p in params.split(",") if p)}
    py_agent = make_protocol_agent(GENERIC_PREFIX + spec, GAME, None, seed=11)  # alphabeta alone: the tuned one
    nat_agent = core.Agent(base, kw, 11)
    for _ in range(12 if base in ("random", "greedy") else 6):
        if st.is_terminal():
            break
        a = py_agent.select_action(st)
        assert nat_agent.select_action(native.NativeState.from_state(st.inner)._st) == GAME.action_to_int(st, a), spec
        st.apply_action(a)


def test_whole_games_through_the_core_loop_are_the_python_games() -> None:
    for rules, seeds in (("", (1, 2)), ("order_radius=3", (3, 4))):
        st, nat = _state(rules, 9)
        out = core.protocol_play_game(nat, [("greedy", None, seeds[0]), ("random", None, seeds[1])], 60)
        agents = [make_protocol_agent("generic-greedy", GAME, None, seed=seeds[0]),
                  make_protocol_agent("generic-random", GAME, None, seed=seeds[1])]
        played = []
        while not st.is_terminal() and st.move_number() < 60:
            a = agents[st.current_player()].select_action(st)
            played.append(GAME.action_to_int(st, a))
            st.apply_action(a)
        assert out["actions"] == played
        assert not out["stopped"]
        final = native.NativeState(st.inner.game, out["final"])
        assert final.to_dict() == st.to_dict()
        assert out["final"].returns() == st.returns()


def test_refusals() -> None:
    st, nat = _state("", 0)
    with pytest.raises(ValueError, match="no native agent"):
        core.Agent("minimax", None, 1)
    with pytest.raises(ValueError, match="one agent per seat"):
        core.protocol_play_game(nat, [("random", None, 1)], 10)
    assert core.has_agent("plan") and not core.has_agent("turtle")


def test_the_generic_twin_plays_the_python_generic_agent_on_protocol_states() -> None:
    st, _ = _state("order_radius=3", 4)
    twin = GAME.native.agent("generic-alphabeta:depth=1", GAME.rules(), 21)  # the seat agent of the generic name
    assert isinstance(twin, native.GenericTwin) and twin.name == "generic-alphabeta:depth=1"
    py_agent = make_protocol_agent("generic-alphabeta:depth=1", GAME, None, seed=21)
    for _ in range(8):
        a = py_agent.select_action(st)
        assert twin.select_action(st) == a
        st.apply_action(a)


def test_perft_on_the_native_engine_counts_through_the_cores_protocol_face() -> None:
    """``perft --engine native``: ``GAME.native.perft`` of ``GAME.native.state`` counts with ``core::protocol::perft``,
    as every core does (the stored table's depth-3 count)."""
    st, _ = _state("hill=false,swamp=false", 0)
    nat = GAME.native.state(st)
    assert GAME.native.perft(nat, 3) == 157183 == core.protocol_perft(nat.inner._st, 3)
