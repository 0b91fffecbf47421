//! `search`: the strong agent, the algorithm of `search.py`: iterative deepening negamax with
//! alpha-beta, quiescence on captures, table move / captures / killers / history ordering, and a
//! partial last iteration that still counts once its principal action is searched.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use crate::core::pyrandom::PyRandom;
use crate::core::tt::Table;
use crate::terrafeud::geometry::geo;
use crate::terrafeud::state::{Action, State, FEUDAL};

use super::eval::{evaluate, material, terminal_score, EvalParams};
use super::{access, capture_priority, enemy_weight_hit, sort_by_priority, sort_captures_first, Agent, MAX_SECONDS};

pub const MAX_DEPTH: u32 = 20;
pub const MAX_QDEPTH: u32 = 12;
pub const MAX_NODES: u64 = 5_000_000;
/// Weight of [`attack_balance`] (`search.DEFAULT_ATTACK`).
pub const DEFAULT_ATTACK: f64 = 0.0;

struct OutOfBudget;

/// A strike on an enemy piece, a step onto the enemy castle centre, an Order that strikes
/// (`search.is_noisy`).
pub fn is_noisy(sq: &[u8; 91], side: usize, centre_e: usize, a: &Action) -> bool {
    match a {
        Action::Move { to, .. } => {
            let c = sq[*to as usize];
            (c != 0 && (c >> 3) as usize != side) || *to as usize == centre_e
        }
        Action::Order { n, steps } => steps[..*n as usize].iter().any(|s| {
            let c = sq[s[1] as usize];
            c != 0 && (c >> 3) as usize != side
        }),
        _ => false,
    }
}

/// Own pieces' closeness to the enemy feudal minus the enemy's to ours (`search.attack_balance`):
/// the pressure that turns a material lead into a destroyed feudal, a mate or a castle entry.
pub fn attack_balance(st: &State, side: usize) -> f64 {
    let g = geo();
    let sq = access::squares(st);
    let feudal = [access::feudal(st, 0), access::feudal(st, 1)];
    let mut total = 0.0;
    for (h, &c) in sq.iter().enumerate() {
        if c == 0 || c & 7 == FEUDAL {
            continue;
        }
        let s = (c >> 3) as usize;
        if let Some(f) = feudal[1 - s] {
            let near = 10.0 - g.distance[h][f] as f64;
            total += if s == side { near } else { -near };
        }
    }
    total
}

/// Weight of the trade-when-ahead term (`search.DEFAULT_TRADE`).
pub const DEFAULT_TRADE: f64 = 0.03;

fn count_pieces(st: &State) -> u32 {
    access::squares(st).iter().filter(|&&c| c != 0).count() as u32
}

pub struct SearchAgent {
    rng: PyRandom,
    params: EvalParams,
    attack: f64,
    /// Late move reductions on (`lmr=true`).
    pub lmr: bool,
    /// Weight of [`SearchAgent::trade_bonus`] (`trade=`).
    pub trade: f64,
    root_pieces: u32,
    depth: u32,
    nodes: u64,
    seconds: Option<f64>,
    qdepth: u32,
    count: u64,
    deadline: Instant,
    tt: Table<Action>,
    killers: Vec<[Option<Action>; 2]>,
    history: HashMap<Action, u64>,
    /// Deepest iteration used by the last decision.
    pub reached: u32,
    /// Root value of the last decision's deepest completed iteration (side to move's view), as the
    /// Python twin's `score`: the board shows it as the agent's evaluation.
    score: Option<f64>,
    found_value: f64,
}

impl SearchAgent {
    /// The material lead (feudals aside, capped at 10) times the pieces gone since the root:
    /// ahead, every exchange brings the castle nearer; behind, exchanges are avoided.
    fn trade_bonus(&self, st: &State, side: usize) -> f64 {
        let lead = material(st, side, &self.params).clamp(-10.0, 10.0);
        lead * (self.root_pieces as f64 - count_pieces(st) as f64)
    }

    #[allow(clippy::too_many_arguments)]
    pub fn new(
        rng: PyRandom,
        params: EvalParams,
        depth: u32,
        nodes: u64,
        seconds: Option<f64>,
        qdepth: u32,
        attack: f64,
    ) -> Self {
        SearchAgent {
            rng,
            params,
            attack,
            lmr: true,
            trade: DEFAULT_TRADE,
            root_pieces: 0,
            depth,
            nodes,
            seconds,
            qdepth,
            count: 0,
            deadline: Instant::now(),
            tt: Table::default(),
            killers: vec![[None, None]; MAX_DEPTH as usize + 1],
            history: HashMap::new(),
            reached: 0,
            score: None,
            found_value: 0.0,
        }
    }

    #[inline]
    fn tick(&mut self) -> Result<(), OutOfBudget> {
        self.count += 1;
        if self.count > self.nodes
            || (self.count & 63 == 0 && Instant::now() > self.deadline)
            || crate::core::interrupt::poll()
        {
            return Err(OutOfBudget);
        }
        Ok(())
    }

    /// (best action or None if not even the first finished, finished?)
    fn root(&mut self, st: &mut State, acts: &[Action], depth: u32) -> (Option<Action>, bool) {
        let (mut alpha, beta) = (f64::NEG_INFINITY, f64::INFINITY);
        let mut best = None;
        for a in acts {
            st.apply(a);
            let r = self.negamax(st, depth - 1, -beta, -alpha, 1);
            st.undo();
            match r {
                Err(OutOfBudget) => return (best, false),
                Ok(v) => {
                    let v = -v;
                    if v > alpha || best.is_none() {
                        alpha = v;
                        best = Some(*a);
                        self.found_value = v;
                    }
                }
            }
        }
        (best, true)
    }

    fn negamax(
        &mut self,
        st: &mut State,
        depth: u32,
        mut alpha: f64,
        beta: f64,
        ply: usize,
    ) -> Result<f64, OutOfBudget> {
        if access::is_over(st) {
            return Ok(terminal_score(st, access::to_move(st)));
        }
        if depth == 0 {
            return self.quiesce(st, alpha, beta, self.qdepth);
        }
        self.tick()?;
        let key = access::key(st);
        let (settled, tt_move) = self.tt.probe(key, depth, alpha, beta);
        if let Some(v) = settled {
            return Ok(v);
        }
        let alpha0 = alpha;
        let mut best_v = f64::NEG_INFINITY;
        let mut best_a = None;
        let mut acts = st.legal_actions();
        let side = access::to_move(st);
        let sq = *access::squares(st);
        let centre = access::castle_centre(st)[1 - side];
        let slot = ply.min(MAX_DEPTH as usize);
        let killers = self.killers[slot];
        {
            let w = &self.params.weights;
            let history = &self.history;
            sort_by_priority(&mut acts, |a| {
                if Some(*a) == tt_move {
                    return -1e12;
                }
                match a {
                    Action::Move { from, to, .. } => {
                        let t = *to as usize;
                        if t == centre {
                            return -1e11;
                        }
                        let c = sq[t];
                        if c != 0 && (c >> 3) as usize != side {
                            return -1e6 * w[c as usize] + w[sq[*from as usize] as usize];
                        }
                    }
                    Action::Order { .. } => {
                        let hit = enemy_weight_hit(&sq, side, w, a);
                        if hit != 0.0 {
                            return -1e6 * hit;
                        }
                    }
                    Action::Shot { target, .. } => {
                        let c = sq[*target as usize];
                        if c != 0 && (c >> 3) as usize != side {
                            return -5e4 - w[c as usize];
                        }
                    }
                    _ => {}
                }
                if Some(*a) == killers[0] {
                    return -1e5;
                }
                if Some(*a) == killers[1] {
                    return -1e5 + 1.0;
                }
                -(history.get(a).copied().unwrap_or(0) as f64)
            });
        }
        for (i, a) in acts.iter().enumerate() {
            // Late move reduction: a late quiet action is first searched a ply shallower and only
            // searched in full if it then looks better than what the earlier actions secured.
            let reduce = self.lmr
                && depth >= 3
                && i >= 3
                && Some(*a) != tt_move
                && Some(*a) != killers[0]
                && Some(*a) != killers[1]
                && !is_noisy(&sq, side, centre, a)
                && !matches!(a, Action::Shot { .. });
            st.apply(a);
            let mut r = if reduce { self.negamax(st, depth - 2, -beta, -alpha, ply + 1) } else { Ok(0.0) };
            if !reduce || matches!(r, Ok(v) if -v > alpha) {
                r = self.negamax(st, depth - 1, -beta, -alpha, ply + 1);
            }
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
                if !is_noisy(&sq, side, centre, a) {
                    let k = &mut self.killers[slot];
                    if k[0] != Some(*a) {
                        k[1] = k[0];
                        k[0] = Some(*a);
                    }
                    *self.history.entry(*a).or_insert(0) += (depth * depth) as u64;
                }
                break;
            }
        }
        self.tt.store(key, depth, best_v, alpha0, beta, best_a);
        Ok(best_v)
    }

    fn quiesce(&mut self, st: &mut State, mut alpha: f64, beta: f64, qdepth: u32) -> Result<f64, OutOfBudget> {
        self.tick()?;
        let side = access::to_move(st);
        let mut stand = evaluate(st, side, &self.params);
        if !access::is_over(st) {
            if self.attack != 0.0 {
                stand += self.attack * attack_balance(st, side);
            }
            if self.trade != 0.0 {
                stand += self.trade * self.trade_bonus(st, side);
            }
        }
        if qdepth == 0 || stand >= beta {
            return Ok(stand);
        }
        if stand > alpha {
            alpha = stand;
        }
        let mut best = stand;
        let sq = *access::squares(st);
        let centre = access::castle_centre(st)[1 - side];
        let w = self.params.weights;
        let mut noisy: Vec<Action> =
            st.legal_actions().into_iter().filter(|a| is_noisy(&sq, side, centre, a)).collect();
        sort_by_priority(&mut noisy, |a| capture_priority(&sq, side, centre, &w, a));
        for a in &noisy {
            st.apply(a);
            let r = if access::is_over(st) {
                Ok(terminal_score(st, side))
            } else {
                self.quiesce(st, -beta, -alpha, qdepth - 1).map(|v| -v)
            };
            st.undo();
            let v = r?;
            if v > best {
                best = v;
            }
            if v > alpha {
                alpha = v;
            }
            if alpha >= beta {
                break;
            }
        }
        Ok(best)
    }
}

impl Agent for SearchAgent {
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
        sort_captures_first(st, &mut acts, &self.params.weights);
        self.count = 0;
        self.root_pieces = count_pieces(st);
        self.deadline = Instant::now() + Duration::from_secs_f64(self.seconds.unwrap_or(MAX_SECONDS));
        self.tt.clear();
        self.history.clear();
        for k in self.killers.iter_mut() {
            *k = [None, None];
        }
        let mut best = acts[0];
        self.reached = 0;
        for d in 1..=self.depth {
            let (found, complete) = self.root(st, &acts, d);
            if let Some(b) = found {
                best = b;
                self.reached = d;
                self.score = Some(self.found_value);
                let i = acts.iter().position(|a| *a == b).expect("best is a root action");
                let b = acts.remove(i);
                acts.insert(0, b);
            }
            if !complete {
                break;
            }
        }
        self.tt.release();
        self.history = HashMap::new();
        best
    }

    fn searched(&self) -> u64 {
        self.count
    }

    fn score(&self) -> Option<f64> {
        self.score
    }
}
