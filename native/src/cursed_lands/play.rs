//! Whole games inside the core (`workbench/simulate/protocol_play.py`'s loop, `protocol::play`): the
//! trace it returns is what the Python path records per ply, so the bindings can build the same games
//! and events rows.

use super::state::State;
use crate::core::generic::Agent;
use crate::core::protocol::{self, End, Game};

/// Per-ply record of a native game.
#[derive(Default, Clone)]
pub struct Trace {
    pub actions: Vec<u32>,
    /// legal actions of the mover before the action (one more at an illegal pick, as Python counts it)
    pub n_legal: Vec<u64>,
    pub sides: Vec<u8>,
    /// `turn()` after the action
    pub turns: Vec<i64>,
    pub ap_before: Vec<i32>,
    /// top tile of the mover's deck before the action (0 when empty)
    pub tops: Vec<u8>,
    /// `fired()` after each action, flattened; `fired_end[i]` ends ply i's slice
    pub fired: Vec<(u8, u8, i8)>,
    pub fired_end: Vec<u32>,
    /// stopped by an interrupt
    pub stopped: bool,
    /// The action an agent picked on its view that the real state does not allow (hidden deck top):
    /// the game stops before it, where the Python loop's `apply_action` raises.
    pub illegal: Option<u32>,
}

/// Play `state` to its end or `max_plies` actions since it was created (`move_number`).
pub fn play(state: &mut State, agents: &mut [Box<dyn Agent<State>>], max_plies: u64, events: bool) -> Trace {
    let mut tr = Trace::default();
    let cap = usize::try_from(max_plies).unwrap_or(usize::MAX);
    let end = protocol::play(
        state,
        agents,
        || 0.0,
        cap,
        |st, action, n, before| {
            if before {
                tr.actions.push(action);
                tr.n_legal.push(n as u64);
                if events {
                    let p = st.c.to_move as usize;
                    tr.sides.push(p as u8);
                    tr.ap_before.push(st.c.ap);
                    tr.tops.push(st.deck_top(p).unwrap_or(0));
                }
            } else if events {
                tr.turns.push(st.c.turn);
                tr.fired.extend_from_slice(st.fired());
                tr.fired_end.push(tr.fired.len() as u32);
            }
        },
    );
    match end {
        End::Done => {}
        End::Stopped => tr.stopped = true,
        End::Illegal { action, n_legal } => {
            tr.illegal = Some(action);
            tr.n_legal.push(n_legal as u64);
        }
    }
    tr
}

/// Random playouts (`protocolbench.protocol_playouts`'s loop, uniform choice): actions played.
pub fn random_playout(state: &mut State, rng: &mut crate::core::pyrandom::PyRandom, max_actions: u64) -> u64 {
    let mut n = 0;
    let mut legal = Vec::new();
    while !state.is_terminal() && n < max_actions {
        let a = Game::random_action(state, rng, &mut legal);
        state.apply(a);
        n += 1;
    }
    n
}
