"""The generic ``plan`` agent (a whole turn planned as a beam) on every protocol game.

It must play legal actions, leave the state it is given alone, be reproducible from its seed, and on a
game of one action per turn reduce to a one-ply search (``greedy``'s best action value).
"""

from __future__ import annotations

import random

import pytest

from workbench import games
from workbench.agents.generic import GenericPlan, make_protocol_agent
from workbench.core import CHANCE

games.register("stones", "tinygame")
SHORT = {"terrafeud": "draw_after=20", "pole": "max_turns=20", "cursed-lands": "turn_limit=4",
         "big-chess": "max_turns=6", "stones": "cap=10"}


def _advance(state, rng: random.Random, plies: int) -> None:
    for _ in range(plies):
        if state.is_terminal():
            return
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            state.apply_action(rng.choice(state.legal_actions(state.current_player())))


@pytest.mark.parametrize("name", [*games.names()])
def test_plan_plays_legally_leaves_the_state_and_repeats_itself(name: str) -> None:
    game = games.get(name)
    rules = game.spec.make(SHORT.get(name, ""))
    st = game.new_initial_state(rules, 3)
    rng = random.Random(1)
    _advance(st, rng, 6)
    while st.current_player() == CHANCE:
        _advance(st, rng, 1)
    if st.is_terminal():
        pytest.skip("the sample game ended early")
    before = st.to_dict()
    picks = [make_protocol_agent("plan:beam=3,reply=1", game, rules, seed=5).select_action(st) for _ in range(2)]
    assert picks[0] == picks[1]
    assert picks[0] in st.legal_actions(st.current_player())
    assert st.to_dict() == before


def test_plan_on_one_action_turns_is_a_one_ply_search() -> None:
    game = games.get("terrafeud")
    rules = game.spec.make("draw_after=30")
    st = game.new_initial_state(rules, 2)
    _advance(st, random.Random(4), 8)
    agent = make_protocol_agent("plan:beam=4", game, rules, seed=1)
    assert isinstance(agent, GenericPlan)
    a = agent.select_action(st)
    me = st.current_player()
    values = {}
    for x in st.legal_actions(me):
        st.apply_action(x)
        values[x] = st.evaluate(me) if not st.is_terminal() else 1e9 * st.returns()[me]
        st.undo_action()
    assert values[a] == max(values.values())
    assert agent.nodes_searched == len(values)  # one evaluation per action: nothing to complete


def test_plan_parameters_are_checked() -> None:
    game = games.get("cursed-lands")
    for bad in ("plan:beam=0", "plan:steps=65", "plan:reply=4", "plan:beam=2.5"):
        with pytest.raises(ValueError, match="plan"):
            make_protocol_agent(bad, game)

