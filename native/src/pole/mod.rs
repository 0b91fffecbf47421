//! Pole (Поле) natively: `workbench/games/pole` ported exactly (the Python engine is the
//! specification). `tables` holds the rules and the per-game tables, `state` the game; the agents
//! are the generic ones (`crate::core::generic`) over [`state::State`]'s evaluation, and Pole's own
//! `turtle` (the contract's section-15 player, `turtle`).

pub mod classes;
pub mod state;
pub mod tables;
pub mod turtle;

#[cfg(test)]
mod tests;

use std::sync::Arc;

use crate::core::generic::Agent;
use crate::core::protocol::{play, Game, CHANCE};
use crate::core::pyrandom::PyRandom;
pub use state::State;
pub use tables::{Rules, Tables};

/// One ply of a played game: what the events rows need, read before and after the action.
#[derive(Clone, Debug, Default)]
pub struct Ply {
    pub action: u32,
    pub n_legal: usize,
    /// Before the action: phase (3 = dice), turn, side to move, coins, the pending attack.
    pub phase: u8,
    pub turn: i64,
    pub side: u8,
    pub coins: [i64; 2],
    pub pending: i32,
    /// An attack's summed success counts (-1 otherwise); a chance outcome's removed cells.
    pub chance36: i64,
    pub removed: u128,
    /// The piece codes on those cells before the outcome (in cell order), so a row names what died.
    pub removed_codes: Vec<u8>,
    /// After the action: the turn and the fired events.
    pub turn_after: i64,
    pub fired: Vec<(u8, u8, u8)>,
}

/// Play one game from `state`; `events` keeps every ply's record (else only the count).
pub fn play_game(
    state: &mut State,
    agents: &mut [Box<dyn Agent<State>>],
    chance_rng: &mut PyRandom,
    max_plies: usize,
    events: bool,
) -> (Vec<Ply>, Vec<usize>) {
    let mut plies: Vec<Ply> = Vec::new();
    let mut n_legal: Vec<usize> = Vec::new();
    play(
        state,
        agents,
        || chance_rng.random(),
        max_plies,
        |s, action, n, before| {
            if !before {
                if let Some(last) = plies.last_mut() {
                    last.turn_after = s.pos.turn;
                    last.fired = s.fired();
                }
                return;
            }
            let chance = s.current_player() == CHANCE;
            if !chance {
                n_legal.push(n);
            }
            if events {
                let p = &s.pos;
                let attack = !chance && action >= state::ATT0;
                plies.push(Ply {
                    action,
                    n_legal: n,
                    phase: if chance { 3 } else { p.phase },
                    turn: p.turn,
                    side: p.to_move,
                    coins: p.coins,
                    pending: p.pending,
                    chance36: if attack { s.expected36(action) } else { -1 },
                    removed: if chance { s.hits(action) } else { 0 },
                    removed_codes: if chance {
                        state::bits(s.hits(action)).map(|c| p.board[c]).collect()
                    } else {
                        Vec::new()
                    },
                    ..Ply::default()
                });
            }
        },
    );
    (plies, n_legal)
}

/// `protocol_playouts`: uniformly random actions and chance from `random.Random(seed * 100003 + g)`,
/// the same stream as the Python benchmark, so the action counts agree. Returns the actions played.
pub fn random_playouts(tables: &Arc<Tables>, start: &State, games: u64, seed: i64, max_actions: usize) -> u64 {
    let mut total = 0u64;
    let mut legal = Vec::new();
    let mut outs = Vec::new();
    for g in 0..games {
        let mut rng = PyRandom::new(seed as i128 * 100_003 + g as i128);
        let mut st = State::new(Arc::clone(tables), start.pos);
        let mut n = 0usize;
        while !st.is_terminal() && n < max_actions {
            if crate::core::interrupt::poll() {
                return total;
            }
            if st.current_player() == CHANCE {
                st.chance_outcomes(&mut outs);
                let o = crate::core::protocol::sample_outcome(&outs, rng.random());
                st.apply(o);
            } else {
                st.legal(&mut legal);
                let a = *rng.choice(&legal).expect("a running game has an action");
                st.apply(a);
            }
            n += 1;
        }
        total += n as u64;
    }
    total
}
