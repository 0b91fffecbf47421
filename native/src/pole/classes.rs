//! Pole's action classes (`workbench/games/pole/classes.py`), bit by bit in its declaration order:
//! buying each kind (bits 0..6, the kind's index), a catapult attack (bit 7), an attack on a fortress
//! (bit 8). Read from the dense action ints, as the Python classifier reads them.

use super::state::{State, ALL0, ATT0, NOBUY};
use super::tables::C;
use crate::core::restrict::Classes;

pub const CATAPULT_ATTACK: u32 = 7;
pub const FORTRESS_ATTACK: u32 = 8;

impl Classes for State {
    type Table = ();
    fn classes(&mut self, action: u32, _table: &()) -> u64 {
        if action < NOBUY {
            return 1 << (action / 100);
        }
        if action < ATT0 {
            return 0;
        }
        let mut out = 0u64;
        let src = if action >= ALL0 { action - ALL0 } else { (action - ATT0) / 100 } as usize;
        if src < 100 && (self.pos.board[src] as usize).wrapping_sub(1) & 7 == C {
            out |= 1 << CATAPULT_ATTACK;
        }
        if action < ALL0 && self.tables.fort_of[((action - ATT0) % 100) as usize] != 0 {
            out |= 1 << FORTRESS_ATTACK;
        }
        out
    }
}
