//! The few state queries the agents need, in one place, on top of the engine's `State` API.

use std::hash::{Hash, Hasher};

use crate::state::State;

#[inline]
pub fn squares(st: &State) -> &[u8; 91] {
    st.squares()
}

#[inline]
pub fn is_over(st: &State) -> bool {
    st.is_terminal()
}

#[inline]
pub fn winner(st: &State) -> Option<usize> {
    st.winner()
}

#[inline]
pub fn ply(st: &State) -> u32 {
    st.ply()
}

#[inline]
pub fn to_move(st: &State) -> usize {
    st.current_player()
}

#[inline]
pub fn feudal(st: &State, side: usize) -> Option<usize> {
    st.feudal(side)
}

#[inline]
pub fn castle_centre(st: &State) -> [usize; 2] {
    st.board.castle_centre
}

#[inline]
pub fn is_threatened(st: &mut State, side: usize) -> bool {
    st.is_threatened(side)
}

/// (archer hex, marked hex) of `side`'s markers.
#[inline]
pub fn markers(st: &State, side: usize) -> impl Iterator<Item = (u8, u8)> + '_ {
    st.markers(side).iter().copied()
}

/// A 64-bit key of the position for transposition tables: the fields of `GameState.key()`
/// (markers and destroyed kinds sorted, as there), hashed.
pub fn key(st: &State) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    st.squares().hash(&mut h);
    st.current_player().hash(&mut h);
    for side in 0..2 {
        let mut m: Vec<(u8, u8)> = st.markers(side).to_vec();
        m.sort_unstable();
        m.hash(&mut h);
        let mut d: Vec<u8> = st.destroyed(side).to_vec();
        d.sort_unstable();
        d.hash(&mut h);
    }
    st.pending().hash(&mut h);
    st.castled().hash(&mut h);
    st.aura_ready().hash(&mut h);
    st.quiet().hash(&mut h);
    st.winner().hash(&mut h);
    st.is_terminal().hash(&mut h);
    h.finish()
}
