//! Big chess's action classes (`workbench/games/big_chess/classes.py`), bit by bit in its declaration
//! order: buying each card of the starter set (the first bits, in the order Python declares them), then a
//! strike, a push and a portal, which are the actions that fire those rules (apply, `fired`, undo), as the
//! Python classifier reads them. Setup placements are not purchases.

use super::state::{State, COUNTERS, D};
use crate::core::protocol::Game;
use crate::core::restrict::Classes;

/// What the classifier needs from Python: the declared buy classes' card keys, in declaration order (a
/// purchase of a card whose key is not among them, or a scenario's own card, is in no class).
pub struct BuyKeys(pub Vec<String>);

impl Classes for State {
    type Table = BuyKeys;

    fn classes(&mut self, action: u32, table: &BuyKeys) -> u64 {
        let Some(d) = self.find(action) else { return 0 };
        match d {
            D::Place { .. } | D::Remove { .. } | D::Reloc { .. } | D::Ready { .. } => 0,
            D::Buy { k, .. } | D::Transform { k, .. } => {
                let key = &self.ctx.cards[k as usize].key;
                table.0.iter().position(|b| b == key).map_or(0, |i| 1 << i)
            }
            _ => {
                let base = table.0.len();
                self.apply(action);
                let mut out = 0u64;
                for &(rule, _, _) in &self.c.fired {
                    match COUNTERS[rule as usize] {
                        "strike" => out |= 1 << base,
                        "push" => out |= 1 << (base + 1),
                        "portal" => out |= 1 << (base + 2),
                        _ => {}
                    }
                }
                self.undo();
                out
            }
        }
    }
}
