//! The Cursed Lands' action classes (`workbench/games/cursed_lands/classes.py`), bit by bit in its
//! declaration order: laying each tile kind (bits 0..4, the deck top's terrain), each faction's ability
//! (5 humans' road, 6 elves' forest, 7 orcs' castle, 8 dwarves' mountain), a counter-attack (9). The
//! rules an action fires are read from the engine (apply, `fired`, undo), as the Python classifier does.

use super::geo::{ATTACK, CAMP, MOVE, MOVE_ATTACK, N, TILE};
use super::rules::{DWARVES, ELVES, HUMANS, ORCS};
use super::state::{fired_name, State, FOREST};
use crate::core::restrict::Classes;

const HUMANS_ROAD: u32 = 5;
const ELVES_FOREST: u32 = 6;
const ORCS_CASTLE: u32 = 7;
const DWARVES_MOUNTAIN: u32 = 8;
const COUNTERATTACK: u32 = 9;

/// (the hex the attacker strikes from, the target hex) of an attack action (`classes._attack`).
fn attack_of(a: u32) -> Option<(usize, usize)> {
    let n = N as u32;
    if (ATTACK..MOVE_ATTACK).contains(&a) {
        let d = a - ATTACK;
        return Some(((d / n) as usize, (d % n) as usize));
    }
    if (MOVE_ATTACK..CAMP).contains(&a) {
        let d = a - MOVE_ATTACK;
        return Some(((d / n % n) as usize, (d % n) as usize));
    }
    None
}

impl Classes for State {
    type Table = ();
    fn classes(&mut self, a: u32, _table: &()) -> u64 {
        let side = self.c.to_move as usize;
        if (TILE..MOVE).contains(&a) {
            return match self.deck_top(side) {
                Some(top) if top > 0 => 1 << (top - 1),
                _ => 0,
            };
        }
        if !(MOVE..CAMP).contains(&a) {
            return 0;
        }
        let mut out = 0u64;
        let faction = self.faction(side);
        if let Some((from, target)) = attack_of(a) {
            if faction == ELVES && (self.c.terrain[from] == FOREST || self.c.terrain[target] == FOREST) {
                out |= 1 << ELVES_FOREST;
            }
            if faction == ORCS && target as i32 == self.castle_of(1 - side) {
                out |= 1 << ORCS_CASTLE;
            }
        }
        self.apply(a);
        for &(rule, _, _) in self.fired() {
            match fired_name(rule) {
                "road_bonus" if faction == HUMANS => out |= 1 << HUMANS_ROAD,
                "dwarf_mountain_entries" if faction == DWARVES => out |= 1 << DWARVES_MOUNTAIN,
                "counterattacks" => out |= 1 << COUNTERATTACK,
                _ => {}
            }
        }
        self.undo();
        out
    }
}
