"""Action classes (issue 32): every game declares them in its rulebook's words; OpenSpiel says it has none."""

from __future__ import annotations

import random

import pytest

from workbench.core.classes import ActionClass, ActionClasses, load_archetypes
from workbench.games import get

# a class each game's random play must meet within a few hundred plies (rules that allow it)
EXPECTED = {
    "terrafeud": ({}, {"archers_shot", "order", "bridge_crossing"}),
    "pole": ({}, {"buy_barracks", "catapult_attack", "fortress_attack"}),
    "cursed-lands": ({"factions": "dwarves/orcs", "counterattack": "melee"},
                     {"lay_plain", "dwarves_mountain", "counterattack"}),
    "big-chess": ({}, {"strike", "buy_victim"}),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_classes_are_declared_and_leave_the_state_alone(name: str) -> None:
    game = get(name)
    decl = game.action_classes
    assert decl is not None and decl.classes and all(c.words for c in decl.classes)
    values, wanted = EXPECTED[name]
    rules = game.spec.make(values)
    state, rng, seen = game.new_initial_state(rules, 3), random.Random(3), set()
    for ply in range(900):
        if state.is_terminal() or seen >= wanted:
            break
        player = state.current_player()
        if player < 0:
            state.apply_action(rng.choice(state.chance_outcomes())[0])
            continue
        acts = state.legal_actions(player)
        if len(acts) < 400:  # big chess's setup lists thousands of placements: none is a class
            before = state.to_dict() if ply % 50 == 0 else None
            for a in acts:
                seen |= decl.of(state, a)
            assert before is None or state.to_dict() == before
        state.apply_action(rng.choice(acts))
    assert wanted <= seen, f"{name}: never met {sorted(wanted - seen)}"


def test_openspiel_games_say_they_have_none() -> None:
    decl = get("openspiel:tic_tac_toe").action_classes
    assert decl is not None and decl.classes == () and "no rulebook classes" in decl.none_reason


def test_declarations_are_checked(tmp_path) -> None:
    with pytest.raises(ValueError, match="lower-case"):
        ActionClass("Castling", "castling")
    with pytest.raises(ValueError, match="classifier"):
        ActionClasses((ActionClass("a", "a"),))
    decl = ActionClasses((ActionClass("a", "a"),), lambda s, a: {"b"})
    with pytest.raises(ValueError, match="undeclared"):
        decl.of(None, 0)
    bad = tmp_path / "archetypes.json"
    bad.write_text('{"archetypes": [{"name": "rush", "weights": {"nope": 1}}]}')
    with pytest.raises(ValueError, match="archetypes.json: archetype rush"):
        load_archetypes(bad, decl)
