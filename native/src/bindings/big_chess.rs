//! `workbench._native.big_chess`: big chess's native game context, state, agents, whole games and playouts.
//!
//! The Python adapter (`workbench/games/big_chess/native.py`) hands over a game's fixed part once (`Game`:
//! the cards in the card file format as JSON text, the rules' costs and incomes per card, the board's rows
//! and facings, the team string, every rule) and a position as the Python state's fields, so scenario
//! positions, a designer's cards and boards all play natively. Everything given is range-checked again
//! here (a library's surface), long work runs without the GIL and polls for Ctrl-C, and a panic becomes a
//! `RuntimeError`.

use std::sync::Arc;

use pyo3::exceptions::PyIndexError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use super::kit::{per_ply, play_released, seat_agents, submodule};
use super::{release, shield, MAX_PLIES};
use crate::big_chess::cards::{merge, parse_cards, parse_json};
use crate::big_chess::classes::BuyKeys;
use crate::big_chess::context::{Context, Rules};
use crate::big_chess::play;
use crate::big_chess::state::{part_offsets, Piece, State, COUNTERS, NC, R_DRAW};
use crate::core::protocol::Game;
use crate::core::pyrandom::PyRandom;

/// One piece as fields carry it: (cell, owner, card, facing, levels, cost, trophies, moved, travelled).
type PieceRow = (usize, usize, usize, u8, u32, i64, i64, bool, i64);

const GAME: &str = "big-chess";

/// One `fired` entry as Python reads it: (counter, player, cell or None).
fn fired_item(&(r, p, c): &(u8, u8, i32)) -> (&'static str, u8, Option<i32>) {
    (COUNTERS[r as usize], p, (c >= 0).then_some(c))
}

fn bad(msg: String) -> PyErr {
    super::kit::bad(GAME, msg)
}

fn get<'py, T: FromPyObject<'py>>(d: &Bound<'py, PyDict>, key: &str) -> PyResult<T> {
    super::kit::field(GAME, d, key)
}

/// A game's fixed part (`context.Context`), shared by its states.
#[pyclass(name = "Game", module = "workbench._native.big_chess", frozen)]
pub struct PyGame {
    ctx: Arc<Context>,
}

#[pymethods]
impl PyGame {
    /// `cards`: JSON text of the game's cards in the card file format (a list); `cost`/`income`: the rules'
    /// value per card; `rows`: the board; `facing`: (letter index, facing index) pairs; `rules`: name -> int
    /// (toggles and choices as the index of their value); the three lists of rules as they are.
    #[new]
    #[allow(clippy::too_many_arguments)]
    fn py_new(
        cards: &str,
        cost: Vec<i64>,
        income: Vec<i64>,
        rows: Vec<String>,
        facing: Vec<(u8, u8)>,
        teams: &str,
        rules: &Bound<'_, PyDict>,
        promotion_targets: Vec<String>,
        fort_levels: Vec<u8>,
        deploy_plan: Vec<String>,
    ) -> PyResult<Self> {
        if cards.len() > 4_000_000
            || promotion_targets.len() > 64
            || deploy_plan.len() > 200
            || fort_levels.iter().any(|&l| l > 31)
        {
            return Err(bad("cards, promotion_targets, deploy_plan or fort_levels out of range".into()));
        }
        let mut r = Rules::default();
        for (k, v) in rules.iter() {
            let name: String = k.extract()?;
            let value: i64 = v.extract().map_err(|e| bad(format!("rule {name}: {e}")))?;
            r.set(&name, value).map_err(bad)?;
        }
        r.promotion_targets = promotion_targets;
        r.fort_levels = fort_levels;
        r.deploy_plan = deploy_plan;
        let json = parse_json(cards).map_err(|e| bad(format!("cards: {e}")))?;
        let list = parse_cards(&json).map_err(|e| bad(format!("cards: {e}")))?;
        let list = merge(Vec::new(), list).map_err(|e| bad(format!("cards: {e}")))?;
        let ctx = Context::new(r, list, Some(cost), Some(income), &rows, &facing, teams).map_err(bad)?;
        if part_offsets(ctx.n as u64, ctx.cards.len() as u64, ctx.promo.len() as u64).is_none() {
            return Err(bad(
                "the board, cards and promotion targets name more actions than the core numbers (2^32)".into()
            ));
        }
        Ok(PyGame { ctx: Arc::new(ctx) })
    }

    /// `new_initial_state` in the core: the setup phase, the army, or deployed.
    fn initial(&self) -> PyResult<PyState> {
        let st = shield(|| State::new_game(self.ctx.clone()))?.map_err(bad)?;
        Ok(PyState { st })
    }

    /// A state from a Python state's fields (`native.fields_of`).
    fn state(&self, fields: &Bound<'_, PyDict>) -> PyResult<PyState> {
        Ok(PyState { st: state_of(&self.ctx, fields)? })
    }

    #[getter]
    fn players(&self) -> usize {
        self.ctx.players.len()
    }
}

fn state_of(ctx: &Arc<Context>, d: &Bound<'_, PyDict>) -> PyResult<State> {
    let np = ctx.players.len();
    let nk = ctx.cards.len();
    let mut st = State::empty(ctx.clone());
    let small = |k: &str, v: i64| -> PyResult<i64> {
        if v.abs() > (1 << 40) {
            return Err(bad(format!("field {k:?}: {v} is out of range")));
        }
        Ok(v)
    };
    let players = |k: &str, v: Vec<usize>| -> PyResult<u32> {
        if v.iter().any(|&p| p >= np) {
            return Err(bad(format!("field {k:?}: a player index 0..{}", np - 1)));
        }
        Ok(v.iter().fold(0, |m, &p| m | 1 << p))
    };
    st.c.setup = get(d, "setup")?;
    st.c.to_move = get(d, "to_move")?;
    if st.c.to_move >= np {
        return Err(bad("field \"to_move\": a player index".into()));
    }
    st.c.turn_no = small("turn", get(d, "turn")?)?;
    st.c.quiet = small("quiet", get(d, "quiet")?)?;
    let treasury: Vec<i64> = get(d, "treasury")?;
    if treasury.len() != np {
        return Err(bad(format!("field \"treasury\": {np} values")));
    }
    st.c.treasury = treasury.into_iter().map(|v| small("treasury", v)).collect::<PyResult<_>>()?;
    let pieces: Vec<PieceRow> = get(d, "pieces")?;
    for (c, owner, card, facing, levels, cost, trophies, moved, travelled) in pieces {
        if c >= ctx.n || owner >= np || card >= nk || facing >= 8 {
            return Err(bad(format!(
                "field \"pieces\": cell {c}, owner {owner}, card {card} or facing {facing} out of range"
            )));
        }
        st.c.pieces[c] = Some(Piece {
            owner: owner as u8,
            card: card as u16,
            facing,
            moved,
            levels,
            cost: small("cost", cost)?,
            trophies: small("trophies", trophies)?,
            travelled: small("travelled", travelled)?,
        });
    }
    let shadows: Vec<(usize, usize)> = get(d, "shadows")?;
    if shadows.iter().any(|&(a, b)| a >= ctx.n || b >= ctx.n) {
        return Err(bad("field \"shadows\": cells out of range".into()));
    }
    st.c.shadows = shadows.into_iter().map(|(a, b)| (a as u16, b as u16)).collect();
    st.c.protected = players("protected", get(d, "protected")?)?;
    let locks: Vec<(usize, usize)> = get(d, "locks")?;
    if locks.iter().any(|&(a, b)| a >= np || b >= np) {
        return Err(bad("field \"locks\": player indices".into()));
    }
    st.c.locks = locks.into_iter().map(|(a, b)| (a as u8, b as u8)).collect();
    st.c.out = players("out", get(d, "out")?)?;
    st.c.ready = players("ready", get(d, "ready")?)?;
    st.c.winner_team = get(d, "winner_team")?;
    st.c.result = get(d, "result")?;
    if st.c.result > R_DRAW || st.c.winner_team < -1 || st.c.winner_team >= ctx.team_members.len() as i32 {
        return Err(bad("fields \"result\"/\"winner_team\" out of range".into()));
    }
    st.c.moves = get(d, "moves")?;
    let counts: Vec<i64> = get(d, "counts")?;
    if counts.len() != NC * np {
        return Err(bad(format!("field \"counts\" holds {} values, not {}", counts.len(), NC * np)));
    }
    st.c.counts = counts;
    let buys: Vec<i64> = get(d, "buys")?;
    let bought: Vec<bool> = get(d, "bought")?;
    if buys.len() != nk * np || bought.len() != nk {
        return Err(bad("fields \"buys\"/\"bought\": per card and player".into()));
    }
    st.c.buys = buys;
    st.c.bought = bought;
    let lead10: Option<Vec<i64>> = get(d, "lead10")?;
    if lead10.as_ref().is_some_and(|l| l.len() != np) {
        return Err(bad("field \"lead10\": one value per player".into()));
    }
    st.c.lead10 = lead10;
    let fired: Vec<(u8, u8, i32)> = get(d, "fired")?;
    if fired.len() > 10_000 || fired.iter().any(|f| f.0 as usize >= NC || f.1 as usize >= np || f.2 >= ctx.n as i32) {
        return Err(bad("field \"fired\" out of range".into()));
    }
    st.c.fired = fired;
    Ok(st)
}

fn fields<'py>(py: Python<'py>, st: &State) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let np = st.np();
    let bits = |m: u32| (0..np).filter(|&p| m >> p & 1 == 1).collect::<Vec<usize>>();
    d.set_item("setup", st.c.setup)?;
    d.set_item("to_move", st.c.to_move)?;
    d.set_item("turn", st.c.turn_no)?;
    d.set_item("quiet", st.c.quiet)?;
    d.set_item("treasury", st.c.treasury.clone())?;
    let pieces: Vec<PieceRow> =
        st.c.pieces
            .iter()
            .enumerate()
            .filter_map(|(c, p)| {
                p.map(|p| {
                    (c, p.owner as usize, p.card as usize, p.facing, p.levels, p.cost, p.trophies, p.moved, p.travelled)
                })
            })
            .collect();
    d.set_item("pieces", pieces)?;
    d.set_item("shadows", st.c.shadows.clone())?;
    d.set_item("protected", bits(st.c.protected))?;
    d.set_item("locks", st.c.locks.clone())?;
    d.set_item("out", bits(st.c.out))?;
    d.set_item("ready", bits(st.c.ready))?;
    d.set_item("winner_team", st.c.winner_team)?;
    d.set_item("result", st.c.result)?;
    d.set_item("moves", st.c.moves)?;
    d.set_item("counts", st.c.counts.clone())?;
    d.set_item("buys", st.c.buys.clone())?;
    d.set_item("bought", st.c.bought.clone())?;
    d.set_item("lead10", st.c.lead10.clone())?;
    d.set_item("fired", st.c.fired.clone())?;
    Ok(d)
}

/// A native big-chess state (`workbench.games.big_chess.native.NativeBigChessState` wraps it).
#[pyclass(name = "State", module = "workbench._native.big_chess", unsendable)]
pub struct PyState {
    st: State,
}

#[pymethods]
impl PyState {
    /// Every legal action's canonical text in code-point order (the setup phase: every unready player's).
    fn legal_actions(&self) -> PyResult<Vec<String>> {
        shield(|| self.st.all_legal().iter().map(|a| self.st.text(&a.d)).collect())
    }

    /// The dense ints (`action_to_int`) of `legal_actions()`, in the same order.
    fn legal_ids(&self) -> PyResult<Vec<u32>> {
        shield(|| self.st.all_legal().iter().map(|a| a.id).collect())
    }

    /// The mover's own actions (`legal_actions(current_player())`) as dense ints.
    fn own_ids(&self) -> PyResult<Vec<u32>> {
        shield(|| {
            let mut out = Vec::new();
            self.st.legal_actions(&mut out);
            out
        })
    }

    /// The dense int of a legal action's text, or None when it is not legal here.
    fn id_of(&self, text: &str) -> PyResult<Option<u32>> {
        if text.len() > 200 {
            return Ok(None);
        }
        shield(|| self.st.find_text(text))
    }

    /// The canonical text of legal action `id`, or None.
    fn text_of(&self, id: u32) -> PyResult<Option<String>> {
        shield(|| self.st.find(id).map(|d| self.st.text(&d)))
    }

    /// Play a legal action by its text or dense int; ValueError when it is not legal.
    fn apply(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let id = if let Ok(text) = action.extract::<String>() {
            self.id_of(&text)?
        } else {
            action.extract::<u32>().ok().filter(|&a| shield(|| self.st.find(a).is_some()).unwrap_or(false))
        };
        let Some(id) = id else { return Err(bad(format!("action {action} is not legal here"))) };
        shield(|| self.st.apply_id(id)).map(|_| ())
    }

    fn undo(&mut self) -> PyResult<()> {
        if !self.st.undo_last() {
            return Err(PyIndexError::new_err("undo: no action to take back"));
        }
        Ok(())
    }

    /// `resign(player)`; ValueError when the player cannot resign.
    fn resign(&mut self, player: usize) -> PyResult<()> {
        if !shield(|| self.st.resign(player))? {
            return Err(bad(format!("resign: player {player} is not an active player, or the game is over")));
        }
        Ok(())
    }

    fn history_len(&self) -> usize {
        self.st.history_len()
    }

    fn current_player(&self) -> i32 {
        self.st.current_player()
    }

    fn is_terminal(&self) -> bool {
        self.st.is_terminal()
    }

    fn returns(&self) -> Vec<f64> {
        (0..self.st.np()).map(|p| self.st.returns(p)).collect()
    }

    fn evaluate(&self, player: usize) -> PyResult<f64> {
        if player >= self.st.np() {
            return Err(bad(format!("evaluate: no player {player}")));
        }
        shield(|| self.st.eval(player))
    }

    /// `evaluation_features` of `player` (the cards but the King, then upgrades, treasury, trophies).
    fn features(&self, player: usize) -> PyResult<Vec<f64>> {
        if player >= self.st.np() {
            return Err(bad(format!("features: no player {player}")));
        }
        shield(|| self.st.features(player))
    }

    /// `action_priority` of a legal action's text (0 for anything else, as in Python).
    fn action_priority(&self, text: &str) -> PyResult<i64> {
        shield(|| self.st.find_text(text).and_then(|id| self.st.find(id)).map_or(0, |d| self.st.priority(&d)))
    }

    fn move_number(&self) -> u64 {
        self.st.c.moves
    }

    fn fields<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        fields(py, &self.st)
    }

    fn fired(&self) -> Vec<(&'static str, u8, Option<i32>)> {
        self.st.c.fired.iter().map(fired_item).collect()
    }

    /// An independent copy, undo history included.
    fn clone(&self) -> PyState {
        PyState { st: self.st.clone() }
    }

    /// The action classes of legal action `id` here as bits (`classes.py`'s order; `core::restrict`), its
    /// buy classes naming the cards `buy_keys` in declaration order.
    fn classes(&mut self, id: u32, buy_keys: Vec<String>) -> PyResult<u64> {
        if buy_keys.len() + 3 > crate::core::restrict::MAX_CLASSES {
            return Err(bad("too many buy classes".into()));
        }
        let st = &mut self.st;
        let table = BuyKeys(buy_keys);
        shield(|| crate::core::restrict::Classes::classes(st, id, &table))
    }
}

crate::generic_agent_class!(PyAgent, State, PyState, "workbench._native.big_chess", "big-chess");

/// A whole game without the GIL from `fields` (None: the game's start): `agents` one `(name, params, seed)`
/// per seat; returns the trace and the final fields.
#[pyfunction]
#[pyo3(signature = (game, fields, agents, max_plies, events=true))]
fn play_game<'py>(
    py: Python<'py>,
    game: &PyGame,
    fields: Option<&Bound<'py, PyDict>>,
    agents: &Bound<'py, PyList>,
    max_plies: u64,
    events: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let st = match fields {
        Some(f) => state_of(&game.ctx, f)?,
        None => shield(|| State::new_game(game.ctx.clone()))?.map_err(bad)?,
    };
    let mut ag = seat_agents::<State>(GAME, agents, st.np())?;
    let cap = max_plies.min(u64::from(MAX_PLIES));
    let (tr, st) = play_released(py, st, move |st| play::play(st, &mut ag, cap, events))?;
    let d = PyDict::new(py);
    d.set_item("actions", tr.actions)?;
    d.set_item("n_legal", tr.n_legal)?;
    d.set_item("movers", tr.movers)?;
    d.set_item("stopped", tr.stopped)?;
    if events {
        d.set_item("kinds", tr.kinds)?;
        d.set_item("pieces", tr.pieces)?;
        d.set_item("turns", tr.turns)?;
        d.set_item("treasury", tr.treasury)?;
        d.set_item("trophies", tr.trophies)?;
        d.set_item("fired", per_ply(&tr.fired, &tr.fired_end, fired_item))?;
    }
    d.set_item("final", self::fields(py, &st)?)?;
    Ok(d)
}

/// One whole game with barred seats (`core::restrict`) from `fields`: `(final fields, n_legal, tallies,
/// illegal)`; `agents` are `(name, params or None, seed words)`, `buy_keys` the declared buy classes' cards.
#[pyfunction]
#[pyo3(signature = (game, fields, agents, masks, n_classes, buy_keys, chance_seed, max_plies))]
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
fn play_barred<'py>(
    py: Python<'py>,
    game: &PyGame,
    fields: &Bound<'py, PyDict>,
    agents: Vec<(String, Option<Bound<'py, PyDict>>, Vec<u32>)>,
    masks: Vec<u64>,
    n_classes: usize,
    buy_keys: Vec<String>,
    chance_seed: Vec<u32>,
    max_plies: u32,
) -> PyResult<(Bound<'py, PyDict>, Vec<usize>, Vec<super::restrict::SeatTally>, Option<(u32, usize)>)> {
    if buy_keys.len() + 3 != n_classes {
        return Err(bad(format!(
            "{} buy classes and strike, push, portal are not {n_classes} classes",
            buy_keys.len()
        )));
    }
    let st = state_of(&game.ctx, fields)?;
    let (st, n_legal, tallies, illegal) =
        super::restrict::play(py, GAME, st, BuyKeys(buy_keys), agents, masks, n_classes, chance_seed, max_plies)?;
    Ok((self::fields(py, &st)?, n_legal, tallies, illegal))
}

/// Random playouts without the GIL (`protocol_playouts`): one game per seed from the game's start (or
/// `fields`), uniform choices from `random.Random(seed)`, at most `max_actions` each; actions per game.
#[pyfunction]
#[pyo3(signature = (game, seeds, max_actions, fields=None))]
fn random_playouts(
    py: Python<'_>,
    game: &PyGame,
    seeds: Vec<i128>,
    max_actions: u64,
    fields: Option<&Bound<'_, PyDict>>,
) -> PyResult<Vec<u64>> {
    let start = match fields {
        Some(f) => state_of(&game.ctx, f)?,
        None => shield(|| State::new_game(game.ctx.clone()))?.map_err(bad)?,
    };
    let cap = max_actions.min(u64::from(MAX_PLIES));
    release(py, move || {
        seeds
            .into_iter()
            .map(|seed| {
                let mut st = start.clone();
                let mut rng = PyRandom::new(seed);
                play::random_playout(&mut st, &mut rng, cap)
            })
            .collect()
    })
}

/// Register the submodule `workbench._native.big_chess`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    submodule(m, "big_chess", |sub| {
        sub.add_class::<PyGame>()?;
        sub.add_class::<PyState>()?;
        sub.add_class::<PyAgent>()?;
        sub.add_function(wrap_pyfunction!(play_game, sub)?)?;
        sub.add_function(wrap_pyfunction!(play_barred, sub)?)?;
        sub.add_function(wrap_pyfunction!(random_playouts, sub)?)?;
        sub.add("COUNTERS", COUNTERS.to_vec())?;
        sub.add("STARTS", ["setup", "army", "deployed"].to_vec())
    })
}
