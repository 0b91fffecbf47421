//! Restricted play for every game's bindings (`crate::core::restrict`): one whole game with barred
//! seats, played without the GIL, and what it returns to Python (`workbench/agents/restrict.py`'s
//! tallies). Each game's file adds a `play_barred` function that reads its own rules and position.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::{generic_params, release, MAX_PLIES};
use crate::core::generic::{self, Agent};
use crate::core::protocol::End;
use crate::core::pyrandom::PyRandom;
use crate::core::restrict::{play_barred, Barred, Classes, MAX_CLASSES};

/// One seat's tally for Python: (decisions, forced, actions played of each class).
pub(crate) type SeatTally = (u64, u64, Vec<u64>);

/// What a barred game returns: the final state, the legal counts of the decisions, one tally per seat,
/// and `(action, n_legal)` when an agent picked an action the real state does not allow (a view's pick).
pub(crate) type Played<G> = (G, Vec<usize>, Vec<SeatTally>, Option<(u32, usize)>);

/// Play `state` to its end with seat `i` the generic agent `agents[i]` barred from `masks[i]`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn play<G: Classes + 'static>(
    py: Python<'_>,
    game: &str,
    state: G,
    table: G::Table,
    agents: Vec<(String, Option<Bound<'_, PyDict>>, Vec<u32>)>,
    masks: Vec<u64>,
    n_classes: usize,
    chance_seed: Vec<u32>,
    max_plies: u32,
) -> PyResult<Played<G>> {
    let bad = |m: String| PyValueError::new_err(format!("native {game}: {m}"));
    if max_plies > MAX_PLIES {
        return Err(bad(format!("max_plies={max_plies} is above {MAX_PLIES}")));
    }
    if agents.len() != state.num_players() || masks.len() != agents.len() {
        return Err(bad(format!("one agent and one mask per seat ({})", state.num_players())));
    }
    if n_classes > MAX_CLASSES || masks.iter().any(|&m| n_classes < 64 && m >> n_classes != 0) {
        return Err(bad(format!("a mask names a class beyond the {n_classes} declared")));
    }
    let mut boxed: Vec<Box<dyn Agent<Barred<G>>>> = Vec::new();
    for (name, params, seed) in agents {
        let p = generic_params(game, params.as_ref())?;
        boxed.push(
            generic::make::<Barred<G>>(&name, PyRandom::from_key(&seed), &p)
                .ok_or_else(|| bad(format!("no native barred agent {name:?}; known: {:?}", generic::NAMES)))?,
        );
    }
    let mut chance = PyRandom::from_key(&chance_seed);
    let (end, tallies, n_legal, st) = release(py, move || {
        let mut st = Barred::new(state, std::sync::Arc::new(table));
        let mut n_legal = Vec::new();
        let (end, t) =
            play_barred(&mut st, &mut boxed, &masks, n_classes, || chance.random(), max_plies as usize, &mut n_legal);
        (end, t, n_legal, st.into_inner())
    })?;
    let illegal = match end {
        End::Done => None,
        End::Illegal { action, n_legal } => Some((action, n_legal)),
        End::Stopped => return Err(bad("stopped".into())),
    };
    let tallies = tallies.into_iter().map(|t| (t.decisions, t.forced, t.classes)).collect();
    Ok((st, n_legal, tallies, illegal))
}
