//! The transposition table of `alphabeta` and `search` (as `alphabeta._tt` in Python): per position
//! key, the searched depth, the value, whether it is exact or a bound, and the best action found.

use super::access::KeyMap;
use crate::state::Action;

#[derive(Clone, Copy, PartialEq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

/// Entries live for one decision; `clear` between decisions, `release` to give the memory back.
#[derive(Default)]
pub struct Table(KeyMap<(u32, f64, Bound, Option<Action>)>);

impl Table {
    /// The stored value when it settles this node (deep enough, and exact or a bound that cuts the
    /// window), and the stored best action to try first either way.
    pub fn probe(&self, key: u64, depth: u32, alpha: f64, beta: f64) -> (Option<f64>, Option<Action>) {
        match self.0.get(&key) {
            Some(&(h_depth, h_value, h_bound, h_move)) => {
                let settles = h_depth >= depth
                    && (h_bound == Bound::Exact
                        || (h_bound == Bound::Lower && h_value >= beta)
                        || (h_bound == Bound::Upper && h_value <= alpha));
                (settles.then_some(h_value), h_move)
            }
            None => (None, None),
        }
    }

    /// Record a node's result: `value` against the window it was searched with (`alpha0`, `beta`).
    pub fn store(&mut self, key: u64, depth: u32, value: f64, alpha0: f64, beta: f64, best: Option<Action>) {
        let bound = if value <= alpha0 {
            Bound::Upper
        } else if value >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.0.insert(key, (depth, value, bound, best));
    }

    /// Forget every entry (a new decision), keeping the allocation.
    pub fn clear(&mut self) {
        self.0.clear();
    }

    /// Forget every entry and free the memory (between decisions of a long game).
    pub fn release(&mut self) {
        self.0 = KeyMap::default();
    }
}
