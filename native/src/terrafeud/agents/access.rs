//! The few state queries the agents need, in one place, on top of the engine's `State` API.

use crate::terrafeud::state::State;

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

/// A 64-bit key of the position for the transposition tables (`crate::core::tt`): the fields of `GameState.key()`
/// (markers and destroyed kinds in sorted order, as there), mixed multiplicatively (FxHash style:
/// cheap, and 64 bits make a collision within one decision's table negligible).
pub fn key(st: &State) -> u64 {
    let mut h = Mix(0);
    let sq = st.squares();
    for chunk in sq.chunks(8) {
        let mut word = 0u64;
        for (i, &b) in chunk.iter().enumerate() {
            word |= (b as u64) << (8 * i);
        }
        h.add(word);
    }
    h.add(st.current_player() as u64);
    for side in 0..2 {
        let mut m = [(255u8, 255u8); 32];
        let marks = st.markers(side);
        let n = marks.len().min(32); // never more than MAX_MARKERS (24)
        m[..n].copy_from_slice(&marks[..n]);
        m[..n].sort_unstable();
        for &(a, t) in &m[..n] {
            h.add(((a as u64) << 8) | t as u64 | 1 << 20);
        }
        let mut d = [0u8; 64];
        let dest = st.destroyed(side);
        let nd = dest.len().min(64);
        d[..nd].copy_from_slice(&dest[..nd]);
        d[..nd].sort_unstable();
        h.add(0xD000 + side as u64);
        for &k in &d[..nd] {
            h.add(k as u64);
        }
    }
    let pending = st.pending();
    h.add(pending as u64);
    h.add((pending >> 64) as u64);
    let castled = st.castled();
    h.add(castled[0] as u64 | (castled[1] as u64) << 8);
    let aura = st.aura_ready();
    h.add(aura as u64);
    h.add((aura >> 64) as u64);
    h.add(st.quiet() as u64);
    h.add(st.winner().map_or(7, |w| w as u64) | (st.is_terminal() as u64) << 4);
    h.0
}

struct Mix(u64);

impl Mix {
    #[inline]
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}
