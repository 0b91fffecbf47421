//! Whole games inside the core (`workbench/simulate/protocol_play.py`'s loop): the trace it returns
//! is what the Python path records per ply, so the bindings can build the same games and events rows.

use super::agents::Agent;
use super::geo;
use super::state::State;

/// Per-ply record of a native game.
#[derive(Default, Clone)]
pub struct Trace {
    pub actions: Vec<u32>,
    /// legal actions of the mover before the action
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
}

/// Play `state` to its end or `max_plies` actions since it was created (`move_number`).
pub fn play(state: &mut State, agents: &mut [Agent; 2], max_plies: u64, events: bool) -> Trace {
    let mut tr = Trace::default();
    let mut legal = Vec::new();
    while !state.is_terminal() && state.c.moves < max_plies {
        if crate::interrupt::poll() {
            tr.stopped = true;
            break;
        }
        let p = state.c.to_move as usize;
        let (action, n) = match &mut agents[p] {
            Agent::Random(rng) if !state.c.setup => {
                state.legal_actions(&mut legal);
                (*rng.choice(&legal).expect("random: no action"), legal.len() as u64)
            }
            agent => (agent.select_action(state), state.legal_count() as u64),
        };
        tr.actions.push(action);
        tr.n_legal.push(n);
        if events {
            tr.sides.push(p as u8);
            tr.ap_before.push(state.c.ap);
            tr.tops.push(state.deck_top(p).unwrap_or(0));
        }
        state.apply(action);
        if events {
            tr.turns.push(state.c.turn);
            tr.fired.extend_from_slice(state.fired());
            tr.fired_end.push(tr.fired.len() as u32);
        }
    }
    tr
}

/// Random playouts (`protocolbench.protocol_playouts`'s loop, uniform choice): actions played.
pub fn random_playout(state: &mut State, rng: &mut crate::pyrandom::PyRandom, max_actions: u64) -> u64 {
    let mut n = 0;
    let mut legal = Vec::new();
    while !state.is_terminal() && n < max_actions {
        let a = if state.c.setup {
            let k = state.rules.starting_units as usize;
            geo::camp_at(k, rng.choice_index(geo::camp_count(k)).expect("camp"))
        } else {
            state.legal_actions(&mut legal);
            *rng.choice(&legal).expect("random: no action")
        };
        state.apply(a);
        n += 1;
    }
    n
}
