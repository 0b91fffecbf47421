//! `alphabeta`: iterative deepening negamax with alpha-beta, capture ordering and a
//! transposition table under a node and time budget; the algorithm of `alphabeta.py`.

use std::time::Instant;

use crate::core::pyrandom::PyRandom;
use crate::core::tt::Table;
use crate::terrafeud::state::{Action, State};

use super::eval::{evaluate, terminal_score, EvalParams};
use super::{access, capture_priority, sort_by_priority, sort_captures_first, Agent, MAX_SECONDS};

pub const MAX_DEPTH: u32 = 20;
pub const MAX_NODES: u64 = 5_000_000;

struct OutOfBudget;

pub struct AlphaBetaAgent {
    rng: PyRandom,
    params: EvalParams,
    depth: u32,
    nodes: u64,
    seconds: Option<f64>,
    count: u64,
    deadline: Instant,
    tt: Table<Action>,
    score: Option<f64>,
}

impl AlphaBetaAgent {
    pub fn new(rng: PyRandom, params: EvalParams, depth: u32, nodes: u64, seconds: Option<f64>) -> Self {
        AlphaBetaAgent {
            rng,
            params,
            depth,
            nodes,
            seconds,
            count: 0,
            deadline: Instant::now(),
            tt: Table::default(),
            score: None,
        }
    }

    /// The best root action of one iteration and its value (the side to move's view).
    fn root(
        &mut self,
        st: &mut State,
        acts: &[Action],
        depth: u32,
        enforce: bool,
    ) -> Result<(Action, f64), OutOfBudget> {
        let (mut alpha, beta) = (f64::NEG_INFINITY, f64::INFINITY);
        let mut order = acts.to_vec();
        if depth == 1 {
            sort_captures_first(st, &mut order, &self.params.weights);
        }
        let mut best = order[0];
        for a in &order {
            st.apply(a);
            let r = self.negamax(st, depth - 1, -beta, -alpha, enforce);
            st.undo();
            let v = -r?;
            if v > alpha {
                alpha = v;
                best = *a;
            }
        }
        Ok((best, alpha))
    }

    fn negamax(
        &mut self,
        st: &mut State,
        depth: u32,
        mut alpha: f64,
        beta: f64,
        enforce: bool,
    ) -> Result<f64, OutOfBudget> {
        self.count += 1;
        if enforce
            && (self.count > self.nodes
                || (self.count & 63 == 0 && Instant::now() > self.deadline)
                || crate::core::interrupt::poll())
        {
            return Err(OutOfBudget);
        }
        let side = access::to_move(st);
        if access::is_over(st) {
            return Ok(terminal_score(st, side));
        }
        if depth == 0 {
            return Ok(evaluate(st, side, &self.params));
        }
        let key = access::key(st);
        let (settled, tt_move) = self.tt.probe(key, depth, alpha, beta);
        if let Some(v) = settled {
            return Ok(v);
        }
        let alpha0 = alpha;
        let mut best_v = f64::NEG_INFINITY;
        let mut best_a = None;
        let mut acts = st.legal_actions();
        let sq = *access::squares(st);
        let centre = access::castle_centre(st)[1 - side];
        let w = self.params.weights;
        sort_by_priority(&mut acts, |a| {
            if Some(*a) == tt_move {
                -1e9
            } else {
                capture_priority(&sq, side, centre, &w, a)
            }
        });
        for a in &acts {
            st.apply(a);
            let r = self.negamax(st, depth - 1, -beta, -alpha, enforce);
            st.undo();
            let v = -r?;
            if v > best_v {
                best_v = v;
                best_a = Some(*a);
            }
            if v > alpha {
                alpha = v;
            }
            if alpha >= beta {
                break;
            }
        }
        self.tt.store(key, depth, best_v, alpha0, beta, best_a);
        Ok(best_v)
    }
}

impl Agent for AlphaBetaAgent {
    fn select_action(&mut self, st: &mut State) -> Action {
        self.score = None;
        let mut acts = st.legal_actions();
        if acts.is_empty() {
            return Action::Pass;
        }
        if acts.len() == 1 {
            return acts[0];
        }
        self.rng.shuffle(&mut acts);
        self.count = 0;
        self.deadline = Instant::now() + std::time::Duration::from_secs_f64(self.seconds.unwrap_or(MAX_SECONDS));
        self.tt.clear();
        let mut best = acts[0];
        for d in 1..=self.depth {
            match self.root(st, &acts, d, d > 1) {
                Ok((b, v)) => {
                    best = b;
                    self.score = Some(v);
                }
                Err(OutOfBudget) => break,
            }
            let i = acts.iter().position(|a| *a == best).expect("best is a root action");
            let b = acts.remove(i);
            acts.insert(0, b);
        }
        self.tt.release();
        best
    }

    fn searched(&self) -> u64 {
        self.count
    }

    fn score(&self) -> Option<f64> {
        self.score
    }
}
