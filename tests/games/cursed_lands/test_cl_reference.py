"""The engine against a naive second reading of the contract (``cl_reference``): the exact set of legal
actions at every ply of random games under many rule settings, and the damage of every attack."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from workbench.games.cursed_lands import GAME
from workbench.games.cursed_lands.position import position_of

sys.path.insert(0, str(Path(__file__).parent))
from cl_reference import Reference  # noqa: E402

SETTINGS = [
    "",
    "untiled=plain,factions=elves/orcs",
    "factions=dwarves/elves,dwarf_move_penalty=1,tiles_on_camp=true",
    "factions=orcs/dwarves,orc_forest_cover=false,elf_cover_ignore=ranged,dwarf_road_bonus=true,road_bonus=2",
    "factions=elves/humans,elf_cover_ignore=ranged,tiles_per_turn=2,attack_extra_cost=1,ap_per_turn=4",
    "factions=dwarves/orcs,untiled=plain,mountain_range_penalty=1,hill_range_bonus=2,forest_range_penalty=2,"
    "range_A=5,move_R=2,max_mountains_per_row=4,deck_mountain=12",
]


@pytest.mark.parametrize("rules_text", SETTINGS)
def test_legal_actions_and_damage_match_the_reference(rules_text):
    rules = GAME.rules(rules_text + (",turn_limit=40" if rules_text else "turn_limit=40"))
    rd = rules.to_dict()
    for seed in (3, 4):
        st = GAME.new_initial_state(rules, seed)
        rng = random.Random(seed)
        attacks = 0
        while not st.is_terminal():
            pos = position_of(st)
            ref = Reference(rd, pos)
            got = sorted(st.action_to_string(a) for a in st.legal_actions())
            want = ref.legal()
            assert got == want, (st.turn(), set(got) ^ set(want))
            legal = st.legal_actions()
            attacking = [a for a in legal if "x" in st.action_to_string(a)]
            a = rng.choice(attacking) if attacking and rng.random() < 0.5 else rng.choice(legal)
            text = st.action_to_string(a)
            if "x" in text:
                head, target = text.split("x")
                frm, _, to = head.partition("-")
                at = to or frm
                kind = pos["units"][frm].upper()
                if target in pos["units"]:
                    ref_after = Reference(rd, {**pos, "units": {**{k: v for k, v in pos["units"].items() if k != frm},
                                                               at: pos["units"][frm]}})
                    want_hp = pos["hp"][target] - ref_after.damage(at, pos["to_move"], kind, target)
                    st.apply_action(a)
                    after = position_of(st)
                    if want_hp <= 0:
                        assert target not in after["units"]
                    else:
                        assert after["hp"][target] == want_hp
                    attacks += 1
                    continue
            st.apply_action(a)
        assert attacks > 0
