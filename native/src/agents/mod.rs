//! Native agents, built from the same spec strings as `workbench.agents.make_agent`
//! (`random`, `alphabeta:depth=2`, ...). Each one is seeded with CPython's random stream so a
//! seeded native agent picks what its Python twin picks.

pub mod random;

use crate::pyrandom::PyRandom;
use crate::state::{Action, State};

/// What every native agent does: pick an action, leaving the state as it found it.
pub trait Agent: Send {
    /// The action to play in `state` (which must not be terminal).
    fn select_action(&mut self, state: &mut State) -> Action;
}

/// A parameter value as parsed by `workbench.agents.parse_agent_spec` (ints, floats, words).
pub type Params = Vec<(String, String)>;

/// Build an agent by name; `seed` is the little-endian 32-bit words of `abs(seed)`.
/// An unknown name or parameter is an error naming it (the caller falls back or reports it).
pub fn make_agent(name: &str, params: &Params, seed: &[u32]) -> Result<Box<dyn Agent>, String> {
    let rng = PyRandom::from_key(seed);
    match name {
        "random" => {
            if let Some((k, _)) = params.first() {
                return Err(format!("agent random takes no parameter {k:?}"));
            }
            Ok(Box::new(random::RandomAgent { rng }))
        }
        _ => Err(format!("no native agent {name:?}")),
    }
}

/// Whether `name` has a native implementation (the Python adapter asks before choosing native play).
pub fn has_native(name: &str) -> bool {
    matches!(name, "random")
}
