//! The bindings kit of the protocol games: what every game whose core implements
//! [`crate::core::protocol::Game`] exposes the same way, written once.
//!
//! - [`generic_agent`] / [`generic_agent_of`]: a generic agent (`crate::core::generic`) by name, its
//!   parameters read by `generic_params`, seeded as `random.Random(seed)`.
//! - [`Held`]: a seeded agent kept between decisions, searching a copy of a state without the GIL.
//! - [`generic_agent_class!`](crate::generic_agent_class): the `Agent` class of a game's submodule over
//!   `Held` (one line per game).
//! - [`per_ply`]: a whole game's flattened `fired` lists cut back into one list per ply.
//! - [`submodule`]: a game's submodule `workbench._native.<name>`, with `has_agent` and `AGENTS`, registered
//!   in `sys.modules` so `import workbench._native.<name>` works.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use super::{generic_params, release};
use crate::core::generic::{self, Agent, NAMES};
use crate::core::protocol::{Game, CHANCE, TERMINAL};
use crate::core::pyrandom::PyRandom;

/// `(name, params or None, seed)`: how Python names a seat's generic agent.
pub(crate) type AgentSpec<'py> = (String, Option<Bound<'py, PyDict>>, i128);

/// A `ValueError` naming the game's core: `native <game>: <msg>`.
pub(crate) fn bad(game: &str, msg: String) -> PyErr {
    PyValueError::new_err(format!("native {game}: {msg}"))
}

/// Field `key` of a state's fields dict, read as `T`; an error naming the field when it is missing or of
/// the wrong type (the adapters send checked values, but the module is a public surface).
pub(crate) fn field<'py, T: FromPyObject<'py>>(game: &str, d: &Bound<'py, PyDict>, key: &str) -> PyResult<T> {
    match d.get_item(key)? {
        Some(v) => v.extract::<T>().map_err(|e| bad(game, format!("field {key:?}: {e}"))),
        None => Err(bad(game, format!("missing field {key:?}"))),
    }
}

/// The generic agent `name` over `G` with its parameters, seeded as `random.Random(seed)`; `game` names the
/// submodule in errors.
pub(crate) fn generic_agent<G: Game + 'static>(
    game: &str,
    name: &str,
    params: Option<&Bound<'_, PyDict>>,
    seed: i128,
) -> PyResult<Box<dyn Agent<G>>> {
    let p = generic_params(game, params)?;
    generic::make::<G>(name, PyRandom::new(seed), &p)
        .ok_or_else(|| bad(game, format!("no native agent {name:?}; known: {NAMES:?}")))
}

/// [`generic_agent`] of a Python `(name, params, seed)` tuple.
pub(crate) fn generic_agent_of<G: Game + 'static>(game: &str, spec: &Bound<'_, PyAny>) -> PyResult<Box<dyn Agent<G>>> {
    let (name, params, seed): AgentSpec<'_> = spec.extract()?;
    generic_agent(game, &name, params.as_ref(), seed)
}

/// One generic agent per seat from a Python list of `(name, params, seed)`; an error unless there are `seats`.
pub(crate) fn seat_agents<G: Game + 'static>(
    game: &str,
    agents: &Bound<'_, PyList>,
    seats: usize,
) -> PyResult<Vec<Box<dyn Agent<G>>>> {
    if agents.len() != seats {
        return Err(bad(game, format!("play_game takes one agent per seat ({seats}), not {}", agents.len())));
    }
    agents.iter().map(|a| generic_agent_of(game, &a)).collect()
}

/// `play(state)` run without the GIL (a whole game): its result and the state it leaves.
pub(crate) fn play_released<G: Send, T: Send>(
    py: Python<'_>,
    mut state: G,
    play: impl FnOnce(&mut G) -> T + Send,
) -> PyResult<(T, G)> {
    release(py, move || {
        let out = play(&mut state);
        (out, state)
    })
}

/// A seeded agent that keeps its stream between decisions (the `Agent` classes of the submodules).
pub(crate) struct Held<G: Game> {
    game: &'static str,
    agent: Option<Box<dyn Agent<G>>>,
}

impl<G: Game + Clone + 'static> Held<G> {
    pub(crate) fn new(
        game: &'static str,
        name: &str,
        params: Option<&Bound<'_, PyDict>>,
        seed: i128,
    ) -> PyResult<Self> {
        Ok(Held { game, agent: Some(generic_agent(game, name, params, seed)?) })
    }

    /// The action the agent picks in `st` (a copy, searched without the GIL); an error when no player is to
    /// move (chance or the game's end).
    pub(crate) fn select(&mut self, py: Python<'_>, mut st: G) -> PyResult<u32> {
        let player = st.current_player();
        if player == TERMINAL || player == CHANCE || st.is_terminal() {
            return Err(bad(self.game, "select_action: no player to move (chance or the game is over)".into()));
        }
        let mut agent = self.agent.take().ok_or_else(|| bad(self.game, "agent busy".into()))?;
        let out = release(py, move || {
            let a = agent.select_action(&mut st);
            (a, agent)
        });
        // a panic or Ctrl-C loses the agent: the next call says "agent busy" rather than guessing its stream
        let (a, agent) = out?;
        self.agent = Some(agent);
        Ok(a)
    }

    /// The last decision's (score, nodes searched): alphabeta, search and plan's root value and nodes, mcts's
    /// mean reward and visits; (0, 0) for random and greedy.
    pub(crate) fn stats(&self) -> PyResult<(f64, u64)> {
        self.agent.as_ref().map(|a| a.stats()).ok_or_else(|| bad(self.game, "agent busy".into()))
    }
}

/// The `Agent` class of a protocol game's submodule: `Agent(name, params, seed)`, `select_action(state)` (the
/// action's dense int, searched without the GIL) and `stats()`. `$pystate` is the submodule's state class;
/// the copy searched is its field `st` (a `$state`), or what `$copy(py, state)` returns (a `PyResult<$state>`).
#[macro_export]
macro_rules! generic_agent_class {
    ($class:ident, $state:ty, $pystate:ty, $module:literal, $game:literal) => {
        $crate::generic_agent_class!($class, $state, $pystate, $module, $game, |_py: Python<'_>, s: &$pystate| {
            Ok::<$state, PyErr>(s.st.clone())
        });
    };
    ($class:ident, $state:ty, $pystate:ty, $module:literal, $game:literal, $copy:expr) => {
        /// A seeded native generic agent that keeps its stream between decisions.
        #[pyclass(name = "Agent", module = $module, unsendable)]
        pub struct $class {
            held: $crate::bindings::kit::Held<$state>,
        }

        #[pymethods]
        impl $class {
            #[new]
            #[pyo3(signature = (name, params, seed))]
            fn new(name: String, params: Option<Bound<'_, PyDict>>, seed: i128) -> PyResult<Self> {
                Ok($class { held: $crate::bindings::kit::Held::new($game, &name, params.as_ref(), seed)? })
            }

            /// The action's dense int, searched without the GIL on a copy of `state`.
            fn select_action(&mut self, py: Python<'_>, state: &$pystate) -> PyResult<u32> {
                let st: $state = ($copy)(py, state)?;
                self.held.select(py, st)
            }

            /// The last decision's (score, nodes searched); (0, 0) for random and greedy.
            fn stats(&self) -> PyResult<(f64, u64)> {
                self.held.stats()
            }
        }
    };
}

/// A whole game's flattened list cut back into one list per ply (`ends[i]` ends ply i's slice), each item
/// mapped by `f`.
pub(crate) fn per_ply<T, U>(items: &[T], ends: &[u32], mut f: impl FnMut(&T) -> U) -> Vec<Vec<U>> {
    let mut out = Vec::with_capacity(ends.len());
    let mut start = 0usize;
    for &end in ends {
        let end = (end as usize).min(items.len()).max(start);
        out.push(items[start..end].iter().map(&mut f).collect());
        start = end;
    }
    out
}

/// True when `name` has a native generic twin (every protocol game's core holds the same agents).
#[pyfunction]
fn has_agent(name: &str) -> bool {
    NAMES.contains(&name)
}

/// The submodule `workbench._native.<name>`: `fill` adds the game's classes and functions; `has_agent` and
/// `AGENTS` (the generic agents' names) are added here.
pub(crate) fn submodule(
    parent: &Bound<'_, PyModule>,
    name: &str,
    fill: impl FnOnce(&Bound<'_, PyModule>) -> PyResult<()>,
) -> PyResult<()> {
    let py = parent.py();
    let sub = PyModule::new(py, name)?;
    sub.add_function(wrap_pyfunction!(has_agent, &sub)?)?;
    sub.add("AGENTS", NAMES.to_vec())?;
    fill(&sub)?;
    parent.add_submodule(&sub)?;
    py.import("sys")?.getattr("modules")?.set_item(format!("workbench._native.{name}"), &sub)?;
    Ok(())
}
