//! TerraFeud's bindings, at the top level of `workbench._native` (as they have always been): `State`,
//! `Agent`, `play_game` and `random_playouts` (GIL released), `has_agent`, the evaluation hooks and
//! the constants. The Python adapter (`workbench/native.py`) builds the dicts read here from a Python
//! `Game`/`GameState`, so terrain, rules and the start position always come from the Python engine.
//!
//! This is a library's public surface, so it checks what it is given even though the adapter
//! only sends checked values: every number of a setup and of the rules is range-checked (a hex
//! of 128 must not wrap into a bit set), `max_plies` is capped.
//!
//! Threads: a `State` is `frozen` and keeps its core behind a mutex, so two Python threads may
//! share one (one call runs at a time; a thread that finds it busy waits without holding the GIL).
//!
//! The agents' evaluation numbers come from Python (the data file's `ai_weights` and
//! `workbench.games.terrafeud.agents.evaluate.TERMS`): they are installed when the module is imported,
//! and again by `workbench.games.terrafeud.agents.native_agent`, so each worker process scores with the
//! files' weights.

use std::sync::{Arc, Mutex, MutexGuard, TryLockError};

use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyTuple};

use super::kit::{play_released, seat_agents, submodule};
use super::{release, shield, MAX_PLIES};
use crate::core::pyrandom::PyRandom as Mt;
use crate::terrafeud::agents::eval::{self, EvalParams};
use crate::terrafeud::agents::{has_native, make_agent, Agent, Params};
use crate::terrafeud::board::{Board, Tables, TerrainSpec};
use crate::terrafeud::geometry::N_HEXES;
use crate::terrafeud::play::play_game as play_rust;
use crate::terrafeud::protocol::{TerraFeud, ORDER0, PASS_ID};
use crate::terrafeud::rules::{Castling, MateDefence, Rules};
use crate::terrafeud::state::{perft, Action, Setup, State, Victory, MAX_COUNTERS, MAX_MARKERS, RULES};

/// Largest ply, quiet count and rule counter a setup may carry (room to play on without overflow).
const MAX_COUNT: u32 = u32::MAX / 2;
/// The rule parameters' ranges (`workbench/games/terrafeud/engine/rules.py`, `_INTS`; distances up to the diameter).
const MAX_DISTANCE: u8 = 10;
const DRAW_AFTER_MAX: u32 = 1_000_000;

fn bad(msg: String) -> PyErr {
    PyValueError::new_err(format!("native: {msg}"))
}

fn check_hex(field: &str, h: usize) -> PyResult<()> {
    if h >= N_HEXES {
        return Err(bad(format!("field {field:?}: hex {h} is out of range 0..{}", N_HEXES - 1)));
    }
    Ok(())
}

fn check_count(field: &str, v: u32) -> PyResult<()> {
    if v > MAX_COUNT {
        return Err(bad(format!("field {field:?}: {v} is out of range 0..{MAX_COUNT}")));
    }
    Ok(())
}

fn check_range(field: &str, v: u8, lo: u8, hi: u8) -> PyResult<u8> {
    if !(lo..=hi).contains(&v) {
        return Err(bad(format!("rule {field}={v} is out of range {lo}..{hi}")));
    }
    Ok(v)
}

fn get<'py, T: FromPyObject<'py>>(d: &Bound<'py, PyDict>, key: &str) -> PyResult<T> {
    match d.get_item(key)? {
        Some(v) => v.extract::<T>().map_err(|e| PyValueError::new_err(format!("native: field {key:?}: {e}"))),
        None => Err(PyValueError::new_err(format!("native: missing field {key:?}"))),
    }
}

fn get_or<'py, T: FromPyObject<'py>>(d: &Bound<'py, PyDict>, key: &str, default: T) -> PyResult<T> {
    match d.get_item(key)? {
        Some(v) if !v.is_none() => {
            v.extract::<T>().map_err(|e| PyValueError::new_err(format!("native: field {key:?}: {e}")))
        }
        _ => Ok(default),
    }
}

fn pair<T: Clone>(v: Vec<T>, key: &str) -> PyResult<[T; 2]> {
    if v.len() != 2 {
        return Err(PyValueError::new_err(format!("native: field {key:?} needs one entry per side")));
    }
    Ok([v[0].clone(), v[1].clone()])
}

fn read_board(d: &Bound<'_, PyDict>) -> PyResult<Board> {
    let t = Tables {
        castle_centre: pair(get(d, "castle_centre")?, "castle_centre")?,
        castle_zone: pair(get(d, "castle_zone")?, "castle_zone")?,
        swamp_owner: get(d, "swamp_owner")?,
        is_bridge: get(d, "is_bridge")?,
        knight_bridge: get(d, "knight_bridge")?,
        is_summer_ford: get(d, "is_summer_ford")?,
        is_ford: get(d, "is_ford")?,
        walkable: get(d, "walkable")?,
        knight_walkable: get(d, "knight_walkable")?,
        stop_for: pair(get(d, "stop_for")?, "stop_for")?,
        cavalry_stop_for: pair(get(d, "cavalry_stop_for")?, "cavalry_stop_for")?,
        is_hill: get(d, "is_hill")?,
        steps: get(d, "steps")?,
        promotes: pair(get(d, "promotes")?, "promotes")?,
        shot_targets: get(d, "shot_targets")?,
    };
    let spec = TerrainSpec {
        winter: get_or(d, "winter", false)?,
        river_rows: vec![],
        bridges: vec![],
        fords: vec![],
        castle_centre: t.castle_centre,
        hills: [None, None],
        swamps: [None, None],
    };
    Board::from_tables(&t, spec).map_err(PyValueError::new_err)
}

fn read_rules(d: &Bound<'_, PyDict>) -> PyResult<Rules> {
    let def = Rules::default();
    let castling: String = get_or(d, "castling", "swap".to_string())?;
    let mate: String = get_or(d, "mate_defence", "feudal".to_string())?;
    let draw_after: Option<u32> = get_or(d, "draw_after", None)?;
    if let Some(n) = draw_after {
        if !(1..=DRAW_AFTER_MAX).contains(&n) {
            return Err(bad(format!("rule draw_after={n} is out of range 1..{DRAW_AFTER_MAX} (or none)")));
        }
    }
    let int =
        |key: &str, default: u8, lo: u8, hi: u8| -> PyResult<u8> { check_range(key, get_or(d, key, default)?, lo, hi) };
    Ok(Rules {
        castling: match castling.as_str() {
            "swap" => Castling::Swap,
            "sacrifice" => Castling::Sacrifice,
            other => return Err(bad(format!("rule castling={other:?}: choose swap or sacrifice"))),
        },
        archer_melee: get_or(d, "archer_melee", def.archer_melee)?,
        mate_defence: match mate.as_str() {
            "feudal" => MateDefence::Feudal,
            "any" => MateDefence::Any,
            other => return Err(bad(format!("rule mate_defence={other:?}: choose feudal or any"))),
        },
        draw_after,
        pike_cavalry_mutual: get_or(d, "pike_cavalry_mutual", def.pike_cavalry_mutual)?,
        archer_range: int("archer_range", def.archer_range, 2, MAX_DISTANCE)?,
        hill_bonus: int("hill_bonus", def.hill_bonus, 0, MAX_DISTANCE - 2)?,
        aura_radius: int("aura_radius", def.aura_radius, 0, MAX_DISTANCE)?,
        aura_step: int("aura_step", def.aura_step, 1, MAX_DISTANCE)?,
        aura_memory: get_or(d, "aura_memory", def.aura_memory)?,
        coordinated: int("coordinated", def.coordinated, 1, 6)?,
        order_size: int("order_size", def.order_size, 0, 3)?,
        order_radius: int("order_radius", def.order_radius, 1, MAX_DISTANCE)?,
        castling_uses: int("castling_uses", def.castling_uses, 0, 9)?,
        promotion: get_or(d, "promotion", def.promotion)?,
        knight_bridge_stop: get_or(d, "knight_bridge_stop", def.knight_bridge_stop)?,
    })
}

fn read_setup(d: &Bound<'_, PyDict>) -> PyResult<Setup> {
    let squares: Vec<u8> = get(d, "squares")?;
    if squares.len() != N_HEXES {
        return Err(PyValueError::new_err("native: squares needs 91 piece codes"));
    }
    for (h, &c) in squares.iter().enumerate() {
        if (c != 0 && !(1..=6).contains(&(c & 7))) || c > 14 {
            return Err(bad(format!("field \"squares\": hex {h} holds {c}, not a piece code (0, 1-6, 9-14)")));
        }
    }
    let to_move: usize = get(d, "to_move")?;
    if to_move > 1 {
        return Err(bad(format!("field \"to_move\": {to_move} is not a side (0 or 1)")));
    }
    let markers: Vec<Vec<(u8, u8)>> = get(d, "markers")?;
    let destroyed: Vec<Vec<u8>> = get(d, "destroyed")?;
    let victory: Option<String> = get_or(d, "victory", None)?;
    let victory = match victory {
        None => None,
        Some(v) => {
            Some(Victory::parse(&v).ok_or_else(|| PyValueError::new_err(format!("native: unknown victory {v:?}")))?)
        }
    };
    for m in &markers {
        if m.len() > MAX_MARKERS {
            return Err(PyValueError::new_err("native: more markers than the native core holds"));
        }
        for &(a, t) in m {
            check_hex("markers", a as usize)?;
            check_hex("markers", t as usize)?;
        }
    }
    for k in destroyed.iter().flatten() {
        if !(1..=6).contains(k) {
            return Err(bad(format!("field \"destroyed\": {k} is not a piece kind (1-6)")));
        }
    }
    if destroyed.iter().any(|v| v.len() > N_HEXES) {
        return Err(bad("field \"destroyed\": more than 91 pieces a side".to_string()));
    }
    let pending: Vec<u8> = get_or(d, "pending", vec![])?;
    let aura_ready: Vec<u8> = get_or(d, "aura_ready", vec![])?;
    for &h in &pending {
        check_hex("pending", h as usize)?;
    }
    for &h in &aura_ready {
        check_hex("aura_ready", h as usize)?;
    }
    let (ply, quiet): (u32, u32) = (get_or(d, "ply", 0)?, get_or(d, "quiet", 0)?);
    check_count("ply", ply)?;
    check_count("quiet", quiet)?;
    let winner: Option<usize> = get_or(d, "winner", None)?;
    if winner.is_some_and(|w| w > 1) {
        return Err(bad(format!("field \"winner\": {winner:?} is not a side (0, 1 or None)")));
    }
    let counters: Vec<u32> = get_or(d, "counters", vec![])?;
    if counters.len() > MAX_COUNTERS {
        return Err(bad(format!("field \"counters\": {} entries, at most {MAX_COUNTERS}", counters.len())));
    }
    for &c in &counters {
        check_count("counters", c)?;
    }
    let fired: Vec<(u8, u8, i16)> = get_or(d, "fired", vec![])?;
    for &(r, side, h) in &fired {
        if r as usize >= RULES.len() || side > 1 || !(-1..N_HEXES as i16).contains(&h) {
            return Err(bad(format!(
                "field \"fired\": ({r}, {side}, {h}) is not (rule 0..{}, side, hex or -1)",
                RULES.len() - 1
            )));
        }
    }
    Ok(Setup {
        squares,
        to_move,
        markers: pair(markers, "markers")?,
        pending,
        castled: pair(get(d, "castled")?, "castled")?,
        aura_ready,
        destroyed: pair(destroyed, "destroyed")?,
        ply,
        quiet,
        winner,
        victory,
        counters,
        fired,
        settled: get_or(d, "settled", false)?,
        skip_mate_test: get_or(d, "skip_mate_test", false)?,
    })
}

fn action_tuple<'py>(py: Python<'py>, a: &Action) -> PyResult<Bound<'py, PyTuple>> {
    PyTuple::new(py, a.to_vec())
}

fn read_action(obj: &Bound<'_, PyAny>) -> PyResult<Action> {
    let v: Vec<i64> = obj.extract().map_err(|_| PyValueError::new_err("native: an action is a tuple of ints"))?;
    Action::from_slice(&v).ok_or_else(|| PyValueError::new_err(format!("native: malformed action {v:?}")))
}

fn build_state(board: &Bound<'_, PyDict>, rules: &Bound<'_, PyDict>, setup: &Bound<'_, PyDict>) -> PyResult<State> {
    let (board, rules, setup) = (read_board(board)?, read_rules(rules)?, read_setup(setup)?);
    shield(|| State::new(Arc::new(board), Arc::new(rules), &setup))
}

fn check_plies(max_plies: u32) -> PyResult<u32> {
    if max_plies > MAX_PLIES {
        return Err(bad(format!("max_plies={max_plies} is out of range 0..{MAX_PLIES}")));
    }
    Ok(max_plies)
}

/// A native game state; the Python adapter wraps it with the `GameState` query API.
/// `frozen` with the core behind a mutex: safe to share between Python threads (see the module doc).
#[pyclass(name = "State", module = "workbench._native", frozen)]
pub struct PyState {
    pub(crate) st: Mutex<State>,
}

impl PyState {
    fn of(st: State) -> Self {
        PyState { st: Mutex::new(st) }
    }

    /// The core, waiting (without the GIL) while another thread uses it. A panic in an earlier
    /// call poisons nothing worth refusing: the state is still whole after a caught panic.
    pub(crate) fn lock(&self, py: Python<'_>) -> MutexGuard<'_, State> {
        loop {
            match self.st.try_lock() {
                Ok(g) => return g,
                Err(TryLockError::Poisoned(e)) => return e.into_inner(),
                Err(TryLockError::WouldBlock) => py.allow_threads(|| drop(self.st.lock())),
            }
        }
    }

    /// The core, locked without the GIL (for work that runs with the GIL released).
    pub(crate) fn lock_free(&self) -> MutexGuard<'_, State> {
        self.st.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[pymethods]
impl PyState {
    #[new]
    fn py_new(board: &Bound<'_, PyDict>, rules: &Bound<'_, PyDict>, setup: &Bound<'_, PyDict>) -> PyResult<Self> {
        Ok(PyState::of(build_state(board, rules, setup)?))
    }

    fn legal_actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let acts = shield(|| self.lock(py).legal_actions())?;
        let items: Vec<Bound<'py, PyTuple>> = acts.iter().map(|a| action_tuple(py, a)).collect::<PyResult<_>>()?;
        PyList::new(py, items)
    }

    fn n_legal(&self, py: Python<'_>) -> PyResult<usize> {
        shield(|| self.lock(py).n_legal())
    }

    /// Apply an action; with `check`, an action not among the legal ones raises ValueError.
    #[pyo3(signature = (action, check = true))]
    fn apply(&self, py: Python<'_>, action: &Bound<'_, PyAny>, check: bool) -> PyResult<()> {
        let a = read_action(action)?;
        let mut st = self.lock(py);
        if check && !shield(|| st.legal_actions().contains(&a))? {
            return Err(PyValueError::new_err("illegal"));
        }
        shield(|| st.apply(&a))
    }

    fn undo<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        match shield(|| self.lock(py).undo())? {
            Some(a) => action_tuple(py, &a),
            None => Err(PyIndexError::new_err("nothing to undo: no action has been played in this state")),
        }
    }

    fn is_terminal(&self, py: Python<'_>) -> bool {
        self.lock(py).is_terminal()
    }

    fn returns(&self, py: Python<'_>) -> Vec<f64> {
        self.lock(py).returns().to_vec()
    }

    fn current_player(&self, py: Python<'_>) -> usize {
        self.lock(py).current_player()
    }

    #[getter]
    fn ply(&self, py: Python<'_>) -> u32 {
        self.lock(py).ply()
    }

    #[getter]
    fn quiet(&self, py: Python<'_>) -> u32 {
        self.lock(py).quiet()
    }

    #[getter]
    fn winner(&self, py: Python<'_>) -> Option<usize> {
        self.lock(py).winner()
    }

    #[getter]
    fn victory(&self, py: Python<'_>) -> Option<&'static str> {
        self.lock(py).victory().map(|v| v.name())
    }

    fn squares(&self, py: Python<'_>) -> Vec<u8> {
        self.lock(py).squares().to_vec()
    }

    fn feudal(&self, py: Python<'_>) -> Vec<i64> {
        let st = self.lock(py);
        (0..2).map(|s| st.feudal(s).map_or(-1, |f| f as i64)).collect()
    }

    fn markers(&self, py: Python<'_>) -> Vec<Vec<(u8, u8)>> {
        let st = self.lock(py);
        (0..2).map(|s| st.markers(s).to_vec()).collect()
    }

    fn pending(&self, py: Python<'_>) -> Vec<usize> {
        bits(self.lock(py).pending())
    }

    fn castled(&self, py: Python<'_>) -> Vec<u8> {
        self.lock(py).castled().to_vec()
    }

    fn aura_ready(&self, py: Python<'_>) -> Vec<usize> {
        bits(self.lock(py).aura_ready())
    }

    fn destroyed(&self, py: Python<'_>) -> Vec<Vec<u8>> {
        let st = self.lock(py);
        (0..2).map(|s| st.destroyed(s).to_vec()).collect()
    }

    fn counters(&self, py: Python<'_>) -> Vec<u32> {
        self.lock(py).counters().to_vec()
    }

    fn fired(&self, py: Python<'_>) -> Vec<(u8, u8, i16)> {
        self.lock(py).fired().to_vec()
    }

    fn history<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let hist = self.lock(py).history().to_vec();
        let items: Vec<Bound<'py, PyTuple>> = hist.iter().map(|a| action_tuple(py, a)).collect::<PyResult<_>>()?;
        PyList::new(py, items)
    }

    fn is_threatened(&self, py: Python<'_>, side: usize) -> PyResult<bool> {
        if side > 1 {
            return Err(PyValueError::new_err("side is 0 or 1"));
        }
        shield(|| self.lock(py).is_threatened(side))
    }

    fn clone(&self, py: Python<'_>) -> Self {
        PyState::of(self.lock(py).clone())
    }

    /// Perft with bulk counting at the last level, played inside Rust without the GIL; Ctrl-C
    /// stops it (KeyboardInterrupt) within a fraction of a second.
    fn perft(&self, py: Python<'_>, depth: u32) -> PyResult<u64> {
        release(py, || perft(&mut self.lock_free(), depth))
    }
}

fn bits(set: u128) -> Vec<usize> {
    (0..91).filter(|&h| set & (1u128 << h) != 0).collect()
}

type AgentSpec = (String, Vec<(String, String)>, Vec<u32>);

fn build_agent(spec: &AgentSpec) -> PyResult<Box<dyn Agent>> {
    let params: Params = spec.1.clone();
    make_agent(&spec.0, &params, &spec.2).map_err(PyValueError::new_err)
}

/// Play one whole game in Rust with the GIL released; returns the trace as a dict.
#[pyfunction]
#[pyo3(signature = (board, rules, setup, white, black, max_plies, boards = true))]
#[allow(clippy::too_many_arguments)]
fn play_game<'py>(
    py: Python<'py>,
    board: &Bound<'py, PyDict>,
    rules: &Bound<'py, PyDict>,
    setup: &Bound<'py, PyDict>,
    white: AgentSpec,
    black: AgentSpec,
    max_plies: u32,
    boards: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let max_plies = check_plies(max_plies)?;
    let mut st = build_state(board, rules, setup)?;
    let mut agents: [Box<dyn Agent>; 2] = [build_agent(&white)?, build_agent(&black)?];
    let tr = release(py, || play_rust(&mut st, &mut agents, max_plies, boards))?;
    let out = PyDict::new(py);
    let acts: Vec<Bound<'py, PyTuple>> = tr.actions.iter().map(|a| action_tuple(py, a)).collect::<PyResult<_>>()?;
    out.set_item("actions", PyList::new(py, acts)?)?;
    out.set_item("n_legal", tr.n_legal)?;
    out.set_item("boards", PyBytes::new(py, &tr.boards))?;
    out.set_item("fired", tr.fired)?;
    out.set_item("winner", st.winner())?;
    out.set_item("victory", st.victory().map(|v| v.name()))?;
    out.set_item("plies", st.ply())?;
    out.set_item("counters", st.counters().to_vec())?;
    Ok(out)
}

/// Random playouts for the benchmark: game `i` plays on `boards[jobs[i].0]` from `setup`, both sides
/// drawing from one `random.Random(seed)` stream (as `workbench/bench.py` does), GIL released.
/// Returns the plies of each game.
#[pyfunction]
fn random_playouts(
    py: Python<'_>,
    boards: Vec<Bound<'_, PyDict>>,
    rules: &Bound<'_, PyDict>,
    setup: &Bound<'_, PyDict>,
    jobs: Vec<(usize, Vec<u32>)>,
    max_plies: u32,
) -> PyResult<Vec<u32>> {
    let max_plies = check_plies(max_plies)?;
    let rules = Arc::new(read_rules(rules)?);
    let setup = read_setup(setup)?;
    let boards: Vec<Arc<Board>> = boards.iter().map(|b| read_board(b).map(Arc::new)).collect::<PyResult<_>>()?;
    if jobs.iter().any(|(b, _)| *b >= boards.len()) {
        return Err(PyValueError::new_err("random_playouts: board index out of range"));
    }
    release(py, || {
        jobs.iter()
            .map(|(b, key)| {
                let mut st = State::new(Arc::clone(&boards[*b]), Arc::clone(&rules), &setup);
                let mut rng = Mt::from_key(key);
                while !st.is_terminal() && st.ply() < max_plies && !crate::core::interrupt::poll() {
                    let acts = st.legal_actions_ref();
                    let i = rng.choice_index(acts.len()).unwrap_or(0);
                    let a = acts[i];
                    st.apply(&a);
                }
                st.ply() - setup.ply
            })
            .collect()
    })
}

/// Whether an agent name has a native implementation.
#[pyfunction]
fn has_agent(name: &str) -> bool {
    has_native(name)
}

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

/// Register TerraFeud's classes, functions and constants at the top level of `workbench._native`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyState>()?;
    m.add_function(wrap_pyfunction!(play_game, m)?)?;
    m.add_function(wrap_pyfunction!(has_agent, m)?)?;
    m.add_function(wrap_pyfunction!(random_playouts, m)?)?;
    m.add("MAX_MARKERS", MAX_MARKERS)?;
    m.add("MAX_CASTLED", u8::MAX)?;
    m.add("RULES", RULES.to_vec())?;
    m.add_class::<PyAgent>()?;
    m.add_function(wrap_pyfunction!(set_eval_params, m)?)?;
    m.add_function(wrap_pyfunction!(evaluate, m)?)?;
    // Best effort: the Python adapter installs them too before any native agent plays.
    let _ = install_from_python(m.py());
    submodule(m, "terrafeud", |sub| {
        sub.add_class::<PyGenericAgent>()?;
        sub.add_function(wrap_pyfunction!(legal_ids, sub)?)?;
        sub.add_function(wrap_pyfunction!(protocol_perft, sub)?)?;
        sub.add_function(wrap_pyfunction!(protocol_evaluate, sub)?)?;
        sub.add_function(wrap_pyfunction!(protocol_features, sub)?)?;
        sub.add_function(wrap_pyfunction!(protocol_play_game, sub)?)?;
        sub.add_function(wrap_pyfunction!(play_barred, sub)?)?;
        sub.add_function(wrap_pyfunction!(classes, sub)?)?;
        sub.add("ORDER0", ORDER0)?;
        sub.add("PASS_ID", PASS_ID)
    })
}

// ---------------------------------------------------------------------------------------------------
// `workbench._native.terrafeud`: TerraFeud on the core's protocol (`crate::terrafeud::protocol`), so the
// generic agents, the generic perft and the play loop run on a `State` here as on every other game. Actions
// are the protocol's dense ints (`GAME.action_to_int`), in the Python state's legal order.

/// A copy of `state` speaking the protocol, with the installed evaluation weights (read from Python now when
/// the module's import could not: `workbench.games.terrafeud.agents.evaluate` may import this module).
fn protocol_state(py: Python<'_>, state: &PyState) -> PyResult<TerraFeud> {
    if eval::params().is_err() {
        install_from_python(py)?;
    }
    let st = state.lock(py).clone();
    TerraFeud::with_installed_eval(st).map_err(PyValueError::new_err)
}

crate::generic_agent_class!(
    PyGenericAgent,
    TerraFeud,
    PyState,
    "workbench._native.terrafeud",
    "terrafeud",
    protocol_state
);

/// The dense ints of the legal actions, in the Python state's legal order (`[GAME.action_to_int(a) ...]`).
#[pyfunction]
fn legal_ids(py: Python<'_>, state: &PyState) -> PyResult<Vec<u32>> {
    shield(|| {
        let mut out = Vec::new();
        crate::terrafeud::protocol::ids_of(state.lock(py).legal_actions_ref(), &mut out);
        out
    })
}

/// Perft through the protocol (`core::protocol::perft` over `Game`), without the GIL.
#[pyfunction]
fn protocol_perft(py: Python<'_>, state: &PyState, depth: u32) -> PyResult<u64> {
    let mut g = protocol_state(py, state)?;
    release(py, move || crate::core::protocol::perft(&mut g, depth))
}

/// `Game::evaluate(player)` (TerraFeud's evaluation through the protocol).
#[pyfunction]
fn protocol_evaluate(py: Python<'_>, state: &PyState, player: usize) -> PyResult<f64> {
    let g = protocol_state(py, state)?;
    shield(|| crate::core::protocol::Game::evaluate(&g, player.min(1)))
}

/// `evaluation_features(player)`: the counts per kind but the feudal, then `position` (the core's twin).
#[pyfunction]
fn protocol_features(py: Python<'_>, state: &PyState, player: usize) -> PyResult<Vec<f64>> {
    let g = protocol_state(py, state)?;
    shield(|| g.features(player.min(1)).to_vec())
}

/// A whole game from `state` with generic agents (`(name, params, seed)` per side) through the core's play
/// loop, without the GIL: the actions (dense ints), the legal counts before each, and the final `State`.
#[pyfunction]
#[pyo3(signature = (state, agents, max_plies))]
fn protocol_play_game<'py>(
    py: Python<'py>,
    state: &PyState,
    agents: &Bound<'py, PyList>,
    max_plies: u64,
) -> PyResult<Bound<'py, PyDict>> {
    let mut ag = seat_agents::<TerraFeud>("terrafeud", agents, 2)?;
    let g = protocol_state(py, state)?;
    let cap = max_plies.min(u64::from(MAX_PLIES)) as usize;
    let ((actions, n_legal, stopped), g) = play_released(py, g, move |g| {
        let (mut actions, mut n_legal) = (Vec::new(), Vec::new());
        let end = crate::core::protocol::play(
            g,
            &mut ag,
            || 0.0,
            cap,
            |_, a, n, before| {
                if before {
                    actions.push(a);
                    n_legal.push(n as u64);
                }
            },
        );
        (actions, n_legal, end == crate::core::protocol::End::Stopped)
    })?;
    let d = PyDict::new(py);
    d.set_item("actions", actions)?;
    d.set_item("n_legal", n_legal)?;
    d.set_item("stopped", stopped)?;
    d.set_item("final", Py::new(py, PyState::of(g.into_state()))?)?;
    Ok(d)
}

/// The action classes of legal action `id` (a dense int) in `state` as bits (`classes.py`'s order;
/// `core::restrict`); `river` the river band's lowest and highest row (`board_data()["river_rows"]`).
#[pyfunction]
fn classes(py: Python<'_>, state: &PyState, id: u32, river: (i32, i32)) -> PyResult<u64> {
    let mut g = protocol_state(py, state)?;
    let table = crate::terrafeud::classes::RiverRows(river.0, river.1);
    shield(|| crate::core::restrict::Classes::classes(&mut g, id, &table))
}

/// One whole game with barred seats (`core::restrict`) from `state`, generic agents `(name, params or None,
/// seed words)`, `river` as for `classes`: `(final State, n_legal, tallies, illegal)`.
#[pyfunction]
#[pyo3(signature = (state, agents, masks, n_classes, river, chance_seed, max_plies))]
#[allow(clippy::type_complexity, clippy::too_many_arguments)]
fn play_barred<'py>(
    py: Python<'py>,
    state: &PyState,
    agents: Vec<(String, Option<Bound<'py, PyDict>>, Vec<u32>)>,
    masks: Vec<u64>,
    n_classes: usize,
    river: (i32, i32),
    chance_seed: Vec<u32>,
    max_plies: u32,
) -> PyResult<(Py<PyState>, Vec<usize>, Vec<super::restrict::SeatTally>, Option<(u32, usize)>)> {
    let g = protocol_state(py, state)?;
    let table = crate::terrafeud::classes::RiverRows(river.0, river.1);
    let (g, n_legal, tallies, illegal) =
        super::restrict::play(py, "terrafeud", g, table, agents, masks, n_classes, chance_seed, max_plies)?;
    Ok((Py::new(py, PyState::of(g.into_state()))?, n_legal, tallies, illegal))
}
