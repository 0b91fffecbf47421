//! `workbench._native.pole`: Pole's native state, agents, whole games and playouts.
//!
//! The Python adapter (`workbench/games/pole/native.py`) hands over the rules as one plain dict
//! (every parameter of the contract, already validated by Python's `Rules`) and a position as the
//! Python state's fields, so starts, scenario positions and `start` files come from the Python engine.
//! Everything given is range-checked again here (a library's surface), long work runs without the
//! GIL and polls for Ctrl-C, and a panic becomes a `RuntimeError`.

use std::sync::{Arc, Mutex};

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use super::{release, shield, MAX_PLIES};
use crate::core::generic::{self, Agent};
use crate::core::protocol::Game;
use crate::core::pyrandom::PyRandom;
use crate::pole::state::{
    Pos, State, ACT_PHASE, BUY_PHASE, COUNTERS, FIRED, NO_CELL, NUM_ACTIONS, OVER_PHASE, V_DRAW, V_NONE, V_PRINCE,
    V_UNFINISHED,
};
use crate::pole::tables::{Blocking, Rules, Tables};

fn bad(msg: String) -> PyErr {
    super::kit::bad("pole", msg)
}

fn get<'py, T: FromPyObject<'py>>(d: &Bound<'py, PyDict>, key: &str) -> PyResult<T> {
    super::kit::field("pole", d, key)
}

fn choice(d: &Bound<'_, PyDict>, key: &str, options: &[&str]) -> PyResult<usize> {
    let v: String = get(d, key)?;
    options.iter().position(|o| *o == v).ok_or_else(|| bad(format!("rule {key}={v:?}: one of {options:?}")))
}

fn cells4(d: &Bound<'_, PyDict>, key: &str) -> PyResult<[u8; 4]> {
    let v: Vec<u8> = get(d, key)?;
    if v.len() != 4 || v.iter().any(|&c| c >= 100) {
        return Err(bad(format!("rule {key}: four cells 0..99")));
    }
    Ok([v[0], v[1], v[2], v[3]])
}

/// The rules from the adapter's plain dict (`native.rules_dict`).
fn read_rules(d: &Bound<'_, PyDict>) -> PyResult<Rules> {
    let letters = ["B", "S", "T", "I", "A", "H", "C", "P"];
    let mut r = Rules::default();
    for (k, l) in letters.iter().enumerate() {
        r.cost[k] = if *l == "P" { 0 } else { get(d, &format!("cost_{l}"))? };
        r.damage[k] = get(d, &format!("damage_{l}"))?;
        r.armour[k] = get(d, &format!("armour_{l}"))?;
    }
    r.income = get(d, "income")?;
    r.purchases_per_turn = get(d, "purchases_per_turn")?;
    r.archer_orth = get(d, "archer_orth")?;
    r.archer_diag = get(d, "archer_diag")?;
    r.ride_orth = get(d, "ride_orth")?;
    r.ride_diag = get(d, "ride_diag")?;
    r.catapult_orth = get(d, "catapult_orth")?;
    r.catapult_diag = get(d, "catapult_diag")?;
    r.catapult_dead = get(d, "catapult_dead")?;
    r.tower_infantry = get(d, "tower_infantry")?;
    r.fortress = [cells4(d, "fortress_red")?, cells4(d, "fortress_black")?];
    r.max_turns = get(d, "max_turns")?;
    r.draw_after = get(d, "draw_after")?;
    r.attack_all = choice(d, "attack_mode", &["single", "all"])? == 1;
    r.blocking = [Blocking::None, Blocking::All, Blocking::ExceptCatapult]
        [choice(d, "shot_blocking", &["none", "all", "except_catapult"])?];
    r.ride_jump = get(d, "ride_jump")?;
    r.rounding_down = choice(d, "fortress_rounding", &["exact", "down"])? == 1;
    r.income_start = choice(d, "income_timing", &["start", "end"])? == 0;
    r.buy_first = choice(d, "turn_order", &["buy_first", "act_first"])? == 0;
    r.placement_any = choice(d, "placement_fortress", &["own", "any"])? == 1;
    r.fortress_buildings = get(d, "fortress_buildings")?;
    r.inside_halved = choice(d, "fortress_inside", &["full", "halved"])? == 1;
    if let Some(d) = r.draw_after {
        if d < 1 {
            return Err(bad(format!("rule draw_after={d}: at least 1, or None")));
        }
    }
    Ok(r)
}

const MAX_VALUE: i64 = 1 << 50;

fn bounded(key: &str, v: i64) -> PyResult<i64> {
    if !(0..=MAX_VALUE).contains(&v) {
        return Err(bad(format!("field {key:?}: {v} is out of range 0..2^50")));
    }
    Ok(v)
}

/// A position from the Python state's fields (`native.fields_of`).
fn read_pos(d: &Bound<'_, PyDict>, tables: &Tables) -> PyResult<(Pos, Vec<u32>)> {
    let mut p = Pos::empty();
    let board: Vec<u8> = get(d, "board")?;
    if board.len() != 100 || board.iter().any(|&v| v > 16) {
        return Err(bad("field \"board\": 100 codes 0..16".into()));
    }
    p.board.copy_from_slice(&board);
    let coins: Vec<i64> = get(d, "coins")?;
    if coins.len() != 2 {
        return Err(bad("field \"coins\": one entry per side".into()));
    }
    p.coins = [bounded("coins", coins[0])?, bounded("coins", coins[1])?];
    let to_move: u8 = get(d, "to_move")?;
    let phase: u8 = get(d, "phase")?;
    if to_move > 1 || phase > OVER_PHASE {
        return Err(bad("fields \"to_move\" 0..1, \"phase\" 0..2".into()));
    }
    p.to_move = to_move;
    p.phase = phase;
    let pending: i32 = get(d, "pending")?;
    if pending >= 0 {
        let a = pending as u32;
        let ok = phase == ACT_PHASE
            && (crate::pole::state::ATT0..NUM_ACTIONS).contains(&a)
            && p.board[(if a >= crate::pole::state::ALL0 {
                a - crate::pole::state::ALL0
            } else {
                (a - crate::pole::state::ATT0) / 100
            }) as usize]
                != 0;
        if !ok {
            return Err(bad(format!("field \"pending\": {pending} is not an attack of this position")));
        }
        if a < crate::pole::state::ALL0 && p.board[((a - crate::pole::state::ATT0) % 100) as usize] == 0 {
            return Err(bad(format!("field \"pending\": the target of {pending} is empty")));
        }
    }
    p.pending = pending.max(-1);
    let fresh: Vec<u8> = get(d, "fresh")?;
    for c in fresh {
        if c >= 100 {
            return Err(bad("field \"fresh\": cells 0..99".into()));
        }
        p.fresh |= 1u128 << c;
    }
    p.bought = bounded("bought", get(d, "bought")?)?;
    p.removed = get(d, "removed")?;
    p.quiet = bounded("quiet", get(d, "quiet")?)?;
    p.turn = bounded("turn", get(d, "turn")?)?;
    let victory: Option<String> = get(d, "victory")?;
    p.victory = match victory.as_deref() {
        None => V_NONE,
        Some("prince") => V_PRINCE,
        Some("draw") => V_DRAW,
        Some("unfinished") => V_UNFINISHED,
        Some(v) => return Err(bad(format!("field \"victory\": {v:?}"))),
    };
    let winner: Option<u8> = get(d, "winner")?;
    p.winner = match winner {
        None => -1,
        Some(w) if w <= 1 => w as i8,
        Some(w) => return Err(bad(format!("field \"winner\": {w}"))),
    };
    let cnt: Vec<i64> = get(d, "counters")?;
    if cnt.len() != p.cnt.len() {
        return Err(bad(format!("field \"counters\": {} numbers", p.cnt.len())));
    }
    for (slot, v) in p.cnt.iter_mut().zip(cnt) {
        *slot = bounded("counters", v)?;
    }
    let history: Vec<u32> = get(d, "history")?;
    if phase == BUY_PHASE && tables.rules.purchases_per_turn == 0 {
        return Err(bad("phase buy with purchases_per_turn=0".into()));
    }
    Ok((p, history))
}

fn tables_of(rules: &Bound<'_, PyDict>) -> PyResult<Arc<Tables>> {
    Ok(Arc::new(Tables::new(read_rules(rules)?).map_err(bad)?))
}

fn agent_of(name: &str, params: Option<&Bound<'_, PyDict>>, seed: Vec<u32>) -> PyResult<Box<dyn Agent<State>>> {
    let p = super::generic_params("pole", params)?;
    if name == "turtle" {
        let turtle: Box<dyn Agent<State>> = Box::new(crate::pole::turtle::Turtle::new(PyRandom::from_key(&seed)));
        return Ok(generic::with_opening(turtle, &p));
    }
    generic::make::<State>(name, PyRandom::from_key(&seed), &p)
        .ok_or_else(|| bad(format!("no native agent {name:?}; known: {:?} and turtle", generic::NAMES)))
}

/// A Pole state in the native core.
#[pyclass(name = "State", module = "workbench._native.pole")]
pub struct PyPole {
    st: State,
}

#[pymethods]
impl PyPole {
    /// `State(rules_dict, fields_dict)`.
    #[new]
    fn py_new(rules: &Bound<'_, PyDict>, fields: &Bound<'_, PyDict>) -> PyResult<Self> {
        let tables = tables_of(rules)?;
        let (pos, history) = read_pos(fields, &tables)?;
        let mut st = State::new(tables, pos);
        st.history = history;
        Ok(PyPole { st })
    }

    fn legal_actions(&self) -> PyResult<Vec<u32>> {
        shield(|| {
            let mut v = Vec::new();
            self.st.legal(&mut v);
            v
        })
    }

    #[pyo3(signature = (action, check = true))]
    fn apply(&mut self, action: i64, check: bool) -> PyResult<()> {
        if !(0..NUM_ACTIONS as i64).contains(&action) {
            return Err(bad(format!("action {action} is not a Pole action number")));
        }
        let st = &mut self.st;
        let r = shield(|| {
            if check {
                st.apply_checked(action as u32)
            } else {
                st.apply_action(action as u32);
                Ok(())
            }
        })?;
        r.map_err(bad)
    }

    fn undo(&mut self) -> PyResult<()> {
        if !self.st.undo_action() {
            return Err(bad("nothing to undo".into()));
        }
        Ok(())
    }

    fn current_player(&self) -> i32 {
        self.st.current_player()
    }

    fn is_terminal(&self) -> bool {
        self.st.is_terminal()
    }

    fn returns(&self) -> Vec<f64> {
        vec![self.st.returns(0), self.st.returns(1)]
    }

    fn evaluate(&self, player: usize) -> PyResult<f64> {
        if player > 1 {
            return Err(bad(format!("player {player}: 0 or 1")));
        }
        shield(|| self.st.eval(player))
    }

    /// `analysis.features` of `player` in their order (the kinds but the Prince, then the terms).
    fn features(&self, player: usize) -> PyResult<Vec<f64>> {
        shield(|| self.st.features(player.min(1)).to_vec())
    }

    fn action_priority(&self, action: u32) -> PyResult<i64> {
        if !self.st.is_legal(action) {
            return Err(bad(format!("action {action} is not legal here")));
        }
        shield(|| self.st.priority(action))
    }

    fn move_number(&self) -> usize {
        self.st.history.len()
    }

    /// The position and counters as plain values (the adapter writes `to_dict` from them).
    fn fields<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let p = &self.st.pos;
        let d = PyDict::new(py);
        d.set_item("board", p.board.to_vec())?;
        d.set_item("coins", p.coins.to_vec())?;
        d.set_item("to_move", p.to_move)?;
        d.set_item("phase", p.phase)?;
        d.set_item("pending", p.pending)?;
        d.set_item("fresh", crate::pole::state::bits(p.fresh).collect::<Vec<_>>())?;
        d.set_item("bought", p.bought)?;
        d.set_item("removed", p.removed)?;
        d.set_item("quiet", p.quiet)?;
        d.set_item("turn", p.turn)?;
        d.set_item(
            "victory",
            if p.victory == V_NONE { None } else { Some(crate::pole::state::VICTORIES[p.victory as usize]) },
        )?;
        d.set_item("winner", if p.winner < 0 { None } else { Some(p.winner) })?;
        d.set_item("counters", p.cnt.to_vec())?;
        d.set_item("history", self.st.history.clone())?;
        Ok(d)
    }

    /// Rules fired by the last action: (rule, side, cell or None).
    fn fired(&self) -> Vec<(&'static str, u8, Option<u8>)> {
        self.st.fired().into_iter().map(|(r, s, c)| (FIRED[r as usize], s, (c != NO_CELL).then_some(c))).collect()
    }

    /// Cells the pending attack removes under `outcome`.
    fn hits(&self, outcome: u32) -> PyResult<Vec<usize>> {
        if self.st.pos.pending < 0 || outcome >= 36 {
            return Err(bad("hits: a chance outcome 0..35 of a pending attack".into()));
        }
        Ok(crate::pole::state::bits(self.st.hits(outcome)).collect())
    }

    fn clone(&self) -> Self {
        PyPole { st: self.st.clone() }
    }

    /// The action classes of `action` here as bits (`classes.py`'s order; `core::restrict`).
    fn classes(&mut self, action: u32) -> PyResult<u64> {
        if action >= NUM_ACTIONS {
            return Err(bad(format!("action {action} is not a Pole action number")));
        }
        let st = &mut self.st;
        shield(|| crate::core::restrict::Classes::classes(st, action, &()))
    }
}

/// A native generic agent for Pole: `Agent(name, params, seed_words)`; `select_action(state)`
/// searches with the GIL released.
#[pyclass(name = "Agent", module = "workbench._native.pole", frozen)]
pub struct PyPoleAgent {
    agent: Mutex<Box<dyn Agent<State>>>,
}

#[pymethods]
impl PyPoleAgent {
    #[new]
    #[pyo3(signature = (name, params, seed))]
    fn py_new(name: &str, params: Option<&Bound<'_, PyDict>>, seed: Vec<u32>) -> PyResult<Self> {
        Ok(PyPoleAgent { agent: Mutex::new(agent_of(name, params, seed)?) })
    }

    fn select_action(&self, py: Python<'_>, state: &mut PyPole) -> PyResult<u32> {
        if state.st.current_player() < 0 {
            return Err(bad("select_action: no player to move (chance or game over)".into()));
        }
        let st = &mut state.st;
        release(py, || {
            let mut agent = self.agent.lock().unwrap_or_else(|e| e.into_inner());
            agent.select_action(st)
        })
    }

    /// The last decision's (score, nodes searched) for alphabeta and search; (0, 0) otherwise.
    fn stats(&self) -> (f64, u64) {
        self.agent.lock().map(|a| a.stats()).unwrap_or((0.0, 0))
    }
}

/// One whole game with the GIL released: `(fields after, plies, n_legal)`; `plies` holds one tuple
/// per action when `events` (action, n_legal, phase, turn, side, coins, pending, chance_36, removed,
/// turn after, fired), else nothing.
#[pyfunction]
#[pyo3(signature = (rules, fields, agents, chance_seed, max_plies, events = false))]
#[allow(clippy::type_complexity)]
fn play_game<'py>(
    py: Python<'py>,
    rules: &Bound<'py, PyDict>,
    fields: &Bound<'py, PyDict>,
    agents: Vec<(String, Option<Bound<'py, PyDict>>, Vec<u32>)>,
    chance_seed: Vec<u32>,
    max_plies: u32,
    events: bool,
) -> PyResult<(Bound<'py, PyDict>, Bound<'py, PyList>, Vec<usize>)> {
    if max_plies > MAX_PLIES {
        return Err(bad(format!("max_plies={max_plies} is above {MAX_PLIES}")));
    }
    if agents.len() != 2 {
        return Err(bad("one agent per seat (2)".into()));
    }
    let tables = tables_of(rules)?;
    let (pos, history) = read_pos(fields, &tables)?;
    let mut boxed = Vec::new();
    for (name, params, seed) in agents {
        boxed.push(agent_of(&name, params.as_ref(), seed)?);
    }
    let mut st = State::new(tables, pos);
    st.history = history;
    let mut chance = PyRandom::from_key(&chance_seed);
    let (plies, n_legal, st) = release(py, move || {
        let (plies, n) = crate::pole::play_game(&mut st, &mut boxed, &mut chance, max_plies as usize, events);
        (plies, n, st)
    })?;
    let rows = PyList::empty(py);
    for p in plies {
        let fired: Vec<(&str, u8, Option<u8>)> =
            p.fired.iter().map(|&(r, s, c)| (FIRED[r as usize], s, (c != NO_CELL).then_some(c))).collect();
        let removed: Vec<usize> = crate::pole::state::bits(p.removed).collect();
        rows.append((
            p.action,
            p.n_legal,
            p.phase,
            p.turn,
            p.side,
            p.coins.to_vec(),
            p.pending,
            p.chance36,
            removed,
            p.turn_after,
            fired,
            p.removed_codes,
        ))?;
    }
    let out = PyPole { st };
    Ok((out.fields(py)?, rows, n_legal))
}

/// One whole game with barred seats (`core::restrict`): `(fields after, n_legal, tallies, illegal)`.
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
    let tables = tables_of(rules)?;
    let (pos, history) = read_pos(fields, &tables)?;
    let mut st = State::new(tables, pos);
    st.history = history;
    let (st, n_legal, tallies, illegal) =
        super::restrict::play(py, "pole", st, (), agents, masks, n_classes, chance_seed, max_plies)?;
    Ok((PyPole { st }.fields(py)?, n_legal, tallies, illegal))
}

/// Random playouts (`protocol_playouts`' streams): the number of actions played.
#[pyfunction]
fn random_playouts(
    py: Python<'_>,
    rules: &Bound<'_, PyDict>,
    fields: &Bound<'_, PyDict>,
    games: u64,
    seed: i64,
    max_actions: usize,
) -> PyResult<u64> {
    let tables = tables_of(rules)?;
    let (pos, _) = read_pos(fields, &tables)?;
    let start = State::new(Arc::clone(&tables), pos);
    release(py, move || crate::pole::random_playouts(&tables, &start, games, seed, max_actions))
}

/// The `workbench._native.pole` submodule.
pub fn register(parent: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = parent.py();
    let m = PyModule::new(py, "pole")?;
    m.add_class::<PyPole>()?;
    m.add_class::<PyPoleAgent>()?;
    m.add_function(wrap_pyfunction!(play_game, &m)?)?;
    m.add_function(wrap_pyfunction!(play_barred, &m)?)?;
    m.add_function(wrap_pyfunction!(random_playouts, &m)?)?;
    m.add("COUNTERS", COUNTERS.to_vec())?;
    m.add("AGENTS", generic::NAMES.to_vec())?;
    parent.add_submodule(&m)?;
    py.import("sys")?.getattr("modules")?.set_item("workbench._native.pole", &m)?;
    Ok(())
}
