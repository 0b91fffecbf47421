"""The Cursed Lands' action classes in its rulebook's words (``GAME.action_classes``), for restricted play.

Laying a tile is classed by the kind of the mover's deck top (section 7). Each faction's ability is the
action where its passive (section 10) makes the difference, so barring it asks what the passive is worth:

- humans (Eldora): an activation that needs the road's +1 movement (the ``road_bonus`` rule, section 5);
- elves (Sylvanis): an elf attack from a forest or on a target in a forest (forest mastery, C17);
- orcs (Grom-Kar): an orc attack on the enemy castle (the +1 attack counts against the castle, C19);
- dwarves (Khaz-Durim): a dwarf unit entering a mountain (the ``dwarf_mountain_entries`` rule, C14).

A counter-attack is an attack the defender strikes back at (``counterattack=melee``, C21): barring it
keeps a side out of melee exchanges. Under the default rules there are none. Rules an action fires are
read from the engine itself (``fired_rules``), so no rule is re-derived here.
"""

from __future__ import annotations

from typing import Any

from workbench.core.classes import ActionClass, ActionClasses, fired_rules

from .actions import ATTACK, CAMP, MOVE, MOVE_ATTACK, TILE
from .deck import CODE_NAMES, FOREST, TERRAINS
from .geometry import NUM_HEXES
from .rules import FACTIONS

HUMANS, ELVES, ORCS, DWARVES = (FACTIONS.index(f) for f in ("humans", "elves", "orcs", "dwarves"))
CLASSES = (
    *(ActionClass(f"lay_{t}", f"laying a {t} tile from the deck (section 7)") for t in TERRAINS),
    ActionClass("humans_road", "humans' ability: a march that needs the road's +1 movement (sections 5, 10)"),
    ActionClass("elves_forest", "elves' ability: an attack from or into a forest, ignoring forest (section 10, C17)"),
    ActionClass("orcs_castle", "orcs' ability: an attack on the enemy castle with the orcs' +1 (section 10, C19)"),
    ActionClass("dwarves_mountain", "dwarves' ability: a unit entering a mountain (section 10, C14)"),
    ActionClass("counterattack", "a counter-attack: an attack the defender strikes back at (C21, counterattack=melee)"),
)


def _attack(a: int) -> tuple[int, int] | None:
    """(the hex the attacker shoots or strikes from, the target hex) of an attack action, else None."""
    if ATTACK <= a < MOVE_ATTACK:
        f, g = divmod(a - ATTACK, NUM_HEXES)
        return f, g
    if MOVE_ATTACK <= a < CAMP:
        ft, g = divmod(a - MOVE_ATTACK, NUM_HEXES)
        return ft % NUM_HEXES, g
    return None


def classify(state: Any, action: Any) -> set[str]:
    """The classes of ``action`` (a dense int) in ``state`` (a ``CursedState``)."""
    a = int(action)
    side = state.to_move
    if TILE <= a < MOVE:
        top = state.deck_top(side)
        return {f"lay_{CODE_NAMES[top]}"} if top else set()
    if not MOVE <= a < CAMP:
        return set()
    out = set()
    faction = state.factions[side]
    hit = _attack(a)
    if faction == ELVES and hit is not None and FOREST in (state.terrain[hit[0]], state.terrain[hit[1]]):
        out.add("elves_forest")
    if faction == ORCS and hit is not None and hit[1] == state.castle_of(1 - side):
        out.add("orcs_castle")
    fired = fired_rules(state, a)
    if faction == HUMANS and "road_bonus" in fired:
        out.add("humans_road")
    if faction == DWARVES and "dwarf_mountain_entries" in fired:
        out.add("dwarves_mountain")
    if "counterattacks" in fired:
        out.add("counterattack")
    return out


ACTION_CLASSES = ActionClasses(CLASSES, classify, role="faction")
