//! Python bindings of the native agents (`workbench._native.Agent`, evaluation hooks).
//!
//! The evaluation's numbers come from Python (the data file's `ai_weights` and
//! `workbench.games.terrafeud.agents.evaluate.TERMS`): they are installed when the module is imported, and again
//! by `workbench.games.terrafeud.agents.native_agent`, so each worker process scores with the files' weights.

use std::sync::Mutex;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use super::eval::{self, EvalParams};
use super::{make_agent, Agent, Params};
use crate::bindings::{release, shield, PyState};

/// A native agent; `select_action(state)` searches in Rust with the GIL released.
#[pyclass(name = "Agent", module = "workbench._native", frozen)]
pub struct PyAgent {
    // A Mutex makes the agent shareable as Python requires; only one decision runs at a time.
    agent: Mutex<Box<dyn Agent>>,
}

#[pymethods]
impl PyAgent {
    /// `Agent(name, [(key, value), ...], seed_words)`; seed words as for `random.Random(seed)`.
    #[new]
    fn py_new(name: &str, params: Params, seed: Vec<u32>) -> PyResult<Self> {
        Ok(PyAgent { agent: Mutex::new(make_agent(name, &params, &seed).map_err(PyValueError::new_err)?) })
    }

    /// The action for the side to move in a native state, as the engine's tuple.
    /// Ctrl-C stops the search (KeyboardInterrupt); a panic becomes a RuntimeError.
    fn select_action<'py>(&self, py: Python<'py>, state: &PyState) -> PyResult<Bound<'py, PyTuple>> {
        let a = release(py, || {
            let mut agent = self.agent.lock().unwrap_or_else(|e| e.into_inner());
            agent.select_action(&mut state.lock_free())
        })?;
        PyTuple::new(py, a.to_vec())
    }

    /// Nodes (alphabeta, search) or iterations (mcts) of the last decision.
    #[getter]
    fn searched(&self) -> u64 {
        self.agent.lock().map(|a| a.searched()).unwrap_or(0)
    }

    /// Root value of the last decision (side to move's view), or None for agents without one.
    #[getter]
    fn score(&self) -> Option<f64> {
        self.agent.lock().ok().and_then(|a| a.score())
    }
}

/// Install the evaluation parameters: weight per kind code 0..8 and the named terms.
#[pyfunction]
fn set_eval_params(kind_weights: Vec<f64>, terms: Vec<(String, f64)>) -> PyResult<()> {
    if kind_weights.len() != 8 {
        return Err(PyValueError::new_err("set_eval_params: one weight per kind code 0..7"));
    }
    if let Some(bad) = kind_weights.iter().chain(terms.iter().map(|(_, v)| v)).find(|v| !v.is_finite()) {
        return Err(PyValueError::new_err(format!("set_eval_params: weights must be finite numbers, got {bad}")));
    }
    let mut w = [0.0; 8];
    w.copy_from_slice(&kind_weights);
    eval::set_params(EvalParams::from_parts(w, &terms).map_err(PyValueError::new_err)?);
    Ok(())
}

/// `evaluate(state, side)` in Rust (tests compare it with the Python evaluation).
#[pyfunction]
fn evaluate(py: Python<'_>, state: &PyState, side: usize) -> PyResult<f64> {
    let p = eval::params().map_err(PyValueError::new_err)?;
    shield(|| eval::evaluate(&mut state.lock(py), side.min(1), &p))
}

/// Read the weights from Python (data file and `evaluate.TERMS`) and install them.
fn install_from_python(py: Python<'_>) -> PyResult<()> {
    let ev = py.import("workbench.games.terrafeud.agents.evaluate")?;
    let weights: Vec<f64> = ev.call_method0("piece_weights")?.extract()?;
    // a dict, read in key order as the Python adapter hands it over (`sorted(TERMS.items())`)
    let terms: std::collections::BTreeMap<String, f64> = ev.getattr("TERMS")?.extract()?;
    set_eval_params(weights.into_iter().take(8).collect(), terms.into_iter().collect())
}

/// Register the agents' classes and functions in `workbench._native`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyAgent>()?;
    m.add_function(wrap_pyfunction!(set_eval_params, m)?)?;
    m.add_function(wrap_pyfunction!(evaluate, m)?)?;
    // Best effort: the Python adapter installs them too before any native agent plays.
    let _ = install_from_python(m.py());
    Ok(())
}
