//! A transposition table (as `alphabeta._tt` in Python): per position key, the searched depth, the
//! value, whether it is exact or a bound, and the best action found. Generic over the action type,
//! so any game's search can use it; the game supplies the 64-bit position key (TerraFeud's
//! `alphabeta` and `search` use `terrafeud::agents::access::key`).

use std::hash::Hasher;

#[derive(Clone, Copy, PartialEq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

/// Entries live for one decision; `clear` between decisions, `release` to give the memory back.
pub struct Table<A: Copy>(KeyMap<(u32, f64, Bound, Option<A>)>);

// By hand: a derive would ask `A: Default`, which actions need not be.
impl<A: Copy> Default for Table<A> {
    fn default() -> Self {
        Table(KeyMap::default())
    }
}

impl<A: Copy> Table<A> {
    /// The stored value when it settles this node (deep enough, and exact or a bound that cuts the
    /// window), and the stored best action to try first either way.
    pub fn probe(&self, key: u64, depth: u32, alpha: f64, beta: f64) -> (Option<f64>, Option<A>) {
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
    pub fn store(&mut self, key: u64, depth: u32, value: f64, alpha0: f64, beta: f64, best: Option<A>) {
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

/// A hasher for keys that are already hashes (the transposition tables' `u64`).
#[derive(Default, Clone, Copy)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | b as u64;
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// A map keyed by position keys that are already well mixed 64-bit hashes (a game's own key).
pub type KeyMap<V> = std::collections::HashMap<u64, V, std::hash::BuildHasherDefault<KeyHasher>>;
