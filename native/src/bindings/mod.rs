//! PyO3 bindings: the module `workbench._native`, one file per game (`terrafeud` at the top level,
//! `pole` and `cursed_lands` as the submodules `workbench._native.pole` and
//! `workbench._native.cursed_lands`), and here what they share: long work without the GIL, a panic
//! turned into a Python error, Ctrl-C, the core's `PyRandom`, and the `#[pymodule]` that registers
//! everything.
//!
//! Every game's bindings range-check what they are given (a library's public surface), cap
//! `max_plies`, and make a panic inside a core a `RuntimeError` (pyo3's own `PanicException` is a
//! `BaseException` that `except Exception` misses); long loops run without the GIL but poll for
//! Ctrl-C (`crate::core::interrupt`).

use std::cell::RefCell;
use std::panic::{catch_unwind, AssertUnwindSafe};

use pyo3::exceptions::{PyKeyboardInterrupt, PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use crate::core::pyrandom::PyRandom as Mt;

mod big_chess;
mod cursed_lands;
pub(crate) mod kit;
mod pole;
mod restrict;
mod terrafeud;

/// The longest game the bindings play (`workbench/simulate/guard.py`'s `MAX_PLIES`): a trace of
/// this many plies is about 100 MB, where 2^32 - 1 on an all-pass position would exhaust memory.
pub const MAX_PLIES: u32 = 1_000_000;

thread_local! {
    /// The Python error (KeyboardInterrupt, or whatever a signal handler raised) that stopped native work.
    static PENDING: RefCell<Option<PyErr>> = const { RefCell::new(None) };
}

/// `interrupt` hook: re-take the GIL briefly and run Python's signal handlers.
fn python_signals() -> bool {
    Python::with_gil(|py| match py.check_signals() {
        Ok(()) => false,
        Err(e) => {
            PENDING.with(|p| *p.borrow_mut() = Some(e));
            true
        }
    })
}

fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_string())
}

/// Run core code with the GIL held, a panic turned into a `RuntimeError`.
pub(crate) fn shield<R>(f: impl FnOnce() -> R) -> PyResult<R> {
    catch_unwind(AssertUnwindSafe(f))
        .map_err(|p| PyRuntimeError::new_err(format!("native core failed (a bug, please report): {}", panic_text(&*p))))
}

/// Run long core work without the GIL: Ctrl-C stops it within about a second (the Python error
/// is raised instead of the partial result), and a panic becomes a `RuntimeError`.
pub(crate) fn release<R: Send>(py: Python<'_>, f: impl FnOnce() -> R + Send) -> PyResult<R> {
    let (out, stopped) = py.allow_threads(|| {
        crate::core::interrupt::guarded(python_signals, || {
            catch_unwind(AssertUnwindSafe(f)).map_err(|p| panic_text(&*p))
        })
    });
    if stopped {
        let err = PENDING.with(|p| p.borrow_mut().take());
        return Err(err.unwrap_or_else(|| PyKeyboardInterrupt::new_err("native work interrupted")));
    }
    out.map_err(|m| PyRuntimeError::new_err(format!("native core failed (a bug, please report): {m}")))
}

/// The generic agents' parameters (`workbench.agents.generic`'s `check_param` ranges, which the Python
/// twin has already applied; here again because the bindings are a public surface), one reader for every
/// protocol game; `game` names the submodule in the error.
pub(crate) fn generic_params(
    game: &str,
    d: Option<&Bound<'_, pyo3::types::PyDict>>,
) -> PyResult<crate::core::generic::Params> {
    let bad = |msg: String| PyValueError::new_err(format!("native {game}: {msg}"));
    let mut p = crate::core::generic::Params::default();
    let Some(d) = d else { return Ok(p) };
    for (k, v) in d.iter() {
        let key: String = k.extract()?;
        if key == "eval" {
            // learned weights, resolved by file name in Python (`core.weights.weights_vector`)
            let w: Vec<f64> = v.extract().map_err(|e| bad(format!("eval: a list of weights: {e}")))?;
            if w.is_empty() || w.len() > 4096 || w.iter().any(|x| !x.is_finite()) {
                return Err(bad(format!("eval: {} weights; 1 to 4096 finite numbers", w.len())));
            }
            p.weights = Some(w.into());
            continue;
        }
        if key == "opening_seed" {
            // the batch's opening seed (a 63-bit int, `GameSpec.opening_seed`): exact, never a float
            let s: i128 = v.extract().map_err(|e| bad(format!("opening_seed: an integer: {e}")))?;
            let plies = p.opening.map_or(0, |(n, _)| n);
            p.opening = Some((plies, s));
            continue;
        }
        let f: f64 = v.extract().map_err(|e| bad(format!("agent parameter {key}: {e}")))?;
        if !f.is_finite() || f < 0.0 {
            return Err(bad(format!("agent parameter {key}={f} must be a finite number >= 0")));
        }
        match key.as_str() {
            "depth" => p.depth = Some((f as u32).clamp(1, 8)),
            "nodes" => p.nodes = Some((f as u64).clamp(1, 5_000_000)),
            "seconds" => p.seconds = Some(f.clamp(0.01, 5.0)),
            "iterations" => p.iterations = Some((f as u32).clamp(1, 1_000_000)),
            "c" => p.c = Some(f.min(10.0)),
            "rollout" => p.rollout = Some((f as u32).min(10_000)),
            "scale" => p.scale = Some(f.clamp(0.001, 1e9)),
            "beam" => p.beam = Some((f as u32).clamp(1, 256)),
            "steps" => p.steps = Some((f as u32).clamp(1, 64)),
            "reply" => p.reply = Some((f as u32).min(3)),
            "odds" => p.odds = Some((f as u32).min(1)),
            "prior" => p.prior = Some((f as u32).min(1)),
            "opening" => p.opening = Some(((f as u32).min(10_000), p.opening.map_or(0, |(_, s)| s))),
            "epsilon" => p.epsilon = Some(f.min(1.0)),
            _ => return Err(bad(format!("unknown agent parameter {key:?}"))),
        }
    }
    Ok(p)
}

/// For the tests: panic inside the guards (`released`: with the GIL released, as long work runs),
/// so they can check that a panic reaches Python as a `RuntimeError` that `except Exception` catches.
#[pyfunction]
#[pyo3(signature = (released = false))]
fn _panic_for_tests(py: Python<'_>, released: bool) -> PyResult<()> {
    if released {
        release(py, || panic!("a deliberate panic (released)"))
    } else {
        shield(|| panic!("a deliberate panic"))
    }
}

/// CPython's `random.Random` stream, exposed for the equality tests.
#[pyclass(name = "PyRandom", module = "workbench._native")]
pub struct PyRng {
    rng: Mt,
}

#[pymethods]
impl PyRng {
    /// Seeded from the little-endian 32-bit words of `abs(seed)`.
    #[new]
    fn py_new(key: Vec<u32>) -> Self {
        PyRng { rng: Mt::from_key(&key) }
    }

    fn random(&mut self) -> f64 {
        self.rng.random()
    }

    fn getrandbits(&mut self, k: u32) -> PyResult<u64> {
        if k > 64 {
            return Err(PyValueError::new_err("getrandbits: at most 64 bits natively"));
        }
        Ok(self.rng.getrandbits(k))
    }

    /// `random.Random._randbelow(n)`; 0 is refused (it would loop forever holding the GIL).
    fn randbelow(&mut self, n: u64) -> PyResult<u64> {
        if n == 0 {
            return Err(PyValueError::new_err("randbelow: n must be at least 1"));
        }
        Ok(self.rng.randbelow(n))
    }

    fn shuffle(&mut self, items: Vec<i64>) -> Vec<i64> {
        let mut v = items;
        self.rng.shuffle(&mut v);
        v
    }

    fn uniform(&mut self, a: f64, b: f64) -> PyResult<f64> {
        if !a.is_finite() || !b.is_finite() {
            return Err(PyValueError::new_err("uniform: the bounds must be finite numbers"));
        }
        Ok(self.rng.uniform(a, b))
    }
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyRng>()?;
    m.add_function(wrap_pyfunction!(_panic_for_tests, m)?)?;
    m.add("MAX_PLIES", MAX_PLIES)?;
    terrafeud::register(m)?; // TerraFeud at the top level (bindings/terrafeud.rs)
    pole::register(m)?; // workbench._native.pole (bindings/pole.rs)
    cursed_lands::register(m)?; // workbench._native.cursed_lands (bindings/cursed_lands.rs)
    big_chess::register(m)?; // workbench._native.big_chess (bindings/big_chess.rs)
    Ok(())
}
