//! `GenericAlphaBeta` / `GenericSearch`: iterative deepening alpha-beta by team, expectiminimax at
//! chance nodes (`chance_classes`: outcomes merged by effect, one child each, summed in order), moves
//! ordered by `action_priority` (a stable sort, best first), the same node budget counted at the same
//! places, ties broken by `rng.choice`. Under hidden information it searches the mover's view (its seed
//! drawn first, as `searchable` draws it).

use std::time::{Duration, Instant};

use super::{leaf, searchable, Agent};
use crate::core::protocol::{Game, CHANCE};
use crate::core::pyrandom::PyRandom;

pub struct AlphaBeta {
    pub rng: PyRandom,
    pub depth: u32,
    pub nodes: u64,
    pub seconds: f64,
    /// Value of the last decision's best action, its depth and the nodes it searched.
    pub score: f64,
    pub depth_reached: u32,
    pub nodes_searched: u64,
    me: usize,
    used: u64,
    deadline: Instant,
}

struct Stop;

impl AlphaBeta {
    pub fn new(rng: PyRandom, depth: u32, nodes: u64, seconds: f64) -> Self {
        AlphaBeta {
            rng,
            depth,
            nodes,
            seconds,
            score: 0.0,
            depth_reached: 0,
            nodes_searched: 0,
            me: 0,
            used: 0,
            deadline: Instant::now(),
        }
    }

    /// `_Budget.spend`.
    #[inline]
    fn spend(&mut self) -> bool {
        self.used += 1;
        self.used > self.nodes || (self.used & 255 == 0 && Instant::now() > self.deadline)
    }

    /// `_ordered`: stable sort by priority, highest first.
    fn ordered<G: Game>(state: &G, actions: &mut [u32]) {
        let mut keyed: Vec<(i64, u32)> = actions.iter().map(|&a| (state.action_priority(a), a)).collect();
        keyed.sort_by_key(|x| std::cmp::Reverse(x.0));
        for (slot, (_, a)) in actions.iter_mut().zip(keyed) {
            *slot = a;
        }
    }

    fn root<G: Game>(&mut self, root: &mut G, actions: &[u32], depth: u32) -> Result<Vec<(f64, u32)>, Stop> {
        let mut out = Vec::with_capacity(actions.len());
        let mut alpha = f64::NEG_INFINITY;
        for &a in actions {
            root.apply(a);
            let v = self.value(root, depth - 1, alpha, f64::INFINITY);
            root.undo();
            let v = v?;
            out.push((v, a));
            alpha = alpha.max(v - 1e-9);
        }
        Ok(out)
    }

    fn value<G: Game>(&mut self, state: &mut G, depth: u32, mut alpha: f64, mut beta: f64) -> Result<f64, Stop> {
        if self.spend() {
            return Err(Stop);
        }
        if state.is_terminal() {
            return Ok(leaf(state, self.me));
        }
        let player = state.current_player();
        if player == CHANCE {
            // `chance_classes`, as Python expands them: one child per effect with its summed
            // probability, so the nodes are spent (and the floats summed) where Python's are.
            let mut outs = Vec::new();
            state.chance_classes(&mut outs);
            let mut total = 0.0;
            for (o, p) in outs {
                state.apply(o);
                let v = self.value(state, depth, f64::NEG_INFINITY, f64::INFINITY);
                state.undo();
                total += p * v?;
            }
            return Ok(total);
        }
        if depth == 0 {
            return Ok(leaf(state, self.me));
        }
        let maximise = state.team_of(player as usize) == state.team_of(self.me);
        let mut best = if maximise { f64::NEG_INFINITY } else { f64::INFINITY };
        let mut acts = Vec::new();
        state.legal_actions(&mut acts);
        Self::ordered(state, &mut acts);
        for a in acts {
            state.apply(a);
            let v = self.value(state, depth - 1, alpha, beta);
            state.undo();
            let v = v?;
            if maximise {
                best = best.max(v);
                alpha = alpha.max(v);
            } else {
                best = best.min(v);
                beta = beta.min(v);
            }
            if alpha >= beta {
                break;
            }
        }
        Ok(best)
    }
}

impl<G: Game> Agent<G> for AlphaBeta {
    fn select_action(&mut self, state: &mut G) -> u32 {
        let mut view = searchable(&mut self.rng, state);
        let root = view.as_mut().unwrap_or(state);
        self.me = root.current_player() as usize;
        let mut actions = Vec::new();
        root.legal_actions(&mut actions);
        assert!(!actions.is_empty(), "alphabeta: no action to choose");
        Self::ordered(root, &mut actions);
        if actions.len() == 1 {
            return actions[0];
        }
        self.used = 0;
        self.deadline = Instant::now() + Duration::from_secs_f64(self.seconds);
        let mut best = vec![actions[0]];
        for depth in 1..=self.depth {
            let Ok(scored) = self.root(root, &actions, depth) else { break };
            let top = scored.iter().map(|x| x.0).fold(f64::NEG_INFINITY, f64::max);
            best = scored.iter().filter(|x| x.0 >= top - 1e-9).map(|x| x.1).collect();
            self.score = top;
            self.depth_reached = depth;
            let mut sorted = scored;
            sorted.sort_by(|x, y| (-x.0).partial_cmp(&-y.0).unwrap_or(std::cmp::Ordering::Equal));
            actions = sorted.into_iter().map(|x| x.1).collect();
        }
        self.nodes_searched = self.used;
        *self.rng.choice(&best).expect("alphabeta: no best action")
    }

    fn stats(&self) -> (f64, u64) {
        (self.score, self.nodes_searched)
    }
}
