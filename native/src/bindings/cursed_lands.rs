//! Bindings: the submodule `workbench._native.cursed_lands`. The Python adapter
//! (`workbench/games/cursed_lands/native.py`) builds every state from a Python `CursedState`
//! (`fields`), so the rules, the start and the decks always come from the Python engine; this file
//! range-checks what it is given all the same (a hex of 200 must not index past the board).

use pyo3::exceptions::PyIndexError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use super::kit::{generic_agent_of, per_ply, play_released, seat_agents, submodule};
use super::{release, shield, MAX_PLIES};
use crate::core::pyrandom::PyRandom;
use crate::cursed_lands::geo::{self, N};
use crate::cursed_lands::play;
use crate::cursed_lands::rules::Rules;
use crate::cursed_lands::state::{fired_name, Camp, State, NC, V_DRAW};

const GAME: &str = "cursed-lands";

fn bad(msg: String) -> PyErr {
    super::kit::bad(GAME, msg)
}

fn get<'py, T: FromPyObject<'py>>(d: &Bound<'py, PyDict>, key: &str) -> PyResult<T> {
    super::kit::field(GAME, d, key)
}

fn rules_of(d: &Bound<'_, PyDict>) -> PyResult<Rules> {
    let mut r = Rules::default();
    for (k, v) in d.iter() {
        let name: String = k.extract()?;
        let value: i64 = v.extract().map_err(|e| bad(format!("rule {name}: {e}")))?;
        r.set(&name, value).map_err(bad)?;
    }
    Ok(r)
}

fn board<T: Copy + TryFrom<i64>>(d: &Bound<'_, PyDict>, key: &str, lo: i64, hi: i64) -> PyResult<[T; N]> {
    let v: Vec<i64> = get(d, key)?;
    if v.len() != N {
        return Err(bad(format!("field {key:?} holds {} values, not {N}", v.len())));
    }
    let mut out = Vec::with_capacity(N);
    for (h, &x) in v.iter().enumerate() {
        if !(lo..=hi).contains(&x) {
            return Err(bad(format!("field {key:?}: hex {h} holds {x}, outside {lo}..{hi}")));
        }
        out.push(T::try_from(x).map_err(|_| bad(format!("field {key:?}: {x}")))?);
    }
    Ok(out.try_into().unwrap_or_else(|_| unreachable!()))
}

/// A state from the Python engine's fields (`native.fields_of`).
fn state_of(rules: Rules, d: &Bound<'_, PyDict>) -> PyResult<State> {
    let mut st = State::empty(rules);
    let camps: Vec<Option<(u8, [u8; 4])>> = get(d, "camps")?;
    if camps.len() != 2 {
        return Err(bad("field \"camps\" names two sides".into()));
    }
    let tile: [u8; N] = board(d, "tile", 0, 5)?;
    st.c.tile = tile;
    for (side, camp) in camps.iter().enumerate() {
        if let Some((castle, flags)) = *camp {
            let row = if side == 0 { 0..9 } else { 72..81 };
            if !row.contains(&(castle as usize)) || flags.iter().any(|f| !row.contains(&(*f as usize))) {
                return Err(bad(format!("camp of side {side} is not in its row")));
            }
            st.set_camp(side, castle, flags);
        }
    }
    for h in 0..N {
        st.put_tile(h, tile[h]);
    }
    st.c.owner = board(d, "owner", -1, 1)?;
    st.c.kind = board(d, "kind", 0, 3)?;
    st.c.hp = board(d, "hp", -1000, 1000)?;
    st.c.mark = board(d, "mark", 0, 2)?;
    st.c.unit_count = [0, 0];
    for h in 0..N {
        if st.c.owner[h] >= 0 {
            st.c.unit_count[st.c.owner[h] as usize] += 1;
        }
    }
    st.c.setup = get(d, "setup")?;
    st.c.to_move = get(d, "to_move")?;
    if st.c.to_move > 1 {
        return Err(bad("field \"to_move\" must be 0 or 1".into()));
    }
    st.c.ap = get(d, "ap")?;
    st.c.turn = get(d, "turn")?;
    st.c.tiles_placed = get(d, "tiles_placed")?;
    st.c.castle_hp = get(d, "castle_hp")?;
    let decks: [Vec<u8>; 2] = get(d, "decks")?;
    if decks.iter().flatten().any(|&t| !(1..=5).contains(&t)) || decks.iter().any(|x| x.len() > 4096) {
        return Err(bad("field \"decks\": terrain codes 1..5, at most 4096 per deck".into()));
    }
    st.decks = std::sync::Arc::new(decks);
    st.c.winner = get(d, "winner")?;
    st.c.victory = get(d, "victory")?;
    if st.c.victory > V_DRAW || !(-1..=1).contains(&st.c.winner) {
        return Err(bad("fields \"winner\"/\"victory\" out of range".into()));
    }
    let counts: Vec<i64> = get(d, "counts")?;
    if counts.len() != 2 * NC {
        return Err(bad(format!("field \"counts\" holds {} values, not {}", counts.len(), 2 * NC)));
    }
    st.c.counts.copy_from_slice(&counts);
    st.c.moves = get(d, "moves")?;
    let fired: Vec<(u8, u8, i8)> = get(d, "fired")?;
    if fired.len() > crate::cursed_lands::state::MAX_FIRED || fired.iter().any(|f| f.0 as usize >= NC + 5 || f.1 > 1) {
        return Err(bad("field \"fired\" out of range".into()));
    }
    for (i, f) in fired.iter().enumerate() {
        st.c.fired[i] = *f;
    }
    st.c.nfired = fired.len() as u8;
    Ok(st)
}

fn fields<'py>(py: Python<'py>, st: &State) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let camps: Vec<Option<(u8, [u8; 4])>> =
        st.c.camps.iter().map(|c| c.map(|Camp { castle, flags }| (castle, flags))).collect();
    d.set_item("camps", camps)?;
    d.set_item("tile", st.c.tile.to_vec())?;
    d.set_item("owner", st.c.owner.to_vec())?;
    d.set_item("kind", st.c.kind.to_vec())?;
    d.set_item("hp", st.c.hp.to_vec())?;
    d.set_item("mark", st.c.mark.to_vec())?;
    d.set_item("setup", st.c.setup)?;
    d.set_item("to_move", st.c.to_move)?;
    d.set_item("ap", st.c.ap)?;
    d.set_item("turn", st.c.turn)?;
    d.set_item("tiles_placed", st.c.tiles_placed)?;
    d.set_item("castle_hp", st.c.castle_hp.to_vec())?;
    d.set_item("decks", vec![st.deck(0).to_vec(), st.deck(1).to_vec()])?;
    d.set_item("winner", st.c.winner)?;
    d.set_item("victory", st.c.victory)?;
    d.set_item("counts", st.c.counts.to_vec())?;
    d.set_item("moves", st.c.moves)?;
    d.set_item("fired", st.fired().to_vec())?;
    Ok(d)
}

fn fired_item(&(r, s, c): &(u8, u8, i8)) -> (&'static str, u8, Option<i8>) {
    (fired_name(r), s, (c >= 0).then_some(c))
}

fn fired_list(f: &[(u8, u8, i8)]) -> Vec<(&'static str, u8, Option<i8>)> {
    f.iter().map(fired_item).collect()
}

/// A native Cursed Lands state (`workbench.games.cursed_lands.native.NativeCursedState` wraps it).
#[pyclass(name = "State", module = "workbench._native.cursed_lands", unsendable)]
pub struct PyState {
    st: State,
    legal: Option<Vec<u32>>,
}

impl PyState {
    fn legal(&mut self) -> &Vec<u32> {
        if self.legal.is_none() {
            let mut out = Vec::new();
            self.st.legal_actions(&mut out);
            self.legal = Some(out);
        }
        self.legal.as_ref().expect("cached")
    }
}

#[pymethods]
impl PyState {
    #[new]
    fn new(rules: &Bound<'_, PyDict>, fields: &Bound<'_, PyDict>) -> PyResult<Self> {
        let r = rules_of(rules)?;
        let st = shield(|| state_of(r, fields))??; // a panic in the core is a RuntimeError, never a PanicException
        Ok(PyState { st, legal: None })
    }

    /// Legal actions in canonical order (play phase; the adapter lists camps lazily).
    fn legal_actions(&mut self) -> PyResult<Vec<u32>> {
        if self.st.c.setup {
            return Ok(Vec::new());
        }
        shield(|| self.legal().clone())
    }

    fn legal_count(&mut self) -> PyResult<usize> {
        if self.st.c.setup || self.st.is_terminal() {
            return shield(|| self.st.legal_count());
        }
        shield(|| self.legal().len())
    }

    fn is_legal(&mut self, action: i64) -> PyResult<bool> {
        let Ok(a) = u32::try_from(action) else { return Ok(false) };
        if self.st.c.setup || self.st.is_terminal() {
            return shield(|| self.st.is_legal(a));
        }
        shield(|| self.legal().contains(&a))
    }

    /// Play a legal action; ValueError when it is not legal (the adapter explains why in Python).
    fn apply(&mut self, action: i64) -> PyResult<()> {
        if !self.is_legal(action)? {
            return Err(bad(format!("action {action} is not legal here")));
        }
        shield(|| self.st.apply(action as u32))?;
        self.legal = None;
        Ok(())
    }

    fn undo(&mut self) -> PyResult<()> {
        if !shield(|| self.st.undo())? {
            return Err(PyIndexError::new_err("undo: no action to take back"));
        }
        self.legal = None;
        Ok(())
    }

    fn history_len(&self) -> usize {
        self.st.history_len()
    }

    fn fields<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        shield(|| fields(py, &self.st))?
    }

    fn fired(&self) -> Vec<(&'static str, u8, Option<i8>)> {
        fired_list(self.st.fired())
    }

    fn counts(&self) -> Vec<i64> {
        self.st.c.counts.to_vec()
    }

    fn evaluate(&self, player: usize) -> PyResult<f64> {
        shield(|| self.st.evaluate(player.min(1)))
    }

    /// `insight.features` of `player` in their order (the unit kinds, then the terms).
    fn features(&self, player: usize) -> PyResult<Vec<f64>> {
        shield(|| self.st.features(player.min(1)).to_vec())
    }

    fn action_priority(&self, action: u32) -> PyResult<i64> {
        shield(|| self.st.action_priority(action))
    }

    /// The agent's view: the hidden deck order reshuffled from `seed` (no undo history).
    fn view(&self, seed: u64) -> PyResult<PyState> {
        Ok(PyState { st: shield(|| self.st.view(seed))?, legal: None })
    }

    /// An independent copy, undo history included.
    fn clone(&self) -> PyState {
        PyState { st: self.st.clone(), legal: self.legal.clone() }
    }

    /// The action classes of `action` here as bits (`classes.py`'s order; `core::restrict`).
    fn classes(&mut self, action: i64) -> PyResult<u64> {
        if !self.is_legal(action)? {
            return Err(bad(format!("action {action} is not legal here")));
        }
        let st = &mut self.st;
        shield(|| crate::core::restrict::Classes::classes(st, action as u32, &()))
    }

    #[getter]
    fn to_move(&self) -> u8 {
        self.st.c.to_move
    }
    #[getter]
    fn ap(&self) -> i32 {
        self.st.c.ap
    }
    #[getter]
    fn turn(&self) -> i64 {
        self.st.c.turn
    }
    #[getter]
    fn setup(&self) -> bool {
        self.st.c.setup
    }
    #[getter]
    fn victory(&self) -> u8 {
        self.st.c.victory
    }
    #[getter]
    fn winner(&self) -> i8 {
        self.st.c.winner
    }
    #[getter]
    fn moves(&self) -> u64 {
        self.st.c.moves
    }
    fn deck_top(&self, side: usize) -> Option<u8> {
        self.st.deck_top(side.min(1))
    }
}

/// One agent decision on a copy of `state` (the board's and the tests' native agents).
/// `spec` is `(name, params or None, seed)`.
#[pyfunction]
fn select_action(py: Python<'_>, state: &PyState, spec: &Bound<'_, PyAny>) -> PyResult<u32> {
    let mut agent = generic_agent_of::<State>(GAME, spec)?;
    let mut st = state.st.clone();
    if st.is_terminal() {
        return Err(bad("select_action: the game is over".into()));
    }
    release(py, move || agent.select_action(&mut st))
}

crate::generic_agent_class!(PyAgent, State, PyState, "workbench._native.cursed_lands", "cursed-lands");

/// A whole game without the GIL: `agents` are two `(name, params, seed)`; returns the trace and
/// the final fields (`illegal`: the action an agent picked on its view that the real state does not
/// allow, where the game stopped; None otherwise).
#[pyfunction]
#[pyo3(signature = (rules, fields, agents, max_plies, events=true))]
fn play_game<'py>(
    py: Python<'py>,
    rules: &Bound<'py, PyDict>,
    fields: &Bound<'py, PyDict>,
    agents: &Bound<'py, PyList>,
    max_plies: u64,
    events: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let st = state_of(rules_of(rules)?, fields)?;
    let mut ag = seat_agents::<State>(GAME, agents, 2)?;
    let cap = max_plies.min(u64::from(MAX_PLIES));
    let (tr, st) = play_released(py, st, move |st| play::play(st, &mut ag, cap, events))?;
    let d = PyDict::new(py);
    d.set_item("actions", tr.actions)?;
    d.set_item("n_legal", tr.n_legal)?;
    d.set_item("illegal", tr.illegal)?;
    if events {
        d.set_item("sides", tr.sides)?;
        d.set_item("turns", tr.turns)?;
        d.set_item("ap_before", tr.ap_before)?;
        d.set_item("tops", tr.tops)?;
        d.set_item("fired", per_ply(&tr.fired, &tr.fired_end, fired_item))?;
    }
    d.set_item("final", self::fields(py, &st)?)?;
    Ok(d)
}

/// One whole game with barred seats (`core::restrict`): `(final fields, n_legal, tallies, illegal)`;
/// `agents` are `(name, params or None, seed words)`.
#[pyfunction]
#[pyo3(signature = (rules, fields, agents, masks, n_classes, chance_seed, max_plies))]
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
fn play_barred<'py>(
    py: Python<'py>,
    rules: &Bound<'py, PyDict>,
    fields: &Bound<'py, PyDict>,
    agents: Vec<(String, Option<Bound<'py, PyDict>>, Vec<u32>)>,
    masks: Vec<u64>,
    n_classes: usize,
    chance_seed: Vec<u32>,
    max_plies: u32,
) -> PyResult<(Bound<'py, PyDict>, Vec<usize>, Vec<super::restrict::SeatTally>, Option<(u32, usize)>)> {
    let r = rules_of(rules)?;
    let st = shield(|| state_of(r, fields))??;
    let (st, n_legal, tallies, illegal) =
        super::restrict::play(py, "cursed-lands", st, (), agents, masks, n_classes, chance_seed, max_plies)?;
    Ok((self::fields(py, &st)?, n_legal, tallies, illegal))
}

/// The classic start (or the setup phase) dealt from `seed` in the core, as fields (checked against Python).
#[pyfunction]
fn classic_fields<'py>(py: Python<'py>, rules: &Bound<'py, PyDict>, seed: i128) -> PyResult<Bound<'py, PyDict>> {
    let r = rules_of(rules)?;
    shield(|| fields(py, &State::classic(r, seed as u64)))?
}

/// Random playouts without the GIL: per job `(fields or None for the classic start, rng_seed)`, uniform choices from
/// `random.Random(rng_seed)`, at most `max_actions` each; the actions played per game.
#[pyfunction]
fn random_playouts(
    py: Python<'_>,
    rules: &Bound<'_, PyDict>,
    jobs: &Bound<'_, PyList>,
    max_actions: u64,
) -> PyResult<Vec<u64>> {
    let r = rules_of(rules)?;
    let mut work = Vec::with_capacity(jobs.len());
    for job in jobs.iter() {
        let (f, seed): (Option<Bound<'_, PyDict>>, i128) = job.extract()?;
        let st = match f {
            Some(f) => state_of(r.clone(), &f)?,
            None => State::classic(r.clone(), seed as u64), // the classic start dealt from the seed mod 2^64
        };
        work.push((st, seed));
    }
    release(py, move || {
        work.into_iter()
            .map(|(mut st, seed)| {
                let mut rng = PyRandom::new(seed);
                play::random_playout(&mut st, &mut rng, max_actions)
            })
            .collect()
    })
}

/// Camp action `index` of the setup phase's list (`CampActions(n)[index]`), for cross-checks.
#[pyfunction]
fn camp_at(n: usize, index: usize) -> PyResult<u32> {
    if n > 3 || index >= geo::camp_count(n) {
        return Err(PyIndexError::new_err("camp action index out of range"));
    }
    Ok(geo::camp_at(n, index))
}

/// Register the submodule `workbench._native.cursed_lands`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    submodule(m, "cursed_lands", |sub| {
        sub.add_class::<PyState>()?;
        sub.add_class::<PyAgent>()?;
        sub.add_function(wrap_pyfunction!(select_action, sub)?)?;
        sub.add_function(wrap_pyfunction!(play_game, sub)?)?;
        sub.add_function(wrap_pyfunction!(play_barred, sub)?)?;
        sub.add_function(wrap_pyfunction!(random_playouts, sub)?)?;
        sub.add_function(wrap_pyfunction!(camp_at, sub)?)?;
        sub.add_function(wrap_pyfunction!(classic_fields, sub)?)?;
        sub.add("COUNTER_NAMES", crate::cursed_lands::state::COUNTER_NAMES.to_vec())
    })
}
