//! Every parameter and toggle of The Cursed Lands (contract sections 12 and 13) as one plain struct,
//! handed over from Python by name (`workbench/games/cursed_lands/rules.py` is the specification),
//! and the unit table per faction (section 10) built from it.

/// Factions, in the Python engine's order.
pub const HUMANS: usize = 0;
pub const ELVES: usize = 1;
pub const ORCS: usize = 2;
pub const DWARVES: usize = 3;
/// Unit kinds S A C R (the contract's table order).
pub const S: usize = 0;
pub const A: usize = 1;
pub const C: usize = 2;
pub const R: usize = 3;
pub const RANGED: [bool; 4] = [false, true, false, true];
pub const KINDS: &[u8; 4] = b"SACR";

/// The rules as numbers: ints as in Python, toggles as 0/1 (the first, default value is 0).
#[derive(Clone, Debug, PartialEq)]
pub struct Rules {
    pub ap_per_turn: i32,
    pub ap_first_turn: i32,
    pub activation_cost: i32,
    pub attack_extra_cost: i32,
    pub tile_cost: i32,
    pub tiles_per_turn: i32,
    pub produce_cost: [i32; 4],
    pub movement: [i32; 4],
    pub attack: [i32; 4],
    pub hp: [i32; 4],
    pub range_a: i32,
    pub range_r: i32,
    pub castle_hp: i32,
    /// plain, road, forest, hill, mountain
    pub deck: [i32; 5],
    pub road_bonus: i32,
    pub forest_cover: i32,
    pub forest_range_penalty: i32,
    pub hill_range_bonus: i32,
    pub mountain_range_penalty: i32,
    pub max_mountains_per_row: i32,
    pub orc_attack_bonus: i32,
    pub dwarf_hp_bonus: i32,
    pub elf_archer_hp: i32,
    pub dwarf_move_penalty: i32,
    pub elf_melee_hp_penalty: i32,
    pub starting_units: i32,
    /// 0 = p1, 1 = p2
    pub first_player: i32,
    pub factions: [usize; 2],
    pub turn_limit: i32,
    pub untiled_plain: bool,
    pub tiles_on_camp: bool,
    pub deck_top_visible: bool,
    pub counter_melee: bool,
    pub elf_ignore_all: bool,
    pub orc_cover: bool,
    pub setup_phase: bool,
    pub dwarf_road_bonus: bool,
    pub auto_zero: bool,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            ap_per_turn: 3,
            ap_first_turn: 3,
            activation_cost: 1,
            attack_extra_cost: 0,
            tile_cost: 1,
            tiles_per_turn: 0,
            produce_cost: [1; 4],
            movement: [2, 2, 3, 1],
            attack: [2, 1, 2, 3],
            hp: [3, 1, 2, 2],
            range_a: 3,
            range_r: 4,
            castle_hp: 8,
            deck: [12, 6, 6, 4, 4],
            road_bonus: 1,
            forest_cover: 1,
            forest_range_penalty: 1,
            hill_range_bonus: 1,
            mountain_range_penalty: 2,
            max_mountains_per_row: 2,
            orc_attack_bonus: 1,
            dwarf_hp_bonus: 1,
            elf_archer_hp: 2,
            dwarf_move_penalty: 0,
            elf_melee_hp_penalty: 1,
            starting_units: 1,
            first_player: 0,
            factions: [HUMANS, HUMANS],
            turn_limit: 0,
            untiled_plain: false,
            tiles_on_camp: false,
            deck_top_visible: true,
            counter_melee: false,
            elf_ignore_all: true,
            orc_cover: true,
            setup_phase: false,
            dwarf_road_bonus: false,
            auto_zero: false,
        }
    }
}

/// Name, low, high of every int parameter (the Python `RulesSpec` ranges); toggles are 0..1.
pub const INT_PARAMS: &[(&str, i64, i64)] = &[
    ("ap_per_turn", 1, 10),
    ("ap_first_turn", 0, 10),
    ("activation_cost", 0, 5),
    ("attack_extra_cost", 0, 3),
    ("tile_cost", 0, 5),
    ("tiles_per_turn", 0, 10),
    ("produce_cost_S", 0, 5),
    ("produce_cost_A", 0, 5),
    ("produce_cost_C", 0, 5),
    ("produce_cost_R", 0, 5),
    ("move_S", 1, 6),
    ("move_A", 1, 6),
    ("move_C", 1, 6),
    ("move_R", 1, 6),
    ("attack_S", 0, 6),
    ("attack_A", 0, 6),
    ("attack_C", 0, 6),
    ("attack_R", 0, 6),
    ("hp_S", 1, 9),
    ("hp_A", 1, 9),
    ("hp_C", 1, 9),
    ("hp_R", 1, 9),
    ("range_A", 1, 8),
    ("range_R", 1, 8),
    ("castle_hp", 1, 30),
    ("deck_plain", 0, 32),
    ("deck_road", 0, 32),
    ("deck_forest", 0, 32),
    ("deck_hill", 0, 32),
    ("deck_mountain", 0, 32),
    ("road_bonus", 0, 3),
    ("forest_cover", 0, 3),
    ("forest_range_penalty", 0, 3),
    ("hill_range_bonus", 0, 3),
    ("mountain_range_penalty", 0, 8),
    ("max_mountains_per_row", 0, 9),
    ("orc_attack_bonus", 0, 3),
    ("dwarf_hp_bonus", 0, 3),
    ("elf_archer_hp", 1, 9),
    ("dwarf_move_penalty", 0, 3),
    ("elf_melee_hp_penalty", 0, 3),
    ("starting_units", 0, 3),
    ("first_player", 0, 1),
    ("faction_p1", 0, 3),
    ("faction_p2", 0, 3),
    ("turn_limit", 0, 1000),
    ("untiled", 0, 1),
    ("tiles_on_camp", 0, 1),
    ("deck_top_visible", 0, 1),
    ("counterattack", 0, 1),
    ("elf_cover_ignore", 0, 1),
    ("orc_forest_cover", 0, 1),
    ("setup_phase", 0, 1),
    ("dwarf_road_bonus", 0, 1),
    ("auto_end", 0, 1),
];

fn kind_index(letter: &str) -> usize {
    match letter {
        "S" => S,
        "A" => A,
        "C" => C,
        _ => R,
    }
}

impl Rules {
    /// Set one rule by its Python name. Toggles take their value's index in the Python choices
    /// (`untiled` 1 = plain, `deck_top_visible` 1 = false, `counterattack` 1 = melee,
    /// `elf_cover_ignore` 1 = ranged, `orc_forest_cover` 1 = false, `auto_end` 1 = zero_ap).
    pub fn set(&mut self, name: &str, value: i64) -> Result<(), String> {
        let Some(&(_, lo, hi)) = INT_PARAMS.iter().find(|p| p.0 == name) else {
            return Err(format!("unknown rule {name:?}"));
        };
        if !(lo..=hi).contains(&value) {
            return Err(format!("rule {name}={value} is out of range {lo}..{hi}"));
        }
        let v = value as i32;
        let b = value != 0;
        let tail = name.rsplit('_').next().unwrap_or("");
        match name {
            "ap_per_turn" => self.ap_per_turn = v,
            "ap_first_turn" => self.ap_first_turn = v,
            "activation_cost" => self.activation_cost = v,
            "attack_extra_cost" => self.attack_extra_cost = v,
            "tile_cost" => self.tile_cost = v,
            "tiles_per_turn" => self.tiles_per_turn = v,
            n if n.starts_with("produce_cost_") => self.produce_cost[kind_index(tail)] = v,
            n if n.starts_with("move_") => self.movement[kind_index(tail)] = v,
            n if n.starts_with("attack_") && n.len() == 8 => self.attack[kind_index(tail)] = v,
            n if n.starts_with("hp_") => self.hp[kind_index(tail)] = v,
            "range_A" => self.range_a = v,
            "range_R" => self.range_r = v,
            "castle_hp" => self.castle_hp = v,
            "deck_plain" => self.deck[0] = v,
            "deck_road" => self.deck[1] = v,
            "deck_forest" => self.deck[2] = v,
            "deck_hill" => self.deck[3] = v,
            "deck_mountain" => self.deck[4] = v,
            "road_bonus" => self.road_bonus = v,
            "forest_cover" => self.forest_cover = v,
            "forest_range_penalty" => self.forest_range_penalty = v,
            "hill_range_bonus" => self.hill_range_bonus = v,
            "mountain_range_penalty" => self.mountain_range_penalty = v,
            "max_mountains_per_row" => self.max_mountains_per_row = v,
            "orc_attack_bonus" => self.orc_attack_bonus = v,
            "dwarf_hp_bonus" => self.dwarf_hp_bonus = v,
            "elf_archer_hp" => self.elf_archer_hp = v,
            "dwarf_move_penalty" => self.dwarf_move_penalty = v,
            "elf_melee_hp_penalty" => self.elf_melee_hp_penalty = v,
            "starting_units" => self.starting_units = v,
            "first_player" => self.first_player = v,
            "faction_p1" => self.factions[0] = value as usize,
            "faction_p2" => self.factions[1] = value as usize,
            "turn_limit" => self.turn_limit = v,
            "untiled" => self.untiled_plain = b,
            "tiles_on_camp" => self.tiles_on_camp = b,
            "deck_top_visible" => self.deck_top_visible = !b,
            "counterattack" => self.counter_melee = b,
            "elf_cover_ignore" => self.elf_ignore_all = !b,
            "orc_forest_cover" => self.orc_cover = !b,
            "setup_phase" => self.setup_phase = b,
            "dwarf_road_bonus" => self.dwarf_road_bonus = b,
            "auto_end" => self.auto_zero = b,
            _ => return Err(format!("unknown rule {name:?}")),
        }
        Ok(())
    }

    /// AP of an activation that attacks (activation plus `attack_extra_cost`).
    pub fn attack_cost(&self) -> i32 {
        self.activation_cost + self.attack_extra_cost
    }

    /// With every cost >= 1 nothing but `end` is legal at 0 AP (C40 needs no generation).
    pub fn all_costs_positive(&self) -> bool {
        self.produce_cost.iter().chain([self.activation_cost, self.tile_cost].iter()).all(|&c| c >= 1)
    }
}

/// Movement, attack, full HP per (faction, kind), range per kind, road bonus per faction.
#[derive(Clone, Debug)]
pub struct UnitTable {
    pub movement: [[i32; 4]; 4],
    pub attack: [[i32; 4]; 4],
    pub hp: [[i32; 4]; 4],
    pub range: [i32; 4],
    pub road: [i32; 4],
}

impl UnitTable {
    /// `rules.UnitTable` exactly.
    pub fn new(r: &Rules) -> Self {
        let mut t = UnitTable {
            movement: [[0; 4]; 4],
            attack: [[0; 4]; 4],
            hp: [[0; 4]; 4],
            range: [0, r.range_a, 0, r.range_r],
            road: [r.road_bonus, r.road_bonus, 0, if r.dwarf_road_bonus { r.road_bonus } else { 0 }],
        };
        for f in 0..4 {
            for k in 0..4 {
                let mut mv = r.movement[k];
                let mut at = r.attack[k];
                let mut hp = r.hp[k];
                if f == ELVES {
                    if k == A {
                        hp = r.elf_archer_hp;
                    } else if k == S || k == C {
                        hp = (hp - r.elf_melee_hp_penalty).max(1);
                    }
                } else if f == ORCS {
                    at += r.orc_attack_bonus;
                } else if f == DWARVES {
                    hp += r.dwarf_hp_bonus;
                    if k != C {
                        mv = (mv - r.dwarf_move_penalty).max(1);
                    }
                }
                t.movement[f][k] = mv;
                t.attack[f][k] = at;
                t.hp[f][k] = hp;
            }
        }
        t
    }
}
