//! TerraFeud's action classes (`workbench/games/terrafeud/classes.py`), bit by bit in its declaration
//! order: castling (0), the archer's shot (1), an Order (2), promotion (3), a bridge crossing (4): a step
//! of a move or an Order that starts or ends on a bridge or ford hex, or goes from one bank to the other.
//! Read from the action, as the Python classifier reads its tuples.

use super::geometry::geo;
use super::protocol::{action_of, TerraFeud};
use super::state::Action;
use crate::core::restrict::Classes;

const CASTLING: u32 = 0;
const ARCHERS_SHOT: u32 = 1;
const ORDER: u32 = 2;
const PROMOTION: u32 = 3;
const BRIDGE_CROSSING: u32 = 4;

/// The river band's rows (doubled `y` of `geometry`), lowest and highest, from the board data Python reads
/// (`board_data()["river_rows"]`): a hex below is White's half, above Black's (`board.side_of_half`).
pub struct RiverRows(pub i32, pub i32);

impl Classes for TerraFeud {
    type Table = RiverRows;

    fn classes(&mut self, action: u32, river: &RiverRows) -> u64 {
        let st = self.state_mut();
        let Some(a) = action_of(st.legal_actions_ref(), action) else { return 0 };
        let mut steps: Vec<[u8; 3]> = Vec::new();
        let mut out = 0u64;
        match a {
            Action::Castle { .. } => out |= 1 << CASTLING,
            Action::Shot { .. } => out |= 1 << ARCHERS_SHOT,
            Action::Order { n, steps: s } => {
                out |= 1 << ORDER;
                steps.extend_from_slice(&s[..n as usize]);
            }
            Action::Move { from, to, promo } => steps.push([from, to, promo]),
            Action::Pass => {}
        }
        if steps.iter().any(|s| s[2] != 0) {
            out |= 1 << PROMOTION;
        }
        let half = |h: u8| -> Option<u8> {
            let y = geo().qy[h as usize].1;
            if y < river.0 {
                Some(0)
            } else if y > river.1 {
                Some(1)
            } else {
                None
            }
        };
        let board = &st.board;
        let crossing = |h: u8| board.is_bridge[h as usize] || board.is_ford[h as usize];
        for &[f, t, _] in &steps {
            let (a, b) = (half(f), half(t));
            if crossing(f) || crossing(t) || (a.is_some() && b.is_some() && a != b) {
                out |= 1 << BRIDGE_CROSSING;
                break;
            }
        }
        out
    }
}
