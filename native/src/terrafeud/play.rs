//! Whole games inside Rust: no Python call per ply, so the GIL can be released for the game.
//! The trace (actions, legal-action counts, boards) is what `workbench/simulate/core.py` turns
//! into the same games row and events rows as the Python path.

use crate::terrafeud::agents::Agent;
use crate::terrafeud::geometry::N_HEXES;
use crate::terrafeud::state::{Action, Fired, State};

/// What one game produced, ply by ply.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    pub actions: Vec<Action>,
    /// Legal actions the mover had at each ply.
    pub n_legal: Vec<usize>,
    /// The board before each ply and after the last (when asked): (plies + 1) * 91 codes.
    pub boards: Vec<u8>,
    /// Rules fired by each ply's action.
    pub fired: Vec<Vec<Fired>>,
    pub error: Option<String>,
}

/// Play `state` to its end or `max_plies` with one agent per side (or until `interrupt::poll` stops it).
pub fn play_game(state: &mut State, agents: &mut [Box<dyn Agent>; 2], max_plies: u32, boards: bool) -> Trace {
    let mut tr = Trace::default();
    while !state.is_terminal() && state.ply() < max_plies && !crate::core::interrupt::poll() {
        let side = state.current_player();
        let n = state.n_legal();
        let action = agents[side].select_action(state);
        if boards {
            tr.boards.extend_from_slice(state.squares());
        }
        state.apply(&action);
        tr.actions.push(action);
        tr.n_legal.push(n);
        tr.fired.push(state.fired().to_vec());
    }
    if boards {
        tr.boards.extend_from_slice(state.squares());
    }
    debug_assert!(tr.boards.is_empty() || tr.boards.len() == (tr.actions.len() + 1) * N_HEXES);
    tr
}
