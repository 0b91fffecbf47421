//! PyO3 bindings: the module `workbench._native`. The Python adapter (`workbench/native.py`)
//! builds the dicts read here from a Python `Game`/`GameState`, so terrain, rules and the start
//! position always come from the Python engine.

use std::sync::Arc;

use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyTuple};

use crate::agents::{has_native, make_agent, Agent, Params};
use crate::board::{Board, Tables, TerrainSpec};
use crate::play::play_game as play_rust;
use crate::pyrandom::PyRandom as Mt;
use crate::rules::{Castling, MateDefence, Rules};
use crate::state::{perft, Action, Setup, State, Victory};

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
    Ok(Rules {
        castling: if castling == "sacrifice" { Castling::Sacrifice } else { Castling::Swap },
        archer_melee: get_or(d, "archer_melee", def.archer_melee)?,
        mate_defence: if mate == "any" { MateDefence::Any } else { MateDefence::Feudal },
        draw_after,
        pike_cavalry_mutual: get_or(d, "pike_cavalry_mutual", def.pike_cavalry_mutual)?,
        archer_range: get_or(d, "archer_range", def.archer_range)?,
        hill_bonus: get_or(d, "hill_bonus", def.hill_bonus)?,
        aura_radius: get_or(d, "aura_radius", def.aura_radius)?,
        aura_step: get_or(d, "aura_step", def.aura_step)?,
        aura_memory: get_or(d, "aura_memory", def.aura_memory)?,
        coordinated: get_or(d, "coordinated", def.coordinated)?,
        order_size: get_or(d, "order_size", def.order_size)?,
        order_radius: get_or(d, "order_radius", def.order_radius)?,
        castling_uses: get_or(d, "castling_uses", def.castling_uses)?,
        promotion: get_or(d, "promotion", def.promotion)?,
        knight_bridge_stop: get_or(d, "knight_bridge_stop", def.knight_bridge_stop)?,
    })
}

fn read_setup(d: &Bound<'_, PyDict>) -> PyResult<Setup> {
    let squares: Vec<u8> = get(d, "squares")?;
    if squares.len() != 91 {
        return Err(PyValueError::new_err("native: squares needs 91 piece codes"));
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
        if m.len() > crate::state::MAX_MARKERS {
            return Err(PyValueError::new_err("native: more markers than the native core holds"));
        }
    }
    Ok(Setup {
        squares,
        to_move: get(d, "to_move")?,
        markers: pair(markers, "markers")?,
        pending: get_or(d, "pending", vec![])?,
        castled: pair(get(d, "castled")?, "castled")?,
        aura_ready: get_or(d, "aura_ready", vec![])?,
        destroyed: pair(destroyed, "destroyed")?,
        ply: get_or(d, "ply", 0)?,
        quiet: get_or(d, "quiet", 0)?,
        winner: get_or(d, "winner", None)?,
        victory,
        counters: get_or(d, "counters", vec![])?,
        fired: get_or(d, "fired", vec![])?,
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
    Ok(State::new(Arc::new(read_board(board)?), Arc::new(read_rules(rules)?), &read_setup(setup)?))
}

/// A native game state; the Python adapter wraps it with the `GameState` query API.
#[pyclass(name = "State", module = "workbench._native")]
#[derive(Clone)]
pub struct PyState {
    pub(crate) st: State,
}

#[pymethods]
impl PyState {
    #[new]
    fn py_new(board: &Bound<'_, PyDict>, rules: &Bound<'_, PyDict>, setup: &Bound<'_, PyDict>) -> PyResult<Self> {
        Ok(PyState { st: build_state(board, rules, setup)? })
    }

    fn legal_actions<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let acts = self.st.legal_actions();
        let items: Vec<Bound<'py, PyTuple>> = acts.iter().map(|a| action_tuple(py, a)).collect::<PyResult<_>>()?;
        PyList::new(py, items)
    }

    fn n_legal(&mut self) -> usize {
        self.st.n_legal()
    }

    /// Apply an action; with `check`, an action not among the legal ones raises ValueError.
    #[pyo3(signature = (action, check = true))]
    fn apply(&mut self, action: &Bound<'_, PyAny>, check: bool) -> PyResult<()> {
        let a = read_action(action)?;
        if check && !self.st.legal_actions().contains(&a) {
            return Err(PyValueError::new_err("illegal"));
        }
        self.st.apply(&a);
        Ok(())
    }

    fn undo<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        match self.st.undo() {
            Some(a) => action_tuple(py, &a),
            None => Err(PyIndexError::new_err("nothing to undo: no action has been played in this state")),
        }
    }

    fn is_terminal(&self) -> bool {
        self.st.is_terminal()
    }

    fn returns(&self) -> Vec<f64> {
        self.st.returns().to_vec()
    }

    fn current_player(&self) -> usize {
        self.st.current_player()
    }

    #[getter]
    fn ply(&self) -> u32 {
        self.st.ply()
    }

    #[getter]
    fn quiet(&self) -> u32 {
        self.st.quiet()
    }

    #[getter]
    fn winner(&self) -> Option<usize> {
        self.st.winner()
    }

    #[getter]
    fn victory(&self) -> Option<&'static str> {
        self.st.victory().map(|v| v.name())
    }

    fn squares(&self) -> Vec<u8> {
        self.st.squares().to_vec()
    }

    fn feudal(&self) -> Vec<i64> {
        (0..2).map(|s| self.st.feudal(s).map_or(-1, |f| f as i64)).collect()
    }

    fn markers(&self) -> Vec<Vec<(u8, u8)>> {
        (0..2).map(|s| self.st.markers(s).to_vec()).collect()
    }

    fn pending(&self) -> Vec<usize> {
        bits(self.st.pending())
    }

    fn castled(&self) -> Vec<u8> {
        self.st.castled().to_vec()
    }

    fn aura_ready(&self) -> Vec<usize> {
        bits(self.st.aura_ready())
    }

    fn destroyed(&self) -> Vec<Vec<u8>> {
        (0..2).map(|s| self.st.destroyed(s).to_vec()).collect()
    }

    fn counters(&self) -> Vec<u32> {
        self.st.counters().to_vec()
    }

    fn fired(&self) -> Vec<(u8, u8, i16)> {
        self.st.fired().to_vec()
    }

    fn history<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let items: Vec<Bound<'py, PyTuple>> =
            self.st.history().iter().map(|a| action_tuple(py, a)).collect::<PyResult<_>>()?;
        PyList::new(py, items)
    }

    fn is_threatened(&mut self, side: usize) -> PyResult<bool> {
        if side > 1 {
            return Err(PyValueError::new_err("side is 0 or 1"));
        }
        Ok(self.st.is_threatened(side))
    }

    fn clone(&self) -> Self {
        Clone::clone(self)
    }

    /// Perft with bulk counting at the last level, played inside Rust without the GIL.
    fn perft(&mut self, py: Python<'_>, depth: u32) -> u64 {
        let st = &mut self.st;
        py.allow_threads(|| perft(st, depth))
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
    let mut st = build_state(board, rules, setup)?;
    let mut agents: [Box<dyn Agent>; 2] = [build_agent(&white)?, build_agent(&black)?];
    let tr = py.allow_threads(|| play_rust(&mut st, &mut agents, max_plies, boards));
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
    let rules = Arc::new(read_rules(rules)?);
    let setup = read_setup(setup)?;
    let boards: Vec<Arc<Board>> = boards.iter().map(|b| read_board(b).map(Arc::new)).collect::<PyResult<_>>()?;
    if jobs.iter().any(|(b, _)| *b >= boards.len()) {
        return Err(PyValueError::new_err("random_playouts: board index out of range"));
    }
    Ok(py.allow_threads(|| {
        jobs.iter()
            .map(|(b, key)| {
                let mut st = State::new(Arc::clone(&boards[*b]), Arc::clone(&rules), &setup);
                let mut rng = Mt::from_key(key);
                while !st.is_terminal() && st.ply() < max_plies {
                    let acts = st.legal_actions_ref();
                    let i = rng.choice_index(acts.len()).unwrap_or(0);
                    let a = acts[i];
                    st.apply(&a);
                }
                st.ply() - setup.ply
            })
            .collect()
    }))
}

/// Whether an agent name has a native implementation.
#[pyfunction]
fn has_agent(name: &str) -> bool {
    has_native(name)
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

    fn randbelow(&mut self, n: u64) -> u64 {
        self.rng.randbelow(n)
    }

    fn shuffle(&mut self, items: Vec<i64>) -> Vec<i64> {
        let mut v = items;
        self.rng.shuffle(&mut v);
        v
    }

    fn uniform(&mut self, a: f64, b: f64) -> f64 {
        self.rng.uniform(a, b)
    }
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyState>()?;
    m.add_class::<PyRng>()?;
    m.add_function(wrap_pyfunction!(play_game, m)?)?;
    m.add_function(wrap_pyfunction!(has_agent, m)?)?;
    m.add_function(wrap_pyfunction!(random_playouts, m)?)?;
    m.add("MAX_MARKERS", crate::state::MAX_MARKERS)?;
    m.add("RULES", crate::state::RULES.to_vec())?;
    crate::agents::py::register(m)?; // the native agents (native/src/agents/py.rs)
    Ok(())
}
