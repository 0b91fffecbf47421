//! Whole games inside the core (`protocol_play.play_protocol_game`'s loop through `protocol::play`) and
//! random playouts; the trace holds what the Python path records per ply, so the bindings build the same
//! games and events rows.

use super::state::{State, D};
use crate::core::generic::Agent;
use crate::core::protocol::{self, End, Game};
use crate::core::pyrandom::PyRandom;

/// Per-ply record of a native game.
#[derive(Default, Clone)]
pub struct Trace {
    pub actions: Vec<String>,
    /// the mover's own legal actions before the action
    pub n_legal: Vec<u64>,
    pub movers: Vec<u8>,
    /// events only: the event row's fields before the action (kind, piece, turn) ...
    pub kinds: Vec<&'static str>,
    pub pieces: Vec<String>,
    pub turns: Vec<i64>,
    /// ... every player's treasury and trophies before the action (flattened, players per ply)
    pub treasury: Vec<i64>,
    pub trophies: Vec<i64>,
    /// `fired()` after each action, flattened; `fired_end[i]` ends ply i's slice
    pub fired: Vec<(u8, u8, i32)>,
    pub fired_end: Vec<u32>,
    pub stopped: bool,
}

/// The event row's `kind` of a descriptor.
pub fn kind_name(d: &D) -> &'static str {
    match d {
        D::Place { .. } => "place",
        D::Remove { .. } => "remove",
        D::Reloc { .. } => "reloc",
        D::Ready { .. } => "ready",
        D::Move { .. } => "move",
        D::Strike { .. } => "strike",
        D::Take { .. } => "take",
        D::Area { .. } => "area",
        D::Push { .. } => "push",
        D::Buy { .. } => "buy",
        D::Transform { .. } => "transform",
        D::Pbuy { .. } => "pbuy",
        D::Pass => "pass",
        D::Vet { .. } => "vet",
    }
}

/// The event row's `piece`: the acting piece's card, or the card bought.
pub fn piece_key(st: &State, d: &D) -> String {
    let ctx = &st.ctx;
    match *d {
        D::Move { s, .. }
        | D::Strike { s, .. }
        | D::Take { s, .. }
        | D::Push { s, .. }
        | D::Area { s }
        | D::Vet { s, .. } => {
            st.c.pieces[s as usize].map(|p| ctx.cards[p.card as usize].key.clone()).unwrap_or_default()
        }
        D::Buy { k, .. } | D::Transform { k, .. } => ctx.cards[k as usize].key.clone(),
        _ => String::new(),
    }
}

/// Play `state` to its end or `max_plies` actions since it was created (`move_number`).
pub fn play(state: &mut State, agents: &mut [Box<dyn Agent<State>>], max_plies: u64, events: bool) -> Trace {
    let mut tr = Trace::default();
    let cap = usize::try_from(max_plies).unwrap_or(usize::MAX);
    let np = state.np();
    let end = protocol::play(
        state,
        agents,
        || 0.0,
        cap,
        |st, action, n, before| {
            if before {
                let d = st.find(action).expect("a legal action");
                tr.actions.push(st.text(&d));
                tr.n_legal.push(n as u64);
                tr.movers.push(st.current_player() as u8);
                if events {
                    tr.kinds.push(kind_name(&d));
                    tr.pieces.push(piece_key(st, &d));
                    tr.turns.push(st.c.turn_no);
                    tr.treasury.extend_from_slice(&st.c.treasury);
                    let mut tro = vec![0i64; np];
                    for pc in st.c.pieces.iter().flatten() {
                        tro[pc.owner as usize] += pc.trophies;
                    }
                    tr.trophies.extend_from_slice(&tro);
                }
            } else if events {
                tr.fired.extend_from_slice(&st.c.fired);
                tr.fired_end.push(tr.fired.len() as u32);
            }
        },
    );
    tr.stopped = end == End::Stopped;
    tr
}

/// Random playouts (`protocolbench.protocol_playouts`'s loop: `rng.choice(legal_actions())`, in the setup
/// phase over every unready player's actions): actions played.
pub fn random_playout(state: &mut State, rng: &mut PyRandom, max_actions: u64) -> u64 {
    let mut n = 0;
    state.set_record(false);
    while !state.is_terminal() && n < max_actions {
        let legal = state.all_legal();
        let d = rng.choice(&legal).expect("a legal action").d;
        state.apply_desc(d);
        n += 1;
    }
    n
}
