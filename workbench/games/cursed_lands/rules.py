"""Every parameter and toggle of the contract (sections 12 and 13) as one ``RulesSpec``, and the unit table.

Names, defaults and ranges are the contract's; ``source`` says whether the rulebook states the value
(text) or the contract decided it, and which ruling (C-number) it belongs to. ``unit_stats`` turns the
base table and the faction passives of section 10 into the numbers the engine uses.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from workbench.core.rulespec import Param, Rules, RulesError, RulesSpec

GAME_NAME = "cursed-lands"
FACTIONS = ("humans", "elves", "orcs", "dwarves")
HUMANS, ELVES, ORCS, DWARVES = range(4)
KINDS = "SACR"  # Swordsman, Archer, Cavalry, Artillery (the contract's unit table order)
S, A, C, R = range(4)
KIND_WORDS = ("Swordsman", "Archer", "Cavalry", "Artillery")
RANGED = (False, True, False, True)
SIDES = ("p1", "p2")
FACTION_PAIRS = tuple(f"{a}/{b}" for a in FACTIONS for b in FACTIONS)


def _faction(value: Any, where: str) -> str:
    if not isinstance(value, str) or value.strip().lower() not in FACTIONS:
        shown = value if isinstance(value, str) and len(value) <= 20 else repr(value)[:20]
        raise RulesError(f"parameter factions: {where} {shown!r} is not a faction; must be one of {', '.join(FACTIONS)}")
    return value.strip().lower()


def parse_factions(value: Any) -> str:
    """``humans/orcs`` (also ``humans,orcs``, ``{p1: humans, p2: orcs}``, a two-item list) -> ``humans/orcs``."""
    if isinstance(value, dict):
        unknown = [k for k in value if k not in SIDES]
        if unknown or set(value) != set(SIDES):
            raise RulesError("parameter factions: a mapping names both p1 and p2, e.g. {p1: humans, p2: orcs}")
        return f"{_faction(value['p1'], 'p1')}/{_faction(value['p2'], 'p2')}"
    if isinstance(value, (list, tuple)):
        if len(value) != 2:
            raise RulesError("parameter factions: a list names two factions, p1's then p2's")
        return f"{_faction(value[0], 'p1')}/{_faction(value[1], 'p2')}"
    if isinstance(value, str):
        text = value.strip().lower()
        for sep in ("/", ",", ":", " "):
            if sep in text:
                parts = [p for p in text.split(sep) if p]
                if len(parts) == 2:
                    return f"{_faction(parts[0], 'p1')}/{_faction(parts[1], 'p2')}"
        raise RulesError(f"parameter factions={value[:40]!r}: write p1's and p2's faction as humans/orcs "
                         f"(factions: {', '.join(FACTIONS)})")
    raise RulesError(f"parameter factions: must be a pair such as humans/orcs, got {type(value).__name__}")


def parse_setup(value: Any) -> str:
    """``classic`` or the path of a scenario file (JSON-style YAML, as ``dump_scenario`` writes it)."""
    if not isinstance(value, str) or not value.strip() or len(value) > 1000:
        raise RulesError("parameter setup: must be classic or the path of a scenario file")
    text = value.strip()
    return "classic" if text.lower() == "classic" else text


def _i(name: str, default: int, low: int, high: int, source: str, meaning: str) -> Param:
    return Param(name, "int", default, meaning, source, low=low, high=high)


def _t(name: str, choices: tuple[Any, ...], source: str, meaning: str) -> Param:
    kind = "bool" if isinstance(choices[0], bool) else "choice"
    return Param(name, kind, choices[0], meaning, source, choices=() if kind == "bool" else choices)


PARAMS: tuple[Param, ...] = (
    _i("ap_per_turn", 3, 1, 10, "decided (section 3)", "action points at the start of each turn"),
    _i("ap_first_turn", 3, 0, 10, "decided (section 3)", "action points of the game's very first turn"),
    _i("activation_cost", 1, 0, 5, "decided (C7)", "AP for one activation (move and/or attack)"),
    _i("attack_extra_cost", 0, 0, 3, "decided (C7)", "extra AP when the activation attacks"),
    _i("tile_cost", 1, 0, 5, "decided (C4)", "AP to place the top tile of the own deck"),
    _i("tiles_per_turn", 0, 0, 10, "decided (C4)", "most tiles a side may place in one turn (0 = no limit)"),
    _i("produce_cost_S", 1, 0, 5, "text: 'Стоит 1 ОД'", "AP to produce a Swordsman"),
    _i("produce_cost_A", 1, 0, 5, "text: 'Стоит 1 ОД'", "AP to produce an Archer"),
    _i("produce_cost_C", 1, 0, 5, "text: 'Стоит 1 ОД'", "AP to produce a Cavalry"),
    _i("produce_cost_R", 1, 0, 5, "text: 'Стоит 1 ОД'", "AP to produce an Artillery"),
    _i("move_S", 2, 1, 6, "text: 'Мечник (2 движения)'", "Swordsman movement"),
    _i("move_A", 2, 1, 6, "decided (section 12)", "Archer movement"),
    _i("move_C", 3, 1, 6, "text: 'Конник (3 движения)'", "Cavalry movement"),
    _i("move_R", 1, 1, 6, "decided (section 12)", "Artillery movement"),
    _i("attack_S", 2, 0, 6, "decided (section 12)", "Swordsman attack"),
    _i("attack_A", 1, 0, 6, "decided (section 12)", "Archer attack"),
    _i("attack_C", 2, 0, 6, "decided (section 12)", "Cavalry attack"),
    _i("attack_R", 3, 0, 6, "decided (section 12)", "Artillery attack"),
    _i("hp_S", 3, 1, 9, "decided (section 12)", "Swordsman HP"),
    _i("hp_A", 1, 1, 9, "text: 'Лучник имеет 2 HP (вместо 1)'", "Archer HP"),
    _i("hp_C", 2, 1, 9, "decided (section 12)", "Cavalry HP"),
    _i("hp_R", 2, 1, 9, "decided (section 12)", "Artillery HP"),
    _i("range_A", 3, 1, 8, "text: 'Лучник (3)'", "Archer range"),
    _i("range_R", 4, 1, 8, "text: 'Артиллерия (4)'", "Artillery range"),
    _i("castle_hp", 8, 1, 30, "text: '1 Замок (8 HP)'", "castle HP at the start"),
    _i("deck_plain", 12, 0, 32, "decided (section 7)", "plain tiles in each deck"),
    _i("deck_road", 6, 0, 32, "decided (section 7)", "road tiles in each deck"),
    _i("deck_forest", 6, 0, 32, "decided (section 7)", "forest tiles in each deck"),
    _i("deck_hill", 4, 0, 32, "decided (section 7)", "hill tiles in each deck"),
    _i("deck_mountain", 4, 0, 32, "decided (section 7)", "mountain tiles in each deck"),
    _i("road_bonus", 1, 0, 3, "text: '+1 движение, если юнит НАЧИНАЕТ ход на дороге'",
       "movement added to a unit that starts its activation on a road"),
    _i("forest_cover", 1, 0, 3, "text: 'Юнит В лесу получает −1 урон'", "damage taken off for a unit in a forest"),
    _i("forest_range_penalty", 1, 0, 3, "text: 'Стрельба ИЗ леса: −1 дальность'", "range lost shooting from a forest"),
    _i("hill_range_bonus", 1, 0, 3, "text: '+1 дальность при стрельбе с холма'", "range gained shooting from a hill"),
    _i("mountain_range_penalty", 2, 0, 8, "text: '−2 дальность (за каждый гекс гор на пути)'",
       "range lost per mountain hex on the line of fire"),
    _i("max_mountains_per_row", 2, 0, 9, "text: 'максимум 2 горы в одном ряду'", "most mountains in one row"),
    _i("orc_attack_bonus", 1, 0, 3, "text: '+1 к атаке всех юнитов'", "attack added to every orc unit"),
    _i("dwarf_hp_bonus", 1, 0, 3, "text: '+1 HP всем юнитам'", "HP added to every dwarf unit"),
    _i("elf_archer_hp", 2, 1, 9, "text: 'Эльфийский Лучник имеет 2 HP'", "HP of an elf Archer (replaces hp_A)"),
    _i("dwarf_move_penalty", 0, 0, 3, "decided (C36)", "movement taken off dwarf S, A, R (never C, never below 1)"),
    _i("elf_melee_hp_penalty", 1, 0, 3, "decided (C37)", "HP taken off elf Swordsman and Cavalry (never below 1)"),
    _i("starting_units", 1, 0, 3, "text: '1 бесплатный стартовый юнит'; C43", "free units each side starts with"),
    Param("first_player", "choice", "p1", "the side that plays turn 1", "decided (section 2)", choices=SIDES),
    Param("factions", "choice", "humans/humans", "p1's faction / p2's faction", "text (section 2); C27",
          choices=FACTION_PAIRS, custom=parse_factions, grid_values=FACTION_PAIRS),
    Param("turn_limit", "int", 0, "the game is drawn when this turn ends without a winner (0 = none)",
          "decided (C29, C42)", low=0, high=1000, limit=True),
    Param("setup", "path", "classic", "classic, or the path of a scenario file whose position is the start",
          "decided (section 2)", custom=parse_setup),
    _t("untiled", ("void", "plain"), "C2", "what an untiled hex is: impassable void, or plain"),
    _t("tiles_on_camp", (False, True), "C3, C49", "tiles may cover a camp's free plains"),
    _t("deck_top_visible", (True, False), "C5, C46", "the top tile of each deck is public (observation only)"),
    _t("counterattack", ("none", "melee"), "C21, C41", "a surviving melee defender strikes a melee attacker back"),
    _t("elf_cover_ignore", ("all", "ranged"), "C17", "elves ignore forest cover in all attacks, or only when shooting"),
    _t("orc_forest_cover", (True, False), "C18", "orc units in a forest get forest cover"),
    _t("setup_phase", (False, True), "C26, C44", "each side places its camp with a camp action before turn 1"),
    _t("dwarf_road_bonus", (False, True), "C36", "dwarves get the road bonus"),
    _t("auto_end", ("exhausted", "zero_ap"), "C40", "the turn ends by itself at 0 AP when only end is left, "
       "or after any action that leaves 0 AP"),
)


def _check(values: dict[str, Any]) -> None:
    """Cross-field rules: each deck holds at least one tile (section 12)."""
    total = sum(values[f"deck_{t}"] for t in ("plain", "road", "forest", "hill", "mountain"))
    if total < 1:
        raise RulesError("parameters deck_plain + deck_road + deck_forest + deck_hill + deck_mountain: "
                         "the deck must hold at least 1 tile per player (each is 0 to 32)")


SPEC = RulesSpec(GAME_NAME, PARAMS, _check)


def factions_of(rules: Rules) -> tuple[int, int]:
    """Faction indices of p1 and p2 from ``rules.factions`` (``humans/orcs``)."""
    a, b = rules["factions"].split("/")
    return FACTIONS.index(a), FACTIONS.index(b)


class UnitTable:
    """Movement, attack, full HP and range per (faction, kind) under one rules setting (sections 4, 10)."""

    __slots__ = ("move", "attack", "hp", "range", "road")

    def __init__(self, rules: Rules) -> None:
        self.move = [[0] * 4 for _ in FACTIONS]
        self.attack = [[0] * 4 for _ in FACTIONS]
        self.hp = [[0] * 4 for _ in FACTIONS]
        self.range = [0, rules["range_A"], 0, rules["range_R"]]
        self.road = [rules["road_bonus"], rules["road_bonus"], 0,
                     rules["road_bonus"] if rules["dwarf_road_bonus"] else 0]
        for f in range(4):
            for k, letter in enumerate(KINDS):
                move = rules[f"move_{letter}"]
                attack = rules[f"attack_{letter}"]
                hp = rules[f"hp_{letter}"]
                if f == ELVES:
                    if k == A:
                        hp = rules["elf_archer_hp"]
                    elif k in (S, C):
                        hp = max(1, hp - rules["elf_melee_hp_penalty"])
                elif f == ORCS:
                    attack += rules["orc_attack_bonus"]
                elif f == DWARVES:
                    hp += rules["dwarf_hp_bonus"]
                    if k != C:
                        move = max(1, move - rules["dwarf_move_penalty"])
                self.move[f][k] = move
                self.attack[f][k] = attack
                self.hp[f][k] = hp


@lru_cache(maxsize=256)
def unit_table(rules: Rules) -> UnitTable:
    """The (read-only) unit table of ``rules``, built once per rules setting."""
    return UnitTable(rules)
